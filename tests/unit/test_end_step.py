"""The `end` step: a hand that ends at once (`end: hand`), and a match that ends the moment a score is reached,
in the middle of a hand (`end: match`), generic blocks (docs/ruleset-format.md, end)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import CHANCE
from interpreter.errors import RulesetError
from tests.play_helpers import game_from_text

RULESET = """
format: 1
name: Race to five
players: {min: 2, max: 2}
deck: {ranks: [1, 2, 3, 4, 5, 6], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: pile, visibility: public}
variables:
  - {name: score, type: int, per: seat, initial: 0, lasts: match}
  - {name: after_the_end, type: bool, initial: false, lasts: match}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 3, from: stock, to: hand}
      next: play
    - name: play
      steps:
        - for_each: "[0, 1, 2]"
          as: turn
          do:
            - round: next_seat(dealer)
              do:
                - decide: player
                  options:
                    - play: hand
                      to: pile
                      legal:
                        - {rule: true, reason: "any card"}
                      do:
                        - change: score[player]
                          by: 1
                        - if: score[player] >= params.target
                          then:
                            - end: match
                            - set: after_the_end
                              to: true
                - if: size(hand[player]) == 1 and params.short
                  then:
                    - end: hand
      next: end
params:
  target: {type: int, default: 5, description: "the score that wins at once"}
  short: {type: bool, default: false, description: "a hand ends when the first seat to play holds one card"}
match:
  hands: 10
  result: score[player]
"""


def _play_first_cards(state) -> None:  # type: ignore[no-untyped-def]
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(state.legal_actions()[0])


def test_the_match_ends_the_moment_the_score_is_reached(tmp_path: Path) -> None:
    state = game_from_text(tmp_path, RULESET).new_initial_state(seed=1)
    _play_first_cards(state)
    # Three cards each in the first hand; the seat that plays first in the second hand reaches 5 with its second
    # card: the match ends there, mid-hand, before the other seat plays again.
    assert state.ended_by == "end"
    assert sorted(state.returns()) == [4, 5]
    assert state.values["hand_number"] == 2
    assert state.values["after_the_end"] is False  # the steps after `end` are never run
    assert [hand["hand"] for hand in state.hand_results] == [1, 2]  # the hand cut short is recorded


def test_a_hand_ends_at_once_and_the_next_one_is_dealt(tmp_path: Path) -> None:
    state = game_from_text(tmp_path, RULESET, params={"short": True, "target": 100}).new_initial_state(seed=1)
    _play_first_cards(state)
    assert state.ended_by == "hands"
    # Each hand ends when the first seat to play is down to one card, its second card played: the other seat
    # played one card in between, and never plays its other two.
    assert len(state.hand_results) == 10
    assert sum(state.returns()) == 10 * 3


def test_end_names_hand_or_match(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="end") as caught:
        game_from_text(tmp_path, RULESET.replace("- end: match", "- end: game"), name="bad.yaml")
    assert "bad.yaml:" in str(caught.value)
