"""Every broken ruleset is refused with exactly the located message of its `.expected` file (caret included).
Regenerate with `python tests/bad_rulesets_cases.py` and review the diff."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bad_rulesets_cases import case_files, run_validate

CODES_THAT_MUST_BE_COVERED = {
    "yaml-syntax", "schema", "expr-syntax", "unknown-name", "type", "arity", "deck-arithmetic", "extends-cycle",
    "param-value", "file-too-large", "alias-limit", "not-mapping", "file-empty", "file-binary", "nesting-limit",
    "expr-too-deep", "number-too-large",
}


@pytest.mark.parametrize("case", case_files(), ids=lambda p: p.stem)
def test_broken_ruleset_is_refused_with_the_expected_text(case: Path) -> None:
    code, output = run_validate(case)
    expected = case.with_suffix(".expected").read_text(encoding="utf-8")
    assert code == 1
    assert output == expected
    assert "Traceback" not in output


def test_there_are_at_least_thirty_cases_covering_every_error_code() -> None:
    files = case_files()
    assert len(files) >= 30
    seen = set()
    for case in files:
        for line in case.with_suffix(".expected").read_text(encoding="utf-8").splitlines():
            if ": error[" in line:
                seen.add(line.split("error[", 1)[1].split("]", 1)[0])
    assert seen >= CODES_THAT_MUST_BE_COVERED, CODES_THAT_MUST_BE_COVERED - seen
