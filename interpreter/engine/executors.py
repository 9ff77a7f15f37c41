"""What each step verb does: a table from verb to a function of (state, step, bindings). Effects happen at
once; blocks push the frame that runs them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.frames import Decide, ForEach, Repeat, Round, Trick, Turns
from interpreter.engine.program import Step

if TYPE_CHECKING:
    from interpreter.engine.state import State

Bindings = dict[str, Any]


def _set(state: State, step: Step, bindings: Bindings) -> None:
    state._assign(step["target"], bindings, state.evaluate(step["value"], bindings))


def _change(state: State, step: Step, bindings: Bindings) -> None:
    target = step["target"]
    state._assign(target, bindings, state._read(target, bindings) + state.evaluate(step["by"], bindings))


def _transfer(state: State, step: Step, bindings: Bindings) -> None:
    amount = state.evaluate(step["amount"], bindings)
    source, destination = step["source"], step["destination"]
    state._assign(source, bindings, state._read(source, bindings) - amount)
    state._assign(destination, bindings, state._read(destination, bindings) + amount)


def _move(state: State, step: Step, bindings: Bindings) -> None:
    state._move(step, bindings)


def _shuffle(state: State, step: Step, bindings: Bindings) -> None:
    key, _ = state.zone(step["zone"], bindings)
    state.chance = (key, step.where)


def _deal(state: State, step: Step, bindings: Bindings) -> None:
    source_key, source = state.zone(step["source"], bindings)
    seats = None if step["seats"] is None else list(state.evaluate(step["seats"], bindings))
    state.deal_cards(source_key, source, step["zone"], int(state.evaluate(step["count"], bindings)), seats,
                     step["one_at_a_time"], step["face_up"], bindings, step.where)


def _if(state: State, step: Step, bindings: Bindings) -> None:
    branch = step["then"] if state.evaluate(step["condition"], bindings) else step["else"]
    if branch:
        state.run_block(branch, bindings)


def _for_each(state: State, step: Step, bindings: Bindings) -> None:
    state.stack.append(ForEach(step, list(state.evaluate(step["items"], bindings)), bindings))


def _repeat(state: State, step: Step, bindings: Bindings) -> None:
    times = step["times"]
    state.stack.append(Repeat(step, None if times is None else int(state.evaluate(times, bindings)), bindings))


def _round(state: State, step: Step, bindings: Bindings) -> None:
    first = state.evaluate(step["first"], bindings)
    count = state.player_count
    state.stack.append(Round(step, [(first + offset) % count for offset in range(count)], bindings))


def _turns(state: State, step: Step, bindings: Bindings) -> None:
    state.stack.append(Turns(step, state.evaluate(step["first"], bindings), bindings))


def _decide(state: State, step: Step, bindings: Bindings) -> None:
    seat = state.evaluate(step["seat"], bindings)
    if state.game.has_simultaneous_rounds:
        round_frame = state.simultaneous_round()
        if round_frame is not None and any(perform.action.seat == seat for perform in round_frame.deferred):
            raise RulesetRuntimeError(f"p{seat} would decide twice in a simultaneous round, before the effects of "
                                      "its first choice (each seat decides once in such a round)", step.where)
    frame = Decide(step, seat, bindings)
    state.stack.append(frame)
    frame.run(state)  # the decision waits at once (the machine would run the frame next anyway)


def _trick(state: State, step: Step, bindings: Bindings) -> None:
    count = step["count"]
    total = None if count is None else int(state.evaluate(count, bindings))
    state.stack.append(Trick(step, state.evaluate(step["leader"], bindings), total, bindings))


def _form_team(state: State, step: Step, bindings: Bindings) -> None:
    state.form_team(list(state.evaluate(step["seats"], bindings)))


def _log(state: State, step: Step, bindings: Bindings) -> None:
    state.note_parts(tuple(part if isinstance(part, str) else (state.evaluate(part.expression, bindings), part.type)
                           for part in step["parts"]))


EXECUTORS: dict[str, Callable[[State, Step, Bindings], None]] = {
    "set": _set, "change": _change, "transfer": _transfer, "move": _move, "shuffle": _shuffle, "deal": _deal,
    "if": _if, "for_each": _for_each, "repeat": _repeat, "round": _round, "turns": _turns, "decide": _decide,
    "trick": _trick, "log": _log, "form_team": _form_team,
}
