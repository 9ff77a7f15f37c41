"""A quantifier over `seats()` that reads one per-seat variable at the seat (`count(not folded[p] for p in
seats())`, `any(status[p] == 'play' for p in seats())`, `max(score[p] for p in seats())`), itself or through a
definition of one parameter called with the seat (`count(live(p) for p in seats())`, `live(s): not folded[s]`),
is worked out over the variable's list in C (`_Emitter._over_seats`); any other is the loop. Both give the
answers of the rules as written, over random values of the seats."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from interpreter.cards import standard_deck
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program, evaluate
from interpreter.dsl.definitions import Definition
from interpreter.dsl.parser import parse
from interpreter.dsl.types import parse_type, per_seat
from interpreter.errors import EvaluationError

DEFINITIONS = {"live": ("s", "not folded[s]"), "playing": ("s", "status[s] == 'play'"),
               "rich": ("s", "chips[s] > 10"), "points": ("s", "chips[s]")}
VARIABLES = {"folded": "per_seat[bool]", "status": "per_seat[str]", "chips": "per_seat[int]",
             "share": "per_seat[num]", "wanted": "str"}

Values = dict[str, Any]


def compiled(expression: str) -> tuple[Any, str]:
    """The expression compiled over the variables above (with the definitions above), and the generated code."""
    definitions = {name: Definition(name, (parameter,), parse(body), body)
                   for name, (parameter, body) in DEFINITIONS.items()}
    variables = {name: per_seat(parse_type(text[9:-1])) if text.startswith("per_seat[") else parse_type(text)
                 for name, text in VARIABLES.items()}
    environment = Environment(standard_deck(), variables, definitions, {}, {"player": parse_type("seat")})
    node = parse(expression)
    _, annotations = environment.check(node)
    program = Program(environment)
    name = program.add(node, annotations)
    return program.build()[name], program.source


def random_values(rng: random.Random) -> Values:
    seats = rng.randint(2, 6)
    return {"player_count": seats, "team_of": tuple(seat % 2 for seat in range(seats)),
            "folded": [rng.random() < 0.5 for _ in range(seats)],
            "status": [rng.choice(["play", "pass", "out"]) for _ in range(seats)],
            "chips": [rng.choice([0, 0, 3, 11, 20]) for _ in range(seats)],
            "share": [rng.choice([0, 1, 2]) for _ in range(seats)],
            "wanted": rng.choice(["play", "pass"])}


def seats(values: Values) -> range:
    return range(values["player_count"])


# (expression, the answer in Python as the rules say it, whether it is worked out over the variable's list)
CASES: list[tuple[str, Callable[[Values], Any], bool]] = [
    ("count(folded[p] for p in seats())", lambda x: sum(x["folded"][p] for p in seats(x)), True),
    ("count(not folded[p] for p in seats())", lambda x: sum(not x["folded"][p] for p in seats(x)), True),
    ("any(folded[p] for p in seats())", lambda x: any(x["folded"][p] for p in seats(x)), True),
    ("all(folded[p] for p in seats())", lambda x: all(x["folded"][p] for p in seats(x)), True),
    ("any(not folded[p] for p in seats())", lambda x: any(not x["folded"][p] for p in seats(x)), True),
    ("all(not folded[p] for p in seats())", lambda x: all(not x["folded"][p] for p in seats(x)), True),
    ("count(status[p] == 'play' for p in seats())", lambda x: sum(x["status"][p] == "play" for p in seats(x)), True),
    ("count('play' == status[p] for p in seats())", lambda x: sum(x["status"][p] == "play" for p in seats(x)), True),
    ("count(status[p] != wanted for p in seats())",
     lambda x: sum(x["status"][p] != x["wanted"] for p in seats(x)), True),
    ("any(status[p] == wanted for p in seats())", lambda x: any(x["status"][p] == x["wanted"] for p in seats(x)),
     True),
    ("all(status[p] != 'out' for p in seats())", lambda x: all(x["status"][p] != "out" for p in seats(x)), True),
    ("any(chips[p] == 0 for p in seats())", lambda x: any(x["chips"][p] == 0 for p in seats(x)), True),
    ("sum(chips[p] for p in seats())", lambda x: sum(x["chips"][p] for p in seats(x)), True),
    ("max(chips[p] for p in seats())", lambda x: max(x["chips"][p] for p in seats(x)), True),
    ("min(share[p] for p in seats())", lambda x: min(x["share"][p] for p in seats(x)), True),
    # (through a definition of one parameter called with the seat)
    ("count(live(p) for p in seats())", lambda x: sum(not x["folded"][p] for p in seats(x)), True),
    ("any(playing(p) for p in seats())", lambda x: any(x["status"][p] == "play" for p in seats(x)), True),
    ("sum(points(p) for p in seats())", lambda x: sum(x["chips"][p] for p in seats(x)), True),
    # (anything else: the loop)
    ("count(rich(p) for p in seats())", lambda x: sum(x["chips"][p] > 10 for p in seats(x)), False),
    ("count(chips[p] > 10 for p in seats())", lambda x: sum(x["chips"][p] > 10 for p in seats(x)), False),
    ("count(status[p] == 'play' for p in seats() if p != 0)",
     lambda x: sum(x["status"][p] == "play" for p in seats(x) if p != 0), False),
    ("count(status[p] == status[0] for p in seats())",
     lambda x: sum(x["status"][p] == x["status"][0] for p in seats(x)), True),
    ("count(status[p] == status[next_seat(p)] for p in seats())",
     lambda x: sum(x["status"][p] == x["status"][(p + 1) % x["player_count"]] for p in seats(x)), False),
    ("count(folded[p] for p in seats_from(1))",
     lambda x: sum(x["folded"][p] for p in [*range(1, x["player_count"]), 0]), False),
]


@pytest.mark.parametrize(("expression", "expected", "over_the_list"), CASES, ids=[case[0] for case in CASES])
def test_the_answers_of_the_rules_over_random_seats(expression: str, expected: Callable[[Values], Any],
                                                    over_the_list: bool) -> None:
    function, source = compiled(expression)
    looped = "for v_p in" in source or "for v_s in" in source
    assert looped is not over_the_list, source
    rng = random.Random(expression)
    for _ in range(200):
        values = random_values(rng)
        assert evaluate(function, values, {}) == expected(values), values


def test_the_value_compared_with_fails_as_in_the_loop() -> None:
    function, source = compiled("count(status[p] == status[7] for p in seats())")
    assert ".count(" in source
    with pytest.raises(EvaluationError, match="index"):
        evaluate(function, random_values(random.Random(1)), {})
