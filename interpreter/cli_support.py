"""What the commands of the command line share: reading RULESET arguments (paths, folders, bundled names) and
printing findings."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

import click
from click.shell_completion import CompletionItem

from interpreter.bundled import UnknownRulesetError, bundled_paths, is_a_name, resolve_ruleset
from interpreter.errors import Diagnostic, render_findings


def expand(paths: Iterable[str]) -> list[str]:
    """Files as given; a directory stands for every `.yaml` file under it. None at all is a usage error."""
    paths = list(paths)
    files: list[str] = []
    for path in paths:
        if not path:  # (an empty path is no folder, though the file system reads it as this one)
            raise click.UsageError("an empty name is no ruleset file or folder")
        if is_folder(path):
            files.extend(str(p) for p in sorted(Path(path).rglob("*.yaml")))
        else:
            files.append(path)
    if not files:
        raise click.UsageError("no .yaml files found in " + ", ".join(paths))
    return files


def complete_ruleset(context: click.Context, parameter: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Shell completion of a RULESET: the bundled names that begin with what is typed, else files."""
    names = [name for name in bundled_paths() if name.startswith(incomplete)]
    if names and is_a_name(incomplete):
        return [CompletionItem(name) for name in names]
    return [CompletionItem(incomplete, type="file")]


def ruleset_file(argument: str, *, folders: bool = False) -> str:
    """A RULESET argument as a file: a path, or the name of a bundled ruleset (or, with `folders`, a folder); an
    unknown name is a usage error that lists the bundled ones."""
    try:
        return resolve_ruleset(argument, folders=folders)
    except UnknownRulesetError as error:
        raise click.UsageError(str(error)) from None


_TOP_KEY = re.compile(r"^(format|extends|ruleset|cases):", re.MULTILINE)


def reads_as_ruleset(path: str) -> bool:
    """Whether a file's text has a ruleset's or a variant's top-level `format:` or `extends:` (from its text
    alone, for a file that cannot be read as YAML); never for a pipe."""
    return bool(_top_keys(path) & {"format", "extends"})


def _top_keys(path: str) -> set[str]:
    try:
        if not Path(path).is_file():  # (a pipe is read once, by the checks: never opened here)
            return set()
        with open(path, encoding="utf-8", errors="replace") as file:
            return set(_TOP_KEY.findall(file.read(1_000_000)))
    except (OSError, ValueError):  # (ValueError: a name with a NUL character)
        return set()


def is_scenario_file(path: str) -> bool:
    """Whether a file reads as a scenario file (`ruleset:` and `cases:` at its top level, no `format:` nor
    `extends:`), from its text alone: a ruleset named to `validate` by mistake, or found in a folder."""
    keys = _top_keys(path)
    return {"ruleset", "cases"} <= keys and not keys & {"format", "extends"}


def is_folder(path: str) -> bool:
    try:
        return Path(path).is_dir()
    except OSError:  # a name longer than the system allows: reading it as a file says so
        return False


def echo_json(value: object) -> None:
    """JSON on standard output, its text as UTF-8 (`é`, not the escape `\\u00e9`)."""
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


def print_cached(file: str, findings: str, quiet: bool) -> None:
    if findings:
        click.echo(findings)
    elif not quiet:
        click.echo(f"{file}: ok")


def print_findings(file: str, findings: list[Diagnostic], quiet: bool) -> None:
    if not findings:
        if not quiet:
            click.echo(f"{file}: ok")
        return
    click.echo(findings_text(file, findings))


def findings_text(file: str, findings: list[Diagnostic]) -> str:
    """A file's findings as `validate` prints them: after a line naming the file when some are written in another
    (a variant's findings in the ruleset it extends), so that each file checked is told apart."""
    text = render_findings(findings)
    try:
        checked = Path(file).resolve()
        elsewhere = sum(1 for d in findings if d.location is not None and Path(d.location.path).resolve() != checked)
    except (OSError, ValueError, RuntimeError):  # (RuntimeError: a loop of symbolic links)
        elsewhere = 0
    if not elsewhere:
        return text
    count = f"{len(findings)} finding{'s' if len(findings) != 1 else ''}"
    return f"{file}: {count}, {'all' if elsewhere == len(findings) else 'some'} in what it extends:\n{text}"
