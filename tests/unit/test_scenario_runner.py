"""The scenario runner (`ruledeck test`) reports a badly written case as a failure of that case, naming what is
wrong, and goes on with the others; a scenario file that is not YAML is located like a ruleset finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.runners.scenarios import ScenarioError, run_file

ROOT = Path(__file__).resolve().parents[2]
HEADER = f"ruleset: {ROOT / 'rulesets' / 'bourre.yaml'}\nplayers: 4\ncases:\n"
GOOD_CASE = "  - name: good\n    steps:\n      - expect: {phase: declare, dealer: p0}\n"


def _results(tmp_path: Path, cases: str) -> list[tuple[str, bool, str]]:
    path = tmp_path / "cases.yaml"
    path.write_text(HEADER + cases + GOOD_CASE, encoding="utf-8")
    return [(result.name, result.passed, result.message) for result in run_file(path)]


@pytest.mark.parametrize(("case", "message"), [
    ("start: {phase: declare, dealer: 'null'}",
     "expected a seat such as p2, not 'null' (for no value, write null without quotes"),
    ("steps: [{expect: {dealer: bob}}]", "expected a seat such as p2, not 'bob'"),
    ("steps: [{expect: {hand: first}}]", "hand must be a whole number, not 'first'"),
    ("steps: [{expect: {counts: {stock: many}}}]", "a count must be a whole number, not 'many'"),
    ("steps: [{expect: {variables: {trump: 'null'}}}]", "no suit 'null' (for no value, write null without quotes"),
    ("players: four", "players must be a whole number, not 'four'"),
])
def test_a_badly_written_case_fails_alone_saying_what_is_wrong(tmp_path: Path, case: str, message: str) -> None:
    results = _results(tmp_path, f"  - name: bad\n    {case}\n")
    assert results[0][:2] == ("bad", False) and message in results[0][2], results[0]
    assert results[1] == ("good", True, "")


def test_a_variable_without_a_value_is_written_null(tmp_path: Path) -> None:
    results = _results(tmp_path, "  - name: unset trump\n    start: {phase: declare, variables: {trump: null}}\n"
                                 "    steps: [{expect: {variables: {trump: null}}}]\n")
    assert results[0] == ("unset trump", True, "")


def test_a_scenario_file_that_is_not_yaml_is_located(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(HEADER + "  - name: [unclosed\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as raised:
        run_file(path)
    assert str(raised.value).startswith(f"{path}:4:11: error[yaml-syntax]: YAML syntax: this `[` is not closed")
    assert "^" in str(raised.value)
