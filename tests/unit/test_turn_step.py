"""The `turn` step: cards turned face up or face down where they lie, every card of a zone or the ones listed
(docs/ruleset-format.md, turn). Skat's ouvert declarer lays the hand open with it (SK-10)."""

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
name: Show and hide
players: {min: 2, max: 2}
deck: {ranks: [1, 2, 3, 4, 5, 6], suits: [S, H], packs: 2}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 3, from: stock, to: hand}
        - turn: hand[dealer]
          face: up
        - turn: hand[next_seat(dealer)]
          face: up
          cards: "[last(hand[next_seat(dealer)])]"
      next: play
    - name: play
      steps:
        - decide: dealer
          options:
            - choose: hide
              do:
                - turn: hand[dealer]
                  face: down
                  cards: "[first(hand[dealer])]"
      next: end
match:
  hands: 1
  result: "0"
"""


SHOWN = 'cards: "[last(hand[next_seat(dealer)])]"'


def _dealt(game: Game, seed: int = 3):  # type: ignore[no-untyped-def]
    state = game.new_initial_state(seed=seed)
    while state.current_player == CHANCE:
        state.apply_chance()
    return state


def test_every_card_or_the_listed_ones_turn_face_up_where_they_lie(tmp_path: Path) -> None:
    state = _dealt(game_from_text(tmp_path, RULESET))
    dealer, other = 0, 1
    dealer_hand, other_hand = state.values["hand"][dealer], state.values["hand"][other]
    assert sorted(state.face_up.of(("hand", dealer))) == sorted(dealer_hand)
    assert state.face_up.of(("hand", other)) == [other_hand[-1]]
    # The cards stay where they were, in their order; the other seat sees them now.
    assert len(dealer_hand) == 3
    seen = state.observation(other)["zones"]["hand"][dealer]
    assert seen == {"count": 3, "face_up": [state.card_text(card) for card in dealer_hand]}


def test_cards_turn_face_down_again(tmp_path: Path) -> None:
    state = _dealt(game_from_text(tmp_path, RULESET))
    first = state.values["hand"][0][0]
    state.apply(state.legal_actions()[0])
    still_up = list(state.face_up.of(("hand", 0)))
    assert sorted([*still_up, first]) == sorted(state.values["hand"][0])


def test_a_card_not_in_the_zone_is_a_runtime_error_at_the_step(tmp_path: Path) -> None:
    text = RULESET.replace(SHOWN, "cards: \"[c for c in stock if c.rank == 6] + [c for c in stock]\"")
    game = game_from_text(tmp_path, text)
    state = game.new_initial_state(seed=3)
    with pytest.raises(RulesetRuntimeError, match="is not in hand: it cannot be turned over there") as caught:
        while state.current_player == CHANCE:
            state.apply_chance()
    step_line = text.split("\n").index("        - turn: hand[next_seat(dealer)]") + 1
    assert caught.value.location is not None and caught.value.location.line == step_line


def test_two_copies_turn_one_at_a_time(tmp_path: Path) -> None:
    text = RULESET.replace(SHOWN, "cards: \"[c for c in hand[next_seat(dealer)] if c.rank == 1]\"")
    game = game_from_text(tmp_path, text)
    for seed in range(200):  # a deal where the other seat holds both copies of one card
        state = game.new_initial_state(seed=seed)
        while state.current_player == CHANCE:
            state.apply_chance()
        other = state.values["hand"][1]
        doubled = [card for card in other if other.count(card) == 2 and state.game.deck.rank_of[card] == 0]
        if doubled:
            assert state.face_up.of(("hand", 1)).count(doubled[0]) == 2
            return
    pytest.fail("no deal gave a seat both copies of an ace")


def test_turn_checks_its_zone_and_cards(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="unknown zone `hands`"):
        game_from_text(tmp_path, RULESET.replace("- turn: hand[dealer]\n", "- turn: hands[dealer]\n"))
    with pytest.raises(RulesetError, match="the cards to turn"):
        game_from_text(tmp_path, RULESET.replace(SHOWN, "cards: 3"))
    with pytest.raises(RulesetError, match="face"):
        game_from_text(tmp_path, RULESET.replace("face: down", "face: sideways"))
