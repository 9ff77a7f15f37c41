"""Playing a state on to its end in tests: one loop for every test that needs it."""

from __future__ import annotations

import random
from collections.abc import Callable

from interpreter import CHANCE
from interpreter.actions import Action
from interpreter.engine.state import State


def play_out(state: State, choose: Callable[[State], Action], actions: int) -> State:
    """Chance events shuffled by the state, decisions by `choose`, until the match ends or `actions` steps."""
    for _ in range(actions):
        if state.is_terminal:
            break
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(choose(state))
    return state


def random_choices(seed: int) -> Callable[[State], Action]:
    """A chooser of uniformly random legal actions, seeded."""
    rng = random.Random(seed)
    return lambda state: rng.choice(state.legal_actions())
