"""Short matches for the adapters' tests: every ruleset at its smallest player count, with the parameters that
bound a match (`hands`, `hand_cap`, `target`) at their least. Each ruleset is loaded once per test run."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from interpreter import Game, load_ruleset
from tests.playthroughs_golden import ROOT, ruleset_files

BOUNDING = ("hands", "hand_cap", "target")


@cache
def quick_game(path: Path) -> Game:
    """The ruleset with the parameters that make a match short: one hand, or the lowest target."""
    declared = load_ruleset(path).ruleset.parameters
    return load_ruleset(path, params=quick_params(declared))


def quick_params(declared: Any) -> dict[str, Any]:
    return {name: max(declared[name].minimum or 1, 1) for name in BOUNDING if name in declared}


def smallest_table(game: Game) -> int:
    return game.ruleset.players.minimum


def relative_name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


__all__ = ["quick_game", "relative_name", "ruleset_files", "smallest_table"]
