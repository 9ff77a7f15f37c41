"""A ruleset as a PettingZoo AEC environment (the optional extra `ruledeck[pettingzoo]`).

    from interpreter.interop.pettingzoo import env
    table = env("my_game.yaml", params={"hands": 1}, players=4)
    table.reset(seed=7)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, info = table.last()
        mask = observation["action_mask"]
        table.step(None if termination or truncation else table.action_space(agent).sample(mask))

Agents are `player_0` ... `player_{n-1}`, one per seat. An observation is a dict: `observation`, the seat's
view as a fixed-size float32 vector (interop/features.py), and `action_mask`, an int8 vector over the action
ids (interop/catalogue.py) with 1 at each legal action of that seat now. Shuffles are chance events resolved
inside the environment by the match's own generator, seeded by `reset(seed=...)`. The reward after each step
is the change of each seat's match result (`state.returns()`) since the step before; the first step's reward
also holds what happened before the first decision (antes, say) and `reset` gives none, so an agent's rewards
over a match add up to its final result. A match always ends (the engine guarantees it): nothing is truncated.

There is no `parallel_env`: in a card game one seat acts at a time, and the engine takes even a simultaneous
round one seat at a time (each choice hidden until all are revealed), so every step has exactly one agent.
"""

from __future__ import annotations

import os
import random
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as missing:  # (an optional extra: say which)
    raise ImportError(f"the PettingZoo adapter needs its extra: pip install 'ruledeck[pettingzoo]' "
                      f"({missing})") from missing

from interpreter.actions import Action
from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.interop.catalogue import DEFAULT_SLOTS, ActionCatalogue
from interpreter.interop.features import ObservationEncoder
from interpreter.loader import load_ruleset

RENDER_MODES = ["human", "ansi"]


def env(path: str | os.PathLike[str], params: dict[str, Any] | None = None, players: int | None = None,
        render_mode: str | None = None, *, slots: int = DEFAULT_SLOTS) -> RuledeckEnvironment:
    """The AEC environment of a ruleset (a file or a bundled name) with its parameters and player count. It is
    not wrapped: it refuses an illegal id itself, naming the legal ones."""
    return RuledeckEnvironment(load_ruleset(os.fspath(path), params=params), players=players, render_mode=render_mode,
                               slots=slots)


class RuledeckEnvironment(AECEnv):  # type: ignore[misc]  # (pettingzoo is untyped)
    def __init__(self, game: Game, *, players: int | None = None, render_mode: str | None = None,
                 slots: int = DEFAULT_SLOTS) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: expected one of {', '.join(RENDER_MODES)}")
        self.game = game
        self.player_count = game.ruleset.players.default if players is None else players
        game.new_initial_state(seed=0, players=self.player_count)  # refuses a player count the game is not for
        self.render_mode = render_mode
        self.catalogue = ActionCatalogue(game, slots=slots)
        self.encoder = ObservationEncoder(game, self.player_count)
        self.metadata = {"render_modes": RENDER_MODES, "name": f"ruledeck_{game.name}_v0", "is_parallelizable": False}
        self.possible_agents = [f"player_{seat}" for seat in range(self.player_count)]
        self.agents = list(self.possible_agents)
        vector = spaces.Box(low=-np.inf, high=np.inf, shape=(self.encoder.size,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(self.catalogue.size,), dtype=np.int8)
        self.observation_spaces = {agent: spaces.Dict({"observation": vector, "action_mask": mask})
                                   for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.catalogue.size) for agent in self.possible_agents}
        self.state: State | None = None
        self.legal: dict[int, Action] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self.state = self.game.new_initial_state(seed=seed, players=self.player_count)
        self.agents = list(self.possible_agents)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        # (from 0: what happens before the first decision, antes say, comes with the first step's rewards)
        self._results = [0.0] * self.player_count
        self._go_on()

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        state = self._running()
        chosen = self.legal.get(int(action)) if action is not None else None
        if chosen is None:
            raise ValueError(f"{self.agent_selection}: action {action} is not legal now; legal ids: "
                             f"{sorted(self.legal)}")
        self._cumulative_rewards[self.agent_selection] = 0.0
        state.apply(chosen)
        self._go_on()
        results = [float(result) for result in state.returns()]
        self.rewards = {agent: results[seat] - self._results[seat] for seat, agent in enumerate(self.agents)}
        self._results = results
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        state = self._running()
        seat = self.possible_agents.index(agent)
        vector = np.asarray(self.encoder.encode(state.observation(seat)), dtype=np.float32)
        mask = np.zeros(self.catalogue.size, dtype=np.int8)
        if state.current_player == seat:
            mask[list(self.legal)] = 1
        return {"observation": vector, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self._running()
        lines = [f"{event['action']}" for event in state.events[-8:] if event["type"] == "action"]
        lines.append(f"to play: {self.agent_selection}; results: {state.returns()}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def action_text(self, action_id: int) -> str:
        """The legal action an id stands for now, in its text form (`p2 play AH`), or what the id means."""
        chosen = self.legal.get(action_id)
        return self._running().action_text(chosen) if chosen is not None else self.catalogue.describe(action_id)

    def _running(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state

    def _go_on(self) -> None:
        """Resolve chance events, then select the seat to act (every agent terminated at the end)."""
        state = self._running()
        while state.is_chance_node:
            state.apply_chance()
        if state.is_terminal:
            self.legal = {}
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
            return
        self.legal = self.catalogue.legal_by_id(state.legal_actions())
        self.agent_selection = self.possible_agents[state.current_player]
