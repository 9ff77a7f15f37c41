"""A card added to a meld: its steps see `meld`, the meld it is added to as it was, `after`, the meld it makes,
and `cards`, the card; whether the action is the legal set's own value or parsed from its text."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import CHANCE
from interpreter.engine.state import State
from tests.play_helpers import game_from_text, hold

RUMMY = """
format: 1
name: Rummy laying off
players: {min: 2, max: 2}
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K], suits: [S, H, D, C]}
zones:
  - {name: stock}
  - {name: discard_pile, visibility: public}
  - {name: hand, owner: seat, visibility: owner}
  - {name: melds, owner: seat, visibility: public, kind: melds}
variables:
  - {name: score, type: int, per: seat, initial: 0, lasts: match}
  - {name: before, type: int, initial: 0}
  - {name: grown, type: int, initial: 0}
  - {name: kind_added_to, type: str, initial: "''"}
  - {name: card_added, type: "list[card]", initial: "[]"}
melds:
  kinds:
    - {name: set, shape: set, min: 3}
    - {name: run, shape: run, min: 3}
hand:
  start: play
  phases:
    - name: play
      steps:
        - shuffle: stock
        - deal: 7
          from: stock
          to: hand
        - turns: next_seat(dealer)
          until: size(stock) == 0
          do:
            - decide: player
              options:
                - draw: stock
                  to: hand
            - decide: player
              repeat: true
              options:
                - meld: hand
                  to: melds
                - add: hand
                  to: melds
                  do:
                    - set: before
                      to: size(meld.cards)
                    - set: grown
                      to: size(after.cards)
                    - set: kind_added_to
                      to: meld.kind
                    - set: card_added
                      to: cards
                - discard: hand
                  to: discard_pile
                  ends: true
      next: end
match:
  hands: 1
  result: score[player]
"""


def _with_a_run_laid(tmp_path: Path) -> State:
    """The seat in turn has laid 5C 6C 7C and holds 8C, 4C and 9H."""
    state = game_from_text(tmp_path, RUMMY).new_initial_state(seed=1, players=2)
    while state.current_player == CHANCE:
        state.apply_chance()
    state.apply(next(action for action in state.legal_actions() if action.kind == "draw"))
    hold(state, "5C 6C 7C 8C 4C 9H")
    state.apply(state.parse_action(f"p{state.current_player} meld 5C 6C 7C"))
    return state


@pytest.mark.parametrize("parsed", [False, True], ids=["the legal set's action", "parsed from its text"])
def test_the_steps_of_an_addition_see_the_meld_added_to_and_the_meld_it_makes(tmp_path: Path,
                                                                               parsed: bool) -> None:
    state = _with_a_run_laid(tmp_path)
    seat = state.current_player
    adds = [action for action in state.legal_actions() if action.kind == "add"]
    assert sorted(state.action_text(action) for action in adds) == [f"p{seat} add 4C to m0", f"p{seat} add 8C to m0"]
    chosen = next(action for action in adds if state.action_text(action).endswith("8C to m0"))
    state.apply(state.parse_action(state.action_text(chosen)) if parsed else chosen)
    assert state.values["before"] == 3 and state.values["grown"] == 4
    assert state.values["kind_added_to"] == "run"
    assert state.values["card_added"] == [state.game.deck.parse_card("8C")]
    assert [state.card_text(card) for card in state.values["melds"][seat][0].cards] == ["5C", "6C", "7C", "8C"]


MELD_STEPS = """                - meld: hand
                  to: melds
                  do:
                    - set: grown
                      to: size(after.cards)
                    - set: kind_added_to
                      to: after.kind
"""


@pytest.mark.parametrize("parsed", [False, True], ids=["the legal set's action", "parsed from its text"])
def test_the_steps_of_a_new_meld_see_the_meld_it_makes(tmp_path: Path, parsed: bool) -> None:
    # (the meld an action makes is looked up when it is taken, in what the option offered: by the action itself,
    # or by an equal one parsed from its text)
    text = RUMMY.replace("                - meld: hand\n                  to: melds\n", MELD_STEPS)
    state = game_from_text(tmp_path, text).new_initial_state(seed=1, players=2)
    while state.current_player == CHANCE:
        state.apply_chance()
    state.apply(next(action for action in state.legal_actions() if action.kind == "draw"))
    hold(state, "5C 6C 7C 8C 9H 9S 9D")
    seat = state.current_player
    for cards, kind in (("5C 6C 7C 8C", "run"), ("9H 9S 9D", "set")):
        copy = state.clone()
        melds = {frozenset(copy.action_text(action).split()[2:]): action for action in copy.legal_actions()
                 if action.kind == "meld"}
        action = melds[frozenset(cards.split())]
        copy.apply(copy.parse_action(copy.action_text(action)) if parsed else action)
        assert copy.values["grown"] == len(cards.split()) and copy.values["kind_added_to"] == kind
        laid = copy.values["melds"][seat][0]
        assert (laid.kind, sorted(copy.card_text(card) for card in laid.cards)) == (kind, sorted(cards.split()))
