"""Checked and compiled rulesets kept between runs (interpreter/ruleset_cache.py): a second load of the same files
and parameters reads no YAML and runs neither the checker nor the expression compiler, and the game it gives
plays, warns and fails exactly as a game loaded afresh."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import interpreter.checking
import interpreter.ruleset_cache
from interpreter import load_ruleset, validate_file
from interpreter.engine.errors import RulesetRuntimeError
from tests.play_helpers import play_out, random_choices

ROOT = Path(__file__).resolve().parents[2]
TINY = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")


pytestmark = pytest.mark.usefixtures("own_cache")  # (tests/conftest.py: a cache folder of each test's own)


def _refuse_fresh_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_arguments: object, **_options: object) -> None:
        raise AssertionError("the ruleset was read and checked again")
    monkeypatch.setattr(interpreter.checking, "compile_afresh", refuse)


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.ruleset"))


def _texts(path: Path, seed: int, **params: object) -> list[str]:
    state = play_out(load_ruleset(path, params).new_initial_state(seed=seed, players=3), random_choices(seed), 10_000)
    assert state.is_terminal
    return [str(event) for event in state.events]


def test_a_second_load_reads_nothing_again_and_plays_the_same_match(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    first = _texts(path, seed=5)
    _refuse_fresh_loads(monkeypatch)
    assert _texts(path, seed=5) == first
    assert len(first) > 20  # (a match was played: deals, tricks, results)


def test_other_parameters_or_a_changed_base_are_loaded_afresh(tmp_path: Path, own_cache: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_text(TINY, encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    variant.write_text("format: 1\nextends: base.yaml\nname: A variant\n", encoding="utf-8")
    assert load_ruleset(variant).ruleset.parameter_values["hands"] == 3
    assert load_ruleset(variant, {"hands": 1}).ruleset.parameter_values["hands"] == 1
    assert len(_entries(own_cache)) == 2
    base.write_text(TINY.replace("define:\n", "define:\n  unused_here: 1\n", 1), encoding="utf-8")
    warned = validate_file(variant)  # (a definition never used: a warning, from the changed base)
    assert [d.code for d in warned] == ["unused-definition"]
    assert len(_entries(own_cache)) == 3


def test_warnings_are_kept_with_the_ruleset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "warned.yaml"
    path.write_text(TINY.replace("define:\n", "define:\n  unused_here: 1\n", 1), encoding="utf-8")
    first = validate_file(path)
    assert [d.code for d in first] == ["unused-definition"]
    _refuse_fresh_loads(monkeypatch)
    assert [d.render() for d in validate_file(path)] == [d.render() for d in first]


def test_a_runtime_failure_is_placed_as_in_a_fresh_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Written inside a procedure: the place where it is written is found through the nodes of the kept tree.
    path = tmp_path / "failing.yaml"
    path.write_text(TINY.replace("define:\n", "procedures:\n  bad:\n    - change: tricks[dealer]\n"
                                 "      by: 1 // (size(stock) - size(stock))\ndefine:\n", 1)
                    .replace("        - set: trump\n", "        - call: bad\n        - set: trump\n", 1),
                    encoding="utf-8")
    rendered = []
    for attempt in range(2):
        if attempt:
            _refuse_fresh_loads(monkeypatch)
        with pytest.raises(RulesetRuntimeError) as raised:
            play_out(load_ruleset(path).new_initial_state(seed=1, players=2), random_choices(1), 1_000)
        rendered.append(raised.value.render())
    assert rendered[0] == rendered[1]
    assert "division by zero (at procedures.bad[0].by)" in rendered[0]
    assert "note: in procedure `bad`, called at hand.phases[0].steps[" in rendered[0]  # (the calls kept too)
    assert "1 // (size(stock) - size(stock))" in rendered[0] and "^" in rendered[0]  # the caret excerpt


def test_an_index_failure_says_the_index_and_length_as_in_a_fresh_load(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # (the generated source is kept with the entry: the failure's index and list are worked out again from it)
    path = tmp_path / "failing.yaml"
    path.write_text(TINY.replace("        - set: trump\n", "        - change: tricks[dealer]\n"
                                 "          by: tricks[seats()[size(stock)]]\n        - set: trump\n", 1),
                    encoding="utf-8")
    messages = []
    for attempt in range(2):
        if attempt:
            _refuse_fresh_loads(monkeypatch)
        with pytest.raises(RulesetRuntimeError) as raised:
            play_out(load_ruleset(path).new_initial_state(seed=1, players=2), random_choices(1), 1_000)
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith("index ") and " is past the end of a list of 2 items (0 to 1)" in messages[0]


def test_a_damaged_entry_is_loaded_afresh(tmp_path: Path, own_cache: Path) -> None:
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    first = _texts(path, seed=2)
    (entry,) = _entries(own_cache)
    entry.write_bytes(entry.read_bytes()[:100])
    assert _texts(path, seed=2) == first
    assert len(_entries(own_cache)) == 1 and entry.stat().st_size > 100  # written again, whole


def test_a_ruleset_with_errors_is_never_kept(tmp_path: Path, own_cache: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(TINY.replace("next_seat(dealer)", "next_seat(dealr)", 1), encoding="utf-8")
    assert [d.code for d in validate_file(path) if d.severity == "error"] == ["unknown-name"]
    assert _entries(own_cache) == []


def test_the_oldest_entries_go_first(tmp_path: Path, own_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interpreter.ruleset_cache, "MOST_KEPT", 2)
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    for hands in (1, 2, 3):
        load_ruleset(path, {"hands": hands})
    assert len(_entries(own_cache)) == 2
    _refuse_fresh_loads(monkeypatch)
    assert load_ruleset(path, {"hands": 3}).ruleset.parameter_values["hands"] == 3  # (the newest is kept)


def test_nothing_is_kept_when_the_cache_is_off(tmp_path: Path, own_cache: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEDECK_NO_CACHE", "1")
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    load_ruleset(path)
    assert not own_cache.exists()


def test_a_second_play_with_bots_loads_neither_the_checker_nor_the_console(own_cache: Path) -> None:
    # (a kept ruleset needs no parser of expressions, and a match of bots no terminal table: both are most of a
    # start's imports)
    code = ("import sys\nfrom interpreter.cli import cli\n"
            "try:\n    cli(['play', 'rulesets/bourre.yaml', '--set', 'hands=1', '--bots', 'random', '--seed', '1'])\n"
            "except SystemExit as stop:\n    assert not stop.code, stop.code\n"
            "print('loaded:', sorted(name for name in ('lark', 'rich', 'jsonschema', 'interpreter.checking') "
            "if name in sys.modules))\n")
    environment = {**os.environ, "RULEDECK_CACHE_DIR": str(own_cache)}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                           env=environment).stdout.splitlines()[-1] for _ in range(2)]
    assert runs[0] == "loaded: ['interpreter.checking', 'jsonschema', 'lark']"  # (the first load checks it)
    assert runs[1] == "loaded: []"


def test_an_index_failure_inside_a_comprehension_says_what_python_keeps_of_it(tmp_path: Path) -> None:
    # (Python 3.12 writes a comprehension into its function and restores the function's own names when it fails:
    # the index it read is gone, and the failure says only "index out of range"; before, it says which)
    path = tmp_path / "failing.yaml"
    path.write_text(TINY.replace("        - set: trump\n", "        - change: tricks[dealer]\n"
                                 "          by: size([[4, 8, 15][n] for n in [1, size(stock) + 5]])\n"
                                 "        - set: trump\n", 1), encoding="utf-8")
    with pytest.raises(RulesetRuntimeError) as raised:
        play_out(load_ruleset(path).new_initial_state(seed=1, players=2), random_choices(1), 1_000)
    expected = "index out of range" if sys.version_info >= (3, 12) else \
        "index 47 is past the end of a list of 3 items (0 to 2)"  # (size(stock) + 5: 42 + 5)
    assert str(raised.value).startswith(expected), str(raised.value)
