"""The heuristic bot plays every test game to its end: trick games, a rummy, a shedding game (where it once drew
for ever, since a player may draw instead of playing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import CHANCE, load_ruleset
from interpreter.agents.heuristic import HeuristicAgent

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "tests" / "games").glob("*.yaml"))
MAX_ACTIONS = 20_000


@pytest.mark.parametrize("path", GAMES, ids=[path.stem for path in GAMES])
def test_heuristic_bots_finish_a_match(path: Path) -> None:
    game = load_ruleset(path)
    state = game.new_initial_state(seed=3)
    agent = HeuristicAgent(3)
    for _ in range(MAX_ACTIONS):
        if state.is_terminal:
            break
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(agent.choose(state))
    assert state.is_terminal, f"no end after {MAX_ACTIONS} actions"
    assert state.ended_by != "hand_cap"
