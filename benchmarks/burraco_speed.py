"""Speed of the engine against the hand-written reference on Burraco, in the same run, with the same random policy.

    python benchmarks/burraco_speed.py [--games 200] [--repeat 5] [--seed 1] [--probes 200] [--only engine]

Both sides play random-policy hands of four-player Burraco: take the whole discard pile or draw from the stock
on a coin flip (draw when the pile is empty); meld greedily, repeating until nothing applies: add natural
cards to the team's melds, else lay the largest new natural meld, else the largest new meld with exactly one
wild; then discard a uniformly random card of the hand. The reference is benchmarks/reference/burraco_handcoded.py;
the engine runs benchmarks/burraco_benchmark.yaml, whose rules match the reference's, one match of N hands,
and decides through the public API (`legal_actions()` at every decision) as any caller would. Printed: the
cost per turn of each side (median of the runs), their ratio, what the hands did on each side (turns, pile
takes, melds, closings per hand), and the cost of one `legal_actions()` on a 25-card hand after the draw.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from references import load_reference  # a sibling module: the benchmarks run as scripts

from interpreter import CHANCE, Action, State, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "benchmarks" / "burraco_benchmark.yaml"
BASE = ROOT / "rulesets" / "burraco.yaml"


def reference_module() -> ModuleType:
    return load_reference("burraco_handcoded")


def run_reference(module: ModuleType, games: int, seed: int) -> tuple[float, dict[str, Any]]:
    """Seconds and the reference's totals (turns, pile takes, melds, ...) for `games` hands."""
    totals, seconds = module.run(games, seed)
    return seconds, totals


class Policy:
    """The reference's random policy, choosing among the legal actions the engine gives."""

    def __init__(self, state: State, seed: int) -> None:
        game = state.game
        rules = game.meld_rules
        assert rules is not None
        self.state = state
        self.rng = random.Random(seed)
        self.rank_of = game.deck.rank_of
        self.suit_of = game.deck.suit_of
        self.top = len(game.deck.ranks) - 1  # the ace: it may sit low (-1) or high
        self.wild = rules.is_wild
        self.in_place = {name: kind.in_place for name, kind in rules.kinds.items()}

    def choose(self, legal: list[Action]) -> Action:
        first = legal[0]
        if first.kind in ("draw", "take"):  # the turn's first decision: draw or take the pile
            if len(legal) > 1 and self.rng.random() < 0.5:
                return next(a for a in legal if a.kind == "take")
            return next((a for a in legal if a.kind == "draw"), first)
        adds = [a for a in legal if a.kind == "add"]
        if adds:
            natural = self._natural_adds(adds)
            if natural:
                return natural[0]
        melds = [a for a in legal if a.kind == "meld"]
        if melds:
            clean = [a for a in melds if not any(a.roles)]
            if clean:
                return max(clean, key=lambda a: len(a.cards))  # the first of the largest
            one_wild = [a for a in melds if sum(1 for role in a.roles if role) == 1]
            if one_wild:
                return max(one_wild, key=lambda a: len(a.cards))
        discards = {a.card: a for a in legal if a.kind == "discard"}
        hand = self.state.values["hand"][first.seat]
        card = hand[self.rng.randrange(len(hand))]  # uniform over the cards held, as the reference draws
        return discards.get(card) or list(discards.values())[self.rng.randrange(len(discards))]

    def _natural_adds(self, adds: list[Action]) -> list[Action]:
        """The additions the reference makes: a natural card to a set of its rank; to a sequence, a natural card
        (a two of the suit in its own place too) just below or above it, or in the place its wild stands for."""
        state = self.state
        team = state.values["team_of"][adds[0].seat]
        table = {meld.id: meld for meld in state.values["melds"][team]}
        found = []
        for action in adds:
            meld, card = table[action.target], action.card
            if meld.shape == "set":
                if not self.wild[card]:
                    found.append(action)
                continue
            if self.suit_of[card] != meld.suit or (self.wild[card] and card not in self.in_place[meld.kind]):
                continue
            rank = self.rank_of[card]
            places = (-1, rank) if rank == self.top else (rank,)
            size = len(meld.cards)
            wild_at = [meld.low + i for i, w in enumerate(meld.wild) if w] if size < 13 else []
            if any(p == meld.low - 1 or p == meld.low + size or p in wild_at for p in places):
                found.append(action)
        return found


def run_engine(games: int, seed: int, ruleset: Path = VARIANT) -> tuple[float, Counter[str], State]:
    """Seconds, what the hands did, and the finished state, for a match of `games` hands."""
    game = load_ruleset(ruleset, {"hand_cap": games})
    done: Counter[str] = Counter()
    start = time.perf_counter()
    state = game.new_initial_state(seed=seed, players=4)
    policy = Policy(state, seed)
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply_chance()
            continue
        action = policy.choose(state.legal_actions())
        kind = action.kind
        done[kind] += 1
        if kind == "meld":
            done["cards_melded"] += len(action.cards)
        elif kind == "add":
            done["cards_melded"] += 1
        state.apply(action)
    return time.perf_counter() - start, done, state


def check_hands(state: State, games: int) -> Counter[str]:
    """How the hands ended; stops the run unless each of the `games` hands ended by a closing or with the stock
    down to two cards (a closing on the last turn counts as a closing)."""
    ended: Counter[str] = Counter()
    how = ""
    for event in state.events:
        kind = event["type"]
        if kind == "log":
            text = event["text"]
            if text.endswith(" closes"):
                how = "closed"
            elif text == "The stock is down to two cards" and not how:
                how = "stock_out"
            elif "takes a pozzetto" in text:
                ended["pozzetti"] += 1
        elif kind == "hand_end":
            ended[how or "unfinished"] += 1
            how = ""
    if len(state.hand_results) != games or ended["closed"] + ended["stock_out"] != games:
        raise SystemExit(f"the engine's match did not play {games} hands to their end: "
                         f"{len(state.hand_results)} hands, {ended['closed']} closed, {ended['stock_out']} "
                         f"ended at the stock, {ended['unfinished']} neither")
    return ended


def legal_actions_cost(ruleset: Path, probes: int, seed: int) -> tuple[float, float, int]:
    """Median and largest time of one legal_actions() on a 25-card hand after the draw (random deals), and the
    median size of the legal set."""
    game = load_ruleset(ruleset)
    times, sizes = [], []
    for probe in range(probes):
        state = game.new_initial_state(seed=seed * 100_003 + probe, players=4)
        while state.current_player == CHANCE:
            state.apply_chance()
        state.apply(next(a for a in state.legal_actions() if a.kind == "draw"))
        seat = state.current_player
        hand, stock = state.values["hand"][seat], state.values["stock"]
        hand.extend(stock.pop() for _ in range(25 - len(hand)))  # 13 more cards of the same shuffle
        begin = time.perf_counter()
        legal = state.legal_actions()
        times.append(time.perf_counter() - begin)
        sizes.append(len(legal))
    return statistics.median(times), max(times), int(statistics.median(sizes))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="hands per run (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each side, alternating (default 5)")
    parser.add_argument("--probes", type=int, default=200,
                        help="random 25-card hands for the legal_actions() timing (default 200; 0 skips it)")
    parser.add_argument("--only", choices=["reference", "engine"], help="run one side only (for a profile)")
    args = parser.parse_args(argv)
    module = reference_module() if args.only != "engine" else None
    reference_costs, engine_costs, ratios = [], [], []
    reference_done: Counter[str] = Counter()
    engine_done: Counter[str] = Counter()
    for run in range(args.repeat):
        seed = args.seed + run
        line = [f"run {run + 1}:"]
        reference = engine = 0.0
        if module is not None:
            seconds, totals = run_reference(module, args.games, seed)
            reference = seconds / totals["turns"]
            reference_costs.append(reference)
            reference_done.update({key: value for key, value in totals.items() if key != "score"})
            line.append(f"reference {reference * 1e6:8.1f} us/turn")
        if args.only != "reference":
            seconds, done, state = run_engine(args.games, seed)
            engine = seconds / done["discard"]
            engine_costs.append(engine)
            engine_done.update(done)
            engine_done.update(check_hands(state, args.games))
            line.append(f"engine {engine * 1e6:9.1f} us/turn")
        if reference and engine:
            ratios.append(engine / reference)
            line.append(f"ratio {engine / reference:6.1f}")
        print("  ".join(line), flush=True)

    hands = args.games * args.repeat
    print(f"\nBurraco, 4 players, {args.games} hands a run, {args.repeat} runs (medians):")
    if reference_costs:
        print(f"  reference  {statistics.median(reference_costs) * 1e6:10.1f} us per turn")
    if engine_costs:
        print(f"  engine     {statistics.median(engine_costs) * 1e6:10.1f} us per turn")
    if ratios:
        print(f"  ratio      {statistics.median(ratios):10.1f}x")
    print("\nPer hand (all runs):            reference     engine")
    rows = [("turns", "turns", "discard"), ("pile taken", "pile_takes", "take"), ("new melds", "melds", "meld"),
            ("cards melded", "cards_melded", "cards_melded"), ("pozzetti taken", "pozzetti", "pozzetti"),
            ("closed (share)", "closed", "closed")]
    for label, ours, theirs in rows:
        left = f"{reference_done[ours] / hands:10.2f}" if reference_costs else f"{'-':>10}"
        right = f"{engine_done[theirs] / hands:10.2f}" if engine_costs else f"{'-':>10}"
        print(f"  {label:<28}{left} {right}")
    if args.probes > 0 and args.only is None:
        print(f"\nlegal_actions() on a 25-card hand after the draw ({args.probes} random hands):")
        for name, path in (("benchmark variant", VARIANT), ("rulesets/burraco.yaml", BASE)):
            median, largest, size = legal_actions_cost(path, args.probes, args.seed)
            print(f"  {name:<22} median {median * 1000:7.2f} ms, max {largest * 1000:7.2f} ms; "
                  f"legal set median {size} actions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
