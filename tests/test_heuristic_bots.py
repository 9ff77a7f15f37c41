"""The heuristic bot plays every test game to its end: trick games, a rummy, a shedding game (where it once drew
for ever, since a player may draw instead of playing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.agents.heuristic import HeuristicAgent
from tests.play_helpers import play_out

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "tests" / "games").glob("*.yaml"))
MAX_ACTIONS = 20_000


@pytest.mark.parametrize("path", GAMES, ids=[path.stem for path in GAMES])
def test_heuristic_bots_finish_a_match(path: Path) -> None:
    game = load_ruleset(path)
    state = play_out(game.new_initial_state(seed=3), HeuristicAgent(3).choose, MAX_ACTIONS)
    assert state.is_terminal, f"no end after {MAX_ACTIONS} actions"
    assert state.ended_by != "hand_cap"
