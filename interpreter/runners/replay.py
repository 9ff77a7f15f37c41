"""Replay a match from its log (`ruledeck play --log FILE.jsonl`): the header names the ruleset, parameters,
players and seed; chance outcomes and actions are applied in order. A log cut short (a crash, Ctrl-C)
replays to where it stops."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from interpreter.actions import ActionSyntaxError
from interpreter.engine.errors import IllegalActionError
from interpreter.engine.state import State
from interpreter.errors import RuledeckError
from interpreter.loader import load_ruleset


class ReplayError(RuledeckError):
    """A log that cannot be replayed: unreadable, or not matching its ruleset."""


def read_log(path: str | Path) -> list[dict[str, Any]]:
    events = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            if number == 1:
                raise ReplayError(f"{path}: line 1 is not JSON") from None
            break  # a last line cut off in the middle of writing
    if not events or events[0].get("type") != "match":
        raise ReplayError(f"{path}: not a ruledeck match log (its first line must be the match header)")
    return events


def replay(path: str | Path) -> State:
    """The state a log leads to."""
    events = read_log(path)
    header = events[0]
    game = load_ruleset(ruleset_of(path, header), header.get("params") or {})
    state = game.new_initial_state(seed=header.get("seed"), players=header["players"])
    for event in events[1:]:
        kind = event.get("type")
        if kind == "chance":
            if not state.is_chance_node:
                raise ReplayError(f"{path}: the log shuffles where the game does not")
            try:
                state = _shuffled_as_logged(state, event["order"])
            except (IllegalActionError, ValueError) as error:
                raise ReplayError(f"{path}: a logged shuffle cannot be replayed: {error}") from None
        elif kind == "action":
            try:
                state.apply(event["action"])
            except (IllegalActionError, ActionSyntaxError) as error:
                raise ReplayError(f"{path}: the logged action `{event['action']}` cannot be replayed: {error}") \
                    from None
    return state


def ruleset_of(path: str | Path, header: dict[str, Any]) -> Path:
    """The ruleset file a log's header names: as written, or else beside the log."""
    named = header.get("ruleset")
    if not isinstance(named, str) or "players" not in header:
        raise ReplayError(f"{path}: the match header names no ruleset and players")
    if Path(named).exists():
        return Path(named)
    beside = Path(path).parent / named
    if beside.exists():
        return beside
    raise ReplayError(f"{path}: the ruleset it was played with, {named}, is not found")


def _shuffled_as_logged(state: State, order: list[str]) -> State:
    """The logged shuffle. The state's own generator, seeded as the log says, makes the same order, and then
    it is used (so that a match resumed from the log goes on shuffling as it would have); a stacked order is
    put as it is."""
    trial = state.clone()
    seen = len(trial.events)
    trial.apply_chance()
    made = next((event["order"] for event in trial.events[seen:] if event["type"] == "chance"), None)
    if made == order:
        return trial
    state.apply_chance(order)
    return state
