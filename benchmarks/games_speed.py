"""The engine's cost per decision in random play, for every shipped ruleset and every test game.

    python benchmarks/games_speed.py [--rounds 5] [--decisions 3000] [--seed 1] [--only NAME ...] [--no-plain]

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

Some test games are also written by hand in plain Python (benchmarks/plain/<name>.py: the ruleset's decisions and
legal sets, played the same way, with no engine). Their chunks run in the same turns, and a second table compares
each game's cost with its own rules written by hand: the engine's ratio to the plain program (its overhead for
that game), and the plain program's ratio to plain Hearts (what the game's rules cost against Hearts' when
written by hand, with no engine at all). `--no-plain` leaves them out.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

from references import PLAIN, load_reference, plain_games  # sibling modules: the benchmarks run as scripts
from timing import engine_build

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


def play_plain(module: ModuleType, decisions: int, seed: int) -> tuple[float, int, list[int]]:
    """The same as `play` for a game written in plain Python (its `play(decisions, seed, sizes)`)."""
    sizes: list[int] = []
    start = time.process_time()
    made = module.play(decisions, seed, sizes)
    return time.process_time() - start, made, sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="chunks of each ruleset, in turn (default 5)")
    parser.add_argument("--decisions", type=int, default=3000, help="decisions per chunk (default 3000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help=f"only these rulesets (file names without .yaml), with {BASELINE} to compare against")
    parser.add_argument("--no-plain", action="store_true",
                        help=f"leave out the games written in plain Python ({PLAIN.relative_to(ROOT)}/)")
    args = parser.parse_args(argv)
    paths = {path.stem: path for path in rulesets()}
    if args.only:
        unknown = sorted(set(args.only) - set(paths))
        if unknown:
            parser.error(f"no ruleset named {', '.join(unknown)} (known: {', '.join(sorted(paths))})")
        paths = {name: path for name, path in paths.items() if name in {*args.only, BASELINE}}
    games = {name: load_ruleset(path) for name, path in paths.items()}
    test_games = {name for name, path in paths.items() if path.parent.name == "games"}
    plain = {} if args.no_plain else {name: load_reference(name, PLAIN) for name in plain_games() if name in games}
    costs: dict[str, list[float]] = {name: [] for name in games}
    sizes: dict[str, list[int]] = {name: [] for name in games}
    plain_costs: dict[str, list[float]] = {name: [] for name in plain}
    plain_sizes: dict[str, list[int]] = {name: [] for name in plain}
    for number in range(args.rounds):
        for name, game in games.items():
            seconds, made, seen = play(game, args.decisions, args.seed + number)
            costs[name].append(seconds / made * 1e6)
            sizes[name].extend(seen)
            if name in plain:
                seconds, made, seen = play_plain(plain[name], args.decisions, args.seed + number)
                plain_costs[name].append(seconds / made * 1e6)
                plain_sizes[name].extend(seen)
        print(f"round {number + 1}/{args.rounds}", end="\r", file=sys.stderr, flush=True)
    print(" " * 20, end="\r", file=sys.stderr)
    baseline = statistics.median(costs[BASELINE]) if BASELINE in costs else None
    baseline_size = statistics.mean(sizes[BASELINE]) if BASELINE in sizes else None
    print(f"Random play, CPU time per decision ({args.rounds} chunks of {args.decisions} decisions each; "
          f"medians, ranges; {engine_build()}):")
    print(f"  {'':<26} {'us per decision':>26}  {'legal set':>17}  {'against ' + BASELINE:>16}  {'allowed':>12}")
    print(f"  {'':<26} {'':>26}  {'median':>8} {'mean':>8}")
    over = []
    allowance: dict[str, float] = {}
    for name in games:
        median = statistics.median(costs[name])
        mean_size = statistics.mean(sizes[name])
        line = (f"  {name:<26} {median:8.1f} us ({min(costs[name]):6.1f}-{max(costs[name]):6.1f})  "
                f"{statistics.median(sizes[name]):8.0f} {mean_size:8.1f}")
        if baseline and baseline_size:
            # (each round's chunk over Hearts' chunk of the same round: a machine whose speed drifts slows both)
            paired = [cost / hearts for cost, hearts in zip(costs[name], costs[BASELINE], strict=True)]
            ratio = statistics.median(paired)
            allowed = allowance[name] = BAR * max(1.0, mean_size / baseline_size)
            within = ratio <= allowed
            if not within and name in test_games:
                over.append(name)
            spread = f"({min(paired):4.1f}-{max(paired):4.1f})"
            line += f"  {ratio:4.1f}x {spread}  {allowed:6.1f}x {'ok' if within else 'OVER'}"
        print(line)
    if baseline and baseline_size:
        print(f"\nTest games (tests/games/) over the bar ({BAR:g}x {BASELINE}, scaled by the mean legal set): "
              f"{', '.join(over) or 'none'}")
    if plain:
        print()
        for line in plain_lines(costs, plain_costs, plain_sizes):
            print(line)
        if BASELINE in plain_costs:
            beyond = [f"{name} ({own:.1f}x, allowed {allowance[name]:.1f}x)" for name in over if name in plain_costs
                      if (own := _paired_median(plain_costs[name], plain_costs[BASELINE])) > allowance[name]]
            if beyond:
                print(f"Over the bar, where the same rules written by hand already cost more against plain "
                      f"{BASELINE} than the bar allows the engine: {', '.join(beyond)}")
    return 0


def _paired_median(costs: list[float], baseline: list[float]) -> float:
    return statistics.median(cost / other for cost, other in zip(costs, baseline, strict=True))


def plain_lines(costs: dict[str, list[float]], plain_costs: dict[str, list[float]],
                plain_sizes: dict[str, list[int]]) -> list[str]:
    """The games written in plain Python against the engine: each one's cost per decision, the engine's ratio to
    it (paired by round), and its ratio to plain Hearts (paired by round), the engine's ratio to Hearts beside it."""
    against = f"  {'plain against ' + BASELINE:>22}  {'engine against ' + BASELINE:>22}" \
        if BASELINE in plain_costs else ""
    lines = [f"The same rules written in plain Python ({PLAIN.relative_to(ROOT)}/), CPU time per decision "
             "(medians, ranges over the rounds):",
             f"  {'':<14} {'plain us per decision':>24}  {'legal set':>9}  {'engine / plain':>20}{against}"]
    for name, plain_cost in plain_costs.items():
        overhead = [engine / own for engine, own in zip(costs[name], plain_cost, strict=True)]
        line = (f"  {name:<14} {statistics.median(plain_cost):9.2f} us ({min(plain_cost):5.2f}-{max(plain_cost):5.2f})"
                f"  {statistics.mean(plain_sizes[name]):9.1f}  {_spread(overhead):>20}")
        if BASELINE in plain_costs:
            own = [cost / hearts for cost, hearts in zip(plain_cost, plain_costs[BASELINE], strict=True)]
            engine = [cost / hearts for cost, hearts in zip(costs[name], costs[BASELINE], strict=True)]
            line += f"  {_spread(own):>22}  {_spread(engine):>22}"
        lines.append(line)
    lines.append("  (the legal set: the plain program's mean size, to be read beside the engine's above: the same "
                 "rules give the same sizes)")
    return lines


def _spread(ratios: list[float]) -> str:
    return f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"


if __name__ == "__main__":
    sys.exit(main())
