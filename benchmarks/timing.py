"""Timing for the benchmarks: the sides (the engine, the hand-written reference, ...) run in small chunks,
alternating, so that a noisy shared machine slows them alike; each chunk is timed in CPU time
(`time.process_time()`) and wall time, and the report gives medians and ranges, never one time."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Chunk:
    """One timed chunk of a side: its CPU and wall seconds and the units of work it did (cards, turns)."""

    cpu: float
    wall: float
    units: int

    def per_unit(self, clock: str) -> float:
        return (self.cpu if clock == "cpu" else self.wall) / max(self.units, 1)


def interleave(sides: dict[str, Callable[[int], int]], rounds: int,
               progress: Callable[[int], None] | None = None) -> dict[str, list[Chunk]]:
    """Run each side once per round, in turn (`side(round) -> units of work`), timing every call."""
    results: dict[str, list[Chunk]] = {name: [] for name in sides}
    for number in range(rounds):
        for name, side in sides.items():
            wall, cpu = time.perf_counter(), time.process_time()
            units = side(number)
            results[name].append(Chunk(time.process_time() - cpu, time.perf_counter() - wall, units))
        if progress is not None:
            progress(number)
    return results


def spread(values: list[float]) -> str:
    """A median with its range: `12.3 (11.9-14.0)`."""
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def ratios(results: dict[str, list[Chunk]], side: str, baseline: str, clock: str) -> list[float]:
    """Each round's cost per unit of `side` over `baseline` (chunks run side by side: paired)."""
    return [mine.per_unit(clock) / theirs.per_unit(clock)
            for mine, theirs in zip(results[side], results[baseline], strict=True)]


def report(results: dict[str, list[Chunk]], *, unit: str, baseline: str) -> list[str]:
    """Lines: each side's cost per unit (CPU and wall, median and range, in microseconds) and its ratio to
    the baseline's (the median of the rounds' paired ratios, with their range)."""
    lines = [f"  {'':<12} {'CPU us/' + unit:>26} {'wall us/' + unit:>26}   ratio to {baseline} (CPU; wall)"]
    for name, chunks in results.items():
        cpu = spread([chunk.per_unit("cpu") * 1e6 for chunk in chunks])
        wall = spread([chunk.per_unit("wall") * 1e6 for chunk in chunks])
        ratio = "" if name == baseline else \
            f"   {spread(ratios(results, name, baseline, 'cpu'))}x; {spread(ratios(results, name, baseline, 'wall'))}x"
        lines.append(f"  {name:<12} {cpu:>26} {wall:>26}{ratio}")
    return lines


def engine_build() -> str:
    """Which engine the figures are of: its compiled build (interpreter/native.py) or its Python source."""
    from interpreter import native

    found = native.status()
    return f"the engine's compiled build ({found.folder})" if found.active else \
        f"the engine's Python source ({found.reason})"
