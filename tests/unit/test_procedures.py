"""Procedures: named lists of steps, spliced in place of `- call: name` steps before the ruleset is checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import RulesetError, load_ruleset, validate_file

HEAD = """
format: 1
name: procedures
players: {min: 2, max: 4}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H, D, C]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
variables:
  - {name: dealt, type: int, initial: 0}
match:
  hands: 1
  result: dealt
"""


def ruleset(tmp_path: Path, procedures: str, steps: str) -> Path:
    path = tmp_path / "r.yaml"
    path.write_text(HEAD + "procedures:\n" + procedures + "\nhand:\n  start: a\n  phases:\n    - name: a\n"
                    "      steps:\n" + steps + "      next: end\n", encoding="utf-8")
    return path


DEAL = ("  deal_two:\n    - {deal: 2, from: stock, to: hand}\n    - call: count\n"
        "  count:\n    - {change: dealt, by: 2}\n")


def test_a_call_runs_the_procedures_steps_in_place_each_time(tmp_path: Path) -> None:
    path = ruleset(tmp_path, DEAL, "        - shuffle: stock\n        - call: deal_two\n        - call: deal_two\n")
    state = load_ruleset(path).new_initial_state(seed=1, players=3)
    state.apply_chance()
    assert state.is_terminal and state.returns() == [4, 4, 4]


def test_an_unknown_procedure_is_named_with_a_suggestion(tmp_path: Path) -> None:
    path = ruleset(tmp_path, DEAL, "        - call: deal_tw\n")
    codes = {(d.code, d.message, d.hint) for d in validate_file(path)}
    assert ("unknown-procedure", "unknown procedure `deal_tw`", "did you mean `deal_two`?") in codes


def test_a_procedure_may_not_call_itself(tmp_path: Path) -> None:
    looping = "  a:\n    - call: b\n  b:\n    - call: a\n"
    path = ruleset(tmp_path, looping, "        - call: a\n")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(path)
    assert any(d.code == "recursion" and "a -> b -> a" in d.message for d in raised.value.diagnostics)


def test_a_procedure_never_called_is_a_warning(tmp_path: Path) -> None:
    path = ruleset(tmp_path, DEAL, "        - call: count\n")
    findings = validate_file(path)
    assert [(d.code, d.severity) for d in findings] == [("unused-procedure", "warning")]
    assert "deal_two" in findings[0].message


def test_an_error_inside_a_procedure_points_at_the_procedure(tmp_path: Path) -> None:
    broken = "  bad:\n    - {change: dealt, by: dealtt}\n"
    path = ruleset(tmp_path, broken, "        - call: bad\n")
    (finding,) = [d for d in validate_file(path) if d.severity == "error"]
    assert finding.code == "unknown-name" and finding.location is not None
    assert finding.location.line == path.read_text().splitlines().index("    - {change: dealt, by: dealtt}") + 1
    assert finding.yaml_path == "procedures.bad[0].by"  # where it is written, not where it is spliced


def test_a_finding_in_a_procedure_called_by_a_procedure_names_the_innermost(tmp_path: Path) -> None:
    nested = "  outer:\n    - call: inner\n  inner:\n    - {deal: 1, from: stock, to: hand}\n" \
             "    - {change: dealt, by: dealtt}\n"
    path = ruleset(tmp_path, nested, "        - {deal: 1, from: stock, to: hand}\n        - call: outer\n")
    (finding,) = [d for d in validate_file(path) if d.severity == "error"]
    assert finding.yaml_path == "procedures.inner[1].by"
    assert "(at procedures.inner[1].by)" in finding.render()


def test_a_runtime_failure_in_a_procedure_names_where_it_is_written(tmp_path: Path) -> None:
    from interpreter.engine.errors import RulesetRuntimeError

    failing = "  bad:\n    - {change: dealt, by: 1 // (dealt - dealt)}\n"
    path = ruleset(tmp_path, failing, "        - {change: dealt, by: 1}\n        - call: bad\n")
    with pytest.raises(RulesetRuntimeError) as raised:
        load_ruleset(path).new_initial_state(seed=1, players=2)
    assert str(raised.value) == "division by zero (at procedures.bad[0].by)"
    assert raised.value.location is not None
    assert raised.value.location.line == path.read_text().splitlines().index(
        "    - {change: dealt, by: 1 // (dealt - dealt)}") + 1


def test_a_finding_in_a_procedure_called_twice_is_reported_once(tmp_path: Path) -> None:
    broken = "  bad:\n    - {change: dealt, by: dealtt}\n"
    path = ruleset(tmp_path, broken, "        - call: bad\n        - call: bad\n")
    findings = [d for d in validate_file(path) if d.severity == "error"]
    assert [d.yaml_path for d in findings] == ["procedures.bad[0].by"]


def test_a_step_after_a_call_is_named_where_it_is_written(tmp_path: Path) -> None:
    three = "  three:\n    - {change: dealt, by: 1}\n    - {change: dealt, by: 2}\n    - {change: dealt, by: 3}\n"
    path = ruleset(tmp_path, three, "        - call: three\n        - {change: dealt, by: dealtt}\n")
    (finding,) = [d for d in validate_file(path) if d.severity == "error"]
    assert finding.yaml_path == "hand.phases[0].steps[1].by"  # spliced, it is the fourth step


def _line_of(path: Path, text: str) -> int:
    return path.read_text().splitlines().index(text) + 1


def test_a_finding_in_a_procedure_names_the_call_that_brought_it(tmp_path: Path) -> None:
    broken = "  bad:\n    - {change: dealt, by: dealtt}\n"
    path = ruleset(tmp_path, broken, "        - {deal: 1, from: stock, to: hand}\n        - call: bad\n")
    (finding,) = [d for d in validate_file(path) if d.severity == "error"]
    line = _line_of(path, "        - call: bad")
    assert finding.notes == (f"in procedure `bad`, called at hand.phases[0].steps[1] ({path}:{line}:17)",)
    assert f"  note: in procedure `bad`, called at hand.phases[0].steps[1] ({path}:{line}:17)" in finding.render()


def test_a_finding_that_only_some_calls_bring_names_those_calls(tmp_path: Path) -> None:
    # `seat` is bound at the first call (inside the loop) and not at the third
    counting = "  count_seat:\n    - {change: dealt, by: 'if seat == dealer then 1 else 0'}\n"
    path = ruleset(tmp_path, counting, "        - for_each: seats()\n          as: seat\n          do:\n"
                                       "            - call: count_seat\n"
                                       "        - {deal: 1, from: stock, to: hand}\n        - call: count_seat\n")
    (finding,) = [d for d in validate_file(path) if d.severity == "error"]
    assert finding.code == "unknown-name" and finding.yaml_path == "procedures.count_seat[0].by"
    line = _line_of(path, "        - call: count_seat")
    assert finding.notes == (f"in procedure `count_seat`, called at hand.phases[0].steps[2] ({path}:{line}:17)",)


def test_a_finding_that_every_call_brings_is_the_procedures_own_and_has_no_note(tmp_path: Path) -> None:
    broken = "  bad:\n    - {change: dealt, by: dealtt}\n"
    path = ruleset(tmp_path, broken, "        - call: bad\n        - {deal: 1, from: stock, to: hand}\n"
                                     "        - call: bad\n")
    (finding,) = [d for d in validate_file(path) if d.severity == "error"]
    assert finding.yaml_path == "procedures.bad[0].by" and finding.notes == ()


def test_a_finding_reached_through_two_procedures_names_each_call_innermost_first(tmp_path: Path) -> None:
    nested = "  outer:\n    - {deal: 1, from: stock, to: hand}\n    - call: inner\n" \
             "  inner:\n    - {change: dealt, by: dealtt}\n"
    path = ruleset(tmp_path, nested, "        - call: outer\n")
    (finding,) = [d for d in validate_file(path) if d.severity == "error"]
    inner_line, outer_line = _line_of(path, "    - call: inner"), _line_of(path, "        - call: outer")
    assert finding.notes == (f"in procedure `inner`, called at procedures.outer[1] ({path}:{inner_line}:13); "
                             f"in procedure `outer`, called at hand.phases[0].steps[0] ({path}:{outer_line}:17)",)


def test_a_finding_inside_a_nested_list_of_a_procedure_names_the_call(tmp_path: Path) -> None:
    # a procedure declared after the one that calls it, called inside an `if`
    nested = "  outer:\n    - if: dealt == 0\n      then:\n        - call: inner\n" \
             "  inner:\n    - {change: dealt, by: dealtt}\n"
    path = ruleset(tmp_path, nested, "        - call: outer\n")
    (finding,) = [d for d in validate_file(path) if d.severity == "error"]
    assert finding.yaml_path == "procedures.inner[0].by"
    assert [note.split(" (")[0] for note in finding.notes[0].split("; ")] == [
        "in procedure `inner`, called at procedures.outer[0].then[0]",
        "in procedure `outer`, called at hand.phases[0].steps[0]"]


def test_a_finding_written_in_the_hand_has_no_note(tmp_path: Path) -> None:
    three = "  three:\n    - {change: dealt, by: 1}\n    - {change: dealt, by: 2}\n"
    path = ruleset(tmp_path, three, "        - call: three\n        - {change: dealt, by: dealtt}\n")
    (finding,) = [d for d in validate_file(path) if d.severity == "error"]
    assert finding.notes == ()


def test_a_runtime_failure_in_a_procedure_names_the_call(tmp_path: Path) -> None:
    from interpreter.engine.errors import RulesetRuntimeError

    failing = "  bad:\n    - {change: dealt, by: 1 // (dealt - dealt)}\n"
    path = ruleset(tmp_path, failing, "        - {change: dealt, by: 1}\n        - call: bad\n")
    with pytest.raises(RulesetRuntimeError) as raised:
        load_ruleset(path).new_initial_state(seed=1, players=2)
    line = _line_of(path, "        - call: bad")
    assert raised.value.notes == (f"in procedure `bad`, called at hand.phases[0].steps[1] ({path}:{line}:17)",)
    assert raised.value.render().splitlines()[-1] == f"  note: {raised.value.notes[0]}"
