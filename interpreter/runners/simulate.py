"""Many matches for statistics: each match seeded from the run's seed and its number, so the results are the
same whatever the number of worker processes."""

from __future__ import annotations

import contextlib
import gc
import os
import shlex
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.loader import load_ruleset
from interpreter.numbers import real
from interpreter.runners.metrics import HandMeasures, declared_metrics
from interpreter.runners.play import agents_for, play_match
from interpreter.runners.summary import MatchRecord, Summary


@dataclass(frozen=True)
class Job:
    """What every match of a run shares."""

    ruleset: str
    params: tuple[tuple[str, Any], ...]
    players: int
    bots: tuple[str, ...]


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run (still a KeyboardInterrupt to whoever does not look further): `summary` holds the
    matches that finished (the first ones, in seed order, on local processes; none on Ray, whose matches finish
    in any order)."""

    def __init__(self, summary: Summary) -> None:
        super().__init__(f"interrupted after {len(summary.results)} matches")
        self.summary = summary


def match_seed(seed: int, number: int) -> int:
    """The seed of one match of a run (a fixed function of the run's seed and the match's number)."""
    return (seed * 1_000_003 + number) % (2**62)


_games: dict[tuple[str, tuple[tuple[str, Any], ...]], Game] = {}  # the games of the jobs run in this process


def _game(ruleset: str, params: tuple[tuple[str, Any], ...]) -> Game:
    game = _games.get((ruleset, params))
    if game is None:
        game = _games[ruleset, params] = load_ruleset(ruleset, dict(params), params_as_text=True)
    return game


def loaded(job: Job, game: Game) -> None:
    """Give the runs of `job` the game its caller has loaded already, from the same file (as `job.ruleset`
    names it: a variant's `extends` is found from the path as written, symbolic links included) and parameters,
    so that it is not loaded and checked again (a tenth of a second or more before the first match). Workers
    started by fork (the default on Linux before Python 3.14) find it too; workers started otherwise, and Ray's,
    load it themselves."""
    _games[job.ruleset, job.params] = game


def play_one(job: Job, seed: int) -> MatchRecord:
    """One match of a run: what the statistics need of it (runs in a worker process)."""
    game = _game(job.ruleset, job.params)
    agents = agents_for(job.bots, job.players, seed)
    state = State(game, job.players, seed)
    measures = HandMeasures(state, declared_metrics(game))  # (watching before the first hand starts)
    try:
        state.start()
        result = play_match(game, players=job.players, seed=seed, choosers=[agent.choose for agent in agents],
                            state=state)
    except RulesetRuntimeError as error:
        error.context = error.context or _replay_hint(job, seed)
        raise
    first_dealer = result.hand_results[0]["dealer"] if result.hand_results else 0
    returns = [real(value) for value in result.returns]  # (fractions as floats: statistics are means)
    return MatchRecord(returns, result.hands, result.actions, result.ended_by == "hand_cap", first_dealer,
                       measures.per_hand_means(), measures.last())


def _replay_hint(job: Job, seed: int) -> str:
    """Which match of a run failed, and the command that plays it again."""
    words = ["ruledeck", "play", shlex.quote(job.ruleset), "--players", str(job.players), "--seed", str(seed),
             "--bots", shlex.quote(",".join(job.bots))]
    for name, value in job.params:
        words += ["--set", shlex.quote(f"{name}={value}")]
    timed = " (a bot with a time budget may choose otherwise)" if any(":" in kind and kind.endswith("s")
                                                                        for kind in job.bots) else ""
    return f"in the match of seed {seed} ({job.players} players): `{' '.join(words)}` plays it again{timed}"


def _play_many(job: Job, seeds: list[int], setting_aside: bool = False) -> list[MatchRecord]:
    """Matches of a run in one of its local worker processes (`setting_aside`: each followed by `set_aside`) or
    in a Ray task (whose process Ray keeps and reuses: its garbage collection is left as it is)."""
    records = []
    for seed in seeds:
        records.append(play_one(job, seed))
        if setting_aside:
            set_aside()
    return records


def _play_timed(job: Job, seeds: list[int]) -> tuple[list[MatchRecord], float]:
    """`_play_many` in a local worker, with the wall time it took (which sizes the chunks that follow)."""
    start = time.perf_counter()
    records = _play_many(job, seeds, True)
    return records, time.perf_counter() - start


CHUNK_SECONDS = 1.0  # about how long a chunk of matches takes a worker: the progress moves at least that often


def set_aside() -> None:
    """Between two matches of a run: what the last match left behind is collected, and what is still alive (the
    ruleset's compiled code and the caches of its meld searches, which fill as matches are played) is set aside
    from garbage collection (`gc.freeze`). A full collection otherwise goes over every one of those objects,
    again and again as matches are played: 10-25% of a rummy's time (see docs/engine.md). Nothing
    is kept that a collection would free: the collection comes first, and what a cache drops later is freed by
    its reference count (the caches hold no cycles)."""
    gc.collect()
    gc.freeze()


class RunFailed(Exception):
    """A match of a run failed by the rules (`error`, located, naming its seed): `summary` holds the matches
    before it that finished (in seed order), whose statistics stand."""

    def __init__(self, summary: Summary, error: RulesetRuntimeError) -> None:
        super().__init__(str(error))
        self.summary = summary
        self.error = error


def simulate(job: Job, *, games: int, seed: int, workers: int, progress: Callable[[int], None] | None = None,
             backend: str = "local", address: str | None = None, summary: Summary | None = None,
             pool: WorkerPool | None = None) -> Summary:
    """Play `games` matches and gather their statistics: in this process, in `workers` local processes, or
    with `backend="ray"` as Ray tasks (on the cluster at `address`, or a local Ray with `workers` CPUs). The
    matches are put in seed order whatever order they finish in. A `summary` given is added to: its matches
    are the run's first ones, and these are the next `games`. A `pool` given (`worker_pool`) plays them on its
    workers, which it keeps for the next runs (a comparison's blocks). Ctrl-C raises RunInterrupted with the
    matches that finished; a match the rules fail in raises RunFailed, with those before it."""
    if summary is None:
        summary = new_summary(job, games)
    first = len(summary.records)
    seeds = [match_seed(seed, number) for number in range(first, first + games)]
    try:
        if pool is not None and backend != "ray":
            pool.play(job, seeds, progress, summary.add)
        else:
            _outcomes(job, seeds, workers, backend, address, progress, summary.add)
    except KeyboardInterrupt:
        raise RunInterrupted(summary) from None
    except RulesetRuntimeError as error:
        raise RunFailed(summary, error) from None
    return summary


def new_summary(job: Job, games: int) -> Summary:
    """An empty summary of a run of `games` matches of a job."""
    game = _game(job.ruleset, job.params)
    return Summary(games, job.players, teams=game.teams(job.players),
                   bots=tuple(job.bots) * job.players if len(job.bots) == 1 else tuple(job.bots),
                   metrics=tuple((metric.name, metric.label, metric.at_match_end, metric.truth)
                                 for metric in declared_metrics(game)))


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
    """The seeds in chunks for the workers, in order: each chunk a quarter of a worker's share of the matches
    left (at most 50), so that the chunks shrink towards the end and no worker waits long for the others' last
    matches (with chunks of one size, the last one left a worker idle for up to a chunk's time)."""
    chunks = []
    start = 0
    while start < len(seeds):
        size = max(1, min(50, (len(seeds) - start) // (workers * 4)))
        chunks.append(seeds[start:start + size])
        start += size
    return chunks


def _outcomes(job: Job, seeds: list[int], workers: int, backend: str, address: str | None,
              progress: Callable[[int], None] | None, collect: Callable[[MatchRecord], None]) -> None:
    """Play the matches of `seeds`, giving each record to `collect` in seed order as soon as it and those
    before it have finished."""
    def done(count: int) -> None:
        if progress is not None:
            progress(count)

    if backend == "ray":
        from interpreter.runners.ray_backend import play_chunks

        for chunk in play_chunks(_play_many, job, _chunks(seeds, workers), workers, address, done):
            for record in chunk:
                collect(record)
        return
    if workers <= 1:
        # (in the caller's own process: set aside only when the caller does not manage garbage collection itself,
        # and given back at the end)
        managed = not gc.isenabled() or gc.get_freeze_count() > 0
        try:
            for seed in seeds:
                collect(play_one(job, seed))
                if not managed:
                    set_aside()
                done(1)
        finally:
            if not managed:
                gc.unfreeze()
        return
    with worker_pool([job], workers) as pool:
        pool.play(job, seeds, progress, collect)


class WorkerPool:
    """Local worker processes for the runs of some jobs (`worker_pool`), kept from one run to the next: a
    comparison plays its blocks of matches, A's and B's in turns, on one pool, started once."""

    def __init__(self, executor: ProcessPoolExecutor, workers: int) -> None:
        self.executor = executor
        self.workers = workers

    def play(self, job: Job, seeds: list[int], progress: Callable[[int], None] | None,
             collect: Callable[[MatchRecord], None]) -> None:
        """The matches of `seeds` on the workers, each record given to `collect` in seed order."""
        _pooled(self.executor, job, seeds, self.workers, collect, progress or (lambda count: None))


@contextlib.contextmanager
def worker_pool(jobs: list[Job], workers: int) -> Iterator[WorkerPool]:
    """A pool of `workers` local processes for the runs of `jobs`, stopped at the end of the block: at once,
    with the matches not played, when the block ends by an exception (Ctrl-C)."""
    for job in jobs:  # (loaded once here: workers started by fork find them loaded, see `loaded`)
        _game(job.ruleset, job.params)
    if sys.platform == "win32":
        workers = min(workers, 61)  # (the most a pool takes there)
    # What this process holds is set aside from garbage collection while the workers are started: a worker's
    # collections then leave the memory it shares with this process alone, instead of copying it page by page
    # (measured: 5-10% of a worker's time on a run of a thousand short matches). Not when the caller has set
    # objects aside itself: what it set aside stays so.
    managed = gc.get_freeze_count() > 0
    if not managed:
        gc.freeze()
    executor: ProcessPoolExecutor | None = None
    try:
        # Ctrl-C and SIGTERM wait while the workers start (all at once, at the first task): one that arrived as
        # a worker was being forked could be lost in the fork's own clean-up, or stop a worker before it set its
        # handlers, with a traceback. They are answered as soon as the workers have started.
        with _signals_held():
            executor = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker)
            for _ in range(workers):  # (each start method starts them all by then)
                executor.submit(int)
        yield WorkerPool(executor, workers)
    except BaseException:  # interrupted (Ctrl-C) or failed: stop at once, leaving no worker behind
        if executor is not None:
            _stop(executor)
        raise
    finally:
        if not managed:
            gc.unfreeze()
    executor.shutdown()


_HELD = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM held back from this thread (and from the threads and processes it starts meanwhile)
    until the block ends, then answered (where the platform can hold signals)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


def _pooled(pool: ProcessPoolExecutor, job: Job, seeds: list[int], workers: int,
            collect: Callable[[MatchRecord], None], done: Callable[[int], None]) -> None:
    """The matches in chunks on the pool's workers, each chunk sized to take about CHUNK_SECONDS (the first ones
    a match each, to measure how long a match takes: a slow game's matches then go one or a few at a time, so
    that the progress moves, where a chunk of 25 matches of a minute each left it still for half an hour); at
    most a quarter of a worker's share of the matches left and 50, so that the chunks shrink towards the end
    and no worker waits long for the others' last matches. The progress counts each chunk as it finishes, the
    records go to `collect` in seed order."""
    # (futures of our own rather than `pool.map`, whose iterator cancels what is left when it is dropped: a
    # future cancelled while its result arrives makes the pool's own thread fail with a traceback)
    running: dict[Future[tuple[list[MatchRecord], float]], int] = {}  # a chunk's future -> its first seed's place
    finished: dict[int, list[MatchRecord]] = {}
    given = 0  # the seeds handed out so far
    collected = 0  # the seeds whose records went to `collect`
    per_match: float | None = None  # seconds, from the chunks finished

    def hand_out(size: int) -> None:
        nonlocal given
        running[pool.submit(_play_timed, job, seeds[given:given + size])] = given
        given += size

    while given < len(seeds) and len(running) < workers:
        hand_out(1)
    matches = seconds = 0.0
    while running:
        ready, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in ready:
            place = running.pop(future)
            records, took = future.result()
            finished[place] = records
            matches, seconds = matches + len(records), seconds + took
            per_match = seconds / matches
            done(len(records))
        while collected in finished:
            records = finished.pop(collected)
            for record in records:
                collect(record)
            collected += len(records)
        while given < len(seeds) and len(running) < 2 * workers:
            left = len(seeds) - given
            most = max(1, min(50, left // (workers * 4)))
            wanted = int(CHUNK_SECONDS / per_match) if per_match else most
            hand_out(max(1, min(most, wanted, left)))


def _start_worker() -> None:
    """In a worker process: Ctrl-C is for the run to answer (it stops its workers), not for each worker (which
    would print its own traceback); SIGTERM, which the run sends to stop its workers, ends one at once (the
    command line's own handler, inherited, would make it a KeyboardInterrupt and a traceback); and the worker
    ends when its run is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # (forked while its run held them back: see `worker_pool`)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    watch_parent()


def _stop(pool: ProcessPoolExecutor) -> None:
    """End the worker processes now, and with them the matches not played: `shutdown` alone waits for every
    match queued, and so would the end of the program. The pool then finds its workers gone and fails what was
    queued; nothing is cancelled (CPython's pool may fail with a traceback in its own thread when a result
    arrives for a future just cancelled)."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # (no public way before Python 3.14)
    for process in workers:
        process.terminate()
    pool.shutdown(wait=False)
    for process in workers:
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join(5)
