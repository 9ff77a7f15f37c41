"""Conformance: every shipped ruleset and variant, and every game in tests/games/, plays whole matches with
random bots at the smallest, default and largest player counts, ending with a result for every seat."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import CHANCE, load_ruleset
from tests.playthroughs_golden import ROOT, ruleset_files

MAX_ACTIONS = 20_000


@pytest.mark.parametrize("path", ruleset_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_ruleset_plays_whole_matches_with_random_bots(path: Path) -> None:
    game = load_ruleset(path)
    allowed = game.ruleset.players
    for players in sorted({allowed.minimum, allowed.default, allowed.maximum}):
        for seed in range(2):
            state = game.new_initial_state(seed=seed, players=players)
            rng = random.Random(seed)
            for _ in range(MAX_ACTIONS):
                if state.is_terminal:
                    break
                if state.current_player == CHANCE:
                    state.apply_chance()
                else:
                    state.apply(rng.choice(state.legal_actions()))
            assert state.is_terminal, f"{players} players, seed {seed}: no end after {MAX_ACTIONS} actions"
            returns = state.returns()
            assert len(returns) == players and all(isinstance(value, int) for value in returns)
            assert state.hand_results
