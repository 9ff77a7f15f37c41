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
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program
from interpreter.dsl.definitions import Definition
from interpreter.dsl.parser import parse
from interpreter.dsl.types import parse_type

DECK = standard_deck()
CONTEXT = {"card": "card", "hand": "list[card]", "trick": "list[card]", "trump": "suit", "leading": "bool",
           "r": "rank", "n": "int"}


def filter_of(clauses: list[str], definitions: dict[str, str] | None = None) -> tuple[Any, str]:
    """The filter of the clauses over `card`, with the names of CONTEXT bound and the definitions given
    (`"follows(c)": "c.suit == led"`); and the generated code."""
    defined = {}
    for key, body in (definitions or {}).items():
        name, _, rest = key.partition("(")
        parameters = tuple(part.strip() for part in rest.rstrip(")").split(",")) if rest else ()
        defined[name] = Definition(name, parameters, parse(body), body)
    environment = Environment(DECK, {}, defined, {}, {"player": parse_type("seat")})
    context = {name: parse_type(kind) for name, kind in CONTEXT.items()}
    parts = []
    for clause in clauses:
        node = parse(clause)
        _, annotations = environment.check(node, context)
        parts.append((node, annotations))
    program = Program(environment)
    name = program.add_filter(parts, "card")
    return program.build()[name], program.source


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
    assert "__contains__, items))" in body  # the cards of the led suit, in C
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
    assert "CARDS_OF_SUIT.get(" in body and "for item in items" not in body
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
