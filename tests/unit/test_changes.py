"""Changes to named items: a variant changes one step, option or clause of its base by its `id:`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.errors import RulesetError
from interpreter.explain import explain
from interpreter.source import to_plain
from interpreter.variants import load_merged

ROOT = Path(__file__).resolve().parents[2]
NAMED_BASE = ROOT / "tests" / "bad_rulesets" / "bases" / "named_base.yaml"


def variant(tmp_path: Path, changes: str) -> Path:
    shutil.copy(NAMED_BASE, tmp_path / "base.yaml")
    path = tmp_path / "variant.yaml"
    path.write_text("extends: base.yaml\nname: Changed\nchanges:\n" + changes, encoding="utf-8")
    return path


def play_steps(path: Path) -> list[dict[str, object]]:
    phases = to_plain(load_merged(path))["hand"]["phases"]
    return phases[1]["steps"]  # type: ignore[no-any-return]


def deal_steps(path: Path) -> list[dict[str, object]]:
    return to_plain(load_merged(path))["hand"]["phases"][0]["steps"]  # type: ignore[no-any-return]


def test_extend_appends_a_clause_to_a_named_item_and_keeps_the_others(tmp_path: Path) -> None:
    path = variant(tmp_path, "  - extend: play_trick\n    legal:\n      - {id: no_aces, rule: card.rank != A, "
                             "reason: no aces}\n")
    legal = play_steps(path)[0]["legal"]
    assert [clause["id"] for clause in legal] == ["follow_suit", "no_aces"]  # type: ignore[index]
    load_ruleset(path)  # the changed ruleset is valid


def test_replace_keeps_the_id_and_remove_deletes_only_the_named_item(tmp_path: Path) -> None:
    path = variant(tmp_path, "  - replace: follow_suit\n    with: {rule: 'true', reason: free}\n"
                             "  - remove: trump_from_dealer\n")
    assert play_steps(path)[0]["legal"] == [{"id": "follow_suit", "rule": "true", "reason": "free"}]
    assert [next(iter(step)) for step in deal_steps(path)] == ["shuffle", "deal"]


def test_removing_the_last_clause_leaves_the_play_always_legal(tmp_path: Path) -> None:
    path = variant(tmp_path, "  - remove: follow_suit\n")
    assert play_steps(path)[0]["legal"] == []

    def second_cards(ruleset: Path) -> tuple[int, int]:  # the second card's legal set, and its hand
        state = load_ruleset(ruleset).new_initial_state(seed=3, players=4)
        while state.current_player < 0:
            state.apply_chance()
        state.apply(state.legal_actions()[0])
        return len(state.legal_actions()), len(state.values["hand"][state.current_player])

    legal, held = second_cards(path)
    assert legal == held  # any card of the hand, following suit or not
    assert second_cards(tmp_path / "base.yaml")[0] < held  # (the base's clause narrows this hand)


def test_update_merges_keys_and_insert_puts_items_next_to_the_named_one(tmp_path: Path) -> None:
    path = variant(tmp_path, "  - update: trump_from_dealer\n    with: {to: S}\n"
                             "  - before: trump_from_dealer\n    insert: [{log: before}]\n"
                             "  - after: trump_from_dealer\n    insert: [{log: after}]\n")
    steps = deal_steps(path)
    assert steps[2:] == [{"log": "before"}, {"id": "trump_from_dealer", "set": "trump", "to": "S"},
                         {"log": "after"}]


def test_an_unknown_id_is_reported_at_the_variants_line_with_did_you_mean(tmp_path: Path) -> None:
    path = variant(tmp_path, "  - remove: [follow_suit, play_trik]\n")
    with pytest.raises(RulesetError) as raised:
        load_merged(path)
    (finding,) = raised.value.diagnostics
    assert finding.code == "unknown-id" and "`play_trik`" in finding.message
    assert finding.location is not None and finding.location.path.endswith("variant.yaml")
    assert (finding.location.line, finding.yaml_path) == (4, "changes[0].remove[1]")
    assert finding.hint == "did you mean `play_trick`?"


def test_a_change_with_two_verbs_or_a_missing_companion_is_refused(tmp_path: Path) -> None:
    path = variant(tmp_path, "  - {remove: follow_suit, replace: play_trick}\n  - before: play_trick\n")
    with pytest.raises(RulesetError) as raised:
        load_merged(path)
    messages = [d.message for d in raised.value.diagnostics]
    assert messages == ["a change needs exactly one of replace, update, remove, before, after, extend",
                        "a `before` change needs `insert`"]


def test_a_base_left_inconsistent_is_reported_in_the_base_naming_the_variants_change(tmp_path: Path) -> None:
    path = variant(tmp_path, "  - update: trump_from_dealer\n    with: {set: 'tricks[dealer]'}\n")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(path)
    in_base = [d for d in raised.value.diagnostics if d.location and d.location.path.endswith("base.yaml")]
    assert in_base, raised.value.render()
    assert all("`update: trump_from_dealer` at" in (d.hint or "") and "variant.yaml:4" in (d.hint or "")
               for d in in_base)


def test_changes_in_a_file_that_extends_nothing_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "alone.yaml"
    path.write_text(NAMED_BASE.read_text(encoding="utf-8") + "changes:\n  - remove: follow_suit\n",
                    encoding="utf-8")
    with pytest.raises(RulesetError, match="extends none"):
        load_merged(path)


def test_explain_lists_each_change_with_the_line_that_made_it() -> None:
    base, found = explain(ROOT / "rulesets" / "variants" / "dealer_may_not_pass.yaml")
    assert base.name == "bourre.yaml"
    added = [d for d in found if d.kind == "added"]
    assert [d.path for d in added] == ["hand.phases[declare].steps[BR-10].do[0].options[pass].legal[dealer_plays]"]
    assert added[0].origin.endswith("dealer_may_not_pass.yaml:12")
    assert {d.path for d in found} - {added[0].path} == {"name", "description"}


def test_explain_shows_removed_items_by_id() -> None:
    _, found = explain(ROOT / "rulesets" / "variants" / "spades_trumps.yaml")
    removed = {d.path.rsplit("[", 1)[1].rstrip("]") for d in found if d.kind == "removed"}
    assert removed == {"turn_up", "BR-15", "BR-08"}
    # (each with the line of the variant that removes it: `- remove: [turn_up, BR-15, BR-08]`)
    assert {d.origin.rsplit("/", 1)[-1] for d in found if d.kind == "removed"} == {"spades_trumps.yaml:17"}


def test_explain_names_where_a_variant_removes_by_path_and_by_name(tmp_path: Path) -> None:
    tiny = ROOT / "tests" / "games" / "tiny.yaml"
    variant = tmp_path / "less.yaml"
    variant.write_text(f"format: 1\nextends: {tiny}\nname: Less\nremove: [params.pot_limit]\nvariables:\n"
                       "  - {name: score, remove: true}\n", encoding="utf-8")
    _, found = explain(variant)
    origins = {d.path: d.origin for d in found if d.kind == "removed"}
    assert origins == {"params.pot_limit": f"{variant}:4", "variables[score]": f"{variant}:6"}


def test_the_explain_command_prints_the_changes_and_refuses_a_file_that_extends_nothing() -> None:
    from click.testing import CliRunner

    from interpreter.cli import cli

    result = CliRunner().invoke(cli, ["explain", "dealer_may_not_pass"])  # a bundled variant, by name
    assert result.exit_code == 0, result.output
    assert "changes" in result.stdout.splitlines()[0] and "3 differences" in result.stdout.splitlines()[0]
    assert "+ hand.phases[declare].steps[BR-10].do[0].options[pass].legal[dealer_plays]" in result.stdout
    refused = CliRunner().invoke(cli, ["explain", "bourre"])
    assert refused.exit_code == 1 and "extends no ruleset" in refused.stderr


def test_the_schema_describes_the_changes_the_variants_stage_applies() -> None:
    import json

    import jsonschema
    import yaml

    schema = json.loads((ROOT / "schema" / "ruleset.schema.json").read_text(encoding="utf-8"))
    change = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/change"})
    shipped = [c for f in sorted((ROOT / "rulesets").rglob("*.yaml"))
               for c in yaml.safe_load(f.read_text(encoding="utf-8")).get("changes", [])]
    assert len(shipped) >= 5 and all(change.is_valid(c) for c in shipped)
    assert not change.is_valid({"replace": "BR-15", "whith": {}})
    assert not change.is_valid({"remove": "BR-15", "update": "BR-17"})


def test_a_finding_in_the_base_cites_the_variants_removal_or_parameter_that_caused_it(tmp_path: Path) -> None:
    from interpreter import validate_file

    shutil.copy(ROOT / "rulesets" / "bourre.yaml", tmp_path / "bourre.yaml")
    removed = tmp_path / "removed.yaml"
    removed.write_text("format: 1\nextends: bourre.yaml\nname: Removed\nremove: [define.pot_stake]\n",
                       encoding="utf-8")
    (finding,) = validate_file(removed)
    assert finding.message == "unknown name `pot_stake`" and finding.location is not None
    assert finding.location.path.endswith("bourre.yaml")
    assert finding.hint is not None and finding.hint.endswith(
        f"the base is checked after the changes of a variant: `remove: define.pot_stake` at {removed}:4")
    retyped = tmp_path / "retyped.yaml"
    retyped.write_text("format: 1\nextends: bourre.yaml\nname: Retyped\nparams:\n  hands: {default: 3}\n"
                       "  ante: {type: num, default: 3/2}\n", encoding="utf-8")
    (finding,) = validate_file(retyped)
    assert finding.message == "the amount must be int, not num"
    assert finding.hint == f"the base is checked after the changes of a variant: `params: ante` at {retyped}:6"


def test_a_base_reached_through_dot_dot_is_named_by_its_plain_path(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter import validate_file

    shutil.copy(ROOT / "rulesets" / "bourre.yaml", tmp_path / "bourre.yaml")
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "v.yaml").write_text("format: 1\nextends: ../bourre.yaml\nname: V\n"
                                                  "remove: [define.pot_stake]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    (finding,) = validate_file("variants/v.yaml")
    assert finding.location is not None and finding.location.path == "bourre.yaml"


def test_explain_names_a_missing_base_at_the_variants_extends_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from interpreter.cli import cli

    path = tmp_path / "v.yaml"
    path.write_text("format: 1\nextends: ../bourree.yaml\nname: V\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["explain", str(path)])
    assert result.exit_code == 1
    assert f"{path}:2:10: error[extends-missing]: `extends` names '../bourree.yaml', which is not a file" \
        in result.stderr
    bundled_base = tmp_path / "w.yaml"
    bundled_base.write_text("format: 1\nextends: bourre\nname: W\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["explain", str(bundled_base)])
    assert result.exit_code == 0 and "1 difference" in result.stdout.splitlines()[0], result.output
