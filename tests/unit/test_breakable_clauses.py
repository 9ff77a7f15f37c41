"""Clauses that may be broken (`breakable`, `record`): the engine offers the breaking play too, marked with the
reasons it breaks, records it, and the ruleset penalises it (Bourré's reneges, BR-38/BR-39, with the house rule
`reneges`); without the house rule nothing changes (docs/ruleset-format.md, legality clauses)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import CHANCE, load_ruleset
from interpreter.agents.heuristic import HeuristicAgent
from interpreter.engine.errors import IllegalActionError
from interpreter.engine.state import State
from interpreter.errors import RulesetError
from interpreter.runners.transcript import describe
from tests.play_helpers import game_from_text

ROOT = Path(__file__).resolve().parents[2]
BOURRE = ROOT / "rulesets" / "bourre.yaml"


def _at_first_follow(reneges: bool):  # type: ignore[no-untyped-def]
    """A 2-player hand at the first card that follows a lead: p1 leads KH; p0 holds hearts."""
    game = load_ruleset(BOURRE, {"reneges": reneges, "hands": 1})
    state = State(game, 2, 1)
    state.match.start_at(state, "tricks", dealer=0, hand_number=1,
                   zones={("hand", 1): [_card(game, t) for t in ("KH", "2C", "3C", "4C", "5C")],
                          ("hand", 0): [_card(game, t) for t in ("AH", "2H", "9D", "8D", "7D")]},
                   face_up={}, variables={"trump": game.deck.suit_index("S"), "status": ["play", "play"]})
    state.apply("p1 play KH")
    return state


def _card(game, text: str) -> int:  # type: ignore[no-untyped-def]
    return int(game.deck.parse_card(text))


def test_breaking_plays_are_offered_marked_and_recorded() -> None:
    state = _at_first_follow(reneges=True)
    texts = [state.action_text(action) for action in state.legal_actions()]
    assert texts == ["p0 play AH", "p0 play 2H", "p0 play 9D", "p0 play 8D", "p0 play 7D"]
    assert state.broken("p0 play AH") == []
    assert state.broken("p0 play 2H") == ["BR-23: you must beat the card winning the trick when you can"]
    assert state.broken("p0 play 9D")[0] == "BR-21: you must follow suit"
    assert state.observation(0)["breaking"]["p0 play 9D"][0] == "BR-21: you must follow suit"
    state.apply("p0 play 9D")
    assert state.values["reneged"] == [True, False]
    breaks = [event for event in state.events if event["type"] == "breaks"]
    assert breaks == [{"type": "breaks", "action": "p0 play 9D", "seat": 0,
                       "rules": ["BR-21: you must follow suit", "BR-23: you must beat the card winning the trick when "
                                 "you can"], "secret_from": [1]}]
    assert describe(breaks[0], viewer=1) is None  # the other seat does not see it
    assert "breaks a rule" in str(describe(breaks[0]))


def test_without_the_house_rule_the_play_is_refused_and_the_fast_code_kept() -> None:
    state = _at_first_follow(reneges=False)
    assert [state.action_text(action) for action in state.legal_actions()] == ["p0 play AH"]
    assert state.pending is not None and state.pending.finder is not None
    with pytest.raises(IllegalActionError, match="BR-21"):
        state.apply("p0 play 9D")


def test_a_breaking_play_is_accepted_as_text_before_the_legal_set_is_asked() -> None:
    state = _at_first_follow(reneges=True)
    state.apply("p0 play 2H")  # (no legal_actions() first)
    assert state.values["reneged"] == [True, False]


def test_the_heuristic_bot_keeps_the_rules() -> None:
    state = _at_first_follow(reneges=True)
    assert state.action_text(HeuristicAgent(1).choose(state)) == "p0 play AH"


@pytest.mark.parametrize("correct", [False, True])
def test_random_matches_with_reneges_conserve_chips(correct: bool) -> None:
    # With `correct_reneges` (BR-40) a renege may be taken back and played again: the chips are still conserved.
    game = load_ruleset(BOURRE, {"reneges": True, "correct_reneges": correct, "hands": 3})
    taken_back = 0
    for seed in range(6):
        state = game.new_initial_state(seed=seed, players=4)
        rng = random.Random(seed)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply_chance()
            else:
                state.apply(rng.choice(state.legal_actions()))
        assert sum(state.returns()) + state.values["pot"] == 0
        taken_back += sum(1 for event in state.events if " takes back " in event.get("text", ""))
    assert (taken_back > 0) == correct


def test_record_goes_with_breakable_and_marks_a_bool_or_an_int(tmp_path: Path) -> None:
    text = BOURRE.read_text(encoding="utf-8")
    clause = "              breakable: params.reneges and not replaying\n              record: reneged\n"
    with pytest.raises(RulesetError, match="`record` goes with `breakable`"):
        game_from_text(tmp_path, text.replace(clause, "              record: reneged\n", 1))
    with pytest.raises(RulesetError, match="`record` marks a bool or counts in an int"):
        game_from_text(tmp_path, text.replace("record: reneged", "record: status", 1))


def test_the_other_seats_do_not_see_a_renege_before_it_is_found_out() -> None:
    state = _at_first_follow(reneges=True)
    state.apply("p0 play 9D")
    assert state.observation(0)["variables"]["reneged"] == [True, None]  # its own only
    assert state.observation(1)["variables"]["reneged"] == [None, False]
