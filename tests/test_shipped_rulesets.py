"""Every shipped ruleset and variant, and every test game, validates with no error and no warning."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import compile_ruleset

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted([*ROOT.glob("rulesets/**/*.yaml"), *ROOT.glob("tests/games/*.yaml")])


def test_the_project_ships_both_games() -> None:
    names = {path.name for path in SHIPPED}
    assert {"bourre.yaml", "burraco.yaml"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_ruleset_loads_cleanly(path: Path) -> None:
    ruleset = compile_ruleset(path)
    assert ruleset.warnings == ()
    assert ruleset.deck.size >= 1 and ruleset.expressions
