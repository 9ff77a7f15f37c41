"""A small parameterless definition read outside a quantifier, a comprehension and a definition with parameters
is written as its body where its value is worked out (`_Emitter._inline_memoised`), not called: it is worked out
once and kept in the bindings as before, its value is the definition's, and a failure inside it still names the
definition."""

from __future__ import annotations

import re
from typing import Any

import pytest

from interpreter.cards import standard_deck
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program, evaluate
from interpreter.dsl.definitions import Definition
from interpreter.dsl.parser import parse
from interpreter.dsl.types import INT, parse_type, per_seat
from interpreter.errors import EvaluationError

DEFINITIONS = {"leading": "size(trick) == 0", "top": "max(chips[p] for p in seats())",
               "share": "pot // stakes", "large": " + ".join(f"chips[{seat % 4}]" for seat in range(60))}


def compiled(expression: str) -> tuple[Any, str]:
    definitions = {name: Definition(name, (), parse(body), body) for name, body in DEFINITIONS.items()}
    environment = Environment(standard_deck(), {"trick": parse_type("list[card]"), "chips": per_seat(INT), "pot": INT,
                                                "stakes": INT}, definitions)
    node = parse(expression)
    _, annotations = environment.check(node)
    program = Program(environment)
    name = program.add(node, annotations)
    functions = program.build()
    function = functions[name]
    return function, program.source.split(f"def {name}(", 1)[1].split("\ndef ", 1)[0]


VALUES = {"player_count": 4, "team_of": (0, 1, 0, 1), "trick": [], "chips": [3, 9, 4, 1], "pot": 12, "stakes": 0}


def test_the_body_is_written_in_place_and_its_value_kept_in_the_bindings() -> None:
    function, body = compiled("if leading then top else 0")
    assert not re.search(r"\bd_(leading|top)_\d+\(V, B\)", body), body  # (no call of either definition)
    bound: dict[str, Any] = {}
    assert evaluate(function, VALUES, bound) == 9
    assert {key.rsplit("_", 1)[0] for key in bound} == {"d_leading", "d_top"}  # kept, as a call would keep them
    bound = {}
    assert evaluate(function, {**VALUES, "trick": [5]}, bound) == 0
    assert {key.rsplit("_", 1)[0] for key in bound} == {"d_leading"}  # `top` never reached: never worked out


def test_a_value_kept_in_the_bindings_is_not_worked_out_again() -> None:
    function, _ = compiled("if leading then top else 0")
    kept = next(key for key in _keys(function) if key.startswith("d_top"))
    assert evaluate(function, VALUES, {kept: 42}) == 42


def _keys(function: Any) -> list[str]:
    bound: dict[str, Any] = {}
    evaluate(function, VALUES, bound)
    return list(bound)


def test_a_larger_definition_is_called() -> None:
    _, body = compiled("large > 0")
    assert re.search(r"\bd_large_\d+\(V, B\)", body), body


def test_a_failure_in_the_body_names_the_definition() -> None:
    function, body = compiled("share + 1")
    assert not re.search(r"\bd_share_\d+\(V, B\)", body), body
    with pytest.raises(EvaluationError, match=r"division by zero \(in definition `share`\)"):
        evaluate(function, VALUES, {})
