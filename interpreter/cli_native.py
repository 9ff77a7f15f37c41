"""`ruledeck native`: the compiled build of some of the engine's modules (interpreter/native.py): make it, say
whether it is in use, remove it."""

from __future__ import annotations

import sys

import click

from interpreter import native


@click.group(name="native")
def native_command() -> None:
    """The engine's compiled build: its meld search, its decisions' general code and its shuffle compiled to C
    with mypyc, the same code and results, faster. Optional: without it the engine runs its Python source."""


@native_command.command(name="build")
def build_command() -> None:
    """Compile the build for this engine's source and this Python (needs: pip install 'ruledeck[native]', and a
    C compiler)."""
    try:
        made = native.build(report=lambda line: click.echo(line, err=True))
    except native.BuildError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(1)
    click.echo(f"built: {made}")
    click.echo("in use from the next start of ruledeck (or of a Python program that imports it)")


@native_command.command(name="status")
def status_command() -> None:
    """Say whether this engine runs its compiled build (exit status 1 when it does not)."""
    found = native.status()
    if found.active:
        click.echo(f"compiled build in use: {found.folder}")
        return
    click.echo(f"Python source in use: {found.reason}")
    sys.exit(1)


@native_command.command(name="remove")
def remove_command() -> None:
    """Delete every compiled build kept (of any version of the engine, for any Python)."""
    removed = native.remove()
    click.echo(f"removed {len(removed)} build{'s' if len(removed) != 1 else ''} from {native.root()}")
