"""The broken rulesets of tests/bad_rulesets/ and the exact text `ruledeck validate` must print for each.

Every `*.yaml` file there is one case; its expected output is the `.expected` file beside it. After a change
to the format or to a message, regenerate them all and review the diff:

    python tests/bad_rulesets_cases.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from click.testing import CliRunner

from interpreter.cli import cli

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "bad_rulesets"


def case_files() -> list[Path]:
    return sorted(CASES.glob("*.yaml"))


def run_validate(case: Path) -> tuple[int, str]:
    """Exit code and output of `ruledeck validate` on one case, with the path relative to the repository."""
    relative = case.relative_to(ROOT).as_posix()
    import os

    previous = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(cli, ["validate", relative], catch_exceptions=False)
    finally:
        os.chdir(previous)
    return result.exit_code, result.stdout


def main() -> int:
    for case in case_files():
        code, output = run_validate(case)
        if code != 1:
            print(f"{case.name}: exit {code}, expected 1 (a broken ruleset must be refused)", file=sys.stderr)
        case.with_suffix(".expected").write_text(output, encoding="utf-8")
    stale = [p for p in CASES.glob("*.expected") if not p.with_suffix(".yaml").exists()]
    for path in stale:
        path.unlink()
    print(f"wrote {len(case_files())} expected outputs" + (f", removed {len(stale)} stale" if stale else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
