"""Conformance: every shipped ruleset and variant, and every game in tests/games/, plays whole matches with
random bots at the smallest, default and largest player counts, ending with a result for every seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset
from tests.play_helpers import play_out, random_choices
from tests.playthroughs_golden import ROOT, ruleset_files

MAX_ACTIONS = 20_000


@pytest.mark.parametrize("path", ruleset_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_ruleset_plays_whole_matches_with_random_bots(path: Path) -> None:
    game = load_ruleset(path)
    allowed = game.ruleset.players
    for players in sorted({allowed.minimum, allowed.default, allowed.maximum}):
        for seed in range(2):
            state = play_out(game.new_initial_state(seed=seed, players=players), random_choices(seed), MAX_ACTIONS)
            assert state.is_terminal, f"{players} players, seed {seed}: no end after {MAX_ACTIONS} actions"
            returns = state.returns()
            assert len(returns) == players and all(isinstance(value, int) for value in returns)
            assert state.hand_results
