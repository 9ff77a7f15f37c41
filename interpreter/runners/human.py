"""A person at the terminal plays a seat: they see their own view and pick from the legal actions."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import click

from interpreter.actions import Action, ActionSyntaxError
from interpreter.engine.errors import IllegalActionError
from interpreter.engine.state import State
from interpreter.errors import MAX_MESSAGE, shorten


class Quit(Exception):
    """The person asked to stop."""


def _show_zones(view: dict[str, Any], seat: int) -> list[str]:
    lines = []
    for name, value in view["zones"].items():
        if isinstance(value, list):
            for owner, part in enumerate(value):
                shown = _zone_text(part)
                if shown:
                    who = "you" if owner == seat else f"p{owner}"
                    lines.append(f"  {name} ({who}): {shown}")
        else:
            shown = _zone_text(value)
            if shown:
                lines.append(f"  {name}: {shown}")
    return lines


def _zone_text(part: dict[str, Any]) -> str:
    if "cards" in part:
        return " ".join(part["cards"]) if part["cards"] else ""
    count = part.get("count")
    text = f"{count} card{'s' if count != 1 else ''}" if count else ""
    if part.get("face_up"):
        text += f" (face up: {' '.join(part['face_up'])})"
    return text


HELP = """  Answer with the number of a move, or its text (`play AH`, `choose pass`; the seat may be left out;
  several cards as one argument are joined with `+`, in any order: `choose capture taken 3D+4C`).
  `?` shows this again, `q` stops the match: it is kept in its log, and `ruledeck play --resume FILE`
  goes on with it."""


def _variable_text(value: Any, type_name: str) -> str:
    """A variable's value as the transcript writes it: a seat as p1, a team as t0 (cards and suits come by
    name already)."""
    if isinstance(value, int) and not isinstance(value, bool) and type_name in ("seat", "team"):
        return f"{'p' if type_name == 'seat' else 't'}{value}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


_SEAT = re.compile(r"p[0-9]+\s")  # an answer that names its seat (`play AH` does not: it starts with a verb)


def _is_number(answer: str) -> bool:
    """Whether an answer is written in the digits 0-9 alone (`²` and other digits of Unicode are not)."""
    return answer.isascii() and answer.isdigit()


def human_chooser(seat: int, prompt: Callable[[str], str] = click.prompt) -> Callable[[State], Action]:
    """Ask at the terminal; a number or an action's text picks it, `?` explains, `q` (or the end of input)
    stops (the log keeps the match)."""

    def choose(state: State) -> Action:
        view = state.observation(seat)
        click.echo(f"\nYou are p{seat}. Hand {view['hand']}, dealer p{view['dealer']}, phase {view['phase']}.")
        for line in _show_zones(view, seat):
            click.echo(line)
        public = {k: v for k, v in view["variables"].items() if v is not None and not isinstance(v, list)}
        if public:
            kinds = state.game.ruleset.variables
            click.echo("  " + ", ".join(f"{k} {_variable_text(v, getattr(kinds.get(k), 'type', ''))}"
                                        for k, v in public.items()))
        legal = state.legal_actions()
        for index, action in enumerate(legal, 1):
            click.echo(f"  {index:>2}. {state.action_text(action)}")
        while True:
            try:
                answer = prompt("Your move (number or text, ? for help, q to stop)").strip()
            except click.Abort:  # the end of input, or Ctrl-C at the prompt
                raise Quit() from None
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit()
            if answer.lower() in ("?", "h", "help"):
                click.echo(HELP)
                continue
            if _is_number(answer):
                if len(answer) <= len(str(len(legal))) and 1 <= int(answer) <= len(legal):
                    return legal[int(answer) - 1]
                click.echo(f"  there is no move {shorten(answer, 20)}: answer 1 to {len(legal)}, or a move's text")
                continue
            try:
                action = state.parse_action(answer if _SEAT.match(answer) else f"p{seat} {answer}")
                state.check(action)
                return action
            except (ActionSyntaxError, IllegalActionError) as error:
                click.echo(f"  {shorten(str(error), MAX_MESSAGE)}")

    return choose
