"""The engine's cost per decision in random play, for every shipped ruleset and every test game.

    python benchmarks/games_speed.py [--rounds 5] [--decisions 3000] [--seed 1] [--only NAME ...]

Each ruleset plays random matches (a uniformly random legal action at every decision, the state's own shuffles)
through the public API, in chunks of about `--decisions` decisions, the rulesets taking turns so that a noisy
machine slows them alike. Printed for each: the CPU time per decision (median and range over the rounds), the
median and mean size of the legal set, and the ratio to Hearts' cost per decision (a plain trick game: the median
of each round's ratio to Hearts' chunk of the same round, with their range). The speed
bar is a cost per decision at most 3x Hearts', except where the legal sets are that much larger: the last column
is the ratio allowed, 3x scaled by the game's mean legal set against Hearts' (never below 3x), and whether the game
is within it. (The mean, not the median: a rummy's rare decisions with thousands of groups of melds cost what
their size says, and the median does not see them.) `--only` plays the rulesets named (by file name, without
`.yaml`) and Hearts, which the ratios need.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from timing import engine_build  # sibling module: the benchmarks run as scripts

from interpreter import CHANCE, Game, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "hearts"
BAR = 3.0  # the most a game may cost per decision against Hearts, where its legal sets are no larger


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
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help=f"only these rulesets (file names without .yaml), with {BASELINE} to compare against")
    args = parser.parse_args(argv)
    paths = {path.stem: path for path in rulesets()}
    if args.only:
        unknown = sorted(set(args.only) - set(paths))
        if unknown:
            parser.error(f"no ruleset named {', '.join(unknown)} (known: {', '.join(sorted(paths))})")
        paths = {name: path for name, path in paths.items() if name in {*args.only, BASELINE}}
    games = {name: load_ruleset(path) for name, path in paths.items()}
    test_games = {name for name, path in paths.items() if path.parent.name == "games"}
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
    baseline_size = statistics.mean(sizes[BASELINE]) if BASELINE in sizes else None
    print(f"Random play, CPU time per decision ({args.rounds} chunks of {args.decisions} decisions each; "
          f"medians, ranges; {engine_build()}):")
    print(f"  {'':<26} {'us per decision':>26}  {'legal set':>17}  {'against ' + BASELINE:>16}  {'allowed':>12}")
    print(f"  {'':<26} {'':>26}  {'median':>8} {'mean':>8}")
    over = []
    for name in games:
        median = statistics.median(costs[name])
        mean_size = statistics.mean(sizes[name])
        line = (f"  {name:<26} {median:8.1f} us ({min(costs[name]):6.1f}-{max(costs[name]):6.1f})  "
                f"{statistics.median(sizes[name]):8.0f} {mean_size:8.1f}")
        if baseline and baseline_size:
            # (each round's chunk over Hearts' chunk of the same round: a machine whose speed drifts slows both)
            paired = [cost / hearts for cost, hearts in zip(costs[name], costs[BASELINE], strict=True)]
            ratio = statistics.median(paired)
            allowed = BAR * max(1.0, mean_size / baseline_size)
            within = ratio <= allowed
            if not within and name in test_games:
                over.append(name)
            spread = f"({min(paired):4.1f}-{max(paired):4.1f})"
            line += f"  {ratio:4.1f}x {spread}  {allowed:6.1f}x {'ok' if within else 'OVER'}"
        print(line)
    if baseline and baseline_size:
        print(f"\nTest games (tests/games/) over the bar ({BAR:g}x {BASELINE}, scaled by the mean legal set): "
              f"{', '.join(over) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
