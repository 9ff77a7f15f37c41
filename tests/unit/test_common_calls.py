"""A call of a definition made twice with the same arguments in one expression (`if runs_of(cs, 4) > 0 then
4 * runs_of(cs, 4)`) is worked out once; a call inside a comprehension, whose arguments change from item to item,
is worked out for every item; and nothing is worked out that the expression does not reach."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.cards import standard_deck
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program, evaluate
from interpreter.dsl.definitions import Definition
from interpreter.dsl.parser import parse
from interpreter.dsl.types import parse_type

DECK = standard_deck()
DEFINITIONS = {
    # (the first is written in place of its calls; the second, too long for that, is called)
    "pairs_of(cs)": "count(true for s in subsets(cs, 2, 2) if s[0].rank == s[1].rank)",
    "singles(cs, n)": "size(subsets(cs, 1, 1)) + 0 * (" + " + ".join(str(k) for k in range(1, 21)) + " + n)",
}


def compiled(expression: str) -> tuple[Callable[..., Any], list[int]]:
    """The expression compiled over a list of cards `cs` (and `others`, a list of lists of cards), and the
    number of times `subsets` is called as it runs (one item: a count)."""
    definitions = {}
    for key, body in DEFINITIONS.items():
        name, _, rest = key.partition("(")
        definitions[name] = Definition(name, tuple(a.strip() for a in rest.rstrip(")").split(",")), parse(body), body)
    environment = Environment(DECK, {}, definitions, {}, {"player": parse_type("seat")})
    context = {"cs": parse_type("list[card]"), "others": parse_type("list[list[card]]")}
    node = parse(expression)
    _, annotations = environment.check(node, context)
    program = Program(environment)
    name = program.add(node, annotations)
    function = program.build()[name]
    calls = [0]

    def counting(made: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*arguments: Any) -> Any:
            calls[0] += 1
            return made(*arguments)
        return counted

    # (the subsets as a list, or as tuples made as a loop goes over them: either is a call of `subsets`)
    for name in ("B_subsets", "SUBSET_CHOICES"):
        program.namespace[name] = counting(program.namespace[name])
    return function, calls


def cards(*texts: str) -> list[int]:
    return [DECK.parse_card(text) for text in texts]


def run(function: Callable[..., Any], **bound: Any) -> Any:
    return evaluate(function, {"player_count": 4}, bound)


def test_a_call_made_twice_with_the_same_arguments_is_worked_out_once() -> None:
    function, calls = compiled("if pairs_of(cs) > 0 then 2 * pairs_of(cs) else 0")
    assert run(function, cs=cards("7H", "7S", "7D", "KC")) == 6  # three pairs of sevens
    assert calls[0] == 1


def test_a_call_of_a_definition_that_is_not_written_in_place_is_worked_out_once() -> None:
    function, calls = compiled("singles(cs, 3) + singles(cs, 3)")
    assert run(function, cs=cards("2H", "3S", "4D")) == 6
    assert calls[0] == 1


def test_a_call_inside_a_comprehension_is_worked_out_for_every_item() -> None:
    function, calls = compiled("[pairs_of(h) + pairs_of(h) for h in others]")
    hands = [cards("7H", "7S"), cards("7H", "8S"), cards("QH", "QS", "QD")]
    assert run(function, others=hands) == [2, 0, 6]
    assert calls[0] == 6  # (each item's two calls: the item changes the arguments)


def test_a_call_the_expression_does_not_reach_is_not_made() -> None:
    function, calls = compiled("if size(cs) == 0 then 0 else pairs_of(cs) + pairs_of(cs)")
    assert run(function, cs=[]) == 0
    assert calls[0] == 0
    assert run(function, cs=cards("7H", "7S")) == 2
    assert calls[0] == 1


def test_points_of_a_list_that_reads_nothing_of_the_item_is_worked_out_once_in_a_quantifier() -> None:
    # (`points` is summed in C where it is written, and kept for the items as a call would be: the list it sums,
    # made by a comprehension over `subsets`, is made once, not once per card)
    function, calls = compiled("count(points([s[0] for s in subsets(cs, 1, 1)]) >= value(c) for c in cs)")
    assert run(function, cs=cards("2H", "3S", "4D", "KC")) == 4  # (this deck gives no card points: 0 >= 0)
    assert calls[0] == 1
