"""Where the expression parser keeps its tables between runs: a folder of the user's own, also on systems
without user ids (Windows)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from interpreter.dsl import parser


def test_the_cache_is_in_the_users_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cache = parser._cache_file()
    assert isinstance(cache, str) and Path(cache).parent == tmp_path / "ruledeck"


def test_without_user_ids_a_writable_folder_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delattr(os, "getuid", raising=False)
    cache = parser._cache_file()
    assert isinstance(cache, str) and Path(cache).parent == tmp_path / "ruledeck"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="a system without user ids")
def test_a_folder_of_another_user_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    someone_else = os.getuid() + 1
    monkeypatch.setattr(os, "getuid", lambda: someone_else)
    assert parser._cache_file() is False
