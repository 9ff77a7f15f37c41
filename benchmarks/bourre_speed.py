"""Speed of the engine against the hand-written reference, in the same run, with the same random policy.

    python benchmarks/bourre_speed.py [--chunk 50] [--rounds 20] [--players 5] [--ruleset FILE]

Both sides play random-policy hands of Bourré: play with probability 0.5, a uniformly random subset of the
hand to exchange, a uniformly random legal card. The reference is benchmarks/reference/bourre_handcoded.py; the
engine runs benchmarks/bourre_benchmark.yaml, whose rules match the reference's (or `--ruleset`, e.g. the full
rulesets/bourre.yaml, which does more work: the cinch), and decides through the public API (`legal_actions()`
at every decision) as any caller would. The sides run in chunks of `--chunk` hands, alternating, each chunk
timed in CPU and wall time (benchmarks/timing.py). Printed: the cost per card played of each side (medians and
ranges), the engine's ratio to the reference, the same policy's loop over the API with no rules behind it
(what the caller's side and the API's shape cost alone), and the cold start of `ruledeck validate` and
`ruledeck play`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from floor import RulelessState  # sibling modules: the benchmarks run as scripts
from references import load_reference
from timing import engine_build, interleave, report

from interpreter import CHANCE, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "benchmarks" / "bourre_benchmark.yaml"


def reference_module() -> ModuleType:
    return load_reference("bourre_handcoded")


def reference_side(module: ModuleType, chunk: int, players: int, seed: int) -> Callable[[int], int]:
    """The reference playing `chunk` hands a round; the cards played."""
    def play(number: int) -> int:
        table, _seconds = module.run(chunk, players, seed + number)
        return int(table.cards_played)
    return play


def engine_side(ruleset: Path, chunk: int, players: int, seed: int) -> Callable[[int], int]:
    """The engine playing a match of `chunk` hands a round, deciding from legal_actions(); the cards played."""
    game = load_ruleset(ruleset, {"hands": chunk})

    def play(number: int) -> int:
        state = game.new_initial_state(seed=seed + number, players=players)
        return drive(state, random.Random(seed + number))
    return play


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
            # (The two common decisions are read from the legal set's fixed order, checked, as a caller that knows
            # the ruleset would: choices in the order their lists give, options in the order the ruleset lists
            # them. The general search below is the fallback.)
            if first.name == "exchange":  # a uniformly random subset: its size, then the cards one by one
                size = bin(rng.getrandbits(5)).count("1")
                action = legal[size] if size < len(legal) else first
                if action.arguments[0][1] != size:
                    action = next(a for a in legal if a.arguments[0][1] == size)
            elif len(legal) == 2 and first.name == "pass" and legal[1].name == "play" and not legal[1].arguments:
                action = legal[1] if rng.random() < 0.5 else first
                rng.getrandbits(5)  # (the size the general case draws: the same random numbers, the same games)
            else:  # (the full ruleset asks the size of the exchange with the choice to play: the same policy)
                wanted = "play" if rng.random() < 0.5 else "pass"
                size = bin(rng.getrandbits(5)).count("1")
                passing = first.name == "pass"
                if wanted == "pass" and passing and not first.arguments:
                    action = first
                else:  # play(size), after pass when pass is offered
                    index = size + passing
                    action = legal[index] if index < len(legal) else first
                    if action.name != wanted or not action.arguments or action.arguments[0][1] != size:
                        offered = [a for a in legal if a.name == wanted] or \
                            [a for a in legal if a.name in ("play", "pass")]
                        if not offered:
                            raise SystemExit(f"unexpected choices: {[state.action_text(a) for a in legal]}")
                        action = next((a for a in offered if not a.arguments or a.arguments[0][1] == size),
                                      offered[-1])
        else:
            action = legal[rng.randrange(len(legal))] if len(legal) > 1 else first
        state.apply(action)
    return cards


def floor_side(chunk: int, players: int, seed: int) -> Callable[[int], int]:
    """The same policy over the ruleless API, for as many decisions as the engine makes in `chunk` hands (the
    legal sets are recorded from the engine's first hands, before any timing)."""
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
    decisions = len(script) * chunk // 20

    def play(number: int) -> int:
        return drive(RulelessState(script, decisions), random.Random(seed + number))
    return play


def cold_start(arguments: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "interpreter", *arguments], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunk", type=int, default=50, help="hands per chunk of each side (default 50)")
    parser.add_argument("--rounds", type=int, default=20, help="chunks of each side, alternating (default 20)")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", type=Path, default=VARIANT, help="the engine's ruleset (default: the "
                        "benchmark variant, whose rules match the reference's)")
    parser.add_argument("--no-cold-start", action="store_true", help="skip the cold-start timings")
    args = parser.parse_args(argv)
    sides = {
        "reference": reference_side(reference_module(), args.chunk, args.players, args.seed),
        "engine": engine_side(args.ruleset, args.chunk, args.players, args.seed),
        "API floor": floor_side(args.chunk, args.players, args.seed),
    }
    results = interleave(sides, args.rounds, lambda number: print(f"round {number + 1}/{args.rounds}", end="\r",
                                                                    file=sys.stderr, flush=True))
    print(" " * 20, end="\r", file=sys.stderr)
    shown = args.ruleset.resolve().relative_to(ROOT) if args.ruleset.resolve().is_relative_to(ROOT) else args.ruleset
    print(f"Bourré ({shown}), {args.players} players, {args.rounds} chunks of {args.chunk} hands per side, "
          "alternating; medians (ranges):")
    print("\n".join(report(results, unit="card", baseline="reference")))
    print(f"  (engine: {engine_build()})")
    print("  (the API floor: the same policy over the public API with no rules behind it, the least any engine "
          "driven through legal_actions() and apply() costs)")
    if not args.no_cold_start:
        validate = cold_start(["validate", str(ROOT / "rulesets" / "bourre.yaml")], 5)
        play = cold_start(["play", str(ROOT / "rulesets" / "bourre.yaml"), "--set", "hands=1", "--bots", "random",
                           "--seed", "1"], 5)
        print(f"  cold start (wall, medians of 5): validate {validate * 1000:.0f} ms, play one hand "
              f"{play * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
