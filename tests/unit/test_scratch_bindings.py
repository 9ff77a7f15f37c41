"""The options of one decision are tested with one scratch copy of its bindings. A name an option binds there for
its own candidates (a draw's or take's pile as `cards`, a meld's `after` and `cards`, a card) is given back the
decision's value after that option, so the options after it see the decision's own bindings. This holds whether
the candidates were tested by the option's filter or clause by clause (after a filter's failure), and in the
decision's own legal-set code as in the general search."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import CHANCE
from interpreter.engine import decisions
from tests.play_helpers import game_from_text

HEAD = """format: 1
name: Scratch bindings
players: {min: 2, max: 2, default: 2}
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K], suits: [S, H, D, C]}
zones:
  - {name: stock}
  - {name: discard, visibility: public}
  - {name: hand, owner: seat, visibility: owner}
  - {name: melds, owner: seat, kind: melds, visibility: public}
variables:
  - {name: score, type: int, per: seat, initial: 0, lasts: match}
  - {name: kept, type: int, initial: 0}
melds:
  kinds:
    - {name: set, shape: set, min: 2, max: 4}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - deal: 20
          from: stock
          to: hand
        - move: 4
          from: stock
          to: discard
      next: play
    - name: play
      steps:
        - decide: next_seat(dealer)
          options:
            - take: discard
              to: hand
              do:
                - decide: player
                  options:
"""
# The nested decision's last option offers one action for each card of the pile taken (`cards`, bound by the
# take: four cards).
TAIL = """                    - choose: keep
                      args:
                        n: numbers(1, size(cards))
                      do:
                        - set: kept
                          to: n
      next: end
match:
  hands: 1
  ends_when: false
  result: score[player]
"""
FIRST_OPTIONS = {
    "a draw": """                    - draw: stock
                      to: hand
                      legal:
                        - rule: size(cards) == 1
                          reason: one card
""",
    "a discard": """                    - discard: hand
                      to: discard
                      legal:
                        - rule: card.rank != K
                          reason: no king
""",
    "a meld tested by its filter": """                    - meld: hand
                      to: melds
                      legal:
                        - rule: size(after.cards) >= 2 and (1 / (size(stock) - size(stock)) == 0 or true)
                          reason: two cards
""",
    # (the filter works out the division, which no candidate reaches clause by clause: it fails, and the clauses
    # are tested one by one)
    "a meld tested clause by clause": """                    - meld: hand
                      to: melds
                      legal:
                        - rule: size(after.cards) >= 2 or 1 / (size(stock) - size(stock)) == 0
                          reason: two cards
""",
}


@pytest.mark.parametrize("first", list(FIRST_OPTIONS))
def test_an_option_after_another_sees_the_decisions_own_bindings(tmp_path: Path, first: str) -> None:
    state = game_from_text(tmp_path, HEAD + FIRST_OPTIONS[first] + TAIL).new_initial_state(seed=3)
    while state.current_player == CHANCE:
        state.apply_chance()
    state.apply(next(action for action in state.legal_actions() if action.kind == "take"))
    assert state.current_player >= 0 and state.pending is not None
    own = state.legal_actions()  # the decision's own legal-set code
    general = decisions.legal_actions(state, state.pending)[0]  # the general search
    assert own == general
    kept = [dict(action.arguments)["n"] for action in own if action.name == "keep"]
    assert kept == [1, 2, 3, 4]  # the four cards of the pile taken, whatever the option before bound
