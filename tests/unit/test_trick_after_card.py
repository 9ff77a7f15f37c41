"""Steps between the cards of a trick (`after_card:` of the `trick` step), decisions among them: a dummy spread
after the opening lead (Bridge, Law 41D), a card exchanged for the turned-up trump between two plays
(docs/ruleset-format.md, trick; a generic block)."""

from __future__ import annotations

from pathlib import Path

from interpreter import CHANCE
from tests.play_helpers import game_from_text

RULESET = """
format: 1
name: Exchange in the trick
players: {min: 3, max: 3}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: turnup, visibility: public}
  - {name: trick, visibility: public}
  - {name: played, visibility: public}
variables:
  - {name: tricks, type: int, per: seat, initial: 0}
  - {name: cards_seen, type: int, initial: 0}
  - {name: exchanged, type: bool, initial: false}
define:
  led: first(trick).suit
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 2, from: stock, to: hand}
        - {move: 1, from: stock, to: turnup, face: up}
      next: play
    - name: play
      steps:
        - trick: trick
          leader: next_seat(dealer)
          legal:
            - rule: size(trick) == 0 or card.suit == led or not any(c.suit == led for c in hand)
              reason: "follow suit"
          winning_card: trick_winner(trick, first(turnup).suit)
          after_card:
            - change: cards_seen
              by: 1
            - log: "p{player} played {card}, card {cards_seen} of the trick"
            # The dealer may take the turned-up card for one of its own once the first card is led.
            - if: size(trick) == 1 and not exchanged and size(hand[dealer]) > 0
              then:
                - decide: dealer
                  options:
                    - choose: keep
                    - choose: exchange
                      do:
                        - set: exchanged
                          to: true
                        - {move: all, from: turnup, to: "hand[dealer]"}
                        - decide: dealer
                          options:
                            - discard: hand
                              to: turnup
                              face: up
          then:
            - change: tricks[winner]
              by: 1
            - set: cards_seen
              to: 0
            - {move: all, from: trick, to: played}
      next: end
match:
  hands: 1
  result: tricks[player]
"""


def _texts(state, seat=None):  # type: ignore[no-untyped-def]
    return [state.action_text(action) for action in state.legal_actions()]


def test_steps_and_a_decision_run_between_the_cards_of_a_trick(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = game.new_initial_state(seed=3)
    assert state.current_player == CHANCE
    dealer = state.values["dealer"]
    order = ["2S", "3S", "4S", "5S", "6S", "7S", "AH"]  # two cards each from the dealer's left, then the turn-up
    rest = [game.deck.card_text(c) for c in game.deck.cards(3) if game.deck.card_text(c) not in order]
    state.apply_chance(order + rest)
    leader = (dealer + 1) % 3
    assert state.current_player == leader
    lead = _texts(state)[0]
    state.apply(lead)
    # The card is on the trick, the steps after it ran, and the dealer is asked before the next seat plays.
    assert state.values["cards_seen"] == 1 and len(state.values["trick"]) == 1
    assert state.current_player == dealer
    assert _texts(state) == [f"p{dealer} choose keep", f"p{dealer} choose exchange"]
    state.apply(f"p{dealer} choose exchange")
    assert state.current_player == dealer  # the discard of the exchange, still between the two cards
    held = [game.deck.card_text(c) for c in state.values["hand"][dealer]]
    assert "AH" in held and len(held) == 3
    state.apply(f"p{dealer} discard {held[0]}")
    assert [game.deck.card_text(c) for c in state.values["turnup"]] == [held[0]]
    assert state.current_player == (leader + 1) % 3  # then the trick goes on
    state.apply(_texts(state)[0])
    assert state.values["cards_seen"] == 2
    while not state.is_terminal:  # (no more exchange: the rest of the hand plays on)
        state.apply(_texts(state)[0])
    assert sum(state.returns()) == 2 and state.values["exchanged"] is True
    logs = [event["text"] for event in state.events if event.get("type") == "log"]
    assert f"p{leader} played {lead.split()[-1]}, card 1 of the trick" in logs
