"""When a decision has no legal action, the error says why for each kind of option, melds and piles included:
no meld the hand can make, no card that fits a meld on the table, or the clause that refuses each one."""

from __future__ import annotations

from pathlib import Path

from interpreter import CHANCE, load_ruleset
from interpreter.engine.decisions import why_none
from interpreter.engine.state import State

BURRACO = Path(__file__).resolve().parents[2] / "rulesets" / "burraco.yaml"


def _after_the_draw() -> State:
    state = load_ruleset(BURRACO).new_initial_state(seed=3, players=4)
    while state.current_player == CHANCE:
        state.apply_chance()
    state.apply(next(action for action in state.legal_actions() if action.kind == "draw"))
    return state


def _hold(state: State, text: str) -> None:
    hand = state.values["hand"][state.current_player]
    wanted = [state.game.deck.parse_card(word) for word in text.split()]
    state.values["stock"].extend(hand)
    hand[:] = wanted
    state._legal = None
    state.meld_search = None


def test_a_hand_with_no_meld_and_no_meld_on_the_table_says_so() -> None:
    state = _after_the_draw()
    _hold(state, "3S 7H JD KC 5D 9S")
    assert state.pending is not None
    reasons = why_none(state, state.pending)
    assert "meld: no meld of the ruleset's kinds can be made from hand" in reasons
    assert "add: no card of hand fits a meld on the table" in reasons


def test_each_refused_meld_is_named_with_its_clause() -> None:
    state = _after_the_draw()
    _hold(state, "3S 4S 5S")
    state.values["took_pozzetto"][state.values["team_of"][state.current_player]] = True
    assert state.pending is not None
    reasons = why_none(state, state.pending)  # BU-41: once the pozzetto is taken, one card must stay to discard
    assert "meld 3S 4S 5S: BU-41: you may not go out by melding all your cards; keep one to discard" in reasons
