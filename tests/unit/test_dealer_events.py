"""A step that sets the dealer during a hand (the lowest card of a draw deals, a dealer picked at random) is an
event: the log, the seat logs and the transcript say who deals from then on, and `replay --verify` reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.runners.transcript import describe
from tests.cli_helpers import run_console

ROOT = Path(__file__).resolve().parents[2]
ANCHOR = "        - shuffle: stock\n"


def _game(tmp_path: Path, step: str) -> Path:
    text = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
    assert ANCHOR in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(ANCHOR, step + ANCHOR, 1), encoding="utf-8")
    return path


def test_a_dealer_set_in_the_hand_is_an_event_the_transcript_shows(tmp_path: Path) -> None:
    path = _game(tmp_path, "        - set: dealer\n          to: 2\n")
    state = load_ruleset(path).new_initial_state(seed=1, players=3)
    events = state.events
    assert events[0] == {"type": "hand", "hand": 1, "dealer": 0}  # (the dealer as the hand began)
    assert events[1] == {"type": "dealer", "dealer": 2}
    assert describe(events[1]) == "  The dealer is p2."
    assert state.values["dealer"] == 2 and state.observation(0)["dealer"] == 2


def test_a_dealer_picked_at_random_is_an_event_too(tmp_path: Path) -> None:
    path = _game(tmp_path, "        - random: dealer\n          from: seats()\n")
    state = load_ruleset(path).new_initial_state(seed=1, players=3)
    state.apply_chance("p1")
    assert {"type": "dealer", "dealer": 1} in state.events
    assert state.values["dealer"] == 1


def test_a_dealer_set_to_the_seat_dealing_already_is_no_event(tmp_path: Path) -> None:
    path = _game(tmp_path, "        - set: dealer\n          to: 0\n")
    state = load_ruleset(path).new_initial_state(seed=1, players=3)
    assert state.values["dealer"] == 0 and not [e for e in state.events if e["type"] == "dealer"]


def test_the_log_and_a_seat_log_hold_it_and_replay_verifies_it(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = _game(tmp_path, "        - set: dealer\n          to: 1\n")
    log, seat_log = tmp_path / "match.jsonl", tmp_path / "seat.jsonl"
    code, output = run_console(["play", str(path), "--players", "3", "--seed", "2", "--log", str(log),
                                "--log-seat", "0", str(seat_log)], capsys)
    assert code == 0, output
    assert "  The dealer is p1." in output
    for written in (log, seat_log):
        lines = [json.loads(line) for line in written.read_text(encoding="utf-8").splitlines()]
        # (three hands, each begun with the seat after p1 dealing, p0 the first: the step sets p1 in each)
        assert [line["dealer"] for line in lines if line["type"] == "dealer"] == [1, 1, 1]
    code, output = run_console(["replay", str(log), "--verify"], capsys)
    assert code == 0 and "verified" in output, output
