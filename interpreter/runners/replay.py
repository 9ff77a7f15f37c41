"""Replay a match from its log (`ruledeck play --log FILE.jsonl`): the header names the ruleset, parameters,
players and seed; chance outcomes and actions are applied in order, and every other line is checked against
what the engine makes of them. A log cut short (a crash, Ctrl-C) replays to where it stops."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unicodedata import normalize

from interpreter.actions import ActionSyntaxError
from interpreter.engine.errors import IllegalActionError
from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.errors import ParameterError, RuledeckError, RulesetError, shorten
from interpreter.loader import load_ruleset
from interpreter.runners.integrity import (
    CHAINED,
    chain_problem,
    header_fields_problem,
    header_problem,
    rules_fingerprint,
)
from interpreter.runners.play import MatchResult


class ReplayError(RuledeckError):
    """A log that cannot be replayed: unreadable, or not matching its ruleset."""


@dataclass
class Log:
    """A match log as read: its header, its events, and how many of its bytes are whole lines (a last line cut
    off in the middle of writing is not, and is left out)."""

    header: dict[str, Any]
    events: list[dict[str, Any]]
    whole_bytes: int
    lines: list[int]  # the line number of each event in the file

    @property
    def chained(self) -> bool:
        """Whether its lines are chained by hashes (logs written before the chain are not)."""
        return self.header.get(CHAINED) is True

    @property
    def last_chain(self) -> str | None:
        """The hash the next line chains to (None for a log whose lines are not chained)."""
        if not self.chained:
            return None
        return str(self.events[-1]["chain"]) if self.events else str(self.header["digest"])


def read_log(path: str | Path) -> list[dict[str, Any]]:
    """The header, then the events, of a match log."""
    log = read_log_file(path)
    return [log.header, *log.events]


def read_log_file(path: str | Path) -> Log:
    """A match log, each line checked: a damaged line other than the last is refused (what follows it would
    be lost), a last line cut off in writing is left out; a header that lacks a field, or gives one of another
    type or out of range, is refused naming the field (`check_header_fields`)."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ReplayError(f"{path}: cannot read the log: {error.strerror or error}") from None
    lines = data.splitlines(keepends=True)
    found: list[dict[str, Any]] = []
    numbers: list[int] = []
    whole = 0
    for number, line in enumerate(lines, 1):
        try:
            event = json.loads(line) if line.strip() else None
        except ValueError:  # (UnicodeDecodeError and JSONDecodeError)
            event = _DAMAGED
        except RecursionError:  # (lists or objects nested deeper than Python reads)
            event = _TOO_DEEP
        if event is not None and event is not _DAMAGED and _nesting(event) > _DEEPEST:
            event = _TOO_DEEP  # (what is read is also hashed and compared: no event is nested so deep)
        if event is _DAMAGED or event is _TOO_DEEP or (
                event is not None and not _well_formed(event, first=not found)):
            if number == len(lines) and not line.endswith(b"\n") and found:
                break  # the last line, cut off in the middle of writing
            what = "not JSON" if event is _DAMAGED else "not an event of a ruledeck log"
            if event is _TOO_DEEP:
                what += f": its lists or objects are nested more than {_DEEPEST} levels deep"
            raise ReplayError(f"{path}: line {number} is {what}" + (
                "" if found else " (a match log starts with its `match` header line)"))
        if event is not None:
            if not found and "seat" in event:
                raise ReplayError(f"{path}: line 1: this is the log of what one seat saw (p{event['seat']}), "
                                  "without the shuffles, so it cannot be replayed: replay the full log of the match")
            if not found:
                check_header_fields(path, event, number)
            found.append(event)
            numbers.append(number)
        whole += len(line)
    if not found:
        raise ReplayError(f"{path}: the log is empty")
    return Log(found[0], found[1:], whole, numbers[1:])


def check_header_fields(path: str | Path, header: dict[str, Any], number: int = 1) -> None:
    """Refuse a header (line `number` of the log) that lacks a field or gives one of another type or out of
    range, as a damaged line is refused: before anything of the match is played again."""
    problem = header_fields_problem(header)
    if problem is not None:
        raise ReplayError(f"{path}: line {number} is not an event of a ruledeck log: {problem}")


_DAMAGED: Any = object()
_TOO_DEEP: Any = object()
_DEEPEST = 64  # the deepest a log line's lists and objects may be nested (an event's are a few levels deep)
_MESSAGE_LIMIT = 1000  # the most of the engine's reason quoted (it may quote a long text from the log)


def _nesting(value: Any) -> int:
    """How deep a value read from JSON has lists or objects nested in each other (worked out without recursion,
    and given up on past `_DEEPEST`)."""
    deepest = 0
    waiting: list[tuple[Any, int]] = [(value, 1)]
    while waiting:
        item, depth = waiting.pop()
        if not isinstance(item, (list, dict)):
            continue
        deepest = max(deepest, depth)
        if deepest > _DEEPEST:
            break
        waiting.extend((inner, depth + 1) for inner in (item.values() if isinstance(item, dict) else item))
    return deepest


# The fields of each kind of event (the header's are `header_fields_problem`'s).
_SHAPES: dict[str, tuple[tuple[str, type | tuple[type, ...]], ...]] = {
    "chance": (("zone", str), ("order", list)),
    "pick": (("at", str), ("value", str)),
    "action": (("action", str),),
    "hand": (("hand", int), ("dealer", int)),
    "dealer": (("dealer", int),),
    "hand_end": (("hand", int), ("result", list)),
    "reveal": (("action", str),),
    "breaks": (("action", str), ("rules", list)),
    "log": (("text", str),),
    "result": (),
}


def _well_formed(event: Any, *, first: bool) -> bool:
    """Whether a line is an event of a log: the `match` header first (its fields are checked apart, to name
    the one that is wrong), then events of the kinds a log holds, each with its fields."""
    if not isinstance(event, dict) or not isinstance(event.get("type"), str) or (event["type"] == "match") != first:
        return False
    if first:
        return True
    shape = _SHAPES.get(event["type"])
    return shape is not None and all(isinstance(event.get(key), kind) and not isinstance(event.get(key), bool)
                                     for key, kind in shape)


def replay(path: str | Path, *, verify: bool = True) -> State:
    """The state a log leads to (with `verify`, every line checked against the match played again)."""
    return replay_log(path, read_log_file(path), verify=verify)


def replay_log(path: str | Path, log: Log, *, verify: bool = True) -> State:
    """The state a log already read leads to. Its header and chain are checked first; then chance outcomes and
    actions are applied in order and, with `verify`, every other line must be the event the engine makes
    there, and the result line the match's result: the first difference is refused, naming its line, what
    the match has there and what the log says."""
    header = log.header
    check_header_fields(path, header)  # (as `read_log_file` does: a log made otherwise is checked all the same)
    problem = header_problem(header)
    if problem is not None:
        raise ReplayError(f"{path}: line 1, the header, {problem}")
    if log.chained:
        edited = chain_problem(log.events, header["digest"])
        if edited is not None:
            raise ReplayError(f"{path}: line {log.lines[edited]} was edited (or a line before it was removed or "
                              "added): its `chain` hash does not follow from the lines before it")
    game = _game_of(path, header)
    players = header["players"]
    if players not in game.ruleset.players.counts():
        raise ReplayError(f"{path}: line 1, the header's `players`: {game.name} is for "
                          f"{game.ruleset.players.described()}, not {players}")
    state = game.new_initial_state(seed=header.get("seed"), players=players)
    return _Rerun(path, log, state, verify).run()


class _Rerun:
    """A match played again from its log, line by line."""

    def __init__(self, path: str | Path, log: Log, state: State, verify: bool) -> None:
        self.path, self.log, self.state, self.verify = path, log, state, verify
        self.seed = log.header.get("seed")

    def run(self) -> State:
        made = 0  # how many of the engine's events the log's lines have been matched with
        for index, event in enumerate(self.log.events):
            number = self.log.lines[index]
            kind = event["type"]
            if kind == "result":
                self._check_result(number, event, index)
                break
            if kind == "chance":
                self._shuffle(number, event)
            elif kind == "pick":
                self._pick(number, event)
            elif kind == "action":
                self._act(number, event)
            if self.verify:
                made = self._check_event(number, event, made)
        return self.state

    def _shuffle(self, number: int, event: dict[str, Any]) -> None:
        if not self.state.is_chance_node:
            raise ReplayError(f"{self.path}: line {number} shuffles where the game does not")
        odd = next(((place, card) for place, card in enumerate(event["order"], 1) if not isinstance(card, str)),
                   None)
        if odd is not None:
            raise ReplayError(f"{self.path}: line {number}: the logged shuffle cannot be replayed: item {odd[0]} "
                              f"of its order is {shorten(json.dumps(odd[1]), 40)}, not a card's text")
        try:
            self.state = _shuffled_as_logged(self.state, event["order"], seeded=self.seed is not None)
        except (IllegalActionError, ValueError) as error:
            raise ReplayError(f"{self.path}: line {number}: the logged shuffle cannot be replayed: "
                              f"{shorten(str(error), _MESSAGE_LIMIT)}") from None
        except _NotTheSeedsShuffle:
            raise ReplayError(f"{self.path}: line {number}: the logged shuffle is not the one seed {self.seed} "
                              "makes there: the log was edited") from None

    def _pick(self, number: int, event: dict[str, Any]) -> None:
        """A value picked at random (a `random` step): with a seed, the one the seed picks there (the match then
        goes on drawing as it would have); without one, the value logged."""
        state = self.state
        if not state.is_chance_node or state.chance is None or state.chance[0] is not None:
            raise ReplayError(f"{self.path}: line {number} picks a value where the game does not")
        trial = state.clone()
        seen = trial.event_count
        trial.apply_chance()
        made = next((found for found in trial.events_since(seen) if found["type"] == "pick"), None)
        if made is not None and made["value"] == event["value"]:
            self.state = trial
        elif self.seed is not None:
            raise ReplayError(f"{self.path}: line {number}: the logged pick is not the one seed {self.seed} makes "
                              "there: the log was edited")
        else:
            try:
                state.apply_chance(event["value"])
            except IllegalActionError as error:
                raise ReplayError(f"{self.path}: line {number}: the logged pick cannot be replayed: "
                                  f"{shorten(str(error), _MESSAGE_LIMIT)}") from None

    def _act(self, number: int, event: dict[str, Any]) -> None:
        try:
            self.state.apply(event["action"])
        except (IllegalActionError, ActionSyntaxError) as error:
            raise ReplayError(f"{self.path}: line {number}: the logged action `{shorten(event['action'])}` "
                              f"cannot be replayed: {shorten(str(error), _MESSAGE_LIMIT)}") from None

    def _check_event(self, number: int, event: dict[str, Any], made: int) -> int:
        """The log's line against the engine's next event (the events of chance outcomes and actions are made
        by applying them; the others follow from those)."""
        events = self.state.events_since(made)
        if not events:
            waiting = "the match is over" if self.state.is_terminal else (
                "the next shuffle" if self.state.is_chance_node else f"an action of p{self.state.current_player}")
            self._differ(number, f"{waiting} ({self.state.phase})" if not self.state.is_terminal else waiting,
                         event)
        expected = json.loads(json.dumps(events[0]))
        if expected != _without_chain(event):
            self._differ(number, expected, event)
        return made + 1

    def _check_result(self, number: int, event: dict[str, Any], index: int) -> None:
        if index + 1 < len(self.log.events):
            raise ReplayError(f"{self.path}: line {self.log.lines[index + 1]} follows the result line "
                              f"{number}: a match log ends with its result")
        if not self.verify:
            return
        if not self.state.is_terminal:
            self._differ(number, f"the match going on ({self.state.phase})", event)
        expected = json.loads(json.dumps({"type": "result", **match_result(self.state)}))
        if expected != _without_chain(event):
            self._differ(number, expected, event)

    def _differ(self, number: int, expected: str | dict[str, Any], event: dict[str, Any]) -> None:
        shown, found = (_text(expected) if isinstance(expected, dict) else expected), _text(_without_chain(event))
        if isinstance(expected, dict) and normalize("NFKC", shown) == normalize("NFKC", found):
            # (they differ where it does not show, a character that looks like another: both shown escaped)
            shown, found = _text(expected, escaped=True), _text(_without_chain(event), escaped=True)
        raise ReplayError(f"{self.path}: line {number} differs from the match played again: expected "
                          f"{shown}, found {found}")


def match_result(state: State) -> dict[str, Any]:
    """The result line of a finished match (as `ruledeck play` writes it)."""
    return MatchResult(state.game.name, state.player_count, state.seed, len(state.hand_results), state.returns(),
                       state.hand_results, len(state.history), state.ended_by).as_json()


def _without_chain(event: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in event.items() if key != "chain"}


def _text(event: dict[str, Any], *, escaped: bool = False) -> str:
    """An event as an error quotes it (with every character that is not ASCII escaped, when `escaped`)."""
    return shorten(json.dumps(event, ensure_ascii=escaped, sort_keys=True), 400)


def _game_of(path: str | Path, header: dict[str, Any]) -> Game:
    """The game a log was played with. The file its header names is read as a ruleset and nothing else: one
    that does not load is refused without quoting it (the header may name any file), and one that loads must
    have the rules the match was played under."""
    ruleset = ruleset_of(path, header)
    try:
        game = load_ruleset(ruleset, header["params"])
    except RulesetError:
        raise ReplayError(f"{path}: line 1 names {shorten(str(ruleset))} as the ruleset, but it does not load as "
                          "one (`ruledeck validate` on it says why)") from None
    except ParameterError as error:  # (another ruleset has other parameters: say so first, when it is another)
        if _is_the_ruleset(ruleset, header):
            raise ReplayError(f"{path}: line 1, the header's `params`: {error}") from None
        raise ReplayError(f"{path}: line 1: {shorten(str(ruleset))} is not the ruleset the match was played "
                          f"with (it was changed since, or it is another file: {error})") from None
    if header["rules"] != rules_fingerprint(game):
        raise ReplayError(f"{path}: line 1: {shorten(str(ruleset))} is not the ruleset the match was played with "
                          "(it was changed since, or it is another file): a log is played again, or goes on, only "
                          "under the rules it was played with. Put that file back as it was; or play the rules as "
                          f"they are now from the same seed: `{_fresh_play(ruleset, header, game)}`")
    return game


def _is_the_ruleset(ruleset: Path, header: dict[str, Any]) -> bool:
    """Whether a ruleset that does not take a header's parameters is, with its own, the one the match was
    played with (then what is wrong is the parameters)."""
    try:
        return rules_fingerprint(load_ruleset(ruleset, {})) == str(header["rules"])
    except (RulesetError, ParameterError):
        return False


def _fresh_play(ruleset: Path, header: dict[str, Any], game: Game) -> str:
    """The command that plays a ruleset from a log's seed, with its players and the parameters the log gives
    other values than the ruleset's defaults now (a new match: the same shuffles, as far as the rules shuffle
    alike)."""
    words = ["ruledeck", "play", shlex.quote(str(ruleset))]
    if isinstance(header.get("seed"), int):
        words += ["--seed", str(header["seed"])]
    if isinstance(header.get("players"), int):
        words += ["--players", str(header["players"])]
    params = header.get("params")
    specs = game.ruleset.parameters
    for name, value in (params.items() if isinstance(params, dict) else ()):
        if name in specs and value != specs[name].default:
            text = "null" if value is None else ("true" if value else "false") if isinstance(value, bool) else value
            words += ["--set", shlex.quote(f"{name}={text}")]
    return shorten(" ".join(words), 300)


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
    seen = trial.event_count
    trial.apply_chance()
    made = next((event["order"] for event in trial.events_since(seen) if event["type"] == "chance"), None)
    if made == order:
        return trial
    if seeded:
        raise _NotTheSeedsShuffle()
    state.apply_chance(order)
    return state
