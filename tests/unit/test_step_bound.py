"""A ruleset whose loop never reaches a decision is stopped with an error at the loop's place in the file,
however the loop is written: a `repeat` of steps that never stop the game (it ran for ever), a `repeat while`,
and phases that lead back to each other."""

from __future__ import annotations

from pathlib import Path

import pytest

import interpreter.engine.game
from interpreter.engine.errors import RulesetRuntimeError
from tests.play_helpers import game_from_text

ROOT = Path(__file__).resolve().parents[2]
TINY = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
BOUND = 2_000  # (a small bound for the test; the engine's is five million)


@pytest.fixture(autouse=True)
def small_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interpreter.engine.game, "MAX_STEPS", BOUND)


def _stopped(tmp_path: Path, old: str, new: str) -> RulesetRuntimeError:
    assert old in TINY
    game = game_from_text(tmp_path, TINY.replace(old, new), name="loop.yaml")  # (a test reads it back)
    state = game.new_initial_state(seed=1, players=2)
    with pytest.raises(RulesetRuntimeError) as raised:
        state.apply_chance()  # the deal, then the loop
    return raised.value


def test_a_repeat_of_steps_with_no_decision_is_stopped_at_the_repeat(tmp_path: Path) -> None:
    error = _stopped(tmp_path, "        - set: trump\n          to: last(hand[dealer]).suit",
                     "        - set: trump\n          to: last(hand[dealer]).suit\n"
                     "        - repeat: 1000000000\n          do:\n            - set: trump\n"
                     "              to: last(hand[dealer]).suit")
    assert f"more than {BOUND:,} steps without a decision" in str(error)
    assert error.where == "hand.phases[0].steps[3]"
    lines = (tmp_path / "loop.yaml").read_text(encoding="utf-8").splitlines()
    repeat_line = next(number for number, text in enumerate(lines, 1) if text.startswith("        - repeat:"))
    assert error.location is not None and error.location.line == repeat_line
    assert f"loop.yaml:{repeat_line}:" in error.render()


def test_a_repeat_while_that_always_holds_is_stopped(tmp_path: Path) -> None:
    error = _stopped(tmp_path, "        - set: trump\n          to: last(hand[dealer]).suit",
                     "        - set: trump\n          to: last(hand[dealer]).suit\n"
                     "        - repeat: while\n          while: \"true\"\n          do:\n            - set: trump\n"
                     "              to: last(hand[dealer]).suit")
    assert error.where == "hand.phases[0].steps[3]"


def test_phases_that_lead_back_to_each_other_are_stopped_at_a_phase(tmp_path: Path) -> None:
    error = _stopped(tmp_path, "      next: play\n    - name: play",
                     "      next: again\n    - name: again\n      steps: []\n      next: back\n"
                     "    - name: back\n      steps: []\n      next:\n        - if: size(stock) > 100\n"
                     "          goto: play\n        - goto: again\n    - name: play")
    assert f"more than {BOUND:,} steps" in str(error)
    assert error.where in ("hand.phases[1].next", "hand.phases[2].next")
    assert error.location is not None
