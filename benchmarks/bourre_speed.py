"""Speed of the engine against the hand-written reference, in the same run, with the same random policy.

    python benchmarks/bourre_speed.py [--games 2000] [--players 5] [--repeat 5]

Both sides play random-policy hands of Bourré: play with probability 0.5, a uniformly random subset of the
hand to exchange, a uniformly random legal card. The reference is ../shared/bench/bourre_handcoded.py; the
engine runs benchmarks/bourre_benchmark.yaml, whose rules match the reference's, and decides through the
public API (`legal_actions()` at every decision) as any caller would. Printed: the cost per card played of
each (median of the runs), their ratio, and the cold start of `ruledeck validate` and `ruledeck play`.
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
    rng = random.Random(seed)
    cards = 0
    start = time.perf_counter()
    state = game.new_initial_state(seed=seed, players=players)
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
    reference_costs, engine_costs, ratios = [], [], []
    for run in range(args.repeat):
        seconds, cards = run_reference(module, args.games, args.players, args.seed + run)
        reference = seconds / cards
        seconds, cards = run_engine(args.games, args.players, args.seed + run)
        engine = seconds / cards
        reference_costs.append(reference)
        engine_costs.append(engine)
        ratios.append(engine / reference)
        print(f"run {run + 1}: reference {reference * 1e6:.2f} us/card, engine {engine * 1e6:.2f} us/card, "
              f"ratio {engine / reference:.2f}")
    print(f"\nBourré, {args.players} players, {args.games} hands a run, {args.repeat} runs (medians):")
    print(f"  reference  {statistics.median(reference_costs) * 1e6:8.2f} us per card played")
    print(f"  engine     {statistics.median(engine_costs) * 1e6:8.2f} us per card played")
    print(f"  ratio      {statistics.median(ratios):8.2f}x  (goal 1.5x; first bar 3x)")
    if not args.no_cold_start:
        validate = cold_start(["validate", str(ROOT / "rulesets" / "bourre.yaml")], 5)
        play = cold_start(["play", str(ROOT / "rulesets" / "bourre.yaml"), "--set", "hands=1", "--bots", "random",
                           "--seed", "1"], 5)
        print(f"  cold start: validate {validate * 1000:.0f} ms, play one hand {play * 1000:.0f} ms (medians of 5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
