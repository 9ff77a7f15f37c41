"""Running the command line as a person does, through its console entry point (which turns every error into a
message and an exit status), for tests of what it says."""

from __future__ import annotations

import pytest

from interpreter.cli import main


def run_console(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """The exit status and output (standard output, then standard error) of `ruledeck ARGUMENTS`."""
    with pytest.raises(SystemExit) as exited:
        main(arguments)
    captured = capsys.readouterr()
    return int(exited.value.code or 0), captured.out + captured.err
