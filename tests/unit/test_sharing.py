"""A call written more than once in one expression of generated code (`size(subsets(cs, 1, 2))` twice, a
definition written in place whose code repeats a builtin's call) is worked out once (interpreter/dsl/sharing.py);
within a quantifier, once per item; never where the expression does not reach it; and never where two places
hand the value on as it is. With and without the pass, every expression gives the same value and the same
failure, naming the same definition."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter.dsl.compiler as compiler
from interpreter.cards import standard_deck
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program, evaluate
from interpreter.dsl.definitions import Definition
from interpreter.dsl.parser import parse
from interpreter.dsl.types import parse_type
from interpreter.errors import EvaluationError

DECK = standard_deck()
DEFINITIONS = {
    # (small: written in place of their calls, their code repeated in the caller's)
    "pick(cs, n)": "subsets(cs, n, n)[0]",
    "top(cs, n)": "sort(cs)[n]",
    "pairs_of(cs)": "count(true for s in subsets(cs, 2, 2) if s[0].rank == s[1].rank)",
    "ranks(cs)": "sort([order(c.rank) for c in cs])",
    "is_run(cs)": "size(distinct(ranks(cs))) == size(cs) and last(ranks(cs)) - first(ranks(cs)) == size(cs) - 1",
    # (a poker hand's category, as tests/games/texas_holdem.yaml ranks it: loops over the hand's cards, each
    # counting the cards of a rank in the same hand, beside the caller's own list of the hand's ranks)
    "same(h, c)": "count(d.rank == c.rank for d in h)",
    "most(h)": "max(same(h, c) for c in h)",
    "paired(h)": "count(same(h, c) == 2 for c in h)",
    "kind(h)": "if most(h) == 4 then 7 else if most(h) == 3 and paired(h) == 2 then 6 else if size(distinct("
               "[c.rank for c in h])) == 5 and last(ranks(h)) - first(ranks(h)) == 4 then 4 else if most(h) == 3 "
               "then 3 else if paired(h) == 4 then 2 else if paired(h) == 2 then 1 else 0",
}
EXPRESSIONS = [
    "size(subsets(cs, 1, 2)) + size(subsets(cs, 1, 2))",
    "[top(cs, 1), top(cs, 1)]",
    "if pairs_of(cs) > 0 then 2 * pairs_of(cs) else size(subsets(cs, 1, 1)) - size(subsets(cs, 1, 1))",
    "count(is_run(s) for s in subsets(cs, 3, 3))",
    "count(size(subsets([c], 1, 1)) + size(subsets([c], 1, 1)) > 1 for c in cs)",
    "[subsets(cs, 1, 1), subsets(cs, 1, 1)]",
    "size(cs) > 4 and size(pick(cs, 5)) == size(pick(cs, 5)) or size(sort(cs)) == size(sort(cs))",
    "[size(pick(h, 3)) + size(pick(h, 3)) for h in subsets(cs, 2, 3)]",
    "last(ranks(cs)) - first(ranks(cs)) + last(ranks(cs))",
    "sum(size(subsets(s, 1, 1)) * size(subsets(s, 1, 1)) for s in subsets(cs, 1, 2))",
    "kind(cs) * 100 + size(sort(cs)) + size(sort(cs))",
]


def compiled(expression: str, sharing: bool = True) -> tuple[Callable[..., Any], list[int]]:
    """The expression compiled over a list of cards `cs`, with or without the pass, and the number of times
    `subsets` and `sort` are called as it runs (one item: a count)."""
    definitions = {}
    for key, body in DEFINITIONS.items():
        name, _, rest = key.partition("(")
        definitions[name] = Definition(name, tuple(a.strip() for a in rest.rstrip(")").split(",")), parse(body), body)
    environment = Environment(DECK, {}, definitions, {}, {"player": parse_type("seat")})
    node = parse(expression)
    _, annotations = environment.check(node, {"cs": parse_type("list[card]")})
    program = Program(environment)
    shared = compiler.share
    if not sharing:
        compiler.share = lambda source, inlined, holding_lists=frozenset(): (source, inlined)
    try:
        name = program.add(node, annotations)
        function = program.build()[name]
    finally:
        compiler.share = shared
    calls = [0]
    for builtin in ("B_subsets", "B_sort"):
        program.namespace[builtin] = _counted(program.namespace[builtin], calls)
    return function, calls


def _counted(builtin: Callable[..., Any], calls: list[int]) -> Callable[..., Any]:
    def counted(*arguments: Any) -> Any:
        calls[0] += 1
        return builtin(*arguments)

    return counted


def cards(*texts: str) -> list[int]:
    return [DECK.parse_card(text) for text in texts]


def outcome(function: Callable[..., Any], hand: list[int]) -> tuple[str, Any]:
    try:
        return "value", evaluate(function, {"player_count": 4}, {"cs": hand})
    except EvaluationError as failure:
        return "failure", str(failure)


def test_a_builtin_call_written_twice_is_made_once() -> None:
    function, calls = compiled(EXPRESSIONS[0])
    assert outcome(function, cards("7H", "7S", "KD")) == ("value", 12)  # 3 singles and 3 pairs, twice
    assert calls[0] == 1
    unshared, unshared_calls = compiled(EXPRESSIONS[0], sharing=False)
    assert outcome(unshared, cards("7H", "7S", "KD")) == ("value", 12)
    assert unshared_calls[0] == 2


def test_the_code_of_a_definition_written_in_place_twice_is_worked_out_once() -> None:
    function, calls = compiled(EXPRESSIONS[1])
    assert outcome(function, cards("KD", "7H", "2S")) == ("value", cards("7H", "7H"))  # (the second lowest, twice)
    assert calls[0] == 1


def test_in_a_quantifier_a_call_is_made_once_per_item() -> None:
    function, calls = compiled(EXPRESSIONS[4])
    assert outcome(function, cards("7H", "7S", "KD", "2C")) == ("value", 4)
    assert calls[0] == 4  # (the item changes the arguments: one call per item, not two)


def test_a_call_the_expression_does_not_reach_is_not_made() -> None:
    function, calls = compiled(EXPRESSIONS[6])
    assert outcome(function, cards("7H", "7S")) == ("value", True)
    assert calls[0] == 1  # (`size(cs) > 4` is false: no `subsets` of a pick, and one `sort` for two)


def test_a_list_handed_on_in_two_places_is_two_lists() -> None:
    function, calls = compiled(EXPRESSIONS[5])
    kind, value = outcome(function, cards("7H", "KD"))
    assert kind == "value" and value[0] == value[1]
    assert value[0] is not value[1]  # (changing one must not change the other)
    assert calls[0] == 2


@pytest.mark.parametrize("expression", [
    "[pick(cs, 2), pick(cs, 2)]",
    "[first(subsets(cs, 2, 2)), first(subsets(cs, 2, 2))]",
    "[highest(s in subsets(cs, 2, 2) by size(s)), lowest(s in subsets(cs, 2, 2) by size(s))]",
    "subsets(cs, 1, 1) + subsets(cs, 1, 1)",
    "[sort(subsets(cs, 1, 1)), reverse(subsets(cs, 1, 1))]",
])
def test_lists_inside_a_value_handed_on_from_two_places_are_not_shared(expression: str) -> None:
    # (an index, `first`, `highest` or `+` hands on the lists a list of lists holds: worked out once, both places
    # would hand on the same lists)
    function, _ = compiled(expression)
    kind, value = outcome(function, cards("7H", "7S", "KD"))
    assert kind == "value"
    lists = [item for item in value if isinstance(item, list)]
    inner = [part for item in lists for part in item if isinstance(part, list)] + lists
    assert len({id(part) for part in inner}) == len(inner)


def test_a_failure_in_a_shared_call_names_its_definition() -> None:
    function, calls = compiled(EXPRESSIONS[1])
    assert outcome(function, cards("7H")) == (
        "failure", "index 1 is past the end of a list of 1 item (0 to 0) (in definition `top`)")
    assert calls[0] == 1


# (a list handed on twice; calls inside a comprehension, whose arguments change from item to item)
NOT_SHARED = {EXPRESSIONS[5], EXPRESSIONS[7]}


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_each_expression_here_has_calls_the_pass_shares(expression: str) -> None:
    # (or the property below would compare code with itself)
    hand = cards("7H", "8H", "9H", "KD")
    shared, shared_calls = compiled(expression)
    unshared, unshared_calls = compiled(expression, sharing=False)
    assert outcome(shared, hand) == outcome(unshared, hand)
    if expression in NOT_SHARED:
        assert shared_calls[0] == unshared_calls[0]
    else:
        assert shared_calls[0] < unshared_calls[0]


HANDS = st.lists(st.sampled_from(list(DECK.cards())), max_size=6)


@settings(max_examples=60, deadline=None)
@given(expression=st.sampled_from(EXPRESSIONS), hand=HANDS)
def test_values_and_failures_are_the_same_with_and_without_the_pass(expression: str, hand: list[int]) -> None:
    shared, _ = compiled(expression)
    unshared, _ = compiled(expression, sharing=False)
    assert outcome(shared, hand) == outcome(unshared, hand)


def test_a_function_whose_value_is_an_or_of_repeated_calls_is_compiled() -> None:
    # (the pass walks up from each call through the `or` to the statement, and stops there)
    function, calls = compiled("beats(first(sort(cs)), last(cs)) or beats(first(sort(cs)), last(cs))")
    assert outcome(function, cards("7H", "8H")) == ("value", False)  # (the seven is first: it does not beat)
    assert calls[0] == 1


KINDS = {  # (five cards -> their category, as `kind` ranks them)
    ("7H", "7S", "7D", "7C", "2H"): 7, ("7H", "7S", "7D", "2C", "2H"): 6, ("3H", "4S", "5D", "6C", "7H"): 4,
    ("7H", "7S", "7D", "3C", "2H"): 3, ("7H", "7S", "3D", "3C", "2H"): 2, ("7H", "7S", "3D", "4C", "2H"): 1,
    ("7H", "9S", "3D", "4C", "2H"): 0,
}


def _ranks_listed(expression: str, hand: tuple[str, ...], sharing: bool) -> tuple[tuple[str, Any], int]:
    """The outcome of an expression over a hand, and how many cards' ranks its code read as it ran."""
    function, _ = compiled(expression, sharing=sharing)
    listed = [0]
    ranks = function.__globals__["RANK_OF"]

    def counted(card: int) -> Any:
        listed[0] += 1
        return ranks(card)

    function.__globals__["RANK_OF"] = counted
    return outcome(function, cards(*hand)), listed[0]


@pytest.mark.parametrize(("hand", "expected"), KINDS.items())
def test_a_hands_ranks_are_listed_once_for_its_loops_and_its_own_reads(hand: tuple[str, ...], expected: int) -> None:
    """`kind(h)` reads the hand's ranks itself (`distinct`, `ranks`) and counts them in three loops of their
    own (`most`, `paired` and the `same` inside them): the loops' functions are handed the caller's list of the
    ranks, which the caller shares with its own reads, where each loop listed them again."""
    assert _ranks_listed("kind(cs)", hand, sharing=True) == (("value", expected), 5)
    unshared, listed = _ranks_listed("kind(cs)", hand, sharing=False)
    assert unshared == ("value", expected) and listed >= 5


def test_without_the_pass_each_place_lists_the_ranks() -> None:
    # (a straight: `most`, `paired`, `distinct` and `ranks` each list the five ranks)
    assert _ranks_listed("kind(cs)", ("3H", "4S", "5D", "6C", "7H"), sharing=False) == (("value", 4), 20)


def test_a_loop_handed_the_ranks_of_no_cards_fails_as_before() -> None:
    # (`most` of no cards is the `max` of nothing: the failure, and none from the ranks listed for the loop)
    assert outcome(compiled("most(cs)")[0], []) == ("failure", outcome(compiled("most(cs)", sharing=False)[0], [])[1])
    assert outcome(compiled("paired(cs) + kind(cs)")[0], cards("7H")) == ("value", 0)
