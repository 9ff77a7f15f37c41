"""Parameters of type `num`: exact fractions (`1/2`) given by a ruleset's default, `--set NAME=1/2` or Python,
checked against `min`/`max`, folded as constants, and written exactly in a log's header (docs/ruleset-format.md,
params)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter import ParameterError, load_ruleset
from interpreter.cli import cli, main
from interpreter.errors import RulesetError
from interpreter.parameters import ParamSpec, parse_assignments, resolve
from tests.play_helpers import game_from_text

ROOT = Path(__file__).resolve().parents[2]
HOLDEM = ROOT / "tests" / "games" / "texas_holdem.yaml"

SHARE = ParamSpec("share", "num", Fraction(1, 2), "A share of a bet.", 0, 1)
SPECS = {"share": SHARE, "rake": ParamSpec("rake", "num", None, "An optional rate.", Fraction(0), Fraction(1, 10))}

RULESET = """
format: 1
name: Shares
players: {min: 2, max: 2}
params:
  share: {type: num, default: 1/3, min: 0, max: 1, description: A share of the pot.}
  bonus: {type: num, default: 0.25, description: A decimal default.}
deck: {ranks: [2, 3], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
variables:
  - {name: score, type: num, per: seat, initial: 0, lasts: match}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - deal: 1
          from: stock
          to: hand
        - for_each: seats()
          do:
            - change: score
              by: params.share * 3 + params.bonus
      next: end
match:
  hands: 1
  result: score[player]
"""


def test_a_default_written_as_a_fraction_is_that_number_exactly() -> None:
    assert resolve(SPECS, {}, from_text=False) == {"share": Fraction(1, 2), "rake": None}


@pytest.mark.parametrize(("text", "value"), [("1/4", Fraction(1, 4)), ("0.05", Fraction(1, 20)), ("1", 1),
                                             ("2/2", 1), (" 3/10 ", Fraction(3, 10)), ("0", 0)])
def test_command_line_text_is_read_exactly(text: str, value: object) -> None:
    given = resolve(SPECS, parse_assignments([f"share={text}"]), from_text=True)["share"]
    assert given == value
    assert type(given) is type(value)  # a whole number is an int


def test_python_values_may_be_fractions_decimals_or_exact_texts() -> None:
    assert resolve(SPECS, {"share": Fraction(2, 3)}, from_text=False)["share"] == Fraction(2, 3)
    assert resolve(SPECS, {"share": 0.1}, from_text=False)["share"] == Fraction(1, 10)  # as written, not binary
    assert resolve(SPECS, {"share": "1/3"}, from_text=False)["share"] == Fraction(1, 3)  # as a log's header says
    assert resolve(SPECS, {"rake": "null"}, from_text=True)["rake"] is None


@pytest.mark.parametrize(("given", "message"), [
    ({"share": "3/2"}, "parameter share: 1.5 is out of range: allowed a number (a fraction such as 1/2 is "
                       "allowed) from 0 to 1"),
    ({"share": "-1/4"}, "parameter share: -0.25 is out of range: allowed a number (a fraction such as 1/2 is "
                        "allowed) from 0 to 1"),
    ({"share": "half"}, "parameter share: 'half' is not a number (a fraction such as 1/2 is allowed) from 0 to 1"),
    ({"share": "1/0"}, "parameter share: '1/0' is not a number (a fraction such as 1/2 is allowed) from 0 to 1"),
    ({"rake": "1/5"}, "parameter rake: 0.2 is out of range: allowed a number (a fraction such as 1/2 is allowed) "
                      "from 0 to 0.1, or null (unset)"),
    ({"share": "null"}, "parameter share: 'null' is not a number (a fraction such as 1/2 is allowed) from 0 to 1"),
])
def test_bad_values_are_refused_with_the_range(given: dict[str, str], message: str) -> None:
    with pytest.raises(ParameterError) as raised:
        resolve(SPECS, given, from_text=True)
    assert str(raised.value) == message


@pytest.mark.parametrize("text", ["1e5000", "1e10000000", "-1e-200", "1" * 70 + "/3"])
def test_a_number_too_large_or_too_long_is_refused_at_once(text: str) -> None:
    # (1e10000000 alone takes seconds to read; 1e5000 cannot even be printed whole)
    with pytest.raises(ParameterError, match=r"is not a number"):
        resolve(SPECS, {"share": text}, from_text=True)


def test_a_truth_value_is_not_a_number() -> None:
    with pytest.raises(ParameterError, match=r"^parameter share: true is not a number"):
        resolve(SPECS, {"share": True}, from_text=False)


def test_the_parameter_is_folded_as_an_exact_constant(tmp_path: Path) -> None:
    path = tmp_path / "shares.yaml"
    path.write_text(RULESET, encoding="utf-8")
    for params, expected in (({}, Fraction(5, 4)), ({"share": "1/2"}, Fraction(7, 4)), ({"bonus": 0}, 1)):
        game = load_ruleset(str(path), params)
        state = game.new_initial_state(seed=1, players=2)
        state.apply_chance()
        assert state.is_terminal
        assert state.returns() == [expected, expected]
    code = load_ruleset(str(path)).code.source
    assert "params" not in code  # folded: the value is written in the code, not looked up


def test_set_on_the_command_line_and_the_log_header_writes_the_fraction(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    result = CliRunner().invoke(cli, ["play", str(HOLDEM), "--players", "3", "--seed", "4", "--set", "hands=1",
                                      "--set", "reopen_share=3/4", "--bots", "random", "--log", str(log), "--json"])
    assert result.exit_code == 0, result.output
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["params"]["reopen_share"] == "0.75"
    with pytest.raises(SystemExit) as exited:
        main(["replay", str(log), "--verify"])
    assert exited.value.code in (0, None)


def test_set_refuses_a_fraction_out_of_range() -> None:
    result = CliRunner().invoke(cli, ["validate", str(HOLDEM), "--set", "reopen_share=5/4"])
    assert result.exit_code == 2
    assert "parameter reopen_share: 1.25 is out of range" in result.output


def test_a_declaration_with_a_bound_that_is_not_a_number_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as raised:
        game_from_text(tmp_path, RULESET.replace("min: 0, max: 1", "min: none, max: 1/2"))
    text = str(raised.value)
    assert "error[param-value]: min must be a number (a fraction such as 1/2 is allowed), not 'none'" in text
    with pytest.raises(RulesetError, match=r"the default of `share`: 1/3 is out of range"):
        game_from_text(tmp_path, RULESET.replace("min: 0, max: 1", "min: 0, max: 1/4"))
