"""Many matches for statistics: each match seeded from the run's seed and its number, so the results are the
same whatever the number of worker processes."""

from __future__ import annotations

import math
import os
import signal
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from interpreter.engine.game import Game
from interpreter.loader import load_ruleset
from interpreter.runners.play import agents_for, play_match


@dataclass(frozen=True)
class Job:
    """What every match of a run shares."""

    ruleset: str
    params: tuple[tuple[str, Any], ...]
    players: int
    bots: tuple[str, ...]


@dataclass
class Summary:
    """The statistics of a run, per seat and overall."""

    matches: int
    players: int
    results: list[list[int]] = field(default_factory=list)  # per match, each seat's result
    hands: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    capped: int = 0  # matches stopped at the hand cap rather than ended by their rules

    def per_seat(self) -> list[dict[str, float]]:
        rows = []
        for seat in range(self.players):
            values = [result[seat] for result in self.results]
            wins = sum(_share_of_best(result, seat) for result in self.results)
            spread = statistics.stdev(values) if len(values) > 1 else 0.0
            rows.append({"seat": seat, "mean": statistics.fmean(values), "stdev": spread,
                         "stderr": spread / math.sqrt(len(values)), "wins": wins / len(values)})
        return rows

    def as_json(self) -> dict[str, Any]:
        return {"matches": self.matches, "players": self.players, "seats": self.per_seat(),
                "mean_hands": statistics.fmean(self.hands), "mean_actions": statistics.fmean(self.actions),
                "capped": self.capped}


def _share_of_best(result: Sequence[int], seat: int) -> float:
    best = max(result)
    tied = sum(1 for value in result if value == best)
    return 1 / tied if result[seat] == best else 0.0


def match_seed(seed: int, number: int) -> int:
    """The seed of one match of a run (a fixed function of the run's seed and the match's number)."""
    return (seed * 1_000_003 + number) % (2**62)


@cache
def _game(ruleset: str, params: tuple[tuple[str, Any], ...]) -> Game:
    return load_ruleset(ruleset, dict(params), params_as_text=True)


Outcome = tuple[list[int], int, int, bool]  # results, hands, actions, stopped at the hand cap


def play_one(job: Job, seed: int) -> Outcome:
    """One match of a run: its results, hands and actions, and whether the hand cap stopped it (runs in a
    worker process)."""
    game = _game(job.ruleset, job.params)
    agents = agents_for(job.bots, job.players, seed)
    result = play_match(game, players=job.players, seed=seed, choosers=[agent.choose for agent in agents])
    return result.returns, result.hands, result.actions, result.ended_by == "hand_cap"


def _play_many(job: Job, seeds: list[int]) -> list[Outcome]:
    return [play_one(job, seed) for seed in seeds]


def simulate(job: Job, *, games: int, seed: int, workers: int, progress: Callable[[int], None] | None = None,
             backend: str = "local", address: str | None = None) -> Summary:
    """Play `games` matches and gather their statistics: in this process, in `workers` local processes, or
    with `backend="ray"` as Ray tasks (on the cluster at `address`, or a local Ray with `workers` CPUs). The
    matches are put in seed order whatever order they finish in."""
    summary = Summary(games, job.players)
    seeds = [match_seed(seed, number) for number in range(games)]
    for results, hands, actions, capped in _outcomes(job, seeds, workers, backend, address, progress):
        summary.results.append(results)
        summary.hands.append(hands)
        summary.actions.append(actions)
        summary.capped += capped
    return summary


def watch_parent(interval: float = 0.5) -> None:
    """In a worker process: end it when the process that started it is gone, however that one ended (a `kill
    -9` leaves the pool no chance to stop its workers, and they would wait for work forever)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="ruledeck-parent-watch", daemon=True).start()


def _chunks(seeds: list[int], workers: int) -> list[list[int]]:
    size = max(1, min(50, len(seeds) // (workers * 4)))
    return [seeds[start:start + size] for start in range(0, len(seeds), size)]


def _outcomes(job: Job, seeds: list[int], workers: int, backend: str, address: str | None,
              progress: Callable[[int], None] | None) -> list[Outcome]:
    def done(count: int) -> None:
        if progress is not None:
            progress(count)

    if backend == "ray":
        from interpreter.runners.ray_backend import play_chunks

        return [outcome for chunk in play_chunks(_play_many, job, _chunks(seeds, workers), workers, address, done)
                for outcome in chunk]
    if workers <= 1:
        outcomes = []
        for seed in seeds:
            outcomes.append(play_one(job, seed))
            done(1)
        return outcomes
    found: list[Outcome] = []
    chunks = _chunks(seeds, workers)
    _game(job.ruleset, job.params)  # loaded once here: workers started by fork find it loaded (see _game's cache)
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker)
    try:
        for chunk in pool.map(_play_many, [job] * len(chunks), chunks):
            found.extend(chunk)
            done(len(chunk))
    except BaseException:  # interrupted (Ctrl-C) or failed: stop at once, leaving no worker behind
        _stop(pool)
        raise
    pool.shutdown()
    return found


def _start_worker() -> None:
    """In a worker process: Ctrl-C is for the run to answer (it stops its workers), not for each worker (which
    would print its own traceback); and the worker ends when its run is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent()


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the matches not started and end the worker processes now: `shutdown` alone waits for every
    match queued, and so would the end of the program."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # (no public way before Python 3.14)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        process.terminate()
    for process in workers:
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join(5)
