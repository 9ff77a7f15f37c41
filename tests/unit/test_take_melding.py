"""A pile taken by melding its top card at once (`take` with `meld_top`): the ways offered, their action
texts, what the take lays and moves, and the refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import CHANCE
from interpreter.actions import Action
from interpreter.engine.decisions import why_none
from interpreter.engine.errors import IllegalActionError
from interpreter.engine.state import State
from interpreter.interop.catalogue import ActionCatalogue
from tests.play_helpers import game_from_text

RUMMY = """
format: 1
name: Rummy taking the pile by melding its top card
players: {min: 2, max: 2}
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K], suits: [S, H, D, C], packs: PACKS}
zones:
  - {name: stock}
  - {name: discard_pile, visibility: public}
  - {name: hand, owner: seat, visibility: owner}
  - {name: melds, owner: seat, visibility: public, kind: melds}
variables:
  - {name: score, type: int, per: seat, initial: 0, lasts: match}
  - {name: top_meld_size, type: int, initial: 0}
  - {name: new_melds, type: int, initial: 0}
melds:
  kinds:
    - {name: set, shape: set, min: 3, one_per_owner: true}
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
                - take: discard_pile
                  to: hand
                  meld_top: melds
                  at_once: 2
                  legal:
                    - rule: size(after.cards) == 3 or size(laid) == 0
                      reason: "a new meld with the top card has three cards"
                  do:
                    - set: top_meld_size
                      to: size(after.cards)
                    - set: new_melds
                      to: size(laid)
            - decide: player
              options:
                - discard: hand
                  to: discard_pile
      next: end
match:
  hands: 1
  result: score[player]
"""


def _rummy(tmp_path: Path, hand: str, pile: str, table: str = "", packs: int = 1) -> State:
    """The seat in turn holds `hand`, the pile holds `pile` (its top card last) and the seat's table the melds
    of `table` (melds joined by `/`); every other card is in the stock."""
    state = game_from_text(tmp_path, RUMMY.replace("PACKS", str(packs))).new_initial_state(seed=1, players=2)
    while state.current_player == CHANCE:
        state.apply_chance()
    seat, deck = state.current_player, state.game.deck
    stock = state.values["stock"]
    for other in state.values["hand"]:
        stock.extend(other)
        other.clear()
    for name, text in (("hand", hand), ("discard_pile", pile)):
        cards = [deck.parse_card(word) for word in text.split()]
        for card in cards:
            stock.remove(card)
        (state.values[name][seat] if name == "hand" else state.values[name])[:] = cards
    rules = state.game.meld_rules
    assert rules is not None
    for meld_text in filter(None, table.split("/")):
        cards = [deck.parse_card(word) for word in meld_text.split()]
        for card in cards:
            stock.remove(card)
        meld = rules.candidates(cards, seat, [], state.melds_laid)[0]
        state.values["melds"][seat].append(meld)
        state.melds_laid += 1
    state._legal = None
    state.meld_search = None
    return state


def _takes(state: State) -> list[str]:
    return [state.action_text(action) for action in state.legal_actions() if action.kind == "take"]


def test_the_top_card_is_melded_with_cards_of_the_hand_or_added_to_a_meld(tmp_path: Path) -> None:
    state = _rummy(tmp_path, "9H 9D 5C 6C 7C", "2S 9C", table="10C JC QC")
    seat = state.current_player
    assert _takes(state) == [f"p{seat} take discard_pile add 9C to m0", f"p{seat} take discard_pile meld 9H 9D 9C",
                             f"p{seat} take discard_pile meld 9H 9D 9C + 5C 6C 7C"]
    for action in state.legal_actions():
        assert state.parse_action(state.action_text(action)) == action


def test_a_meld_that_does_not_hold_the_top_card_is_not_a_take(tmp_path: Path) -> None:
    state = _rummy(tmp_path, "5C 6C 7C 2H", "KD")
    assert _takes(state) == []
    with pytest.raises(IllegalActionError, match="discard_pile is taken by melding its top card at once, and KD "
                                                  "makes no meld"):
        state.apply(f"p{state.current_player} take discard_pile")


def test_a_take_lays_the_top_card_first_then_the_rest_of_the_pile_joins_the_hand(tmp_path: Path) -> None:
    state = _rummy(tmp_path, "9H 9D 5C 6C 7C 4S", "2S KH 9C")
    seat = state.current_player
    state.apply(f"p{seat} take discard_pile meld 5C 6C 7C + 9D 9C 9H")  # typed in another order
    assert [state.card_text(card) for card in state.values["hand"][seat]] == ["4S", "2S", "KH"]
    assert state.values["discard_pile"] == []
    assert [(meld.id, meld.kind) for meld in state.values["melds"][seat]] == [(0, "set"), (1, "run")]
    assert (state.values["top_meld_size"], state.values["new_melds"]) == (3, 2)


def test_a_top_card_added_to_a_meld_binds_that_meld_as_it_will_be(tmp_path: Path) -> None:
    state = _rummy(tmp_path, "5D 4S", "2S 9C", table="10C JC QC")
    seat = state.current_player
    state.apply(f"p{seat} take discard_pile add 9C to m0")
    assert [state.card_text(card) for card in state.values["melds"][seat][0].cards] == ["9C", "10C", "JC", "QC"]
    assert (state.values["top_meld_size"], state.values["new_melds"]) == (4, 0)
    assert [state.card_text(card) for card in state.values["hand"][seat]] == ["5D", "4S", "2S"]


def test_a_copy_of_the_top_card_in_the_hand_is_the_same_card(tmp_path: Path) -> None:
    state = _rummy(tmp_path, "9C 9H 9D 4S", "9C", packs=2)
    seat = state.current_player
    # Every set of nines holding a 9C: the pile's 9C melded with 9H 9D leaves the hand's 9C, the same card.
    assert sorted(_takes(state)) == sorted(f"p{seat} take discard_pile meld {meld}" for meld in (
        "9H 9D 9C", "9D 9C 9C", "9H 9C 9C"))  # (four nines: the clause wants three)
    state.apply(f"p{seat} take discard_pile meld 9H 9D 9C")
    assert [state.card_text(card) for card in state.values["hand"][seat]] == ["9C", "4S"]


def test_refusals_name_the_clause_or_what_the_cards_do_not_make(tmp_path: Path) -> None:
    state = _rummy(tmp_path, "9H 9D 9S 4S", "2S 9C")
    seat = state.current_player
    with pytest.raises(IllegalActionError, match="a new meld with the top card has three cards"):
        state.apply(f"p{seat} take discard_pile meld 9H 9D 9S 9C")
    with pytest.raises(IllegalActionError, match=r"e\.g\. `p\d take discard_pile meld"):
        state.apply(f"p{seat} take discard_pile")
    with pytest.raises(IllegalActionError, match="not melds that the top card 9C and cards of hand make"):
        state.apply(f"p{seat} take discard_pile meld 9H 9D 4S")
    assert Action.parse(f"p{seat} take discard_pile add 9C to m2", state.game.deck).target == 2
    with pytest.raises(IllegalActionError, match="there is no meld m2 in melds"):
        state.apply(f"p{seat} take discard_pile add 9C to m2")


def test_why_no_take_is_allowed_says_the_top_card_makes_no_meld(tmp_path: Path) -> None:
    state = _rummy(tmp_path, "5C 6C 7C 2H", "KD")
    assert state.pending is not None
    assert "take discard_pile: its top card KD makes no meld" in why_none(state, state.pending)


def test_each_way_to_take_the_pile_has_its_own_action_id(tmp_path: Path) -> None:
    state = _rummy(tmp_path, "9H 9D 5C 6C 7C", "2S 9C", table="10C JC QC")
    catalogue = ActionCatalogue(state.game)
    legal = state.legal_actions()
    assert len(catalogue.legal_by_id(legal)) == len(legal) == 4  # (the three takes and the draw)
    assert all(catalogue.fixed_id(action) is None for action in legal if action.kind == "take")
