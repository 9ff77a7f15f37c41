"""The engine's cost per decision in random play, for every shipped ruleset and every test game.

    python benchmarks/games_speed.py [--rounds 5] [--decisions 3000] [--seed 1]

Each ruleset plays random matches (a uniformly random legal action at every decision, the state's own shuffles)
through the public API, in chunks of about `--decisions` decisions, the rulesets taking turns so that a noisy
machine slows them alike. Printed for each: the CPU time per decision (median and range over the rounds), the
median size of the legal set, and the ratio to Hearts' cost per decision (a plain trick game).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from interpreter import CHANCE, Game, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "hearts"


def rulesets() -> list[Path]:
    return sorted((ROOT / "tests" / "games").glob("*.yaml")) + sorted((ROOT / "rulesets").glob("*.yaml")) + \
        sorted((ROOT / "rulesets" / "variants").glob("*.yaml"))


def play(game: Game, decisions: int, seed: int) -> tuple[float, int, list[int]]:
    """CPU seconds, decisions made and legal-set sizes of random play until about `decisions` decisions."""
    rng = random.Random(seed)
    made = 0
    sizes: list[int] = []
    elapsed = 0.0
    match = 0
    while made < decisions:
        state = game.new_initial_state(seed=seed * 1000 + match)
        match += 1
        start = time.process_time()
        while not state.is_terminal and made < decisions:
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            legal = state.legal_actions()
            sizes.append(len(legal))
            state.apply(legal[rng.randrange(len(legal))])
            made += 1
        elapsed += time.process_time() - start
    return elapsed, made, sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="chunks of each ruleset, in turn (default 5)")
    parser.add_argument("--decisions", type=int, default=3000, help="decisions per chunk (default 3000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    games = {path.stem: load_ruleset(path) for path in rulesets()}
    costs: dict[str, list[float]] = {name: [] for name in games}
    sizes: dict[str, list[int]] = {name: [] for name in games}
    for number in range(args.rounds):
        for name, game in games.items():
            seconds, made, seen = play(game, args.decisions, args.seed + number)
            costs[name].append(seconds / made * 1e6)
            sizes[name].extend(seen)
        print(f"round {number + 1}/{args.rounds}", end="\r", file=sys.stderr, flush=True)
    print(" " * 20, end="\r", file=sys.stderr)
    baseline = statistics.median(costs[BASELINE]) if BASELINE in costs else None
    print(f"Random play, CPU time per decision ({args.rounds} chunks of {args.decisions} decisions each; "
          "medians, ranges):")
    for name in games:
        median = statistics.median(costs[name])
        ratio = f"{median / baseline:6.1f}x {BASELINE}" if baseline else ""
        print(f"  {name:<26} {median:8.1f} us ({min(costs[name]):.1f}-{max(costs[name]):.1f})  "
              f"legal set {statistics.median(sizes[name]):5.0f}  {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
