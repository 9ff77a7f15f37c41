"""Golden playthroughs: every playable ruleset, variant and test game has one, and replays it exactly.
Regenerate with `python tests/playthroughs_golden.py` and review the diff."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.playthroughs_golden import ROOT, golden_path, playthrough, ruleset_files


@pytest.mark.parametrize("ruleset", ruleset_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_ruleset_has_a_golden_playthrough_that_replays_exactly(ruleset: Path) -> None:
    golden = golden_path(ruleset)
    assert golden.exists(), f"{golden.relative_to(ROOT)} is missing: run `python tests/playthroughs_golden.py`"
    expected = golden.read_text(encoding="utf-8").splitlines()
    actual = playthrough(ruleset).splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), 1):
        assert got == want, f"line {number} differs"
    assert len(actual) == len(expected)
