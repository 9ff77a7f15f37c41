"""The engine of the working tree against the engine of another git revision, in one process, alternating.

    python benchmarks/compare_revisions.py REVISION [RULESET ...] [--rounds 12] [--decisions 1500] [--policy random]
                                           [--its-rulesets]

A change of a few percent cannot be seen by timing two runs of a command one after the other on a shared
machine (their times differ by up to 2x); it can be seen by running both engines in one process, in small chunks
that take turns, each timed in CPU and wall time. The revision's `interpreter` package is taken from git (`git
archive`) into a temporary directory and loaded beside the working tree's as `interpreter_base` (its imports
renamed), so each ruleset is loaded by both engines and played through the public API by the same policy from
the same seeds. Printed for each ruleset: each side's cost per decision (median and range over the rounds) and
the working tree's ratio to the revision (the median of the rounds' paired ratios: below 1, the working tree is
faster). `--policy bourre` plays Bourré's benchmark policy (benchmarks/bourre_speed.py) and counts cards played;
`--policy burraco` Burraco's (benchmarks/burraco_speed.py: the benchmark ruleset, or one like it) and counts turns.
Neither side keeps checked rulesets between runs (RULEDECK_NO_CACHE=1): both compile what they load. With
`--its-rulesets` each side plays the rulesets as they are in its own revision (a ruleset rewritten for a feature
of the engine that the revision lacks).
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from timing import Chunk, report  # sibling modules: the benchmarks run as scripts

ROOT = Path(__file__).resolve().parent.parent
BASE = "interpreter_base"  # the revision's package, as it is imported here
DEFAULT_RULESETS = ["benchmarks/bourre_benchmark.yaml", "tests/games/hearts.yaml", "tests/games/texas_holdem.yaml"]
# `interpreter` as a module name in code (`from interpreter.x import`, `import interpreter`, "interpreter.x")
_PACKAGE_NAME = re.compile(r"(?<![\w/.])interpreter(?=[.\s'\"]|$)", re.MULTILINE)


def revision_package(revision: str, into: Path) -> ModuleType:
    """The `interpreter` package of `revision`, written under `into` and imported as `interpreter_base`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision, "interpreter", "schema"],
                             capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"cannot take the engine of {revision!r} from git: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    package = into / "interpreter"
    for source in package.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        source.write_text(_PACKAGE_NAME.sub(BASE, text), encoding="utf-8")
    package.rename(into / BASE)
    sys.path.insert(0, str(into))
    try:
        return importlib.import_module(BASE)
    finally:
        sys.path.remove(str(into))


def revision_rulesets(revision: str, into: Path, rulesets: list[str]) -> dict[str, str]:
    """The rulesets as they are in `revision`, written under `into` with the folders they sit in (a variant's
    `extends:` finds its base beside it): each ruleset's path there, by the path given."""
    folders = sorted({str(Path(ruleset).resolve().parent.relative_to(ROOT)) for ruleset in rulesets} | {"rulesets"})
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision, *folders],
                             capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"cannot take the rulesets of {revision!r} from git: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return {ruleset: str(into / Path(ruleset).resolve().relative_to(ROOT)) for ruleset in rulesets}


def random_play(game: Any, chance: int, decisions: int, seed: int) -> int:
    """Random play through the public API (as benchmarks/games_speed.py): about `decisions` decisions made."""
    rng = random.Random(seed)
    made = match = 0
    while made < decisions:
        state = game.new_initial_state(seed=seed * 1000 + match)
        match += 1
        while not state.is_terminal and made < decisions:
            if state.current_player == chance:
                state.apply_chance()
                continue
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            made += 1
    return made


def side(package: ModuleType, ruleset: str, policy: str, decisions: int) -> Callable[[int], int]:
    """One engine's chunk of play of a ruleset: `chunk(number) -> units of work` (decisions, or cards played)."""
    if policy == "bourre":
        from bourre_speed import drive

        game = package.load_ruleset(ruleset, {"hands": 10})
        return lambda number: drive(game.new_initial_state(seed=number, players=5), random.Random(number))
    if policy == "burraco":
        import burraco_speed

        game = package.load_ruleset(ruleset, {"hand_cap": 1})
        return lambda number: burraco_speed.play_match(game, number)[1]["discard"]
    game = package.load_ruleset(ruleset)
    return lambda number: random_play(game, package.CHANCE, decisions, number + 1)


def compare(sides: dict[str, Callable[[int], int]], rounds: int) -> dict[str, list[Chunk]]:
    """Each side once per round, the order reversed every other round, each chunk timed (see timing.py)."""
    results: dict[str, list[Chunk]] = {name: [] for name in sides}
    names = list(sides)
    for number in range(rounds):
        for name in names if number % 2 == 0 else reversed(names):
            wall, cpu = time.perf_counter(), time.process_time()
            units = sides[name](number)
            results[name].append(Chunk(time.process_time() - cpu, time.perf_counter() - wall, units))
        if sys.stderr.isatty():
            print(f"\r  round {number + 1}/{rounds}", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print("\r" + " " * 30 + "\r", end="", file=sys.stderr, flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revision", help="the git revision to compare with (a commit, a branch, HEAD~1)")
    parser.add_argument("rulesets", nargs="*", default=DEFAULT_RULESETS, help="rulesets to play (default: Bourré's "
                        "benchmark ruleset, Hearts, Texas hold'em)")
    parser.add_argument("--rounds", type=int, default=12, help="chunks of each side, taking turns (default 12)")
    parser.add_argument("--decisions", type=int, default=1500, help="decisions per chunk of random play")
    parser.add_argument("--policy", choices=("random", "bourre", "burraco"), default="random",
                        help="random play, Bourré's benchmark policy (10 hands a chunk, per card played) or "
                        "Burraco's (one hand a chunk, per turn)")
    parser.add_argument("--its-rulesets", action="store_true",
                        help="the revision plays the rulesets as they are in the revision (a change to a ruleset "
                        "and to the engine together), the working tree as they are in it")
    args = parser.parse_args(argv)
    if args.rounds < 2:
        parser.error("--rounds must be at least 2")
    os.environ["RULEDECK_NO_CACHE"] = "1"
    sys.path.insert(0, str(ROOT))
    import interpreter

    unit = {"bourre": "card", "burraco": "turn"}.get(args.policy, "decision")
    with tempfile.TemporaryDirectory(prefix="ruledeck-revision-") as directory:
        base = revision_package(args.revision, Path(directory))
        theirs = revision_rulesets(args.revision, Path(directory), args.rulesets) if args.its_rulesets else {}
        print(f"the working tree ({Path(interpreter.__file__).parent}) against {args.revision}; "
              f"{args.rounds} rounds; {args.policy} play" + ("; each with its own rulesets" if theirs else ""))
        for ruleset in args.rulesets:
            try:
                sides = {"working": side(interpreter, ruleset, args.policy, args.decisions),
                         args.revision: side(base, theirs.get(ruleset, ruleset), args.policy, args.decisions)}
            except (interpreter.RuledeckError, base.RuledeckError) as error:  # (a ruleset either engine refuses)
                raise SystemExit(str(error)) from None
            print(ruleset)
            print("\n".join(report(compare(sides, args.rounds), unit=unit, baseline=args.revision)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
