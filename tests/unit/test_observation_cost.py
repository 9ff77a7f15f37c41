"""`observation(seat)` holds the seat's legal actions when it is to act (one search per decision, shared with
`legal_actions()`); `observation(seat, legal=False)` leaves them out and searches nothing (README, From
Python)."""

from __future__ import annotations

from pathlib import Path

from interpreter import CHANCE, load_ruleset

TINY = Path(__file__).resolve().parents[1] / "games" / "tiny.yaml"


def _first_decision():  # type: ignore[no-untyped-def]
    state = load_ruleset(TINY).new_initial_state(seed=1)
    while state.current_player == CHANCE:
        state.apply_chance()
    return state


def test_the_view_of_the_seat_to_act_holds_its_legal_actions() -> None:
    state = _first_decision()
    seat = state.current_player
    view = state.observation(seat)
    assert view["legal_actions"] == [state.action_text(action) for action in state.legal_actions()]
    assert "legal_actions" not in state.observation((seat + 1) % state.player_count)


def test_a_view_without_the_legal_actions_searches_nothing() -> None:
    state = _first_decision()
    assert state._legal is None
    view = state.observation(state.current_player, legal=False)
    assert "legal_actions" not in view and state._legal is None
    assert view["zones"] == state.observation(state.current_player)["zones"]
