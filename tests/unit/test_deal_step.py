"""The `deal` step (docs/ruleset-format.md, deal): which cards each receiver gets and in what order, one at a time
or in packets, a fixed number or all of them (the first receivers getting the extra ones), with cards dealt face
up by a `face_up` test, and from a source whose cards are face up. The deck is stacked, so that every card's
place is known: the first card of the stacked order is dealt first."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import CHANCE
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.state import State
from tests.play_helpers import game_from_text

RULESET = """
format: 1
name: Dealing
players: {min: 3, max: 3}
deck: {ranks: [1, 2, 3, 4, 5, 6, 7], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - TURN
        - DEAL
      next: play
    - name: play
      steps:
        - decide: dealer
          options:
            - choose: done
      next: end
match:
  hands: 1
  result: "0"
"""


def _dealt(tmp_path: Path, deal: str, turn: str = "log: dealing") -> tuple[State, list[int]]:
    """The state after the deal, and the stacked order (card ids, the first dealt first)."""
    state = game_from_text(tmp_path, RULESET.replace("DEAL", deal).replace("TURN", turn)).new_initial_state(seed=1)
    assert state.current_player == CHANCE
    event = state.chance_event()
    assert event is not None
    order = sorted(event["contents"], key=lambda text: (text[-1], text[:-1]))  # 1S..7S, then 1H..7H
    state.apply_chance(order)
    stock = state.values["stock"]
    dealt_order = [state.game.deck.parse_card(text) for text in order]
    assert state.current_player != CHANCE
    assert stock == list(reversed(dealt_order[len(dealt_order) - len(stock):]))  # what is left, its top last
    return state, dealt_order


# The dealer is seat 0: the deal starts on its left, seat 1, then seat 2, then the dealer.
@pytest.mark.parametrize(("deal", "expected"), [
    # one at a time, round after round
    ("{deal: 2, from: stock, to: hand}", {1: [0, 3], 2: [1, 4], 0: [2, 5]}),
    # in packets: each receiver's cards at once
    ("{deal: 2, from: stock, to: hand, one_at_a_time: false}", {1: [0, 1], 2: [2, 3], 0: [4, 5]}),
    # all of the 14 cards: 4 each, the first two receivers one more
    ("{deal: all, from: stock, to: hand}",
     {1: [0, 3, 6, 9, 12], 2: [1, 4, 7, 10, 13], 0: [2, 5, 8, 11]}),
    ("{deal: all, from: stock, to: hand, one_at_a_time: false}",
     {1: [0, 1, 2, 3, 4], 2: [5, 6, 7, 8, 9], 0: [10, 11, 12, 13]}),
    # the receivers named: the dealer first, then seat 2 (seat 1 gets nothing)
    ("{deal: 3, from: stock, to: hand, seats: '[dealer, 2]'}", {0: [0, 2, 4], 2: [1, 3, 5], 1: []}),
])
def test_each_receiver_gets_its_cards_in_the_order_dealt(tmp_path: Path, deal: str,
                                                          expected: dict[int, list[int]]) -> None:
    state, order = _dealt(tmp_path, deal)
    for seat, places in expected.items():
        assert state.values["hand"][seat] == [order[place] for place in places], seat
    assert not state.face_up.cards  # every card dealt face down


@pytest.mark.parametrize("packets", [False, True])
def test_face_up_turns_the_cards_it_names_face_up(tmp_path: Path, packets: bool) -> None:
    deal = ("{deal: 3, from: stock, to: hand, face_up: 'round == 2 or receiver == dealer'"
            + (", one_at_a_time: false}" if packets else "}"))
    state, order = _dealt(tmp_path, deal)
    # (one at a time: round r's card for the j-th receiver is the (3(r-1)+j)-th dealt; in packets the j-th
    # receiver's cards are the 3j-th to the (3j+2)-th, its round-r card the (3j+r-1)-th)
    place = (lambda j, r: 3 * j + r - 1) if packets else (lambda j, r: 3 * (r - 1) + j)
    for j, seat in enumerate([1, 2, 0]):
        hand = state.values["hand"][seat]
        assert hand == [order[place(j, r)] for r in (1, 2, 3)]
        shown = [order[place(j, r)] for r in (1, 2, 3) if r == 2 or seat == 0]
        assert state.face_up.of(("hand", seat)) == shown


@pytest.mark.parametrize("packets", [False, True])
def test_face_up_finds_the_extra_cards_of_a_deal_of_all(tmp_path: Path, packets: bool) -> None:
    # 14 cards to 3 receivers: 4 rounds, and a fifth round for the first two receivers (seats 1 and 2).
    deal = ("{deal: all, from: stock, to: hand, face_up: 'round == 5 or (receiver == dealer and round == 4)'"
            + (", one_at_a_time: false}" if packets else "}"))
    state, order = _dealt(tmp_path, deal)
    # (one at a time: round r's card for the j-th receiver is the (3(r-1)+j)-th dealt, round 5's the (12+j)-th;
    # in packets the first two receivers' runs are of 5 cards, the dealer's of 4 from the 10th)
    start = {0: 0, 1: 5, 2: 10}
    place = (lambda j, r: start[j] + r - 1) if packets else (lambda j, r: 3 * (r - 1) + j)
    for j, seat in enumerate([1, 2, 0]):
        rounds = (1, 2, 3, 4, 5) if j < 2 else (1, 2, 3, 4)
        assert state.values["hand"][seat] == [order[place(j, r)] for r in rounds]
        shown = [order[place(j, r)] for r in rounds if r == 5 or (seat == 0 and r == 4)]
        assert state.face_up.of(("hand", seat)) == shown


@pytest.mark.parametrize("packets", [False, True])
def test_cards_dealt_from_a_face_up_source_are_dealt_face_down(tmp_path: Path, packets: bool) -> None:
    deal = "{deal: 2, from: stock, to: hand" + (", one_at_a_time: false}" if packets else "}")
    state, order = _dealt(tmp_path, deal, turn="{turn: stock, face: up}")
    for seat in range(3):
        assert len(state.values["hand"][seat]) == 2
        assert state.face_up.of(("hand", seat)) == []
    # The cards left in the stock are still face up; those dealt left it.
    assert sorted(state.face_up.of(("stock", -1))) == sorted(state.values["stock"])
    assert len(state.values["stock"]) == 8
    assert state.values["hand"][1] == ([order[0], order[1]] if packets else [order[0], order[3]])


# A test that starts by naming its receiver (`receiver == X`, after tests that read neither the receiver nor the
# round) is worked out for that receiver's cards only: the same cards face up, in the order dealt.
@pytest.mark.parametrize("packets", [False, True])
@pytest.mark.parametrize(("face_up", "seat"), [
    ("receiver == 1 and round >= 4", 1),
    ("2 == receiver and round >= 4", 2),
    ("receiver == dealer and round >= 4", 0),  # (the dealer, last, gets no fifth card)
    ("dealer == 0 and receiver == next_seat(dealer) and round >= 4", 1),
])
def test_face_up_naming_its_receiver_first(tmp_path: Path, packets: bool, face_up: str, seat: int) -> None:
    # 14 cards to seats 1, 2 and 0 (the dealer): 4 rounds, and a fifth for seats 1 and 2.
    deal = f"{{deal: all, from: stock, to: hand, face_up: '{face_up}'" + (", one_at_a_time: false}" if packets else "}")
    state, order = _dealt(tmp_path, deal)
    start = {0: 0, 1: 5, 2: 10}
    place = (lambda j, r: start[j] + r - 1) if packets else (lambda j, r: 3 * (r - 1) + j)
    j = [1, 2, 0].index(seat)
    rounds = (4, 5) if j < 2 else (4,)
    for other in range(3):
        shown = [order[place(j, r)] for r in rounds] if other == seat else []
        assert state.face_up.of(("hand", other)) == shown, other


@pytest.mark.parametrize("packets", [False, True])
def test_face_up_naming_a_receiver_who_gets_no_card(tmp_path: Path, packets: bool) -> None:
    deal = ("{deal: 2, from: stock, to: hand, seats: '[dealer, 2]', face_up: 'receiver == 1'"
            + (", one_at_a_time: false}" if packets else "}"))
    state, _order = _dealt(tmp_path, deal)
    assert not any(state.face_up.of(("hand", seat)) for seat in range(3))
    assert [len(state.values["hand"][seat]) for seat in range(3)] == [2, 0, 2]


def test_face_up_receiver_that_fails_is_reported_at_the_test(tmp_path: Path) -> None:
    deal = "{deal: 2, from: stock, to: hand, face_up: 'receiver == seats()[player_count() + 1]'}"
    game = game_from_text(tmp_path, RULESET.replace("DEAL", deal).replace("TURN", "log: dealing"))
    state = game.new_initial_state(seed=1)
    with pytest.raises(RulesetRuntimeError) as raised:
        state.apply_chance()
    assert "face_up" in str(raised.value)


def test_face_up_receiver_is_not_worked_out_when_no_card_is_dealt(tmp_path: Path) -> None:
    deal = "{deal: 2, from: stock, to: hand, seats: '[]', face_up: 'receiver == seats()[player_count() + 1]'}"
    game = game_from_text(tmp_path, RULESET.replace("DEAL", deal).replace("TURN", "log: dealing"))
    state = game.new_initial_state(seed=1)
    state.apply_chance()
    assert state.current_player == 0 and state.values["hand"] == [[], [], []]


def test_a_deal_the_zone_cannot_fill_says_what_it_needed_and_held(tmp_path: Path) -> None:
    # (half the stock to each of three seats: worked out as the game runs, so no check before it)
    deal = "{deal: 'size(stock) // 2', from: stock, to: hand}"
    game = game_from_text(tmp_path, RULESET.replace("DEAL", deal).replace("TURN", "log: dealing"))
    state = game.new_initial_state(seed=1)
    with pytest.raises(RulesetRuntimeError) as raised:
        state.apply_chance()
    assert str(raised.value).startswith(
        "stock ran out while dealing: 7 cards to each of 3 seats needs 21, and it holds 14")
