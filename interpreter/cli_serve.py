"""`ruledeck serve`: a match at a web table in the browser, people at the seats they are given a link to, bots at
the others (the `web` extra)."""

from __future__ import annotations

import errno
import importlib.util
import math
import random
import shlex
import socket
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from interpreter import cli_logs
from interpreter.cli_stats import BOTS_HELP, DEFAULT_BOTS
from interpreter.cli_support import complete_ruleset, ruleset_file
from interpreter.numbers import plain_number, signed

if TYPE_CHECKING:
    from interpreter.engine.state import State
    from interpreter.runners.logfile import MatchLog

DEFAULT_PORT = 8000
DEFAULT_HOST = "127.0.0.1"
DEFAULT_BOT_DELAY = 0.8  # seconds after each bot move
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
EVERY_ADDRESS = ("0.0.0.0", "::", "")  # served on every address of this machine: links name the machine
INSTALL_HINT = "the browser table needs the web extra: pip install 'ruledeck[web]'"


@click.command(name="serve")
@click.argument("ruleset", metavar="[RULESET]", required=False, shell_complete=complete_ruleset)
@click.option("--players", type=int, help="Number of players (default: the ruleset's default).")
@click.option("--seed", type=int, help="Random seed: the same seed plays the same match.")
@click.option("--set", "assignments", multiple=True, metavar="NAME=VALUE", help="Give a parameter a value.")
@click.option("--humans", metavar="SEATS",
              help="The seats people play, e.g. 0 or 0,2 (default: 0; a resumed match keeps its own): each gets a "
                   "link of its own; bots play the others.")
@click.option("--bots", default=DEFAULT_BOTS, show_default=True, metavar="KIND,...",
              help=BOTS_HELP + ".")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="The port to serve on (0: a free one, named in the links).")
@click.option("--host", default=DEFAULT_HOST, show_default=True,
              help="The address to serve on. Keep the default unless every machine that can reach this one may "
                   "be trusted: the links are the only key to the seats.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, writable=True), metavar="FILE.jsonl",
              help="Where the full log of the match goes (default: a new file here, else in the temporary folder).")
@click.option("--resume", "resume_path", type=click.Path(exists=True, dir_okay=False, writable=True),
              metavar="FILE.jsonl", help="Go on with the match a log holds, adding to it (new links are printed).")
@click.option("--bot-delay", type=click.FloatRange(min=0, max=60), default=DEFAULT_BOT_DELAY, show_default=True,
              metavar="SECONDS",
              help="A pause after each bot move, so that the people at the table can follow it.")
def serve_command(ruleset: str | None, players: int | None, seed: int | None, assignments: tuple[str, ...],
                  humans: str | None, bots: str, port: int, host: str, log_path: str | None, resume_path: str | None,
                  bot_delay: float) -> None:
    """Play one match of a ruleset in the browser: a web table on this machine, a link for each person.

    Each seat in --humans gets its own link with a secret token (printed when the table starts); open it in a
    browser, or give it to a friend on this machine. The other seats are bots. The full log of the match (every
    shuffle: the record, not for the players) is written as the match goes; a match stopped with Ctrl-C goes on
    with `ruledeck serve --resume FILE.jsonl`.
    """
    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
        click.echo(f"error: {INSTALL_HINT}", err=True)
        sys.exit(2)
    if math.isnan(bot_delay):
        raise click.BadParameter("give a number of seconds, 0 to 60", param_hint="'--bot-delay'")
    port = _check_port(host, port)  # (before the log is made and the links are printed)
    serving = _serving(port, host, bot_delay)  # (the port served: for 0, the one the system gave)
    table, log_path, going_on = _table(ruleset, players, seed, assignments, humans, bots, log_path, resume_path,
                                       bot_delay, serving)
    if host not in LOCAL_HOSTS:
        click.echo(f"warning: serving on {host or 'every address'}, not on this machine alone: anyone who can "
                   "reach it and has a link can play that seat (the links are the only key)", err=True)
    _serve(table, host, port, log_path, going_on)


def _table(ruleset: str | None, players: int | None, seed: int | None, assignments: tuple[str, ...],
           humans: str | None, bots: str, log_path: str | None, resume_path: str | None,
           bot_delay: float, serving: tuple[str, ...] = ()) -> tuple[Any, str | None, str]:
    """The table of a new or resumed match, with its log open; the log's path, and the command that goes on with
    the match (`_going_on`, with the options of `serving`: how the table is served)."""
    from interpreter.cli import _resumed, _table_and_bots, load_game_or_exit
    from interpreter.runners.logfile import MatchLog
    from interpreter.runners.play import agents_for, log_header
    from interpreter.web.table import Table
    state: State | None = None
    logged = 0
    match_log: MatchLog | None = None
    if resume_path is not None:
        if ruleset is not None or players is not None or seed is not None or assignments or log_path:
            raise click.UsageError("--resume: the log gives the ruleset, players, seed and parameters, and the "
                                   "match goes on in it; give none of RULESET, --players, --seed, --set, --log")
        if not Path(resume_path).is_file():
            raise click.UsageError(f"--resume: {resume_path} is not a log file")
        log_file: IO[str] = cli_logs.open_log(resume_path, "--resume")
        state, header, logged, chain = _resumed(resume_path, log_file)
        match_log = MatchLog(log_file, chain)
        game, count, seed, log_path = state.game, state.player_count, state.seed, resume_path
        kinds = _table_and_bots(game, count, bots)[1]
    else:
        if ruleset is None:
            raise click.UsageError("give a RULESET to play, or --resume FILE.jsonl")
        ruleset = ruleset_file(ruleset)
        game = load_game_or_exit(ruleset, assignments)
        count, kinds = _table_and_bots(game, players, bots)
        header = {"ruleset": str(Path(ruleset).resolve()), "params": {name: plain_number(value) for name, value in
                                                                  game.ruleset.parameter_values.items()}}
    logged_seats = header.get("humans")  # (a resumed match gives the seats back to the people its log names)
    given = logged_seats if humans is None else None
    seats = _seats(humans or "0", count) if not isinstance(given, list) else _seats(
        ",".join(str(seat) for seat in given), count)
    kept_seats = seats if resume_path is None else _seats(  # (what a plain `--resume` would give back)
        ",".join(str(seat) for seat in logged_seats) if isinstance(logged_seats, list) else "0", count)
    header["humans"] = seats
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    if match_log is None:
        if log_path is None:
            log_path, log_file = cli_logs.record_file(str(header["ruleset"]), seed)
        else:
            log_file = cli_logs.new_log(log_path, "--log")
        match_log = MatchLog.start(log_file, log_header(game, header, count, seed))
    if state is None:
        state = game.new_initial_state(seed=seed, players=count)
    agents = agents_for(kinds, count, seed + len(state.history))
    choosers = [None if seat in seats else agents[seat].choose for seat in range(count)]
    going_on = _going_on(log_path, seats, kept_seats, bots, serving)
    table = Table(state, humans=seats, bots=choosers, log=match_log, log_file=log_file, logged=logged,
                  bot_delay=bot_delay, on_over=lambda done: _over(done, log_path),
                  on_failure=lambda error: _failed(error, log_path, going_on))
    return table, log_path, going_on


def _failed(error: BaseException, log_path: str | None, going_on: str) -> None:
    """The table stopped on a failure of the rules or of a bot: said where the server was started."""
    from interpreter.engine.errors import RulesetRuntimeError

    said = error.render() if isinstance(error, RulesetRuntimeError) else \
        f"internal error: {type(error).__name__}: {error}"
    click.echo(f"{said}\nThe table has stopped; the match so far is in {log_path} (`{going_on}` goes on with it "
               "once what failed is mended). Ctrl-C stops the server.", err=True)


def _serving(port: int, host: str, bot_delay: float) -> tuple[str, ...]:
    """The options of how a table is served, as given where not the defaults: the command that goes on with it
    serves it at the same address, at the same pace."""
    return ((f"--port {port}",) if port != DEFAULT_PORT else ()) + \
        ((f"--host {shlex.quote(host)}",) if host != DEFAULT_HOST else ()) + \
        ((f"--bot-delay {bot_delay:g}",) if bot_delay != DEFAULT_BOT_DELAY else ())


def _going_on(log_path: str | None, seats: list[int], kept_seats: Any, bots: str, serving: tuple[str, ...] = ()) -> str:
    """The command that goes on with this table's match as it is played now: the log holds the ruleset, the
    seed and the people's seats it started with, not the bots, nor seats given to people at a resumption, nor
    how the table is served (`serving`: its port, address and bots' pace, where not the defaults)."""
    words = [cli_logs.command_name(), "serve", "--resume", shlex.quote(str(log_path))]
    if seats != kept_seats:
        words += ["--humans", ",".join(str(seat) for seat in seats)]
    if bots != DEFAULT_BOTS:
        words += ["--bots", shlex.quote(bots)]
    return " ".join([*words, *serving])


def _check_port(host: str, port: int) -> int:
    """The port to serve on (for 0, a free one the system gives); a usage error when the table could not be
    served there: the port is taken on one of the addresses the server binds (another table?), or cannot be
    had, or the address is not this machine's."""
    if port == 0:
        try:
            with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as probe:
                probe.bind((host or "", 0))
                port = int(probe.getsockname()[1])
        except (OSError, UnicodeError) as error:
            raise click.UsageError(f"--host: cannot serve on {host} ({error})") from None
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as error:
        raise click.UsageError(f"--host: {host} is no address of this machine ({error})") from None
    shown = host or "every address"
    for family, kind, protocol, _name, address in dict.fromkeys(infos):  # (each address the server binds)
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (as the server binds it)
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)  # (as the server binds it)
            try:
                probe.bind(address)
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    raise click.UsageError(f"--port: port {port} on {shown} is in use (another table, or another "
                                           "server?): give another --port") from None
                if error.errno == errno.EADDRNOTAVAIL:
                    raise click.UsageError(f"--host: cannot serve on {host}: it is no address of this "
                                           "machine") from None
                reason = error.strerror or str(error)
                raise click.UsageError(f"--port: port {port} on {shown} cannot be served ({reason}): give another "
                                       "--port") from None
    return port


def _seats(humans: str, count: int) -> list[int]:
    """The seats people play, from `0,2`; a usage error for anything else."""
    try:
        seats = sorted({int(part) for part in humans.split(",") if part.strip()})
    except ValueError:
        raise click.UsageError(f"--humans: give seat numbers separated by commas, e.g. 0,2 (not {humans!r})") from None
    if not seats or any(not 0 <= seat < count for seat in seats):
        raise click.UsageError(f"--humans: seats are 0 to {count - 1}")
    return seats


def _over(state: State, log_path: str | None) -> None:
    scores = ", ".join(f"p{seat} {signed(value)}" for seat, value in enumerate(state.returns()))
    click.echo(f"Match over: {scores}. It is on record in {log_path}: `{cli_logs.command_name()} replay "
               f"{shlex.quote(str(log_path))}` plays it again. Ctrl-C stops the server.")


def _serve(table: Any, host: str, port: int, log_path: str | None, going_on: str) -> None:
    import uvicorn

    from interpreter.web.app import create_app
    state = table.state
    shown = socket.gethostname() if host in EVERY_ADDRESS else host  # (0.0.0.0 is no address to open)
    where = f"[{shown}]" if ":" in shown else shown
    played = len(state.history)
    going = (f", resumed at hand {state.values['hand_number']} after {played} action{'s' if played != 1 else ''}"
             if played else "")
    click.echo(f"{state.game.name}: {state.player_count} players{going}, a table at http://{where}:{port}/")
    click.echo(cli_logs.on_record(log_path).replace(" (--log-seat SEAT FILE writes what one seat sees)", ""))
    click.echo("Each person opens their own link (it is the key to the seat: give it to no one else):")
    for seat in table.humans:
        click.echo(f"  p{seat}: http://{where}:{port}/seat/{table.token_of(seat)}")
    click.echo(f"Ctrl-C stops the table; the match is kept in its log: `{going_on}` goes on with it.")
    server: Any = None
    application = create_app(table, stopping=lambda: server is not None and server.should_exit)
    server = uvicorn.Server(uvicorn.Config(application, host=host, port=port, log_level="warning",
                                           timeout_graceful_shutdown=5))
    try:
        server.run()
    except KeyboardInterrupt:  # (uvicorn stops the server on Ctrl-C, then raises it again)
        pass
    finally:
        table.close()
    if not state.is_terminal:
        click.echo(f"Stopped. The match so far is in {log_path}: go on with `{going_on}`.")
        sys.exit(130)
