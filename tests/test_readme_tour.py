"""The README's tour runs as written: every shell command of its `## A tour` section, and its Python example.

Each command runs as the README gives it, with these substitutions so that the whole tour costs seconds:
- `-n N` plays at most 2 matches, and a `play` without `--set hands=...` plays 1 hand;
- `.venv/bin/ruledeck` is this interpreter's `python -m interpreter` (the same command line);
- `.venv/bin/pip install ...` lines are not run (the tests run where ruledeck is installed already);
- a `--backend ray` line runs only where Ray is installed, on a Ray started here (its `--address` left out);
- a `--plot` line runs only where matplotlib is installed;
- `--human SEAT` is answered `q` on standard input: the match stops, is kept in a log, and exits 130.
The commands run in a temporary folder that links to `rulesets/` and `tests/`, so that what they write
(`match.jsonl`, the log of the stopped match) stays out of the checkout.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
MOST_MATCHES = 2
FEWER_HANDS = "hands=1"
STOPPED_BY_THE_PERSON = 130


def _tour(readme: str) -> str:
    """The `## A tour` section of the README, up to the next section of that level."""
    start = readme.index("\n## A tour\n")
    end = readme.find("\n## ", start + 1)
    return readme[start:end if end >= 0 else len(readme)]


def _shell_lines(section: str) -> list[str]:
    blocks = re.findall(r"^```sh\n(.*?)^```", section, flags=re.MULTILINE | re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def _python_example(section: str) -> str:
    (example,) = re.findall(r"^```python\n(.*?)^```", section, flags=re.MULTILINE | re.DOTALL)
    return str(example)


COMMANDS = _shell_lines(_tour(README))


def _option_value(words: list[str], option: str) -> str | None:
    return words[words.index(option) + 1] if option in words else None


def _substituted(words: list[str]) -> list[str]:
    """The command line to run for the README's words (the substitutions of the module's docstring)."""
    assert words[0] == ".venv/bin/ruledeck", f"the tour test does not know how to run {words[0]}"
    arguments = words[1:]
    matches = _option_value(arguments, "-n")
    if matches is not None:
        arguments[arguments.index("-n") + 1] = str(min(int(matches), MOST_MATCHES))
    if arguments[0] == "play" and not any(word.startswith("hands=") for word in arguments):
        arguments += ["--set", FEWER_HANDS]
    if "--address" in arguments:
        del arguments[arguments.index("--address"):arguments.index("--address") + 2]
    return [sys.executable, "-m", "interpreter", *arguments]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder to run the tour in, with the checkout's `rulesets/` and `tests/` where the tour expects them."""
    here = tmp_path_factory.mktemp("tour")
    for name in ("rulesets", "tests"):
        (here / name).symlink_to(ROOT / name, target_is_directory=True)
    return here


def _run(command: list[str], folder: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=folder, input=stdin, capture_output=True, text=True, encoding="utf-8",
                          timeout=600, check=False)


def test_the_tour_has_every_kind_of_command() -> None:
    verbs = {shlex.split(line, comments=True)[1] for line in COMMANDS if line.startswith(".venv/bin/ruledeck")}
    assert {"compare", "list", "play", "simulate", "test", "validate"} <= verbs and len(COMMANDS) >= 12


@pytest.mark.parametrize("line", COMMANDS, ids=lambda line: line.split("#")[0].strip().removeprefix(".venv/bin/"))
def test_a_shell_command_of_the_tour_runs(line: str, folder: Path) -> None:
    words = shlex.split(line, comments=True)
    if words[0] == ".venv/bin/pip":
        pytest.skip("an installation: the tests run where ruledeck is installed")
    if _option_value(words, "--backend") == "ray" and importlib.util.find_spec("ray") is None:
        pytest.skip("Ray is not installed (pip install -e '.[ray]')")
    if "--plot" in words and importlib.util.find_spec("matplotlib") is None:
        pytest.skip("matplotlib is not installed (pip install -e '.[plot]')")
    person = "--human" in words
    result = _run(_substituted(words), folder, stdin="q\n" if person else None)
    assert result.returncode == (STOPPED_BY_THE_PERSON if person else 0), result.stdout + result.stderr
    if person:
        assert "Stopped. The match so far is in " in result.stderr
    if "--json" in words:
        assert isinstance(json.loads(result.stdout), dict)


def test_the_python_example_prints_each_seats_result(folder: Path) -> None:
    result = _run([sys.executable, "-c", _python_example(_tour(README))], folder)
    assert result.returncode == 0, result.stderr
    returns = ast.literal_eval(result.stdout.strip().splitlines()[-1])
    assert len(returns) == 5 and all(isinstance(value, int) for value in returns)
    assert any(returns)  # a player who only ever passes would leave every result at 0
