"""The files named for a match's logs (`play --log`, `--log-seat`): a new log is written only where nothing would
be lost (no file, an empty one, or the log of a match that has ended), and a name that cannot be a log is said
at once, before the match starts."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import run_console

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "games" / "tiny.yaml"




def _play(capsys: pytest.CaptureFixture[str], *extra: str, ruleset: Path = TINY) -> tuple[int, str]:
    return run_console(["play", str(ruleset), "--players", "3", "--seed", "5", "--bots", "random", "--json", *extra],
                 capsys)


def test_the_ruleset_played_is_never_written_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ruleset = tmp_path / "tiny.yaml"
    shutil.copy(TINY, ruleset)
    for option in (["--log", str(ruleset)], ["--log-seat", "0", str(ruleset)]):
        code, output = _play(capsys, *option, ruleset=ruleset)
        assert code == 2 and f"{ruleset} is not a match log" in output and "give a new file" in output, output
        assert ruleset.read_bytes() == TINY.read_bytes()


def test_a_match_stopped_before_its_end_is_not_written_over(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "match.jsonl"
    assert _play(capsys, "--log", str(log))[0] == 0
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    stopped = tmp_path / "stopped.jsonl"
    stopped.write_text("".join(lines[:-1]), encoding="utf-8")  # (the match's lines without its result)
    before = stopped.read_bytes()
    for option in (["--log", str(stopped)], ["--log-seat", "1", str(stopped)]):
        code, output = _play(capsys, *option)
        assert code == 2 and "holds a match stopped before its end" in output, output
        assert f"ruledeck play --resume {stopped}" in output
        assert stopped.read_bytes() == before


def test_what_a_seat_saw_of_a_match_stopped_before_its_end_is_not_written_over(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seat = tmp_path / "p0.jsonl"
    assert _play(capsys, "--log-seat", "0", str(seat))[0] == 0
    lines = seat.read_text(encoding="utf-8").splitlines(keepends=True)
    seat.write_text("".join(lines[:-1]), encoding="utf-8")
    before = seat.read_bytes()
    code, output = _play(capsys, "--log-seat", "0", str(seat))
    assert code == 2 and "holds what a seat saw of a match stopped before its end" in output, output
    assert seat.read_bytes() == before


def test_the_log_of_a_match_that_ended_is_written_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log, seat = tmp_path / "match.jsonl", tmp_path / "p0.jsonl"
    assert _play(capsys, "--log", str(log), "--log-seat", "0", str(seat))[0] == 0
    first, first_seat = log.read_bytes(), seat.read_bytes()
    code, output = _play(capsys, "--log", str(log), "--log-seat", "0", str(seat))
    assert code == 0, output
    assert log.read_bytes() == first and seat.read_bytes() == first_seat  # (the same match, written anew)
    empty = tmp_path / "empty.jsonl"
    empty.touch()
    assert _play(capsys, "--log", str(empty))[0] == 0 and empty.read_bytes() == first


def test_a_log_named_by_nothing_or_by_a_device_is_refused(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    for option, message in ((["--log", ""], "--log: give a file name"),
                            (["--log-seat", "0", ""], "--log-seat: give a file name"),
                            (["--log", "/dev/null"], "--log: /dev/null is not a file"),
                            (["--log-seat", "0", "/dev/null"], "--log-seat: /dev/null is not a file"),
                            (["--log", str(tmp_path)], "is a directory")):
        code, output = _play(capsys, *option)
        assert code == 2 and message in output and "internal error" not in output, output


def test_a_person_s_match_with_an_empty_log_name_is_refused_before_it_starts(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, output = run_console(["play", str(TINY), "--players", "3", "--human", "0", "--log", ""], capsys)
    assert code == 2 and "--log: give a file name" in output and "is written to" not in output, output


def test_the_command_to_go_on_is_the_one_the_person_ran(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stopped match's message says the command as typed: `python -m interpreter` for the module, the path of
    a `ruledeck` that is not the one on the PATH (a virtual environment's, not activated), a path with a space
    quoted as the shell needs it; plain `ruledeck` where that is the one found."""
    from interpreter import cli_logs

    module = tmp_path / "interpreter" / "__main__.py"
    monkeypatch.setattr("sys.argv", [str(module), "play"])
    monkeypatch.setenv("PATH", str(tmp_path / "nothing here"))  # (no `python` here: the one that runs it, by path)
    assert cli_logs.command_name() == f"{shlex.quote(sys.executable)} -m interpreter"
    if Path(sys.executable).name == "python":  # (a virtual environment's, found first on the PATH: named so)
        monkeypatch.setenv("PATH", str(Path(sys.executable).parent))
        assert cli_logs.command_name() == "python -m interpreter"
        assert cli_logs.resume_command({"humans": [0]}) == "python -m interpreter serve --resume"
    elsewhere = tmp_path / "my env" / "bin" / "ruledeck"
    elsewhere.parent.mkdir(parents=True)
    elsewhere.write_text("#!/bin/sh\n", encoding="utf-8")
    monkeypatch.setenv("PATH", str(tmp_path / "nothing here"))
    monkeypatch.setattr("sys.argv", [str(elsewhere), "play"])
    assert cli_logs.command_name() == f"'{elsewhere}'"
    assert cli_logs.resume_command({}) == f"'{elsewhere}' play --resume"
    elsewhere.chmod(0o755)
    monkeypatch.setenv("PATH", str(elsewhere.parent))
    assert cli_logs.command_name() == "ruledeck"
