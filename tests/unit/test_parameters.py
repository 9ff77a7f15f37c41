"""Parameters: declared with type, default, range and choices; given through the API or --set text."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import ParameterError, load_ruleset
from interpreter.parameters import ParamSpec, parse_assignments, resolve

TINY = Path(__file__).resolve().parents[1] / "games" / "tiny.yaml"

SPECS = {
    "hands": ParamSpec("hands", "int", 10, "Hands in a match.", 1, 100),
    "pot_limit": ParamSpec("pot_limit", "int", None, "BR-36 pot limit.", 1),
    "cinch_adjacent": ParamSpec("cinch_adjacent", "str", "next", "BR-29 reading.", choices=("next", "run")),
    "must_overtrump": ParamSpec("must_overtrump", "bool", True, "BR-23 overtrump."),
}


def test_defaults_apply_when_nothing_is_given() -> None:
    assert resolve(SPECS, {}, from_text=False) == {"hands": 10, "pot_limit": None, "cinch_adjacent": "next",
                                                    "must_overtrump": True}


def test_command_line_text_is_converted_to_the_declared_type() -> None:
    given = parse_assignments(["pot_limit=20", "must_overtrump=false", "cinch_adjacent=run", "hands=3"])
    values = resolve(SPECS, given, from_text=True)
    assert values == {"hands": 3, "pot_limit": 20, "cinch_adjacent": "run", "must_overtrump": False}


def test_an_optional_parameter_can_be_unset_from_the_command_line() -> None:
    assert resolve(SPECS, {"pot_limit": "none"}, from_text=True)["pot_limit"] is None


@pytest.mark.parametrize(("given", "message"), [
    ({"hands": "0"}, "parameter hands: 0 is out of range: allowed an integer from 1 to 100"),
    ({"hands": "many"}, "parameter hands: 'many' is not an integer from 1 to 100"),
    ({"cinch_adjacent": "all"}, "parameter cinch_adjacent: 'all' is not allowed: one of next, run"),
    ({"must_overtrump": "maybe"}, "parameter must_overtrump: 'maybe' is not true or false"),
    ({"hand": "3"}, "unknown parameter 'hand' (did you mean 'hands'?); parameters: cinch_adjacent, hands, "
                    "must_overtrump, pot_limit"),
    ({"hands": "null"}, "parameter hands: 'null' is not an integer from 1 to 100"),
])
def test_bad_values_are_refused_with_what_is_allowed(given: dict[str, str], message: str) -> None:
    with pytest.raises(ParameterError) as raised:
        resolve(SPECS, given, from_text=True)
    assert str(raised.value) == message


def test_api_values_are_checked_without_conversion() -> None:
    with pytest.raises(ParameterError, match=r"^parameter hands: '3' is not an integer from 1 to 100$"):
        resolve(SPECS, {"hands": "3"}, from_text=False)
    with pytest.raises(ParameterError, match=r"^parameter must_overtrump: 1 is not true or false$"):
        resolve(SPECS, {"must_overtrump": 1}, from_text=False)


def test_a_malformed_assignment_is_refused() -> None:
    with pytest.raises(ParameterError, match="expected NAME=VALUE"):
        parse_assignments(["pot_limit"])


def test_parameters_reach_the_compiled_expressions() -> None:
    assert load_ruleset(TINY, {"hands": 7}).ruleset.parameter_values["hands"] == 7
    with pytest.raises(ParameterError, match="out of range"):
        load_ruleset(TINY, {"hands": 0})
