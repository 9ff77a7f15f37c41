"""Hypothesis properties of the engine over random seeds, player counts and parameters, on Bourré and on
every test game: cards are conserved, chips are conserved, legal actions are empty exactly at chance nodes
and at the end, every legal action applies, the same seed gives the same game, and no observation shows a
card its seat may not see."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import CHANCE, TERMINAL, Game, State, load_ruleset
from interpreter.actions import Action
from interpreter.engine.observation import sees_zone
from tests.play_helpers import play_out

ROOT = Path(__file__).resolve().parent.parent
BOURRE = ROOT / "rulesets" / "bourre.yaml"
SETTINGS = settings(max_examples=25, deadline=None)


@cache
def game(path: Path, params: tuple[tuple[str, Any], ...] = ()) -> Game:
    return load_ruleset(path, dict(params))


def all_cards(state: State) -> Counter[int]:
    found: Counter[int] = Counter()
    for name, zone in state.game.ruleset.zones.items():
        stored = state.values[name]
        for cards in ([stored] if zone.owner == "table" else stored):
            if zone.kind == "melds":
                for meld in cards:
                    found.update(meld.cards)
            else:
                found.update(cards)
    return found


def check_observations(state: State) -> None:
    for seat in range(state.player_count):
        view = state.observation(seat)
        for name, zone in state.game.ruleset.zones.items():
            shown = view["zones"][name]
            parts = [(shown, -1)] if zone.owner == "table" else list(zip(shown, range(len(shown)), strict=True))
            for part, owner in parts:
                if sees_zone(state, zone, owner, seat) or zone.kind == "melds":
                    continue
                assert "cards" not in part, f"p{seat} sees the cards of {name}[{owner}]"
                face_up = Counter(state.face_up.of((name, owner)))
                assert Counter(state.game.deck.parse_card(c) for c in part.get("face_up", [])) == face_up


def check_whose_turn(state: State) -> None:
    """`current_player` and `is_terminal` (attributes noted when the state stops) agree with what is pending."""
    if state.pending is not None:
        assert state.current_player == state.pending.seat >= 0 and not state.is_terminal
        assert state.chance is None
    elif state.is_terminal:
        assert state.current_player == TERMINAL
    else:
        assert state.current_player == CHANCE and state.chance is not None and state.is_chance_node


def play(state: State, rng: random.Random, *, steps: int = 4000, inspect: bool = True) -> list[str]:
    """Play with random moves, checking the invariants after every action; the actions taken, as text."""
    deck = Counter(state.game.deck.cards(state.player_count))
    taken = []
    for _ in range(steps):
        assert all_cards(state) == deck, "a card was lost or duplicated"
        check_whose_turn(state)
        legal = state.legal_actions()
        if state.is_terminal or state.current_player == CHANCE:
            assert legal == []
            if state.is_terminal:
                break
            state.apply_chance()
            continue
        assert legal, "a decision with no legal action"
        if inspect:
            check_observations(state)
            for action in legal:
                assert state.is_legal(action)
        action = rng.choice(legal)
        if inspect and rng.random() < 0.2:
            for other in legal:  # every legal action applies
                trial = state.clone()
                trial.apply(other)
                check_whose_turn(trial)
        taken.append(state.action_text(action))
        state.apply(action)
    return taken


@SETTINGS
@given(seed=st.integers(0, 10_000), players=st.integers(2, 8), pot_limit=st.sampled_from([None, 5, 20]),
       starting=st.sampled_from([None, 10, 30]), hands=st.integers(1, 4),
       readings=st.tuples(st.sampled_from(["trick", "led_suit"]), st.sampled_from(["always", "only_if_can_win"]),
                          st.booleans(), st.sampled_from(["next", "run"]), st.integers(0, 5)))
def test_bourre_properties(seed: int, players: int, pot_limit: int | None, starting: int | None, hands: int,
                           readings: tuple[str, str, bool, str, int]) -> None:
    follower, void, overtrump, adjacent, max_discard = readings
    params = (("hands", hands), ("pot_limit", pot_limit), ("starting_chips", starting),
              ("follower_must_beat", follower), ("void_must_trump", void), ("must_overtrump", overtrump),
              ("cinch_adjacent", adjacent), ("max_discard", max_discard))
    bourre = game(BOURRE, params)
    state = bourre.new_initial_state(seed=seed, players=players)
    total = players * (starting or 0)
    rng = random.Random(seed)
    while not state.is_terminal:
        chips = state.values["chips"]
        assert sum(chips) + state.values["pot"] == total, "chips were created or destroyed"
        play(state, rng, steps=1, inspect=False)
    assert state.is_terminal and len(state.hand_results) <= hands


@SETTINGS
@given(seed=st.integers(0, 10_000), players=st.integers(2, 8))
def test_bourre_invariants_hold_after_every_action(seed: int, players: int) -> None:
    state = game(BOURRE, (("hands", 2),)).new_initial_state(seed=seed, players=players)
    play(state, random.Random(seed))


@SETTINGS
@given(seed=st.integers(0, 10_000), players=st.integers(2, 8))
def test_the_same_seed_gives_the_same_game(seed: int, players: int) -> None:
    bourre = game(BOURRE, (("hands", 2),))
    first = play(bourre.new_initial_state(seed=seed, players=players), random.Random(seed), inspect=False)
    second = play(bourre.new_initial_state(seed=seed, players=players), random.Random(seed), inspect=False)
    assert first == second


@SETTINGS
@given(seed=st.integers(0, 10_000), cut=st.integers(1, 60))
def test_a_clone_continues_exactly_like_the_original(seed: int, cut: int) -> None:
    state = game(BOURRE, (("hands", 2),)).new_initial_state(seed=seed, players=5)
    rng = random.Random(seed)
    play(state, rng, steps=cut, inspect=False)
    copy = state.clone()
    copy_rng = random.Random(seed + 1)
    original_rng = random.Random(seed + 1)
    assert play(copy, copy_rng, inspect=False) == play(state, original_rng, inspect=False)
    assert copy.returns() == state.returns()


@SETTINGS
@given(seed=st.integers(0, 10_000), cut=st.integers(1, 60), order=st.permutations(range(4)))
def test_copies_draw_the_same_chance_whichever_draws_first(seed: int, cut: int, order: list[int]) -> None:
    """Copies share their original's generator until one draws (a copy of a generator is costly): whichever
    of an original, its copies and a copy of a copy plays on first, each plays the same match."""
    state = game(BOURRE, (("hands", 2),)).new_initial_state(seed=seed, players=5)
    play(state, random.Random(seed), steps=cut, inspect=False)
    first = state.clone()
    states = [state, first, state.clone(), first.clone()]
    played: dict[int, list[str]] = {}
    for index in order:
        played[index] = play(states[index], random.Random(seed + 1), inspect=False)
    assert played[0] == played[1] == played[2] == played[3]
    assert len({tuple(copy.returns()) for copy in states}) == 1


GAMES = sorted((ROOT / "tests" / "games").glob("*.yaml"))


@SETTINGS
@given(seed=st.integers(0, 10_000), index=st.integers(0, max(len(GAMES) - 1, 0)), players=st.integers(0, 8))
def test_test_games_keep_every_invariant(seed: int, index: int, players: int) -> None:
    test_game = game(GAMES[index])
    allowed = test_game.ruleset.players
    count = allowed.minimum + players % (allowed.maximum - allowed.minimum + 1)
    play(test_game.new_initial_state(seed=seed, players=count), random.Random(seed))


BURRACO = ROOT / "rulesets" / "burraco.yaml"


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_burraco_keeps_every_card_and_hides_hands_and_pozzetti(seed: int) -> None:
    state = game(BURRACO, (("hand_cap", 1),)).new_initial_state(seed=seed, players=4)
    play(state, random.Random(seed), steps=600)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_every_legal_meld_applies_and_leaves_valid_melds(seed: int) -> None:
    burraco = game(BURRACO, (("hand_cap", 1),))
    state = burraco.new_initial_state(seed=seed, players=4)
    rng = random.Random(seed)
    rules = burraco.meld_rules
    assert rules is not None

    def checked(state: State) -> Action:
        legal = state.legal_actions()
        for action in legal:
            if action.kind in ("meld", "add"):
                trial = state.clone()
                trial.apply(action)
                for team_melds in trial.values["melds"]:
                    for meld in team_melds:
                        kind = rules.kinds[meld.kind]
                        assert kind.minimum <= len(meld.cards) <= kind.maximum
                        assert sum(meld.wild) <= kind.max_wilds
        return rng.choice(legal)

    play_out(state, checked, 300)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_burraco_the_same_seed_gives_the_same_game(seed: int) -> None:
    burraco = game(BURRACO, (("hand_cap", 1),))
    first = play(burraco.new_initial_state(seed=seed, players=4), random.Random(seed), inspect=False)
    second = play(burraco.new_initial_state(seed=seed, players=4), random.Random(seed), inspect=False)
    assert first == second
