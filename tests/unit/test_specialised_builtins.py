"""A builtin given a faster form for one deck (`Builtin.specialised`) answers exactly as its general form, for
every card of decks with one pack, two packs and jokers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.cards import standard_deck
from interpreter.dsl.builtins import BUILTINS

DECKS = [standard_deck(packs=packs, jokers=jokers) for packs, jokers in ((1, 0), (2, 2))]
SPECIALISED = [builtin for builtin in BUILTINS.values() if builtin.specialised is not None]


def test_the_trick_builtins_have_a_specialised_form() -> None:
    assert {builtin.name for builtin in SPECIALISED} >= {"beats", "trick_winner"}


@settings(deadline=None, max_examples=300)
@given(deck_index=st.sampled_from([0, 1]), data=st.data())
def test_specialised_forms_answer_as_the_general_ones(deck_index: int, data: st.DataObject) -> None:
    deck = DECKS[deck_index]
    cards = st.sampled_from(list(deck.cards()))
    trump = data.draw(st.sampled_from([None, *sorted(set(deck.suit_of))]))
    first, second = data.draw(cards), data.draw(cards)
    trick = data.draw(st.lists(cards, min_size=1, max_size=8))
    beats, trick_winner = BUILTINS["beats"], BUILTINS["trick_winner"]
    assert beats.specialised is not None and trick_winner.specialised is not None
    assert beats.specialised(deck)(first, second, trump) == beats.implementation(deck, first, second, trump)
    assert trick_winner.specialised(deck)(trick, trump) == trick_winner.implementation(deck, trick, trump)
