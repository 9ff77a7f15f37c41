"""A trick's own winning rule (`beats`: each card against the one winning so far) and a trick loop that stops
when a condition holds (`until`): generic blocks of the `trick` step (docs/ruleset-format.md, trick)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import CHANCE
from interpreter.errors import RulesetError
from tests.play_helpers import game_from_text

RULESET = """
format: 1
name: Low cards win
players: {min: 2, max: 2}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: trick, visibility: public}
  - {name: won, owner: seat, visibility: public}
variables:
  - {name: tricks, type: int, per: seat, initial: 0}
define:
  led: first(trick).suit
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 3, from: stock, to: hand}
      next: play
    - name: play
      steps:
        - trick: trick
          leader: next_seat(dealer)
          legal:
            - rule: size(trick) == 0 or card.suit == led or not any(c.suit == led for c in hand)
              reason: "follow suit"
          RULE
          until: tricks[0] + tricks[1] == 2
          then:
            - change: tricks[winner]
              by: 1
            - {move: all, from: trick, to: "won[winner]"}
      next: end
match:
  hands: 1
  result: tricks[player]
"""

LOW_WINS = "beats: card.suit == winning.suit and order(card.rank) < order(winning.rank)"


def _game(tmp_path: Path, rule: str):  # type: ignore[no-untyped-def]
    return game_from_text(tmp_path, RULESET.replace("RULE", rule))


def _play(tmp_path: Path, rule: str) -> list[str]:
    """Deal p1 5S 9S 2H and p0 3S 7S KH (p1, the dealer's left, is dealt first and leads), then play
    p1 9S, p0 3S, and the next trick from its winner's lead of its other spade."""
    state = _game(tmp_path, rule).new_initial_state(seed=1, players=2)
    assert state.current_player == CHANCE
    dealt = ["5S", "3S", "9S", "7S", "2H", "KH"]
    rest = [card for card in state.values["stock"] if state.card_text(card) not in dealt]
    state.apply_chance(dealt + [state.card_text(card) for card in rest])
    state.apply("p1 play 9S")
    state.apply("p0 play 3S")
    leader = state.current_player
    if leader == 0:
        state.apply("p0 play 7S")
        state.apply("p1 play 5S")
    else:
        state.apply("p1 play 5S")
        state.apply("p0 play 7S")
    assert state.is_terminal  # `until`: two tricks, though each seat still holds a card
    assert [len(cards) for cards in state.values["hand"]] == [1, 1]
    return [f"p{leader} led", *(f"p{seat} won {len(cards) // 2}" for seat, cards in enumerate(state.values["won"]))]


def test_beats_compares_each_card_with_the_one_winning_so_far(tmp_path: Path) -> None:
    # 3S beats 9S (lower, same suit): p0 takes the first trick and leads 7S; 5S beats it: p1 takes the second.
    assert _play(tmp_path, LOW_WINS) == ["p0 led", "p0 won 1", "p1 won 1"]
    assert _game(tmp_path, LOW_WINS).new_initial_state(seed=1, players=2).returns() == [0, 0]


def test_the_same_tricks_with_the_usual_winning_card(tmp_path: Path) -> None:
    # High cards win: p1's 9S takes the first trick, leads 5S, and p0's 7S takes the second.
    assert _play(tmp_path, "winning_card: trick_winner(trick)") == ["p1 led", "p0 won 1", "p1 won 1"]


def test_a_trick_needs_one_winning_rule(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="a trick needs `winning_card` or `beats` \\(one of the two\\)"):
        _game(tmp_path, "")
    with pytest.raises(RulesetError, match="a trick gives `winning_card` or `beats`, not both"):
        _game(tmp_path, f"{LOW_WINS}\n          winning_card: trick_winner(trick)")


def test_beats_is_checked_as_a_condition_over_card_and_winning(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="beats"):
        _game(tmp_path, "beats: order(card.rank)")


@pytest.mark.parametrize("strict", [True, False])
def test_to_play_is_bound_when_a_clause_that_can_fail_reads_it(tmp_path: Path, strict: bool) -> None:
    # A house rule on a switch: the leader (one seat still to play after it) must lead a spade. Turned off, the
    # clause holds whatever is played, reads nothing, and no trick decision binds `to_play`.
    rule = ('              reason: "follow suit"\n'
            '            - rule: not spades_first or to_play == 0 or card.suit == S\n'
            '              reason: "lead a spade"')
    text = RULESET.replace('              reason: "follow suit"', rule).replace(
        "define:\n", f"define:\n  spades_first: \"{'true' if strict else 'false'}\"\n").replace("RULE", LOW_WINS)
    state = game_from_text(tmp_path, text).new_initial_state(seed=1, players=2)
    dealt = ["5S", "3S", "9S", "7S", "2H", "KH"]
    rest = [card for card in state.values["stock"] if state.card_text(card) not in dealt]
    state.apply_chance(dealt + [state.card_text(card) for card in rest])
    assert state.pending is not None
    assert ("to_play" in state.pending.bindings) == strict
    leads = [state.action_text(action) for action in state.legal_actions()]
    assert leads == (["p1 play 5S", "p1 play 9S"] if strict else ["p1 play 5S", "p1 play 9S", "p1 play 2H"])
    state.apply("p1 play 9S")
    assert [state.action_text(action) for action in state.legal_actions()] == ["p0 play 3S", "p0 play 7S"]
