"""An expression worked out for every seat (a match's result at each hand's end, a per-seat variable's initial
value: `State.per_seat`) is one call making the whole list when the expression reads no bound name but `player`
(`seat_list`, written from the expression's own code), the same list the expression gives seat by seat; any
other expression is evaluated seat by seat, and a failure is named and located as before."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from interpreter.cards import standard_deck
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program, evaluate, seat_list
from interpreter.dsl.definitions import Definition
from interpreter.dsl.parser import parse
from interpreter.dsl.types import parse_type, per_seat
from interpreter.engine.errors import RulesetRuntimeError
from tests.play_helpers import game_from_text

VARIABLES = {"chips": "per_seat[int]", "share": "per_seat[num]", "folded": "per_seat[bool]", "pot": "int"}
DEFINITIONS = {"stack": ("s", "chips[s] + pot")}


def compiled(expression: str) -> Any:
    variables = {name: per_seat(parse_type(text[9:-1])) if text.startswith("per_seat[") else parse_type(text)
                 for name, text in VARIABLES.items()}
    definitions = {name: Definition(name, (parameter,), parse(body), body)
                   for name, (parameter, body) in DEFINITIONS.items()}
    environment = Environment(standard_deck(), variables, definitions)
    node = parse(expression)
    _, annotations = environment.check(node, {"player": parse_type("seat"), "other": parse_type("seat")})
    program = Program(environment)
    name = program.add(node, annotations)
    return program.build()[name]


def random_values(rng: random.Random) -> dict[str, Any]:
    seats = rng.randint(2, 6)
    return {"player_count": seats, "team_of": tuple(seat % 2 for seat in range(seats)),
            "chips": [rng.randint(-5, 30) for _ in range(seats)], "share": [rng.randint(0, 4) for _ in range(seats)],
            "folded": [rng.random() < 0.5 for _ in range(seats)], "pot": rng.randint(0, 9)}


@pytest.mark.parametrize("expression", [
    "chips[player] - 0",
    "chips[player] * 2 + pot",
    "if folded[player] then 0 else chips[player]",
    "share[player] / 3",  # (a fraction where it does not divide)
    "[c for c in [1, 2, 3] if c < chips[player]]",
    "pot",
])
def test_the_list_is_the_value_of_each_seat_in_turn(expression: str) -> None:
    function = compiled(expression)
    listed = seat_list(function)
    assert listed is not None
    rng = random.Random(expression)
    for _ in range(100):
        values = random_values(rng)
        seats = range(values["player_count"])
        assert listed(values, seats) == [evaluate(function, values, {"player": seat}) for seat in seats]


@pytest.mark.parametrize("expression", ["chips[other]", "chips[player] + chips[other]"])
def test_an_expression_reading_another_bound_name_has_no_list(expression: str) -> None:
    assert seat_list(compiled(expression)) is None


RULESET = """
format: 1
name: Results per seat
players: {min: 2, max: 4, default: 3}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H, D, C]}
zones:
  - {name: stock}
variables:
  - {name: chips, type: int, per: seat, initial: 10, lasts: match}
  - {name: divisor, type: int, initial: 2, lasts: match}
hand:
  start: bet
  phases:
    - name: bet
      steps:
        - shuffle: stock
        - for_each: seats()
          do:
            - change: chips[player]
              by: RESULT_CHANGE
      next: end
match:
  hands: 1
  result: RESULT
"""


def game(tmp_path: Path, result: str, change: str = "seat_position(player, 0)") -> Any:
    return game_from_text(tmp_path, RULESET.replace("RESULT_CHANGE", change).replace("RESULT", result))


def test_a_matchs_results_are_each_seats(tmp_path: Path) -> None:
    state = game(tmp_path, "chips[player] * 10 / divisor").new_initial_state(seed=1)
    while not state.is_terminal:
        state.apply_chance()
    assert state.returns() == [50, 55, 60]  # (chips 10, 11 and 12 after the hand, times ten, halved)
    assert state.hand_results[-1]["result"] == [50, 55, 60]


def test_a_result_that_fails_for_one_seat_is_located(tmp_path: Path) -> None:
    state = game(tmp_path, "chips[player] / (chips[player] - 11)").new_initial_state(seed=1)  # (seat 1 has 11)
    with pytest.raises(RulesetRuntimeError) as failure:
        while not state.is_terminal:
            state.apply_chance()
    assert "division by zero" in str(failure.value)
    assert failure.value.where == "match.result"
