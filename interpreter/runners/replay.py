"""Replay a match from its log (`ruledeck play --log FILE.jsonl`): the header names the ruleset, parameters,
players and seed; chance outcomes and actions are applied in order. A log cut short (a crash, Ctrl-C)
replays to where it stops."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.actions import ActionSyntaxError
from interpreter.engine.errors import IllegalActionError
from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.errors import ParameterError, RuledeckError, RulesetError, shorten
from interpreter.loader import load_ruleset
from interpreter.runners.integrity import header_problem, rules_fingerprint


class ReplayError(RuledeckError):
    """A log that cannot be replayed: unreadable, or not matching its ruleset."""


@dataclass
class Log:
    """A match log as read: its header, its events, and how many of its bytes are whole lines (a last line cut
    off in the middle of writing is not, and is left out)."""

    header: dict[str, Any]
    events: list[dict[str, Any]]
    whole_bytes: int


def read_log(path: str | Path) -> list[dict[str, Any]]:
    """The header, then the events, of a match log."""
    log = read_log_file(path)
    return [log.header, *log.events]


def read_log_file(path: str | Path) -> Log:
    """A match log, each line checked: a damaged line other than the last is refused (what follows it would
    be lost), a last line cut off in writing is left out."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ReplayError(f"{path}: cannot read the log: {error.strerror or error}") from None
    lines = data.splitlines(keepends=True)
    found: list[dict[str, Any]] = []
    whole = 0
    for number, line in enumerate(lines, 1):
        try:
            event = json.loads(line) if line.strip() else None
        except ValueError:  # (UnicodeDecodeError and JSONDecodeError)
            event = _DAMAGED
        if event is _DAMAGED or (event is not None and not _well_formed(event, first=not found)):
            if number == len(lines) and not line.endswith(b"\n") and found:
                break  # the last line, cut off in the middle of writing
            what = "not JSON" if event is _DAMAGED else "not an event of a ruledeck log"
            raise ReplayError(f"{path}: line {number} is {what}" + (
                "" if found else " (a match log starts with its `match` header line)"))
        if event is not None:
            found.append(event)
        whole += len(line)
    if not found:
        raise ReplayError(f"{path}: the log is empty")
    return Log(found[0], found[1:], whole)


_DAMAGED: Any = object()
_SHAPES: dict[str, tuple[tuple[str, type | tuple[type, ...]], ...]] = {
    "match": (("ruleset", str), ("players", int)),
    "chance": (("zone", str), ("order", list)),
    "pick": (("at", str), ("value", str)),
    "action": (("action", str),),
    "hand": (("hand", int), ("dealer", int)),
    "hand_end": (("hand", int), ("result", list)),
    "reveal": (("action", str),),
    "log": (("text", str),),
    "result": (),
}


def _well_formed(event: Any, *, first: bool) -> bool:
    if not isinstance(event, dict) or (event.get("type") == "match") != first:
        return False
    shape = _SHAPES.get(event.get("type"))  # type: ignore[arg-type]
    if shape is None or not all(isinstance(event.get(key), kind) and not isinstance(event.get(key), bool)
                                for key, kind in shape):
        return False
    return not first or ((event.get("seed") is None or isinstance(event.get("seed"), int)) and \
        isinstance(event.get("params", {}), dict))


def replay(path: str | Path) -> State:
    """The state a log leads to."""
    return replay_log(path, read_log_file(path))


def replay_log(path: str | Path, log: Log) -> State:
    """The state a log already read leads to."""
    header = log.header
    problem = header_problem(header)
    if problem is not None:
        raise ReplayError(f"{path}: line 1, the header, {problem}")
    game = _game_of(path, header)
    players = header["players"]
    if players not in game.ruleset.players.counts():
        raise ReplayError(f"{path}: {game.name} is for {game.ruleset.players.minimum} to "
                          f"{game.ruleset.players.maximum} players, not {players}")
    state = game.new_initial_state(seed=header.get("seed"), players=players)
    for number, event in enumerate(log.events, 2):
        kind = event["type"]
        if kind == "chance":
            if not state.is_chance_node:
                raise ReplayError(f"{path}: line {number} shuffles where the game does not")
            try:
                state = _shuffled_as_logged(state, event["order"], seeded=header.get("seed") is not None)
            except (IllegalActionError, ValueError) as error:
                raise ReplayError(f"{path}: line {number}: the logged shuffle cannot be replayed: {error}") \
                    from None
            except _NotTheSeedsShuffle:
                raise ReplayError(f"{path}: line {number}: the logged shuffle is not the one seed "
                                  f"{header['seed']} makes there: the log was edited") from None
        elif kind == "pick":
            if not state.is_chance_node or state.chance is None or state.chance[0] is not None:
                raise ReplayError(f"{path}: line {number} picks a value where the game does not")
            trial = state.clone()
            seen = len(trial.events)
            trial.apply_chance()
            made = next((event for event in trial.events[seen:] if event["type"] == "pick"), None)
            if made is not None and made["value"] == event["value"]:
                state = trial  # (the seed's own pick: the match goes on drawing as it would have)
            elif header.get("seed") is not None:
                raise ReplayError(f"{path}: line {number}: the logged pick is not the one seed {header['seed']} "
                                  "makes there: the log was edited")
            else:
                try:
                    state.apply_chance(event["value"])
                except IllegalActionError as error:
                    raise ReplayError(f"{path}: line {number}: the logged pick cannot be replayed: {error}") \
                        from None
        elif kind == "action":
            try:
                state.apply(event["action"])
            except (IllegalActionError, ActionSyntaxError) as error:
                raise ReplayError(f"{path}: line {number}: the logged action `{event['action']}` cannot be "
                                  f"replayed: {error}") from None
    return state


def _game_of(path: str | Path, header: dict[str, Any]) -> Game:
    """The game a log was played with. The file its header names is read as a ruleset and nothing else: one
    that does not load is refused without quoting it (the header may name any file), and one that loads must
    have the rules the match was played under."""
    ruleset = ruleset_of(path, header)
    try:
        game = load_ruleset(ruleset, header.get("params") or {})
    except RulesetError:
        raise ReplayError(f"{path}: line 1 names {shorten(str(ruleset))} as the ruleset, but it does not load as "
                          "one (`ruledeck validate` on it says why)") from None
    except ParameterError as error:
        raise ReplayError(f"{path}: line 1: the ruleset does not accept the logged parameters: {error}") from None
    if header.get("rules") not in (None, rules_fingerprint(game)):
        raise ReplayError(f"{path}: line 1: {shorten(str(ruleset))} is not the ruleset the match was played with "
                          "(it was changed since, or it is another file), so the match cannot go on under it")
    return game


def ruleset_of(path: str | Path, header: dict[str, Any]) -> Path:
    """The ruleset file a log's header names: where it says, or beside the log (under the same relative path,
    or by its file name)."""
    named = Path(header["ruleset"])
    beside = Path(path).parent
    for candidate in (named, beside / named, beside / named.name):
        try:
            if candidate.is_file():
                return candidate
        except OSError:  # a name longer than the system allows
            continue
    raise ReplayError(f"{path}: the ruleset it was played with, {shorten(str(named))}, is not found; put it "
                      "there, or beside the log")


class _NotTheSeedsShuffle(Exception):
    pass


def _shuffled_as_logged(state: State, order: list[str], *, seeded: bool) -> State:
    """The logged shuffle. The state's own generator, seeded as the log says, makes the same order, and then
    it is used (so that a match resumed from the log goes on shuffling as it would have). In a match played
    with a seed any other order is an edit (a deck stacked in the log); without one, the order is put as it
    is."""
    trial = state.clone()
    seen = len(trial.events)
    trial.apply_chance()
    made = next((event["order"] for event in trial.events[seen:] if event["type"] == "chance"), None)
    if made == order:
        return trial
    if seeded:
        raise _NotTheSeedsShuffle()
    state.apply_chance(order)
    return state
