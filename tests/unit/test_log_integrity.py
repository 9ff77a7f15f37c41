"""`ruledeck play --resume` trusts nothing in a log: an edited header, a changed ruleset, a header naming some
other file, and a second run on the same log are each refused with a plain message naming the line, and the
log is left as it was."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from interpreter.cli import cli
from interpreter.runners.integrity import lock, signed
from tests.cli_helpers import run_console
from tests.log_helpers import rechained

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "games" / "tiny.yaml"


def _stopped_match(tmp_path: Path, ruleset: Path = TINY) -> Path:
    """The log of a match of two hands stopped by its person after one move."""
    log = tmp_path / "match.jsonl"
    result = CliRunner().invoke(cli, ["play", str(ruleset), "--players", "3", "--seed", "5", "--set", "hands=2",
                                      "--human", "1", "--bots", "random", "--log", str(log)], input="1\nq\n")
    assert result.exit_code == 130, result.output
    return log


def _with_header(log: Path, *, sign: bool, **fields: Any) -> Path:
    """The log with header fields changed: by hand (the digest left as it was), or with the digest worked out
    again."""
    lines = log.read_text(encoding="utf-8").splitlines()
    header = {**json.loads(lines[0]), **fields}
    if sign:
        header = signed({key: value for key, value in header.items() if key != "digest"})
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    return log




def _resume(log: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    return run_console(["play", "--resume", str(log), "--bots", "random"], capsys)


@pytest.mark.parametrize("fields", [{"seed": 6}, {"players": 4}, {"params": {"hands": 3, "pot_limit": None}},
                                    {"human": 0}])
def test_a_header_edited_by_hand_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             fields: dict[str, Any]) -> None:
    log = _with_header(_stopped_match(tmp_path), sign=False, **fields)
    before = log.read_bytes()
    code, output = _resume(log, capsys)
    assert code == 1
    assert f"error: {log}: line 1, the header, was edited: its digest does not match" in output
    assert log.read_bytes() == before


@pytest.mark.parametrize("human", ["0", 1.0, True, 7])
def test_a_seat_that_is_no_seat_is_refused_even_with_a_matching_digest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], human: Any) -> None:
    log = _with_header(_stopped_match(tmp_path), sign=True, human=human)
    code, output = _resume(log, capsys)
    assert code == 1 and "line 1 is not an event of a ruledeck log: the header gives `human` as" in output
    assert "where the seat a person plays (0 to 2: the match has 3 players) is expected" in output


def test_a_shuffle_edited_in_the_log_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _stopped_match(tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines()
    number, shuffle = next((n, json.loads(line)) for n, line in enumerate(lines, 1) if '"chance"' in line)
    shuffle["order"] = shuffle["order"][1:] + shuffle["order"][:1]  # a card moved from the top to the bottom
    lines[number - 1] = json.dumps(shuffle)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, output = _resume(log, capsys)
    assert code == 1 and f"line {number} was edited (or a line before it was removed or added)" in output
    log.write_text("\n".join(rechained(lines)) + "\n", encoding="utf-8")  # the hashes worked out again
    code, output = _resume(log, capsys)
    assert code == 1 and f"line {number}: the logged shuffle is not the one seed 5 makes there" in output


def test_a_header_without_a_digest_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _stopped_match(tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines()
    header = {key: value for key, value in json.loads(lines[0]).items() if key != "digest"}
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    code, output = _resume(log, capsys)
    assert code == 1 and "line 1, the header, has no digest" in output


def test_a_header_naming_another_file_never_shows_that_file(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "private.txt"
    secret.write_text("password: hunter2\nsecond line\n", encoding="utf-8")
    log = _with_header(_stopped_match(tmp_path), sign=False, ruleset=str(secret))  # the path is not signed
    code, output = _resume(log, capsys)
    assert code == 1
    assert f"line 1 names {secret} as the ruleset, but it does not load as one" in output
    assert "hunter2" not in output and "password" not in output


def test_a_ruleset_changed_since_the_match_was_played_is_refused(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    ruleset = tmp_path / "tiny.yaml"
    shutil.copy(TINY, ruleset)
    log = _stopped_match(tmp_path, ruleset)
    ruleset.write_text(TINY.read_text(encoding="utf-8").replace("you must follow suit", "follow suit"),
                       encoding="utf-8")
    code, output = _resume(log, capsys)
    assert code == 1
    assert "is not the ruleset the match was played with (it was changed since, or it is another file)" in output
    # (a house rule tried on a logged match: what to do next, the changed rules from the same deal)
    code, output = run_console(["replay", str(log), "--verify"], capsys)
    assert code == 1 and "cannot go on" not in output
    assert f"`ruledeck play {ruleset} --seed 5 --players 3 --set hands=2`" in " ".join(output.split()), output


def test_another_ruleset_in_the_logged_place_is_named_as_another_whatever_its_parameters(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ruleset = tmp_path / "tiny.yaml"
    shutil.copy(TINY, ruleset)
    log = _stopped_match(tmp_path, ruleset)
    ruleset.write_text(TINY.read_text(encoding="utf-8").replace(
        '  pot_limit: {type: int, default: null, min: 1, description: "BR-36: pot limit."}\n', ""), encoding="utf-8")
    for command in (["replay", str(log)], ["play", "--resume", str(log), "--bots", "random"]):
        code, output = run_console(command, capsys)
        assert code == 1 and "is not the ruleset the match was played with" in output, output
        assert "unknown parameter 'pot_limit'" in output  # (what differs, said too)


def test_a_ruleset_moved_or_recommented_is_the_same_ruleset(tmp_path: Path) -> None:
    ruleset = tmp_path / "tiny.yaml"
    shutil.copy(TINY, ruleset)
    log = _stopped_match(tmp_path, ruleset)
    ruleset.write_text("# a comment of the house\n" + TINY.read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["play", "--resume", str(log), "--bots", "random"], input="1\n" * 50)
    assert result.exit_code == 0, result.output
    assert "Match over after 2 hands" in result.output


def test_a_second_run_on_a_log_in_use_is_refused_and_the_log_is_left_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _stopped_match(tmp_path)
    before = log.read_bytes()
    holder = open(log, "a", encoding="utf-8")  # noqa: SIM115 - another run going on with the match
    try:
        lock(holder, str(log))
        code, output = _resume(log, capsys)
        assert code == 1 and f"error: {log}: another ruledeck is writing this match" in output
        code, output = run_console(["play", str(TINY), "--seed", "1", "--log", str(log), "--json"], capsys)
        assert code == 1 and "another ruledeck is writing this match" in output
    finally:
        holder.close()
    assert log.read_bytes() == before
    result = CliRunner().invoke(cli, ["play", "--resume", str(log), "--bots", "random"], input="1\n" * 50)
    assert result.exit_code == 0, result.output  # the lock ends with the run that held it


def test_a_device_is_no_log_to_resume(capsys: pytest.CaptureFixture[str]) -> None:
    code, output = run_console(["play", "--resume", "/dev/zero"], capsys)
    assert code == 2 and "--resume: /dev/zero is not a log file" in output
