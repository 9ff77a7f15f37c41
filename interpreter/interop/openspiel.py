"""A ruleset as an OpenSpiel game (the optional extra `ruledeck[openspiel]`): a Python game registered with
`pyspiel.register_game` as `python_ruledeck`.

    from interpreter.interop.openspiel import load_game
    game = load_game("my_game.yaml", params={"hands": 1}, players=3)
    state = game.new_initial_state()

Actions have the ids of interop/catalogue.py, the same as the PettingZoo environment's. A shuffle is a run of
chance nodes, one per card: each outcome is the id of the next card of the new order (top card first), with
probability (copies of that card left) / (cards left); once every card is placed, the order is applied
(`state.apply_chance(order)`). A value picked at random (a `random` step) is one chance node whose outcomes
are the indexes of the values in the ruleset's list, with their weights' probabilities. Returns are each seat's
match result (`state.returns()`) at the end, 0 before.
Observations: a string (the seat's `observation(seat)` as JSON) and a tensor (interop/features.py). The
information state adds to the observation string every action of the match as the seat saw it (an action
hidden from the seat shows only who acted); its tensor is the observation tensor.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as missing:  # (an optional extra: say which)
    raise ImportError(f"the OpenSpiel adapter needs its extra: pip install 'ruledeck[openspiel]' "
                      f"({missing})") from missing

from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.interop.catalogue import DEFAULT_SLOTS, ActionCatalogue
from interpreter.interop.features import ObservationEncoder
from interpreter.loader import load_ruleset

SHORT_NAME = "python_ruledeck"
UTILITY_BOUND = 1e9  # results are the ruleset's own numbers: no tighter bound is known in advance
MAX_GAME_LENGTH = 1_000_000  # a bound for tools that need one (the engine ends every match: DESIGN.md)


def load_game(path: str | os.PathLike[str], params: dict[str, Any] | None = None,
              players: int | None = None, *, slots: int = DEFAULT_SLOTS) -> RuledeckGame:
    """The OpenSpiel game of a ruleset (a file or a bundled name) with its parameters and player count, and
    `slots` numbered ids for the actions that have no fixed one (a rummy's melds: interop/catalogue.py)."""
    game = pyspiel.load_game(SHORT_NAME, {"path": str(path), "players": players or 0,
                                          "params": json.dumps(params or {}, sort_keys=True), "slots": slots})
    assert isinstance(game, RuledeckGame)
    return game


def _game_type(minimum: int = 1, maximum: int = 64) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME, long_name="ruledeck ruleset",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=maximum, min_num_players=minimum,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"path": "", "players": 0, "params": "{}", "slots": DEFAULT_SLOTS})


class Shared:
    """What every state of one game reads and never changes (a state's copies share it)."""

    def __init__(self, engine: Game, players: int, slots: int = DEFAULT_SLOTS) -> None:
        self.engine = engine
        self.players = players
        self.catalogue = ActionCatalogue(engine, slots=slots)
        self.encoder = ObservationEncoder(engine, players)

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


class RuledeckGame(pyspiel.Game):  # type: ignore[misc]  # (pyspiel is untyped)
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {"path": "", "players": 0, "params": "{}", "slots": DEFAULT_SLOTS, **(params or {})}
        if not params["path"]:
            raise ValueError(f"{SHORT_NAME} plays a ruleset: give its file or bundled name as `path`")
        if int(params["slots"]) < 1:
            raise ValueError(f"{SHORT_NAME}: `slots` is a number of ids, at least 1, not {params['slots']}")
        engine = load_ruleset(str(params["path"]), params=json.loads(str(params["params"])))
        allowed = engine.ruleset.players
        players = int(params["players"]) or allowed.default
        engine.new_initial_state(seed=0, players=players)  # refuses a player count the game is not for
        self.shared = Shared(engine, players, int(params["slots"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.shared.catalogue.size, max_chance_outcomes=self.shared.catalogue.card_count,
            num_players=players, min_utility=-UTILITY_BOUND, max_utility=UTILITY_BOUND, utility_sum=None,
            max_game_length=MAX_GAME_LENGTH)
        super().__init__(_game_type(allowed.minimum, allowed.maximum), info, params)

    def new_initial_state(self) -> RuledeckState:
        return RuledeckState(self, self.shared.engine.new_initial_state(seed=0, players=self.shared.players))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return Observer(self.shared, with_history=perfect_recall)


class Progress:
    """The engine's state and the shuffle in progress: the order chosen so far and the cards still to place.
    Copied with the engine's own `clone()` (OpenSpiel copies a state's attributes with `copy.deepcopy`)."""

    def __init__(self, state: State, order: list[int] | None = None, remaining: Counter[int] | None = None) -> None:
        self.state = state
        self.order = order or []
        self.remaining: Counter[int] = remaining if remaining is not None else Counter()

    def __deepcopy__(self, memo: dict[int, Any]) -> Progress:
        return Progress(self.state.clone(), list(self.order), Counter(self.remaining))

    def settle(self) -> None:
        """At a new shuffle, learn the cards it orders (from a copy shuffled once); shuffles of no card or one
        are applied at once: they have no outcome to choose."""
        state = self.state
        while state.is_chance_node and not self.order and not self.remaining:
            if state.chance is not None and state.chance[0] is None:  # a value picked at random: its outcomes
                return  # are the indexes of the values (see `outcomes`)
            trial = state.clone()
            before = trial.event_count
            trial.apply_chance()
            shuffled = next(event for event in trial.events_since(before) if event["type"] == "chance")
            cards = [state.game.deck.parse_card(text) for text in shuffled["order"]]
            if len(cards) > 1:
                self.remaining = Counter(cards)
                return
            state.apply_chance(cards)

    def outcomes(self) -> list[tuple[int, float]]:
        """The chance outcomes now: the cards that may come next in a shuffle, or the values of a pick (by their
        index in the ruleset's list), each with its probability."""
        chance = self.state.chance
        if chance is not None and chance[0] is None:
            values, weights = chance[2], chance[3]
            total = sum(weights) if weights is not None else len(values)
            return [(index, (weights[index] if weights is not None else 1) / total) for index in range(len(values))
                    if weights is None or weights[index] > 0]
        total = sum(self.remaining.values())
        return [(card, count / total) for card, count in sorted(self.remaining.items())]

    def resolve(self, outcome: int) -> None:
        chance = self.state.chance
        if chance is not None and chance[0] is None:
            self.state.apply_chance(chance[2][outcome])
            self.settle()
        else:
            self.place(outcome)

    def place(self, card: int) -> None:
        self.order.append(card)
        self.remaining[card] -= 1
        if not self.remaining[card]:
            del self.remaining[card]
        if not self.remaining:
            order, self.order = self.order, []
            self.state.apply_chance(order)
        self.settle()


class RuledeckState(pyspiel.State):  # type: ignore[misc]  # (pyspiel is untyped)
    def __init__(self, game: RuledeckGame, state: State) -> None:
        super().__init__(game)
        self.shared = game.shared
        self.progress = Progress(state)
        self.progress.settle()

    @property
    def engine_state(self) -> State:
        """The ruledeck state this OpenSpiel state wraps."""
        return self.progress.state

    def current_player(self) -> int:
        state = self.progress.state
        if state.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if state.is_chance_node:
            return int(pyspiel.PlayerId.CHANCE)
        return state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        state = self.progress.state
        if state.is_terminal or state.is_chance_node or player != state.current_player:
            return []
        return sorted(self.shared.catalogue.legal_by_id(state.legal_actions()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.progress.outcomes()

    def _apply_action(self, action: int) -> None:
        progress = self.progress
        if progress.state.is_chance_node:
            progress.resolve(action)
            return
        legal = self.shared.catalogue.legal_by_id(progress.state.legal_actions())
        progress.state.apply(legal[action])
        progress.settle()

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.progress.state
        if player == pyspiel.PlayerId.CHANCE:
            chance = state.chance
            if chance is not None and chance[0] is None and 0 <= action < len(chance[2]):
                return f"pick {state.shown(chance[2][action], chance[4])}"
            return f"deal {state.card_text(action)}"
        if not state.is_terminal and not state.is_chance_node and player == state.current_player:
            chosen = self.shared.catalogue.legal_by_id(state.legal_actions()).get(action)
            if chosen is not None:
                return state.action_text(chosen)
        return f"p{player} {self.shared.catalogue.describe(action)}"

    def is_terminal(self) -> bool:
        return self.progress.state.is_terminal

    def returns(self) -> list[float]:
        state = self.progress.state
        if not state.is_terminal:
            return [0.0] * self.shared.players
        return [float(result) for result in state.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RuledeckState:
        """A state the seat cannot tell from this one: every card it cannot see dealt again at random."""
        rng = random.Random(probability_sampler())
        return resample(self, player_id, rng)

    def __str__(self) -> str:
        state = self.progress.state
        return "\n".join(state.action_text(action) for action in state.history[-20:])


def resample(state: RuledeckState, player: int, rng: random.Random) -> RuledeckState:
    """`state` with every card `player` cannot see dealt again at random (for IS-MCTS: `bot.set_resampler`)."""
    if state.is_chance_node():
        raise ValueError("a state is resampled at a decision, not in the middle of a shuffle")
    copy = state.clone()
    copy.progress.state = state.engine_state.resample(player, rng)
    return copy  # type: ignore[no-any-return]


class Observer:
    """A seat's observation (with_history=False) or information state (True), as a string and a tensor."""

    def __init__(self, shared: Shared, *, with_history: bool) -> None:
        self.shared = shared
        self.with_history = with_history
        self.tensor = np.zeros(shared.encoder.size, np.float32)
        self.dict = {part.name: self.tensor[part.start:part.start + part.width] for part in shared.encoder.parts}

    def set_from(self, state: RuledeckState, player: int) -> None:
        self.tensor[:] = self.shared.encoder.encode(state.engine_state.observation(player))

    def string_from(self, state: RuledeckState, player: int) -> str:
        engine_state = state.engine_state
        text = json.dumps(engine_state.observation(player), sort_keys=True)
        if not self.with_history:
            return text
        return "\n".join([text, *seen_history(engine_state, player)])


def seen_history(state: State, seat: int) -> list[str]:
    """The match's hands and actions as one seat saw them (not the shuffles' orders, which no seat sees)."""
    lines = []
    for event in state.events:
        kind = event["type"]
        if kind == "action":
            hidden = seat in event.get("secret_from", ())
            lines.append(f"p{event['seat']} (hidden)" if hidden else event["action"])
        elif kind == "reveal":
            lines.append(f"revealed {event['action']}")
        elif kind == "hand":
            lines.append(f"hand {event['hand']} dealer p{event['dealer']}")
    return lines


pyspiel.register_game(_game_type(), RuledeckGame)
