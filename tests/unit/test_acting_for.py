"""A seat deciding for another (`by:` on `decide` and `trick`): a declarer plays the dummy's cards, and the
card still belongs to the dummy's seat (docs/ruleset-format.md, decide and trick; a generic block)."""

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
name: Dummy whist
players: {min: 4, max: 4}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H, D, C]}
teams: {count: 2}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: trick, visibility: public}
  - {name: played, visibility: public}
variables:
  - {name: tricks, type: int, per: seat, initial: 0}
  - {name: discarded, type: card}
define:
  dummy: seats()[2]
  declarer: seats()[0]
  led: first(trick).suit
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 2, from: stock, to: hand}
        - decide: dummy
          by: declarer
          options:
            - discard: hand
              to: played
              do:
                - set: discarded
                  to: card
      next: play
    - name: play
      steps:
        - trick: trick
          leader: 1
          by: "if player == dummy then declarer else player"
          legal:
            - rule: size(trick) == 0 or card.suit == led or not any(c.suit == led for c in hand)
              reason: "follow suit"
          count: 1
          winning_card: trick_winner(trick, null)
          then:
            - change: tricks[winner]
              by: 1
            - {move: all, from: trick, to: played}
      next: end
match:
  hands: 1
  result: tricks[player]
"""


def _card(game: Game, text: str) -> int:
    return game.deck.parse_card(text)


def _dealt(game: Game, hands: list[list[str]]):  # type: ignore[no-untyped-def]
    """A state after a deal of these two cards each (seat 0 first)."""
    state = game.new_initial_state(seed=1)
    assert state.current_player == CHANCE
    # The deal gives one card to each seat in turn, from the dealer's left: stack the order accordingly.
    first = (state.values["dealer"] + 1) % 4
    order = [hands[(first + turn) % 4][index] for index in range(2) for turn in range(4)]
    rest = [card for card in (game.deck.card_text(c) for c in game.deck.cards(4)) if card not in order]
    state.apply_chance(order + rest)
    return state


def test_the_declarer_decides_for_the_dummy_with_the_dummys_cards(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = _dealt(game, [["2S", "3S"], ["4S", "5S"], ["AH", "KS"], ["7S", "8S"]])
    assert state.current_player == 0  # the declarer decides ...
    assert [state.action_text(a) for a in state.legal_actions()] == ["p0 discard AH", "p0 discard KS"]  # ... dummy's
    state.apply("p0 discard AH")
    assert [game.deck.card_text(c) for c in state.values["hand"][2]] == ["KS"]
    assert [game.deck.card_text(c) for c in state.values["hand"][0]] == ["2S", "3S"]


def test_in_a_trick_the_declarer_plays_the_dummys_card_and_the_dummy_wins_with_it(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = _dealt(game, [["2S", "3S"], ["4S", "5S"], ["AH", "KS"], ["7S", "8S"]])
    state.apply("p0 discard AH")
    assert state.current_player == 1
    state.apply("p1 play 4S")
    assert state.current_player == 0  # the dummy's turn, played by the declarer
    # The dummy's own cards, under the dummy's legality (it holds a spade, so it follows).
    assert [state.action_text(a) for a in state.legal_actions()] == ["p0 play KS"]
    state.apply("p0 play KS")
    assert state.current_player == 3
    state.apply("p3 play 7S")
    assert state.current_player == 0  # now the declarer's own turn
    state.apply("p0 play 2S")
    assert state.is_terminal
    assert state.values["tricks"] == [0, 0, 1, 0]  # the dummy's king won: the trick is the dummy's seat's
    assert state.returns() == [0, 0, 1, 0]


def test_a_seat_off_the_table_deciding_for_another_is_a_located_error(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET.replace("by: declarer\n", "by: 7\n"))
    state = game.new_initial_state(seed=1)
    with pytest.raises(RulesetRuntimeError, match="p7 is not at the table: no seat decides for p2") as caught:
        state.apply_chance()
    assert caught.value.location is not None and (caught.value.location.line, caught.value.location.column) == (27, 15)


def test_by_must_name_a_seat(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="the seat that plays for `player`") as caught:
        game_from_text(tmp_path, RULESET.replace('by: "if player == dummy then declarer else player"',
                                                 "by: \"'north'\""), name="dummy.yaml")
    assert "dummy.yaml:" in str(caught.value)
