"""Validation that plays: seeded matches with random bots (`ruledeck validate --playouts N`), reporting, located
in the ruleset, each position where a seat has no legal action, each match that runs past its bound of actions,
each failure while running, and the options and phases that no match reached (a warning).

Match k of a run is seeded k (1, 2, ...) and played with one random bot per seat seeded as `ruledeck play
--bots random --seed k` seeds them, so a finding's seed reproduces it with that command; its actions can also
be written out as scenario cases (docs/scenarios.md) with `--cases FILE`.
"""

from __future__ import annotations

import os
import re
import shlex
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.game import Game
from interpreter.engine.state import CHANCE, State
from interpreter.errors import Diagnostic, Location, RuledeckError
from interpreter.numbers import plain_number
from interpreter.runners.play import agents_for
from interpreter.source import MappingNode, Node, ScalarNode, SequenceNode, find, parse_yaml_path, yaml_path
from interpreter.view import hand_order_failure

MAX_ACTIONS = 100_000  # a match's bound of actions in a playout: past it, the match is reported as running away
LONG_HAND = 1_000  # a hand that took more than half of a runaway match's actions, and this many, never ended
DEAD_END = "no legal action"
_TABLE = re.compile(r"\((seed \d+, \d+ players)")


@dataclass
class Playout:
    """One match played: its table, its seed, the actions taken (as text), and how it stopped."""

    players: int
    seed: int
    actions: list[str] = field(default_factory=list)
    failure: RuledeckError | None = None
    hand_order: tuple[RulesetRuntimeError, int, int] | None = None  # `show.hand_order` failing: why, seat, actions
    ran_away: bool = False
    stuck: tuple[int, str, int] | None = None  # for a match that ran away: its hand, phase, and the hand's actions
    capped: bool = False  # stopped by the hand cap rather than ended by the rules


@dataclass
class Coverage:
    """What the matches of a file reached: phases by name, options by their YAML path."""

    phases: set[str] = field(default_factory=set)
    options: set[str] = field(default_factory=set)


@dataclass
class Report:
    """The playouts of one file: the findings, how many matches were played, and the failing matches."""

    findings: list[Diagnostic]
    played: int
    planned: int
    failing: list[Playout]
    capped: int = 0  # the matches stopped at the hand cap (the rules never ended them)


class _PhaseWatch(State):
    """A State that records each phase it enters: the hand's code sets `phase` on entering one, also in phases
    that run without a decision, which a caller between actions would not see."""

    @property
    def phase(self) -> str:
        return str(self.__dict__["phase"])

    @phase.setter
    def phase(self, name: str) -> None:
        self.__dict__["phase"] = name
        self.__dict__.setdefault("entered", set()).add(name)


def play_out(game: Game, players: int, seed: int, coverage: Coverage, *, max_actions: int = MAX_ACTIONS) -> Playout:
    """One match with random bots; a failure is kept in the playout, not raised."""
    playout = Playout(players, seed)
    choosers = agents_for(("random",), players, seed)
    state: State | None = None
    shown: set[tuple[Any, ...]] = set()  # (hand, phase, seat): where a seat's hand was arranged as its view shows it
    try:
        if players not in game.ruleset.players.counts():
            game.new_initial_state(seed=seed, players=players)  # (refused, naming the table sizes allowed)
        # (watched from its start: a match without decisions is played whole as it starts)
        state = _PhaseWatch(game, players, seed)
        state.start()
        hand, hand_began = state.values["hand_number"], 0  # (the hand being played, and its first action)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            if state.values["hand_number"] != hand:
                hand, hand_began = state.values["hand_number"], len(playout.actions)
            if len(playout.actions) >= max_actions:
                playout.ran_away = True
                playout.stuck = (hand, state.phase, len(playout.actions) - hand_began)
                break
            _check_hand_order(state, playout, shown)
            _take_turn(state, choosers[state.current_player].choose(state), playout, coverage)
    except RuledeckError as error:
        playout.failure = error
    if state is not None:
        coverage.phases.update(state.__dict__.get("entered", ()))
        playout.capped = state.is_terminal and state.ended_by == "hand_cap"
    return playout


def _check_hand_order(state: State, playout: Playout, shown: set[tuple[Any, ...]]) -> None:
    """The hand of the seat to act arranged as a person's view shows it (`show.hand_order`), once a phase of each
    hand for each seat: a failure (a variable read before it is set) does not stop a match, whose view then sorts
    the hand by suit, but the ruleset's order is not what the person sees there."""
    seat = state.current_player
    place = (state.values.get("hand_number"), state.phase, seat)
    if playout.hand_order is None and place not in shown:
        shown.add(place)
        failure = hand_order_failure(state, seat)
        if failure is not None:
            playout.hand_order = (failure, seat, len(playout.actions))


def _take_turn(state: State, action: Any, playout: Playout, coverage: Coverage) -> None:
    option = state.legal_set().get(action)
    if option is not None:
        coverage.options.add(option.where)
    playout.actions.append(state.action_text(action))
    state.apply(action)


def run_playouts(game: Game, count: int, *, seconds: float, max_actions: int = MAX_ACTIONS) -> Report:
    """`count` matches for each number of players the ruleset allows (taken in turn, so that every table size
    is played early), stopping when `seconds` have passed."""
    tables = list(game.ruleset.players.counts())
    coverage = Coverage()
    failing: list[Playout] = []
    findings: list[Diagnostic] = []
    started = time.monotonic()
    played = capped = 0
    for seed, players in ((seed, players) for seed in range(1, count + 1) for players in tables):
        if time.monotonic() - started > seconds and played:
            break  # (the whole run: a budget spent is spent for every seed left, however many)
        playout = play_out(game, players, seed, coverage, max_actions=max_actions)
        played += 1
        capped += playout.capped
        if playout.hand_order is not None:
            findings.append(_hand_order_finding(game, playout))
        if playout.failure is not None or playout.ran_away:
            failing.append(playout)
            findings.append(_finding(game, playout, max_actions))
    # (a run cut short, or with matches that stopped on a failure, has not earned a claim that something never
    # occurs: what those matches would have reached is not known)
    if played == count * len(tables) and not failing:
        findings.extend(_never_reached(game, coverage))
    return Report(_first_of_each(findings), played, count * len(tables), failing, capped)


def _first_of_each(findings: list[Diagnostic]) -> list[Diagnostic]:
    """One finding per kind and place: the first seed that shows it, saying how many other matches did."""
    groups: dict[tuple[str, str, str], list[Diagnostic]] = {}  # (a failure with no place: by its message)
    for finding in findings:
        groups.setdefault((finding.code, finding.yaml_path, "" if finding.location else finding.message),
                          []).append(finding)
    return [_with_others(group) for group in groups.values()]


def _with_others(group: list[Diagnostic]) -> Diagnostic:
    first = group[0]
    if len(group) == 1:
        return first
    tables = [match.group(1) for finding in group[1:] if (match := _TABLE.search(finding.message)) is not None]
    more = f"{len(group) - 1} other match{'es' if len(group) > 2 else ''} too ({' / '.join(tables[:4])}" + \
        (" / ...)" if len(tables) > 4 else ")")
    return replace(first, hint=f"{first.hint}; {more}" if first.hint else more)


def _set_options(game: Game) -> str:
    """The `--set` options that give the parameters the values they had (those that are not their defaults)."""
    options = []
    for name, spec in game.ruleset.parameters.items():
        value = game.ruleset.parameter_values.get(name)
        if value != spec.default:
            text = "null" if value is None else str(value).lower() if isinstance(value, bool) else \
                str(plain_number(value))
            options.append(f" --set {shlex.quote(f'{name}={text}')}")
    return "".join(options)


def _finding(game: Game, playout: Playout, max_actions: int) -> Diagnostic:
    table = f"seed {playout.seed}, {playout.players} players, after {len(playout.actions):,} actions"
    replay = f"replay: ruledeck play {shlex.quote(game.ruleset.path)} --bots random --players {playout.players} " \
        f"--seed {playout.seed}" + _set_options(game)
    if playout.ran_away:
        hand, phase, in_hand = playout.stuck or (0, "", 0)
        where = next((where for name, where in _phases(game.ruleset.tree) if name == phase), None)
        if where is not None and in_hand * 2 > max_actions and in_hand >= LONG_HAND:  # (a hand that never ends)
            return Diagnostic("playout-runaway", f"hand {hand} ran for {in_hand:,} actions without ending, in "
                              f"the phase `{phase}` ({table})", _location(game, where), where,
                              hint=replay + "; a loop of this phase whose end the bots never reach (a `turns` or "
                              "`repeat` whose `until` never holds, a decision that repeats without a way out)")
        return Diagnostic("playout-runaway", f"a match ran past {max_actions:,} actions ({table})",
                          _location(game, "match"), "match", hint=replay + "; a hand cap or an end that "
                          "the bots can reach bounds it")
    error = playout.failure
    assert error is not None
    last = "; the last actions: " + ", ".join(playout.actions[-3:]) if playout.actions else ""
    if isinstance(error, RulesetRuntimeError):
        code = "playout-dead-end" if DEAD_END in error.message else "playout-failure"
        # (each option's refusal a note of its own: the one line listing them was cut short)
        return Diagnostic(code, f"{error.headline if error.refusals else error.message} ({table})", error.location,
                          error.where, hint=replay + last,
                          notes=(*error.notes, *(f"refused: {reason}" for reason in error.refusals)))
    return Diagnostic("playout-failure", f"{type(error).__name__}: {error} ({table})", None, "",
                      path=_file(game), hint=replay + last)


def _hand_order_finding(game: Game, playout: Playout) -> Diagnostic:
    assert playout.hand_order is not None
    error, seat, actions = playout.hand_order
    return Diagnostic("playout-hand-order", f"the hand of p{seat} cannot be put in `show.hand_order` here: "
                      f"{error.message} (seed {playout.seed}, {playout.players} players, after {actions} actions)",
                      error.location, error.where, severity="warning",
                      hint="a person's view then shows the hand sorted by suit; an order that reads a variable "
                           "set during the hand can test it first (`if x == null then ... else ...`, with `x` "
                           f"declared `initial: null`); replay: ruledeck play {shlex.quote(game.ruleset.path)} "
                           f"--human {seat} --bots random "
                           f"--players {playout.players} --seed {playout.seed}{_set_options(game)}")


def _never_reached(game: Game, coverage: Coverage) -> list[Diagnostic]:
    tree = game.ruleset.tree
    found = [Diagnostic("playout-unreached", f"no match entered the phase `{name}`",
                        _location(game, where), where, severity="warning",
                        hint="a phase the bots never reach may be unreachable in play (or with these parameters' "
                             "values); more --playouts may reach it")
             for name, where in _phases(tree) if name not in coverage.phases]
    found.extend(Diagnostic("playout-unreached", f"no match took the option `{label}`", _location(game, where),
                            where, severity="warning",
                            hint="an option never taken may be refused in every position (or with these "
                                 "parameters' values); more --playouts may take it")
                 for label, where in _options(tree) if where not in coverage.options
                 and not _off_by_parameters(game, where))
    return found


def _off_by_parameters(game: Game, where: str) -> bool:
    """Whether the place is inside a branch of an `if` step whose condition the parameters' values settle the
    other way (`if: params.reneges` with `reneges` false): the rules never reach it with these values."""
    expressions = game.ruleset.expressions
    parts = parse_yaml_path(where)
    for index, part in enumerate(parts):
        if part not in ("then", "else") or index == 0:
            continue
        test = expressions.get(yaml_path(parts[:index]) + ".if")
        constant = getattr(test, "constant", None)
        if constant is not None and bool(constant[0]) != (part == "then"):
            return True
    return False


def _phases(tree: MappingNode) -> list[tuple[str, str]]:
    phases = find(tree, ("hand", "phases"))
    names = []
    for index, phase in enumerate(phases.items if isinstance(phases, SequenceNode) else []):
        name = find(phase, ("name",))
        names.append((str(getattr(name, "value", index)), yaml_path(("hand", "phases", index))))
    return names


def _options(tree: MappingNode) -> list[tuple[str, str]]:
    """Every option of every decision under `hand`, with a label and its YAML path."""
    found: list[tuple[str, str]] = []

    def visit(node: Node, path: tuple[str | int, ...]) -> None:
        if isinstance(node, MappingNode):
            for key, value in node.entries.items():
                if key == "options" and isinstance(value, SequenceNode):
                    found.extend((_option_label(item), yaml_path((*path, key, index)))
                                 for index, item in enumerate(value.items))
                visit(value, (*path, key))
        elif isinstance(node, SequenceNode):
            for index, item in enumerate(node.items):
                visit(item, (*path, index))

    visit(tree.entries.get("hand", MappingNode(tree.location, {}, {})), ("hand",))
    return found


def _option_label(node: Node) -> str:
    if isinstance(node, MappingNode):
        for key in ("id", "choose", "play", "discard", "draw", "take", "meld", "add"):
            value = node.entries.get(key)
            if isinstance(value, ScalarNode):
                return str(value.value) if key == "id" else f"{key}: {value.value}"
    return "?"


def _location(game: Game, where: str) -> Location | None:
    node = find(game.ruleset.tree, parse_yaml_path(where))
    return node.location if node is not None else None


def _file(game: Game) -> str:
    return game.ruleset.tree.location.path


CASES_HEADER = "# Matches that failed in `ruledeck validate --playouts`."  # (the first line of such a file)


def write_cases(ruleset: str, failing: list[Playout], cases_path: str) -> None:
    """Write the failing matches as a scenario file (see scenario_cases)."""
    import yaml

    text = yaml.safe_dump(scenario_cases(ruleset, failing, cases_path), sort_keys=False, allow_unicode=True,
                          width=120)
    Path(cases_path).write_text(f"{CASES_HEADER}\n{text}", encoding="utf-8")


def scenario_cases(ruleset: str, failing: list[Playout], cases_path: str) -> dict[str, Any]:
    """The failing matches as a scenario file: each case replays one match's actions from its seed, and ends
    asking for the legal actions where the match stopped (for a dead end, write the right ones there once the
    ruleset is fixed)."""
    relative = os.path.relpath(Path(ruleset).resolve(), Path(cases_path).resolve().parent)
    cases = []
    for playout in failing:
        reason = "ran away" if playout.ran_away else str(getattr(playout.failure, "message", playout.failure))
        reason = reason.split(";")[0]  # (the refusals are printed when the case runs)
        cases.append({"name": f"playout seed {playout.seed}, {playout.players} players: {reason}",
                      "players": playout.players, "seed": playout.seed,
                      "steps": [*playout.actions, {"legal": []}]})
    return {"ruleset": Path(relative).as_posix(), "cases": cases}
