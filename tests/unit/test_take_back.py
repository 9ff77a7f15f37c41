"""`take_back`: a step of a trick's `after_card` that takes the card just played back to the zone it came from,
and the same seat plays again (a generic block; Bourré's renege corrected in time, RULES.md BR-40, is its first
user)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import RulesetError
from interpreter.loader import Game
from tests.play_helpers import game_from_text

RULESET = """
format: 1
name: Cards taken back
players: {min: 3, max: 3}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: trick, visibility: public}
  - {name: played, visibility: public}
variables:
  - {name: broke, type: bool, per: seat, initial: false}
  - {name: taken_back, type: int, per: seat, initial: 0}
  - {name: replaying, type: bool, initial: false}
  - {name: tricks, type: int, per: seat, initial: 0}
define:
  led: first(trick).suit
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 2, from: stock, to: hand}
      next: play
    - name: play
      steps:
        - trick: trick
          leader: next_seat(dealer)
          legal:
            - rule: size(trick) == 0 or card.suit == led or not any(c.suit == led for c in hand)
              reason: "follow suit"
              breakable: not replaying
              record: broke
          winning_card: trick_winner(trick)
          after_card:
            - set: replaying
              to: false
            - if: broke[player]
              then:
                - set: broke[player]
                  to: false
                - decide: player
                  options:
                    - choose: stand
                    - choose: correct
                      do:
                        - change: taken_back[player]
                          by: 1
                        - set: replaying
                          to: true
                        - take_back: card
                        - log: "never written: the steps after take_back do not run"
          then:
            - change: tricks[winner]
              by: 1
            - {move: all, from: trick, to: played}
      next: end
match:
  hands: 1
  result: tricks[player]
"""

# Dealt one at a time from the dealer's (p0's) left: p1 2S 3H, p2 4S 5H, p0 9H 8S.
DEAL = ["2S", "4S", "9H", "3H", "5H", "8S"]


def _dealt(game: Game):  # type: ignore[no-untyped-def]
    state = game.new_initial_state(seed=1)
    rest = [game.deck.card_text(c) for c in game.deck.cards(3) if game.deck.card_text(c) not in DEAL]
    state.apply_chance(DEAL + rest)
    return state


def _texts(state) -> list[str]:  # type: ignore[no-untyped-def]
    return [state.action_text(action) for action in state.legal_actions()]


def _cards(game: Game, cards: list[int]) -> list[str]:
    return [game.deck.card_text(card) for card in cards]


def test_a_card_taken_back_returns_to_the_hand_and_the_same_seat_plays_again(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = _dealt(game)
    state.apply("p1 play 2S")
    assert state.broken("p2 play 5H") == ["follow suit"]  # offered, marked as breaking the rule
    state.apply("p2 play 5H")
    assert _texts(state) == ["p2 choose stand", "p2 choose correct"]
    state.apply("p2 choose correct")
    # 5H is back in p2's hand, face up (every seat saw it); the trick holds the lead alone; p2 plays again,
    # and this time the rule may not be broken.
    assert _cards(game, state.values["trick"]) == ["2S"]
    assert sorted(_cards(game, state.values["hand"][2])) == ["4S", "5H"]
    assert state.observation(0)["zones"]["hand"][2]["face_up"] == ["5H"]
    assert state.current_player == 2 and _texts(state) == ["p2 play 4S"]
    assert state.values["taken_back"] == [0, 0, 1]
    state.apply("p2 play 4S")
    assert state.current_player == 0  # the trick goes on
    logs = [event["text"] for event in state.events if event.get("type") == "log"]
    assert "p2 takes back 5H" in logs and not any("never written" in text for text in logs)


def test_the_last_card_of_a_trick_is_taken_back_before_the_trick_is_won(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = _dealt(game)
    state.apply("p1 play 2S")
    state.apply("p2 play 4S")
    state.apply("p0 play 9H")  # the last card, against the rule: p0 holds 8S
    state.apply("p0 choose correct")
    assert state.current_player == 0 and _texts(state) == ["p0 play 8S"]
    state.apply("p0 play 8S")
    assert state.values["tricks"] == [1, 0, 0]  # the trick is won with the card played instead
    assert _cards(game, state.values["played"]) == ["2S", "4S", "8S"]


def test_a_card_that_stands_stays_and_a_copy_keeps_its_own_trick(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = _dealt(game)
    state.apply("p1 play 2S")
    state.apply("p2 play 5H")
    copy = state.clone()
    copy.apply("p2 choose correct")
    state.apply("p2 choose stand")
    assert _cards(game, state.values["trick"]) == ["2S", "5H"] and state.current_player == 0
    assert _cards(game, copy.values["trick"]) == ["2S"] and copy.current_player == 2
    assert state.values["taken_back"] == [0, 0, 0] and copy.values["taken_back"] == [0, 0, 1]


def test_take_back_is_a_step_of_after_card_only(tmp_path: Path) -> None:
    moved = RULESET.replace("            - {move: all, from: trick, to: played}\n",
                            "            - {move: all, from: trick, to: played}\n            - take_back: card\n")
    with pytest.raises(RulesetError, match="`take_back` takes back the card just played to a trick: it is a step "
                                           "of a trick's `after_card`") as caught:
        game_from_text(tmp_path, moved)
    assert "(at hand.phases[1].steps[0].then[2].take_back)" in str(caught.value)
    with pytest.raises(RulesetError, match=r"must be .card. \(at .*take_back\)"):
        game_from_text(tmp_path, RULESET.replace("take_back: card", "take_back: trick"))
