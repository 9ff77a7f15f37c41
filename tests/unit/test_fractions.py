"""Results that are fractions: `/` divides exactly, a `num` variable holds fractions, and `match.result` may be
one; returns, events, logs, JSON, transcripts and statistics carry them (docs/ruleset-format.md, variables and
match)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from interpreter import CHANCE, load_ruleset
from interpreter.cli import cli
from interpreter.errors import RulesetError
from interpreter.numbers import divide, number_text, plain_number, signed

RULESET = """
format: 1
name: Half shares
players: {min: 2, max: 3, default: 3}
deck: {ranks: [2, 3, 4], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
variables:
  - {name: score, type: num, per: seat, initial: 0, lasts: match}
  - {name: pot, type: num, initial: 5, lasts: match}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - deal: 1
          from: stock
          to: hand
        - for_each: seats()
          do:
            - change: score
              by: pot / player_count()
            - log: "p{player} has {score}"
        - transfer: 1 / 2
          from: pot
          to: score[dealer]
      next: end
match:
  hands: 2
  result: score[player]
metrics:
  pot: pot
"""


def _path(tmp_path: Path, text: str = RULESET) -> Path:
    path = tmp_path / "half.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _played(tmp_path: Path):  # type: ignore[no-untyped-def]
    state = load_ruleset(_path(tmp_path)).new_initial_state(seed=1)
    while not state.is_terminal:
        assert state.current_player == CHANCE
        state.apply_chance()
    return state


def test_results_are_exact_fractions(tmp_path: Path) -> None:
    state = _played(tmp_path)
    # hand 1: 5/3 each, and the dealer p0 takes 1/2 of the pot; hand 2: 3/2 each (pot 9/2), p1 takes 1/2.
    assert state.returns() == [Fraction(5, 3) + Fraction(1, 2) + Fraction(3, 2), Fraction(5, 3) + 2,
                               Fraction(5, 3) + Fraction(3, 2)]
    assert state.returns()[1] == Fraction(11, 3)


def test_events_and_views_write_fractions_as_exact_text(tmp_path: Path) -> None:
    state = _played(tmp_path)
    ends = [event for event in state.events if event["type"] == "hand_end"]
    assert ends[0]["result"] == ["13/6", "5/3", "5/3"]
    json.dumps(state.events)  # every event is JSON
    view = state.observation(0)
    assert view["variables"]["pot"] == 4 and view["variables"]["score"] == ["11/3", "11/3", "19/6"]
    assert any(event.get("text") == "p0 has 5/3" for event in state.events)


def test_number_texts() -> None:
    assert [number_text(value) for value in (3, Fraction(7, 2), Fraction(-1, 4), Fraction(1, 3), Fraction(4, 2))] \
        == ["3", "3.5", "-0.25", "1/3", "2"]
    assert plain_number(Fraction(6, 3)) == 2 and plain_number(Fraction(5, 2)) == "2.5"
    assert [signed(5), signed(-2), signed("2.5"), signed(0)] == ["+5", "-2", "+2.5", "+0"]


def test_play_json_replay_and_simulate_carry_fractions(tmp_path: Path) -> None:
    path, log = _path(tmp_path), tmp_path / "half.jsonl"
    runner = CliRunner()
    played = runner.invoke(cli, ["play", str(path), "--seed", "1", "--json", "--log", str(log)])
    assert played.exit_code == 0, played.output
    result = json.loads(played.output)
    assert result["returns"] == ["11/3", "11/3", "19/6"] and result["winners"] == [0, 1]
    replayed = runner.invoke(cli, ["replay", str(log), "--verify"])
    assert replayed.exit_code == 0 and "p2 +19/6" in replayed.output, replayed.output
    text = runner.invoke(cli, ["play", str(path), "--seed", "1"]).output
    assert "After hand 1: p0 +13/6, p1 +5/3, p2 +5/3" in text
    simulated = runner.invoke(cli, ["simulate", str(path), "-n", "4", "--json"])
    assert simulated.exit_code == 0, simulated.output
    assert "3.66" in simulated.output  # p0's mean result, 11/3, as a float


@pytest.mark.parametrize(("old", "new", "message"), [
    ("type: num, per: seat", "type: int, per: seat",
     "the change must be int, not num"),
    ("by: pot / player_count()", "by: pot // player_count()",
     "`//` needs two whole numbers, not num and int"),
    ("result: score[player]", "result: \"'x'\"", "`match.result` must be num, not str"),
])
def test_fractions_are_checked(tmp_path: Path, old: str, new: str, message: str) -> None:
    with pytest.raises(RulesetError) as raised:
        load_ruleset(_path(tmp_path, RULESET.replace(old, new)))
    assert message in [diagnostic.message for diagnostic in raised.value.diagnostics]


def test_observation_vectors_read_fractions_as_floats(tmp_path: Path) -> None:
    from interpreter.interop.features import ObservationEncoder

    state = _played(tmp_path)
    vector = ObservationEncoder(state.game, state.player_count).encode(state.observation(0))
    assert pytest.approx(11 / 3) in vector and pytest.approx(19 / 6) in vector


@given(numerator=st.integers(min_value=-10**6, max_value=10**6) | st.fractions(max_denominator=50),
       denominator=(st.integers(min_value=-1000, max_value=1000) | st.fractions(max_denominator=50)).filter(bool))
def test_a_quotient_is_exact_and_whole_when_it_divides(numerator: int | Fraction, denominator: int | Fraction) -> None:
    quotient = divide(numerator, denominator)
    assert quotient == Fraction(numerator) / Fraction(denominator)
    assert (quotient.__class__ is int) == ((Fraction(numerator) / Fraction(denominator)).denominator == 1)
