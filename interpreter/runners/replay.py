"""Replay a match from its log (`ruledeck play --log FILE.jsonl`): the header names the ruleset, parameters,
players and seed; chance outcomes and actions are applied in order. A log cut short (a crash, Ctrl-C)
replays to where it stops."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
    game = load_ruleset(header["ruleset"], header.get("params") or {})
    state = game.new_initial_state(seed=header.get("seed"), players=header["players"])
    for event in events[1:]:
        kind = event.get("type")
        if kind == "chance":
            if not state.is_chance_node:
                raise ReplayError(f"{path}: the log shuffles where the game does not")
            state.apply_chance(event["order"])
        elif kind == "action":
            state.apply(event["action"])
    return state
