"""A filter (every clause of a card's `legal:` tested over all the cards at once, `Program.add_filter`) tests its
conditions in turn: each narrows the cards left by those before; a condition's tests joined by `or` that read
nothing of the card are worked out once, before any card, and when one holds the condition is not tested at all;
a card field compared with one value is kept in C. Over random hands and tables, the cards kept are those the
clauses as written keep, in the hand's order (the follow-suit, trumping and heading rules of trick games, BR-21 to
BR-24, are of this shape)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from interpreter.cards import standard_deck
from interpreter.dsl.compiler import Program
from interpreter.engine.melds import Meld
from tests.expression_helpers import checked

DECK = standard_deck()
CONTEXT = {"card": "card", "hand": "list[card]", "trick": "list[card]", "trump": "suit", "leading": "bool",
           "r": "rank", "n": "int"}


def filter_of(clauses: list[str], definitions: dict[str, str] | None = None) -> tuple[Any, str]:
    """The filter of the clauses over `card`, with the names of CONTEXT bound and the definitions given
    (`"follows(c)": "c.suit == led"`); and the generated code."""
    program, parts = _checked(clauses, definitions, CONTEXT)
    name = program.add_filter(parts, "card")
    return program.build()[name], program.source


def _checked(clauses: list[str], definitions: dict[str, str] | None,
             context: dict[str, str]) -> tuple[Program, list[tuple[Any, Any]]]:
    """A program for the definitions given, and the clauses checked with the names of `context` bound."""
    return checked(DECK, clauses, definitions, context)


def suit(card: int) -> int:
    return DECK.suit_of[card]


def rank(card: int) -> int:
    return DECK.rank_of[card]


# (the clauses, the rule in Python: whether a card is kept, given the bound names)
Rule = Callable[[int, dict[str, Any]], bool]
CASES: list[tuple[list[str], Rule]] = [
    (["leading or not any(c.suit == first(trick).suit for c in hand) or card.suit == first(trick).suit",
      "leading or any(c.suit == first(trick).suit for c in hand) or not any(c.suit == trump for c in hand) "
      "or card.suit == trump"],
     lambda card, b: (b["leading"] or not any(suit(c) == suit(b["trick"][0]) for c in b["hand"])
                      or suit(card) == suit(b["trick"][0]))
     and (b["leading"] or any(suit(c) == suit(b["trick"][0]) for c in b["hand"])
          or not any(suit(c) == b["trump"] for c in b["hand"]) or suit(card) == b["trump"])),
    (["card.rank > r or leading", "card.suit != trump"],
     lambda card, b: (rank(card) > b["r"] or b["leading"]) and suit(card) != b["trump"]),
    (["card.suit == trump or size(trick) > n", "leading or card.rank >= r"],
     lambda card, b: (suit(card) == b["trump"] or len(b["trick"]) > b["n"]) and (b["leading"] or rank(card) >= b["r"])),
    (["size(hand) > n", "card.rank != r", "card.rank < r or card.suit == trump"],
     lambda card, b: len(b["hand"]) > b["n"] and rank(card) != b["r"]
     and (rank(card) < b["r"] or suit(card) == b["trump"])),
    (["not leading or card.rank == r or card.suit == trump"],
     lambda card, b: not b["leading"] or rank(card) == b["r"] or suit(card) == b["trump"]),
    (["leading", "false or card.suit == trump"], lambda card, b: b["leading"] and suit(card) == b["trump"]),
]


@pytest.mark.parametrize(("clauses", "rule"), CASES, ids=[" / ".join(case[0])[:60] for case in CASES])
def test_the_cards_kept_are_those_the_clauses_keep(clauses: list[str], rule: Rule) -> None:
    function, _ = filter_of(clauses)
    chooser = random.Random(" ".join(clauses))
    cards = list(DECK.distinct_cards())
    for _ in range(400):
        dealt = chooser.sample(cards, chooser.randrange(0, 12))
        hand, trick = dealt[: len(dealt) * 2 // 3], dealt[len(dealt) * 2 // 3:]
        leading = not trick or chooser.random() < 0.2
        bound = {"hand": hand, "trick": trick, "trump": chooser.randrange(4), "leading": leading,
                 "r": chooser.randrange(13), "n": chooser.randrange(5)}
        kept = function({}, {**bound, "player": 0}, hand)
        assert kept == [card for card in hand if rule(card, bound)]
        assert kept is not hand  # (a list of its own: the caller's zone is never handed back)


def test_a_test_reading_no_card_that_holds_leaves_its_condition_untested() -> None:
    """`leading or card.suit == first(trick).suit` on an empty trick: `first(trick)` would fail, and is not
    worked out, as it would not be clause by clause (BR-21: the leader may play any card)."""
    function, _ = filter_of(["leading or card.suit == first(trick).suit"])
    hand = [DECK.parse_card(text) for text in ("AS", "KH", "2D")]
    assert function({}, {"hand": hand, "trick": [], "leading": True, "player": 0}, hand) == hand


def test_what_reads_no_card_is_worked_out_before_the_cards_and_the_field_test_is_made_in_c() -> None:
    _, source = filter_of(["leading or not any(c.suit == first(trick).suit for c in hand) "
                           "or card.suit == first(trick).suit"])
    body = source[source.index("def x_0"):]
    assert "filter(IS_SUIT.get(" in body  # the cards of the led suit, in C
    assert "for item in items" not in body  # no loop over the cards of its own
    assert body.index("if not (") < body.index("items = list(filter(")


def test_a_condition_that_reads_the_card_keeps_the_loop() -> None:
    function, source = filter_of(["card.rank > r or card.suit == trump"])
    body = source[source.index("def x_0"):]
    assert "for item in items" in body
    hand = [DECK.parse_card(text) for text in ("AS", "3H", "2D", "4C")]
    bound = {"hand": hand, "trump": suit(DECK.parse_card("2D")), "r": rank(DECK.parse_card("3H")), "player": 0}
    kept = function({}, bound, hand)
    assert [DECK.card_text(card) for card in kept] == ["AS", "2D", "4C"]  # (3H: rank 3 is not above 3)


FOLLOWING = {"led": "first(trick).suit", "follows(c)": "c.suit == led"}


def test_a_definition_comparing_its_card_s_suit_is_made_in_c_and_keeps_the_cards_the_clause_keeps() -> None:
    """`follows(card)` with `follows(c): c.suit == led` (the follow-suit rule as trick games write it, BR-21):
    the cards of the led suit, taken in C as for `card.suit == led` written out."""
    clause = "leading or follows(card) or not any(follows(c) for c in hand)"
    function, source = filter_of([clause], FOLLOWING)
    body = source[source.index("def x_"):]
    assert "IS_SUIT.get(" in body and "for item in items" not in body
    chooser = random.Random(clause)
    cards = list(DECK.distinct_cards())
    for _ in range(400):
        dealt = chooser.sample(cards, chooser.randrange(1, 12))
        hand, trick = dealt[: len(dealt) * 2 // 3], dealt[len(dealt) * 2 // 3:]
        leading = not trick
        bound = {"hand": hand, "trick": trick, "leading": leading, "player": 0}
        led = suit(trick[0]) if trick else None
        expected = [card for card in hand if leading or suit(card) == led or not any(suit(c) == led for c in hand)]
        assert function({}, bound, hand) == expected


def test_a_definition_whose_value_reads_the_card_keeps_the_loop() -> None:
    """`same_suit(card)` with `same_suit(c): c.suit == card.suit` compares with a value read from the card
    itself: tested card by card (every card is kept)."""
    function, source = filter_of(["same_suit(card)"], {"same_suit(c)": "c.suit == card.suit"})
    body = source[source.index("def x_"):]
    assert "for item in items" in body
    hand = [DECK.parse_card(text) for text in ("AS", "3H", "2D")]
    assert function({}, {"hand": hand, "trick": [], "player": 0}, hand) == hand


def filter_binding(clauses: list[str], binding: str, definitions: dict[str, str] | None = None) -> tuple[Any, str]:
    """The filter of the clauses over items bound by `binding` (`B['group'] = list(item[0])`), with `group` a list
    of cards, `m` a meld and the names of CONTEXT bound; and the generated code."""
    program, parts = _checked(clauses, definitions, {**CONTEXT, "group": "list[card]", "m": "meld"})
    name = program.add_filter(parts, "group", binding)
    return program.build()[name], program.source


GROUP_BINDING = "B['group'] = list(item[0])"
CARDS = [DECK.parse_card(text) for text in ("AS", "KH", "2D", "7C", "7S")]


def groups_kept(function: Any, rng: random.Random, bound: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """Random groups (tuples, as a choice's or a meld's cards are held) with what the filter keeps of them."""
    items = [(tuple(rng.sample(CARDS, rng.randint(0, 4))),) for _ in range(40)]
    return items, function({}, {"player": 0, **bound}, list(items))


@pytest.mark.parametrize("seed", range(5))
def test_a_group_only_counted_is_bound_as_it_is_held_and_kept_as_the_clause_keeps(seed: int) -> None:
    # (a meld's clause `size(hand) - size(cards) >= 2`: no list is made of each candidate's cards to count them)
    # (read only where the clause is written: a local of the filter, not bound in `B`)
    function, source = filter_binding(["size(group) >= n"], GROUP_BINDING)
    assert "i_group = item[0]\n" in source and "list(item[0])" not in source and "B['group']" not in source
    items, kept = groups_kept(function, random.Random(seed), {"n": 2})
    assert kept == [item for item in items if len(item[0]) >= 2]


@pytest.mark.parametrize(("clause", "rule"), [
    ("size(group) >= 1 and first(group).rank > r", lambda group, r: len(group) >= 1 and rank(group[0]) > r),
    ("group == [AS, KH] or size(group) == 0", lambda group, r: list(group) == CARDS[:2] or not group),
    ("size(group + [2D]) > 2", lambda group, r: len(group) + 1 > 2),
    ("big(group)", lambda group, r: len(group) >= 2),
])
def test_a_group_read_otherwise_than_counted_is_bound_as_a_list(clause: str, rule: Callable[..., bool]) -> None:
    # (compared with a list, joined to one, or handed to a definition: a tuple would not do)
    function, source = filter_binding([clause], GROUP_BINDING, {"big(g)": "size(g) >= 2"})
    # (a local of the filter, handed to a definition too: the definition has it as its parameter, not in `B`)
    assert "i_group = list(item[0])" in source and "B['group']" not in source
    rng = random.Random(clause)
    for _ in range(5):
        r = rng.randrange(13)
        items, kept = groups_kept(function, rng, {"r": r})
        assert kept == [item for item in items if rule(item[0], r)]
    if clause.startswith("group =="):  # (the group the comparison names, held as a tuple: kept)
        assert function({}, {"player": 0, "r": 0}, [((CARDS[0], CARDS[1]),)]) == [((CARDS[0], CARDS[1]),)]


def test_a_melds_cards_counted_are_its_own_not_a_list_made_of_them() -> None:
    # (`size(after.cards) >= 7`, a burraco: the meld's tuple counted in place)
    function, source = filter_binding(["size(m.cards) >= n or size(group) == 0"], GROUP_BINDING)
    assert "B_size(B['m'].cards)" in source and "list(B['m'].cards)" not in source
    meld = Meld.of(0, "set", "set", 0, tuple(CARDS[3:5]), (False, False), rank=5)
    items = [((),), ((CARDS[0],),)]
    assert function({}, {"player": 0, "m": meld, "n": 2}, items) == items
    assert function({}, {"player": 0, "m": meld, "n": 3}, items) == items[:1]
