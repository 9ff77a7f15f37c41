"""Running the command line as a person does, through its console entry point (which turns every error into a
message and an exit status), for tests of what it says."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from interpreter.cli import main


def run_console(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """The exit status and output (standard output, then standard error) of `ruledeck ARGUMENTS`."""
    with pytest.raises(SystemExit) as exited:
        main(arguments)
    captured = capsys.readouterr()
    return int(exited.value.code or 0), captured.out + captured.err


def interruptible() -> None:
    """For `subprocess.Popen(..., preexec_fn=interruptible)`: the child takes Ctrl-C (SIGINT) as a terminal's
    foreground job does, even when the tests themselves run where SIGINT is ignored (a shell's background job)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_apart(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The exit status, standard output and standard error of `ruledeck ARGUMENTS`, apart."""
    with pytest.raises(SystemExit) as exited:
        main(arguments)
    out, err = capsys.readouterr()
    return int(exited.value.code or 0), out, err


def failing_now_and_then(folder: Path) -> Path:
    """A variant of tests/games/tiny.yaml, written in `folder`, whose rules fail in some deals only (an ace of
    spades led to a trick of the third hand): with `simulate -n 30 --workers 1` from seed 1, the seventh match
    (seed 1000009) fails, the six before it finish."""
    variant = folder / "failing.yaml"
    tiny = Path(__file__).resolve().parent / "games" / "tiny.yaml"
    variant.write_text(f"extends: {tiny}\nname: Tiny, failing now and then\ndefine:\n  winning: 'if hand_number == "
                       "3 and first(trick) == AS then first([c for c in trick if false]) else trick_winner(trick, "
                       "trump)'\n", encoding="utf-8")
    return variant
