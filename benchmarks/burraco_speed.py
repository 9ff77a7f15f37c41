"""Speed of the engine against the hand-written reference on Burraco, in the same run, with the same random policy.

    python benchmarks/burraco_speed.py [--chunk 4] [--rounds 40] [--seed 1] [--probes 200] [--only engine]

Both sides play random-policy hands of four-player Burraco: take the whole discard pile or draw from the stock
on a coin flip (draw when the pile is empty); meld greedily, repeating until nothing applies: add natural
cards to the team's melds, else lay the largest new natural meld, else the largest new meld with exactly one
wild; then discard a uniformly random card of the hand. The reference is benchmarks/reference/burraco_handcoded.py;
the engine runs benchmarks/burraco_benchmark.yaml, whose rules match the reference's, one match of N hands,
and decides through the public API (`legal_actions()` at every decision) as any caller would; once the timing
is over, each of its matches' logs is checked (every hand ended by a closing or at the stock). The sides run in
chunks of `--chunk` hands, alternating, each chunk timed in CPU and wall time (benchmarks/timing.py). Printed:
the cost per turn of each side (medians and ranges), the engine's ratio to the reference, the same policy's
loop over the API with no rules behind it (the legal sets the engine gave, replayed: what the caller's side and
the API's shape cost alone, with legal sets this large), what the hands did on each side (turns, pile takes,
melds, closings per hand), and the cost of one `legal_actions()` on a 25-card hand after the draw.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from floor import RulelessState  # sibling modules: the benchmarks run as scripts
from references import load_reference
from timing import engine_build, interleave, report

from interpreter import CHANCE, Action, Game, State, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "benchmarks" / "burraco_benchmark.yaml"
BASE = ROOT / "rulesets" / "burraco.yaml"


def reference_module() -> ModuleType:
    return load_reference("burraco_handcoded")


def reference_side(module: ModuleType, chunk: int, seed: int, done: Counter[str]) -> Callable[[int], int]:
    """The reference playing `chunk` hands a round (adding what they did to `done`); the turns played."""
    def play(number: int) -> int:
        totals, _seconds = module.run(chunk, seed + number)
        done.update({key: value for key, value in totals.items() if key != "score"})
        return int(totals["turns"])
    return play


class Policy:
    """The reference's random policy, choosing among the legal actions the engine gives (reading the hand and
    the team's melds from the state's values)."""

    def __init__(self, game: Game, state: State | RulelessState, seed: int) -> None:
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


def engine_side(chunk: int, seed: int, done: Counter[str], finished: list[State],
                ruleset: Path = VARIANT) -> Callable[[int], int]:
    """The engine playing a match of `chunk` hands a round (adding what they did to `done`, and the match's end
    state to `finished`, for `check_hands` after the round, untimed); the turns played."""
    game = load_ruleset(ruleset, {"hand_cap": chunk})

    def play(number: int) -> int:
        state, here = play_match(game, seed + number)
        done.update(here)
        finished.append(state)
        return here["discard"]
    return play


def play_match(game: Game, seed: int, players: int = 4) -> tuple[State, Counter[str]]:
    """A match from `seed` (four players: the benchmark's) played by the benchmark's policy: its end state, and
    what was done (see `drive`; `here["discard"]` is the turns played)."""
    state = game.new_initial_state(seed=seed, players=players)
    return state, drive(state, Policy(game, state, seed))


def drive(state: State | RulelessState, policy: Policy) -> Counter[str]:
    """Play to the end with the benchmark's policy, through the public API; what was done (the actions of each
    kind, the cards melded)."""
    here: Counter[str] = Counter()
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply_chance()  # type: ignore[union-attr]  # (the ruleless replay has no chance node)
            continue
        action = policy.choose(state.legal_actions())
        kind = action.kind
        here[kind] += 1
        if kind == "meld":
            here["cards_melded"] += len(action.cards)
        elif kind == "add":
            here["cards_melded"] += 1
        state.apply(action)
    return here


def floor_side(chunk: int, seed: int) -> Callable[[int], int]:
    """The same policy over the ruleless API, for as many decisions as the engine makes in `chunk` hands: the
    legal sets, and the hand and melds the policy reads, recorded from the engine's first hands before any
    timing. The turns: the discards chosen."""
    recorded = 8
    game = load_ruleset(VARIANT, {"hand_cap": recorded})
    recorder = game.new_initial_state(seed=seed, players=4)
    policy = Policy(game, recorder, seed)
    script: list[list[Action]] = []
    values: list[dict[str, Any]] = []
    while not recorder.is_terminal:
        if recorder.current_player == CHANCE:
            recorder.apply_chance()
            continue
        script.append(recorder.legal_actions())
        seen = recorder.values
        values.append({"hand": {seat: list(hand) for seat, hand in enumerate(seen["hand"])},
                       "melds": {team: list(melds) for team, melds in enumerate(seen["melds"])},
                       "team_of": list(seen["team_of"])})
        recorder.apply(policy.choose(script[-1]))
    decisions = len(script) * chunk // recorded

    def play(number: int) -> int:
        state = RulelessState(script, decisions, values)
        return drive(state, Policy(game, state, seed + number))["discard"]
    return play


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


def legal_actions_cost(ruleset: Path, probes: int, seed: int) -> tuple[list[float], list[float], int]:
    """The CPU and wall times of one legal_actions() on a 25-card hand after the draw (random deals), and the
    median size of the legal set."""
    game = load_ruleset(ruleset)
    cpu, wall, sizes = [], [], []
    for probe in range(probes):
        state = game.new_initial_state(seed=seed * 100_003 + probe, players=4)
        while state.current_player == CHANCE:
            state.apply_chance()
        state.apply(next(a for a in state.legal_actions() if a.kind == "draw"))
        seat = state.current_player
        hand, stock = state.values["hand"][seat], state.values["stock"]
        hand.extend(stock.pop() for _ in range(25 - len(hand)))  # 13 more cards of the same shuffle
        begin, begin_cpu = time.perf_counter(), time.process_time()
        legal = state.legal_actions()
        cpu.append(time.process_time() - begin_cpu)
        wall.append(time.perf_counter() - begin)
        sizes.append(len(legal))
    return cpu, wall, int(statistics.median(sizes))


def _quantiles(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered) * 1000:6.2f} ms, p95 {p95 * 1000:6.2f}, max {ordered[-1] * 1000:6.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunk", type=int, default=4, help="hands per chunk of each side (default 4)")
    parser.add_argument("--rounds", type=int, default=40, help="chunks of each side, alternating (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--probes", type=int, default=200,
                        help="random 25-card hands for the legal_actions() timing (default 200; 0 skips it)")
    parser.add_argument("--only", choices=["reference", "engine"], help="run one side only (for a profile)")
    args = parser.parse_args(argv)
    reference_done: Counter[str] = Counter()
    engine_done: Counter[str] = Counter()
    sides: dict[str, Callable[[int], int]] = {}
    if args.only != "engine":
        sides["reference"] = reference_side(reference_module(), args.chunk, args.seed, reference_done)
    finished: list[State] = []
    if args.only != "reference":
        sides["engine"] = engine_side(args.chunk, args.seed, engine_done, finished)
    if args.only is None:
        sides["API floor"] = floor_side(args.chunk, args.seed)

    def between_rounds(number: int) -> None:
        """Untimed, after each round: the benchmark's own check of the engine's match (it reads the match's log),
        which is then let go, so that the timed chunks do not run with every match played so far in memory (the
        garbage collector's full collections go over all of it)."""
        for state in finished:
            engine_done.update(check_hands(state, args.chunk))
        finished.clear()
        print(f"round {number + 1}/{args.rounds}", end="\r", file=sys.stderr, flush=True)

    results = interleave(sides, args.rounds, between_rounds)
    print(" " * 20, end="\r", file=sys.stderr)
    print(f"Burraco, 4 players, {args.rounds} chunks of {args.chunk} hands per side, alternating; medians (ranges):")
    print("\n".join(report(results, unit="turn", baseline="reference" if "reference" in sides else "engine")))
    print(f"  (engine: {engine_build()})")
    if "API floor" in sides:
        print("  (the API floor: the same policy over the public API with no rules behind it, the legal sets the "
              "engine gave replayed: the least any engine driven through legal_actions() and apply() costs)")
    hands = args.chunk * args.rounds
    reference_costs = results.get("reference")
    engine_costs = results.get("engine")
    print("\nPer hand (all chunks):          reference     engine")
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
            cpu, wall, size = legal_actions_cost(path, args.probes, args.seed)
            print(f"  {name:<22} CPU {_quantiles(cpu)}; wall {_quantiles(wall)}; legal set median {size} actions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
