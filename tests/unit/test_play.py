"""`ruledeck play`: a whole match from the command line, its transcript, JSON result, log and replay; bad
arguments get one line naming what is allowed, and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from interpreter.cli import cli
from interpreter.runners.replay import replay

ROOT = Path(__file__).resolve().parents[2]
BOURRE = str(ROOT / "rulesets" / "bourre.yaml")


def _run(*arguments: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(arguments), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_a_match_is_played_with_a_readable_transcript() -> None:
    code, out, _ = _run("play", BOURRE, "--players", "5", "--seed", "4", "--set", "hands=2")
    assert code == 0
    assert out.startswith("Bourré: 5 players, seed 4 (replay with --seed 4)")
    assert "-- Hand 1, dealer p0 --" in out and "-- Hand 2, dealer p1 --" in out
    assert "trumps are" in out and "wins the trick" in out
    assert "Match over after 2 hands:" in out


def test_the_same_seed_plays_the_same_match() -> None:
    first = _run("play", BOURRE, "--seed", "9", "--set", "hands=2", "--bots", "random")
    second = _run("play", BOURRE, "--seed", "9", "--set", "hands=2", "--bots", "random")
    assert first == second and first[0] == 0


def test_json_result() -> None:
    code, out, _ = _run("play", BOURRE, "--players", "3", "--seed", "1", "--set", "hands=3", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["players"] == 3 and result["hands"] == 3 and len(result["returns"]) == 3
    assert len(result["hand_results"]) == 3


def test_the_log_is_a_replayable_record(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    code, out, _ = _run("play", BOURRE, "--players", "4", "--seed", "2", "--set", "hands=2", "--log", str(log),
                        "--json")
    assert code == 0
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["type"] == "match" and lines[-1]["type"] == "result"
    state = replay(log)
    assert state.is_terminal and state.returns() == json.loads(out)["returns"]


def test_a_log_cut_short_replays_its_prefix(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    _run("play", BOURRE, "--players", "4", "--seed", "2", "--set", "hands=1", "--log", str(log), "--json")
    lines = log.read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:25]) + "\n" + lines[25][:10], encoding="utf-8")
    state = replay(cut)
    assert not state.is_terminal
    assert len(state.history) == sum(1 for line in lines[:25] if json.loads(line)["type"] == "action")


def test_bad_arguments_exit_2_naming_what_is_allowed() -> None:
    code, _, err = _run("play", BOURRE, "--players", "9")
    assert code == 2 and "Bourré is for 2 to 8 players, not 9" in err
    code, _, err = _run("play", BOURRE, "--bots", "genius")
    assert code == 2 and "unknown bot 'genius'; bots: random, heuristic" in err
    code, _, err = _run("play", BOURRE, "--set", "pot_limit=0")
    assert code == 2 and "pot_limit: 0 is out of range: allowed an integer of at least 1, or null" in err
    code, _, err = _run("play", BOURRE, "--players", "3", "--human", "5")
    assert code == 2 and "--human: seats are 0 to 2" in err


def test_a_person_plays_a_seat_and_sees_only_their_view() -> None:
    answers = "\n".join(["1"] * 200) + "\n"
    code, out, _ = _run("play", BOURRE, "--players", "3", "--seed", "5", "--set", "hands=1", "--human", "0",
                        "--bots", "random", stdin=answers)
    assert code == 0
    assert "You are p0." in out and "hand (you):" in out
    assert "hand (p1):" in out  # the other hands show as counts, never cards
    for line in out.splitlines():
        if line.startswith("  hand (p1):") or line.startswith("  hand (p2):"):
            assert "cards" in line or "face up" in line


def test_a_person_can_stop_and_the_log_is_kept(tmp_path: Path) -> None:
    log = tmp_path / "stopped.jsonl"
    code, _, err = _run("play", BOURRE, "--players", "3", "--seed", "5", "--human", "1", "--log", str(log),
                        stdin="q\n")
    assert code == 130 and "Stopped." in err
    assert replay(log).history == []
