"""Distinct named jokers (`deck.jokers: [BJ, RJ]`): each a card and a rank of its own, no suit, ranked above every
rank in the order listed; cards of texts that parse back, in expressions, actions, views and by_players
(docs/ruleset-format.md, deck)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.engine.errors import IllegalActionError
from interpreter.errors import RulesetError
from interpreter.view import sort_hand
from tests.play_helpers import game_from_text

ROOT = Path(__file__).resolve().parents[2]

RULESET = """
format: 1
name: Two jokers
players: {min: 2, max: 3}
deck:
  ranks: [2, 3, A]
  suits: [S, H]
  jokers: [BJ, RJ]
  values: {RJ: 5, BJ: 3, A: 1}
  rankings:
    reversed: [RJ, BJ, A, 3, 2]
  by_players:
    - players: 3
      add: [RJ]
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: table, visibility: public}
variables:
  - {name: score, type: int, per: seat, initial: 0, lasts: match}
define:
  best: highest(c in hand by c.rank)
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - deal: 2
          from: stock
          to: hand
      next: play
    - name: play
      steps:
        - for_each: seats()
          do:
            - decide: player
              options:
                - play: hand
                  to: table
                  legal:
                    - rule: card == best
                      reason: "play your best card"
                  do:
                    - change: score
                      by: value(card) + (if is_joker(card) then 10 else 0) + (if card.rank > RJ.rank then 100 else 0)
      next: end
match:
  hands: 1
  result: score[player]
"""


def test_each_named_joker_is_a_card_and_a_rank_above_every_rank_in_the_order_listed(tmp_path: Path) -> None:
    deck = game_from_text(tmp_path, RULESET).deck
    assert deck.rank_names == ("2", "3", "A", "BJ", "RJ")
    black, red = deck.parse_card("BJ"), deck.parse_card("RJ")
    assert deck.rank_of[black] < deck.rank_of[red] and deck.rank_of[black] > deck.rank_of[deck.parse_card("AS")]
    assert deck.card_text(red) == "RJ" and deck.suit_name(deck.suit_of[red]) == ""
    assert deck.card_of(deck.rank_index("RJ") or 0, 0) == red
    assert deck.size == 8 and sorted(deck.cards(2)) == sorted(deck.distinct_cards())
    assert [deck.card_text(card) for card in deck.cards(3)].count("RJ") == 2  # by_players adds a named joker
    with pytest.raises(ValueError, match="not a card of this deck"):
        deck.parse_card("JK")  # the named jokers replace JK


def test_expressions_and_actions_name_the_jokers(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    deck = game.deck
    state = game.new_initial_state(seed=2, players=2)
    # dealt one at a time from the dealer's left: p1 gets RJ and 2H, p0 gets BJ and AS
    state.apply_chance([deck.parse_card(text) for text in ("RJ", "BJ", "2H", "AS", "2S", "3S", "3H", "AH")])
    assert state.observation(0)["zones"]["hand"][0]["cards"] == ["BJ", "AS"]
    assert [state.action_text(action) for action in state.legal_actions()] == ["p0 play BJ"]  # BJ is above A
    state.apply(state.parse_action("p0 play BJ"))
    assert [state.action_text(action) for action in state.legal_actions()] == ["p1 play RJ"]
    with pytest.raises(IllegalActionError, match="play your best card"):
        state.apply(state.parse_action("p1 play 2H"))
    state.apply(state.parse_action("p1 play RJ"))
    assert state.is_terminal
    assert state.returns() == [13, 15]  # value 3 or 5, 10 for a joker, and no rank above RJ


def test_a_rank_of_the_deck_is_no_joker_name(tmp_path: Path) -> None:
    text = RULESET.replace("ranks: [2, 3, A]", "ranks: [2, 3, AA]").replace("A: 1", "AA: 1").replace(
        "[RJ, BJ, A, 3, 2]", "[RJ, BJ, AA, 3, 2]").replace("jokers: [BJ, RJ]", "jokers: [BJ, AA]")
    with pytest.raises(RulesetError, match=r"error\[duplicate-name\]: the joker `AA` has the name of a rank"):
        game_from_text(tmp_path, text)


def test_a_hand_shows_the_jokers_last_low_to_high(tmp_path: Path) -> None:
    deck = game_from_text(tmp_path, RULESET).deck
    groups = sort_hand(deck, ["RJ", "AS", "BJ", "2H", "2S"])
    assert [(group.suit, group.cards) for group in groups] == [("S", ("2S", "AS")), ("H", ("2H",)),
                                                                ("", ("BJ", "RJ"))]


@pytest.mark.parametrize(("change", "message"), [
    ("jokers: [BJ, AS]", "error[duplicate-name]: the joker `AS` has the name of a card of the deck"),
    ("jokers: [BJ, R]", "error[invalid-value]: `R` is not a joker's name"),
    ("jokers: [BJ, BJ]", "error[schema]: items must be different from each other (at deck.jokers)"),
    ("jokers: [BJ, RJ]\n  cards: [2S, 2H, JK]",
     "error[unknown-card]: `JK` is not a card of this deck: its jokers are named"),
    ("jokers: [BJ, RJ]\n  by_players:\n    - {players: 3, add_jokers: 1}",
     "error[invalid-value]: `add_jokers` adds jokers `JK`, and this deck's jokers are named"),
])
def test_bad_named_jokers_are_refused(tmp_path: Path, change: str, message: str) -> None:
    text = RULESET.replace("jokers: [BJ, RJ]", change, 1).replace("  by_players:\n    - players: 3\n      add: [RJ]\n",
                                                                  "", 1 if "by_players" in change else 0)
    with pytest.raises(RulesetError) as raised:
        game_from_text(tmp_path, text)
    assert message in str(raised.value)


def test_the_president_variant_plays_with_two_jokers() -> None:
    game = load_ruleset(str(ROOT / "tests" / "games" / "president_jokers.yaml"))
    assert game.deck.rank_names[-3:] == ("2", "BJ", "RJ")
    assert game.deck.size_for(4) == 54
