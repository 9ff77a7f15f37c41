"""`ruledeck validate`: output format, exit codes 0/1/2, --strict, --set, folders; never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import cli

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "games" / "tiny.yaml"


def _run(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(arguments))
    return result.exit_code, result.stdout, result.stderr


def test_a_valid_ruleset_exits_0() -> None:
    code, out, err = _run("validate", str(TINY))
    assert code == 0
    assert out == f"{TINY}: ok\n"
    assert err == "1 file checked: 0 errors, 0 warnings\n"


def test_an_invalid_ruleset_exits_1_with_located_findings(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(TINY.read_text(encoding="utf-8").replace("leader: next_seat(dealer)", "leader: next_set(dealer)"),
                   encoding="utf-8")
    code, out, err = _run("validate", str(bad))
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith(f"{bad}:") and ": error[unknown-name]: unknown function `next_set`" in first
    assert "(at hand.phases[1].steps[0].leader)" in first
    assert "hint: did you mean `next_seat`?" in out
    assert err.endswith("1 error, 0 warnings\n")


def test_warnings_fail_only_with_strict(tmp_path: Path) -> None:
    noisy = tmp_path / "noisy.yaml"
    noisy.write_text(TINY.read_text(encoding="utf-8").replace("define:\n", "define:\n  spare: 1 + 1\n"),
                     encoding="utf-8")
    assert _run("validate", str(noisy))[0] == 0
    code, out, _ = _run("validate", "--strict", str(noisy))
    assert code == 1 and "warning[unused-definition]: definition `spare` is never used" in out


def test_a_folder_stands_for_its_yaml_files() -> None:
    code, out, _ = _run("validate", str(ROOT / "rulesets"))
    assert code == 0
    assert "bourre.yaml: ok" in out and "burraco.yaml: ok" in out


def test_a_missing_file_is_a_finding_not_a_crash() -> None:
    code, out, _ = _run("validate", "no/such/file.yaml")
    assert code == 1
    assert out.startswith("no/such/file.yaml:1:1: error[file-missing]: no such file")


def test_usage_errors_exit_2() -> None:
    assert _run("validate")[0] == 2
    assert _run("validate", "--frobnicate", str(TINY))[0] == 2
    code, _, err = _run("validate", "--set", "hands", str(TINY))
    assert code == 2 and "expected NAME=VALUE" in err
    code, _, err = _run("validate", "--set", "hands=0", str(TINY))
    assert code == 2 and "parameter hands: 0 is out of range: allowed an integer from 1 to 100" in err
    code, _, err = _run("validate", "--set", "pot_limt=3", str(TINY))
    assert code == 2 and "did you mean 'pot_limit'?" in err
    for command in (("validate", ""), ("test", "")):  # (not the current folder, as the file system reads it)
        code, _, err = _run(*command)
        assert code == 2 and "an empty name is no ruleset file or folder" in err, err
    for bots in ("random,,heuristic", "random,", ",random"):
        code, _, err = _run("play", str(TINY), "--players", "2", "--bots", bots)
        assert code == 2 and f"--bots: a kind is missing in {bots!r}" in err, err


def test_parameters_from_the_command_line_are_applied() -> None:
    assert _run("validate", "--set", "hands=5", "--set", "pot_limit=none", str(TINY))[0] == 0


def test_python_dash_m_runs_the_same_command() -> None:
    result = subprocess.run([sys.executable, "-m", "interpreter", "validate", str(TINY)], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0 and result.stdout.endswith("ok\n")


def test_help_describes_the_exit_status() -> None:
    code, out, _ = _run("validate", "--help")
    assert code == 0 and "Exit status: 0 when every file is valid" in out


def test_an_output_with_no_room_left_is_said_not_an_internal_error() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w", encoding="utf-8") as full:
        finished = subprocess.run([sys.executable, "-m", "interpreter", "list"], stdout=full, stderr=subprocess.PIPE,
                                  text=True, timeout=120)
    assert finished.returncode == 1, finished.stderr
    assert finished.stderr.strip() == "error: cannot write: No space left on device"


def test_validate_names_a_scenario_file_as_one_and_skips_those_of_a_folder(tmp_path: Path) -> None:
    scenario = ROOT / "tests" / "scenarios" / "hearts" / "hearts.yaml"
    named = CliRunner().invoke(cli, ["validate", str(scenario)])
    assert named.exit_code == 1
    assert f"{scenario}: error: a scenario file (`ruleset:` and `cases:`), not a ruleset: `ruledeck test " \
           f"{scenario}` runs its cases" in named.stdout
    assert "error[schema]" not in named.stdout
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "game.yaml").write_text((ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8"),
                                      encoding="utf-8")
    (folder / "cases.yaml").write_text(scenario.read_text(encoding="utf-8"), encoding="utf-8")
    found = CliRunner().invoke(cli, ["validate", str(folder)])
    assert found.exit_code == 0, found.output
    assert f"(scenario files, skipped: {folder / 'cases.yaml'}; `ruledeck test` runs them)" in found.stdout
    assert "1 file checked: 0 errors" in found.stderr


def test_ctrl_c_before_a_command_handles_it_exits_130_saying_so(monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # (a Ctrl-C while the ruleset loads, before a run sets its own handling: "interrupted", 130; not click's
    # "Aborted!" and 1)
    import interpreter.cli as cli_module

    def interrupted(*_arguments: object, **_options: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_module, "load_game_or_exit", interrupted)
    with pytest.raises(SystemExit) as exited:
        cli_module.main(["simulate", str(TINY), "-n", "2"])
    assert exited.value.code == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "Aborted" not in err


def test_the_exit_status_of_click_s_own_errors_and_help_is_kept(capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.cli import main

    for arguments, status in ((["nope"], 2), (["validate"], 2), (["--help"], 0), (["validate", str(TINY)], 0)):
        with pytest.raises(SystemExit) as exited:
            main(arguments)
        assert (exited.value.code or 0) == status, arguments
    assert "No such command 'nope'" in capsys.readouterr().err


def test_a_variants_finding_in_its_base_names_the_file_checked_and_the_variants_definition(
        tmp_path: Path) -> None:
    # (two variants checked at once: each one's findings, written in the base, come after the variant's name;
    # a count the base writes but the variant's definition makes too large names where the variant defines it)
    base = tmp_path / "base.yaml"
    base.write_text(TINY.read_text(encoding="utf-8").replace("        - deal: 5\n", "        - deal: hand_size\n")
                    .replace("define:\n", "define:\n  hand_size: 5\n", 1), encoding="utf-8")
    for name, size in (("fine.yaml", 6), ("broken.yaml", 20)):
        (tmp_path / name).write_text(f"format: 1\nextends: base.yaml\nname: {name}\ndefine:\n  hand_size: {size}\n",
                                     encoding="utf-8")
    code, out, _ = _run("validate", str(tmp_path / "fine.yaml"), str(tmp_path / "broken.yaml"))
    assert code == 1
    assert out.startswith(f"{tmp_path / 'fine.yaml'}: ok\n{tmp_path / 'broken.yaml'}: 1 finding, all in what it "
                          f"extends:\n{base}:")
    assert "error[deck-arithmetic]: with 3 players this needs 60 cards" in out
    assert f"  note: `hand_size` is defined at {tmp_path / 'broken.yaml'}:5, as this count reads it" in out
