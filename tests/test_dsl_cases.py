"""The expression language's cases, written as data in tests/dsl_cases/*.yaml.

A case file may set `deck` (a ruleset-style deck mapping; default the 52-card deck), `players` (default 4),
`teams` (a team count; default 2), `params` ({name: {type, value, default?, choices?}}), `define` ({key: expr}
as in a ruleset) and `bindings` ({name: {type, value}}) shared by its cases. Each case has `name`, `expr`,
optional `bindings`, and either `value` (the expected result, in text form: cards `AH`, ranks `K`, suits `H`)
or `error` ({code, message?}): a check-time error, or `evaluation error` when evaluation itself must fail.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from interpreter.cards import Deck, standard_deck
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program, evaluate
from interpreter.dsl.definitions import Definition, Parameter
from interpreter.dsl.parser import parse
from interpreter.dsl.types import Type, optional, parse_type, per_seat, per_team
from interpreter.errors import EvaluationError, ExpressionError
from interpreter.numbers import parse_number, plain_number

CASES = Path(__file__).parent / "dsl_cases"


def _type(text: str) -> Type:
    text = text.strip()
    for constructor, wrap in (("per_seat[", per_seat), ("per_team[", per_team)):
        if text.startswith(constructor):
            return wrap(_type(text[len(constructor):-1]))
    return parse_type(text)


def _deck(spec: dict[str, Any] | None) -> Deck:
    if not spec:
        return standard_deck()
    return Deck(tuple(str(r) for r in spec["ranks"]), tuple(spec["suits"]), spec.get("packs", 1),
                spec.get("jokers", 0), {k: tuple(str(r) for r in v) for k, v in spec.get("rankings", {}).items()},
                {str(k): v for k, v in spec.get("values", {}).items()})


def _value(deck: Deck, kind: Type, raw: Any) -> Any:
    """A runtime value from its text form."""
    if kind.name == "optional":
        return None if raw is None else _value(deck, kind.element, raw)
    if kind.name in ("list", "per_seat", "per_team"):
        return [_value(deck, kind.element, item) for item in raw]
    if kind.name == "card":
        return deck.parse_card(str(raw))
    if kind.name == "rank":
        index = deck.rank_index(str(raw))
        assert index is not None, f"no rank {raw}"
        return index
    if kind.name == "suit":
        index = deck.suit_index(str(raw))
        assert index is not None, f"no suit {raw}"
        return index
    if kind.name == "num":
        return parse_number(raw)
    return raw


def _load_cases() -> list[Any]:
    params = []
    for file in sorted(CASES.glob("*.yaml")):
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
        for case in data["cases"]:
            params.append(pytest.param(data, case, id=f"{file.stem}: {case['name']}"))
    return params


def _environment(data: dict[str, Any], case: dict[str, Any]) -> tuple[Environment, dict[str, Type], dict[str, Any]]:
    deck = _deck(data.get("deck"))
    parameters = {}
    for name, spec in (data.get("params") or {}).items():
        kind = parse_type(spec["type"])
        if spec.get("optional"):
            kind = optional(kind)
        parameters[name] = Parameter(kind, spec.get("value"), tuple(spec.get("choices", ())))
    definitions = {}
    for key, body in {**(data.get("define") or {}), **(case.get("define") or {})}.items():
        name, _, rest = key.partition("(")
        arguments = tuple(a.strip() for a in rest.rstrip(")").split(",") if a.strip())
        definitions[name] = Definition(name, arguments, parse(str(body)), str(body))
    bindings = {**(data.get("bindings") or {}), **(case.get("bindings") or {})}
    context = {name: _type(spec["type"]) for name, spec in bindings.items()}
    players = data.get("players", 4)
    team_count = data.get("teams", 2)
    values = {name: _value(deck, context[name], spec["value"]) for name, spec in bindings.items()}
    values.update(player_count=players, team_of=tuple(seat % team_count for seat in range(players)))
    environment = Environment(deck, {}, definitions, parameters, {"player": _type("seat"), "card": _type("card")})
    return environment, context, values


def _text(deck: Deck, kind: Type, value: Any) -> Any:
    """The text form of a runtime value, for comparison with the case's `value`."""
    if kind.name == "optional":
        return None if value is None else _text(deck, kind.element, value)
    if kind.name == "list":
        return [_text(deck, kind.element, item) for item in value]
    if kind.name == "card":
        return deck.card_text(value)
    if kind.name == "rank":
        return deck.rank_name(value)
    if kind.name == "suit":
        return deck.suit_name(value)
    if kind.name == "num":  # (a fraction as its exact text, `"3.5"`, `"1/3"`; a whole number as it is)
        return plain_number(value)
    return value


def _normalise(expected: Any) -> Any:
    if isinstance(expected, list):
        return [_normalise(item) for item in expected]
    if isinstance(expected, int) and not isinstance(expected, bool):
        return expected
    return expected


def _table(values: dict[str, Any]) -> dict[str, Any]:
    """The game's values (`V`): here only the table, which the seat builtins read, the seats sitting in number
    order as a match sits them (`_clockwise`, `_next`: see MatchLoop._set_seating); the bindings are `B`."""
    count = values["player_count"]
    clockwise = tuple(tuple((seat + offset) % count for offset in range(count)) for seat in range(count))
    return {"player_count": count, "team_of": values["team_of"], "_clockwise": clockwise,
            "_next": tuple(around[1 % count] for around in clockwise)}


@pytest.mark.parametrize(("data", "case"), _load_cases())
def test_dsl_case(data: dict[str, Any], case: dict[str, Any]) -> None:
    environment, context, values = _environment(data, case)
    expected_error = case.get("error")
    try:
        node = parse(str(case["expr"]))
        kind, annotations = environment.check(node, context)
    except ExpressionError as error:
        assert expected_error is not None, f"unexpected {error.code}: {error.message}"
        assert error.code == expected_error["code"], error.message
        if "message" in expected_error:
            assert error.message == expected_error["message"]
        return
    assert expected_error is None or expected_error.get("code") == "evaluation", \
        f"expected error {expected_error}, but it checked as {kind}"
    program = Program(environment)
    name = program.add(node, annotations)
    function = program.build()[name]
    if expected_error is not None:
        with pytest.raises(EvaluationError) as raised:
            evaluate(function, _table(values), dict(values))
        if "message" in expected_error:
            assert str(raised.value) == expected_error["message"]
        return
    result = evaluate(function, _table(values), dict(values))
    actual = _text(environment.deck, kind, result)
    expected = case["value"]
    if kind.name == "rank" or (kind.name == "list" and kind.element.name == "rank"):
        expected = [str(x) for x in expected] if isinstance(expected, list) else str(expected)
    assert actual == _normalise(expected), f"{case['expr']} gave {actual!r}"
    if "type" in case:
        assert str(kind) == case["type"]
