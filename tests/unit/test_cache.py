"""The cache of checking results: a second `validate` of unchanged files answers without the checker, a change to
any file of a ruleset (a variant's base included) or to the parameters is checked again, a file with errors is
never answered from the cache, and a second load of a ruleset skips the schema's check."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import interpreter.cache
import interpreter.loader
import interpreter.schema
from interpreter import load_ruleset
from interpreter.cli import cli

ROOT = Path(__file__).resolve().parents[2]
TINY = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")


pytestmark = pytest.mark.usefixtures("own_cache")  # (tests/conftest.py: a cache folder of each test's own)


def _validate(*arguments: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["validate", *arguments])
    return result.exit_code, result.output


def _no_checker(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_arguments: object, **_options: object) -> None:
        raise AssertionError("the checker ran")
    monkeypatch.setattr(interpreter.loader, "check_file", refuse)


def _game(tmp_path: Path) -> tuple[Path, Path]:
    base = tmp_path / "base.yaml"
    base.write_text(TINY, encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    variant.write_text("format: 1\nextends: base.yaml\nname: A variant\n", encoding="utf-8")
    return base, variant


def test_a_second_validate_of_unchanged_files_needs_no_checker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, variant = _game(tmp_path)
    first = _validate(str(variant))
    _no_checker(monkeypatch)
    assert _validate(str(variant)) == first
    assert first[0] == 0 and f"{variant}: ok" in first[1]


@pytest.mark.parametrize("damaged", ['{"warnings": "x", "findings": ""}', '{"warnings": 0}', "[" * 100_000,
                                     '{"warnings": true, "findings": ""}'])
def test_an_entry_damaged_since_it_was_written_is_checked_again(damaged: str, tmp_path: Path,
                                                                own_cache: Path) -> None:
    _, variant = _game(tmp_path)
    first = _validate(str(variant))
    entries = list(own_cache.rglob("*.json"))
    assert first[0] == 0 and entries
    for entry in entries:
        entry.write_text(damaged, encoding="utf-8")
    assert _validate(str(variant)) == first  # (checked again: the same findings, and no internal error)
    assert _validate(str(variant)) == first


def test_a_change_to_the_base_of_a_variant_is_checked_again(tmp_path: Path) -> None:
    base, variant = _game(tmp_path)
    assert _validate(str(variant))[0] == 0
    base.write_text(TINY.replace("next_seat(dealer)", "next_seat(dealr)", 1), encoding="utf-8")
    code, output = _validate(str(variant))
    assert code == 1 and "unknown name `dealr`" in output


def test_other_parameters_are_checked_again(tmp_path: Path) -> None:
    _, variant = _game(tmp_path)
    assert _validate(str(variant))[0] == 0
    code, output = _validate(str(variant), "--set", "no_such_parameter=1")
    assert code == 2 and "no_such_parameter" in output


def test_a_file_with_errors_is_checked_every_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(TINY.replace("next_seat(dealer)", "next_seat(dealr)", 1), encoding="utf-8")
    assert _validate(str(broken))[0] == 1
    _no_checker(monkeypatch)
    with pytest.raises(AssertionError, match="the checker ran"):
        CliRunner().invoke(cli, ["validate", str(broken)], catch_exceptions=False)


def test_the_cache_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_cache: Path) -> None:
    monkeypatch.setenv("RULEDECK_NO_CACHE", "1")
    _, variant = _game(tmp_path)
    assert _validate(str(variant))[0] == 0
    assert not own_cache.exists()


def test_a_second_load_skips_the_schema_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, variant = _game(tmp_path)
    load_ruleset(variant)

    def refuse(*_arguments: object) -> None:
        raise AssertionError("the schema ran")
    monkeypatch.setattr(interpreter.schema, "validate_structure", refuse)
    game = load_ruleset(variant)
    assert game.name == "A variant"


@pytest.mark.parametrize("failure", [OSError("No space left on device"), KeyboardInterrupt()])
def test_an_entry_not_written_whole_leaves_no_file(failure: BaseException, own_cache: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*arguments: object, **options: object) -> None:
        raise failure

    # (the entry is written to a file of its own, then put in place: a failure in between leaves nothing)
    monkeypatch.setattr(interpreter.cache.os, "replace", fail)
    if isinstance(failure, KeyboardInterrupt):
        with pytest.raises(KeyboardInterrupt):
            interpreter.cache.put("ab" + "0" * 62, {"warnings": 0})
    else:
        interpreter.cache.put("ab" + "0" * 62, {"warnings": 0})
    assert [path for path in own_cache.rglob("*") if path.is_file()] == []
