"""`ends:` of an option of a repeated decision may be an expression, worked out after the option's steps: the
decision ends when it holds (`ends: size(hand[player]) == 3`: discard until three cards are left)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import RulesetError, load_ruleset

ROOT = Path(__file__).resolve().parents[2]
TINY = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
DEALT = "        - set: trump\n          to: last(hand[dealer]).suit\n"


def _game(tmp_path: Path, ends: str, steps: str = "") -> Path:
    assert DEALT in TINY
    path = tmp_path / "ends.yaml"
    path.write_text(TINY.replace(DEALT, DEALT + "        - decide: dealer\n          repeat: true\n"
                                 "          options:\n            - discard: hand[player]\n"
                                 f"              to: won[player]\n              ends: {ends}\n{steps}"),
                    encoding="utf-8")
    return path


def test_a_repeated_decision_ends_when_its_expression_holds(tmp_path: Path) -> None:
    state = load_ruleset(_game(tmp_path, "size(hand[player]) == 3")).new_initial_state(seed=2, players=2)
    state.apply_chance()
    dealer = state.values["dealer"]
    discards = 0
    while state.legal_actions()[0].kind == "discard":
        assert state.current_player == dealer
        state.apply(state.legal_actions()[0])
        discards += 1
    assert discards == 2 and len(state.values["hand"][dealer]) == 3
    assert state.legal_actions()[0].kind == "play"


def test_the_expression_is_worked_out_after_the_options_steps(tmp_path: Path) -> None:
    steps = "              do:\n                - move: 1\n                  from: hand[player]\n" \
            "                  to: won[player]\n"
    state = load_ruleset(_game(tmp_path, "size(hand[player]) <= 1", steps)).new_initial_state(seed=2, players=2)
    state.apply_chance()
    dealer = state.values["dealer"]
    state.apply(state.legal_actions()[0])  # 5 -> 3 cards (the discard, then the step's move)
    state.apply(state.legal_actions()[0])  # 3 -> 1: it holds now
    assert len(state.values["hand"][dealer]) == 1 and state.legal_actions()[0].kind == "play"


def test_an_ends_expression_must_be_true_or_false(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as raised:
        load_ruleset(_game(tmp_path, "size(hand[player])"))
    found = [d for d in raised.value.diagnostics if d.code == "type"]
    assert found and found[0].yaml_path.endswith("options[0].ends")


def test_a_choice_of_a_repeated_decision_that_changes_nothing_is_a_warning(tmp_path: Path) -> None:
    # `choose: done` without `ends: true` (left out by mistake) and without steps: choosing it asked the same seat
    # again, with nothing changed, and `validate` said nothing (a bot chose `done` three times in a row).
    from interpreter.loader import validate_file

    idle = "            - choose: done\n"
    findings = validate_file(_game(tmp_path, "size(hand[player]) == 3", idle))
    assert [(d.code, d.severity, d.yaml_path.rsplit(".", 1)[-1]) for d in findings] == [
        ("choice-changes-nothing", "warning", "choose")]
    assert "`done` has no steps and no `ends`" in findings[0].message
    ending = "            - choose: done\n              ends: true\n"
    assert validate_file(_game(tmp_path, "size(hand[player]) == 3", ending)) == []
