"""A filter's tests that read nothing of the card are written as statements (interpreter/dsl/statements.py): the
definitions they read worked out in place into plain locals, `and`, `or` and `if ... then ... else` as `if`
statements, and `any(heads(c) for c in allowed)` (whose test starts with `not leading`, read from no card) as a
loop in the filter after that test. The cards kept are those the clauses keep, clause by clause: here Bourré's
rules of play as rulesets/bourre.yaml writes them (BR-21 follow suit, BR-22 trump when void, BR-23/BR-24 head the
trick when able), against the same rules written out in Python, over random hands and tricks."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.cards import standard_deck
from tests.expression_helpers import checked

DECK = standard_deck()
GAME = {"trick": "list[card]", "trump": "suit"}  # the game's values (a zone and a variable)
CONTEXT = {"card": "card", "hand": "list[card]"}  # the names the decision binds

# rulesets/bourre.yaml's definitions of the rules of play (the `led_suit` reading of BR-23 left out)
PLAY = {
    "leading": "size(trick) == 0",
    "holds_led_suit": "not leading and any(c.suit == first(trick).suit for c in hand)",
    "trumps_held": "[c for c in hand if c.suit == trump]",
    "beats_trick(c)": "not leading and beats(c, trick_winner(trick, trump), trump)",
    "heads(c)": "beats_trick(c)",
    "must_trump": "size(trumps_held) > 0",
    "allowed": "if leading then hand else if holds_led_suit then [c for c in hand if c.suit == first(trick).suit] "
               "else if must_trump then trumps_held else hand",
    "must_head": "not leading and any(heads(c) for c in allowed)",
}
CLAUSES = [
    "leading or not holds_led_suit or card.suit == first(trick).suit",  # BR-21
    "leading or holds_led_suit or not must_trump or card.suit == trump",  # BR-22
    "not must_head or heads(card)",  # BR-23, BR-24
]


def filter_of(clauses: list[str], definitions: dict[str, str]) -> tuple[Any, str]:
    """The filter of the clauses over `card`, with the values of GAME and the names of CONTEXT bound; and its
    function's code."""
    program, parts = checked(DECK, clauses, definitions, CONTEXT, GAME)
    name = program.add_filter(parts, "card")
    functions = program.build()
    source = program.source
    return functions[name], source[source.index(f"def {name}("):].split("\ndef ")[0]


SPADES = DECK.suit_of[DECK.parse_card("AS")]
FIVE, NINE = DECK.rank_of[DECK.parse_card("5S")], DECK.rank_of[DECK.parse_card("9S")]


def suit(card: int) -> int:
    return DECK.suit_of[card]


def rank(card: int) -> int:
    return DECK.rank_of[card]


def beats(card: int, other: int, trump: int) -> bool:
    return (suit(card) == suit(other) and rank(card) > rank(other)) or (suit(card) == trump != suit(other))


def winning(trick: list[int], trump: int) -> int:
    best = trick[0]
    for card in trick[1:]:
        if beats(card, best, trump):
            best = card
    return best


def playable(hand: list[int], trick: list[int], trump: int) -> list[int]:
    """BR-21 to BR-24 written out: follow suit, else trump, else anything; of those, one that beats the card
    winning the trick when there is one."""
    if not trick:
        return list(hand)
    led = suit(trick[0])
    allowed = [c for c in hand if suit(c) == led] or [c for c in hand if suit(c) == trump] or list(hand)
    best = winning(trick, trump)
    return [c for c in allowed if beats(c, best, trump)] or allowed


def kept(function: Any, hand: list[int], trick: list[int], trump: int) -> list[int]:
    return list(function({"trick": trick, "trump": trump}, {"player": 0, "hand": hand}, list(hand)))


def deals(seed: int, count: int) -> list[tuple[list[int], list[int], int]]:
    chooser = random.Random(seed)
    cards = list(DECK.distinct_cards())
    found = []
    for _ in range(count):
        dealt = chooser.sample(cards, chooser.randrange(1, 12))
        cut = chooser.randrange(1, len(dealt) + 1)
        found.append((dealt[:cut], dealt[cut:][:5], chooser.randrange(4)))
    return found


@pytest.mark.parametrize("seed", range(4))
def test_the_cards_kept_are_those_the_rules_of_play_allow(seed: int) -> None:
    function, _ = filter_of(CLAUSES, PLAY)
    for hand, trick, trump in deals(seed, 500):
        assert kept(function, hand, trick, trump) == playable(hand, trick, trump), (hand, trick, trump)


def test_the_definitions_are_worked_out_in_plain_locals_and_the_quantifier_in_the_filter() -> None:
    _, code = filter_of(CLAUSES, PLAY)
    # (each definition's value in a local of the filter, none kept in `B`)
    assert re.search(r"\n    k_d_leading_\d+ = \(B_size\(V\['trick'\]\) == 0\)\n", code)
    assert "B['d_" not in code and "B.setdefault" not in code
    # (`must_head`'s `any`: a loop of the filter, after `not leading`; the cards that beat the card winning worked
    # out once, before it)
    loop = re.search(r"\n( +)for v_c in t_\d+:\n", code)
    assert loop is not None
    assert re.search(r"k_h_\d+ = \(BEATERS_BY\.get\(", code[:loop.start()])


def test_a_definition_worked_out_in_one_branch_only_is_worked_out_again_where_needed() -> None:
    """`holds_led_suit` is worked out by the first clause only when the trick has a card; the second clause
    reads it again (after `leading`) and must not take it for known."""
    clauses = ["trump == S or not holds_led_suit or card.suit == first(trick).suit",
               "holds_led_suit or card.rank > 5"]
    function, code = filter_of(clauses, PLAY)
    assert code.count("is UNSET:") >= 1
    for hand, trick, trump in deals(7, 400):
        led = suit(trick[0]) if trick else None
        holds = bool(trick) and any(suit(c) == led for c in hand)
        expected = [c for c in hand if (trump == SPADES or not holds or suit(c) == led) and (holds or rank(c) > FIVE)]
        assert kept(function, hand, trick, trump) == expected, (hand, trick, trump)


def test_all_with_a_first_test_read_from_no_card_is_a_loop_too() -> None:
    """`all(leading or c.rank < 9 for c in hand)`: worked out once, a loop after `leading` when it is false."""
    function, code = filter_of(["all(leading or c.rank < 9 for c in hand) or card.suit == trump"], PLAY)
    assert re.search(r"for v_c in t_\d+:", code)
    for hand, trick, trump in deals(11, 400):
        holds = not trick or all(rank(c) < NINE for c in hand)
        expected = [c for c in hand if holds or suit(c) == trump]
        assert kept(function, hand, trick, trump) == expected


def test_an_empty_trick_leaves_the_led_card_unread() -> None:
    """On an empty trick `first(trick)` would fail; the statements read it only behind `not leading` (BR-21: the
    leader may play any card), as the clauses do."""
    function, _ = filter_of(CLAUSES, PLAY)
    hand = [DECK.parse_card(text) for text in ("AS", "KH", "2D")]
    assert kept(function, hand, [], 0) == hand


# Definitions read from no card, of the shapes the statements write (a chain of `if`, `and`, `not`, lists, an
# `any` whose test starts with a test read from no item, an `all` likewise), and tests of the card; none fails.
MIXED = {
    **PLAY,
    "small_trick": "size(trick) < 2",
    "short": "if small_trick then size(hand) > 2 else not holds_led_suit",
    "high_held": "all(leading or c.rank < 9 for c in hand)",
}
READ_ONCE = ["leading", "holds_led_suit", "must_trump", "must_head", "small_trick", "short", "high_held",
             "size(allowed) > 1", "any(heads(c) for c in trumps_held)", "trump == S"]
READ_PER_CARD = ["heads(card)", "card.suit == trump", "card.rank > 5", "card in allowed",
                 "not leading and card.suit == first(trick).suit"]


def conditions_of(depth: int) -> st.SearchStrategy[str]:
    """Tests joined by `and`, `or`, `not` and `if ... then ... else`, of tests read from no card or of the card."""
    leaf = st.sampled_from(READ_ONCE + READ_PER_CARD)
    if depth == 0:
        return leaf
    inner = conditions_of(depth - 1)
    return st.one_of(
        leaf,
        st.builds(lambda a, b: f"({a} and {b})", inner, inner),
        st.builds(lambda a, b: f"({a} or {b})", inner, inner),
        st.builds(lambda a: f"not ({a})", inner),
        st.builds(lambda a, b, c: f"(if {a} then {b} else {c})", inner, inner, inner))


@settings(max_examples=150, deadline=None)
@given(st.lists(conditions_of(2), min_size=1, max_size=3), st.integers(0, 2**32 - 1))
def test_a_filter_keeps_what_its_clauses_tested_one_by_one_keep(clauses: list[str], seed: int) -> None:
    """The filter written with statements against each clause compiled alone as an expression (the compiler's
    own form, which tests nothing together), card by card, over random hands and tricks."""
    function, _ = filter_of(clauses, MIXED)
    program, parts = checked(DECK, clauses, MIXED, CONTEXT, GAME)
    names = [program.add(node, annotations) for node, annotations in parts]
    alone = program.build()
    for hand, trick, trump in deals(seed, 30):
        values = {"trick": trick, "trump": trump}
        expected = [card for card in hand
                    if all(alone[name](values, {"player": 0, "hand": hand, "card": card}) for name in names)]
        assert kept(function, hand, trick, trump) == expected, (clauses, hand, trick, trump)
