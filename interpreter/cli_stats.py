"""The command line's statistics: running many matches with a progress bar (Ctrl-C keeps what finished),
`simulate`'s report, and the `compare` command."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from interpreter.cli_support import complete_ruleset, echo_json, ruleset_file
from interpreter.parameters import parse_assignments
from interpreter.runners import ray_backend
from interpreter.search_budget import MOST_ITERATIONS, MOST_SECONDS

if TYPE_CHECKING:
    from interpreter.engine.errors import RulesetRuntimeError
    from interpreter.engine.game import Game
    from interpreter.runners.simulate import Job
    from interpreter.runners.summary import Summary

DEFAULT_BOTS = "heuristic"  # for `play`, `simulate` and `compare` alike
# The `--bots` option's help, for `play`, `simulate`, `compare` and `serve` alike (the caps named as the search bot
# checks them)
BOTS_HELP = (f"Bot kinds: one for every seat, or one per seat (random, heuristic, search; search:N searches N "
             f"playouts per decision (up to {MOST_ITERATIONS:,}), search:Ts for T CPU seconds (up to "
             f"{MOST_SECONDS:g}), search:N:Ts both)")


def bots_text(kinds: list[str], given: str) -> str:
    """The bots of a run as its header says them."""
    return ",".join(kinds) + (" (the default)" if given == DEFAULT_BOTS else "")


def warn_if_timed(kinds: list[str]) -> None:
    """Say, before a run, that bots stopped by time make its results depend on the machine (`search:2s`)."""
    from interpreter.agents import timed_kinds

    timed = timed_kinds(kinds)
    if timed:
        click.echo(f"note: {', '.join(timed)} searches for as long as its time allows, so the results depend on "
                   "this machine's speed and load as well as the seed: a run played again (or with other "
                   "--workers) may differ; give a number of playouts (search:N) for results that can be "
                   "repeated", err=True)


def check_backend(backend: str, address: str | None) -> None:
    if address is not None and backend != "ray":
        raise click.UsageError("--address is for --backend ray")
    if address is not None and address != "auto" and ray_backend.address_parts(address) is None:
        raise click.UsageError(f"--address {address}: {ray_backend.ADDRESS_FORM}")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise click.UsageError("--backend ray needs Ray: pip install 'ruledeck[ray]'")


MOST_WORKERS = 4_096  # processes (or Ray tasks at once) a run may ask for: more is a mistyped number
AUTO = "auto"
WORKERS_HELP = ("Processes to play in: a number, or auto (one for each CPU this process may use, never more than "
                "the matches); the results do not depend on it.")


class Workers(click.ParamType):  # type: ignore[type-arg]  # (generic in newer click; not in 8.1, allowed too)
    """`--workers`: a number of processes from 1 to MOST_WORKERS, or `auto` (0 until the run knows its size:
    see `workers_for`)."""

    name = "N|auto"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip().lower()
        if text == AUTO:
            return 0
        try:
            number = int(text)
        except ValueError:
            self.fail(f"{value!r} is neither a number of processes nor auto", param, ctx)
        if not 1 <= number <= MOST_WORKERS:
            self.fail(f"{number} is not in the range 1<=x<={MOST_WORKERS} (or auto)", param, ctx)
        return number


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system tells it), and no more than a container's
    share of CPU time allows (cgroup v2's `cpu.max`, v1's quota and period: two CPUs' worth on a host of 64); at
    least one."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # (not on every system)
        count = os.cpu_count() or 1
    share = _cgroup_share()
    return max(1, min(count, share) if share is not None else count)


def _cgroup_share() -> int | None:
    """The CPUs a container's quota of CPU time amounts to, rounded up; None where no quota is set or known."""
    for quota_file, period_file in (("/sys/fs/cgroup/cpu.max", None),
                                    ("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "/sys/fs/cgroup/cpu/cpu.cfs_period_us")):
        try:
            words = Path(quota_file).read_text(encoding="ascii").split()
            if period_file is not None:
                words += Path(period_file).read_text(encoding="ascii").split()
            quota, period = int(words[0]), int(words[1])
        except (OSError, ValueError, IndexError):  # (no such file, `max`: no quota)
            continue
        if quota > 0 and period > 0:
            return -(-quota // period)
    return None


def workers_for(given: int, matches: int) -> int:
    """The processes a run of `matches` matches plays in: the number given, or for `auto` (0) one per usable CPU
    and never more than the matches."""
    return given if given > 0 else max(1, min(usable_cpus(), matches))


def check_plot(path: str | None) -> None:
    """Before any match is played: a plot needs a folder to be written in, and matplotlib, an optional extra."""
    if path is not None:
        folder = Path(path).parent
        if not folder.is_dir():
            raise click.UsageError(f"--plot: cannot write {path}: there is no folder {folder}")
        from interpreter.runners.plot import PlotUnavailable, require_matplotlib
        try:
            require_matplotlib()
        except PlotUnavailable as error:
            raise click.UsageError(str(error)) from None


def _written(path: str, draw: Callable[[], None]) -> None:
    """Draw a plot to its file, once the statistics are printed: a file that cannot be written is said, and the
    command fails, with nothing printed lost."""
    try:
        draw()
    except OSError as error:
        click.echo(f"error: --plot: cannot write {path}: {error.strerror or error}", err=True)
        sys.exit(1)
    click.echo(f"plot written to {path}", err=True)


class _ProgressLines:
    """Progress as a line now and then, where the bar cannot be drawn (the output is a file, a pipe, a CI log):
    the first after FIRST seconds, then at most one each EVERY seconds, so that a long run is seen to move and a
    short one prints nothing more."""

    FIRST, EVERY = 10.0, 30.0

    def __init__(self, length: int, label: str) -> None:
        self.length, self.label = length, label
        self.done = 0
        self.start = time.monotonic()
        self.next = self.start + self.FIRST

    def update(self, count: int) -> None:
        self.done += count
        now = time.monotonic()
        if now >= self.next and self.done < self.length:
            self.next = now + self.EVERY
            spent = now - self.start
            left = spent * (self.length - self.done) / self.done if self.done else None
            click.echo(f"{self.label} {self.done}/{self.length} matches, {_duration(spent)} so far"
                       + (f", about {_duration(left)} left" if left is not None else ""), err=True)


def _duration(seconds: float) -> str:
    """`7m 24s`, `1h 02m`: a time for people."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, seconds_left = divmod(rest, 60)
    return f"{hours}h {minutes:02d}m" if hours else f"{minutes}m {seconds_left:02d}s"


@contextlib.contextmanager
def progress_bar(length: int, label: str) -> Iterator[Any]:
    """A progress bar on stderr at a terminal (click's, with the time left); elsewhere, a line now and then."""
    if sys.stderr.isatty():
        with click.progressbar(length=length, label=label, file=sys.stderr, show_eta=True) as bar:
            yield bar
    else:
        click.echo(label, err=True)  # (as click's bar prints it where it cannot draw)
        yield _ProgressLines(length, label)


def run_job(job: Job, *, games: int, seed: int, workers: int, backend: str, address: str | None,
            label: str) -> tuple[Summary, bool, RulesetRuntimeError | None]:
    """Play a run with a progress bar; its summary, whether Ctrl-C stopped it, and the error of a match the rules
    failed in, which stopped it (the summary then holds the matches that finished before)."""
    from interpreter.runners.simulate import RunFailed, RunInterrupted, simulate

    workers = workers_for(workers, games)
    try:
        with progress_bar(games, label) as bar:
            return simulate(job, games=games, seed=seed, workers=workers, progress=bar.update, backend=backend,
                            address=address), False, None
    except RunInterrupted as stopped:  # the workers are stopped already
        return stopped.summary, True, None
    except RunFailed as failed:
        return failed.summary, False, failed.error


def report_simulation(game: Game, summary: Summary, *, header: str, as_json: bool, plot_path: str | None,
                      interrupted: bool, facts: dict[str, Any], failure: RulesetRuntimeError | None = None) -> None:
    """A run's statistics (as text or JSON, and plotted); after Ctrl-C, of the matches that finished (exit 130);
    after a match the rules failed in, of those before it, then the error (raised: exit 1)."""
    from interpreter.runners.report import stopped_line, summary_lines

    if interrupted or failure is not None:
        click.echo("\n" + stopped_line(len(summary.records), summary.matches, failed=failure is not None), err=True)
    if as_json:
        stopped = {"stopped_by_error": str(failure)} if failure is not None else {}
        echo_json({"ruleset": game.name, **facts, **summary.as_json(), "interrupted": interrupted, **stopped})
    elif summary.records:
        click.echo(header)
        for line in summary_lines(summary):
            click.echo(line)
        if summary.capped:
            click.echo(f"{summary.capped} of {len(summary.records)} matches stopped at the hand cap before they "
                       "ended (see `match.hand_cap`); their results are as the cap left them")
    if plot_path is not None and summary.records:
        from interpreter.runners.plot import plot_simulation
        _written(plot_path, lambda: plot_simulation(summary, plot_path, title=header))
    if interrupted:
        sys.exit(130)
    if failure is not None:
        raise failure


def _with_own(common: tuple[str, ...], own: tuple[str, ...], option: str) -> tuple[str, ...]:
    """The parameters of one side: `--set`'s, and the side's own (`--a-set`, `--b-set`) over them."""
    from interpreter.errors import ParameterError

    try:
        given = parse_assignments(list(common))
    except ParameterError as error:
        raise click.UsageError(str(error)) from None
    try:
        given.update(parse_assignments(list(own)))
    except ParameterError as error:
        raise click.UsageError(str(error).replace("--set", option, 1)) from None
    return tuple(f"{name}={value}" for name, value in given.items())


def _side(name: str, ruleset: str, assignments: tuple[str, ...]) -> tuple[str, Game, tuple[tuple[str, Any], ...]]:
    """One side of a comparison: its file, game and parameters; a bad file prints its findings and exits 1, a
    bad parameter is a usage error naming the side."""
    from interpreter.cli import load_game_or_exit
    from interpreter.errors import ParameterError

    path = ruleset_file(ruleset)
    try:
        game = load_game_or_exit(path, assignments)
        params = tuple(parse_assignments(list(assignments)).items())
    except (click.UsageError, ParameterError) as error:
        raise click.UsageError(f"{name} ({ruleset}): {getattr(error, 'message', error)}") from None
    return path, game, params


def _describe(name: str, ruleset: str, game: Game, assignments: tuple[str, ...]) -> str:
    given = f" with {' '.join(assignments)}" if assignments else ""
    return f"{name}: {game.name} ({ruleset}){given}"


@click.command(name="compare")
@click.argument("ruleset_a", metavar="A", shell_complete=complete_ruleset)
@click.argument("ruleset_b", metavar="[B]", required=False, shell_complete=complete_ruleset)
@click.option("-n", "--matches", "games", type=click.IntRange(min=2), required=True, metavar="GAMES",
              help="Matches to play with each (the same seeds for both).")
@click.option("--players", type=int, help="Number of players (default: A's default).")
@click.option("--seed", type=int, default=1, show_default=True, help="The run's seed (each match's follows from it).")
@click.option("--set", "assignments", multiple=True, metavar="NAME=VALUE", help="A parameter's value for both.")
@click.option("--a-set", "a_assignments", multiple=True, metavar="NAME=VALUE", help="A parameter's value for A.")
@click.option("--b-set", "b_assignments", multiple=True, metavar="NAME=VALUE", help="A parameter's value for B.")
@click.option("--bots", default=DEFAULT_BOTS, show_default=True, metavar="KIND,...",
              help=BOTS_HELP + "; the same for A and B.")
@click.option("--workers", type=Workers(), default=AUTO, show_default=True, metavar="N|auto",
              help=WORKERS_HELP)
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="Where the matches are played: local processes, or Ray tasks (pip install 'ruledeck[ray]').")
@click.option("--address", metavar="HOST:PORT", help="With --backend ray: the Ray cluster to use.")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, writable=True), metavar="FILE.png",
              help="Draw both runs' results with their intervals, and their distributions (pip install "
                   "'ruledeck[plot]').")
def compare_command(ruleset_a: str, ruleset_b: str | None, games: int, players: int | None, seed: int,
                    assignments: tuple[str, ...], a_assignments: tuple[str, ...], b_assignments: tuple[str, ...],
                    bots: str, workers: int, backend: str, address: str | None, as_json: bool,
                    plot_path: str | None) -> None:
    """Play A and B on the same seeds and compare every statistic: A, B, and B - A with a 95% interval from the
    paired matches. B is another ruleset (a variant and its base, two games), or A again when left out: then
    --a-set and --b-set give the two configurations, e.g. `ruledeck compare GAME --b-set NAME=VALUE`.
    """
    from interpreter.cli import _table_and_bots
    from interpreter.runners.simulate import Job, loaded

    check_backend(backend, address)
    check_plot(plot_path)
    b_given = ruleset_b is not None
    ruleset_b = ruleset_a if ruleset_b is None else ruleset_b
    sides_given = ((ruleset_a, _with_own(assignments, a_assignments, "--a-set")),
                   (ruleset_b, _with_own(assignments, b_assignments, "--b-set")))
    path_a, game_a, params_a = _side("A", *sides_given[0])
    path_b, game_b, params_b = _side("B", *sides_given[1])
    from interpreter.runners.integrity import rules_fingerprint
    if rules_fingerprint(game_a) == rules_fingerprint(game_b) and \
            game_a.ruleset.parameter_values == game_b.ruleset.parameter_values:  # (`hands=01` is `hands=1`)
        hint = ("give another B, or --a-set or --b-set with another value" if b_given else
                "give B, or --a-set or --b-set (a parameter's value for one of them)")
        raise click.UsageError(f"A and B are the same rules with the same parameters' values: {hint}")
    count, kinds = _table_and_bots(game_a, players, bots)
    warn_if_timed(kinds)
    try:
        _table_and_bots(game_b, count, bots)
    except click.UsageError as error:
        raise click.UsageError(f"B ({ruleset_b}): {error.message}") from None
    jobs = [Job(str(Path(path).absolute()), params, count, tuple(kinds))
             for path, params in ((path_a, params_a), (path_b, params_b))]
    for job, game in zip(jobs, (game_a, game_b), strict=True):
        loaded(job, game)
    runs, interrupted, failure = _run_pairs(jobs, games=games, seed=seed, workers=workers, backend=backend,
                                            address=address, label=_bar_label(game_a.name, game_b.name, count))
    header = [_describe("A", ruleset_a, game_a, sides_given[0][1]),
              _describe("B", ruleset_b, game_b, sides_given[1][1])]
    facts = {"a": {"ruleset": game_a.name, "file": path_a, "params": dict(params_a)},
             "b": {"ruleset": game_b.name, "file": path_b, "params": dict(params_b)},
             "players": count, "seed": seed, "bots": kinds}
    _report_comparison(runs[0], runs[1], header=header, facts=facts, bots=bots_text(kinds, bots), games=games,
                       as_json=as_json, plot_path=plot_path, interrupted=interrupted, failure=failure)


def _report_comparison(a: Summary, b: Summary, *, header: list[str], facts: dict[str, Any], bots: str, games: int,
                       as_json: bool, plot_path: str | None, interrupted: bool,
                       failure: RulesetRuntimeError | None = None) -> None:
    """The comparison as text (or JSON) and as a plot; exit 130 after an interrupted run; after a match the rules
    failed in, the comparison of the pairs before it, then the error (raised: exit 1)."""
    from interpreter.runners.comparison import compare, comparison_json, comparison_lines, what_changed
    from interpreter.runners.report import stopped_line

    rows = compare(a, b)
    pairs = min(len(a.records), len(b.records))
    if interrupted or failure is not None:
        click.echo("\n" + stopped_line(pairs, games, failed=failure is not None, pairs=True), err=True)
    if as_json:
        stopped = {"stopped_by_error": str(failure)} if failure is not None else {}
        echo_json({**facts, "matches": pairs, "planned": games, "interrupted": interrupted,
                   "statistics": comparison_json(rows),
                   "summary": what_changed(rows, facts["bots"], facts["players"]), **stopped})
    elif pairs:
        played = (f"{pairs} matches each on the same seeds, {facts['players']} players, seed {facts['seed']}; "
                  f"bots: {bots}")
        for line in [*header, played, "", *comparison_lines(rows), "", "What changed from A to B:",
                     *what_changed(rows, facts["bots"], facts["players"])]:
            click.echo(line)
    if plot_path is not None and pairs:
        from interpreter.runners.plot import plot_comparison
        _written(plot_path, lambda: plot_comparison(rows, a, b, plot_path, title="\n".join(header)))
    if interrupted:
        sys.exit(130)
    if failure is not None:
        raise failure


def _bar_label(a: str, b: str, count: int) -> str:
    # (semicolons between the sides: a ruleset's name may hold commas, "My game, house rules")
    return f"{a}, A and B; {count} players" if a == b else f"A: {a}; B: {b}; {count} players"


BLOCK_SECONDS = 2.0  # a pair of blocks of a comparison that takes less than this is followed by larger ones


def _run_pairs(jobs: list[Job], *, games: int, seed: int, workers: int, backend: str, address: str | None,
               label: str) -> tuple[list[Summary], bool, RulesetRuntimeError | None]:
    """Both runs of a comparison, in turns of a block of matches each (so that Ctrl-C leaves pairs to compare),
    with one progress bar; the runs, whether Ctrl-C stopped them, and the error of a match the rules failed in,
    which stopped them (the pairs before it compare)."""
    from interpreter.runners.simulate import RunFailed, new_summary, simulate, worker_pool

    runs = [new_summary(job, games) for job in jobs]
    workers = workers_for(workers, games)
    # Local workers play every block, A's and B's, on one pool started once; Ray, started once per run, plays
    # each side whole. A block starts as one match per worker and doubles while a pair of blocks takes under
    # BLOCK_SECONDS, up to its most: slow matches (bots that search) leave pairs to compare at any Ctrl-C, fast
    # ones are played in blocks large enough to keep the workers busy.
    most = games if backend == "ray" else max(workers * 10, min(100, -(-games // 10)))
    block = games if backend == "ray" else workers
    pooled = backend != "ray" and workers > 1
    try:
        with progress_bar(2 * games, label) as bar, \
                (worker_pool(jobs, workers) if pooled else contextlib.nullcontext()) as pool:
            while len(runs[1].records) < games:
                size = min(block, games - len(runs[1].records))
                started = time.monotonic()
                for job, run in zip(jobs, runs, strict=True):
                    simulate(job, games=size, seed=seed, workers=workers, progress=bar.update, backend=backend,
                             address=address, summary=run, pool=pool)
                if time.monotonic() - started < BLOCK_SECONDS:
                    block = min(2 * block, most)
    except KeyboardInterrupt:  # (a RunInterrupted, or Ctrl-C between two blocks: the pairs finished compare)
        return runs, True, None
    except RunFailed as failed:
        return runs, False, failed.error
    return runs, False, None
