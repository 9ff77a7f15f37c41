"""The property run: seeded random games over every ruleset in rulesets/, rulesets/variants/ and tests/games/,
with random player counts and parameter values (small numbers, so that matches are short), checking after every
step that

- every card of the deck is in exactly one zone;
- the total of every group of `int` variables that only `transfer` changes (chips and a pot) is constant;
- legal actions are empty exactly at chance nodes and at the end;
- every legal action's text parses back to the same action, `is_legal` agrees with it, and actions legal
  earlier in the match but not now are refused;
- no observation shows a card its seat may not see (the deciding seat's at every decision, every seat's
  at the end and at about one step in seven);

and, once per game, that a clone taken at a random step and driven with the same actions ends in the same
state as the original (every seat's observation, the returns, the legal actions), and that the same seed with
the same choices plays the same game (actions, events, observations, returns).

Each ruleset plays games until they add up to 5,000 steps, or 200 games. Each failure names its seed, ruleset,
players and parameters. A longer run, or another: RULEDECK_PROPERTY_STEPS=50000 RULEDECK_PROPERTY_GAMES=2000
RULEDECK_PROPERTY_SEED=7.
"""

from __future__ import annotations

import os
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from interpreter import CHANCE, Game, State, load_ruleset
from interpreter.actions import Action
from interpreter.parameters import ParamSpec
from interpreter.source import to_plain
from tests.playthroughs_golden import ROOT, ruleset_files
from tests.test_engine_properties import all_cards

GAMES = int(os.environ.get("RULEDECK_PROPERTY_GAMES", "200"))  # at most, per ruleset
STEPS = int(os.environ.get("RULEDECK_PROPERTY_STEPS", "5000"))  # per ruleset: no game starts after these
RUN_SEED = int(os.environ.get("RULEDECK_PROPERTY_SEED", "15"))
PARAMETER_SETS = 3  # per ruleset: each set is one load (a few tenths of a second), shared by its games
MAX_STEPS = 300  # per game: a match still running then is checked as far as it went
FORMER_LEGAL = 50  # actions legal earlier in a match, kept to check that they are refused when not legal now
EVERY_SEAT = 0.15  # the share of steps where every seat's observation is checked (else the deciding seat's)
RULESETS = ruleset_files()


@dataclass
class Counts:
    games: int = 0
    ended: int = 0
    steps: int = 0
    decisions: int = 0
    legal_checked: int = 0  # legal actions parsed back from their text and checked with is_legal
    refused_checked: int = 0  # actions legal before, not now, checked to be refused
    observations: int = 0  # observations checked for hidden cards
    comparisons: int = 0  # clone and same-seed comparisons of a whole state
    conserved: int = 0  # checks of a conserved total


def small_parameters(specs: dict[str, ParamSpec], rng: random.Random) -> dict[str, Any]:
    """Random values for a ruleset's parameters: numbers near their minimum (a few hands, a low target), any
    of the choices, either boolean, and unset for an optional one now and then."""
    values: dict[str, Any] = {}
    for spec in specs.values():
        if spec.optional and rng.random() < 0.4:
            values[spec.name] = None
        elif spec.type == "bool":
            values[spec.name] = rng.random() < 0.5
        elif spec.choices:
            values[spec.name] = rng.choice(spec.choices)
        elif spec.type == "int":
            low = spec.minimum if spec.minimum is not None else 0
            high = low + 2 if spec.maximum is None else min(spec.maximum, low + 2)
            values[spec.name] = rng.randint(low, high)
    return values


def parameter_sets(index: int) -> list[tuple[tuple[str, Any], ...]]:
    rng = random.Random(f"{RUN_SEED}/{index}/params")
    specs = dict(load_ruleset(RULESETS[index]).ruleset.parameters)
    return [tuple(sorted(small_parameters(specs, rng).items())) for _ in range(PARAMETER_SETS)]


@cache
def loaded(index: int, params: tuple[tuple[str, Any], ...]) -> Game:
    return load_ruleset(RULESETS[index], dict(params))


def conserved_groups(game: Game) -> list[tuple[str, ...]]:
    """Groups of `int` variables lasting the match that only `transfer` steps change, each group joined by
    transfers: the total of each group never changes (chips and a pot). A ruleset without them has none."""
    transfers: list[tuple[str, str]] = []
    changed: set[str] = set()

    def name(target: Any) -> str:
        found = re.match(r"\s*([A-Za-z_]\w*)", str(target))
        return found.group(1) if found else ""

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "transfer" in node:
                transfers.append((name(node.get("from")), name(node.get("to"))))
            for verb in ("set", "change"):
                if verb in node:
                    changed.add(name(node[verb]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(to_plain(game.ruleset.tree))
    variables = game.ruleset.variables
    groups: dict[str, set[str]] = {}
    for pair in transfers:
        merged = set(pair).union(*(groups.get(each, set()) for each in pair))
        for each in merged:
            groups[each] = merged
    found = set()
    for group in groups.values():
        if all(each in variables and variables[each].lasts == "match" and variables[each].type == "int"
               and each not in changed for each in group):
            found.add(tuple(sorted(group)))
    return sorted(found)


def total(state: State, group: tuple[str, ...]) -> int:
    values = [state.values[name] for name in group]
    return sum(value if isinstance(value, int) else sum(value) for value in values)


def may_see(visibility: str, per: str, owner: int, seat: int, team_of: tuple[int, ...]) -> bool:
    """Whether `seat` may see what a zone or variable holds, as the ruleset format documents `visibility`."""
    if visibility == "public" or per == "table":
        return visibility == "public"
    if visibility == "owner":
        return per == "seat" and owner == seat
    if visibility == "team":
        return (team_of[owner] if per == "seat" else owner) == team_of[seat]
    return False  # hidden, nobody


def check_hidden(state: State, seats: range | list[int]) -> None:
    """No seat's observation shows the cards of a zone it may not see (only the zone's face-up cards, which
    are exactly those the state holds face up), nor a variable it may not see."""
    ruleset = state.game.ruleset
    team_of = state.values["team_of"]
    parse = state.game.deck.parse_card
    for seat in seats:
        view = state.observation(seat)
        for name, zone in ruleset.zones.items():
            if zone.kind == "melds":  # melds are on the table
                continue
            shown = view["zones"][name]
            for owner, part in ([(-1, shown)] if zone.owner == "table" else enumerate(shown)):
                if may_see(zone.visibility, zone.owner, owner, seat, team_of):
                    continue
                assert "cards" not in part, f"p{seat} sees the cards of {name}[{owner}]"
                face_up = state.face_up.of((name, owner))
                if face_up or part.get("face_up"):
                    assert Counter(map(parse, part.get("face_up", []))) == Counter(face_up), \
                        f"p{seat} sees other cards of {name}[{owner}] than its face-up ones"
        for name, variable in ruleset.variables.items():
            if variable.per != "table" and variable.visibility != "public":
                for owner, value in enumerate(view["variables"][name]):
                    if not may_see(variable.visibility, variable.per, owner, seat, team_of):
                        assert value is None, f"p{seat} sees {name}[{owner}]"


def whole_view(state: State) -> list[Any]:
    """Everything a comparison of two states looks at."""
    terminal = state.is_terminal
    return [[state.observation(seat) for seat in range(state.player_count)], state.current_player, terminal,
            state.returns() if terminal else None, [state.action_text(a) for a in state.legal_actions()]]


def check_step(state: State, deck: Counter[int], groups: dict[tuple[str, ...], int], former: list[Action],
               checks: random.Random, counts: Counts) -> list[Action]:
    """Every per-step property of `state`; its legal actions."""
    assert all_cards(state) == deck, "a card was lost or duplicated"
    for group, expected in groups.items():
        assert total(state, group) == expected, f"the total of {', '.join(group)} changed"
        counts.conserved += 1
    legal = state.legal_actions()
    every_seat = range(state.player_count)
    if state.is_terminal or state.current_player == CHANCE:
        assert legal == [], "legal actions at a chance node or at the end"
        if state.is_terminal or checks.random() < EVERY_SEAT:
            check_hidden(state, every_seat)
            counts.observations += state.player_count
        return legal
    assert legal, "a decision with no legal action"
    assert len(set(legal)) == len(legal), "an action listed twice"
    counts.decisions += 1
    for action in legal:
        text = state.action_text(action)
        assert state.parse_action(text) == action, f"{text!r} does not parse back to its action"
        assert state.is_legal(action) and state.is_legal(text), f"{text} is listed but not legal"
    counts.legal_checked += len(legal)
    here = set(legal)
    for action in checks.sample(former, min(len(former), 5)):
        if action not in here:
            assert not state.is_legal(action), f"{state.action_text(action)} is legal but not listed"
            counts.refused_checked += 1
    seats = every_seat if checks.random() < EVERY_SEAT else [state.current_player]
    check_hidden(state, seats)
    counts.observations += len(seats)
    return legal


def play_checked(game: Game, seed: int, players: int, counts: Counts) -> None:
    """One game with every check; then the clone and the same-seed replay compared with it."""
    state = game.new_initial_state(seed=seed, players=players)
    chooser, checks = random.Random(seed), random.Random(seed + 1)
    deck = Counter(game.deck.cards(state.player_count))
    groups = {group: total(state, group) for group in conserved_groups(game)}
    former: list[Action] = []
    cut = checks.randrange(0, 80)
    clone: State | None = None
    after_cut: list[Action | None] = []  # the decisions after the clone was taken; None: a chance event
    taken: list[Action | None] = []
    for step in range(MAX_STEPS):
        if step == cut:
            clone = state.clone()
        legal = check_step(state, deck, groups, former, checks, counts)
        if state.is_terminal:
            counts.ended += 1
            break
        counts.steps += 1
        if state.current_player == CHANCE:
            choice: Action | None = None
            state.apply_chance()
        else:
            choice = chooser.choice(legal)
            former.extend(legal[:FORMER_LEGAL // 5])
            del former[:-FORMER_LEGAL]
            state.apply(choice)
        taken.append(choice)
        if clone is not None:
            after_cut.append(choice)
    else:
        check_step(state, deck, groups, former, checks, counts)
    if clone is not None:
        drive(clone, after_cut)
        assert whole_view(clone) == whole_view(state), f"a clone taken at step {cut} ended elsewhere"
        counts.comparisons += 1
    again = game.new_initial_state(seed=seed, players=players)
    drive(again, taken)
    assert again.events == state.events, "the same seed and actions made other events"
    assert whole_view(again) == whole_view(state), "the same seed and actions ended elsewhere"
    counts.comparisons += 1


def drive(state: State, actions: list[Action | None]) -> None:
    for action in actions:
        if action is None:
            state.apply_chance()
        else:
            state.apply(action)


def games_of(index: int) -> Iterator[tuple[int, int, tuple[tuple[str, Any], ...]]]:
    """The seed, player count and parameters of every game of one ruleset."""
    sets = parameter_sets(index)
    rng = random.Random(f"{RUN_SEED}/{index}/games")
    allowed = loaded(index, sets[0]).ruleset.players
    for number in range(GAMES):
        yield rng.randrange(2**31), rng.randint(allowed.minimum, allowed.maximum), sets[number % len(sets)]


COUNTS: dict[str, Counts] = {}


@pytest.mark.parametrize("index", range(len(RULESETS)), ids=[p.relative_to(ROOT).as_posix() for p in RULESETS])
def test_random_games_keep_every_property(index: int) -> None:
    counts = COUNTS.setdefault(RULESETS[index].relative_to(ROOT).as_posix(), Counts())
    for seed, players, params in games_of(index):
        if counts.steps >= STEPS:  # (short matches: many games; long ones: fewer)
            break
        game = loaded(index, params)
        where = f"{RULESETS[index].relative_to(ROOT).as_posix()}, seed {seed}, {players} players, " \
                f"params {dict(params)}"
        try:
            play_checked(game, seed, players, counts)
        except AssertionError as error:
            raise AssertionError(f"{where}: {error}") from None
        counts.games += 1
    print(f"\n{RULESETS[index].relative_to(ROOT).as_posix()}: {counts.games} games ({counts.ended} ended), "
          f"{counts.steps} steps, {counts.decisions} decisions, {counts.legal_checked} legal actions checked, "
          f"{counts.refused_checked} refusals checked, {counts.observations} observations, "
          f"{counts.conserved} conserved totals, {counts.comparisons} state comparisons")


def test_chips_and_the_pot_are_found_to_be_conserved_and_nothing_in_a_game_without_transfers() -> None:
    bourre = load_ruleset(ROOT / "rulesets" / "bourre.yaml")
    assert conserved_groups(bourre) == [("chips", "pot")]
    assert conserved_groups(load_ruleset(ROOT / "tests" / "games" / "whist.yaml")) == []
