"""A clone is complete: the rules reference the rulesets cite and the benchmarks' references are in it."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules" / "RULES.md"
CITED_IN = ("rulesets", "tests", "benchmarks", "docs", "interpreter")
RULE_ID = re.compile(r"\b(B[RU]-V?\d+)\b")
OUTSIDE = re.compile(r"\.\./shared\b|/work/")  # the folder beside the checkout the project once read from


def _text_files() -> list[Path]:
    suffixes = {".py", ".yaml", ".md", ".json", ".lark", ".txt", ".toml"}
    found = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "pyproject.toml", ROOT / ".ci" / "run"]
    for folder in CITED_IN:
        found.extend(path for path in (ROOT / folder).rglob("*") if path.suffix in suffixes)
    return [path for path in found if path.resolve() != Path(__file__).resolve()]


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")  # some test rulesets are broken on purpose


def test_the_rules_reference_defines_every_rule_id_that_is_cited() -> None:
    defined = set(re.findall(r"\*\*(B[RU]-V?\d+)", RULES.read_text(encoding="utf-8")))
    cited = {rule for path in _text_files() for rule in RULE_ID.findall(_read(path))}
    assert len(defined) > 100 and len(cited) > 50
    assert sorted(cited - defined) == []


def test_no_file_points_outside_the_repository() -> None:
    pointing = [f"{path.relative_to(ROOT)}:{number}" for path in _text_files()
                for number, line in enumerate(_read(path).splitlines(), 1)
                if OUTSIDE.search(line)]
    assert pointing == []


def _references_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("references", ROOT / "benchmarks" / "references.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["bourre_handcoded", "burraco_handcoded"])
def test_the_benchmarks_load_their_hand_written_references_from_the_repository(name: str) -> None:
    reference = _references_module().load_reference(name)
    assert Path(reference.__file__).parent == ROOT / "benchmarks" / "reference"
    arguments = (2, 5, 1) if name == "bourre_handcoded" else (1, 1)
    table, seconds = reference.run(*arguments)
    assert seconds >= 0 and table is not None
    sys.modules.pop(name, None)


def test_the_bytecode_count_names_where_a_game_spends_them(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bytecodes", ROOT / "benchmarks" / "bytecodes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # (a first count also runs what the process works out once and keeps, such as the shuffle's steps for a
    # deck's size, unless an earlier test did: the counts compared are those after it)
    module.count(ROOT / "tests" / "games" / "tiny.yaml", 40, 1, 2, None, {})
    counts, made = module.count(ROOT / "tests" / "games" / "tiny.yaml", 40, 1, 2, None, {})
    assert made == 40 and counts["apply"] > 0 and sum(counts.values()) > counts["apply"]
    again, _ = module.count(ROOT / "tests" / "games" / "tiny.yaml", 40, 1, 2, None, {})
    assert again == counts  # deterministic: the same seed counts the same bytecodes
    assert module.main([str(ROOT / "tests" / "games" / "tiny.yaml"), "--decisions", "20", "--function", "apply"]) == 0
    assert "bytecodes per decision in apply" in capsys.readouterr().out


@pytest.mark.parametrize("policy, ruleset, unit", [("bourre", "bourre_benchmark.yaml", "card"),
                                                   ("burraco", "burraco_benchmark.yaml", "turn")])
def test_the_bytecode_count_plays_a_benchmarks_policy(policy: str, ruleset: str, unit: str,
                                                      capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))  # (the policies are the benchmarks' sibling modules)
    spec = importlib.util.spec_from_file_location("bytecodes", ROOT / "benchmarks" / "bytecodes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path = ROOT / "benchmarks" / ruleset
    overrides = {"hands": "2"} if policy == "bourre" else {}  # (Burraco's match: one hand, as its benchmark's)
    module.count(path, 0, 1, None, None, overrides, policy, 1)  # (what a first run works out once, see above)
    counts, done = module.count(path, 0, 1, None, None, overrides, policy, 1)
    assert done > 0 and counts["apply"] > 0 and counts["drive"] > 0  # (the policy's loop is counted too)
    again, _ = module.count(path, 0, 1, None, None, overrides, policy, 1)
    assert again == counts
    assert module.main([str(path), "--policy", policy, "--matches", "1", "--top", "3", *(
        ["--set", "hands=2"] if policy == "bourre" else [])]) == 0
    assert f"bytecodes per {unit}" in capsys.readouterr().out


def _forget_revision() -> None:
    """The modules of a revision's engine imported by a run of compare_revisions (see the test below)."""
    for name in [name for name in sys.modules if name.split(".")[0] == "interpreter_base"]:
        del sys.modules[name]


def test_the_engine_compares_with_another_revision_in_one_process(capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, check=False).returncode:
        pytest.skip("not a git checkout")
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))  # (the benchmarks import their sibling modules)
    monkeypatch.setenv("RULEDECK_NO_CACHE", "1")
    spec = importlib.util.spec_from_file_location("compare_revisions", ROOT / "benchmarks" / "compare_revisions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        with pytest.raises(SystemExit, match="no such file"):  # (a ruleset that cannot be loaded: said, no traceback)
            module.main(["HEAD", str(ROOT / "no_such_ruleset.yaml"), "--rounds", "2"])
        _forget_revision()  # (its files are gone with its run: the next run takes the revision again)
        assert module.main(["HEAD", str(ROOT / "tests" / "games" / "tiny.yaml"), "--rounds", "2",
                            "--decisions", "30"]) == 0
        # (Burraco's benchmark policy, per turn: a meld's or an addition's legal sets read the state as it plays)
        _forget_revision()
        assert module.main(["HEAD", str(ROOT / "benchmarks" / "burraco_benchmark.yaml"), "--rounds", "2",
                            "--policy", "burraco"]) == 0
        # the revision's engine is a package of its own: none of its modules is the working tree's
        from interpreter.engine.state import State

        assert sys.modules["interpreter_base.engine.state"].State is not State
        assert not any(name.startswith("interpreter.") and "interpreter_base" in str(getattr(value, "__file__", ""))
                       for name, value in sys.modules.items())
    finally:
        _forget_revision()
    out = capsys.readouterr().out
    assert "ratio to HEAD" in out and "working" in out and "us/turn" in out


def test_the_scaling_of_simulate_is_measured_by_whole_runs(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("simulate_scaling", ROOT / "benchmarks" / "simulate_scaling.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main([str(ROOT / "tests" / "games" / "tiny.yaml"), "-n", "2", "--pairs", "1", "--loop", "1000",
                        "--no-compile"]) == 0
    out = capsys.readouterr().out
    assert "pair 1: one worker" in out and "simulate --workers 2 against --workers 1" in out
    assert "two CPU loops at once" in out
    with pytest.raises(SystemExit, match="no such file"):  # (a run that fails is said, with what it printed)
        module.main([str(ROOT / "no_such_ruleset.yaml"), "-n", "2", "--pairs", "1", "--loop", "0", "--no-compile"])


def test_the_api_floor_replays_the_engines_legal_sets_to_a_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the caller's cost alone: the same policy over recorded legal sets, reading the values recorded with them)
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location("burraco_speed", ROOT / "benchmarks" / "burraco_speed.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    play = module.floor_side(2, 1)
    turns = play(0)
    assert turns > 20  # (two hands' worth of decisions: some forty turns each)
    from floor import RulelessState

    state = RulelessState([["a", "b"], ["c"]], 3, [{"step": 0}, {"step": 1}])
    assert state.legal_actions() == ["a", "b"] and state.values == {"step": 0}
    with pytest.raises(ValueError, match="not legal"):
        state.apply("c")
    state.apply("b")
    assert state.legal_actions() == ["c"] and state.values == {"step": 1} and not state.is_terminal
    state.apply("c")
    assert state.legal_actions() == ["a", "b"]  # (round the script again)
    state.apply("a")
    assert state.is_terminal
