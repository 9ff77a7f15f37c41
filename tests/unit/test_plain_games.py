"""The test games written in plain Python (benchmarks/plain/) stay the games their rulesets describe: the same
decisions with legal sets of the same sizes, and no engine behind them. benchmarks/games_speed.py times each one
beside the engine's run of its ruleset; a plain game that drifted from its ruleset would time other work."""

from __future__ import annotations

import ast
import random
import statistics
from pathlib import Path
from types import ModuleType

import pytest

from interpreter import CHANCE, load_ruleset
from tests.plain_helpers import load_plain

ROOT = Path(__file__).resolve().parents[2]
PLAIN = ROOT / "benchmarks" / "plain"
GAMES = sorted(path.stem for path in PLAIN.glob("*.py"))
DECISIONS = 4000


def _plain(name: str) -> ModuleType:
    return load_plain(PLAIN / f"{name}.py", f"plain_{name}")


def _engine_sizes(name: str, decisions: int, seed: int) -> list[int]:
    """Legal-set sizes of random play through the engine, as benchmarks/games_speed.py plays."""
    game = load_ruleset(ROOT / "tests" / "games" / f"{name}.yaml")
    rng = random.Random(seed)
    sizes: list[int] = []
    match = 0
    while len(sizes) < decisions:
        state = game.new_initial_state(seed=seed * 1000 + match)
        match += 1
        while not state.is_terminal and len(sizes) < decisions:
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            legal = state.legal_actions()
            sizes.append(len(legal))
            state.apply(legal[rng.randrange(len(legal))])
    return sizes


def test_the_plain_games_are_there() -> None:
    assert {"hearts", "scopa", "cribbage"} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_a_plain_game_has_a_ruleset_and_no_engine(name: str) -> None:
    assert (ROOT / "tests" / "games" / f"{name}.yaml").is_file()
    tree = ast.parse((PLAIN / f"{name}.py").read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "interpreter" not in imported


@pytest.mark.parametrize("name", GAMES)
def test_a_plain_game_decides_as_its_ruleset_does(name: str) -> None:
    """The same number of decisions made, legal sets of the same sizes (their mean and their spread), the same
    seed giving the same play: what random play of the ruleset gives, within its sampling noise."""
    module = _plain(name)
    sizes: list[int] = []
    assert module.play(DECISIONS, 1, sizes) == DECISIONS == len(sizes)
    again: list[int] = []
    module.play(DECISIONS, 1, again)
    assert again == sizes
    engine = _engine_sizes(name, DECISIONS, 1)
    # (a rummy's rare decisions with thousands of groups of melds swing the plain mean over a few thousand
    # decisions: the sizes are compared clipped, and by the share of each small size)
    assert statistics.mean(_clipped(sizes)) == pytest.approx(statistics.mean(_clipped(engine)), rel=0.1)
    for size in range(1, 11):
        assert sizes.count(size) / len(sizes) == pytest.approx(engine.count(size) / len(engine), abs=0.03), size
    assert statistics.median(sizes) == statistics.median(engine)
    assert min(sizes) == min(engine)


def _clipped(sizes: list[int], most: int = 40) -> list[int]:
    return [min(size, most) for size in sizes]
