"""Bots: each picks one of the legal actions for the seat to play. `make_agent(kind, seed)` builds one."""

from __future__ import annotations

from interpreter.agents.base import Agent
from interpreter.agents.heuristic import HeuristicAgent
from interpreter.agents.random_agent import RandomAgent

AGENTS: dict[str, type[Agent]] = {"random": RandomAgent, "heuristic": HeuristicAgent}


def make_agent(kind: str, seed: int | None) -> Agent:
    """A bot of a kind (`random`, `heuristic`), seeded so that a match replays exactly."""
    return AGENTS[kind](seed)


__all__ = ["AGENTS", "Agent", "HeuristicAgent", "RandomAgent", "make_agent"]
