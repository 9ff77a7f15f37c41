"""Test-wide settings: the cache of checking results (interpreter/cache.py) lives in a folder of the test run's
own, so that tests neither read nor fill the user's cache."""

from __future__ import annotations

import os
import tempfile

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if "RULEDECK_CACHE_DIR" not in os.environ:
        os.environ["RULEDECK_CACHE_DIR"] = tempfile.mkdtemp(prefix="ruledeck-test-cache-")
