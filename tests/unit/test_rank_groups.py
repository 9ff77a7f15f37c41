"""`rank_groups(cards, smallest, largest)`: one group of cards per rank and size, so that a pair or a triple is
one action whose copies and suits do not multiply the legal set (docs/ruleset-format.md, choose; President's
sets, tests/games/president.yaml)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from interpreter import load_ruleset
from interpreter.cards import Deck, standard_deck
from interpreter.dsl.builtins import BUILTINS

ROOT = Path(__file__).resolve().parents[2]
GROUPS = BUILTINS["rank_groups"].implementation


def _texts(deck: Deck, groups: list[list[int]]) -> list[str]:
    return ["+".join(deck.card_text(card) for card in group) for group in groups]


def test_one_group_per_rank_and_size_in_the_decks_order() -> None:
    deck = standard_deck()
    hand = [deck.parse_card(text) for text in ("4C", "3D", "3S", "KH", "3H")]
    assert _texts(deck, GROUPS(deck, hand)) == ["3S", "3S+3H", "3S+3H+3D", "4C", "KH"]
    assert _texts(deck, GROUPS(deck, hand, 2)) == ["3S+3H", "3S+3H+3D"]
    assert _texts(deck, GROUPS(deck, hand, 1, 1)) == ["3S", "4C", "KH"]
    assert GROUPS(deck, []) == []


def test_copies_of_a_card_make_larger_groups_not_more_of_them() -> None:
    deck = standard_deck(packs=2, jokers=2)
    hand = [deck.parse_card(text) for text in ("5H", "5H", "JK", "5S", "JK")]
    assert _texts(deck, GROUPS(deck, hand)) == ["5S", "5S+5H", "5S+5H+5H", "JK", "JK+JK"]


def test_four_of_a_rank_are_four_plays_not_fifteen() -> None:
    game = load_ruleset(ROOT / "tests" / "games" / "president.yaml")
    state = game.new_initial_state(seed=3, players=4)
    deck = game.deck
    suits = deck.suits
    hands = {seat: [f"{rank}{suit}" for rank in ranks for suit in suits] + [f"2{suits[index]}"]
             for index, (seat, ranks) in enumerate(((1, "37J"), (2, "48Q"), (3, "59K"), (0, ("6", "10", "A"))))}
    # one at a time from the dealer's left: p1, p2, p3, p0, p1, ...
    state.apply_chance([deck.parse_card(hands[seat][turn]) for turn in range(13) for seat in (1, 2, 3, 0)])
    assert state.current_player == 1
    texts = [state.action_text(action) for action in state.legal_actions()]
    assert texts[:4] == ["p1 choose play group 3S", "p1 choose play group 3S+3H", "p1 choose play group 3S+3H+3D",
                         "p1 choose play group 3S+3H+3D+3C"]
    assert len(texts) == 3 * 4 + 1  # the threes, sevens and jacks, each from one to four cards, and a two
    state.apply(state.parse_action("p1 choose play group 3S+3H"))
    assert [deck.card_text(card) for card in state.values["table"]] == ["3S", "3H"]


@given(packs=st.integers(min_value=1, max_value=3), jokers=st.integers(min_value=0, max_value=3),
       picks=st.lists(st.integers(min_value=0, max_value=10_000), max_size=30),
       smallest=st.none() | st.integers(min_value=-1, max_value=5),
       largest=st.none() | st.integers(min_value=-1, max_value=6))
def test_the_groups_are_those_of_each_rank_held_in_the_decks_order(
        packs: int, jokers: int, picks: list[int], smallest: int | None, largest: int | None) -> None:
    # The definition, written plainly: the cards of each rank (ranks low to high, the jokers' last), in the deck's
    # order, cut to every size from `smallest` (at least 1) to `largest` (at most all of them).
    deck = standard_deck(packs=packs, jokers=jokers)
    pack = deck.cards()
    cards = [pack[pick % len(pack)] for pick in picks]
    expected = []
    for rank in sorted({deck.rank_of[card] for card in cards}):
        held = sorted(card for card in cards if deck.rank_of[card] == rank)
        low = 1 if smallest is None else max(smallest, 1)
        high = len(held) if largest is None else min(largest, len(held))
        expected.extend(held[:size] for size in range(low, high + 1))
    assert GROUPS(deck, cards, smallest, largest) == expected
