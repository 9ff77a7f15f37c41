"""Ruleset paths that are not plain files with plain names: a loop of symbolic links, a name that is not UTF-8, a
named pipe no program writes to, a pipe (`validate <(cat FILE)`). Each is read once or refused with a located
message: never an internal error, never a wait for ever."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import run_console

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "games" / "tiny.yaml"
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="symbolic links, pipes and byte names of POSIX")




@POSIX
def test_a_loop_of_symbolic_links_cannot_be_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("RULEDECK_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "one.yaml").symlink_to(tmp_path / "two.yaml")
    (tmp_path / "two.yaml").symlink_to(tmp_path / "one.yaml")
    for command in (["validate"], ["play"], ["simulate", "-n", "1"]):
        code, output = run_console([*command, str(tmp_path / "one.yaml")], capsys)
        assert code == 1 and "cannot be read: Too many levels of symbolic links" in output, output
        assert "internal error" not in output


@POSIX
def test_a_file_name_that_is_not_utf8_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("RULEDECK_CACHE_DIR", str(tmp_path / "cache"))
    name = os.fsdecode(os.fsencode(str(tmp_path)) + b"/tiny\xfe.yaml")  # (a Latin-1 byte in the name)
    try:
        shutil.copy(TINY, name)
    except (OSError, UnicodeError):
        pytest.skip("this file system does not take such a name")
    for _ in range(2):  # (checked, then found in the cache)
        code, output = run_console(["validate", name], capsys)
        assert code == 0 and "0 errors" in output, output
    code, output = run_console(["play", name, "--players", "3", "--seed", "1", "--bots", "random", "--json"], capsys)
    assert code == 0 and '"returns"' in output, output


@POSIX
def test_a_named_pipe_no_program_writes_to_reads_as_empty(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    finished = subprocess.run([sys.executable, "-m", "interpreter", "validate", str(pipe)], capture_output=True,
                              text=True, timeout=60, env={**os.environ, "RULEDECK_CACHE_DIR": str(tmp_path)})
    assert finished.returncode == 1 and "error[file-empty]: file is empty" in finished.stdout + finished.stderr


@POSIX
def test_a_pipe_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("RULEDECK_CACHE_DIR", str(tmp_path / "cache"))
    reading, writing = os.pipe()
    try:
        os.write(writing, TINY.read_bytes())  # (a ruleset fits in the pipe's buffer)
        os.close(writing)
        code, output = run_console(["validate", f"/dev/fd/{reading}"], capsys)
    finally:
        os.close(reading)
    assert code == 0 and "0 errors" in output, output
