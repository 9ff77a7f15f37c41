"""Test-wide settings: the cache of checking results and of compiled rulesets (interpreter/cache.py) lives in a
folder of the test run's own, so that tests neither read nor fill the user's cache; `own_cache` gives a test a
folder of its own (the tests of the cache itself)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if "RULEDECK_CACHE_DIR" not in os.environ:
        os.environ["RULEDECK_CACHE_DIR"] = tempfile.mkdtemp(prefix="ruledeck-test-cache-")


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own, turned on (the folder is made by the first entry written)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULEDECK_CACHE_DIR", str(folder))
    monkeypatch.delenv("RULEDECK_NO_CACHE", raising=False)
    return folder
