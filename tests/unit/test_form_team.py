"""`form_team`: seats that play as one team from an event until the end of the hand (a generic block; the
three-player rummy's partnership that forms during the hand is its first user)."""

from __future__ import annotations

from pathlib import Path

from interpreter import CHANCE
from tests.play_helpers import game_from_text

RULESET = """
format: 1
name: Teams formed in play
players: {min: 3, max: 3}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H, D, C]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: won, owner: team, visibility: public}
variables:
  - {name: points, type: int, per: seat, initial: 0, lasts: match}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 2, from: stock, to: hand}
        - for_each: seats()
          do:
            - {move: 1, from: "hand[player]", to: "won[team_of(player)]"}
        - form_team: "[2, 1]"
        - for_each: seats()
          do:
            - set: points[player]
              to: size(won[team_of(player)]) * 10 + size(team_seats(team_of(player)))
      next: end
match:
  hands: 2
  result: points[player]
"""


def test_seats_join_the_first_seats_team_with_its_zones(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = game.new_initial_state(seed=1, players=3)
    assert state.current_player == CHANCE
    state.apply_chance()  # the first hand runs to its end; the second waits for its shuffle
    # Seat 1 joined seat 2's team, with the card it had won: 2 cards and 2 seats for that team.
    assert state.values["points"] == [11, 22, 22]
    assert state.values["team_of"] == (0, 1, 2)  # the next hand starts with the ruleset's teams again
    state.apply_chance()
    assert state.is_terminal
    assert any(event.get("text") == "Team: p2 and p1" for event in state.events)
