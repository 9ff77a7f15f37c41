"""The bundled rulesets: found by name by `play`, `simulate` and `validate`, listed by `ruledeck list`; a path
still wins, and an unknown name is a usage error that lists the bundled ones."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter import bundled, load_ruleset
from interpreter.cli import cli

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "rulesets").rglob("*.yaml"))


def _run(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(arguments))
    return result.exit_code, result.stdout, result.stderr


def test_every_shipped_ruleset_is_bundled_under_its_own_name() -> None:
    paths = bundled.bundled_paths()
    assert len(SHIPPED) >= 14 and len(paths) == len(SHIPPED)  # no two files share a name
    assert {path.resolve() for path in paths.values()} == {path.resolve() for path in SHIPPED}
    assert list(paths)[:2] == ["bourre", "burraco"]  # games before variants


def test_list_shows_each_game_then_its_variants_with_title_and_path() -> None:
    code, out, _ = _run("list")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(SHIPPED)
    assert lines[0].split()[0] == "bourre" and "Bourré" in lines[0] and lines[0].endswith("bourre.yaml")
    pot_limit = next(line for line in lines if "pot_limit" in line)
    assert pot_limit.startswith("  pot_limit ") and "Bourré, pot limit 20" in pot_limit
    assert lines.index(pot_limit) < next(number for number, line in enumerate(lines) if line.startswith("burraco"))
    assert pot_limit.endswith(str(Path("variants") / "pot_limit.yaml"))


def test_play_finds_a_bundled_variant_by_name() -> None:
    code, out, _ = _run("play", "pot_limit", "--players", "3", "--seed", "1", "--set", "hands=1", "--json")
    assert code == 0
    assert json.loads(out)["ruleset"] == "Bourré, pot limit 20"


def test_simulate_and_validate_find_bundled_rulesets_by_name() -> None:
    code, out, _ = _run("simulate", "bourre", "-n", "2", "--players", "3", "--set", "hands=1", "--json")
    assert code == 0 and json.loads(out)["matches"] == 2
    code, out, _ = _run("validate", "burraco", "indiana")
    assert code == 0
    assert out.splitlines() == [f"{bundled.bundled_paths()[name]}: ok" for name in ("burraco", "indiana")]


def test_an_unknown_name_is_a_usage_error_listing_the_bundled_rulesets() -> None:
    for command in (["play", "bourree"], ["simulate", "bourree", "-n", "1"], ["validate", "bourree"]):
        code, _, err = _run(*command)
        assert code == 2
        assert "no ruleset file or bundled ruleset named 'bourree' (did you mean 'bourre'?)" in err
        assert "bourre, burraco," in err and "pot_limit" in err


def test_a_file_of_that_name_wins_over_the_bundled_ruleset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(ROOT / "tests" / "games" / "tiny.yaml", tmp_path / "bourre")
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run("validate", "bourre")
    assert code == 0 and out == "bourre: ok\n"


def test_a_folder_of_that_name_is_no_ruleset_to_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bourre").mkdir()
    (tmp_path / "bourre" / "notes.yaml").write_text("not: a ruleset\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    played = CliRunner().invoke(cli, ["play", "bourre", "--set", "hands=1", "--bots", "random", "--json"])
    assert played.exit_code == 0 and json.loads(played.stdout)["ruleset"] == "Bourré", played.output
    explained = CliRunner().invoke(cli, ["explain", "bourre"])
    assert "rulesets/bourre.yaml extends no ruleset" in explained.output  # (the bundled file, not the folder)
    checked = CliRunner().invoke(cli, ["validate", "bourre"])  # (a folder is what validate takes: its files)
    assert checked.exit_code == 1 and "notes.yaml" in checked.output


def test_a_missing_path_is_still_a_finding_of_its_file() -> None:
    for command in ("play", "validate"):
        code, out, err = _run(command, "no/such/bourre.yaml")
        assert code == 1 and "no/such/bourre.yaml:1:1: error[file-missing]" in out + err


def test_installed_variants_extend_their_game_inside_the_package(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The layout of an installed wheel: the rulesets are package data, and `extends: ../bourre.yaml` of a
    variant finds its game there."""
    package_data = tmp_path / "interpreter" / "rulesets"
    shutil.copytree(ROOT / "rulesets", package_data)
    monkeypatch.setattr(bundled, "FOLDERS", (package_data, tmp_path / "nowhere"))
    path = bundled.resolve_ruleset("pot_limit")
    assert Path(path) == package_data / "variants" / "pot_limit.yaml"
    assert load_ruleset(path).name == "Bourré, pot limit 20"


def test_without_a_rulesets_folder_every_name_is_unknown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bundled, "FOLDERS", (tmp_path / "nowhere",))
    with pytest.raises(bundled.UnknownRulesetError, match="bundled rulesets: none"):
        bundled.resolve_ruleset("bourre")
    code, _, err = _run("list")
    assert code == 1 and "no bundled rulesets" in err


def _completed(words: str) -> list[str]:
    environment = {"_RULEDECK_COMPLETE": "bash_complete", "COMP_WORDS": words,
                   "COMP_CWORD": str(len(words.split()) - 1)}
    return CliRunner().invoke(cli, [], prog_name="ruledeck", env=environment).stdout.splitlines()


def test_the_shell_completes_a_ruleset_with_the_bundled_names_else_files() -> None:
    assert _completed("ruledeck play pot") == ["plain,pot_limit"]
    assert _completed("ruledeck validate burraco_t") == ["plain,burraco_target", "plain,burraco_three_players",
                                                         "plain,burraco_two_players"]
    assert _completed("ruledeck simulate rules") == ["file,rules"]


def test_load_ruleset_takes_the_name_of_a_bundled_ruleset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter.bundled import UnknownRulesetError

    monkeypatch.chdir(tmp_path)  # (no file of that name here)
    assert load_ruleset("bourre").name == "Bourré"
    assert load_ruleset("pot_limit", {"pot_limit": 5}).name.startswith("Bourré")
    with pytest.raises(UnknownRulesetError, match=r"bundled rulesets: .*bourre"):
        load_ruleset("no_such_game")


def test_a_variant_in_any_folder_extends_a_bundled_ruleset_by_name(tmp_path: Path) -> None:
    from interpreter import validate_file

    path = tmp_path / "mine.yaml"
    path.write_text("format: 1\nextends: pot_limit\nname: Mine\nparams:\n  pot_limit: {default: 15}\n",
                    encoding="utf-8")
    assert validate_file(path) == []
    game = load_ruleset(path)
    assert game.ruleset.parameter_values["pot_limit"] == 15 and game.ruleset.name == "Mine"
    assert "pot_limit" in game.ruleset.tree.entries["params"].entries  # (the bundled variant's base, merged)


def test_a_misspelt_bundled_base_is_named_with_a_suggestion(tmp_path: Path) -> None:
    from interpreter import validate_file

    path = tmp_path / "mine.yaml"
    path.write_text("format: 1\nextends: bourree\nname: Mine\n", encoding="utf-8")
    (finding,) = validate_file(path)
    assert finding.code == "extends-missing" and finding.hint == "did you mean the bundled `bourre`?"


def test_a_file_beside_the_variant_wins_over_a_bundled_ruleset_of_the_name(tmp_path: Path) -> None:
    (tmp_path / "bourre").write_text((ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    path = tmp_path / "mine.yaml"
    path.write_text("format: 1\nextends: bourre\nname: Mine\n", encoding="utf-8")
    assert set(load_ruleset(path).ruleset.parameter_values) == {"hands", "pot_limit"}  # tiny's own
