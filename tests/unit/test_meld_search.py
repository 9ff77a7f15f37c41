"""The new melds found from the last search of the seat (engine/meldsearch.py) are
exactly those a new search finds, in the same order: at every decision of random matches of every ruleset
with melds, the legal set equals the one worked out afresh; and the melds laid are numbered m0, m1, ... in the
order they are laid."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter import CHANCE, load_ruleset
from interpreter.engine import meldsearch
from interpreter.engine.melds import counted

ROOT = Path(__file__).resolve().parents[2]
RULESETS = [ROOT / "rulesets" / "burraco.yaml", ROOT / "rulesets" / "variants" / "burraco_internazionale.yaml",
            ROOT / "benchmarks" / "burraco_benchmark.yaml", ROOT / "tests" / "games" / "rummy500.yaml",
            ROOT / "tests" / "games" / "canasta.yaml", ROOT / "tests" / "games" / "gin_rummy.yaml"]


def _meld_first(legal: list, rng: random.Random) -> object:  # type: ignore[type-arg]
    """Lay melds and add cards often, so that turns have many decisions after the draw."""
    melding = [action for action in legal if action.kind in ("meld", "add")]
    return rng.choice(melding) if melding and rng.random() < 0.8 else rng.choice(legal)


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_the_melds_kept_between_decisions_are_those_a_new_search_finds(path: Path) -> None:
    game = load_ruleset(path)
    searched_again = 0
    for seed in range(3):
        state = game.new_initial_state(seed=seed, players=min(4, max(game.ruleset.players.counts())))
        rng = random.Random(seed)
        for _ in range(1500):
            if state.is_terminal:
                break
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            fresh = state.clone()
            fresh.meld_searches = {}
            legal = state.legal_actions()
            assert legal == fresh.legal_actions()
            searched_again += bool(state.meld_searches)
            action = _meld_first(legal, rng)
            state.apply(action)  # type: ignore[arg-type]
            laid = [meld.id for table in state.values["melds"] for meld in table] \
                if isinstance(state.values.get("melds"), list) else []
            assert sorted(laid) == list(range(len(laid))), laid
    assert searched_again > 0


BURRACO = load_ruleset(ROOT / "rulesets" / "burraco.yaml")
CARDS = BURRACO.deck.distinct_cards()


def _hand(cards: list[int]) -> list[int]:
    """At most two of each card (the two packs), but any number of jokers."""
    held: list[int] = []
    for card in cards:
        if held.count(card) < 2 or BURRACO.deck.rank_name(BURRACO.deck.rank_of[card]) == "JK":
            held.append(card)
    return held


@given(before=st.lists(st.sampled_from(CARDS), max_size=16), lost=st.lists(st.integers(0, 15), max_size=4),
       gained=st.lists(st.sampled_from(CARDS), max_size=4), laid=st.lists(st.integers(0, 40), max_size=3))
def test_a_hand_searched_from_its_last_search_finds_what_a_new_search_finds(
        before: list[int], lost: list[int], gained: list[int], laid: list[int]) -> None:
    # (from one of a seat's decisions to the next its hand lost cards (melds laid, a discard) and gained some (a
    # draw, a pile taken), and sets taking ranks were laid on its table: the search kept for the seat goes on
    # from its parts, searching again those of the natural cards gained, or everything for a wild card gained)
    rules = BURRACO.meld_rules
    assert rules is not None
    first = _hand(before)
    now = _hand([card for index, card in enumerate(first) if index not in lost] + gained)
    sets = [meld for meld, _, _ in rules.search(counted(first + now), 0, []) if meld.shape == "set"]
    table = [sets[index % len(sets)] for index in laid] if sets else []
    kept = SimpleNamespace(meld_searches={})
    meldsearch.new_melds(kept, rules, 0, first, 0, [])  # type: ignore[arg-type]
    again = meldsearch.new_melds(kept, rules, 0, now, 0, table)  # type: ignore[arg-type]
    fresh = meldsearch.new_melds(SimpleNamespace(meld_searches={}), rules, 0, now, 0, table)  # type: ignore[arg-type]
    assert again == fresh
    assert [meld for meld, _, _ in again] == [meld for meld, _, _ in rules.search(counted(now), 0, table)]
