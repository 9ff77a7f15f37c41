"""The compiled build (interpreter/native.py): found only when made from this very source for this Python, never
a requirement (anything amiss leaves the Python source in use), and when in use, really the compiled modules.
CI makes a build and runs the whole suite on it; the README's test command runs the Python source."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import native

ROOT = Path(__file__).resolve().parents[2]


def _package_copy(tmp_path: Path) -> Path:
    package = tmp_path / "interpreter"
    for name in native.COMPILED:
        target = package / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(native.PACKAGE / name, target)
    return package


def test_the_fingerprint_changes_with_the_text_of_a_compiled_module(tmp_path: Path) -> None:
    package = _package_copy(tmp_path)
    before = native.fingerprint(package)
    assert native.fingerprint(package) == before  # (the same source, the same build)
    edited = package / native.COMPILED[0]
    edited.write_text(edited.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    assert native.fingerprint(package) != before


def test_builds_are_kept_where_RULEDECK_NATIVE_DIR_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEDECK_NATIVE_DIR", str(tmp_path))
    assert native.folder() == tmp_path / native.fingerprint()


def _activated() -> tuple[list[str], str]:
    """`native.activate` on a package path of its own: the path as it leaves it, and why no build is in use (the
    process's own record of its activation is put back)."""
    path = ["engine"]
    state = dict(native._state)
    try:
        native.activate(path)
        return path, native._state["reason"]
    finally:
        native._state.update(state)


def test_no_build_leaves_the_python_source_in_use(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEDECK_NATIVE_DIR", str(tmp_path))
    monkeypatch.delenv("RULEDECK_PURE", raising=False)
    path, reason = _activated()
    assert path == ["engine"] and "no build" in reason


def test_RULEDECK_PURE_leaves_a_build_unused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEDECK_NATIVE_DIR", str(tmp_path))
    monkeypatch.setenv("RULEDECK_PURE", "1")
    _broken_build(tmp_path)
    path, reason = _activated()
    assert path == ["engine"] and "RULEDECK_PURE" in reason


def _broken_build(root: Path) -> Path:
    """A build folder for this source whose compiled library is not a library."""
    build = root / native.fingerprint()
    (build / "interpreter" / "engine").mkdir(parents=True)
    (build / "native.json").write_text(json.dumps({"group": "broken__mypyc"}), encoding="utf-8")
    (build / f"broken__mypyc{native._SUFFIX}").write_bytes(b"not a shared library")
    return build


def test_a_build_that_cannot_be_loaded_leaves_the_python_source_in_use(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEDECK_NATIVE_DIR", str(tmp_path))
    monkeypatch.delenv("RULEDECK_PURE", raising=False)
    build = _broken_build(tmp_path)
    path, reason = _activated()
    assert path == ["engine"] and "could not be loaded" in reason and str(build) in reason
    assert "broken__mypyc" not in sys.modules


def test_a_build_needs_mypyc_and_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "find_spec", lambda name: None)
    with pytest.raises(native.BuildError, match=r"pip install 'ruledeck\[native\]'"):
        native.build()


def test_a_build_kept_in_a_folder_that_cannot_be_written_is_refused_before_compiling(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a file").write_text("not a folder")
    monkeypatch.setenv("RULEDECK_NATIVE_DIR", str(tmp_path / "a file" / "builds"))
    ran: list[object] = []
    monkeypatch.setattr(native, "find_spec", lambda name: object())  # (as if mypyc were installed: it need not be)
    monkeypatch.setattr(subprocess, "run", lambda *arguments, **keywords: ran.append(arguments))
    with pytest.raises(native.BuildError, match=r"a file/builds, which cannot be written: Not a directory"):
        native.build()
    assert ran == []  # (mypyc never started)


def test_remove_deletes_every_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEDECK_NATIVE_DIR", str(tmp_path))
    _broken_build(tmp_path)
    (tmp_path / "an-older-build").mkdir()
    assert len(native.remove()) == 2
    assert list(tmp_path.iterdir()) == []


def test_status_says_when_the_python_source_is_in_use(tmp_path: Path) -> None:
    environment = {**os.environ, "RULEDECK_NATIVE_DIR": str(tmp_path)}
    environment.pop("RULEDECK_PURE", None)
    done = subprocess.run([sys.executable, "-m", "interpreter", "native", "status"], capture_output=True, text=True,
                          env=environment, cwd=ROOT, check=False)
    assert done.returncode == 1
    assert done.stdout.startswith("Python source in use: no build of this engine's source")


def test_a_build_in_use_is_the_compiled_modules() -> None:
    found = native.status()
    if not found.active:
        pytest.skip(f"no compiled build in use ({found.reason})")
    import interpreter.engine.melds
    import interpreter.engine.meldsearch
    import interpreter.engine.shuffling

    for module in (interpreter.engine.melds, interpreter.engine.meldsearch, interpreter.engine.shuffling):
        assert module.__file__ is not None and module.__file__.endswith(native._SUFFIX)
        assert found.folder is not None and Path(module.__file__).is_relative_to(found.folder)
