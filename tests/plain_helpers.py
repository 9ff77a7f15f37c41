"""The test games written in plain Python (benchmarks/plain/), loaded by path for the tests that keep them in step
with their rulesets (benchmarks/ is no package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

PLAIN = Path(__file__).resolve().parent.parent / "benchmarks" / "plain"


def load_plain(path: Path, name: str) -> ModuleType:
    """The module at `path` under the module name `name`, a new one at each call (not kept in `sys.modules`)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
