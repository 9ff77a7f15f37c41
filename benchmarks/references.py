"""The hand-written speed references, loaded as modules for a benchmark run: benchmarks/reference/ (Bourré's and
Burraco's) and benchmarks/plain/ (test games' rules written in plain Python, each with the ruleset's decisions and
legal sets, for benchmarks/games_speed.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "reference"
PLAIN = ROOT / "benchmarks" / "plain"


def load_reference(name: str, folder: Path = BENCH) -> ModuleType:
    """`benchmarks/reference/<name>.py` (or `<folder>/<name>.py`) as a module; exits with a clear message when it
    is not there."""
    path = folder / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None or not path.exists():
        raise SystemExit(f"cannot load the reference {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def plain_games() -> list[str]:
    """The test games written in plain Python (benchmarks/plain/<name>.py: `play(decisions, seed, sizes)`)."""
    return sorted(path.stem for path in PLAIN.glob("*.py"))
