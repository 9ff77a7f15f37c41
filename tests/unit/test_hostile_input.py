"""Hostile input at the command line gets a plain answer in bounded output, never an internal error (exit 70):
answers at the terminal that only look like numbers, a flood of findings, paths that name no file; and the
worker processes of a simulation do not outlive a run that is killed."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import cli, main
from tests.cli_helpers import interruptible

ROOT = Path(__file__).resolve().parents[2]
TINY = str(ROOT / "tests" / "games" / "tiny.yaml")
BAD = ROOT / "tests" / "bad_rulesets"


def _play_as_seat_0(answers: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["play", TINY, "--players", "2", "--seed", "3", "--human", "0"],
                                input=answers)
    return result.exit_code, result.output


@pytest.mark.parametrize("answer", ["²", "٣", "7" * 5000, "0", "99"])
def test_an_answer_that_picks_no_move_is_answered_and_asked_again(
        answer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = _play_as_seat_0(answer + "\nq\n")
    assert code == 130  # stopped by `q`, after the answer was refused: no internal error
    asked = output.count("Your move")
    assert asked == 2
    refusal = output.split("Your move", 2)[1]
    assert "is not a move" in refusal or "there is no move" in refusal
    if len(answer) > 100:
        assert answer[:100] not in output.replace(answer, "", 1)  # echoed as typed; the refusal cuts it


@pytest.mark.parametrize(("answer", "refusal"), [
    ("-1", "there is no move -1: answer 1, or a move's text"),  # (one move: no range)
    ("frobnicate", "'frobnicate' is not a move: answer 1, or the move's text, `play "),  # (one move: that one)
])
def test_a_refusal_says_what_to_answer_with_this_games_moves(answer: str, refusal: str, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = _play_as_seat_0(answer + "\nq\n")
    assert code == 130 and refusal in output and "p2 play AH" not in output


def test_the_end_of_input_at_the_prompt_ends_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = _play_as_seat_0("")
    assert code == 130 and "\nStopped." in output and "q to stop): Stopped." not in output


def test_a_move_by_its_text_without_the_seat_is_read_as_the_help_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = _play_as_seat_0("1\nq\n")
    first_move = next(line.split(". ", 1)[1] for line in output.splitlines() if line.strip().startswith("1. "))
    code, output = _play_as_seat_0(first_move.removeprefix("p0 ") + "\nq\n")
    assert code == 130 and "is not an action" not in output and output.count("Your move") == 2


def test_ten_thousand_findings_print_twenty_and_a_count(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["validate", str(BAD / "unknown_card_10000_rank_names.yaml")])
    captured = capsys.readouterr()
    assert exited.value.code == 1
    assert captured.out.count("error[unknown-card]") == 21  # twenty findings, then the line that counts the rest
    assert "... and 9,980 more error[unknown-card] in" in captured.out
    assert len(captured.out) < 20_000 and max(len(line) for line in captured.out.splitlines()) < 400
    assert "10000 errors" in captured.err


@pytest.mark.parametrize("command", ["validate", "play", "simulate"])
def test_a_path_longer_than_the_system_allows_is_a_finding(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    arguments = [command, "x" * 5000 + ".yaml"] + (["-n", "1"] if command == "simulate" else [])
    with pytest.raises(SystemExit) as exited:
        main(arguments)
    output = capsys.readouterr()
    assert exited.value.code == 1, output
    assert "error[file-missing]: cannot be read: File name too long" in output.out + output.err
    assert len(output.out + output.err) < 1000


def test_a_deeply_nested_ruleset_is_refused_by_play_too(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["play", str(BAD / "expr_too_deep_601_ors.yaml")])
    assert exited.value.code == 1
    assert "error[expr-too-deep]" in capsys.readouterr().err


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _wait_for(condition: object, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.2)
    return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_the_workers_of_a_killed_simulation_end_too() -> None:
    run = subprocess.Popen([sys.executable, "-m", "interpreter", "simulate", TINY, "-n", "1000000", "--workers", "2"],
                           cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    workers: list[int] = []
    try:
        assert _wait_for(lambda: len(_children(run.pid)) == 2, 60), "the workers did not start"
        workers = _children(run.pid)
        os.kill(run.pid, signal.SIGKILL)
        run.wait(10)
        assert _wait_for(lambda: not any(_alive(worker) for worker in workers), 30), "the workers outlived the run"
    finally:
        for pid in [run.pid, *workers]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize(("text", "finding"), [
    ("ruleset: x.yaml\ncases: " + "[" * 3000 + "]" * 3000 + "\n", "error[nesting-limit]"),
    ("ruleset: x.yaml\ncases: [{n: " + "9" * 5000 + "}]\n", "error[number-too-large]"),
])
def test_a_hostile_scenario_file_is_refused_plainly(text: str, finding: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        main(["test", str(scenario)])
    assert exited.value.code == 2 and finding in capsys.readouterr().err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
@pytest.mark.parametrize("whom", ["the run", "its process group"])  # `kill -INT PID`, and Ctrl-C at a terminal
def test_an_interrupted_simulation_stops_at_once_leaving_no_process_and_no_file(whom: str, tmp_path: Path) -> None:
    here, temporary, cached = tmp_path / "here", tmp_path / "tmp", tmp_path / "cache"
    for folder in (here, temporary, cached):
        folder.mkdir()
    environment = {**os.environ, "TMPDIR": str(temporary), "RULEDECK_CACHE_DIR": str(cached)}
    run = subprocess.Popen([sys.executable, "-m", "interpreter", "simulate", TINY, "-n", "1000000", "--workers", "2"],
                           cwd=here, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           start_new_session=True, preexec_fn=interruptible)
    workers: list[int] = []
    try:
        assert _wait_for(lambda: len(_children(run.pid)) == 2, 60), "the workers did not start"
        workers = _children(run.pid)
        time.sleep(1)  # matches under way
        if whom == "the run":
            os.kill(run.pid, signal.SIGINT)
        else:
            os.killpg(run.pid, signal.SIGINT)
        _, error = run.communicate(timeout=30)
        assert run.returncode == 130, error
        assert b"Interrupted after" in error and b"Traceback" not in error and len(error) < 2000
        assert _wait_for(lambda: not any(_alive(worker) for worker in workers), 10), "the workers outlived the run"
        assert list(here.iterdir()) == [] and list(temporary.iterdir()) == []
        assert not [path for path in cached.rglob("*") if path.suffix == ".tmp"]
    finally:
        for pid in [run.pid, *workers]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        run.wait(10)


def test_a_move_typed_in_another_case_or_by_its_card_alone_is_taken(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _, output = _play_as_seat_0("q\n")
    first_move = next(line.split(". ", 1)[1] for line in output.splitlines() if line.strip().startswith("1. "))
    card = first_move.split()[-1]  # (`play 5S`: the seat's first card)
    for answer in (first_move.lower(), card.lower(), f"p0 {first_move.upper()}"):
        code, output = _play_as_seat_0(answer + "\nq\n")
        assert code == 130 and f"p0 {first_move}" in output and "is not a move" not in output, answer


def test_a_meld_typed_with_its_cards_joined_and_in_any_order_is_found_among_the_moves() -> None:
    from interpreter import load_ruleset
    from interpreter.runners.human import _fitting

    state = load_ruleset(ROOT / "tests" / "games" / "rummy500.yaml").new_initial_state(seed=4, players=2)
    chosen = 0
    while True:  # (the first meld offered in play, the first move taken otherwise)
        if state.current_player < 0:
            state.apply_chance()
            continue
        legal = state.legal_actions()
        melds = [number for number, action in enumerate(legal, 1) if action.kind == "meld"]
        if melds:
            chosen = melds[0]
            break
        state.apply(legal[0])
    words = state.action_text(legal[chosen - 1]).split()[2:]
    assert "+" not in words and len(words) >= 3
    typed = "meld " + "+".join(reversed([word.lower() for word in words]))
    assert _fitting(state, legal, typed) == [chosen]
    assert _fitting(state, legal, "p9 " + typed) == []  # (another seat's move is not this seat's)
