"""The random bot: a uniformly random legal action."""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.agents.base import Agent

if TYPE_CHECKING:
    from interpreter.actions import Action
    from interpreter.engine.state import State


class RandomAgent(Agent):
    name = "random"

    def choose(self, state: State) -> Action:
        return self.rng.choice(state.legal_actions())
