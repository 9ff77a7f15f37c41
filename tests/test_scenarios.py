"""Every rule scenario under tests/scenarios/ passes (the same files `ruledeck test` runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.runners.scenarios import CaseResult, run_file

ROOT = Path(__file__).resolve().parent
FILES = sorted((ROOT / "scenarios").rglob("*.yaml"))
RESULTS: list[CaseResult] = [result for file in FILES for result in run_file(file)]


@pytest.mark.parametrize("result", RESULTS, ids=lambda r: f"{Path(r.file).relative_to(ROOT)}: {r.name}")
def test_scenario_case(result: CaseResult) -> None:
    assert result.passed, result.message
