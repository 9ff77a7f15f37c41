"""`beats(card, other, trump)` against one card winning, for each card of a quantifier or a filter (Bourré's
BR-23 heading rule, `any(heads(c) for c in allowed)` and `not must_head or heads(card)`): the compiled code asks
whether the card is among the cards that beat the winning one (`BEATERS_BY`, a set per card made once per
trump) instead of calling `beats` for each card. Both must agree: a higher card of the same suit, or a trump
when the card winning is no trump (docs/ruleset-format.md, builtins)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter.cards import Deck, standard_deck
from interpreter.dsl.builtins import BUILTINS, Beaters
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program
from interpreter.dsl.parser import parse
from interpreter.dsl.types import parse_type

DECKS = [standard_deck(), standard_deck(packs=2, jokers=4),
         Deck(ranks=("7", "8", "9", "U", "O", "K", "10", "A"), suits=("E", "G", "H", "S"))]


def _specialised(name: str, deck: Deck) -> Callable[..., Any]:
    specialised = BUILTINS[name].specialised
    assert specialised is not None
    return specialised(deck)


@pytest.mark.parametrize("deck", DECKS, ids=["standard", "two packs and jokers", "32 cards"])
def test_the_cards_that_beat_a_card_are_those_beats_says_beat_it(deck: Deck) -> None:
    beats, beaters = _specialised("beats", deck), Beaters(deck)
    cards = range(len(deck.suit_of))
    for trump in (None, *sorted(set(deck.suit_of))):
        for other in cards:
            assert beaters(other, trump) == {card for card in cards if beats(card, other, trump)}


def _compiled(expression: str) -> tuple[Callable[..., Any], str]:
    game_values = {"trick": parse_type("list[card]"), "trump": parse_type("suit")}  # (the game's, as zones are)
    environment = Environment(DECKS[0], game_values, {}, {}, {"player": parse_type("seat")})
    node = parse(expression)
    _, annotations = environment.check(node, {"hand": parse_type("list[card]")})
    program = Program(environment)
    name = program.add(node, annotations)
    return program.build()[name], program.source


@given(seed=st.integers(0, 10_000))
def test_a_quantifier_over_cards_against_the_card_winning_asks_the_set_and_agrees_with_beats(seed: int) -> None:
    deck = DECKS[0]
    beats = _specialised("beats", deck)
    function, source = _compiled("count(beats(c, trick_winner(trick, trump), trump) for c in hand)")
    assert "BEATERS_BY.get(" in source and "B_beats(" not in source
    rng = random.Random(seed)
    cards = rng.sample(range(52), 9)
    hand, trick, trump = cards[:5], cards[5:], rng.randrange(4)
    winning = _specialised("trick_winner", deck)(trick, trump)
    assert function({"trick": trick, "trump": trump}, {"hand": hand, "player": 0}) == \
        sum(1 for card in hand if beats(card, winning, trump))
