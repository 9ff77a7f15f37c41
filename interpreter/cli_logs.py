"""The command line's side of match logs: logs opened and locked for writing, where a person's match is
logged when no --log says, and the per-seat logs asked for with --log-seat."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

import click

from interpreter.runners.integrity import lock
from interpreter.runners.logfile import SeatLog


def locked_log(path: str) -> IO[str]:
    """A log opened for appending, locked against any other run for as long as it is open."""
    log_file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed when the match ends
    lock(log_file, path)
    return log_file


def open_log(path: str, option: str) -> IO[str]:
    """`locked_log` for a file named on the command line: one that cannot be opened (a folder that does not exist,
    no permission, a device) is a usage error that names the option, not a failure of the engine."""
    if not path:
        raise click.UsageError(f"{option}: give a file name")
    if Path(path).exists() and not Path(path).is_file():
        raise click.UsageError(f"{option}: {path} is not a file")
    try:
        return locked_log(path)
    except OSError as error:
        raise click.UsageError(f"{option}: cannot write {path}: {error.strerror or error}") from None


def new_log(path: str, option: str) -> IO[str]:
    """A file named on the command line for a new match's log, opened, locked and emptied. Only a log of a match
    that has ended is written over: anything else in the file (a ruleset, a scenario, a match stopped before its
    end, which `--resume` goes on with) would be lost, so it is a usage error."""
    log_file = open_log(path, option)  # (first: a log another run is writing is refused as such)
    kept = _kept_content(Path(path))
    if kept is not None:
        log_file.close()
        raise click.UsageError(f"{option}: {path} {kept}")
    log_file.truncate(0)
    return log_file


def _kept_content(path: Path) -> str | None:
    """Why a file may not be written over by a new log (None: it may: it does not exist, is empty, or holds the
    log of a match that has ended)."""
    try:
        if not path.is_file() or path.stat().st_size == 0:
            return None
        with path.open("rb") as file:
            first = file.readline(_LINE_READ)
            last = _last_line(file)
    except OSError:
        return None  # (opening it says why it cannot be written)
    header = _event(first)
    if header.get("type") != "match":
        return "is not a match log, and a new log is written only over another log: give a new file"
    if _event(last).get("type") != "result":
        if "seat" in header:  # (what one seat saw: the match itself goes on from its full log)
            return "holds what a seat saw of a match stopped before its end: give another file"
        return (f"holds a match stopped before its end: `{resume_command(header)} {shlex.quote(str(path))}` goes "
                "on with it; give another file for a new match")
    return None


def command_name() -> str:
    """The command as the person ran it, for the commands a message tells them to type: `ruledeck` when that
    is the one on the PATH (or when the program is not run from a command line), the path typed when another
    (`.venv/bin/ruledeck`, not on the PATH); for the module run, `python -m interpreter` when `python` is the
    Python that runs it, else that Python's path (`.venv/bin/python -m interpreter`)."""
    invoked = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if invoked is None:
        return "ruledeck"
    if invoked.name == "__main__.py" and invoked.parent.name == "interpreter":  # (the Python that ran it, unless
        python = shutil.which("python")  # it is the one `python` names here)
        return ("python" if python is not None and Path(python).absolute() == Path(sys.executable).absolute()
                else shlex.quote(sys.executable)) + " -m interpreter"
    if invoked.name != "ruledeck":
        return "ruledeck"
    on_path = shutil.which("ruledeck")
    if on_path is not None and Path(on_path).resolve() == invoked.resolve():
        return "ruledeck"
    return shlex.quote(sys.argv[0])


def resume_command(header: dict[str, Any]) -> str:
    """The command that goes on with a stopped match, by its log's header: a web table's log (its `humans`) with
    `serve`, another with `play`."""
    return f"{command_name()} {'serve' if 'humans' in header else 'play'} --resume"


_LINE_READ = 1 << 20  # the most of a log's line read to tell what the log is


def _last_line(file: IO[bytes]) -> bytes:
    """A file's last line that is not empty (read from the end, a block at a time)."""
    end = file.seek(0, 2)
    tail = b""
    while end > 0 and len(tail) < _LINE_READ:
        start = max(0, end - 65_536)
        file.seek(start)
        tail = file.read(end - start) + tail
        end = start
        lines = tail.rstrip(b"\n").rsplit(b"\n", 1)
        if len(lines) == 2 or end == 0:
            return lines[-1]
    return tail


def _event(line: bytes) -> dict[str, Any]:
    """A log's line as the event it is (empty when it is none)."""
    try:
        event = json.loads(line)
    except (ValueError, RecursionError):
        return {}
    return event if isinstance(event, dict) else {}


UNCHAINED = ("its lines are not chained by hashes (it was written by an older ruledeck), so an edit to a line "
             "could be seen only where it breaks the match")


def record_file(ruleset: str, seed: int) -> tuple[str, IO[str]]:
    """Where a person's match is logged when no --log says, opened and locked: a new file here, else in the
    temporary folder."""
    failures = []
    for folder in (Path(), Path(tempfile.gettempdir())):
        path = new_log_path(folder, ruleset, seed)
        try:
            return str(path), locked_log(str(path))
        except OSError as error:
            failures.append(f"{path}: {error.strerror or error}")
    raise click.UsageError("the match could not be logged (" + "; ".join(failures) + "): give --log FILE.jsonl")


def on_record(log_path: str | None) -> str:
    return (f"The full log of the match, with every shuffle and so every seat's cards, is written to {log_path}: "
            "it is the record of the match, not for the players (--log-seat SEAT FILE writes what one seat "
            "sees).")


def check_seat_logs(given: tuple[tuple[int, str], ...], count: int, log_path: str | None) -> None:
    """A seat that is no seat, a log named by an empty text, or a per-seat log that is the full log, is a usage
    error."""
    if log_path == "":
        raise click.UsageError("--log: give a file name")
    for seat, path in given:
        if not 0 <= seat < count:
            raise click.UsageError(f"--log-seat: seats are 0 to {count - 1}")
        if not path:
            raise click.UsageError("--log-seat: give a file name")
        if log_path is not None and _file_identity(path) == _file_identity(log_path):
            raise click.UsageError(f"--log-seat: {path} is the full log of the match; give another file")
    files = [_file_identity(path) for _seat, path in given]
    if len(set(files)) < len(files):
        raise click.UsageError("--log-seat: each seat's log needs a file of its own")


def _file_identity(path: str) -> object:
    """What tells two names of one file apart from two files: the device and inode of a file that exists (a
    hard link or a symbolic link is the file it names), else the real path (a loop of links is a name like
    another)."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return os.path.realpath(path)
    return (found.st_dev, found.st_ino)


def open_seat_logs(given: tuple[tuple[int, str], ...]) -> list[SeatLog]:
    """The per-seat logs asked for, opened (and locked) for writing."""
    writers: list[SeatLog] = []
    for seat, path in given:
        try:
            file = new_log(path, "--log-seat")
        except click.UsageError:
            for writer in writers:
                writer.file.close()
            raise
        writers.append(SeatLog(file, seat))
    return writers


def new_log_path(folder: Path, ruleset: str, seed: int | None) -> Path:
    """A file name for the log of a stopped match, in `folder`, that is not taken yet."""
    stem = Path(ruleset).stem
    path, number = folder / f"{stem}-{seed}.jsonl", 1
    while path.exists():
        number += 1
        path = folder / f"{stem}-{seed}-{number}.jsonl"
    return path
