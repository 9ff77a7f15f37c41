"""The new melds found between the decisions of one turn from the last search (engine/meldsearch.py) are
exactly those a new search finds, in the same order: at every decision of random matches of every ruleset
with melds, the legal set equals the one worked out afresh; and the melds laid are numbered m0, m1, ... in the
order they are laid."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter import CHANCE, Game, load_ruleset
from interpreter.engine import decisions, meldsearch
from interpreter.engine.state import State

ROOT = Path(__file__).resolve().parents[2]
RULESETS = [ROOT / "rulesets" / "burraco.yaml", ROOT / "rulesets" / "variants" / "burraco_internazionale.yaml",
            ROOT / "benchmarks" / "burraco_benchmark.yaml", ROOT / "tests" / "games" / "rummy500.yaml",
            ROOT / "tests" / "games" / "canasta.yaml", ROOT / "tests" / "games" / "gin_rummy.yaml"]


def _meld_first(legal: list, rng: random.Random) -> object:  # type: ignore[type-arg]
    """Lay melds and add cards often, so that turns have many decisions after the draw."""
    melding = [action for action in legal if action.kind in ("meld", "add")]
    return rng.choice(melding) if melding and rng.random() < 0.8 else rng.choice(legal)


def _decisions(game: Game, most: int) -> Iterator[State]:
    """Each decision of three random matches (each cut at `most` steps) that lay melds and add cards often: the
    state, to look at; the action (`_meld_first`) is applied once the caller is done with it."""
    for seed in range(3):
        state = game.new_initial_state(seed=seed, players=min(4, max(game.ruleset.players.counts())))
        rng = random.Random(seed)
        for _ in range(most):
            if state.is_terminal:
                break
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            yield state
            state.apply(_meld_first(state.legal_actions(), rng))  # type: ignore[arg-type]


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_the_melds_kept_between_decisions_are_those_a_new_search_finds(path: Path) -> None:
    searched_again = 0
    for state in _decisions(load_ruleset(path), 1500):
        laid = [meld.id for table in state.values["melds"] for meld in table] \
            if isinstance(state.values.get("melds"), list) else []
        assert sorted(laid) == list(range(len(laid))), laid  # (numbered in the order laid)
        fresh = state.clone()
        fresh.meld_search = None
        assert state.legal_actions() == fresh.legal_actions()
        searched_again += state.meld_search is not None
    assert searched_again > 0


@pytest.mark.parametrize("path", [path for path in RULESETS if path.stem != "gin_rummy"],  # (its melds are laid
                         ids=lambda path: path.stem)                                      # at once, by a knock)
def test_each_new_melds_action_makes_the_meld_of_its_cards(path: Path) -> None:
    # (a search hands over its melds and their actions as two sequences, and an option's filter keeps some of
    # the melds: the meld an action makes, looked up when it is taken, is the one at its place, with its cards)
    checked = 0
    for state in _decisions(load_ruleset(path), 800):
        for action in state.legal_actions():  # (the melds an option lays one at a time: those laid at once
            if action.kind == "meld" and action not in state.meld_plans:  # have plans of their own)
                assert decisions.new_meld_plan(state, action).cards == action.cards
                checked += 1
    assert checked > 100


@given(before=st.dictionaries(st.integers(0, 30), st.integers(1, 3), max_size=14),
       now=st.dictionaries(st.integers(0, 30), st.integers(1, 3), max_size=14))
def test_the_cards_a_hand_lost_are_those_it_holds_fewer_of_unless_it_gained_one(before: dict[int, int],
                                                                                now: dict[int, int]) -> None:
    # (a meld laid or a card added between two decisions of a turn: the search kept goes on from what it found,
    # without the melds that need cards no longer held; a card gained, drawn or taken, starts a new search)
    gained = any(now[card] > before.get(card, 0) for card in now)
    expected = None if gained else \
        sorted((card, now.get(card, 0)) for card in before if now.get(card, 0) < before[card])
    found = meldsearch._lost(before, now)
    assert (found if found is None else sorted(found)) == expected
    assert meldsearch._lost(before, dict(before)) == []
