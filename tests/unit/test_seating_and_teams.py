"""`seating` beside the other blocks that depend on where the seats sit: a team formed during the hand
(`form_team`) stays formed when the seats move, and a simultaneous round's effects follow the places."""

from __future__ import annotations

from pathlib import Path

from interpreter import CHANCE
from interpreter.runners.scenarios import run_file
from tests.play_helpers import game_from_text

TEAMS_THEN_SEATS = """
format: 1
name: A team formed, then the seats move
players: {min: 4, max: 4}
teams: {count: 2}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: won, owner: team, visibility: public}
variables:
  - {name: team_size, type: int, per: seat, initial: 0, lasts: match}
  - {name: team_cards, type: int, per: seat, initial: 0, lasts: match}
  - {name: tally, type: int, per: seat, initial: 0, lasts: match}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 1, from: stock, to: hand}
        - for_each: seats()
          do:
            - {move: 1, from: "hand[player]", to: "won[team_of(player)]"}
        - if: hand_number == 1
          then:
            - form_team: "[0, 1]"
            - seating: "[1, 0, 2, 3]"
            - for_each: seats()
              do:
                - set: team_size[player]
                  to: size(team_seats(team_of(player)))
                - set: team_cards[player]
                  to: size(won[team_of(player)])
      next: end
match:
  hands: 2
  result: tally[player]
"""


def test_a_team_formed_in_the_hand_survives_a_seating(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, TEAMS_THEN_SEATS)
    state = game.new_initial_state(seed=3)
    assert state.current_player == CHANCE
    won: list[int] = []
    state.hand_end_hook = lambda ended: won.extend(len(cards) for cards in ended.values["won"])
    state.apply_chance()
    # After the seating, p1 sits at place 0 and p0 at place 1: p0 now plays for team 1 (places 1 and 3), and the
    # team formed by p0 and p1 joins again, p0's team absorbing p1's, with the four cards the teams had won.
    assert state.values["team_size"] == [4, 4, 4, 4]
    assert state.values["team_cards"] == [4, 4, 4, 4]
    assert won == [0, 4]  # (as the first hand ended)
    # The second hand starts with the teams of the places: p1 and p2 (places 0 and 2) against p0 and p3.
    assert state.values["team_of"] == (1, 0, 0, 1)


def test_a_scenario_started_with_a_team_formed_keeps_it_through_a_seating(tmp_path: Path) -> None:
    game_from_text(tmp_path, TEAMS_THEN_SEATS.replace("        - if: hand_number == 1\n          then:\n"
                                                      "            - form_team: \"[0, 1]\"\n", "        - if: true\n"
                                                      "          then:\n").replace("hands: 2", "hands: 1"),
                   name="started.yaml")
    scenario = """
ruleset: started.yaml
cases:
  - name: a team formed before the hand's seating stays formed
    start:
      phase: deal
      teams: [[p0, p1]]
    steps:
      - expect: {teams: [[p0, p1, p2, p3]], variables: {team_size: {p0: 4, p1: 4, p2: 4, p3: 4}}}
"""
    (tmp_path / "cases.yaml").write_text(scenario, encoding="utf-8")
    results = run_file(tmp_path / "cases.yaml")
    assert [(result.passed, result.message) for result in results] == [(True, "")]


SIMULTANEOUS = """
format: 1
name: A simultaneous round after the seats move
players: {min: 4, max: 4}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H]}
zones:
  - {name: stock}
variables:
  - {name: order, type: "list[seat]", initial: "[]"}
hand:
  start: choose
  phases:
    - name: choose
      steps:
        - seating: "[0, 2, 1, 3]"
        - round: next_seat(dealer)
          simultaneous: true
          do:
            - decide: player
              options:
                - choose: go
                  do:
                    - set: order
                      to: order + [player]
      next: end
match:
  hands: 1
  result: 0
"""


def test_a_simultaneous_rounds_effects_follow_the_places(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, SIMULTANEOUS)
    state = game.new_initial_state(seed=1)
    deciding = []
    while state.values["order"] == []:
        deciding.append(state.current_player)
        state.apply(state.legal_actions()[0])
    # Clockwise p0, p2, p1, p3: the dealer p0's left is p2. The seats choose in that order and, once all have
    # chosen, their choices take effect in the same order round the table, not in seat-number order.
    assert deciding == [2, 1, 3, 0]
    assert state.values["order"] == [2, 1, 3, 0]
