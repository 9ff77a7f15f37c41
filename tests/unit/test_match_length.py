"""A match set to last more hands than any match may (a parameter given a number far too large, a stray zero
or ten) stops with an error at `match.hands` rather than running for ever."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.match import MOST_HANDS

ROOT = Path(__file__).resolve().parents[2]


def _unbounded(tmp_path: Path) -> Path:
    text = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
    bounded = "min: 1, max: 100, description: Hands in a match.}"
    assert bounded in text
    path = tmp_path / "long.yaml"
    path.write_text(text.replace(bounded, "min: 1, description: Hands in a match.}"), encoding="utf-8")
    return path


def _play(state: object) -> None:
    while not state.is_terminal:  # type: ignore[attr-defined]
        if state.current_player < 0:  # type: ignore[attr-defined]
            state.apply_chance()  # type: ignore[attr-defined]
        else:
            state.apply(state.legal_actions()[0])  # type: ignore[attr-defined]


def test_more_hands_than_a_match_may_last_is_an_error_at_match_hands(tmp_path: Path) -> None:
    game = load_ruleset(_unbounded(tmp_path), {"hands": 10 * MOST_HANDS})
    with pytest.raises(RulesetRuntimeError) as raised:
        _play(game.new_initial_state(seed=1, players=2))
    assert raised.value.where == "match.hands" and "10,000,000 hands" in str(raised.value)


def test_a_long_match_within_the_bound_is_played() -> None:
    state = load_ruleset(ROOT / "tests" / "games" / "tiny.yaml", {"hands": 4}).new_initial_state(seed=1, players=2)
    _play(state)
    assert state.values["hand_number"] == 4


def test_a_constant_length_too_large_is_refused_before_the_first_hand(tmp_path: Path) -> None:
    """The parameter's number is known when the match starts: no hand is played (and nothing a person plays is
    lost) before the refusal, which points at the line of the ruleset that reads it."""
    game = load_ruleset(_unbounded(tmp_path), {"hands": 10**30})
    with pytest.raises(RulesetRuntimeError) as raised:
        game.new_initial_state(seed=1, players=2)
    assert raised.value.where == "match.hands" and raised.value.location is not None
    assert raised.value.location.line == next(number for number, line in enumerate(
        (tmp_path / "long.yaml").read_text(encoding="utf-8").splitlines(), 1) if "params.hands" in line)
