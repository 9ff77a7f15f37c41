"""`ruledeck replay LOG [--verify]` plays a logged match again and checks every line and the result, naming the
first difference (its line, what the match has there, what the log says); an edited line (the chain of
hashes), a per-seat log and an old log without a chain each get a plain message, never a traceback. `play
--resume` refuses the same edits, and a log that another resume is writing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import cli
from interpreter.runners.integrity import signed
from tests.cli_helpers import run_console
from tests.log_helpers import edit_line, events_of, rechained

ROOT = Path(__file__).resolve().parents[2]
TINY = str(ROOT / "tests" / "games" / "tiny.yaml")




def _log(tmp_path: Path, *extra: str, hands: int = 2) -> Path:
    log = tmp_path / "match.jsonl"
    result = CliRunner().invoke(cli, ["play", TINY, "--players", "3", "--seed", "5", "--set", f"hands={hands}",
                                      "--bots", "random", "--log", str(log), "--json", *extra])
    assert result.exit_code == 0, result.output
    return log


def _stopped(tmp_path: Path) -> Path:
    """The log of a match stopped by its person (seat 1) after three moves."""
    log = tmp_path / "stopped.jsonl"
    result = CliRunner().invoke(cli, ["play", TINY, "--players", "3", "--seed", "5", "--set", "hands=2",
                                      "--human", "1", "--bots", "random", "--log", str(log)], input="1\n1\n1\nq\n")
    assert result.exit_code == 130, result.output
    return log


def _line_of(log: Path, kind: str, nth: int = 0) -> int:
    return [number for number, event in enumerate(events_of(log), 1) if event["type"] == kind][nth]


def test_a_log_replays_with_its_transcript_and_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(tmp_path)
    lines = len(events_of(log))
    code, output = run_console(["replay", str(log)], capsys)
    assert code == 0 and "-- Hand 1, dealer p0 --" in output and "After hand 2:" in output
    assert f"{log}: {lines} lines verified: the match played again is the one logged, to its result" in output
    code, output = run_console(["replay", str(log), "--verify"], capsys)
    assert code == 0 and output.startswith(f"{log}: {lines} lines verified") and "-- Hand" not in output


def test_every_line_is_chained_to_the_one_before(tmp_path: Path) -> None:
    events = events_of(_log(tmp_path))
    assert events[0]["chained"] is True and isinstance(events[0]["digest"], str)
    assert all(isinstance(event["chain"], str) for event in events[1:])
    assert len({event["chain"] for event in events[1:]}) == len(events) - 1


@pytest.mark.parametrize("kind", ["action", "chance", "hand_end", "result", "log"])
def test_a_line_edited_without_its_hashes_is_refused_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    log = _log(tmp_path)
    number = _line_of(log, kind, -1 if kind != "chance" else 1)
    edit_line(log, number, rechain=False, extra="x")
    code, output = run_console(["replay", str(log), "--verify"], capsys)
    assert code == 1
    assert f"error: {log}: line {number} was edited (or a line before it was removed or added)" in output


def test_a_line_removed_or_added_is_refused_at_the_line_after_it(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines()
    number = _line_of(log, "action", 3)
    log.write_text("\n".join(lines[:number - 1] + lines[number:]) + "\n", encoding="utf-8")
    code, output = run_console(["replay", str(log)], capsys)
    assert code == 1 and f"line {number} was edited (or a line before it was removed or added)" in output
    log.write_text("\n".join(lines[:number] + lines[number - 1:]) + "\n", encoding="utf-8")
    code, output = run_console(["replay", str(log)], capsys)
    assert code == 1 and f"line {number + 1} was edited" in output


def test_a_difference_that_does_not_show_is_shown_escaped(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(tmp_path)
    number = _line_of(log, "action")
    action = events_of(log)[number - 1]["action"]
    before = edit_line(log, number, rechain=True, action=action.replace(" ", "\u00a0", 1))
    code, output = run_console(["replay", str(log), "--verify"], capsys)
    assert code == 1 and f"line {number} differs from the match played again" in output, output
    shown = json.dumps(before["action"])
    assert f'"action": {shown}' in output and "\\u00a0" in output  # (the two, told apart)


def test_the_first_difference_is_named_with_what_was_expected_and_found(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(tmp_path)
    number = _line_of(log, "hand_end")
    before = edit_line(log, number, rechain=True, result=[99, 0, 0])  # the hashes worked out again
    code, output = run_console(["replay", str(log), "--verify"], capsys)
    assert code == 1
    expected = json.dumps({key: value for key, value in before.items() if key != "chain"}, sort_keys=True)
    assert f"error: {log}: line {number} differs from the match played again: expected {expected}, found " in output
    assert '"result": [99, 0, 0]' in output


def test_an_edited_result_is_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(tmp_path)
    number = _line_of(log, "result")
    edit_line(log, number, rechain=True, returns=[5, 0, 0])
    code, output = run_console(["replay", str(log), "--verify"], capsys)
    assert code == 1 and f"line {number} differs from the match played again: expected " in output
    assert '"returns": [5, 0, 0]' in output.split("found", 1)[1]


def test_an_edited_seed_parameter_or_action_is_refused_by_resume(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    original = _stopped(tmp_path).read_bytes()
    edits = [(1, {"seed": 6}, "line 1, the header, was edited"),
             (1, {"params": {"hands": 3}}, "line 1, the header, was edited"),
             (_line_of(tmp_path / "stopped.jsonl", "action", 2), {"action": "p2 play QS"}, "was edited")]
    for number, fields, message in edits:
        log = tmp_path / "stopped.jsonl"
        log.write_bytes(original)
        edit_line(log, number, rechain=False, **fields)
        code, output = run_console(["play", "--resume", str(log), "--bots", "random"], capsys)
        assert code == 1 and f"error: {log}: line {number}" in output and message in output, output
        assert log.read_bytes() != original  # (the edit is kept: nothing was written to the log)


def test_resume_checks_every_line_not_only_the_actions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _stopped(tmp_path)
    number = _line_of(log, "hand")
    edit_line(log, number, rechain=True, dealer=2)
    code, output = run_console(["play", "--resume", str(log), "--bots", "random"], capsys)
    assert code == 1 and f"line {number} differs from the match played again: expected " in output


def test_a_seat_log_is_no_log_to_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "p0.jsonl"
    _log(tmp_path, "--log-seat", "0", str(mine))
    for arguments in (["replay", str(mine)], ["play", "--resume", str(mine)]):
        code, output = run_console(arguments, capsys)
        assert code == 1 and "line 1: this is the log of what one seat saw (p0), without the shuffles" in output


def _unchained(log: Path) -> Path:
    """The log as a ruledeck of before the chain wrote it: no `chained` in the header, no `chain` on a line."""
    events = events_of(log)
    header = signed({key: value for key, value in events[0].items() if key not in ("digest", "chained")})
    lines = [json.dumps(header)] + [json.dumps({k: v for k, v in event.items() if k != "chain"})
                                    for event in events[1:]]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return log


def test_an_old_log_without_a_chain_is_replayed_and_resumed_with_a_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _unchained(_log(tmp_path))
    code, output = run_console(["replay", str(log), "--verify"], capsys)
    assert code == 0 and f"warning: {log}: its lines are not chained by hashes" in output
    assert "lines verified" in output
    stopped = _unchained(_stopped(tmp_path))
    result = CliRunner().invoke(cli, ["play", "--resume", str(stopped), "--bots", "random"], input="1\n1\nq\n")
    assert result.exit_code == 130
    assert "its lines are not chained by hashes (it was written by an older ruledeck)" in result.stderr
    code, output = run_console(["replay", str(stopped)], capsys)
    assert code == 0 and all("chain" not in event for event in events_of(stopped))


def test_removing_the_chain_means_editing_the_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(tmp_path)
    lines = [json.dumps({k: v for k, v in event.items() if k != "chain"}) for event in events_of(log)]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, output = run_console(["replay", str(log)], capsys)
    assert code == 1 and "line 2 was edited" in output


@pytest.mark.parametrize("content", [b"", b"\x00\xff garbage", b'{"type": "match"}\n', b"[]\n",
                                     b'{"type": "match", "ruleset": "x", "players": 2}\n'])
def test_a_broken_log_gets_a_message_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     content: bytes) -> None:
    log = tmp_path / "broken.jsonl"
    log.write_bytes(content)
    code, output = run_console(["replay", str(log), "--verify"], capsys)
    assert code == 1 and output.startswith(f"error: {log}") and "Traceback" not in output


def test_replay_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, output = run_console(["replay", str(tmp_path / "none.jsonl")], capsys)
    assert code == 2 and "does not exist" in output
    code, output = run_console(["replay", "/dev/null"], capsys)
    assert code == 2 and "/dev/null is not a log file" in output


def test_seat_log_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    full = str(tmp_path / "full.jsonl")
    for extra, message in ((["--log-seat", "3", "p.jsonl"], "--log-seat: seats are 0 to 2"),
                           (["--log-seat", "0", full], "is the full log of the match; give another file"),
                           (["--log-seat", "x", "p.jsonl"], "'x' is not a valid integer"),
                           (["--log-seat", "0", "p.jsonl", "--log-seat", "1", "p.jsonl"], "a file of its own"),
                           (["--log-seat", "0", str(tmp_path / "no" / "p.jsonl")], "--log-seat: cannot write")):
        code, output = run_console(["play", TINY, "--players", "3", "--log", full, *extra], capsys)
        assert code == 2 and message in output, output


def test_a_hard_link_to_a_log_is_the_same_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Two names of one file are one log: a hard link to the full log, or two links given to two seats, are
    # refused as such (they were taken as another run writing the match).
    full, seat = tmp_path / "full.jsonl", tmp_path / "p1.jsonl"
    full.write_text("")
    os.link(full, seat)
    code, output = run_console(["play", TINY, "--players", "3", "--log", str(full), "--log-seat", "1", str(seat)],
                               capsys)
    assert code == 2 and "is the full log of the match; give another file" in output, output
    other = tmp_path / "p2.jsonl"
    os.link(full, other)
    code, output = run_console(["play", TINY, "--players", "3", "--log-seat", "1", str(seat), "--log-seat", "2",
                                str(other)], capsys)
    assert code == 2 and "a file of its own" in output, output


def test_a_log_that_cannot_be_written_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no such folder" / "match.jsonl"
    code, output = run_console(["play", TINY, "--players", "3", "--log", str(missing)], capsys)
    assert code == 2 and f"--log: cannot write {missing}" in output and "Traceback" not in output, output
    assert "internal error" not in output


def test_a_resumed_match_writes_its_seat_logs_from_where_it_goes_on(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    log, mine = _stopped(tmp_path), tmp_path / "p1.jsonl"
    result = CliRunner().invoke(cli, ["play", "--resume", str(log), "--bots", "random", "--log-seat", "1",
                                      str(mine)], input="1\n" * 50)
    assert result.exit_code == 0, result.output
    events = events_of(mine)
    assert events[0]["seat"] == 1 and events[1]["type"] == "view" and events[-1]["type"] == "result"
    code, output = run_console(["replay", str(log), "--verify"], capsys)  # the resumed log, chained on to its end
    assert code == 0, output


def test_two_resumes_of_one_log_at_once_are_refused(tmp_path: Path) -> None:
    log = _stopped(tmp_path)
    command = [sys.executable, "-m", "interpreter", "play", "--resume", str(log), "--bots", "random"]
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    first = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=environment)
    try:
        assert first.stdout is not None
        for line in first.stdout:  # the first resume is waiting for its person: it holds the log
            if "You are p1." in line or not line:
                break
        second = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=120)
        assert second.returncode == 1 and "another ruledeck is writing this match" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        first.communicate("q\n", timeout=120)
    assert first.returncode == 130
    assert subprocess.run([*command[:3], "replay", str(log)], capture_output=True, text=True,
                          timeout=120).returncode == 0


def test_a_person_playing_for_a_json_result_is_told_where_the_log_is(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["play", TINY, "--players", "3", "--seed", "5", "--set", "hands=1",
                                      "--human", "0", "--bots", "random", "--json"], input="1\n" * 50)
    assert result.exit_code == 0, result.output
    assert "The full log of the match, with every shuffle and so every seat's cards, is written to tiny-5.jsonl" \
        in result.stderr
    assert json.loads(result.stdout[result.stdout.index("\n{") + 1:])["players"] == 3


_ODD_VALUES = (None, 7, -1, True, "x", [], {}, [1, "a"], 10**30)


def test_no_edit_of_any_line_ends_in_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every field of every line of a log given odd values, with the hashes worked out again (so that the replay
    itself meets them): each is replayed or refused with a message, never an internal error."""
    original = _log(tmp_path, hands=1).read_text(encoding="utf-8").splitlines()
    log = tmp_path / "edited.jsonl"
    for number, line in enumerate(original):
        for key in json.loads(line):
            if key in ("chain", "digest"):
                continue
            value = _ODD_VALUES[(number + len(key)) % len(_ODD_VALUES)]
            lines = list(original)
            lines[number] = json.dumps({**json.loads(line), key: value})
            log.write_text("\n".join(rechained(lines)) + "\n", encoding="utf-8")
            code, output = run_console(["replay", str(log), "--verify"], capsys)
            assert code in (0, 1) and "internal error" not in output, (number + 1, key, value, output)
