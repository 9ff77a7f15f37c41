"""The `ruledeck` command line."""

from __future__ import annotations

import errno
import math
import os
import random
import shlex
import signal
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

import click
from click.core import ParameterSource

from interpreter import cache, cli_logs
from interpreter.bundled import bundled_rulesets
from interpreter.cli_native import native_command
from interpreter.cli_serve import serve_command
from interpreter.cli_stats import AUTO, BOTS_HELP, DEFAULT_BOTS, WORKERS_HELP, Workers, compare_command
from interpreter.cli_support import (
    complete_ruleset,
    echo_json,
    expand,
    findings_text,
    is_scenario_file,
    print_cached,
    print_findings,
    reads_as_ruleset,
    ruleset_file,
)
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.errors import ParameterError, RuledeckError, RulesetError
from interpreter.numbers import plain_number, signed
from interpreter.parameters import parse_assignments

if TYPE_CHECKING:  # (the rest is imported where it is used: a command loads only what it needs)
    from interpreter.actions import Action
    from interpreter.engine.game import Game
    from interpreter.engine.state import State


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ruledeck", prog_name="ruledeck")
def cli() -> None:
    """ruledeck: card games as data. Validate, play and measure YAML rulesets."""


cli.add_command(compare_command)
cli.add_command(serve_command)
cli.add_command(native_command)


@cli.command()
@click.argument("paths", nargs=-1, required=True, metavar="RULESET...", shell_complete=complete_ruleset)
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@click.option("--set", "assignments", multiple=True, metavar="NAME=VALUE",
              help="Give a parameter a value (repeatable), e.g. --set pot_limit=20.")
@click.option("-q", "--quiet", is_flag=True, help="Print only findings, not the files that are fine.")
@click.option("--playouts", type=click.IntRange(min=0), default=0, metavar="N",
              help="Also play N seeded matches with random bots per number of players, and report dead ends, "
                   "runaway matches, failures, and options or phases never reached.")
@click.option("--playout-seconds", type=click.FloatRange(min=0), default=60.0, show_default=True,
              metavar="SECONDS", help="With --playouts: the time budget of the playouts of one file.")
@click.option("--cases", "cases_path", type=click.Path(dir_okay=False, writable=True), metavar="FILE.yaml",
              help="With --playouts: write the matches that failed in the playouts as scenario cases (one file, the "
                   "last ruleset's).")
def validate(paths: tuple[str, ...], strict: bool, assignments: tuple[str, ...], quiet: bool, playouts: int,
             playout_seconds: float, cases_path: str | None) -> None:
    """Check ruleset files (or every .yaml file under a directory, or bundled rulesets by name) and report
    every finding; with --playouts, also play them.

    Each finding is printed as PATH:LINE:COL: error[code]: message (at yaml.path), with the line and a caret.
    Exit status: 0 when every file is valid, 1 when any is not, 2 on a usage error.
    """
    try:
        given = parse_assignments(list(assignments))
    except ParameterError as error:
        raise click.UsageError(str(error)) from None
    _check_playout_options(playouts, cases_path)
    if math.isnan(playout_seconds):
        raise click.UsageError("--playout-seconds: give a number of seconds, not nan")
    if cases_path is not None:
        _check_cases_file(cases_path)
    files = expand(ruleset_file(path, folders=True) for path in paths)
    errors = warnings = 0
    scenarios = [file for file in files if is_scenario_file(file)]
    for file in scenarios:
        if file in paths:  # (named: a mistake worth an error; found in a folder beside the rulesets: skipped)
            click.echo(f"{file}: error: a scenario file (`ruleset:` and `cases:`), not a ruleset: `ruledeck test "
                       f"{file}` runs its cases")
            errors += 1
    files = [file for file in files if file not in scenarios]
    for file in files:
        key = cache.ruleset_key(file, "validate", file, sorted(given.items()))
        known = cache.get(key[0]) if key is not None else None
        if known is not None and not (type(known.get("warnings")) is int and isinstance(known.get("findings"), str)):
            known = None  # (an entry damaged since it was written: checked again, and written anew)
        if known is not None:  # (the same files, parameters and engine were found free of errors before)
            warnings += int(known["warnings"])
            # (with --playouts, a file is "ok" only once it has been played too: said after the playouts)
            print_cached(file, str(known["findings"]), quiet or bool(playouts))
            if playouts:
                errors, warnings = _play_out(file, given, playouts, playout_seconds, cases_path, errors, warnings,
                                             ok=not known["findings"] and not quiet)
            continue
        from interpreter.loader import check_file  # (here: a file answered from the cache needs no checker)

        try:
            findings, ruleset = check_file(file, given, params_as_text=True)
        except ParameterError as error:
            raise click.UsageError(f"{file}: {error}") from None
        errors += sum(1 for d in findings if d.severity == "error")
        warnings += sum(1 for d in findings if d.severity == "warning")
        print_findings(file, findings, quiet or bool(playouts and ruleset is not None))
        if key is not None and ruleset is not None and cache.made_from(ruleset.tree) == key[1]:
            kept = findings_text(file, findings) if findings else ""
            cache.put(key[0], {"warnings": len(findings), "findings": kept})
        if playouts and ruleset is not None:
            errors, warnings = _play_out(file, given, playouts, playout_seconds, cases_path, errors, warnings,
                                         ok=not findings and not quiet)
    skipped = [file for file in scenarios if file not in paths]
    if skipped:
        shown = ", ".join(skipped[:3]) + (f" and {len(skipped) - 3} more" if len(skipped) > 3 else "")
        click.echo(f"(scenario files, skipped: {shown}; `ruledeck test` runs them)")
    summary = f"{len(files)} file{'s' if len(files) != 1 else ''} checked: " \
              f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"
    click.echo(summary, err=True)
    sys.exit(1 if errors or (strict and warnings) else 0)


@cli.command()
@click.argument("variant", metavar="VARIANT", shell_complete=complete_ruleset)
def explain(variant: str) -> None:
    """Print what a variant changes relative to the ruleset it extends, item by item: + added, - removed,
    ~ changed, each with the line of the variant (or of a file between) that made the change."""
    from interpreter.explain import explain as explain_variant
    from interpreter.explain import render
    file = ruleset_file(variant)
    try:
        base, found = explain_variant(file)
    except RulesetError as error:
        click.echo(error.render(), err=True)
        sys.exit(1)
    except RuledeckError as error:  # a file that extends nothing
        click.echo(f"error: {error}", err=True)
        sys.exit(1)
    click.echo(render(file, base, found))


def _check_playout_options(playouts: int, cases_path: str | None) -> None:
    """`--playout-seconds` and `--cases` are of the playouts: given without any (no `--playouts N`, or
    `--playouts 0`), they would be ignored in silence, and are refused."""
    if playouts:
        return
    context = click.get_current_context()
    if context.get_parameter_source("playout_seconds") not in (ParameterSource.DEFAULT, None):
        raise click.UsageError("--playout-seconds needs --playouts N (it is the time budget of the playouts, and "
                               "none are played without it)")
    if cases_path is not None:
        raise click.UsageError("--cases needs --playouts N (it writes the matches that failed in the playouts, and "
                               "none are played without it)")


def _check_cases_file(path: str) -> None:
    """Before any playout: `--cases` names a file that can be written, and that holds nothing to lose (none yet,
    an empty one, or cases an earlier `--cases` wrote)."""
    from interpreter.runners.playouts import CASES_HEADER

    target = Path(path)
    if not path:
        raise click.UsageError("--cases: give a file name")
    if target.exists() and not target.is_file():
        raise click.UsageError(f"--cases: {path} is not a file")
    if not target.parent.is_dir():
        raise click.UsageError(f"--cases: cannot write {path}: there is no folder {target.parent}")
    try:
        with target.open("rb") as file:
            first = file.readline(len(CASES_HEADER) + 2)
    except FileNotFoundError:
        return
    except OSError as error:
        raise click.UsageError(f"--cases: cannot write {path}: {error.strerror or error}") from None
    if first and not first.startswith(CASES_HEADER.encode()):
        raise click.UsageError(f"--cases: {path} holds something else than cases `--cases` wrote (a ruleset, a "
                               "scenario): give a new file")


def _play_out(file: str, given: dict[str, Any], playouts: int, seconds: float, cases_path: str | None,
              errors: int, warnings: int, *, ok: bool) -> tuple[int, int]:
    """`validate --playouts`: play the file, print the findings (or `FILE: ok` when `ok`, the checks having found
    nothing, and the playouts find nothing either); the counts of errors and warnings after them."""
    from interpreter.loader import load_ruleset
    from interpreter.runners.playouts import run_playouts, write_cases

    report = run_playouts(load_ruleset(file, given, params_as_text=True), playouts, seconds=seconds)
    if report.findings:
        click.echo(findings_text(file, report.findings))
    elif ok:
        click.echo(f"{file}: ok")
    short = f" (the time budget allowed {report.played} of {report.planned})" if report.played < report.planned \
        else ""
    capped = "" if not report.capped else " (every one stopped at the hand cap: random bots never reached the " \
        "match's end)" if report.capped == report.played else f" ({report.capped} stopped at the hand cap)"
    click.echo(f"{file}: {report.played} playout{'s' if report.played != 1 else ''}{short}{capped}", err=True)
    found_errors = sum(1 for d in report.findings if d.severity == "error")
    if cases_path and report.failing:
        try:
            write_cases(file, report.failing, cases_path)
        except OSError as error:
            click.echo(f"error: --cases: cannot write {cases_path}: {error.strerror or error}", err=True)
            errors += 1
        else:
            click.echo(f"{file}: {len(report.failing)} failing matches written to {cases_path}", err=True)
    return errors + found_errors, warnings + len(report.findings) - found_errors


def load_game_or_exit(path: str, assignments: tuple[str, ...]) -> Game:
    """The game of a ruleset file; a bad file prints its findings and exits 1, a bad --set exits 2."""
    from interpreter.loader import load_ruleset
    try:
        return load_ruleset(path, parse_assignments(list(assignments)), params_as_text=True)
    except ParameterError as error:
        raise click.UsageError(str(error)) from None
    except RulesetError as error:
        click.echo(error.render(), err=True)
        sys.exit(1)


@cli.command()
@click.argument("ruleset", metavar="[RULESET]", required=False, shell_complete=complete_ruleset)
@click.option("--players", type=int, help="Number of players (default: the ruleset's default).")
@click.option("--seed", type=int, help="Random seed: the same seed plays the same match.")
@click.option("--set", "assignments", multiple=True, metavar="NAME=VALUE", help="Give a parameter a value.")
@click.option("--bots", default=DEFAULT_BOTS, show_default=True, metavar="KIND,...",
              help=BOTS_HELP + ".")
@click.option("--human", type=int, metavar="SEAT", help="Play this seat yourself at the terminal.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, writable=True), metavar="FILE.jsonl",
              help="Write every event as a JSON line, flushed as written (a replayable record).")
@click.option("--resume", "resume_path", type=click.Path(exists=True, dir_okay=False, writable=True),
              metavar="FILE.jsonl",
              help="Go on with the match a log holds (its ruleset, players, seed and parameters), adding to it.")
@click.option("--log-seat", "seat_logs", multiple=True, type=(int, click.Path(dir_okay=False, writable=True)),
              metavar="SEAT FILE.jsonl", help="Also write what one seat sees: its own cards, the public events, the "
              "others' hidden actions masked, no shuffle (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print only the result, as JSON.")
def play(ruleset: str | None, players: int | None, seed: int | None, assignments: tuple[str, ...], bots: str,
         human: int | None, log_path: str | None, resume_path: str | None, seat_logs: tuple[tuple[int, str], ...],
         as_json: bool) -> None:
    """Play one match of a ruleset (a file, or a bundled ruleset by name) with bots, printing a transcript.

    With --human, the full log (every shuffle: the record of the match, not for the player) is written from
    the start, to --log or a new file, and the person is told where. A match stopped at the terminal (q,
    Ctrl-C or the end of input) is kept in it; `ruledeck play --resume FILE.jsonl` goes on with it.
    """
    from interpreter.runners.logfile import MatchLog
    from interpreter.runners.metrics import HandMeasures, declared_metrics
    from interpreter.runners.play import agents_for, play_match
    state: State | None = None
    logged: int | None = None  # for a resumed match, the events its log already holds
    log_file: IO[str] | None = None
    match_log: MatchLog | None = None
    if resume_path is not None:
        if ruleset is not None or players is not None or seed is not None or assignments or log_path:
            raise click.UsageError("--resume: the log gives the ruleset, players, seed and parameters, and the "
                                   "match goes on in it; give none of RULESET, --players, --seed, --set, --log")
        if not Path(resume_path).is_file():  # a device or a pipe would be read forever
            raise click.UsageError(f"--resume: {resume_path} is not a log file")
        # (first: nothing is read or cut while another run writes it)
        log_file = cli_logs.open_log(resume_path, "--resume")
        state, header, logged, chain = _resumed(resume_path, log_file)
        match_log = MatchLog(log_file, chain)
        game, count, seed = state.game, state.player_count, state.seed
        log_path = resume_path
        kinds = _table_and_bots(game, count, bots)[1]
        people = header.get("humans")  # (a web table's log: the seats of its people)
        logged_human = header.get("human")
        if human is not None and logged_human is not None and human != logged_human:
            log_file.close()  # (let go of the match: nothing was written)
            raise click.UsageError(f"--resume: the person of {resume_path} plays p{logged_human}, whose seat stays "
                                   f"theirs: resume without --human")
        if human is not None and isinstance(people, list) and people and human not in people:
            log_file.close()
            raise click.UsageError(f"--human: the people of {resume_path} play "
                                   f"{', '.join(f'p{seat}' for seat in people)}: take one of their seats")
        human = logged_human if human is None else human
        if human is None and isinstance(people, list) and people:
            if len(people) > 1:
                log_file.close()  # (let go of the match: nothing was written)
                raise click.UsageError(
                    f"--resume: {resume_path} is a web table's match with people at "
                    f"{', '.join(f'p{seat}' for seat in people)}: go on with it there (`{cli_logs.command_name()} "
                    f"serve --resume {shlex.quote(resume_path)}`), or give --human SEAT to take one of their seats "
                    "here (bots play the others)")
            human = people[0]  # (a person's seat is never given to a bot without being asked)
    else:
        if ruleset is None:
            raise click.UsageError("give a RULESET to play, or --resume FILE.jsonl")
        ruleset = ruleset_file(ruleset)
        game = load_game_or_exit(ruleset, assignments)
        count, kinds = _table_and_bots(game, players, bots)
        header = {"ruleset": str(Path(ruleset).resolve()), "params": {name: plain_number(value) for name, value in
                                                                  game.ruleset.parameter_values.items()}}
    if human is not None and not 0 <= human < count:
        raise click.UsageError(f"--human: seats are 0 to {count - 1}")
    if human is not None:
        header["human"] = human  # a resumed match gives the seat back to its person
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    cli_logs.check_seat_logs(seat_logs, count, log_path)
    if state is None and log_path is None and human is not None:  # a person's match is always on record
        log_path, log_file = cli_logs.record_file(str(header["ruleset"]), seed)
    elif state is None and log_path:  # a new log: emptied once no other run holds it
        log_file = cli_logs.new_log(log_path, "--log")
    try:
        writers = cli_logs.open_seat_logs(seat_logs)
    except BaseException:
        if log_file is not None:
            log_file.close()
        raise
    agents = agents_for(kinds, count, seed + (len(state.history) if state is not None else 0))
    choosers: list[Callable[[State], Action]] = [agent.choose for agent in agents]
    stops: tuple[type[BaseException], ...] = (KeyboardInterrupt,)  # (what stops a match, to be kept on record)
    if human is not None:  # (only a person's seat needs the terminal's table, and its console library)
        from interpreter.runners.human import Quit, human_chooser

        choosers[human] = human_chooser(human)
        stops = (Quit, KeyboardInterrupt)
    on_line = None if as_json else click.echo
    if not as_json:
        if state is not None:  # (a person is not shown the seed: from it and the ruleset, every hand follows)
            who = f"you are p{human}" if human is not None else f"seed {seed}"
            click.echo(f"{game.name}: {count} players, {who}, resumed from {resume_path} at hand "
                       f"{state.values['hand_number']} after {len(state.history)} "
                       f"action{'s' if len(state.history) != 1 else ''}")
        elif human is not None:  # (no seed: from it and the ruleset, every hand could be worked out)
            click.echo(f"{game.name}: {count} players, you are p{human}. {cli_logs.on_record(log_path)}")
        else:
            # (everything that decides the match: the table, the bots and the parameters given)
            given = (f" --players {count}" if players is not None else "") + \
                (f" --bots {shlex.quote(bots)}" if bots != DEFAULT_BOTS else "") + \
                "".join(f" --set {shlex.quote(assignment)}" for assignment in assignments)
            click.echo(f"{game.name}: {count} players, seed {seed} (replay with --seed {seed}{given})")
    elif human is not None and state is None:  # (the JSON result is the output: the person is told aside)
        click.echo(cli_logs.on_record(log_path), err=True)
    resumed_at = len(state.hand_results) if state is not None else 0
    if state is None:
        state = game.new_initial_state(seed=seed, players=count)  # (stopped at its first shuffle: no hand over)
    measures = HandMeasures(state, declared_metrics(game))  # what simulate measures, for this match
    try:
        result = play_match(game, players=count, seed=seed, choosers=choosers, on_line=on_line,
                            log=match_log or log_file, header=header, viewer=human, state=state, shown=logged,
                            seat_logs=writers)
    except stops:
        click.echo(_stopped(log_path, header, state), err=True)
        sys.exit(130)
    finally:
        for file in [log_file, *(writer.file for writer in writers)]:
            if file is not None:
                file.close()
    if as_json:
        echo_json(result.as_json())
        return
    scores = ", ".join(f"p{seat} {signed(value)}" for seat, value in enumerate(result.returns))
    best = max(result.returns)
    winners = " and ".join(f"p{seat}" for seat, value in enumerate(result.returns) if value == best)
    click.echo(f"\nMatch over after {result.hands} hand{'s' if result.hands != 1 else ''}: {scores}. "
               f"Best: {winners}.")
    if result.ended_by == "hand_cap":
        hands = "1 hand" if result.hands == 1 else f"{result.hands} hands"
        click.echo(f"(Stopped at the hand cap of {hands} before the match ended: see `match.hand_cap`.)")
    measured = measures.summary()
    if measured is not None:
        click.echo(measured if not resumed_at else f"{measured} (The hands played before resuming are not measured.)")
    if human is not None:
        click.echo(f"The match is on record in {log_path}: `{cli_logs.command_name()} replay "
                   f"{shlex.quote(str(log_path))}` plays it again.")


def _resumed(path: str, log_file: IO[str]) -> tuple[State, dict[str, Any], int, str | None]:
    """The state a log leads to, its header, how many events it holds and the hash its next line chains to
    (None for a log written before lines were chained: it is resumed with a warning, and goes on unchained); a
    last line cut off in writing is cut from the file (open and locked as `log_file`), so that what is added
    follows its last whole line. A match that is over cannot be resumed."""
    from interpreter.runners.replay import read_log_file, replay_log
    try:
        log = read_log_file(path)
        state = replay_log(path, log)
    except BaseException:
        log_file.close()
        raise
    if state.is_terminal:
        log_file.close()
        raise click.UsageError(f"--resume: the match in {path} is over")
    if log.whole_bytes < Path(path).stat().st_size:
        log_file.truncate(log.whole_bytes)
    if not log.chained:
        click.echo(f"warning: {path}: {cli_logs.UNCHAINED}", err=True)
    header = {key: value for key, value in log.header.items() if key not in ("type", "players", "seed")}
    return state, header, len(log.events), log.last_chain


def _stopped(log_path: str | None, header: dict[str, Any], state: State) -> str:
    """Where a stopped match is kept (saved now when it has no log yet), and how to go on with it."""
    from interpreter.runners.play import save_log
    kept = log_path
    if kept is None:
        failures = []
        for folder in (Path(), Path(tempfile.gettempdir())):  # here, else in the temporary folder
            path = cli_logs.new_log_path(folder, str(header["ruleset"]), state.seed)
            try:
                save_log(path, header, state)
            except OSError as error:
                failures.append(f"{path}: {error.strerror or error}")
                continue
            kept = str(path)
            break
        else:
            return "Stopped. The match could not be saved (" + "; ".join(failures) + ")."
    return (f"Stopped. The match so far is in {kept}: go on with `{cli_logs.command_name()} play --resume "
            f"{shlex.quote(kept)}`.")


@cli.command(name="replay")
@click.argument("log_path", metavar="LOG.jsonl", type=click.Path(exists=True, dir_okay=False))
@click.option("--verify", is_flag=True, help="Print only the verdict, not the transcript.")
def replay_command(log_path: str, verify: bool) -> None:
    """Play a logged match again and check every line of its log and its result against it; print the
    transcript (every action: the full log is the record of the match).

    Exit status: 0 when the log is the match played again, 1 at the first difference (its line, what the
    match has there and what the log says), at an edited line, or for a log that cannot be read.
    """
    from interpreter.runners.replay import read_log_file, replay_log
    from interpreter.runners.transcript import Transcript
    if not Path(log_path).is_file():  # a device or a pipe would be read forever
        raise click.UsageError(f"{log_path} is not a log file")
    log = read_log_file(log_path)
    state = replay_log(log_path, log, verify=True)
    if not log.chained:
        click.echo(f"warning: {log_path}: {cli_logs.UNCHAINED}", err=True)
    if not verify:
        for line in Transcript().lines(state.events):
            click.echo(line)
    lines = 1 + len(log.events)
    if state.is_terminal:
        scores = ", ".join(f"p{seat} {signed(value)}" for seat, value in enumerate(state.returns()))
        click.echo(f"{log_path}: {lines} lines verified: the match played again is the one logged, "
                   f"to its result ({scores}).")
    else:
        actions = len(state.history)
        going_on = f"{cli_logs.resume_command(log.header)} {shlex.quote(str(log_path))}"
        click.echo(f"{log_path}: {lines} lines verified; the log stops before the match ends, after {actions} "
                   f"action{'s' if actions != 1 else ''} (`{going_on}` goes on with it).")


@cli.command()
@click.argument("ruleset", metavar="RULESET", shell_complete=complete_ruleset)
@click.option("-n", "--matches", "games", type=click.IntRange(min=1), required=True, metavar="GAMES",
              help="Matches to play.")
@click.option("--players", type=int, help="Number of players (default: the ruleset's default).")
@click.option("--seed", type=int, default=1, show_default=True, help="The run's seed (each match's follows from it).")
@click.option("--set", "assignments", multiple=True, metavar="NAME=VALUE", help="Give a parameter a value.")
@click.option("--bots", default=DEFAULT_BOTS, show_default=True, metavar="KIND,...",
              help=BOTS_HELP + ".")
@click.option("--workers", type=Workers(), default=AUTO, show_default=True, metavar="N|auto",
              help=WORKERS_HELP)
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="Where the matches are played: local processes, or Ray tasks (pip install 'ruledeck[ray]').")
@click.option("--address", metavar="HOST:PORT",
              help="With --backend ray: the Ray cluster to use (default: a Ray started here with --workers CPUs).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, writable=True), metavar="FILE.png",
              help="Draw the results with their intervals and their distribution (pip install 'ruledeck[plot]').")
def simulate(ruleset: str, games: int, players: int | None, seed: int, assignments: tuple[str, ...], bots: str,
             workers: int, backend: str, address: str | None, as_json: bool, plot_path: str | None) -> None:
    """Play many matches and print every statistic with its 95% interval: each seat's (or team's) result and
    share of wins, the first dealer's edge, the length of hands and matches, matches stopped by the hand cap,
    and the ruleset's own `metrics:`. Ctrl-C stops the run and reports the matches that finished.

    The results depend only on the ruleset, the bots, the seed and the number of matches: not on --workers or
    --backend (unless a bot searches for a time, search:Ts, which searches as far as the machine lets it).
    """
    from interpreter.cli_stats import bots_text, check_backend, check_plot, report_simulation, run_job, warn_if_timed
    from interpreter.runners.simulate import Job, loaded
    check_backend(backend, address)
    check_plot(plot_path)
    ruleset = ruleset_file(ruleset)
    game = load_game_or_exit(ruleset, assignments)
    count, kinds = _table_and_bots(game, players, bots)
    warn_if_timed(kinds)
    job = Job(str(Path(ruleset).absolute()), tuple(parse_assignments(list(assignments)).items()), count, tuple(kinds))
    loaded(job, game)
    summary, interrupted, failure = run_job(job, games=games, seed=seed, workers=workers, backend=backend,
                                            address=address, label=f"{game.name}, {count} players")
    played = len(summary.records)
    given = f" with {' '.join(f'{name}={value}' for name, value in job.params)}" if job.params else ""
    header = (f"{game.name}{given}: {played} match{'es' if played != 1 else ''}, {count} players, seed {seed}; "
              f"bots: {bots_text(kinds, bots)}")
    values = game.ruleset.parameter_values
    given_values = {name: plain_number(values.get(name, value)) for name, value in job.params}
    report_simulation(game, summary, header=header, as_json=as_json, plot_path=plot_path, interrupted=interrupted,
                      facts={"file": ruleset, "params": given_values, "bots": kinds, "seed": seed}, failure=failure)


@cli.command(name="list")
def list_command() -> None:
    """List the bundled rulesets, each game followed by its variants: the name to give `play`, `simulate` or
    `validate`, the ruleset's own title, and its file."""
    entries = bundled_rulesets()
    if not entries:
        raise click.ClickException("this installation has no bundled rulesets")
    names = [entry.name if entry.base is None else "  " + entry.name for entry in entries]
    name_width, title_width = max(map(len, names)), max(len(entry.title) for entry in entries)
    for name, entry in zip(names, entries, strict=True):
        click.echo(f"{name:<{name_width}}  {entry.title:<{title_width}}  {entry.path}")


def _table_and_bots(game: Game, players: int | None, bots: str) -> tuple[int, list[str]]:
    """The player count and the bots, or a usage error naming what is allowed."""
    from interpreter.agents import AGENTS, check_kind
    allowed = game.ruleset.players
    count = allowed.default if players is None else players
    if count not in allowed.counts():
        from interpreter.bundled import variants_seating

        others = variants_seating(game.ruleset.path, count)
        named = " and ".join(f"`{name}`" for name in others)
        offered = (f" (the bundled variant {named} is for {count})" if len(others) == 1 else
                   f" (the bundled variants {named} are for {count})" if others else "")
        raise click.UsageError(f"{game.name} is for {allowed.described()}, not {count}{offered}")
    kinds = [kind.strip() for kind in bots.split(",")]
    if len(kinds) > 1 and not all(kinds):  # (`random,,heuristic` is not two kinds: one is missing)
        raise click.UsageError(f"--bots: a kind is missing in {bots!r} (between two commas, or at an end)")
    kinds = [kind for kind in kinds if kind]
    unknown = [problem for problem in map(check_kind, kinds) if problem is not None]
    if unknown or not kinds or len(kinds) not in (1, count):
        detail = unknown[0] if unknown else _bots_misfit(len(kinds), count, players, allowed.counts())
        raise click.UsageError(f"--bots: {detail}; bots: {', '.join(AGENTS)}")
    return count, kinds


def _bots_misfit(kinds: int, count: int, players: int | None, counts: range) -> str:
    """A list of bots of another length than the table, and the ways to make it fit (--players, when none was
    given and the list's length is a table the ruleset allows)."""
    fits = f", or --players {kinds}" if players is None and kinds in counts else ""
    return f"{kinds} kinds for {count} players: give one bot kind, or {count} (one per seat){fits}"


@cli.command(name="test")
@click.argument("paths", nargs=-1, required=True, metavar="FILE...")
@click.option("-q", "--quiet", is_flag=True, help="Print only the cases that fail, and the summary.")
def test_command(paths: tuple[str, ...], quiet: bool) -> None:
    """Run rule scenarios (YAML files, or every .yaml file under a folder); see docs/scenarios.md.

    Prints each case and `N passed, M failed`. Exit status: 0 when all pass, 1 when any fails, 2 on a usage
    error.
    """
    from interpreter.runners.scenarios import NotAScenario, ScenarioError
    from interpreter.runners.scenarios import run_file as run_scenarios
    files = expand(paths)
    passed = failed = 0
    skipped = []
    unread = 0  # scenario files that could not be read: said, and the others still run
    for file in files:
        try:
            results = run_scenarios(file)
        except NotAScenario as error:
            if file in paths:  # (named: the person meant it)
                click.echo(f"error: {error}", err=True)
                sys.exit(2)
            skipped.append(file)  # (found in a folder beside the scenario files)
            continue
        except ScenarioError as error:
            if file not in paths and reads_as_ruleset(file):  # (a ruleset beside them that cannot be read)
                skipped.append(file)
                continue
            click.echo(str(error) if error.rendered else f"error: {error}", err=True)
            unread += 1
            continue
        for result in results:
            if result.passed:
                passed += 1
                if not quiet:
                    click.echo(f"PASS {file}: {result.name}")
            else:
                failed += 1
                where = f"{file}:{result.line}" if result.line is not None else file
                click.echo(f"FAIL {where}: {result.name}\n     {result.message}")
    if skipped:
        click.echo(f"(not scenario files, skipped: {', '.join(skipped)})")
    if skipped and not passed and not failed and not unread:
        click.echo("error: no scenario files found (files with `ruleset:` and a list of `cases:`)", err=True)
        sys.exit(2)
    could_not = f", {unread} scenario file{'s' if unread != 1 else ''} could not be read (above)" if unread else ""
    click.echo(f"{passed} passed, {failed} failed{could_not}")
    sys.exit(2 if unread else 1 if failed else 0)


_NO_ROOM = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))  # a full disk, a full quota


def _stop_on_terminate() -> Any:
    """SIGTERM (`timeout`, `kill`, a service manager) stops a command as Ctrl-C does: a match stopped is kept in
    its log, a run reports the matches that finished. Only in the main thread, and only where the signal is
    still the default (a caller that handles it keeps it); the handler it replaced, for `main` to put back (None
    when it replaced none). A run's worker processes put the default back (runners/simulate.py)."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return None

    def stop(_number: int, _frame: Any) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (a second one ends the process at once)
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, stop)


def main(argv: list[str] | None = None) -> None:
    """The console entry point: no input ever ends in a traceback (set RULEDECK_DEBUG=1 to see one)."""
    for stream in (sys.stdout, sys.stderr):  # (a path whose name is not UTF-8 is shown with its bytes escaped)
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    handler = _stop_on_terminate()
    try:
        try:  # (not click's standalone mode: a Ctrl-C before a command handles its own says so, and exits 130)
            code = cli.main(args=argv, prog_name="ruledeck", standalone_mode=False)
        except click.exceptions.Abort as aborted:  # (Ctrl-C, or the end of input at a prompt)
            raise KeyboardInterrupt from aborted
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        sys.exit(code if isinstance(code, int) else 0)  # (`ctx.exit(N)`'s N; else success, as click's own main)
    except OSError as error:
        if error.errno not in _NO_ROOM or os.environ.get("RULEDECK_DEBUG"):
            _internal_error(error)
        try:  # (the output itself may be what is full: said if it can be, and nothing more written to it)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            click.echo(f"error: cannot write: {error.strerror}", err=True)
        except (OSError, ValueError):
            pass
        sys.exit(1)
    except RulesetRuntimeError as error:
        click.echo(error.render(), err=True)
        sys.exit(1)
    except RuledeckError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as error:  # a bug: say so plainly
        _internal_error(error)
    finally:
        if handler is not None:  # (the caller's process, a test's, has its own SIGTERM back)
            signal.signal(signal.SIGTERM, handler)


def _internal_error(error: Exception) -> NoReturn:
    if os.environ.get("RULEDECK_DEBUG"):
        raise error
    click.echo(f"internal error: {type(error).__name__}: {error}\n"
               "This is a bug in ruledeck; run again with RULEDECK_DEBUG=1 for the details.", err=True)
    sys.exit(70)
