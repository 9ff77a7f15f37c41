"""Bots: each picks one of the legal actions for the seat to play. `make_agent(kind, seed)` builds one; a kind
may carry options after colons (`search:400`, `search:2s`)."""

from __future__ import annotations

from interpreter.agents.base import Agent
from interpreter.agents.heuristic import HeuristicAgent
from interpreter.agents.random_agent import RandomAgent
from interpreter.agents.search import SearchAgent

AGENTS: dict[str, type[Agent]] = {"random": RandomAgent, "heuristic": HeuristicAgent, "search": SearchAgent}


def make_agent(kind: str, seed: int | None = None) -> Agent:
    """A bot of a kind (`random`, `heuristic`, `search`, `search:400`, `search:2s`), seeded so that a match
    replays exactly (no seed: seeded from the system, differently each time). Raises ValueError for an unknown
    kind or options it does not take. `make_agent("heuristic", 1).choose(state)` is its action at a decision."""
    name, *options = kind.split(":")
    if name not in AGENTS:
        raise ValueError(f"unknown bot {name!r}")
    return AGENTS[name].from_options(seed, options)


def check_kind(kind: str) -> str | None:
    """What is wrong with a bot kind (an unknown name, a bad option), or None."""
    try:
        make_agent(kind, 0)
    except ValueError as error:
        return str(error)
    return None


def timed_kinds(kinds: list[str]) -> list[str]:
    """The kinds among these whose choices depend on the time they take (`search:2s`), each once."""
    return [kind for kind in dict.fromkeys(kinds) if not make_agent(kind, 0).repeatable]


__all__ = ["AGENTS", "Agent", "HeuristicAgent", "RandomAgent", "SearchAgent", "check_kind", "make_agent", "timed_kinds"]
