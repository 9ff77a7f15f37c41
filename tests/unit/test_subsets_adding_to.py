"""`subsets_adding_to`: the same choices, in the same order, as the subsets whose points add up to a total, for
any cards (repeated ones from two packs included) and any points (negative ones and none included)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.cards import standard_deck
from interpreter.dsl.builtins import (
    MAX_SUBSETS,
    SEARCH_EFFORT,
    _subsets,
    _subsets_adding_to,
    bounded_places,
    enumerated_places,
    searched_places,
)
from interpreter.errors import EvaluationError

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = standard_deck(packs=2, values={"A": 1, "2": -2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                                      "10": 10, "J": 10, "Q": 10})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, len(DECK.text_of) - 1), max_size=12), st.lists(st.integers(-6, 40), max_size=4))
def test_the_choices_are_the_subsets_worth_a_total(cards: list[int], totals: list[int]) -> None:
    by_subsets = [s for s in _subsets(cards, 1) if sum(DECK.value_of[card] for card in s) in totals]
    assert _subsets_adding_to(DECK, cards, totals) == by_subsets


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-5, 12), max_size=14), st.sets(st.integers(-10, 40), min_size=1, max_size=4))
def test_the_search_for_many_cards_finds_what_going_over_every_choice_finds(values: list[int],
                                                                            wanted: set[int]) -> None:
    assert searched_places(values, wanted) == enumerated_places(values, wanted)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 12), max_size=14), st.sets(st.integers(-3, 40), min_size=1, max_size=4))
def test_the_choices_kept_under_the_largest_total_are_those_going_over_every_choice_finds(
        values: list[int], wanted: set[int]) -> None:
    # (points of none or more: the choices left as soon as they add up to more than any total wanted)
    assert bounded_places(values, wanted) == enumerated_places(values, wanted)


def test_a_fifteen_among_five_cards_is_found_in_the_order_of_the_subsets() -> None:
    # (Cribbage's fifteens, pagat: 5, J, 5, 5, 10 holds seven, each five with each ten and the three fives; the
    # pairs first, then by places)
    assert bounded_places([5, 10, 5, 5, 10], {15}) == [(0, 1), (0, 4), (1, 2), (1, 3), (2, 4), (3, 4), (0, 2, 3)]


def test_too_many_choices_is_an_error_naming_the_limit() -> None:
    kings = [DECK.parse_card(f"K{suit}") for suit in "SHDC"] * 2  # (worth nothing: every choice adds up to 0)
    others = [DECK.parse_card(f"{rank}{suit}") for rank, suit in itertools.product(RANKS[:-2], "SH")][:12]
    cards = [*kings, *others, *[DECK.parse_card(f"{rank}D") for rank in RANKS]]
    with pytest.raises(EvaluationError, match=f"more than {MAX_SUBSETS:,} choices"):
        _subsets_adding_to(DECK, cards, list(range(-10, 200)))


def test_a_search_too_long_is_an_error_naming_the_limit() -> None:
    # (points of both signs leave few choices early: thirty cards, and totals no choice reaches)
    cards = [DECK.parse_card(f"{rank}{suit}") for rank, suit in itertools.product(["A", "2", "3"], "SHDC")] * 2
    cards += [DECK.parse_card(f"{rank}S") for rank in ("4", "5", "6", "7", "8", "9")]
    with pytest.raises(EvaluationError, match=f"looks at more than {SEARCH_EFFORT:,} choices"):
        _subsets_adding_to(DECK, cards, [-1000, 1000])
