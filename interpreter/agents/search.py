"""The search bot: determinised Monte Carlo search over the ruleset's own legal actions, for any ruleset.

At each decision with more than one legal action it spends a budget of iterations (and, if given, of seconds).
Each iteration picks one candidate action by UCB1 (every candidate once first, then the one whose mean gain plus
an allowance for being tried less often is highest), deals the cards its seat cannot see again at random with
`State.resample` (consistently with everything the seat has seen: it never reads a hidden card), plays the
action and then every seat's moves with a cheap policy (the heuristic bot's habits without its playouts) to the
end of the hand, and scores the seat's gain in the ruleset's own result (`State.returns()`: chips, points, a
team's score), so the size of what is at stake counts, not only who wins. It plays the candidate with the best
mean gain.

A decision among many actions (a rummy turn, a choice of several cards) is bounded: at most `width` candidates
(a tenth of the iterations, at least 2), the cheap policy's own choice and the plain options (no arguments:
pass, stay) first, the rest drawn at random.

On the command line: `search` (DEFAULT_ITERATIONS iterations per decision), `search:400` (400 iterations),
`search:2s` (as many as two seconds of CPU allow), `search:400:2s` (whichever ends first). A budget in
iterations alone makes a match replay exactly from its seed; one in seconds depends on the machine.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from interpreter.agents.base import Agent, lawful_actions
from interpreter.agents.heuristic import HeuristicAgent
from interpreter.engine.state import CHANCE

if TYPE_CHECKING:
    from interpreter.actions import Action
    from interpreter.engine.state import State

DEFAULT_ITERATIONS = 200
PLAYOUT_ACTIONS = 400  # a playout stops at the end of the hand, or after this many actions
EXPLORATION = 0.7  # UCB1's allowance, in units of the spread of the gains seen so far


class PlayoutPolicy(HeuristicAgent):
    """The heuristic bot's habits (cheapest winning card, lowest discard, rummy melds), with its choices by
    playouts replaced by a random choice: cheap enough to play out thousands of hands."""

    name = "playout"

    def _by_playouts(self, state: State, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


class SearchAgent(Agent):
    name = "search"

    def __init__(self, seed: int | None = None, iterations: int | None = DEFAULT_ITERATIONS,
                 seconds: float | None = None) -> None:
        super().__init__(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.policy = PlayoutPolicy(self.rng.getrandbits(64))
        self.decisions = 0  # the decisions searched (more than one legal action), and the CPU time they took
        self.cpu_seconds = 0.0

    @classmethod
    def from_options(cls, seed: int | None, options: list[str]) -> SearchAgent:
        """`search:400`, `search:2s`, `search:400:2s` (see the module's docstring)."""
        iterations: int | None = None
        seconds: float | None = None
        for option in options:
            try:
                if option.endswith("s"):
                    seconds = float(option[:-1])
                    if not seconds > 0:
                        raise ValueError(option)
                else:
                    iterations = int(option)
                    if iterations < 1:
                        raise ValueError(option)
            except ValueError:
                raise ValueError(f"search takes a number of iterations and/or seconds (search:400, search:2s, "
                                 f"search:400:2s), not {option!r}") from None
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        return cls(seed, iterations, seconds)

    def choose(self, state: State) -> Action:
        legal = lawful_actions(state)  # (it keeps the rules)
        if len(legal) == 1:
            return legal[0]
        started = time.process_time()
        try:
            return self._search(state, legal, started)
        finally:
            self.decisions += 1
            self.cpu_seconds += time.process_time() - started

    def _search(self, state: State, legal: list[Action], started: float) -> Action:
        seat = state.current_player
        candidates = self._candidates(state, seat, legal)
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        low, high = math.inf, -math.inf
        budget = self.iterations if self.iterations is not None else math.inf
        done = 0
        while done < budget and (done < len(candidates) or self.seconds is None
                                 or time.process_time() - started < self.seconds):
            if done < len(candidates):
                arm = done
            else:
                spread = (high - low) or 1.0
                log_done = math.log(done)
                arm = max(range(len(candidates)), key=lambda i: totals[i] / counts[i] + EXPLORATION * spread *
                          math.sqrt(log_done / counts[i]))
            gain = self._playout(state, seat, candidates[arm])
            totals[arm] += gain
            counts[arm] += 1
            low, high = min(low, gain), max(high, gain)
            done += 1
        best = max(range(len(candidates)), key=lambda i: (totals[i] / counts[i] if counts[i] else -math.inf, -i))
        return candidates[best]

    def width(self) -> int:
        """The most candidates a decision weighs."""
        if self.iterations is None:
            return 16
        return max(2, self.iterations // 10)

    def _candidates(self, state: State, seat: int, legal: list[Action]) -> list[Action]:
        """The actions weighed: all of them, or (many) the cheap policy's choice, the plain options, and others
        drawn at random. The policy chooses on a copy dealt again, so that not even it reads a hidden card."""
        width = self.width()
        if len(legal) <= width:
            return legal
        probe = state.resample(seat, self.rng)
        first = [self.policy.choose(probe)]
        chosen = [action for action in first if action in legal]
        chosen += [action for action in legal if not action.arguments and action not in chosen][:width - len(chosen)]
        rest = [action for action in legal if action not in chosen]
        drawn = set(self.rng.sample(range(len(rest)), max(0, width - len(chosen))))
        return chosen + [action for index, action in enumerate(rest) if index in drawn]

    def _playout(self, state: State, seat: int, action: Action) -> float:
        trial = state.resample(seat, self.rng)
        before = trial.returns()[seat]
        hand = trial.values["hand_number"]
        trial.apply(action)
        policy = self.policy
        for _ in range(PLAYOUT_ACTIONS):
            if trial.terminal or trial.values["hand_number"] != hand:
                break
            if trial.current_player == CHANCE:
                trial.apply_chance()
            else:
                trial.apply(policy.choose(trial))
        return float(trial.returns()[seat] - before)
