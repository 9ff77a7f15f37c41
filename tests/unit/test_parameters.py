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


def test_a_parameter_given_twice_with_two_values_is_refused() -> None:
    with pytest.raises(ParameterError, match=r"--set hands is given twice \('1', then '2'\): give it once"):
        parse_assignments(["hands=1", "hands=2"])
    assert parse_assignments(["hands=1", "hands=1"]) == {"hands": "1"}


def test_a_malformed_assignment_is_refused() -> None:
    with pytest.raises(ParameterError, match="expected NAME=VALUE"):
        parse_assignments(["pot_limit"])


def test_parameters_reach_the_compiled_expressions() -> None:
    assert load_ruleset(TINY, {"hands": 7}).ruleset.parameter_values["hands"] == 7
    with pytest.raises(ParameterError, match="out of range"):
        load_ruleset(TINY, {"hands": 0})


BOURRE = Path(__file__).resolve().parents[2] / "rulesets" / "bourre.yaml"


def _pot_limit_variant(tmp_path: Path, declaration: str = "{default: 20}") -> Path:
    # The README's example of a variant: the base tests its optional `pot_limit` for null (BR-36).
    (tmp_path / "bourre.yaml").write_bytes(BOURRE.read_bytes())
    (tmp_path / "variants").mkdir()
    path = tmp_path / "variants" / "limit.yaml"
    path.write_text("format: 1\nextends: ../bourre.yaml\nname: Bourré with a pot limit\nparams:\n"
                    f"  pot_limit: {declaration}\n", encoding="utf-8")
    return path


def test_a_variant_that_gives_an_optional_parameter_a_default_keeps_it_optional(tmp_path: Path) -> None:
    from interpreter import validate_file

    path = _pot_limit_variant(tmp_path)
    assert validate_file(path) == []
    assert load_ruleset(path).ruleset.parameter_values["pot_limit"] == 20
    assert load_ruleset(path, {"pot_limit": None}).ruleset.parameter_values["pot_limit"] is None  # (still optional)
    assert resolve(load_ruleset(path).ruleset.parameters, {"pot_limit": "none"}, from_text=True)["pot_limit"] is None


def test_a_variant_that_says_optional_false_makes_the_base_test_an_error(tmp_path: Path) -> None:
    from interpreter import validate_file

    path = _pot_limit_variant(tmp_path, "{default: 20, optional: false}")
    (finding,) = validate_file(path)
    assert finding.message == "comparing int with null is always false"


def test_the_variants_default_plays_as_the_base_with_the_limit_set(tmp_path: Path) -> None:
    # BR-36 (the pot limit): the variant's default and the base with `--set pot_limit=20` play the same matches.
    path = _pot_limit_variant(tmp_path)
    kept = [load_ruleset(path).new_initial_state(seed=seed, players=5) for seed in range(3)]
    given = [load_ruleset(BOURRE, {"pot_limit": 20}).new_initial_state(seed=seed, players=5) for seed in range(3)]
    for one, other in zip(kept, given, strict=True):
        while not one.is_terminal:
            if one.current_player < 0:
                one.apply_chance()
                other.apply_chance()
                continue
            action = one.legal_actions()[-1]
            assert other.legal_actions()[-1] == action
            one.apply(action)
            other.apply(action)
        assert one.returns() == other.returns()


def test_a_parameter_declared_optional_with_a_default_may_be_unset() -> None:
    spec = ParamSpec("limit", "int", 5, "a limit", 1, declared_optional=True)
    assert spec.optional and resolve({"limit": spec}, {"limit": "none"}, from_text=True) == {"limit": None}
    assert resolve({"limit": spec}, {}, from_text=False) == {"limit": 5}


def test_optional_false_with_no_default_is_refused(tmp_path: Path) -> None:
    from interpreter import validate_file

    path = tmp_path / "r.yaml"
    path.write_text(TINY.read_text(encoding="utf-8").replace(
        "pot_limit: {type: int, default: null,", "pot_limit: {type: int, default: null, optional: false,"),
        encoding="utf-8")
    (finding,) = validate_file(path)
    assert (finding.code, finding.yaml_path) == ("param-value", "params.pot_limit.optional")
