"""Rule scenarios as data: a file names a ruleset, and each case stacks the deck (or starts at a phase with
cards placed), applies actions and states what must hold. See docs/scenarios.md."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.actions import ActionSyntaxError
from interpreter.bundled import close_bundled, extended_file
from interpreter.dsl.definitions import did_you_mean
from interpreter.engine.errors import IllegalActionError, RulesetRuntimeError
from interpreter.engine.game import Game
from interpreter.engine.melds import Meld
from interpreter.engine.state import CHANCE, TERMINAL, State
from interpreter.errors import Diagnostic, ParameterError, RuledeckError, RulesetError, shorten
from interpreter.loader import load_ruleset
from interpreter.model import VariableSpec
from interpreter.numbers import number_text, parse_number
from interpreter.runners.scenario_start import (
    CASE_KEYS,
    FILE_KEYS,
    START_KEYS,
    CaseFailure,
    placed_melds,
    rest_zone,
    seating_given,
    teams_formed,
    unknown_key,
)
from interpreter.source import (
    MAX_FILE_BYTES,
    MappingNode,
    Node,
    SequenceNode,
    UnreadableFile,
    load_plain,
    parse_text,
    read_bounded,
)


class ScenarioError(RuledeckError):
    """A scenario file that cannot be read or that names something the ruleset lacks. `rendered`: the message is
    a located finding already (`FILE:LINE:COL: error[...]: ...`), printed as it is."""

    def __init__(self, message: str, *, rendered: bool = False) -> None:
        super().__init__(message)
        self.rendered = rendered


_Failure = CaseFailure


@dataclass
class CaseResult:
    file: str
    name: str
    passed: bool
    message: str = ""
    line: int | None = None  # where the case starts in its file, when the file could be read with lines


class NotAScenario(ScenarioError):
    """The file is a ruleset or a variant (`format:` or `extends:`, no `cases:`), not a scenario file: a folder
    of both is run for its scenario files alone."""


def run_file(path: str | Path) -> list[CaseResult]:
    """Every case of one scenario file."""
    path = Path(path)
    try:
        raw, size = read_bounded(path, "a scenario file")
    except UnreadableFile as unreadable:
        hint = f" ({unreadable.hint})" if unreadable.hint else ""
        raise ScenarioError(f"{path}: {unreadable.problem}{hint}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ScenarioError(f"{path}: the file is {size:,} bytes; a scenario file may be at most "
                            f"{MAX_FILE_BYTES:,}")
    if b"\x00" in raw:
        raise ScenarioError(f"{path}: cannot read the scenario file: it is binary, not YAML text")
    try:
        text = raw.decode("utf-8-sig")
        data = load_plain(text, str(path))
    except UnicodeDecodeError as error:
        raise ScenarioError(f"{path}: the file is not UTF-8 text (byte 0x{raw[error.start]:02X} at "
                            f"{error.start:,} cannot be decoded): save it as UTF-8") from None
    except ValueError as error:
        raise ScenarioError(f"{path}: cannot read the scenario file: {error}") from None
    except RulesetError as error:  # located like a finding of `ruledeck validate`
        raise ScenarioError(error.render(), rendered=True) from None
    root = _located(text, path)
    if isinstance(data, dict) and "cases" not in data and ("format" in data or "extends" in data):
        kind = "a ruleset" if "format" in data else "a variant"
        raise NotAScenario(f"{path} is {kind}, not a scenario file (`ruleset:` and a list of `cases:`): `ruledeck "
                           f"validate {path}` checks it")
    if not isinstance(data, dict) or "ruleset" not in data or "cases" not in data or \
            not isinstance(data["cases"], list | None):  # (`cases:` with nothing after it: refused below, located)
        raise ScenarioError(f"{path}: a scenario file has `ruleset:` and a list of `cases:`")
    unknown = unknown_key(data, FILE_KEYS, "the scenario file")
    if unknown:
        raise ScenarioError(f"{path}: {unknown}")
    ruleset = _ruleset_path(path, data["ruleset"], root)
    cases: list[Any] | None = data["cases"]
    untested = _untested(path, cases, root)
    if untested or not cases:  # (no case at all is always a finding)
        raise ScenarioError(RulesetError(untested).render(), rendered=True)
    games: dict[tuple[tuple[str, Any], ...], Game] = {}
    results = []
    case_nodes = root.entries.get("cases") if root is not None else None
    lines = [item.location.line for item in case_nodes.items] if isinstance(case_nodes, SequenceNode) else []
    for number, case in enumerate(cases, 1):
        name = str(case.get("name", f"case {number}")) if isinstance(case, dict) else f"case {number}"
        line = lines[number - 1] if number <= len(lines) else None
        try:
            if not isinstance(case, dict):
                raise _Failure("a case is a mapping with `name`, `steps` and a start")
            params = {**_params(data.get("params")), **_params(case.get("params"))}
            key = tuple(sorted(params.items()))
            if key not in games:
                games[key] = load_ruleset(ruleset, params)
            _run_case(games[key], data, case)
            results.append(CaseResult(str(path), name, True, line=line))
        except _Failure as failure:
            results.append(CaseResult(str(path), name, False, str(failure), line))
        except (RulesetError, ParameterError) as error:
            raise ScenarioError(f"{path}: the ruleset {ruleset} cannot be loaded:\n{error}") from None
        except RuledeckError as error:
            results.append(CaseResult(str(path), name, False, f"{type(error).__name__}: {error}", line))
        except Exception as error:  # a bug: this case fails, saying so, and the others still run
            if os.environ.get("RULEDECK_DEBUG"):
                raise
            results.append(CaseResult(str(path), name, False, f"internal error: {type(error).__name__}: {error} "
                                      "(a bug in ruledeck; RULEDECK_DEBUG=1 shows where)", line))
    return results


def _located(text: str, path: Path) -> MappingNode | None:
    """The file's tree with every value's line, read as a ruleset is read: a key that appears twice in one mapping
    (YAML would keep the last one, losing the first's cases or steps) is refused, located. None when the tree
    holds what a ruleset may not and a scenario may (a tag YAML gives a date): the file is then read without
    lines."""
    try:
        return parse_text(text, str(path))
    except RulesetError as error:
        duplicates = [finding for finding in error.diagnostics if finding.code == "duplicate-key"]
        if duplicates:
            raise ScenarioError(RulesetError(duplicates).render(), rendered=True) from None
        return None


_CASES_HINT = ("list the cases under `cases:`, each with a `name:` and the `steps:` it checks: an action (`p1 play "
               "AH`), or a `legal`, `refused` or `expect` check; see docs/scenarios.md")
_STEPS_HINT = ("give the case at least one step: an action (`p1 play AH`), or a `legal`, `refused` or `expect` check; "
               "to check the state right after the start, one expectation: `steps: [{expect: {phase: ...}}]`")


def _untested(path: Path, cases: list[Any] | None, root: MappingNode | None) -> list[Diagnostic]:
    """What makes a scenario file test nothing though it would pass: no case (`cases: []`, or `cases:` with
    nothing after it), or a case with no step (no `steps:`, `steps:` with nothing after it, `steps: []`): its
    steps are what it checks. Each is a located finding. A case of another shape, or with a key a case does not
    have (`stpes:`), is left to fail when it runs, naming what is wrong."""
    case_nodes = root.entries.get("cases") if root is not None else None

    def finding(code: str, message: str, hint: str, node: Node | None, key: str | None,
                yaml_path: str) -> Diagnostic:
        where = node.key_locations.get(key) if isinstance(node, MappingNode) and key is not None else \
            node.location if node is not None else None
        return Diagnostic(code, message, where, yaml_path, hint, path=str(path))

    if not cases:
        written = "`cases:` is null (nothing after it)" if cases is None else "`cases: []`"
        return [finding("no-cases", f"the scenario file has no case ({written}): it tests nothing", _CASES_HINT,
                        root, "cases", "cases")]
    untested = []
    for number, case in enumerate(cases):
        if not isinstance(case, dict) or case.get("steps") not in (None, []) or \
                unknown_key(case, CASE_KEYS, "the case") is not None:
            continue
        node = case_nodes.items[number] if isinstance(case_nodes, SequenceNode) else None
        name = f"the case `{shorten(str(case['name']))}`" if "name" in case else f"case {number + 1}"
        if "steps" not in case:
            untested.append(finding("no-steps", f"{name} has no `steps:`: it tests nothing", _STEPS_HINT, node, None,
                                    f"cases[{number}]"))
            continue
        written = "`steps:` is null (nothing after it)" if case["steps"] is None else "`steps: []`"
        untested.append(finding("no-steps", f"{name} has no step ({written}): it tests nothing", _STEPS_HINT, node,
                                "steps", f"cases[{number}].steps"))
    return untested


def _ruleset_path(path: Path, name: Any, root: MappingNode | None) -> Path:
    """The ruleset a scenario file names, relative to the file (or a bundled ruleset named alone, as `extends:`
    names one); a `ruleset:` that is not a file name is an error at its line."""
    node = root.entries.get("ruleset") if root is not None else None
    where = f"{path}:{node.location.line}" if node is not None else str(path)
    shown = json.dumps(name, default=str)
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError(f"{where}: `ruleset:` needs a file name, the ruleset's path relative to this file "
                            f"(ruleset: ../rulesets/my_game.yaml) or a bundled ruleset's name (`ruledeck list` "
                            f"names them), not {shorten(shown)}")
    if "\x00" in name:
        raise ScenarioError(f"{where}: `ruleset: {shorten(shown)}` is not a file name: it holds a NUL character")
    try:
        found = extended_file(path.parent, name).resolve()  # (a bundled ruleset named alone too, as `extends:`)
        missing = not found.exists()
    except (OSError, RuntimeError) as error:  # a loop of symbolic links
        raise ScenarioError(f"{where}: the ruleset {shorten(shown)} cannot be opened: {error}") from None
    close = close_bundled(name) if missing else None
    if close is not None:
        raise ScenarioError(f"{where}: `ruleset: {shorten(name)}` names no file here nor a bundled ruleset; did you "
                            f"mean the bundled `{close}`?")
    return found


class _Case:
    def __init__(self, game: Game, data: dict[str, Any], case: dict[str, Any]) -> None:
        self.game = game
        self.deck = game.deck
        deals = case.get("deals", [])
        if not isinstance(deals, list) or not all(isinstance(order, list) for order in deals):
            raise _Failure("`deals` is a list of stacked orders, each a list of cards: deals: [[AS, KH, ...]]")
        self.deals = [list(order) for order in deals]
        picks = case.get("picks", [])
        if not isinstance(picks, list):
            raise _Failure("`picks` is a list of the values the `random` steps pick, in order: picks: [left, 3]")
        self.picks = list(picks)
        players = _number(case.get("players", data.get("players", game.ruleset.players.default)), "players")
        seed = _number(case.get("seed", data.get("seed", 0)), "seed")
        start = case.get("start")
        if start is not None:
            _mapping(start, "start", "start: {phase: tricks, zones: {...}, variables: {...}}")
        if players not in game.ruleset.players.counts():
            raise _Failure(f"the game is for {game.ruleset.players.described()}, not {players}")
        if start is None:
            self.state = game.new_initial_state(seed=seed, players=players)
        else:
            self.state = State(game, players, seed)
            self._start_at(start)
        self._resolve_chance()

    # --- values in text form ---------------------------------------------------------------------------------

    def seat(self, value: Any) -> int:
        text = str(value)
        if isinstance(value, bool) or not (text.isdigit() or (text.startswith("p") and text[1:].isdigit())):
            raise _Failure(f"expected a seat such as p2, not {_given(value)}{_NULL_HINT if text == 'null' else ''}")
        number = int(text[1:]) if text.startswith("p") else int(text)
        if not 0 <= number < self.state.player_count:
            raise _Failure(f"there is no seat {text} at a table of {self.state.player_count}")
        return number

    def cards(self, values: Any) -> list[int]:
        """Cards as a case gives them: a YAML list, or one text (`"JC 9C"`, as a variable's cards may be given)."""
        if isinstance(values, str):
            values = values.split()
        if not isinstance(values, list):
            raise _Failure(f"expected a list of cards, not {_given(values)}")
        try:
            return [self.deck.parse_card(str(value)) for value in values]
        except ValueError as error:
            raise _Failure(str(error)) from None

    def value(self, type_name: str, value: Any) -> Any:
        if value is None:
            return None
        if type_name.startswith("list["):  # a list variable: a YAML list (cards also as one text, `5H 6S`)
            element = type_name[5:-1]
            if element == "card" and isinstance(value, str):
                return self.cards(value.split())
            if not isinstance(value, list):
                raise _Failure(f"a {type_name} variable's value is a list, not {_given(value)}")
            return [self.value(element, item) for item in value]
        if type_name == "seat":
            return self.seat(value)
        if type_name == "card":
            return self.cards([value])[0]
        if type_name == "suit":
            found = self.deck.suit_index(str(value))
            if found is None:
                raise _Failure(f"no suit {_given(value)}{_NULL_HINT if value == 'null' else ''}")
            return found
        if type_name == "rank":
            found = self.deck.rank_index(str(value))
            if found is None:
                raise _Failure(f"no rank {_given(value)}{_NULL_HINT if value == 'null' else ''}")
            return found
        if type_name == "team":
            return self.team(value)
        if type_name == "int":
            return _number(value, "an int variable's value")
        if type_name == "num":
            return _exact(value, "a num variable's value")
        if type_name == "bool" and not isinstance(value, bool):
            raise _Failure(f"a bool variable's value is true or false, not {_given(value)}")
        if type_name == "str" and not isinstance(value, str):
            raise _Failure(f"a str variable's value is a text, not {_given(value)}")
        return value

    def team(self, value: Any) -> int:
        text = str(value)
        number = int(text[1:]) if text.startswith("t") and text[1:].isdigit() else int(text) if text.isdigit() else -1
        teams = len(self.game.teams(self.state.player_count))
        if not 0 <= number < teams:
            raise _Failure(f"there is no team {text} (teams are t0 to t{teams - 1})")
        return number

    def _owners(self, name: str, given: Any, kind: str) -> dict[int, Any]:
        if isinstance(given, dict):
            return {self.seat(owner) if kind == "seat" else self.team(owner): value for owner, value in given.items()}
        if isinstance(given, list):
            count = self.state.player_count if kind == "seat" else len(self.game.teams(self.state.player_count))
            if len(given) != count:
                raise _Failure(f"{name} needs {count} values, one per {kind}, not {len(given)}")
            return dict(enumerate(given))
        raise _Failure(f"{name} has one value per {kind}: give them as {{p0: ..., p1: ...}}")

    def _zone_entries(self, given: dict[str, Any], *, placing: bool = False) -> dict[tuple[str, int], list[Any]]:
        placed: dict[tuple[str, int], list[Any]] = {}
        laid = 0  # melds are numbered m0, m1, ... in the order placed
        for name, value in _mapping(given or {}, "zones", "{hand: {p0: [AS, KH]}, stock: [2C]}").items():
            zone = self.game.ruleset.zones.get(name)
            if zone is None:
                raise _Failure(self._no_zone(name))
            if zone.kind == "melds" and not placing:
                raise _Failure(f"`{name}` holds melds, not cards: expect them under `zones:` ([7H 8H 9H, ...]), or "
                               f"how many there are with `counts: {{{name}: ...}}`")
            if zone.kind == "melds":
                for owner, melds in self._owners(name, value, zone.owner).items():
                    placed[(name, owner)] = placed_melds(self.game, name, owner, melds, laid, self.cards)
                    laid += len(melds)
            elif zone.owner == "table":
                placed[(name, -1)] = self._zone_cards(name, -1, value)
            else:
                for owner, cards in self._owners(name, value, zone.owner).items():
                    placed[(name, owner)] = self._zone_cards(name, owner, cards)
        return placed

    def _zone_cards(self, name: str, owner: int, given: Any) -> list[int]:
        try:
            return self.cards(given)
        except _Failure as failure:
            raise _Failure(f"{self._zone_name((name, owner))}: {failure}") from None

    def _start_at(self, start: dict[str, Any]) -> None:
        variables: dict[str, Any] = {}
        state = self.state
        for name, value in _mapping(start.get("variables") or {}, "variables", "{pot: 3, chips: {p0: 5}}").items():
            spec = self.game.ruleset.variables.get(name)
            if spec is None:
                raise _Failure(self._no_variable(name))
            try:
                if spec.per == "table":
                    variables[name] = self.variable_value(spec, value)
                else:
                    variables[name] = self._converted(name, self._owners(name, value, spec.per))
            except _Failure as failure:
                raise _Failure(f"variable `{name}`: {failure}") from None
        phase = str(start.get("phase", self.game.program.start))
        if phase not in self.game.program.phases:
            phases = list(self.game.program.phases)
            raise _Failure(f"the ruleset has no phase {phase!r} "
                           f"({did_you_mean(phase, phases) or 'phases: ' + ', '.join(phases)})")
        declared = self.game.ruleset.variables
        per_owner = {name: value for name, value in variables.items() if declared[name].per != "table"}
        plain = {name: value for name, value in variables.items() if declared[name].per == "table"}
        seating = seating_given(state.player_count, start.get("seating"), self.seat)
        if seating is not None and not self.game.program.reseats:
            raise _Failure("`seating` places the seats of a game that moves them; this ruleset has no `seating` step")
        seated = state.match.seated_teams(state, seating) if seating is not None else None
        state.match.start_at(
            state, phase, dealer=self.seat(start.get("dealer", 0)), hand_number=self._hand_number(start.get("hand", 1)),
            zones=self._zone_entries(start.get("zones") or {}, placing=True),
            face_up=self._zone_entries(start.get("face_up") or {}),
            variables={**plain, **teams_formed(self.game, state.player_count, start.get("teams"), self.seat, seated)},
            owned=per_owner,
            rest_zone=rest_zone(self.game, start.get("rest")),
            leader=None if start.get("leader") is None else self.seat(start["leader"]), seating=seating,
        )

    def _no_zone(self, name: str) -> str:
        close = did_you_mean(name, list(self.game.ruleset.zones))
        return f"the ruleset has no zone {name!r}" + (f" ({close})" if close else "")

    def _no_variable(self, name: str) -> str:
        close = did_you_mean(name, list(self.game.ruleset.variables))
        return f"the ruleset has no variable {name!r}" + (f" ({close})" if close else "")

    @staticmethod
    def _hand_number(value: Any) -> int:
        number = _number(value, "hand")
        if number < 1:
            raise _Failure(f"hands are numbered from 1, not {number}")
        return number

    def _converted(self, name: str, owners: dict[int, Any]) -> dict[int, Any]:
        """A per-seat or per-team variable's given values (the others keep their initial values, worked out when
        the hand is set up: an `initial` may read other variables)."""
        spec = self.game.ruleset.variables[name]
        return {owner: self.variable_value(spec, value) for owner, value in owners.items()}

    def variable_value(self, spec: VariableSpec, value: Any) -> Any:
        """A variable's value as a scenario gives it; a value per key (`by:`) as a mapping of some of its keys
        to their values (`{NT: p0, H: p2}`), the others left as they are."""
        if spec.by is None:
            return self.value(spec.type, value)
        if not isinstance(value, dict):
            raise _Failure(f"{spec.name} has one value per key: give them as {{key: value, ...}}, not {_given(value)}")
        keys = {text: key for key, text in spec.keys(self.deck, self.state.player_count,
                                                     len(self.game.teams(self.state.player_count)))}
        converted = {}
        for text, item in value.items():
            key = keys.get(str(text), keys.get(f"{'p' if spec.by == 'seat' else 't'}{text}"))
            if key is None:
                raise _Failure(f"{spec.name} has no key {text!r} (its keys: {', '.join(keys)})")
            converted[key] = self.value(spec.type, item)
        return converted

    # --- running -------------------------------------------------------------------------------------------------

    def _resolve_chance(self) -> None:
        state = self.state
        while state.current_player == CHANCE:
            assert state.chance is not None
            key = state.chance[0]
            if key is None:  # a value picked at random
                if self.picks:
                    value = self.picks.pop(0)
                    try:
                        state.apply_chance(value)
                    except IllegalActionError as error:
                        raise _Failure(f"picks: {error}") from None
                else:
                    state.apply_chance()
                continue
            if self.deals:
                order = self.cards(self.deals.pop(0))
                in_zone = Counter(state.cards.zone_list(state, key))
                missing = Counter(order) - in_zone
                if missing:
                    over = [f"{self.deck.card_text(card)} ({count} times, {key[0]} holds {in_zone[card]})"
                            for card, count in Counter(order).items() if card in missing and in_zone[card]]
                    absent = [self.deck.card_text(card) for card in missing if not in_zone[card]]
                    raise _Failure("the stacked order names " + "; ".join(
                        ([f"cards not in {key[0]}: {' '.join(absent)}"] if absent else []) +
                        ([f"cards more times than {key[0]} holds them: {', '.join(over)}"] if over else [])))
                rest = in_zone - Counter(order)
                state.apply_chance(order + sorted(rest.elements()))
            else:
                state.apply_chance()

    def step(self, number: int, step: Any) -> None:
        try:
            if isinstance(step, str):
                self._act(step)
            elif isinstance(step, dict) and len(step) == 1:
                (kind, value), = step.items()
                handler = getattr(self, f"_step_{kind}", None)
                if handler is None:
                    raise _Failure(f"unknown step {kind!r}; steps are an action, legal, refused and expect")
                handler(value)
            else:
                raise _Failure(f"a step is an action (`p1 play AH`) or one of legal, refused, expect: {_given(step)}")
        except _Failure as failure:
            raise _Failure(f"step {number} ({_short(step)}): {failure}") from None
        except RulesetRuntimeError as error:
            raise _Failure(f"step {number} ({_short(step)}): the ruleset failed: {error}{_place(error)}") from None

    def _act(self, text: str) -> None:
        try:
            self.state.apply(self.state.parse_action(text))
        except ActionSyntaxError as error:  # (a mistake of the case, as in `legal` and `refused`: not a refusal)
            raise _Failure(f"the text is not an action of this game: {error}") from None
        except IllegalActionError as error:
            raise _Failure(f"refused: {error}") from None
        self._resolve_chance()

    def _step_legal(self, value: Any) -> None:
        if not isinstance(value, list):
            raise _Failure("`legal` is the list of the legal actions: legal: [p1 play AS, p1 play KS]")
        state = self.state
        try:  # each as the legal set writes it (a list argument's items may be given in any order)
            expected = sorted(state.action_text(state.legal_form(state.parse_action(str(item)))) for item in value)
        except ActionSyntaxError as error:
            raise _Failure(str(error)) from None
        actual = sorted(state.action_text(action) for action in state.legal_actions())
        if actual != expected:
            missing = sorted(set(expected) - set(actual))
            extra = sorted(set(actual) - set(expected))
            raise _Failure(f"legal actions differ: missing {missing or 'none'}, unexpected {extra or 'none'}")

    def _step_refused(self, value: Any) -> None:
        if not isinstance(value, dict) or "action" not in value:
            raise _Failure("refused: needs {action: ..., reason: ...}")
        try:  # a text that is no action is a mistake of the case, not a refusal (as in `legal`)
            action = self.state.parse_action(str(value["action"]))
        except ActionSyntaxError as error:
            raise _Failure(f"the text is not an action, so it cannot be refused: {error}") from None
        try:
            self.state.check(action)
        except IllegalActionError as error:
            reason = str(value.get("reason", ""))
            if reason not in str(error):
                raise _Failure(f"refused, but for another reason: {error}") from None
            return
        raise _Failure(f"{value['action']} was allowed")

    def _step_expect(self, value: dict[str, Any]) -> None:
        for key, expected in _mapping(value, "expect", "expect: {phase: tricks, current_player: p2}").items():
            check = getattr(self, f"_expect_{key}", None)
            if check is None:
                raise _Failure(f"unknown expectation {key!r}; expectations: phase, current_player, terminal, hand, "
                               "dealer, seating, teams, zones, counts, face_up, variables, returns")
            check(expected)

    def _expect_phase(self, expected: Any) -> None:
        if self.state.phase != expected:
            if self.state.is_terminal:
                raise _Failure(f"the match is over (no phase), not in phase {_given(expected)}")
            raise _Failure(f"phase is {self.state.phase!r}, not {_given(expected)}")

    def _expect_current_player(self, expected: Any) -> None:
        current = self.state.current_player
        shown = {CHANCE: "chance", TERMINAL: "terminal"}.get(current, f"p{current}")
        if shown != str(expected):
            raise _Failure(f"current player is {shown}, not {expected}")

    def _expect_terminal(self, expected: Any) -> None:
        if self.state.is_terminal != bool(expected):
            raise _Failure(f"terminal is {self.state.is_terminal}")

    def _expect_hand(self, expected: Any) -> None:
        if self.state.values["hand_number"] != _number(expected, "hand"):
            raise _Failure(f"hand is {self.state.values['hand_number']}, not {expected}")

    def _expect_dealer(self, expected: Any) -> None:
        if self.state.values["dealer"] != self.seat(expected):
            raise _Failure(f"dealer is p{self.state.values['dealer']}, not {expected}")

    def _expect_seating(self, expected: Any) -> None:
        if not isinstance(expected, list):
            raise _Failure(f"seating: expected a list of seats, clockwise from place 0, not {_given(expected)}")
        seating = list(self.state.values["_seating"])
        if seating != [self.seat(seat) for seat in expected]:
            raise _Failure(f"seating is [{', '.join(f'p{seat}' for seat in seating)}], not "
                           f"[{', '.join(str(seat) for seat in expected)}]")

    def _expect_teams(self, expected: Any) -> None:
        if not isinstance(expected, list) or not all(isinstance(team, list) for team in expected):
            raise _Failure(f"teams: expected a list of teams, each a list of seats, not {_given(expected)}")
        team_of = self.state.values["team_of"]
        actual = [sorted(seat for seat, owner in enumerate(team_of) if owner == team)
                  for team in range(max(team_of) + 1)]
        actual = [members for members in actual if members]
        wanted = [sorted(self.seat(seat) for seat in team) for team in expected]
        if actual != wanted:
            def shown(teams: list[list[int]]) -> str:
                return "[" + ", ".join("[" + ", ".join(f"p{seat}" for seat in team) + "]" for team in teams) + "]"
            raise _Failure(f"teams are {shown(actual)}, not {shown(wanted)}")

    def _expect_zones(self, expected: dict[str, Any]) -> None:
        given = _mapping(expected or {}, "zones", "{hand: {p0: [AS, KH]}, stock: [2C]}")
        meld_zones = {name for name in given if getattr(self.game.ruleset.zones.get(name), "kind", "") == "melds"}
        for name in meld_zones:
            zone = self.game.ruleset.zones[name]
            owners = {-1: given[name]} if zone.owner == "table" else self._owners(name, given[name], zone.owner)
            for owner, texts in owners.items():
                self._expect_melds((name, owner), texts)
        for key, cards in self._zone_entries({k: v for k, v in given.items() if k not in meld_zones}).items():
            actual = self.state.cards.zone_list(self.state, key)
            if Counter(actual) != Counter(cards):
                raise _Failure(f"{self._zone_name(key)} holds {_cards_text(self, actual)}, "
                               f"not {_cards_text(self, cards)}")

    def _expect_melds(self, key: tuple[str, int], texts: Any) -> None:
        """A zone of melds holds these melds, in any order: each its cards (`7H 8H 9H`), and where a wild card's
        place is given (`JK=10H`), what it stands for there."""
        rules = self.game.meld_rules
        if not isinstance(texts, list) or rules is None:
            raise _Failure(f"{self._zone_name(key)}: give its melds as a list, each its cards: [7H 8H 9H, 5C 5D JK=5]")
        actual = [[self.state.card_text(card) + (f"={role}" if role else "")
                   for card, role in zip(meld.cards, rules.roles(meld), strict=True)]
                  for meld in self._melds_of(key)]
        left = list(actual)
        for text in texts:
            words = str(text).split()
            self.cards([word.split("=")[0] for word in words])  # (each a card of the deck, or the case fails)
            plain = any("=" not in word for word in words) and not any("=" in word for word in words)
            wanted = Counter(word.split("=")[0] for word in words) if plain else Counter(words)
            match = next((meld for meld in left if wanted == (Counter(word.split("=")[0] for word in meld)
                                                              if plain else Counter(meld))), None)
            if match is None or len(texts) != len(actual):
                shown = ", ".join(" ".join(meld) for meld in actual) or "no meld"
                raise _Failure(f"{self._zone_name(key)} holds {shown}, not {', '.join(map(str, texts)) or 'no meld'}")
            left.remove(match)

    def _melds_of(self, key: tuple[str, int]) -> list[Meld]:
        name, owner = key
        held = self.state.values[name]
        return list(held if owner == -1 else held[owner])

    def _expect_counts(self, expected: dict[str, Any]) -> None:
        for name, value in _mapping(expected, "counts", "counts: {stock: 27, hand: {p0: 5}}").items():
            zone = self.game.ruleset.zones.get(name)
            if zone is None:
                raise _Failure(self._no_zone(name))
            owners = {-1: value} if zone.owner == "table" else self._owners(name, value, zone.owner)
            for owner, count in owners.items():
                actual = len(self.state.cards.zone_list(self.state, (name, owner)))
                if actual != _number(count, "a count"):
                    what = "melds" if zone.kind == "melds" else "cards"
                    raise _Failure(f"{self._zone_name((name, owner))} holds {actual} {what}, not {count}")

    def _expect_face_up(self, expected: dict[str, Any]) -> None:
        for key, cards in self._zone_entries(expected).items():
            actual = self.state.face_up.of(key)
            if Counter(actual) != Counter(cards):
                raise _Failure(f"face up in {self._zone_name(key)}: {_cards_text(self, actual)}, not "
                               f"{_cards_text(self, cards)}")

    def _expect_variables(self, expected: dict[str, Any]) -> None:
        for name, value in _mapping(expected, "variables", "variables: {pot: 7, chips: {p0: 3}}").items():
            spec = self.game.ruleset.variables.get(name)
            if spec is None and self._expect_shown_definition(name, value):
                continue
            if spec is None:
                raise _Failure(self._no_variable(name))
            stored = self.state.values[name]
            if spec.by is not None:
                self._expect_keyed(spec, value)
                continue
            if spec.per == "table":
                if stored != self.value(spec.type, value):
                    raise _Failure(f"{name} is {self._shown(spec.type, stored)}, not {value}")
                continue
            for owner, wanted in self._owners(name, value, spec.per).items():
                if stored[owner] != self.value(spec.type, wanted):
                    raise _Failure(f"{name}[{_owner_text(owner, spec.per)}] is "
                                   f"{self._shown(spec.type, stored[owner])}, not {wanted}")

    def _expect_shown_definition(self, name: str, value: Any) -> bool:
        """A definition that `show.variables` shows is expected as a variable of the table; False for a name
        that is not one."""
        from interpreter.engine.program import Expr

        ruleset = self.game.ruleset
        where = next((item.where for item in ruleset.show.variables or () if item.name == name and item.where), "")
        if not where:
            return False
        kind = ruleset.shown_types.get(where)
        type_name = str(kind.element if kind is not None and kind.name == "optional" else kind)
        function = ruleset.expressions[where]
        found = self.state.evaluate(Expr(function, where, getattr(function, "keeps", True)), {})
        if found != self.value(type_name, value):
            raise _Failure(f"{name} is {self._shown(type_name, found)}, not {value}")
        return True

    def _expect_keyed(self, spec: VariableSpec, expected: Any) -> None:
        """The values of a variable with a second index (`by:`) at the keys the scenario names."""
        stored = self.state.values[spec.name]
        owners = {-1: expected} if spec.per == "table" else self._owners(spec.name, expected, spec.per)
        texts = dict(spec.keys(self.deck, self.state.player_count, len(self.game.teams(self.state.player_count))))
        for owner, given in owners.items():
            held = stored if owner < 0 else stored[owner]
            where = spec.name if owner < 0 else f"{spec.name}[{_owner_text(owner, spec.per)}]"
            for key, wanted in self.variable_value(spec, given).items():
                if held[key] != wanted:
                    raise _Failure(f"{where}[{texts[key]}] is {self._shown(spec.type, held[key])}, not "
                                   f"{self._shown(spec.type, wanted)}")

    def _expect_returns(self, expected: list[Any]) -> None:
        actual = self.state.returns()
        if not isinstance(expected, list) or actual != [_exact(value, "a result") for value in expected]:
            shown = ", ".join(number_text(value) for value in actual)  # (a fraction as `7/2`, unquoted)
            raise _Failure(f"returns are [{shown}], not {expected}")

    def _zone_name(self, key: tuple[str, int]) -> str:
        name, owner = key
        return name if owner < 0 else f"{name}[{_owner_text(owner, self.game.ruleset.zones[name].owner)}]"

    def _shown(self, type_name: str, value: Any) -> str:
        if value is None:
            return "unset"
        if type_name.startswith("list["):
            return "[" + ", ".join(self._shown(type_name[5:-1], item) for item in value) + "]"
        if type_name in ("card", "suit", "rank"):
            return self.deck.value_text(type_name, value)
        if type_name == "seat":
            return f"p{value}"
        if type_name == "num":
            return number_text(value)
        return repr(value)


_NULL_HINT = " (for no value, write null without quotes: `trump: null`)"


def _given(value: Any) -> str:
    """A value a case gave, as YAML writes it (`true`, `null`, a text in quotes), for a message."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    if isinstance(value, list):
        return "[" + ", ".join(_given(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_given(item)}" for key, item in value.items()) + "}"
    return repr(value)


def _number(value: Any, what: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value.strip()):
        return int(value)
    raise _Failure(f"{what} must be a whole number, not {_given(value)}")


def _exact(value: Any, what: str) -> Any:
    """A number that may be a fraction: a whole number, or its exact text (`3.5`, `7/2`, quoted or not)."""
    if isinstance(value, float) and not isinstance(value, bool):
        value = repr(value)  # (YAML reads 3.5 as a float: its text is exact)
    if isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]+(\.[0-9]+|/[1-9][0-9]*)?\s*", value):
        return parse_number(value)
    return _number(value, what + " (a whole number, or a fraction such as 3.5 or 7/2)")


def _mapping(value: Any, what: str, example: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Failure(f"`{what}` is a mapping, e.g. {example}; not {_given(value)}")
    return value


def _params(value: Any) -> dict[str, Any]:
    """A file's or a case's parameters: names and plain values."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, (int, float, str, bool)) or v is None
                                              for v in value.values()):
        raise _Failure(f"`params` gives parameters their values, e.g. params: {{hands: 1}}; not {_given(value)}")
    return value


def _owner_text(owner: int, per: str) -> str:
    return f"{'t' if per == 'team' else 'p'}{owner}"


def _cards_text(case: _Case, cards: list[int]) -> str:
    """Cards as a failure shows them: by suit, then rank, whatever their order in the zone."""
    deck = case.deck
    ordered = sorted(cards, key=lambda card: (deck.suit_of[card], deck.rank_of[card], card))
    return "[" + " ".join(deck.card_text(card) for card in ordered) + "]"


def _short(step: Any) -> str:
    text = step if isinstance(step, str) else next(iter(step)) if isinstance(step, dict) and step else repr(step)
    return str(text)[:60]


def _place(error: RulesetRuntimeError) -> str:
    """Where in the ruleset's file a failure happened, as ` (FILE:LINE:COL)`, when it is known."""
    place = error.location
    return f" ({place.path}:{place.line}:{place.column})" if place is not None else ""


def _run_case(game: Game, data: dict[str, Any], case: dict[str, Any]) -> None:
    unknown = unknown_key(case, CASE_KEYS, "the case") or \
        unknown_key(case["start"] if isinstance(case.get("start"), dict) else {}, START_KEYS, "`start`")
    if unknown:
        raise _Failure(unknown)
    try:
        runner = _Case(game, data, case)
    except IllegalActionError as error:
        raise _Failure(f"the start is not possible: {error}") from None
    except RulesetRuntimeError as error:
        raise _Failure(f"the ruleset failed while starting: {error}{_place(error)}") from None
    steps = case.get("steps")
    if not isinstance(steps, list):  # (`steps: {}`, `steps: ""`: not a list, though they hold nothing)
        raise _Failure("`steps` is a list: actions (`- p1 play AH`) and legal, refused, expect checks")
    for number, step in enumerate(steps, 1):
        runner.step(number, step)
    unused = [f"{len(left)} of its `{name}`" for name, left in (("deals", runner.deals), ("picks", runner.picks))
              if left]
    if unused:  # (a deal or pick never reached: the case does not test what it says it does)
        raise _Failure(f"the case ends with {' and '.join(unused)} never used: no shuffle or `random` step "
                       "came to them")
