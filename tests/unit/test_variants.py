"""Variants: `extends:` merged before validation with DESIGN.md's merge rules; errors point at their origin."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import compile_ruleset, load_ruleset
from interpreter.errors import Diagnostic, RulesetError
from interpreter.source import ScalarNode, SequenceNode, find, to_plain
from interpreter.variants import load_merged

FILES = Path(__file__).parent / "variant_files"


def test_mappings_merge_key_by_key_and_named_lists_by_name() -> None:
    merged = to_plain(load_merged(FILES / "variant.yaml"))
    assert merged["name"] == "Variant"
    assert merged["params"]["hands"] == {"type": "int", "default": 7, "min": 1, "max": 20,
                                         "description": "Hands in a match."}
    assert [zone["name"] for zone in merged["zones"]] == ["stock", "hand", "kitty"]
    assert [phase["name"] for phase in merged["hand"]["phases"]] == ["deal", "score"]
    assert merged["hand"]["phases"][0]["steps"][1]["deal"] == 6  # an unnamed list is replaced whole
    assert merged["hand"]["phases"][0]["next"] == "score"  # a merged phase keeps the keys it did not change
    assert "extends" not in merged


def test_a_definition_is_overridden_by_name_even_with_other_parameter_names() -> None:
    merged = to_plain(load_merged(FILES / "variant.yaml"))
    assert merged["define"] == {"big(card)": "card.rank >= J"}


def test_every_merged_node_remembers_the_file_it_came_from() -> None:
    root = load_merged(FILES / "variant.yaml")
    from_variant = find(root, ("params", "hands", "default"))
    from_base = find(root, ("params", "hands", "max"))
    assert isinstance(from_variant, ScalarNode) and from_variant.location.path.endswith("variant.yaml")
    assert isinstance(from_base, ScalarNode) and from_base.location.path.endswith("base.yaml")
    zones = find(root, ("zones",))
    assert isinstance(zones, SequenceNode)


def test_a_variant_loads_with_its_parameter_default() -> None:
    ruleset = compile_ruleset(FILES / "variant.yaml")
    assert ruleset.parameter_values["hands"] == 7
    assert list(ruleset.zones) == ["stock", "hand", "kitty"]


def test_an_error_supplied_by_the_variant_points_at_the_variant() -> None:
    with pytest.raises(RulesetError) as raised:
        load_ruleset(FILES / "broken_variant.yaml")
    (finding,) = raised.value.errors
    assert finding.code == "unknown-phase"
    assert finding.location is not None
    assert finding.location.path.endswith("broken_variant.yaml") and finding.location.line == 7


def test_an_extends_cycle_is_refused_with_the_chain(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("format: 1\nextends: b.yaml\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("format: 1\nextends: a.yaml\n", encoding="utf-8")
    with pytest.raises(RulesetError) as raised:
        load_merged(tmp_path / "a.yaml")
    messages = [d.message for d in raised.value.diagnostics if d.code == "extends-cycle"]
    assert messages == ["`extends` makes a cycle: a.yaml -> b.yaml -> a.yaml"]


def test_removing_an_item_the_base_lacks_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "v.yaml").write_text(
        f"format: 1\nextends: {FILES / 'base.yaml'}\nzones:\n  - {{name: pile, remove: true}}\n", encoding="utf-8")
    with pytest.raises(RulesetError) as raised:
        load_merged(tmp_path / "v.yaml")
    (finding,) = raised.value.diagnostics
    assert finding.code == "extends-remove" and "pile" in finding.message


def test_a_variant_removes_keys_of_the_base_by_dotted_path(tmp_path: Path) -> None:
    (tmp_path / "v.yaml").write_text(
        f"format: 1\nextends: {FILES / 'base.yaml'}\nremove: [define.big]\n"
        "hand:\n  phases:\n    - name: score\n      steps:\n        - for_each: seats()\n          do:\n"
        "            - {change: score, by: size(hand)}\n", encoding="utf-8")
    merged = to_plain(load_merged(tmp_path / "v.yaml"))
    assert "define" in merged and merged["define"] == {}
    assert compile_ruleset(tmp_path / "v.yaml").warnings == ()


def _removal_refused(tmp_path: Path, path: str) -> Diagnostic:
    """The one finding of a variant of base.yaml that removes `path`."""
    (tmp_path / "v.yaml").write_text(
        f"format: 1\nextends: {FILES / 'base.yaml'}\nremove: ['{path}']\n", encoding="utf-8")
    with pytest.raises(RulesetError) as raised:
        load_merged(tmp_path / "v.yaml")
    (finding,) = raised.value.diagnostics
    assert finding.code == "extends-remove"
    return finding


def test_removing_a_key_the_base_lacks_is_an_error(tmp_path: Path) -> None:
    finding = _removal_refused(tmp_path, "params.nothing")
    assert finding.message == "cannot remove `params.nothing`: the base has no such key"


@pytest.mark.parametrize("path", ["hand.phases[0].steps[0].for_each", "hand.phases.0.next", "hand.phases[0]",
                                  "hand.phases.0", "phases[0]"])
def test_removing_a_key_inside_a_list_says_how_to_change_an_item(tmp_path: Path, path: str) -> None:
    finding = _removal_refused(tmp_path, path)
    assert finding.message == f"cannot remove `{path}`: `remove` reaches keys of mappings only, not the items of a list"
    assert finding.hint is not None and "`changes:`" in finding.hint


def test_a_misspelt_parameter_of_the_base_is_pointed_to(tmp_path: Path) -> None:
    # (a default for the base's `pot_limit`, misspelt: to the schema, a new parameter without its type)
    path = tmp_path / "house.yaml"
    path.write_text("format: 1\nextends: bourre\nname: House\nparams:\n  pot_limt: {default: 10}\n",
                    encoding="utf-8")
    with pytest.raises(RulesetError) as raised:
        load_ruleset(path)
    hints = {finding.hint for finding in raised.value.errors if finding.yaml_path == "params.pot_limt"}
    assert hints == {"`pot_limt` is no parameter of this ruleset: did you mean `pot_limit`? (a new parameter "
                     "needs its `type` and `description`)"}


def test_a_kind_that_takes_wild_cards_where_none_is_wild_is_warned_of(tmp_path: Path) -> None:
    # (a house rule "jokers wild" that gave the kinds `max_wilds` and forgot `melds.wild`: no meld ever holds one)
    from interpreter import validate_file

    gin = Path(__file__).resolve().parents[2] / "tests" / "games" / "gin_rummy.yaml"
    path = tmp_path / "jokers.yaml"
    path.write_text(f"format: 1\nextends: {gin}\nname: Gin, jokers\nmelds:\n  kinds:\n"
                    "    - {name: set, max_wilds: 1}\n", encoding="utf-8")
    (finding,) = validate_file(path)
    assert (finding.code, finding.severity) == ("unused-wild", "warning")
    assert finding.yaml_path == "melds.kinds[0].max_wilds"
    assert finding.message == "meld kind `set` takes up to 1 wild card, but no card is wild"
