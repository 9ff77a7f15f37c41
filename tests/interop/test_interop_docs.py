"""The worked examples of docs/interop.md run as written (each where its extra is installed)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = re.findall(r"^```python\n(.*?)^```", (ROOT / "docs" / "interop.md").read_text(encoding="utf-8"),
                      flags=re.MULTILINE | re.DOTALL)
NEEDS = {"interop.pettingzoo": "pettingzoo", "interop.openspiel": "pyspiel"}


def test_the_document_has_an_example_of_each_adapter() -> None:
    assert [next(need for name, need in NEEDS.items() if name in example) for example in EXAMPLES] == \
        ["pettingzoo", "pyspiel"]


@pytest.mark.parametrize("example", EXAMPLES, ids=["pettingzoo", "openspiel"])
def test_an_example_runs_and_prints_the_results(example: str) -> None:
    needed = next(need for name, need in NEEDS.items() if name in example)
    if importlib.util.find_spec(needed) is None:
        pytest.skip(f"{needed} is not installed: pip install 'ruledeck[{needed.replace('pyspiel', 'openspiel')}]'")
    result = subprocess.run([sys.executable, "-c", example], cwd=ROOT, capture_output=True, text=True,
                            timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert re.fullmatch(r"\d+ p0 \w+ .+", lines[0])
    assert lines[-1].startswith(("{'player_0'", "["))
