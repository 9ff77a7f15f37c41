"""Variables that hold a list (`type: list[card]`, `list[seat]`, ...): set whole by a `set` step, copied as they
are set (never a zone's own list, which changes as cards move), kept apart in copies of the state, shown and
given in observations as lists, and read back by scenarios (docs/ruleset-format.md, variables)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import CHANCE
from interpreter.errors import RulesetError
from interpreter.runners.scenarios import run_file
from tests.play_helpers import game_from_text

RULESET = """
format: 1
name: Remember the cards
players: {min: 2, max: 3}
deck: {ranks: [1, 2, 3, 4, 5, 6], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: pile, visibility: public}
variables:
  - {name: dealt, type: "list[card]", per: seat, initial: "[]", visibility: owner,
     description: "The cards the seat was dealt, in hand order."}
  - {name: order, type: "list[seat]", initial: "[]", description: "The seats in the order they played."}
  - {name: lows, type: "list[rank]", initial: "[]", lasts: match, description: "Each hand's lowest rank played."}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 2, from: stock, to: hand}
        - for_each: seats()
          as: player
          do:
            - set: dealt
              to: hand[player]
      next: play
    - name: play
      steps:
        - round: next_seat(dealer)
          do:
            - decide: player
              options:
                - play: hand
                  to: pile
                  legal:
                    - rule: card in dealt[player]
                      reason: "a card the seat was dealt"
                  do:
                    - set: order
                      to: order + [player]
        - set: lows
          to: lows + [min(c.rank for c in pile)]
      next: end
match:
  hands: 3
  result: size(dealt[player])
"""


def _first_play(state) -> None:  # type: ignore[no-untyped-def]
    while state.current_player == CHANCE:
        state.apply_chance()


def test_a_list_is_copied_when_it_is_set(tmp_path: Path) -> None:
    state = game_from_text(tmp_path, RULESET).new_initial_state(seed=4)
    _first_play(state)
    seat = state.current_player
    held = list(state.values["hand"][seat])
    assert state.values["dealt"][seat] == held
    state.apply(state.legal_actions()[0])
    # The hand lost a card; the list set from it did not.
    assert len(state.values["hand"][seat]) == 1
    assert state.values["dealt"][seat] == held
    assert state.values["order"] == [seat]


def test_copies_of_the_state_keep_their_own_lists(tmp_path: Path) -> None:
    state = game_from_text(tmp_path, RULESET).new_initial_state(seed=4)
    _first_play(state)
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert copy.values["order"] == [copy.values["order"][0]]
    assert state.values["order"] == []


def test_lists_grow_over_the_match_and_serve_as_values(tmp_path: Path) -> None:
    state = game_from_text(tmp_path, RULESET).new_initial_state(seed=2)
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(state.legal_actions()[-1])
    assert len(state.values["lows"]) == 3  # one per hand: a `lasts: match` list keeps growing
    assert all(low in range(6) for low in state.values["lows"])  # (ranks by their place in the deck's order)
    assert state.returns() == [2, 2]


def test_observation_and_view_show_the_items(tmp_path: Path) -> None:
    state = game_from_text(tmp_path, RULESET).new_initial_state(seed=4)
    _first_play(state)
    seat = state.current_player
    seen = state.observation(seat)["variables"]
    texts = [state.card_text(card) for card in state.values["hand"][seat]]
    assert seen["dealt"][seat] == texts  # cards as text, like a zone's
    other = 1 - seat
    assert seen["dealt"][other] is None  # `visibility: owner`: another seat's list is not shown
    assert seen["order"] == []


def test_a_table_list_cannot_be_set_by_index(tmp_path: Path) -> None:
    bad = RULESET.replace("- set: order\n                      to: order + [player]",
                          "- set: order[0]\n                      to: player")
    assert bad != RULESET
    with pytest.raises(RulesetError, match="is a list: a `set` step sets it whole") as caught:
        game_from_text(tmp_path, bad, name="remember.yaml")
    assert "remember.yaml:" in str(caught.value)


def test_a_list_of_the_wrong_items_is_refused(tmp_path: Path) -> None:
    bad = RULESET.replace("to: order + [player]", "to: order + [card]")
    with pytest.raises(RulesetError, match="order"):
        game_from_text(tmp_path, bad)


def test_scenarios_set_and_expect_list_variables(tmp_path: Path) -> None:
    game_from_text(tmp_path, RULESET, name="remember.yaml")
    scenario = tmp_path / "remember.scenarios.yaml"
    scenario.write_text("""
ruleset: remember.yaml
players: 2
cases:
  - name: a card not dealt to the seat cannot be played
    start:
      phase: play
      dealer: 1
      zones: {hand: {p0: [1S, 2S], p1: [3H, 4H]}}
      variables: {dealt: {p0: [1S], p1: "3H 4H"}, order: [p1]}
    steps:
      - refused: {action: p0 play 2S, reason: "a card the seat was dealt"}
      - p0 play 1S
      - expect:
          variables: {order: [p1, p0], dealt: {p0: [1S]}}
""", encoding="utf-8")
    results = run_file(scenario)
    assert [result.passed for result in results] == [True], [result.message for result in results]
