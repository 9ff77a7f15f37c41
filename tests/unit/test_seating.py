"""`seating`: the seats take new places at the table during play (a generic block; drawing for partners and
places, RULES.md BU-06, is its first user). Seats keep their numbers; the order round the table, and with it
every step and builtin that goes round it and the partnerships, follows the places."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import CHANCE
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.errors import RulesetError
from interpreter.loader import Game
from tests.play_helpers import game_from_text

RULESET = """
format: 1
name: Seats that move
players: {min: 4, max: 4}
teams: {count: 2}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: trick, visibility: public}
  - {name: played, visibility: public}
variables:
  - {name: left, type: seat, per: seat, initial: 0}
  - {name: right, type: seat, per: seat, initial: 0}
  - {name: place, type: int, per: seat, initial: 0}
  - {name: mate, type: seat, per: seat, initial: 0}
  - {name: before_dealer, type: bool, per: seat, initial: false}
  - {name: turns_taken, type: int, initial: 0}
  - {name: tricks, type: int, per: team, initial: 0, lasts: match}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - if: hand_number == 1
          then:
            - decide: 0
              options:
                - choose: stay
                - choose: move
                  do:
                    - seating: "[0, 2, 1, 3]"
        - for_each: seats()
          do:
            - set: left[player]
              to: next_seat(player)
            - set: right[player]
              to: previous_seat(player)
            - set: place[player]
              to: seat_position(player, dealer)
            - set: mate[player]
              to: partner(player)
            - set: before_dealer[player]
              to: plays_before(player, dealer, next_seat(dealer))
        - round: dealer
          do:
            - log: "round p{player}"
        - turns: next_seat(dealer)
          until: turns_taken == 4
          do:
            - change: turns_taken
              by: 1
            - log: "turn p{player}"
        - shuffle: stock
        - {deal: 1, from: stock, to: hand}
      next: play
    - name: play
      steps:
        - trick: trick
          leader: next_seat(dealer)
          legal:
            - {rule: true, reason: "any card may be played"}
          winning_card: trick_winner(trick)
          then:
            - change: tricks[team_of(winner)]
              by: 1
            - {move: all, from: trick, to: played}
      next: end
match:
  hands: 2
  result: tricks[team_of(player)]
"""


def _logs(state) -> list[str]:  # type: ignore[no-untyped-def]
    return [event["text"] for event in state.events if event.get("type") == "log"]


def _stack(game: Game, first: list[str]) -> list[str]:
    return first + [game.deck.card_text(c) for c in game.deck.cards(4) if game.deck.card_text(c) not in first]


def test_the_seats_sit_in_number_order_until_a_seating_step(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = game.new_initial_state(seed=1)
    assert state.observation(0)["seating"] == [0, 1, 2, 3]
    state.apply("p0 choose stay")
    assert state.values["left"] == [1, 2, 3, 0] and state.values["right"] == [3, 0, 1, 2]
    assert state.values["team_of"] == (0, 1, 0, 1) and state.values["mate"] == [2, 3, 0, 1]
    assert _logs(state) == ["round p0", "round p1", "round p2", "round p3",
                            "turn p1", "turn p2", "turn p3", "turn p0"]


def test_everything_that_goes_round_the_table_follows_the_new_places(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = game.new_initial_state(seed=1)
    state.apply("p0 choose move")  # clockwise: p0, p2, p1, p3
    assert state.observation(1)["seating"] == [0, 2, 1, 3]
    # next_seat, previous_seat, seat_position (from the dealer, p0) and plays_before (from the dealer's left)
    assert state.values["left"] == [2, 3, 1, 0] and state.values["right"] == [3, 2, 0, 1]
    assert state.values["place"] == [0, 2, 1, 3]
    assert state.values["before_dealer"] == [False, True, True, True]
    # Partners sit opposite: places 0 and 2 (p0 and p1) against places 1 and 3 (p2 and p3).
    assert state.values["team_of"] == (0, 0, 1, 1) and state.values["mate"] == [1, 0, 3, 2]
    # `round` and `turns` go clockwise from their first seat where the seats now sit.
    assert _logs(state) == ["Seating, clockwise: p0, p2, p1, p3", "round p0", "round p2", "round p1", "round p3",
                            "turn p2", "turn p1", "turn p3", "turn p0"]
    # `deal` deals from the dealer's left (p2); the trick is led from there and goes on clockwise.
    assert state.current_player == CHANCE
    state.apply_chance(_stack(game, ["2S", "3S", "4S", "5S"]))
    held = {seat: [game.deck.card_text(c) for c in state.values["hand"][seat]] for seat in range(4)}
    assert held == {2: ["2S"], 1: ["3S"], 3: ["4S"], 0: ["5S"]}
    order = []
    while state.phase == "play" and state.current_player >= 0:
        order.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert order == [2, 1, 3, 0]
    # p0's 5S won: a trick for p0 and p1's team. The next dealer is the seat on p0's left, p2; the places and
    # the partnerships last the match.
    assert state.values["tricks"] == [1, 0]
    assert state.values["dealer"] == 2 and state.values["team_of"] == (0, 0, 1, 1)
    assert _logs(state)[-8:] == ["round p2", "round p1", "round p3", "round p0",
                                 "turn p1", "turn p3", "turn p0", "turn p2"]


def test_a_copy_keeps_its_own_places(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = game.new_initial_state(seed=1)
    copy = state.clone()
    copy.apply("p0 choose move")
    state.apply("p0 choose stay")
    assert copy.values["left"] == [2, 3, 1, 0] and copy.observation(0)["seating"] == [0, 2, 1, 3]
    assert state.values["left"] == [1, 2, 3, 0] and state.observation(0)["seating"] == [0, 1, 2, 3]
    again = copy.clone()
    assert again.values["team_of"] == (0, 0, 1, 1) and again.observation(2)["seating"] == [0, 2, 1, 3]


def test_a_seat_that_plays_alone_keeps_its_team(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET.replace("teams: {count: 2}\n", "").replace("to: partner(player)",
                                                                                       "to: player"))
    state = game.new_initial_state(seed=1)
    state.apply("p0 choose move")
    assert state.values["left"] == [2, 3, 1, 0]
    assert state.values["team_of"] == (0, 1, 2, 3)


def test_a_game_without_a_seating_step_shows_no_seating(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET.replace("                - choose: move\n                  do:\n"
                                                    "                    - seating: \"[0, 2, 1, 3]\"\n", ""))
    state = game.new_initial_state(seed=1)
    assert "seating" not in state.observation(0)


def test_a_seating_that_is_not_every_seat_once_is_a_located_error(tmp_path: Path) -> None:
    text = RULESET.replace('seating: "[0, 2, 1, 3]"', 'seating: "[0, next_seat(1), 2, 3]"')
    game = game_from_text(tmp_path, text)
    line = next(number for number, row in enumerate(text.splitlines(), 1) if "seating:" in row)
    state = game.new_initial_state(seed=1)
    with pytest.raises(RulesetRuntimeError, match=r"a seating lists every seat of the table once, clockwise; "
                                                  r"\[p0, p2, p2, p3\] has p2 more than once and p1 missing") as caught:
        state.apply("p0 choose move")
    assert caught.value.where == "hand.phases[0].steps[0].then[0].options[1].do[0].seating"
    location = caught.value.location
    assert location is not None and (location.line, location.column) == (line, 32)
    short = game_from_text(tmp_path, RULESET.replace('seating: "[0, 2, 1, 3]"', 'seating: "[0, 2, 1]"'))
    with pytest.raises(RulesetRuntimeError, match=r"\[p0, p2, p1\] has p3 missing"):
        short.new_initial_state(seed=1).apply("p0 choose move")


def test_validate_wants_a_list_of_seats(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="a seating lists every seat once; this one lists p2 more than once"):
        game_from_text(tmp_path, RULESET.replace('seating: "[0, 2, 1, 3]"', 'seating: "[0, 2, 2, 3]"'))
    with pytest.raises(RulesetError, match=r"the seats in their new places must be list\[seat\], not seat"):
        game_from_text(tmp_path, RULESET.replace('seating: "[0, 2, 1, 3]"', "seating: dealer"))
    with pytest.raises(RulesetError, match="unexpected key `to`"):
        game_from_text(tmp_path, RULESET.replace('seating: "[0, 2, 1, 3]"',
                                                 'seating: "[0, 2, 1, 3]"\n                      to: 1'))
