"""How `ruledeck simulate --workers 2` scales against `--workers 1`, beside what the machine itself gives two
processes.

    python benchmarks/simulate_scaling.py [RULESET] [-n 2000] [--pairs 3] [--bots random] [--loop 30000000]
                                          [--no-compile]

Each pair runs the whole command twice, as a user would (a new process, the ruleset loaded, the matches played,
the statistics printed), with one worker and with two, in turns (the order reversed every other pair), and
times it by the wall clock: the speed-up of a pair is the one-worker time over the two-worker time. Beside each
pair the same is measured for a plain CPU loop, alone and two at once: a shared machine whose two cores slow
each other gives two processes less than 2x, and no run of matches can scale better than that. Printed: each
pair, then the medians and ranges. Measure with nothing else running. The package's modules are compiled to
bytecode first, as an installation has them (without it, every process would compile them again, a part of
its start that is not the engine's).
"""

from __future__ import annotations

import argparse
import compileall
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_RULESET = ROOT / "rulesets" / "bourre.yaml"
LOOP = "import sys\ntotal = 0\nfor number in range(int(sys.argv[1])):\n    total += number * number\n"


def timed(commands: list[list[str]]) -> float:
    """Wall seconds to run the commands at once, to the end of the last; a failing command stops the run."""
    begin = time.perf_counter()
    processes = [subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for command in commands]  # (from the checkout: its package is the one timed)
    for process, command in zip(processes, commands, strict=True):
        _, error = process.communicate()
        if process.returncode:
            raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{error.decode(errors='replace')}")
    return time.perf_counter() - begin


def simulate_command(ruleset: str, games: int, bots: str, workers: int) -> list[str]:
    return [sys.executable, "-m", "interpreter", "simulate", ruleset, "-n", str(games), "--bots", bots,
            "--workers", str(workers)]


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", nargs="?", default=str(DEFAULT_RULESET), help="default: rulesets/bourre.yaml")
    parser.add_argument("-n", "--games", type=int, default=2000, help="matches per run (default 2000)")
    parser.add_argument("--pairs", type=int, default=3, help="pairs of runs, one and two workers (default 3)")
    parser.add_argument("--bots", default="random", help="the runs' bots (default random)")
    parser.add_argument("--loop", type=int, default=30_000_000,
                        help="steps of the plain CPU loop timed beside each pair (default 30,000,000; 0 skips it)")
    parser.add_argument("--no-compile", action="store_true",
                        help="leave the package's bytecode as it is (by default it is compiled first)")
    args = parser.parse_args(argv)
    if not args.no_compile:
        compileall.compile_dir(str(ROOT / "interpreter"), quiet=1)
    # (a file named from here, since the runs start in the checkout; a bundled ruleset's name as it is)
    ruleset = str(Path(args.ruleset).absolute()) if Path(args.ruleset).exists() else args.ruleset
    one_worker: list[float] = []
    two_workers: list[float] = []
    speed_ups: list[float] = []
    machine: list[float] = []
    for pair in range(args.pairs):
        runs = {workers: [simulate_command(ruleset, args.games, args.bots, workers)] for workers in (1, 2)}
        order = (1, 2) if pair % 2 == 0 else (2, 1)
        seconds = {workers: timed(runs[workers]) for workers in order}
        one_worker.append(seconds[1])
        two_workers.append(seconds[2])
        speed_ups.append(seconds[1] / seconds[2])
        line = f"pair {pair + 1}: one worker {seconds[1]:.2f} s, two {seconds[2]:.2f} s: {speed_ups[-1]:.2f}x"
        if args.loop > 0:
            loop = [sys.executable, "-c", LOOP, str(args.loop)]
            alone = timed([loop])
            together = timed([loop, loop])
            machine.append(2 * alone / together)
            line += f"; the CPU loop alone {alone:.2f} s, two at once {together:.2f} s: {machine[-1]:.2f}x"
        print(line, flush=True)
    print(f"{Path(args.ruleset).name}, {args.games} matches per run, {args.pairs} pairs; medians (ranges):")
    print(f"  one worker {spread(one_worker)} s; two workers {spread(two_workers)} s")
    print(f"  simulate --workers 2 against --workers 1: {spread(speed_ups)}x")
    if machine:
        print(f"  the machine's own scaling (two CPU loops at once against one): {spread(machine)}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
