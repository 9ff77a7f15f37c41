"""`first` of a list comprehension with a condition is worked out by a loop that stops at the first item that
meets it (dsl/compiler.py, `_first_of`): the same value as the first of the whole list, the same error when
there is none, and the items after it never looked at."""

from __future__ import annotations

import pytest

from interpreter.cards import standard_deck
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program, evaluate
from interpreter.dsl.parser import parse
from interpreter.dsl.types import INT, SEAT, per_seat
from interpreter.errors import EvaluationError


def _value(expression: str, chips: list[int]) -> object:
    environment = Environment(standard_deck(), {"dealer": SEAT, "chips": per_seat(INT)})
    node = parse(expression)
    _, annotations = environment.check(node)
    program = Program(environment)
    name = program.add(node, annotations)
    function = program.build()[name]
    return evaluate(function, {"dealer": 1, "player_count": len(chips), "team_of": (0, 1) * (len(chips) // 2),
                               "chips": chips}, {})


@pytest.mark.parametrize(("expression", "chips", "expected"), [
    ("first([p for p in seats() if chips[p] > 0])", [0, 0, 5, 7], 2),
    ("first([p for p in seats_from(next_seat(dealer)) if chips[p] > 0])", [3, 0, 0, 7], 3),
    ("first([chips[p] * 2 for p in seats() if chips[p] > 4])", [0, 0, 5, 7], 10),
    ("first([p for p in seats() if chips[p] > 0 and chips[p] < 7])", [9, 8, 5, 6], 2),
])
def test_the_first_item_that_meets_the_condition(expression: str, chips: list[int], expected: object) -> None:
    assert _value(expression, chips) == expected


def test_no_item_that_meets_the_condition_is_the_error_of_an_empty_list() -> None:
    with pytest.raises(EvaluationError, match=r"first\(\) of an empty list"):
        _value("first([p for p in seats() if chips[p] > 100])", [0, 0, 5, 7])


def test_the_items_after_the_first_that_meets_the_condition_are_not_looked_at() -> None:
    # (seat 1's condition divides by zero: the whole list fails there)
    assert _value("first([p for p in seats() if 10 / chips[p] > 0])", [5, 0, 0, 0]) == 0
    with pytest.raises(EvaluationError):
        _value("size([p for p in seats() if 10 / chips[p] > 0]) > 0", [5, 0, 0, 0])
