"""Speed of the engine against the hand-written reference, in the same run, with the same random policy.

    python benchmarks/bourre_speed.py [--games 2000] [--players 5] [--repeat 5]

Both sides play random-policy hands of Bourré: play with probability 0.5, a uniformly random subset of the
hand to exchange, a uniformly random legal card. The reference is benchmarks/reference/bourre_handcoded.py; the
engine runs benchmarks/bourre_benchmark.yaml, whose rules match the reference's, and decides through the
public API (`legal_actions()` at every decision) as any caller would. Printed: the cost per card played of
each (median of the runs), their ratio, the same policy's loop over the API with no rules behind it (what
the caller's side and the API's shape cost alone), and the cold start of `ruledeck validate` and `ruledeck play`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from references import load_reference  # a sibling module: the benchmarks run as scripts

from interpreter import CHANCE, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "benchmarks" / "bourre_benchmark.yaml"


def reference_module() -> ModuleType:
    return load_reference("bourre_handcoded")


def run_reference(module: ModuleType, games: int, players: int, seed: int) -> tuple[float, int]:
    table, seconds = module.run(games, players, seed)
    return seconds, table.cards_played


def run_engine(games: int, players: int, seed: int) -> tuple[float, int]:
    """Seconds and cards played for `games` hands, the policy deciding from legal_actions()."""
    game = load_ruleset(VARIANT, {"hands": games})
    start = time.perf_counter()
    state = game.new_initial_state(seed=seed, players=players)
    cards = drive(state, random.Random(seed))
    return time.perf_counter() - start, cards


def drive(state: Any, rng: random.Random) -> int:
    """Play to the end with the benchmark's policy, through the public API; the cards played."""
    cards = 0
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply_chance()
            continue
        legal = state.legal_actions()
        first = legal[0]
        if first.kind == "play":
            cards += 1
            action = legal[rng.randrange(len(legal))] if len(legal) > 1 else first
        elif first.kind == "choose" and len(legal) > 1:
            if first.name == "exchange":  # a uniformly random subset: its size, then the cards one by one
                size = bin(rng.getrandbits(5)).count("1")
                action = next(a for a in legal if a.arguments[0][1] == size)
            else:
                wanted = "play" if rng.random() < 0.5 else "pass"
                action = next((a for a in legal if a.name == wanted), None)
                if action is None:
                    raise SystemExit(f"unexpected choices: {[state.action_text(a) for a in legal]}")
        else:
            action = legal[rng.randrange(len(legal))] if len(legal) > 1 else first
        state.apply(action)
    return cards


class RulelessState:
    """The public API over no rules at all: each hand replays the decisions of a recorded engine hand (their
    legal sets as the engine gave them) whatever is chosen. Driving it measures what the caller's loop and the
    API's shape cost by themselves, the floor under any engine decided through legal_actions() and apply()."""

    def __init__(self, script: list[list[Any]], decisions: int) -> None:
        self.script = script
        self.remaining = decisions
        self.position = 0
        self.legal: dict[Any, int] | None = None

    @property
    def current_player(self) -> int:
        return 0

    @property
    def is_terminal(self) -> bool:
        return self.remaining <= 0

    def legal_actions(self) -> list[Any]:
        if self.legal is None:
            self.legal = dict.fromkeys(self.script[self.position], 0)
        return list(self.legal)

    def apply(self, action: Any) -> None:
        if self.legal is None or action not in self.legal:
            raise ValueError(f"{action} is not legal")
        self.legal = None
        self.position = (self.position + 1) % len(self.script)
        self.remaining -= 1


def run_floor(games: int, players: int, seed: int) -> tuple[float, int]:
    """Seconds and cards played by the same policy over the ruleless API, for as many decisions as the engine
    makes in `games` hands (the legal sets are recorded from the engine's first hands)."""
    game = load_ruleset(VARIANT, {"hands": 20})
    recorder = game.new_initial_state(seed=seed, players=players)
    script: list[list[Any]] = []
    chooser = random.Random(seed)
    while not recorder.is_terminal:
        if recorder.current_player == CHANCE:
            recorder.apply_chance()
            continue
        script.append(recorder.legal_actions())
        recorder.apply(chooser.choice(script[-1]))
    decisions = len(script) * games // 20
    state = RulelessState(script, decisions)
    start = time.perf_counter()
    cards = drive(state, random.Random(seed))
    return time.perf_counter() - start, cards


def cold_start(arguments: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "interpreter", *arguments], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="hands per run (default 2000)")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each side, alternating (default 5)")
    parser.add_argument("--no-cold-start", action="store_true", help="skip the cold-start timings")
    args = parser.parse_args(argv)
    module = reference_module()
    reference_costs, engine_costs, ratios, floor_ratios = [], [], [], []
    for run in range(args.repeat):
        seconds, cards = run_reference(module, args.games, args.players, args.seed + run)
        reference = seconds / cards
        seconds, cards = run_engine(args.games, args.players, args.seed + run)
        engine = seconds / cards
        seconds, cards = run_floor(args.games, args.players, args.seed + run)
        floor = seconds / cards
        reference_costs.append(reference)
        engine_costs.append(engine)
        ratios.append(engine / reference)
        floor_ratios.append(floor / reference)
        print(f"run {run + 1}: reference {reference * 1e6:.2f} us/card, engine {engine * 1e6:.2f} us/card, "
              f"ratio {engine / reference:.2f}; the API with no rules {floor * 1e6:.2f} us/card")
    print(f"\nBourré, {args.players} players, {args.games} hands a run, {args.repeat} runs (medians):")
    print(f"  reference  {statistics.median(reference_costs) * 1e6:8.2f} us per card played")
    print(f"  engine     {statistics.median(engine_costs) * 1e6:8.2f} us per card played")
    print(f"  ratio      {statistics.median(ratios):8.2f}x  (goal 1.5x; first bar 3x)")
    print(f"  the policy's loop over the API with no rules behind it: {statistics.median(floor_ratios):.2f}x the "
          "reference (the floor of any engine driven through legal_actions() and apply())")
    if not args.no_cold_start:
        validate = cold_start(["validate", str(ROOT / "rulesets" / "bourre.yaml")], 5)
        play = cold_start(["play", str(ROOT / "rulesets" / "bourre.yaml"), "--set", "hands=1", "--bots", "random",
                           "--seed", "1"], 5)
        print(f"  cold start: validate {validate * 1000:.0f} ms, play one hand {play * 1000:.0f} ms (medians of 5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
