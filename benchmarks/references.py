"""The hand-written speed references of benchmarks/reference/, loaded as modules for a benchmark run."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "reference"


def load_reference(name: str) -> ModuleType:
    """`benchmarks/reference/<name>.py` as a module; exits with a clear message when it is not there."""
    path = BENCH / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None or not path.exists():
        raise SystemExit(f"cannot load the reference {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
