"""`sorted: true` on a zone `show.zones` shows: a hand spread face up on the table (Bridge's dummy, Law 41D) is
shown as a hand is, in the game's order and by suit, whatever the order its cards lie in."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.errors import RulesetError
from interpreter.loader import Game
from interpreter.view import table_view
from tests.play_helpers import game_from_text

ROOT = Path(__file__).resolve().parents[2]

RULESET = """
format: 1
name: A hand laid open
players: {min: 2, max: 2}
deck: {ranks: [7, 8, 9, 10, J, Q, K, A], suits: [S, H, D, C]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: open, visibility: public}
  - {name: melds, kind: melds, visibility: public}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 5, from: stock, to: hand}
        - {move: all, from: "hand[1]", to: open}
        - turn: hand[0]
          face: up
        - decide: 0
          options:
            - choose: done
      next: end
match:
  hands: 1
  result: 0
show:
  hand: hand
  zones:
    - {name: open, sorted: true}
    - {name: hand, sorted: true}
"""

STACK = ["KD", "7S", "10H", "AS", "8C", "7H", "9S", "QC", "JD", "8D"]


def _stack(game: Game) -> list[str]:
    """STACK on top, the other cards under it in the deck's order."""
    return STACK + [text for text in map(game.deck.card_text, game.deck.cards(2)) if text not in STACK]


def _zone(game: Game, state, name: str, owner: str, seat: int):  # type: ignore[no-untyped-def]
    return next(zone for zone in table_view(state, seat).zones if zone.name == name and zone.owner == owner)


def test_a_zone_shown_sorted_shows_its_cards_as_a_hand(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = game.new_initial_state(seed=1)
    state.apply_chance(_stack(game))  # dealt from the dealer p0's left: p1 gets KD 10H 8C 9S JD, p0 7S AS 7H QC 8D
    assert [game.deck.card_text(card) for card in state.values["open"]] == ["KD", "10H", "8C", "9S", "JD"]
    # By suit in the deck's order (spades, hearts, diamonds, clubs), each low to high.
    assert _zone(game, state, "open", "", 0).cards == ("9S", "10H", "JD", "KD", "8C")
    # p0's hand, face up: p1 sees it sorted too.
    assert _zone(game, state, "hand", "p0", 1).face_up == ("7S", "AS", "7H", "8D", "QC")
    unsorted = game_from_text(tmp_path, RULESET.replace("    - {name: open, sorted: true}", "    - {name: open}"))
    state = unsorted.new_initial_state(seed=1)
    state.apply_chance(_stack(unsorted))
    assert _zone(unsorted, state, "open", "", 0).cards == ("KD", "10H", "8C", "9S", "JD")  # the zone's order


def test_a_zone_shown_sorted_follows_the_games_hand_order(tmp_path: Path) -> None:
    text = RULESET.replace("show:\n  hand: hand\n", "show:\n  hand: hand\n  hand_order: 10 - order(card.rank)\n")
    game = game_from_text(tmp_path, text)
    state = game.new_initial_state(seed=1)
    state.apply_chance(_stack(game))
    # High to low whatever the suit; cards of equal place keep the deck's order.
    assert _zone(game, state, "open", "", 1).cards == ("KD", "JD", "10H", "9S", "8C")


def test_bridge_shows_the_dummy_sorted_into_suits() -> None:
    game = load_ruleset(ROOT / "tests" / "games" / "bridge.yaml")
    state = game.new_initial_state(seed=20261130)
    while not state.values["dummy"]:
        if state.is_chance_node:
            state.apply_chance()
        else:
            state.apply(state.legal_actions()[-1] if state.phase == "auction" else state.legal_actions()[0])
    held = [game.deck.card_text(card) for card in state.values["dummy"]]
    suits = "SHDC"
    expected = sorted(held, key=lambda text: (suits.index(text[-1]), game.deck.rank_names.index(text[:-1])))
    assert held != expected  # (the cards lie as they were dealt)
    for seat in range(4):
        assert _zone(game, state, "dummy", "", seat).cards == tuple(expected)


def test_validate_sorts_only_zones_of_cards(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"`show\.zones` sorts the zone `melds`, which holds melds"):
        game_from_text(tmp_path, RULESET.replace("    - {name: hand, sorted: true}",
                                                 "    - {name: hand, sorted: true}\n    - {name: melds, sorted: true}"))
