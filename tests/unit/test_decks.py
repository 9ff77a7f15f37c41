"""Decks beyond ranks x suits: a pack given as a list of cards, cards added or set aside by the number of
players (`deck.by_players`), and `deal: all`, which shares out every card, the first receivers one more
(docs/ruleset-format.md, deck and deal)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from interpreter import CHANCE
from interpreter.errors import RulesetError
from tests.play_helpers import game_from_text

RULESET = """
format: 1
name: Decks
players: {min: 2, max: 6, default: 4}
deck:
  ranks: [9, 10, J, Q, K, A]
  suits: [S, H, D, C]
  cards: [9S, 10S, JS, QS, KS, AS, 9H, 10H, JH, QH, KH, AH, AD, AC, JK]
  by_players:
    - players: {min: 5}
      add_packs: 1
    - players: 3
      remove: [9S, 9H]
    - players: 6
      add: [KD, KC]
      add_jokers: 1
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - deal: DEAL
          from: stock
          to: hand
          one_at_a_time: ONE
      next: end
match:
  hands: 1
  result: size(hand[player])
"""

PACK = ["9S", "10S", "JS", "QS", "KS", "AS", "9H", "10H", "JH", "QH", "KH", "AH", "AD", "AC", "JK"]


def _game(tmp_path: Path, deal: str = "all", one_at_a_time: str = "true", **replaced: str):  # type: ignore[no-untyped-def]
    text = RULESET.replace("DEAL", deal).replace("ONE", one_at_a_time)
    for old, new in replaced.items():
        text = text.replace(old, new)
    return game_from_text(tmp_path, text)


def _dealt(game, players: int, order: list[str] | None = None):  # type: ignore[no-untyped-def]
    state = game.new_initial_state(seed=3, players=players)
    assert state.current_player == CHANCE
    state.apply_chance(order) if order else state.apply_chance()
    return state


def test_a_pack_listed_card_by_card_is_the_deck(tmp_path: Path) -> None:
    game = _game(tmp_path)
    deck = game.deck
    assert [deck.card_text(card) for card in deck.cards(4)] == PACK
    # Only the listed cards (and those `by_players` adds) are cards of the deck: the others are unknown.
    assert "9D" not in deck.card_ids and "KD" in deck.card_ids
    assert [deck.card_text(card) for card in deck.distinct_cards()][-3:] == ["AD", "AC", "JK"]


def test_cards_added_and_set_aside_by_player_count(tmp_path: Path) -> None:
    deck = _game(tmp_path).deck
    sizes = {players: deck.size_for(players) for players in range(2, 7)}
    assert sizes == {2: 15, 3: 13, 4: 15, 5: 30, 6: 33}
    three = Counter(deck.card_text(card) for card in deck.cards(3))
    assert "9S" not in three and "9H" not in three
    six = Counter(deck.card_text(card) for card in deck.cards(6))
    assert six["JK"] == 3 and six["KD"] == 1 and six["AS"] == 2
    # Every hand starts with the deck for the table's number of players in the deck's zone.
    state = _game(tmp_path, deal="0").new_initial_state(seed=1, players=5)
    assert len(state.values["stock"]) == 30


def test_copies_by_player_count_make_the_game_count_cards(tmp_path: Path) -> None:
    game = _game(tmp_path)
    assert not game.unique_cards  # with five or six players two cards are the same value


def test_deal_all_one_at_a_time_gives_the_remainder_from_the_dealers_left(tmp_path: Path) -> None:
    game = _game(tmp_path)
    state = _dealt(game, 4)  # 15 cards among four: p1, p2 and p3 (from the dealer's left) get four, p0 three
    assert [len(hand) for hand in state.values["hand"]] == [3, 4, 4, 4]
    assert state.values["stock"] == []
    state = _dealt(game, 4, PACK)
    hands = [[state.game.deck.card_text(card) for card in hand] for hand in state.values["hand"]]
    assert hands[1] == ["9S", "KS", "JH", "AD"] and hands[3] == ["JS", "9H", "KH", "JK"]
    assert hands[0] == ["QS", "10H", "AH"]


def test_deal_all_in_packets(tmp_path: Path) -> None:
    game = _game(tmp_path, one_at_a_time="false")
    state = _dealt(game, 4, PACK)
    hands = [[state.game.deck.card_text(card) for card in hand] for hand in state.values["hand"]]
    assert hands[1] == ["9S", "10S", "JS", "QS"] and hands[0] == ["AD", "AC", "JK"]


def test_deal_all_of_an_even_deck_deals_evenly(tmp_path: Path) -> None:
    state = _dealt(_game(tmp_path), 5)  # 30 cards, six each
    assert [len(hand) for hand in state.values["hand"]] == [6] * 5


def _findings(tmp_path: Path, **replaced: str) -> list[str]:
    with pytest.raises(RulesetError) as raised:
        _game(tmp_path, deal="1", **replaced)
    return [f"{d.code} {d.message} (at {d.yaml_path})" for d in raised.value.diagnostics]


def test_a_listed_card_outside_the_ranks_and_suits_is_refused(tmp_path: Path) -> None:
    assert _findings(tmp_path, **{"AD, AC, JK": "AD, 2C, JK"}) == [
        "unknown-card `2C` is not a card of the deck's ranks and suits (at deck.cards[13])"]


def test_a_card_set_aside_that_the_deck_does_not_hold_is_refused(tmp_path: Path) -> None:
    assert _findings(tmp_path, **{"remove: [9S, 9H]": "remove: [9S, QD]"}) == [
        "invalid-value with 3 players the deck holds no QD to set aside (at deck.by_players[1].remove[1])"]


def test_a_change_for_no_allowed_number_of_players_is_refused(tmp_path: Path) -> None:
    assert _findings(tmp_path, **{"players: 6\n": "players: 7\n"}) == [
        "invalid-value no number of players the game allows is 7 (at deck.by_players[2].players)"]


def test_deck_arithmetic_counts_the_deck_of_each_player_count(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as raised:
        _game(tmp_path, deal="4")
    assert [d.message for d in raised.value.diagnostics] == [
        "with 4 players this needs 16 cards from `stock`, but the deck has 15"]
