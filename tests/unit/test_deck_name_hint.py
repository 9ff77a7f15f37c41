"""`validate`'s hint for an unknown name where a suit or rank is expected: the deck's name for what was meant
(`hearts` for `H`, `q` for `Q`), and no such hint where neither is expected or the deck names its suits otherwise."""

from __future__ import annotations

from interpreter.cards import Deck, standard_deck
from interpreter.dsl.checker import _deck_name_hint
from interpreter.dsl.types import INT, RANK, SUIT

ITALIAN = Deck(ranks=("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"), suits=("D", "C", "S", "B"))


def test_a_suit_written_out_or_in_lower_case_is_named_as_the_deck_names_it() -> None:
    deck = standard_deck()
    assert _deck_name_hint("hearts", deck, SUIT) == "a suit is written as the deck names it: `H` (suits: S H D C)"
    assert _deck_name_hint("Spade", deck, SUIT) is not None and "`S`" in _deck_name_hint("Spade", deck, SUIT)
    assert _deck_name_hint("c", deck, SUIT) is not None and "`C`" in _deck_name_hint("c", deck, SUIT)
    assert _deck_name_hint("q", deck, RANK) == \
        "a rank is written as the deck names it: `Q` (ranks: 2 3 4 5 6 7 8 9 10 J Q K A)"


def test_no_deck_hint_where_no_suit_or_rank_is_expected() -> None:
    # (`c.suit == led` with `c` unbound is a slip for `card`, not the suit C)
    deck = standard_deck()
    assert _deck_name_hint("c", deck, None) is None
    assert _deck_name_hint("hearts", deck, INT) is None
    assert _deck_name_hint("q", deck, SUIT) is None  # (no suit Q)


def test_french_suit_words_only_for_a_deck_of_the_french_suits() -> None:
    # In an Italian deck C is cups (coppe), not clubs.
    assert _deck_name_hint("clubs", ITALIAN, SUIT) is None
    assert _deck_name_hint("b", ITALIAN, SUIT) is not None
