"""`subsets` gone over by a quantifier or a comprehension: the compiled code makes each choice as a tuple as the
loop reaches it (no list of lists) where the loop only goes over, counts, indexes or looks in each choice, and a
list wherever the choice itself is kept, compared or joined. The values are those of `subsets` either way (the
cases in tests/dsl_cases/lists.yaml and definitions.yaml); these tests hold the two forms to the same choices, in
the same order, and check which form each kind of loop is written with."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter.cards import standard_deck
from interpreter.dsl.builtins import _subsets, subset_choices
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program
from interpreter.dsl.definitions import Definition
from interpreter.dsl.parser import parse
from interpreter.dsl.types import parse_type
from interpreter.errors import EvaluationError

DECK = standard_deck()
DEFINITIONS = {
    "flush(cs)": "all(x.suit == first(cs).suit for x in cs)",  # reads its parameter for its items only
    "same(cs)": "cs == [AH, KH]",  # compares it
    "matches(c)": "any(points(s) == value(c) for s in subsets(table, 1))",  # subsets of the game's values only
}


@given(st.lists(st.integers(0, 3), max_size=7), st.integers(-1, 8) | st.none(), st.integers(-1, 8) | st.none())
def test_the_choices_are_those_of_subsets_in_the_same_order(items: list[int], smallest: int | None,
                                                           largest: int | None) -> None:
    # (equal items included: each choice once, as `subsets` gives it)
    assert [list(choice) for choice in subset_choices(items, smallest, largest)] == _subsets(items, smallest, largest)


def test_too_many_choices_fail_before_any_is_made() -> None:
    with pytest.raises(EvaluationError, match="more than 100,000"):
        subset_choices(list(range(30)))


def source(expression: str) -> str:
    definitions = {}
    for key, body in DEFINITIONS.items():
        name, _, rest = key.partition("(")
        definitions[name] = Definition(name, tuple(a.strip() for a in rest.rstrip(")").split(",")), parse(body), body)
    game_values = {"table": parse_type("list[card]")}
    environment = Environment(DECK, game_values, definitions, {}, {"player": parse_type("seat")})
    node = parse(expression)
    _, annotations = environment.check(node, {"cs": parse_type("list[card]")})
    program = Program(environment)
    program.add(node, annotations)
    program.build()
    return program.source


@pytest.mark.parametrize("expression", [
    "count(points(s) == 15 for s in subsets(cs, 2))",  # summed
    "count(s[0].rank == s[1].rank for s in subsets(cs, 2, 2))",  # indexed
    "[s for s in subsets(cs, 2, 2) if AH in s]",  # looked in, and kept: a list made of each one kept
    "any(size(s) == 3 and flush(s) for s in subsets(cs))",  # given to a definition that goes over it
    "max(size(distinct([c.suit for c in s])) for s in subsets(cs, 1))",  # gone over by a comprehension
])
def test_a_loop_that_reads_each_choice_for_its_items_makes_tuples(expression: str) -> None:
    code = source(expression)
    assert "SUBSET_CHOICES(" in code and "B_subsets(" not in code


@pytest.mark.parametrize("expression", [
    "[s for s in subsets(cs, 2, 2) if s == [AH, KH]]",  # compared
    "[s + [AS] for s in subsets(cs, 1, 1)]",  # joined
    "[[s] for s in subsets(cs, 1, 1)]",  # put in a list
    "any(same(s) for s in subsets(cs, 2, 2))",  # given to a definition that compares it
    "size(subsets(cs, 2))",  # not gone over by a loop
    "highest(s in subsets(cs, 2, 2) by points(s))",  # the choice itself is the value
])
def test_a_loop_that_reads_the_choice_as_a_list_makes_lists(expression: str) -> None:
    code = source(expression)
    assert "B_subsets(" in code and "SUBSET_CHOICES(" not in code


def test_subsets_of_the_game_values_alone_in_a_definition_with_parameters_are_made_once() -> None:
    # (the same list for every card the definition is asked about: made once and kept for the evaluation, not
    # made again, one tuple at a time, at each call)
    code = source("count(matches(c) for c in cs)")
    assert "B_subsets(V['table'], 1)" in code and "SUBSET_CHOICES(" not in code
