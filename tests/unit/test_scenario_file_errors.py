"""A scenario file whose keys or `ruleset:` cannot be what its author meant is an error at its line, never a
file quietly read otherwise, nor an internal error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import cli
from interpreter.runners.scenarios import ScenarioError, run_file

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "bourre.yaml"
FAILING_CASE = "  - name: failing\n    steps:\n      - expect: {phase: tricks}\n"
GOOD_CASE = "  - name: good\n    steps:\n      - expect: {phase: declare}\n"


def _refused(tmp_path: Path, text: str) -> str:
    path = tmp_path / "cases.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as raised:
        run_file(path)
    return str(raised.value)


@pytest.mark.parametrize(("text", "line", "first", "key", "at"), [
    # a second `cases:` would drop the first list, and its failing case with it
    (f"ruleset: {RULESET}\nplayers: 4\ncases:\n{FAILING_CASE}cases:\n{GOOD_CASE}", 7, 3, "cases", "cases"),
    # a second `steps:` would drop the first steps
    (f"ruleset: {RULESET}\nplayers: 4\ncases:\n{FAILING_CASE}    steps: []\n", 7, 5, "steps", "cases[0].steps"),
    # a second key in `expect` would drop the first expectation
    (f"ruleset: {RULESET}\nplayers: 4\ncases:\n  - name: twice\n    steps:\n"
     "      - expect: {phase: tricks, phase: declare}\n", 6, 6, "phase", "cases[0].steps[0].expect.phase"),
])
def test_a_key_twice_in_one_mapping_is_an_error_at_its_line(tmp_path: Path, text: str, line: int, first: int,
                                                            key: str, at: str) -> None:
    message = _refused(tmp_path, text)
    assert message.startswith(f"{tmp_path / 'cases.yaml'}:{line}:"), message
    assert f"error[duplicate-key]: key '{key}' appears twice in one mapping (first at line {first}) (at {at})" \
        in message, message


@pytest.mark.parametrize(("value", "shown"), [
    ("null", "null"), ("3", "3"), ("[a.yaml, b.yaml]", '["a.yaml", "b.yaml"]'), ("{a: 1}", '{"a": 1}'),
    ('""', '""'), ("true", "true"),
])
def test_a_ruleset_that_is_not_a_file_name_is_an_error_at_its_line(tmp_path: Path, value: str, shown: str) -> None:
    message = _refused(tmp_path, f"# a scenario\nruleset: {value}\ncases: [{{name: a, steps: []}}]\n")
    assert message == (f"{tmp_path / 'cases.yaml'}:2: `ruleset:` needs a file name, the ruleset's path relative "
                       f"to this file (ruleset: ../rulesets/my_game.yaml) or a bundled ruleset's name (`ruledeck "
                       f"list` names them), not {shown}")


def test_a_ruleset_path_with_a_nul_character_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text('ruleset: "a\\0b.yaml"\ncases: [{name: a, steps: []}]\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["test", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f'error: {path}:1: `ruleset: "a\\u0000b.yaml"` is not a file name: it holds a NUL '
                             "character\n")


def test_a_ruleset_path_in_a_loop_of_links_is_an_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / "loop.yaml").symlink_to("loop.yaml")
    path = tmp_path / "cases.yaml"
    path.write_text("ruleset: loop.yaml\ncases: [{name: a, steps: []}]\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["test", str(path)])
    assert result.exit_code == 2, result.output
    # (Python 3.11 and 3.12 refuse to resolve the path; 3.13 resolves it, and opening it fails)
    assert result.stderr.startswith(f"error: {path}"), result.stderr
    assert "loop.yaml" in result.stderr and "internal error" not in result.output + result.stderr


def test_a_number_too_long_to_read_is_an_error_at_its_line(tmp_path: Path) -> None:
    # Python reads no integer of more than 4,300 digits: the scenario file names the number's place, not 1:1.
    message = _refused(tmp_path, f"ruleset: {RULESET}\nplayers: 4\ncases:\n  - name: a\n    seed: {'7' * 5000}\n"
                                 "    steps: []\n")
    assert message.startswith(f"{tmp_path / 'cases.yaml'}:5:11: error[number-too-large]: a number of 5,000 digits "
                              "is too long to be read (at cases[0].seed)"), message[:300]


def test_a_folder_of_rulesets_and_scenarios_runs_the_scenarios(tmp_path: Path) -> None:
    # A designer's folder holds the ruleset, a variant and the scenarios: `ruledeck test FOLDER` runs the
    # scenarios and names what it skipped; a ruleset named on its own is an error saying what it is.
    (tmp_path / "game.yaml").write_text(RULESET.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "house.yaml").write_text("extends: game.yaml\nparams: {}\n", encoding="utf-8")
    (tmp_path / "cases.yaml").write_text(f"ruleset: game.yaml\nplayers: 4\ncases:\n{GOOD_CASE}", encoding="utf-8")
    result = CliRunner().invoke(cli, ["test", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "1 passed, 0 failed" in result.output
    assert f"(not scenario files, skipped: {tmp_path / 'game.yaml'}, {tmp_path / 'house.yaml'})" in result.output
    named = CliRunner().invoke(cli, ["test", str(tmp_path / "game.yaml")])
    assert named.exit_code == 2 and f"{tmp_path / 'game.yaml'} is a ruleset, not a scenario file" in named.stderr
    (tmp_path / "cases.yaml").unlink()
    alone = CliRunner().invoke(cli, ["test", str(tmp_path)])
    assert alone.exit_code == 2 and "no scenario files found" in alone.stderr


def test_a_failed_returns_expectation_shows_the_numbers_as_numbers(tmp_path: Path) -> None:
    # (they were shown as texts in a list: `returns are ['0', '1', '1'], not [4, 6, 3]`)
    path = tmp_path / "cases.yaml"
    path.write_text(f"ruleset: {RULESET}\nplayers: 4\ncases:\n  - name: r\n    steps:\n      - expect: "
                    "{returns: [9, 9, 9, 9]}\n", encoding="utf-8")
    [result] = run_file(path)
    # (each seat has paid its ante)
    assert not result.passed and "returns are [-1, -1, -1, -1], not [9, 9, 9, 9]" in result.message, result.message


def test_a_folder_with_a_scenario_file_that_cannot_be_read_runs_the_others_and_counts_it(tmp_path: Path) -> None:
    (tmp_path / "a_broken.yaml").write_text(f"ruleset: {RULESET}\ncases:\n  - name: [unclosed\n", encoding="utf-8")
    (tmp_path / "b_cases.yaml").write_text(f"ruleset: {RULESET}\nplayers: 4\ncases:\n{GOOD_CASE}", encoding="utf-8")
    result = CliRunner().invoke(cli, ["test", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{tmp_path / 'a_broken.yaml'}:3:11: error[yaml-syntax]")
    assert f"PASS {tmp_path / 'b_cases.yaml'}: good" in result.stdout
    assert result.stdout.endswith("1 passed, 0 failed, 1 scenario file could not be read (above)\n")


def test_a_ruleset_that_cannot_be_read_beside_the_scenarios_is_skipped_not_counted(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text("format: 1\nname: [unclosed\n", encoding="utf-8")
    (tmp_path / "cases.yaml").write_text(f"ruleset: {RULESET}\nplayers: 4\ncases:\n{GOOD_CASE}", encoding="utf-8")
    result = CliRunner().invoke(cli, ["test", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith(f"(not scenario files, skipped: {tmp_path / 'game.yaml'})\n1 passed, 0 failed\n")


def test_a_broken_scenario_file_in_a_folder_is_counted_not_skipped(tmp_path: Path) -> None:
    # (only a file that reads as a ruleset or a variant is skipped: one without `ruleset:` is a broken scenario)
    (tmp_path / "a_cases.yaml").write_text(f"ruleset: {RULESET}\nplayers: 4\ncases:\n{GOOD_CASE}", encoding="utf-8")
    (tmp_path / "b_broken.yaml").write_text(f"players: 4\ncases:\n{GOOD_CASE}", encoding="utf-8")
    result = CliRunner().invoke(cli, ["test", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert "not scenario files" not in result.stdout
    assert result.stdout.endswith("1 passed, 0 failed, 1 scenario file could not be read (above)\n")


@pytest.mark.parametrize(("content", "message"), [
    (b"ruleset: x\n\x00\x01\x02", "cannot read the scenario file: it is binary, not YAML text"),
    (b"\xff\xfecases: []\n", "the file is not UTF-8 text (byte 0xFF at 0 cannot be decoded): save it as UTF-8"),
    (None, "no such file (check the path)"),
])
def test_a_scenario_file_that_cannot_be_read_says_why_in_words(tmp_path: Path, content: bytes | None,
                                                               message: str) -> None:
    # (Python's own words reached the user: `[Errno 2] No such file or directory: ...`, `'utf-8' codec can't ...`)
    path = tmp_path / "cases.yaml"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ScenarioError) as raised:
        run_file(path)
    assert str(raised.value) == f"{path}: {message}"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX's")
def test_a_named_pipe_given_as_a_scenario_file_is_read_without_waiting_for_a_writer(tmp_path: Path) -> None:
    # (`ruledeck test` waited for ever on a pipe no program writes to; `validate` did not)
    path = tmp_path / "cases.yaml"
    os.mkfifo(path)
    with pytest.raises(ScenarioError, match="a scenario file has `ruleset:` and a list of `cases:`"):
        run_file(path)


HEADER = f"ruleset: {RULESET}\nplayers: 4\ncases:"
STEPS_HINT = ("  hint: give the case at least one step: an action (`p1 play AH`), or a `legal`, `refused` or `expect` "
              "check; to check the state right after the start, one expectation: `steps: [{expect: {phase: ...}}]`")


@pytest.mark.parametrize(("cases", "place", "found", "excerpt", "hint"), [
    # no case at all: the file tests nothing (it passed, `0 passed, 0 failed`, exit status 0)
    (" []\n", "3:1", "error[no-cases]: the scenario file has no case (`cases: []`): it tests nothing (at cases)",
     [" 3 | cases: []", "   | ^^^^^"], "  hint: list the cases under `cases:`"),
    # `cases:` left half-written (it was an error, but at no line: `a scenario file has ... a list of `cases:``)
    ("\n", "3:1", "error[no-cases]: the scenario file has no case (`cases:` is null (nothing after it)): it tests "
     "nothing (at cases)", [" 3 | cases:", "   | ^^^^^"], "  hint: list the cases under `cases:`"),
    # a case whose `steps:` has nothing after it (it passed)
    ("\n  - name: half written\n    steps:\n", "5:5", "error[no-steps]: the case `half written` has no step "
     "(`steps:` is null (nothing after it)): it tests nothing (at cases[0].steps)",
     [" 5 |     steps:", "   |     ^^^^^"], STEPS_HINT),
    ("\n  - name: nothing\n    steps: []\n", "5:5", "error[no-steps]: the case `nothing` has no step (`steps: []`): "
     "it tests nothing (at cases[0].steps)", [" 5 |     steps: []", "   |     ^^^^^"], STEPS_HINT),
    # a case without `steps:` (it passed): located at the case
    ("\n  - name: no steps\n    seed: 3\n", "4:5", "error[no-steps]: the case `no steps` has no `steps:`: it tests "
     "nothing (at cases[0])", [" 4 |   - name: no steps", "   |     " + "^" * 14], STEPS_HINT),
    # a case without a name either is named by its number
    ("\n  - seed: 3\n", "4:5", "error[no-steps]: case 1 has no `steps:`: it tests nothing (at cases[0])",
     [" 4 |   - seed: 3", "   |     ^^^^^^^"], STEPS_HINT),
], ids=["cases-empty", "cases-null", "steps-null", "steps-empty", "steps-missing", "steps-missing-unnamed"])
def test_a_scenario_file_that_tests_nothing_is_an_error_at_its_line(tmp_path: Path, cases: str, place: str,
                                                                   found: str, excerpt: list[str], hint: str) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text(HEADER + cases, encoding="utf-8")
    result = CliRunner().invoke(cli, ["test", str(path)])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert lines[0] == f"{path}:{place}: {found}", result.stderr
    assert lines[1:3] == excerpt, result.stderr
    assert lines[3].startswith(hint), result.stderr
    assert result.stdout == "0 passed, 0 failed, 1 scenario file could not be read (above)\n"
    assert "Traceback" not in result.output + result.stderr


def test_every_case_that_tests_nothing_is_named_and_no_case_of_the_file_runs(tmp_path: Path) -> None:
    # (a file that tests less than it seems is not run in part: the good case is not counted as passed)
    message = _refused(tmp_path, f"{HEADER}\n{GOOD_CASE}  - name: first\n    steps: []\n  - name: second\n"
                                 "    steps:\n")
    path = tmp_path / "cases.yaml"
    assert message.startswith(f"{path}:8:5: error[no-steps]: the case `first` has no step (`steps: []`): it tests "
                              "nothing (at cases[1].steps)"), message
    assert f"{path}:10:5: error[no-steps]: the case `second` has no step (`steps:` is null (nothing after it)): it " \
        "tests nothing (at cases[2].steps)" in message, message
    assert message.count("error[") == 2 and message.count("  hint: give the case at least one step") == 2, message


@pytest.mark.parametrize("steps", ["{}", '""', "0", "false"])
def test_steps_that_are_not_a_list_fail_the_case_though_they_hold_nothing(tmp_path: Path, steps: str) -> None:
    # (each was read as no steps, and the case passed)
    path = tmp_path / "cases.yaml"
    path.write_text(f"{HEADER}\n  - name: odd\n    steps: {steps}\n", encoding="utf-8")
    [result] = run_file(path)
    assert not result.passed and result.message.startswith("`steps` is a list: actions"), result.message


@pytest.mark.parametrize("case", [
    # the state right after the deal: one expectation is a whole case
    "  - name: after the deal\n    steps:\n      - expect: {phase: declare}\n",
    # actions alone: each must be legal, which the case checks
    "  - name: an action\n    steps: [p1 choose pass]\n",
    # a start at a phase, and one expectation of it
    "  - name: a start\n    start: {phase: declare, dealer: 1}\n    steps: [{expect: {current_player: p2}}]\n",
], ids=["expect-after-the-deal", "actions-alone", "expect-after-a-start"])
def test_one_step_is_enough_and_the_same_case_without_it_tests_nothing(tmp_path: Path, case: str) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text(f"{HEADER}\n{case}", encoding="utf-8")
    [result] = run_file(path)
    assert result.passed, result.message
    emptied = case.split("    steps:")[0] + "    steps: []\n"
    message = _refused(tmp_path, f"{HEADER}\n{emptied}")
    assert "error[no-steps]" in message and "(`steps: []`): it tests nothing (at cases[0].steps)" in message, message
