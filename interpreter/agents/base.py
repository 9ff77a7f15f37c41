"""What a bot is: something that picks a legal action for the seat whose turn it is."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interpreter.actions import Action
    from interpreter.engine.state import State


class Agent:
    """A bot with its own seeded random generator (never the state's, which deals the cards)."""

    name = "agent"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @classmethod
    def from_options(cls, seed: int | None, options: list[str]) -> Agent:
        """A bot from its kind's options (`search:400` gives ["400"]); most kinds take none."""
        if options:
            raise ValueError(f"{cls.name} takes no options, not {':'.join(options)!r}")
        return cls(seed)

    @property
    def repeatable(self) -> bool:
        """Whether the bot's choices follow from its seed and the state alone (not from the time it takes)."""
        return True

    def choose(self, state: State) -> Action:
        raise NotImplementedError


def lawful_actions(state: State) -> list[Action]:
    """The legal actions a bot that keeps the rules considers: those that break a clause (`breakable`) only when
    nothing else is legal."""
    legal = state.legal_actions()
    if state.breaking:
        legal = [action for action in legal if action not in state.breaking] or legal
    return legal
