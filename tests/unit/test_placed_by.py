"""`placed_by(card)`: the seat that put a card where it lies by playing or discarding it this hand, wherever
steps have moved it since (a trick gathered), the seat whose card it was when another seat chose it
(docs/language.md; a generic block). Bridge finds a trick's winner with it."""

from __future__ import annotations

from pathlib import Path

from interpreter import CHANCE
from tests.play_helpers import game_from_text

RULESET = """
format: 1
name: Who played it
players: {min: 3, max: 3}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H, D, C]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: trick, visibility: public}
  - {name: gathered, visibility: public}
  - {name: discards, visibility: public}
variables:
  - {name: winner_seen, type: seat}
  - {name: first_placer, type: seat, initial: null, lasts: match}
  - {name: points, type: int, per: seat, initial: 0, lasts: match}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 3, from: stock, to: hand}
        - if: hand_number == 2
          then:
            - set: first_placer
              to: placed_by(first(stock))
      next: play
    - name: play
      steps:
        - round: next_seat(dealer)
          do:
            - decide: player
              by: if player == seats()[2] then seats()[0] else player
              options:
                - play: hand
                  to: trick
        - set: winner_seen
          to: known(placed_by(highest(c in trick by c.rank)))
        - change: points[winner_seen]
          by: 1
        - move: all
          from: trick
          to: gathered
        - round: next_seat(dealer)
          do:
            - decide: player
              options:
                - discard: hand
                  to: discards
      next: end
match:
  hands: 2
  result: points[player]
"""


def test_a_card_is_placed_by_the_seat_whose_card_it_was_wherever_it_went(tmp_path: Path) -> None:
    state = game_from_text(tmp_path, RULESET).new_initial_state(seed=2)
    while state.current_player == CHANCE:
        state.apply_chance()
    held = {seat: list(state.values["hand"][seat]) for seat in range(3)}
    order = []
    for _ in range(3):
        deciding = state.current_player
        action = state.legal_actions()[0]
        owner = next(seat for seat, cards in held.items() if action.card in cards)
        order.append((deciding, owner, action.card))
        state.apply(action)
    assert [deciding for deciding, _, _ in order] == [1, 0, 0]  # p0 chooses p2's card
    assert [owner for _, owner, _ in order] == [1, 2, 0]
    deck = state.game.deck
    best = max((card for _, _, card in order), key=lambda card: deck.rank_of[card])
    assert state.values["winner_seen"] == next(owner for _, owner, card in order if card == best)
    for _, owner, card in order:  # gathered: each card still the seat's that played it
        assert card in state.values["gathered"]
        assert state.values["_placed"][card] == owner
    discarder = state.current_player
    card = state.legal_actions()[0].card
    state.apply(state.legal_actions()[0])
    assert state.values["_placed"][card] == discarder


def test_a_new_hand_forgets_who_placed_the_cards_and_copies_keep_their_own(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = game.new_initial_state(seed=5)
    while state.current_player == CHANCE:
        state.apply_chance()
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    played = copy.values["trick"][-1]
    assert copy.values["_placed"][played] is not None
    assert state.values["_placed"][played] is None  # the original is as it was
    placed_in_hand_one = 0
    while state.values["hand_number"] == 1:
        placed_in_hand_one = sum(1 for seat in state.values["_placed"] if seat is not None)
        state.apply(state.legal_actions()[0])
    assert placed_in_hand_one == 5  # before the last discard: three cards played and two discarded
    while state.current_player == CHANCE:
        state.apply_chance()
    assert all(seat is None for seat in state.values["_placed"])  # hand 2 starts with no card placed
    assert state.values["first_placer"] is None
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert sum(state.returns()) == 2  # one trick a hand, each scored for the seat found


def test_a_ruleset_that_never_asks_follows_nothing(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET.replace("known(placed_by(highest(c in trick by c.rank)))", "dealer")
                          .replace("placed_by(first(stock))", "dealer"))
    assert not game.tracks_placement
    state = game.new_initial_state(seed=5)
    assert "_placed" not in state.values


def test_a_state_copies_before_the_first_dealer_is_drawn(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET.replace("match:\n  hands: 2", "match:\n  first_dealer: random\n  hands: 2"))
    state = game.new_initial_state(seed=1)
    assert state.chance_event() is not None and state.chance_event()["type"] == "pick"  # type: ignore[index]
    copy = state.clone()  # (before any hand: no card placed, and every card in the deck's zone)
    copy.apply_chance("p1")
    assert copy.values["dealer"] == 1 and state.values["dealer"] == 0
    assert len(state.values["stock"]) == 52
