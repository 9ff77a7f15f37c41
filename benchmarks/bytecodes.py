"""Where a game's time goes, counted in bytecodes: deterministic, so unaffected by a busy machine.

    python benchmarks/bytecodes.py RULESET [--decisions 2000] [--seed 1] [--players N] [--top 25]
                                           [--function NAME] [--set NAME=VALUE ...]
                                           [--policy random|bourre|burraco] [--matches 3]

Random play (a uniformly random legal action at every decision, the state's own shuffles) through the public
API, as benchmarks/games_speed.py plays it, with every bytecode the interpreter runs counted by the function it
runs in (`sys.settrace` with opcode events; the run is many times slower than without). Printed: the bytecodes
per decision and the functions that run the most of them (a comprehension or generator is counted apart, under
the function it is written in); with `--function`, that function's bytecodes line by line. `--policy bourre`
or `burraco` plays `--matches` matches of a speed benchmark's policy instead (benchmarks/bourre_speed.py, ten
hands a match, counted per card played; benchmarks/burraco_speed.py, one hand, per turn): the work its bar is
measured on, the policy's own bytecodes included.

The engine's CPU time follows its bytecodes closely (about 15 ns a bytecode on the project's machines), so two
versions of the engine are compared exactly by their counts on the same seed, where timings would need many
alternating runs. A change that saves bytecodes but adds calls or allocations still needs a timing.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

from interpreter import CHANCE, load_ruleset
from interpreter.errors import RuledeckError
from interpreter.parameters import parse_assignments


def count(ruleset: Path, decisions: int, seed: int, players: int | None, function: str | None,
          overrides: dict[str, str], policy: str = "random", matches: int = 3) -> tuple[Counter[str], int]:
    """The bytecodes run by each function (or by each line of `function`) over `decisions` decisions of random
    play; with a benchmark's `policy`, over `matches` matches of it (see `benchmark_play`), and the units of
    work it counts (cards played, turns) in place of decisions."""
    if policy != "random":
        overrides = {**BENCHMARK_MATCHES[policy], **overrides}
    game = load_ruleset(ruleset, overrides, params_as_text=True)
    counts: Counter[str] = Counter()

    def name_of(frame: FrameType) -> str:
        code = frame.f_code
        if code.co_name.startswith("<") and frame.f_back is not None:  # a comprehension, in its function
            return f"{code.co_name} in {frame.f_back.f_code.co_name}"
        return code.co_name

    def tracer(frame: FrameType, event: str, argument: Any) -> Any:
        if function is not None and frame.f_code.co_name != function:
            return None
        frame.f_trace_opcodes = True
        key = name_of(frame)

        def local(frame: FrameType, event: str, argument: Any) -> Any:
            if event == "opcode":
                counts[f"line {frame.f_lineno or 0}" if function is not None else key] += 1
            return local
        return local

    chooser = random.Random(seed)
    made = match = 0
    gc.collect()
    gc.disable()  # (a collection would run whatever callbacks are registered for it, at no fixed place)
    sys.settrace(tracer)
    try:
        if policy != "random":
            return counts, benchmark_play(game, policy, matches, seed, players)
        while made < decisions:
            state = game.new_initial_state(seed=seed + match, players=players)
            match += 1
            while not state.is_terminal and made < decisions:
                if state.current_player == CHANCE:
                    state.apply_chance()
                    continue
                legal = state.legal_actions()
                state.apply(legal[chooser.randrange(len(legal))])
                made += 1
    finally:
        sys.settrace(None)
        gc.enable()
    return counts, made


# The matches a benchmark's policy plays, as its benchmark plays them: Bourré's ten hands, Burraco's one.
BENCHMARK_MATCHES = {"bourre": {"hands": "10"}, "burraco": {"hand_cap": "1"}}


def benchmark_play(game: Any, policy: str, matches: int, seed: int, players: int | None) -> int:
    """`matches` matches played by a benchmark's policy (benchmarks/bourre_speed.py, burraco_speed.py); the
    cards played, or the turns. (The policy's own bytecodes are counted with the engine's: the same in any
    version of the engine.)"""
    done = 0
    for number in range(matches):
        if policy == "bourre":
            from bourre_speed import drive  # (a sibling module: the benchmarks run as scripts)

            done += drive(game.new_initial_state(seed=seed + number, players=players or 5),
                          random.Random(seed + number))
        else:
            from burraco_speed import play_match

            done += play_match(game, seed + number, players or 4)[1]["discard"]
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", type=Path)
    parser.add_argument("--decisions", type=int, default=2000, help="decisions to play (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--top", type=int, default=25, help="functions shown (default 25)")
    parser.add_argument("--function", help="count the lines of this function only")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a parameter")
    parser.add_argument("--policy", choices=("random", "bourre", "burraco"), default="random",
                        help="random play (the default), or a benchmark's policy: Bourre's, counted per card "
                        "played, or Burraco's, per turn")
    parser.add_argument("--matches", type=int, default=3,
                        help="matches of a benchmark's policy (default 3: Bourre's of ten hands, Burraco's of one)")
    args = parser.parse_args(argv)
    try:
        overrides = parse_assignments(args.set)
        counts, made = count(args.ruleset, args.decisions, args.seed, args.players, args.function, overrides,
                             args.policy, args.matches)
    except (RuledeckError, OSError, ValueError) as error:  # (a bad ruleset, parameter, number of players)
        parser.exit(2, f"{parser.prog}: {error}\n")
    total = sum(counts.values())
    unit = {"bourre": "card", "burraco": "turn"}.get(args.policy, "decision")
    print(f"{args.ruleset}: {made} {unit}s, {total / max(made, 1):.0f} bytecodes per {unit}"
          + (f" in {args.function}" if args.function else ""))
    if args.function:
        for line in sorted(counts, key=lambda text: int(text.split()[1])):
            print(f"{counts[line] / made:10.1f}  {line}")
        return 0
    for name, number in counts.most_common(args.top):
        print(f"{number / made:10.1f}  {100 * number / total:5.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
