"""A quantifier that compares each card's suit or rank with one value (`any(c.suit == led for c in hand)`, the
follow-suit test of trick games), or a comprehension that keeps the cards whose suit or rank is one value (`[c for
c in hand if c.suit == trump]`), is written as one comparison or filter made in C (`_Emitter._field_test`); any
other is the loop. The same holds through a definition of one parameter whose body is such a comparison
(`any(follows(c) for c in hand)`, `follows(c): c.suit == led`). So is a sum, a highest or lowest, or a list of
one field of each card (`sum(value(c) for c in s)`, `max(c.rank for c in cs)`, `[c.rank for c in cs]`). Both give
the answers of the rules as written, over random hands."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from interpreter.cards import standard_deck
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program, evaluate
from interpreter.dsl.definitions import Definition
from interpreter.dsl.parser import parse
from interpreter.dsl.types import parse_type
from interpreter.errors import EvaluationError

DECK = standard_deck(values={"A": 11, "K": 4, "Q": 3, "J": 2, "10": 10})  # (the others: 0)


def v(rank: int) -> int:
    """A card's value, by its rank, as the deck above gives it."""
    return {12: 11, 11: 4, 10: 3, 9: 2, 8: 10}.get(rank, 0)


DEFINITIONS = {"of_suit": ("c", "c.suit == s"), "above": ("c", "c.rank > r"), "off_rank": ("c", "r != c.rank"),
               "first_suit": ("c", "c.suit == first(cs).suit")}


def compiled(expression: str) -> tuple[Any, str]:
    """The expression compiled over a list of cards `cs` and a suit `s` and a rank `r` (with the definitions
    above); and the generated code."""
    definitions = {name: Definition(name, (parameter,), parse(body), body)
                   for name, (parameter, body) in DEFINITIONS.items()}
    environment = Environment(DECK, {}, definitions, {}, {"player": parse_type("seat")})
    context = {"cs": parse_type("list[card]"), "s": parse_type("suit"), "r": parse_type("rank")}
    node = parse(expression)
    _, annotations = environment.check(node, context)
    program = Program(environment)
    name = program.add(node, annotations)
    return program.build()[name], program.source


# (expression, the answer in Python over cards as (rank, suit) pairs, whether it is one comparison in C; `v`:
# a card's value)
CASES = [
    ("any(c.suit == s for c in cs)", lambda cs, s, r: any(suit == s for _, suit in cs), True),
    ("any(s == c.suit for c in cs)", lambda cs, s, r: any(suit == s for _, suit in cs), True),
    ("all(c.rank != r for c in cs)", lambda cs, s, r: all(rank != r for rank, _ in cs), True),
    ("count(c.rank == r for c in cs)", lambda cs, s, r: sum(rank == r for rank, _ in cs), True),
    ("any(c.suit != s for c in cs)", lambda cs, s, r: any(suit != s for _, suit in cs), True),
    ("all(c.suit == s for c in cs)", lambda cs, s, r: all(suit == s for _, suit in cs), True),
    # (through a definition of one parameter comparing its card's field: `follows(c): c.suit == led`)
    ("any(of_suit(c) for c in cs)", lambda cs, s, r: any(suit == s for _, suit in cs), True),
    ("all(off_rank(c) for c in cs)", lambda cs, s, r: all(rank != r for rank, _ in cs), True),
    ("count(of_suit(c) for c in cs)", lambda cs, s, r: sum(suit == s for _, suit in cs), True),
    ("any(above(c) for c in cs)", lambda cs, s, r: any(rank > r for rank, _ in cs), True),
    # (an order: the cards for which it holds, a set made once for the field, operator and value)
    ("any(c.rank > r for c in cs)", lambda cs, s, r: any(rank > r for rank, _ in cs), True),
    ("all(r <= c.rank for c in cs)", lambda cs, s, r: all(r <= rank for rank, _ in cs), True),
    ("count(value(c) < 10 for c in cs)", lambda cs, s, r: sum(v(rank) < 10 for rank, _ in cs), True),
    ("[c for c in cs if c.rank >= r]", lambda cs, s, r: [(rank, suit) for rank, suit in cs if rank >= r], True),
    ("[c for c in cs if 5 > value(c)]", lambda cs, s, r: [(rank, suit) for rank, suit in cs if v(rank) < 5], True),
    ("[c for c in cs if of_suit(c)]", lambda cs, s, r: [(rank, suit) for rank, suit in cs if suit == s], True),
    ("any(c.suit == s for c in cs if c.rank > r)", lambda cs, s, r: any(suit == s for rank, suit in cs if rank > r),
     False),
    ("[c for c in cs if c.suit == s]", lambda cs, s, r: [(rank, suit) for rank, suit in cs if suit == s], True),
    ("[c for c in cs if r != c.rank]", lambda cs, s, r: [(rank, suit) for rank, suit in cs if rank != r], True),
    ("[c for c in cs if c.suit == s and c.rank > r]",
     lambda cs, s, r: [(rank, suit) for rank, suit in cs if suit == s and rank > r], False),
    ("[c.rank for c in cs if c.suit == s]", lambda cs, s, r: [rank for rank, suit in cs if suit == s], False),
    ("any(value(c) == 10 for c in cs)", lambda cs, s, r: any(v(rank) == 10 for rank, _ in cs), True),
    ("count(0 == value(c) for c in cs)", lambda cs, s, r: sum(v(rank) == 0 for rank, _ in cs), True),
    ("[c for c in cs if value(c) != 0]", lambda cs, s, r: [(rank, suit) for rank, suit in cs if v(rank) != 0], True),
]


@pytest.mark.parametrize(("expression", "expected", "in_c"), CASES, ids=[case[0] for case in CASES])
def test_a_card_field_compared_over_random_hands(expression: str, expected: Any, in_c: bool) -> None:
    function, source = compiled(expression)
    assert (bool(re.search(r"map\((RANK|SUIT|VALUE)_OF, items\)", source)) or "__contains__, items)" in source
            or bool(re.search(r"IS_(RANK|SUIT|VALUE)\.get\(.*, IS_NONE\), items\)", source))
            or "CARDS_WHERE(" in source or bool(re.search(r"CARDS_OF_(RANK|SUIT|VALUE)\.get\(.*\.isdisjoint\(items\)",
                                                         source))) is in_c
    chooser = random.Random(expression)
    cards = list(DECK.distinct_cards())
    for _ in range(300):
        hand = chooser.sample(cards, chooser.randrange(0, 8))
        suit, rank = chooser.randrange(4), chooser.randrange(13)
        pairs = [(DECK.rank_of[card], DECK.suit_of[card]) for card in hand]
        found = evaluate(function, {}, {"cs": hand, "s": suit, "r": rank})
        if isinstance(found, list) and "c for c" in expression:  # (cards kept: compared as rank and suit)
            found = [(DECK.rank_of[card], DECK.suit_of[card]) for card in found]
        assert found == expected(pairs, suit, rank)


FOLDS = [
    ("sum(value(c) for c in cs)", lambda cs: sum(v(rank) for rank, _ in cs)),
    ("max(c.rank for c in cs)", lambda cs: max(rank for rank, _ in cs)),
    ("min(value(c) for c in cs)", lambda cs: min(v(rank) for rank, _ in cs)),
    ("[c.suit for c in cs]", lambda cs: [suit for _, suit in cs]),
    ("size(distinct([c.rank for c in cs]))", lambda cs: len({rank for rank, _ in cs})),
    ("max(order(c.rank) for c in cs) - min(order(c.rank) for c in cs)",
     lambda cs: max(rank for rank, _ in cs) - min(rank for rank, _ in cs)),
]


@pytest.mark.parametrize(("expression", "expected"), FOLDS, ids=[case[0] for case in FOLDS])
def test_one_field_of_each_card_summed_compared_or_listed(expression: str, expected: Any) -> None:
    function, source = compiled(expression)
    assert re.search(r"map\((RANK|SUIT|VALUE)_OF, B\['cs'\]\)", source)
    chooser = random.Random(expression)
    cards = list(DECK.distinct_cards())
    for _ in range(300):
        hand = chooser.sample(cards, chooser.randrange(1, 8))
        pairs = [(DECK.rank_of[card], DECK.suit_of[card]) for card in hand]
        assert evaluate(function, {}, {"cs": hand, "s": 0, "r": 0}) == expected(pairs)


def test_a_failure_next_to_a_definition_made_in_c_names_no_definition() -> None:
    """`first(cs)` fails on an empty list where the expression itself reads it, after a quantifier through
    `first_suit(c): c.suit == first(cs).suit` (made in C, whose own `first(cs)` is not reached): the failure is
    the expression's, not the definition's."""
    function, _ = compiled("any(first_suit(c) for c in cs) or first(cs).suit == s")
    with pytest.raises(EvaluationError) as failure:
        evaluate(function, {}, {"cs": [], "s": 0, "r": 0})
    assert str(failure.value) == "first() of an empty list"

