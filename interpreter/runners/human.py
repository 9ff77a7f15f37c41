"""A person at the terminal plays a seat: they see their own view and pick from the legal actions."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import click

from interpreter.actions import Action, ActionSyntaxError
from interpreter.engine.errors import IllegalActionError
from interpreter.engine.state import State
from interpreter.errors import MAX_MESSAGE, shorten
from interpreter.runners.table_text import moves_text, view_text
from interpreter.view import in_hand_order, table_view


class Quit(Exception):
    """The person asked to stop."""


HELP = """  Answer with the number of a move, or its text (`play AH`, `choose pass`; the seat may be left out;
  several cards as one argument are joined with `+`, in any order: `choose capture taken 3D+4C`). The text
  may be in any case, its cards in any order (`meld 10s+10h+10d`), and its kind left out when only one move
  fits (`ah` for `play AH`).
  Cards are written rank then suit (`10H`, `AS`; `JK` is a joker). On the table, `p1 AH` is the card p1
  played; a meld is named by its id (`m2`), as `add 9H to m2` names it, and `2S=9H` is a wild card standing
  for 9H. `(yours)` marks your own zones; `?` stands for a value you may not see.
  `?` shows this again, `q` stops the match: it is kept in its log, and `ruledeck play --resume FILE`
  goes on with it."""


_SEAT = re.compile(r"p[0-9]+\s")  # an answer that names its seat (`play AH` does not: it starts with a verb)


def _is_number(answer: str) -> bool:
    """Whether an answer is written in the digits 0-9 alone (`²` and other digits of Unicode are not)."""
    return answer.isascii() and answer.isdigit()


def human_chooser(seat: int, prompt: Callable[[str], str] = click.prompt) -> Callable[[State], Action]:
    """Ask at the terminal; a number or an action's text picks it, `?` explains, `q` (or the end of input)
    stops (the log keeps the match)."""

    last_hand: list[tuple[int, Counter[str]]] = [(0, Counter())]  # (hand number, cards) when the seat last chose

    def choose(state: State) -> Action:
        last_hand[0] = show(state, seat, last_hand[0])
        legal = state.legal_actions()
        legal = [legal[index] for index in in_hand_order(table_view(state, seat))]  # (numbered as shown)
        while True:
            try:
                answer = prompt("Your move (number or text, ? for help, q to stop)").strip()
            except click.Abort:  # the end of input, or Ctrl-C at the prompt
                click.echo()  # (the prompt's line ended)
                raise Quit() from None
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit()
            if answer.lower() in ("?", "h", "help"):
                click.echo(HELP)
                continue
            if not answer:
                click.echo(f"  answer with a move's number, 1 to {len(legal)}, or its text (? for help)")
                continue
            if _is_number(answer.removeprefix("-")):
                if len(answer) <= len(str(len(legal))) and 1 <= int(answer) <= len(legal):
                    return legal[int(answer) - 1]
                click.echo(f"  there is no move {shorten(answer, 20)}: answer 1 to {len(legal)}, or a move's text")
                continue
            try:
                action = state.parse_action(answer if _SEAT.match(answer) else f"p{seat} {answer}")
                state.check(action)
                return action
            except (ActionSyntaxError, IllegalActionError) as error:
                fitting = _fitting(state, legal, answer)
                if len(fitting) == 1:  # (the move's words in another case or order, `+`-joined, or its kind left out)
                    return legal[fitting[0] - 1]
                if fitting:
                    click.echo(f"  {shorten(answer, 40)!r} fits several moves: "
                               f"{', '.join(_numbered(state, legal, fitting))}: answer with its number")
                    continue
                message = str(error)
                if isinstance(error, ActionSyntaxError) and "is not an action: expected e.g." in message:
                    example = state.action_text(legal[0]).split(" ", 1)[1]
                    message = f"{shorten(answer, 40)!r} is not a move: answer with a move's number, 1 to " \
                              f"{len(legal)}, or its text, e.g. `{example}`"
                click.echo(f"  {shorten(message, MAX_MESSAGE)}")
                meant = _meant(state, legal, seat, answer)
                if meant:
                    click.echo(f"  (did you mean {meant}?)")

    return choose


def _words(text: str) -> Counter[str]:
    """A move's words as a person may type them: in any case and order, cards joined by `+` or apart."""
    return Counter(text.casefold().replace("+", " ").split())


def _fitting(state: State, legal: list[Action], answer: str) -> list[int]:
    """The numbers of the legal moves an answer names with their words in another case or order (`play as`,
    `meld 10s+10h+10d`), or without their kind when that leaves one move (`AS` for `play AS`)."""
    if _SEAT.match(answer + " "):  # (the seat named: its own moves only)
        named, _, answer = answer.partition(" ")
        if legal and named.casefold() != f"p{legal[0].seat}":
            return []
    words = _words(answer)
    found, without_kind = [], []
    for number, action in enumerate(legal, 1):
        text = _words(state.action_text(action).split(" ", 1)[1])
        if text == words:
            found.append(number)
        elif text - Counter([state.action_text(action).split()[1].casefold()]) == words:
            without_kind.append(number)
    return found or without_kind


def _numbered(state: State, legal: list[Action], numbers: list[int]) -> list[str]:
    shown = [f"{number} `{state.action_text(legal[number - 1]).split(' ', 1)[1]}`" for number in numbers[:4]]
    return shown + (["..."] if len(numbers) > 4 else [])


def _meant(state: State, legal: list[Action], seat: int, answer: str) -> str:
    """The legal moves an answer that is no move may have meant: those whose text, the seat left out, starts
    with its words once `choose` is put before them (`take` for `choose take`), numbered as listed."""
    words = answer.split()
    if not words or words[0] == "choose":
        return ""
    wanted = " ".join(["choose", *words])
    found = [f"{number} `{text}`" for number, text in
             ((number, state.action_text(action).split(" ", 1)[1]) for number, action in enumerate(legal, 1))
             if text == wanted or text.startswith(wanted + " ")]
    return " or ".join(found[:3]) + (" ..." if len(found) > 3 else "")


def show(state: State, seat: int, before: tuple[int, Counter[str]] = (0, Counter())) -> tuple[int, Counter[str]]:
    """The table as the seat sees it, then its moves, numbered. Returns the hand shown (with the hand's number),
    so that the next showing in the same hand can say which cards are new (`before`: the one shown last)."""
    view = table_view(state, seat)
    hand = Counter(card for group in view.hand or () for card in group.cards)
    new_cards: list[str] = []
    if before[0] == view.hand_number:
        new_cards = sorted((hand - before[1]).elements(), key=list(hand).index)
    click.echo(view_text(view, state.game.deck.suits, new_cards=new_cards), nl=False)
    click.echo(f"Your turn (p{seat}), phase {state.phase}. You may:")
    breaking = {state.action_text(action) for action in state.breaking}
    moves = [f"{move} (breaks a rule!)" if move in breaking else move
             for move in (view.legal_actions[index] for index in in_hand_order(view))]
    for line in moves_text(moves, seat):
        click.echo(line)
    for move, clauses in state.breaking.items():
        click.echo(f"  {state.action_text(move)} breaks: {'; '.join(clause.reason for clause in clauses)}")
    return view.hand_number, hand
