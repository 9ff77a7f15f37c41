"""The search bot: determinised Monte Carlo search over the ruleset's own legal actions, for any ruleset.

At each decision with more than one legal action it spends a budget of playouts (and, if given, of seconds). Each
playout deals the cards its seat cannot see again at random with `State.resample` (consistently with everything
the seat has seen: it never reads a hidden card), plays one candidate action and then every seat's moves with a
cheap policy (the heuristic bot's habits without its playouts) to the end of the hand, and scores the seat's gain
in the ruleset's own result (`State.returns()`: chips, points, a team's score) less the mean gain of the seats not
on its team, so that the size of what is at stake counts, not only who wins, and so does a hand lost by less.

The candidates are compared on common deals (in each round every one still weighed is played out on the same deal
with the same moves after it) by successive halving: the worse half is dropped after each stage, so the budget
goes to telling the best apart. The cheap policy's choice by habit (the cheapest winning card, the lowest discard,
a meld) is never dropped, and another action is played only if its gain over it, round by round, is clearly above
zero (EVIDENCE standard errors): with noisy playouts the best of several means looks better than it is, and the
search would otherwise play worse than the habit it starts from.

A decision among many actions (a rummy turn, a choice of several cards) is bounded: at most `width` candidates
(a tenth of the iterations, at least 2), the cheap policy's own choice and the plain options (no arguments:
pass, stay) first, the rest drawn at random.

On the command line: `search` (DEFAULT_ITERATIONS playouts per decision), `search:400` (400 playouts),
`search:2s` (as many as two seconds of CPU allow), `search:400:2s` (whichever ends first), at most MOST_ITERATIONS
playouts and MOST_SECONDS seconds per decision (more would never end in practice). A budget in playouts alone makes a
match replay exactly from its seed; one in seconds depends on the machine.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from interpreter.agents.base import Agent, lawful_actions
from interpreter.agents.heuristic import REDEALS, HeuristicAgent
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.state import CHANCE
from interpreter.search_budget import MOST_ITERATIONS, MOST_SECONDS

if TYPE_CHECKING:
    from interpreter.actions import Action
    from interpreter.engine.state import State

DEFAULT_ITERATIONS = 200
PLAYOUT_ACTIONS = 400  # a playout stops at the end of the hand, or after this many actions
EVIDENCE = 2.0  # how many standard errors better than the habit's choice another must look to be played


class PlayoutPolicy(HeuristicAgent):
    """The heuristic bot's habits (cheapest winning card, lowest discard, rummy melds), with its choices by
    playouts replaced by a random choice: cheap enough to play out thousands of hands."""

    name = "playout"
    guessed = False  # whether its last choice was drawn at random rather than made by habit

    def choose(self, state: State) -> Action:
        self.guessed = False
        return super().choose(state)

    def _by_playouts(self, state: State, legal: list[Action]) -> Action:
        self.guessed = True
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

    @property
    def repeatable(self) -> bool:
        """A search stopped by CPU time searches as far as the machine's speed and load let it."""
        return self.seconds is None

    @classmethod
    def from_options(cls, seed: int | None, options: list[str]) -> SearchAgent:
        """`search:400`, `search:2s`, `search:400:2s` (see the module's docstring)."""
        iterations: int | None = None
        seconds: float | None = None
        for option in options:
            try:
                if option.endswith("s"):
                    if seconds is not None:
                        raise ValueError(option)
                    seconds = float(option[:-1])
                    if not 0 < seconds < math.inf:  # (nan, inf and 1e999 are no budget)
                        raise ValueError(option)
                else:
                    if iterations is not None:
                        raise ValueError(option)
                    iterations = int(option)
                    if iterations < 1:
                        raise ValueError(option)
            except ValueError:
                raise ValueError(f"search takes a number of iterations and/or seconds (search:400, search:2s, "
                                 f"search:400:2s), not {option!r}") from None
            # (a budget past its cap would make a match that never ends in practice)
            if option.endswith("s") and seconds is not None and seconds > MOST_SECONDS:
                raise ValueError(f"search takes at most {MOST_SECONDS:g} seconds per decision, not {option!r}")
            if not option.endswith("s") and iterations is not None and iterations > MOST_ITERATIONS:
                raise ValueError(f"search takes at most {MOST_ITERATIONS:,} playouts per decision, not {option!r}")
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
        """Successive halving on common deals: in each round every candidate still weighed is played out on the
        same deal of the unseen cards, with the same moves after it, so that the comparison is of the actions,
        not of the deals; after each stage the worse half is dropped, so the budget goes to telling the best
        ones apart. The cheap policy's choice by habit (first in the list) is never dropped, and another is
        played only if its gain over it, round by round, is more than EVIDENCE standard errors above zero:
        with noisy playouts the best of several means looks better than it is."""
        seat = state.current_player
        candidates, habit = self._candidates(state, seat, legal)
        rivals = self.rivals(state, seat)
        gains: list[list[float]] = [[] for _ in candidates]
        active = list(range(len(candidates)))
        stages = max(1, math.ceil(math.log2(len(candidates))))
        budget = self.iterations if self.iterations is not None else math.inf
        done = 0
        for stage in range(stages):
            rounds = max(1, int((budget - done) / (stages - stage) / len(active))) if budget < math.inf else None
            played = 0
            while rounds is None or played < rounds:
                if done and self.seconds is not None and time.process_time() - started >= self.seconds:
                    break
                found = self._round(state, seat, candidates, active, rivals)
                if found is not None:  # (None: no deal drawn again could be played on; the round is skipped)
                    for index, gain in zip(active, found, strict=True):
                        gains[index].append(gain)
                done += len(active)
                played += 1
                if budget == math.inf and self.seconds is not None:  # (seconds alone: spent in even stages)
                    budget = done * self.seconds / max(time.process_time() - started, 1e-9)
                    rounds = max(1, int((budget - done) / (stages - stage) / len(active)))
            if self.seconds is not None and time.process_time() - started >= self.seconds:
                break
            if stage < stages - 1:
                ranked = sorted(active, key=lambda index: (-sum(gains[index]), index))[:(len(active) + 1) // 2]
                active = sorted({*ranked, 0} if habit else ranked)
        if not any(gains[index] for index in active):  # (no deal could be played on: the cheap choice)
            return candidates[0]
        best = min(active, key=lambda index: (-sum(gains[index]), index))
        if habit and best != 0 and not self.convincing(gains[best], gains[0]):
            return candidates[0]
        return candidates[best]

    def _round(self, state: State, seat: int, candidates: list[Action], active: list[int],
               rivals: list[int]) -> list[float] | None:
        """One round: every active candidate played out on one deal of the unseen cards, with the same moves
        after it; a deal on which the rules fail is dropped and another drawn (heuristic.REDEALS), and None
        when none could be played on."""
        for _attempt in range(REDEALS):
            deal = state.resample(seat, self.rng)
            moves = self.rng.getrandbits(64)
            try:
                return [self._playout(deal.clone() if index != active[-1] else deal, seat, candidates[index], moves,
                                      rivals) for index in active]
            except RulesetRuntimeError:
                continue
        return None

    @staticmethod
    def convincing(better: list[float], habit: list[float]) -> bool:
        """Whether gains played out on the same deals as the habit's are higher by more than EVIDENCE standard
        errors of the differences (the same rounds: the habit's choice is weighed in every one)."""
        differences = [a - b for a, b in zip(better, habit[-len(better):], strict=True)] if better else []
        if not differences:
            return False
        mean = sum(differences) / len(differences)
        if len(differences) < 2:
            return mean > 0
        spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (len(differences) - 1))
        return mean > EVIDENCE * spread / math.sqrt(len(differences))

    @staticmethod
    def rivals(state: State, seat: int) -> list[int]:
        """The seats whose gains count against the seat's: those not on its team (every other seat, in a game
        without teams)."""
        team_of = state.values["team_of"]
        return [other for other in range(state.player_count) if team_of[other] != team_of[seat]]

    def width(self) -> int:
        """The most candidates a decision weighs."""
        if self.iterations is None:
            return 16
        return max(2, self.iterations // 10)

    def _candidates(self, state: State, seat: int, legal: list[Action]) -> tuple[list[Action], bool]:
        """The actions weighed, the cheap policy's choice first: all of them, or (many) that choice, the plain
        options, and others drawn at random; and whether that choice is one by habit (not drawn at random).
        The policy chooses on a copy dealt again, so that not even it reads a hidden card."""
        width = self.width()
        probe = state.resample(seat, self.rng)
        try:
            chosen = [action for action in [self.policy.choose(probe)] if action in legal]
        except RulesetRuntimeError:  # (a deal the rules cannot play on: see heuristic.REDEALS)
            chosen = []
        habit = bool(chosen) and not self.policy.guessed
        if len(legal) <= width:
            return chosen + [action for action in legal if action not in chosen], habit
        chosen += [action for action in legal if not action.arguments and action not in chosen][:width - len(chosen)]
        rest = [action for action in legal if action not in chosen]
        drawn = set(self.rng.sample(range(len(rest)), max(0, width - len(chosen))))
        return chosen + [action for index, action in enumerate(rest) if index in drawn], habit

    def _playout(self, trial: State, seat: int, action: Action, moves: int, rivals: list[int]) -> float:
        """The seat's gain in its result from `action` to the end of the hand, less its rivals' mean gain (so
        that a hand the others win by less counts for something too), every move after it the cheap policy's,
        its random choices drawn from `moves` (the same for every candidate of a round)."""
        before = trial.returns()
        hand = trial.values["hand_number"]
        trial.apply(action)
        policy = self.policy
        policy.rng.seed(moves)
        for _ in range(PLAYOUT_ACTIONS):
            if trial.is_terminal or trial.values["hand_number"] != hand:
                break
            if trial.current_player == CHANCE:
                trial.apply_chance()
            else:
                trial.apply(policy.choose(trial))
        after = trial.returns()
        gain = float(after[seat] - before[seat])
        if rivals:
            gain -= sum(float(after[other] - before[other]) for other in rivals) / len(rivals)
        return gain
