"""A variable that no step changes with the ruleset's parameters is read as its initial value, folded like a
parameter (interpreter/unchanging.py): which variables are taken so, that the game plays as the same rules with
the variable changing would, and that a scenario cannot give such a variable another value (docs/scenarios.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.engine.errors import IllegalActionError
from interpreter.engine.state import State
from interpreter.runners.scenarios import run_file
from tests.play_helpers import play_alike

ROOT = Path(__file__).resolve().parents[2]
BOURRE = ROOT / "rulesets" / "bourre.yaml"
TINY = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
RENEGES = {"reneged", "renege_stands", "corrected", "replaying", "deal_lost", "next_to_deal"}


def test_bourres_renege_variables_are_unchanging_without_the_reneges_house_rule() -> None:
    # BR-38 to BR-40: `reneged` is recorded by clauses `breakable: params.reneges`, the others set under
    # `if: params.reneges and params.correct_reneges`.
    assert set(load_ruleset(BOURRE).ruleset.unchanging) == RENEGES
    assert load_ruleset(BOURRE).ruleset.unchanging["reneged"] == ("seat", False)
    assert not set(load_ruleset(BOURRE, {"reneges": True, "correct_reneges": True}).ruleset.unchanging) & RENEGES
    # (with `reneges` alone, a renege is recorded; the steps that take one back stay off)
    alone = set(load_ruleset(BOURRE, {"reneges": True}).ruleset.unchanging)
    assert "reneged" not in alone and {"corrected", "replaying"} <= alone


def _tiny(tmp_path: Path, steps: str, variables: str = "") -> Path:
    text = TINY.replace("        - set: trump\n          to: last(hand[dealer]).suit",
                        "        - set: trump\n          to: last(hand[dealer]).suit\n" + steps)
    text = text.replace("  - {name: trump, type: suit}", "  - {name: trump, type: suit}\n" + variables)
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("steps", "unchanging"), [
    # written under an `if` whose test is a constant that never takes the branch
    ("        - if: params.hands > 1000\n          then: [{set: bonus, to: 1}]\n", True),
    ("        - if: params.hands < 1000\n          then: [{log: x}]\n          else: [{set: bonus, to: 1}]\n", True),
    # the branch taken, or a test that is not a constant
    ("        - if: params.hands < 1000\n          then: [{set: bonus, to: 1}]\n", False),
    ("        - if: dealer == 0\n          then: [{change: bonus, by: 1}]\n", False),
    ("        - {transfer: 1, from: 'score[dealer]', to: bonus}\n", False),
    ("        - {transfer: 1, from: bonus, to: 'score[dealer]'}\n", False),
])
def test_a_variable_is_unchanging_when_every_step_that_writes_it_is_never_reached(
        tmp_path: Path, steps: str, unchanging: bool) -> None:
    path = _tiny(tmp_path, steps, "  - {name: bonus, type: int, initial: 0}\n")
    assert ("bonus" in load_ruleset(path).ruleset.unchanging) is unchanging


def test_variables_with_a_second_index_no_initial_value_or_a_card_are_never_unchanging(tmp_path: Path) -> None:
    # (a card seen by nobody is dealt again by a search that resamples what a seat cannot see)
    path = _tiny(tmp_path, "", "  - {name: by_suit, type: int, initial: 0, by: suit}\n"
                               "  - {name: unset, type: int}\n  - {name: maybe, type: int, initial: null}\n"
                               "  - {name: kept, type: card, initial: AS, visibility: nobody}\n"
                               "  - {name: start, type: int, initial: 2 + 3}\n")
    unchanging = load_ruleset(path).ruleset.unchanging
    assert not {"by_suit", "unset", "maybe", "kept"} & set(unchanging)
    assert unchanging["start"] == ("table", 5)


def test_rules_that_read_an_unchanging_variable_play_as_with_it_changing(tmp_path: Path) -> None:
    # `bonus` is read by the trick's rule and the result. Unchanging, its reads are folded; written by a step that
    # runs but never changes it (`change: bonus by 0`), it is read as it is: the two play alike.
    rule = ("            - rule: bonus > 0 or size(trick) == 0 or follows(card) or not any(follows(c) for c in hand)\n"
            "              reason: \"you must follow suit\"\n")
    variables = "  - {name: bonus, type: int, per: seat, initial: 0}\n"
    folded = _tiny(tmp_path, "", variables)
    written = tmp_path / "written.yaml"
    written.write_text(folded.read_text(encoding="utf-8").replace(
        "        - set: trump\n", "        - {change: 'bonus[dealer]', by: 0}\n        - set: trump\n"),
        encoding="utf-8")
    for path in (folded, written):
        path.write_text(path.read_text(encoding="utf-8").replace(
            "            - rule: size(trick) == 0 or follows(card) or not any(follows(c) for c in hand)\n"
            "              reason: \"you must follow suit\"\n", rule).replace(
            "  result: score[player]", "  result: score[player] + bonus[player] + tricks"), encoding="utf-8")
    one, other = load_ruleset(folded), load_ruleset(written)
    assert "bonus" in one.ruleset.unchanging and "bonus" not in other.ruleset.unchanging
    for seed in range(3):
        first, second = one.new_initial_state(seed=seed, players=3), other.new_initial_state(seed=seed, players=3)
        play_alike(first, second, seed)
        assert first.returns() == second.returns()


def test_a_scenario_cannot_give_an_unchanging_variable_another_value(tmp_path: Path) -> None:
    game = load_ruleset(BOURRE, {"hands": 1})
    state = State(game, 2, 1)
    with pytest.raises(IllegalActionError, match=r"`reneged` cannot be set here: no step of this ruleset changes "
                                                 r"it with these parameters, so its rules read it as false"):
        state.match.start_at(state, "tricks", dealer=0, hand_number=1, zones={}, face_up={},
                             variables={"trump": 0, "status": ["play", "play"], "reneged": [True, False]})
    same = State(game, 2, 1)  # (its own value, given again, is accepted)
    same.match.start_at(same, "tricks", dealer=0, hand_number=1, zones={}, face_up={},
                        variables={"trump": 0, "status": ["play", "play"], "reneged": [False, False]})
    assert same.current_player in (0, 1)


def test_a_scenario_file_that_sets_one_fails_that_case_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "cases.yaml"
    start = ("    start: {phase: tricks, dealer: p0, zones: {hand: {p0: [AH, 2C], p1: [KH, 3C]}},\n"
             "            variables: {trump: S, status: {p0: play, p1: play}, reneged: {p1: true}}}\n")
    path.write_text(f"ruleset: {BOURRE}\nplayers: 2\ncases:\n"
                    f"  - name: renege set\n{start}    steps: [{{expect: {{phase: tricks}}}}]\n"
                    f"  - name: renege set with the house rule\n    params: {{reneges: true}}\n{start}"
                    "    steps: [{expect: {phase: tricks, variables: {reneged: {p1: true}}}}]\n", encoding="utf-8")
    results = [(result.name, result.passed, result.message) for result in run_file(path)]
    assert results[0][:2] == ("renege set", False) and "`reneged` cannot be set here" in results[0][2]
    assert results[1] == ("renege set with the house rule", True, "")
