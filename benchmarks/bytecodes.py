"""Where a game's time goes, counted in bytecodes: deterministic, so unaffected by a busy machine.

    python benchmarks/bytecodes.py RULESET [--decisions 2000] [--seed 1] [--players N] [--top 25]
                                           [--function NAME] [--set NAME=VALUE ...]

Random play (a uniformly random legal action at every decision, the state's own shuffles) through the public
API, as benchmarks/games_speed.py plays it, with every bytecode the interpreter runs counted by the function it
runs in (`sys.settrace` with opcode events; the run is many times slower than without). Printed: the bytecodes
per decision and the functions that run the most of them (a comprehension or generator is counted apart, under
the function it is written in); with `--function`, that function's bytecodes line by line.

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
          overrides: dict[str, str]) -> tuple[Counter[str], int]:
    """The bytecodes run by each function (or by each line of `function`) over `decisions` decisions."""
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", type=Path)
    parser.add_argument("--decisions", type=int, default=2000, help="decisions to play (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--top", type=int, default=25, help="functions shown (default 25)")
    parser.add_argument("--function", help="count the lines of this function only")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a parameter")
    args = parser.parse_args(argv)
    try:
        overrides = parse_assignments(args.set)
        counts, made = count(args.ruleset, args.decisions, args.seed, args.players, args.function, overrides)
    except (RuledeckError, OSError, ValueError) as error:  # (a bad ruleset, parameter, number of players)
        parser.exit(2, f"{parser.prog}: {error}\n")
    total = sum(counts.values())
    print(f"{args.ruleset}: {made} decisions, {total / max(made, 1):.0f} bytecodes per decision"
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
