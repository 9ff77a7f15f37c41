"""The `ruledeck` command line."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

import click

from interpreter.errors import Diagnostic, ParameterError, RuledeckError
from interpreter.loader import validate_file
from interpreter.parameters import parse_assignments


def _expand(paths: Iterable[str]) -> list[str]:
    """Files as given; a directory stands for every `.yaml` file under it."""
    files: list[str] = []
    for path in paths:
        if Path(path).is_dir():
            files.extend(str(p) for p in sorted(Path(path).rglob("*.yaml")))
        else:
            files.append(path)
    return files


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ruledeck", prog_name="ruledeck")
def cli() -> None:
    """ruledeck: card games as data. Validate, play and measure YAML rulesets."""


@cli.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@click.option("--set", "assignments", multiple=True, metavar="NAME=VALUE",
              help="Give a parameter a value (repeatable), e.g. --set pot_limit=20.")
@click.option("-q", "--quiet", is_flag=True, help="Print only findings, not the files that are fine.")
def validate(paths: tuple[str, ...], strict: bool, assignments: tuple[str, ...], quiet: bool) -> None:
    """Check ruleset files (or every .yaml file under a directory) and report every finding.

    Each finding is printed as PATH:LINE:COL: error[code]: message (at yaml.path), with the line and a caret.
    Exit status: 0 when every file is valid, 1 when any is not, 2 on a usage error.
    """
    try:
        given = parse_assignments(list(assignments))
    except ParameterError as error:
        raise click.UsageError(str(error)) from None
    files = _expand(paths)
    if not files:
        raise click.UsageError("no .yaml files found in " + ", ".join(paths))
    errors = warnings = 0
    for file in files:
        try:
            findings = validate_file(file, given, params_as_text=True)
        except ParameterError as error:
            raise click.UsageError(f"{file}: {error}") from None
        errors += sum(1 for d in findings if d.severity == "error")
        warnings += sum(1 for d in findings if d.severity == "warning")
        _print_findings(file, findings, quiet)
    summary = f"{len(files)} file{'s' if len(files) != 1 else ''} checked: " \
              f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"
    click.echo(summary, err=True)
    sys.exit(1 if errors or (strict and warnings) else 0)


def _print_findings(file: str, findings: list[Diagnostic], quiet: bool) -> None:
    if not findings:
        if not quiet:
            click.echo(f"{file}: ok")
        return
    for finding in findings:
        click.echo(finding.render())


def main(argv: list[str] | None = None) -> None:
    """The console entry point: no input ever ends in a traceback (set RULEDECK_DEBUG=1 to see one)."""
    try:
        cli.main(args=argv, prog_name="ruledeck", standalone_mode=True)
    except RuledeckError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as error:  # a bug: say so plainly
        if os.environ.get("RULEDECK_DEBUG"):
            raise
        click.echo(f"internal error: {type(error).__name__}: {error}\n"
                   "This is a bug in ruledeck; run again with RULEDECK_DEBUG=1 for the details.", err=True)
        sys.exit(70)
