"""Playing leaves no reference cycles behind: every object the engine makes for a decision (legal sets, the meld
search's groups, plans, bindings) is freed by reference counting as soon as it is dropped, never left for the
garbage collector to find. A cycle made per decision keeps whatever it refers to alive until a collection, so
that collections come more often and each costs more: a function nested in the search for groups of melds that
called itself through its closure once made about 18 such objects a decision in Canasta (a fifth of its time
went to collecting them). Random play of every test game and every bundled ruleset, with the collector's
unreachable objects kept (`gc.DEBUG_SAVEALL`) and counted."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from interpreter import CHANCE, Game, load_ruleset

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "tests" / "games").glob("*.yaml")) + sorted((ROOT / "rulesets").glob("*.yaml"))


@contextmanager
def garbage_kept() -> Iterator[list[object]]:
    """The collector off, and what it finds unreachable kept in `gc.garbage` (restored afterwards)."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()


def _play(game: Game, decisions: int, rng: random.Random) -> None:
    """Random play of `decisions` decisions, a new match whenever one ends."""
    seed = 0
    state = game.new_initial_state(seed=seed)
    while decisions > 0:
        if state.is_terminal:
            seed += 1
            state = game.new_initial_state(seed=seed)
        elif state.current_player == CHANCE:
            state.apply_chance()
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            decisions -= 1


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_random_play_leaves_no_reference_cycles(path: Path) -> None:
    game = load_ruleset(path)
    _play(game, 100, random.Random(0))  # (what is made once, on first use, is made before the count)
    with garbage_kept() as garbage:
        _play(game, 600, random.Random(path.stem))
        gc.collect()
        found = len(garbage), sorted({type(item).__name__ for item in garbage})
    assert found == (0, []), f"{found[0]} objects in reference cycles: {found[1]}"
