"""`face:` on the options that move a card (play, discard, draw, take): where the card lands face up, everyone
sees it; face down, only who may see the zone. Without it a played card lands face up and the others keep
their face."""

from __future__ import annotations

from pathlib import Path

from interpreter.engine.state import State
from tests.play_helpers import game_from_text

RULESET = """format: 1
name: faces
players: {min: 2, max: 2}
deck: {ranks: [A, K, Q, J], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: pile, visibility: hidden}
  - {name: shown, visibility: hidden}
hand:
  start: main
  phases:
    - name: main
      steps:
        - shuffle: stock
        - deal: 2
          from: stock
          to: hand
        - decide: 1
          options:
            - discard: hand
              to: pile
              face: up
        - decide: 0
          options:
            - draw: stock
              to: shown
              face: up
        - decide: 0
          options:
            - take: pile
              to: hand
              face: down
        - decide: 1
          options:
            - play: hand
              to: shown
              face: down
      next: end
match:
  hands: 1
  result: 0
"""


def _state(tmp_path: Path) -> State:
    state = game_from_text(tmp_path, RULESET).new_initial_state(seed=1, players=2)
    state.apply_chance()
    return state


def test_a_card_discarded_face_up_into_a_hidden_zone_is_seen_by_everyone(tmp_path: Path) -> None:
    state = _state(tmp_path)
    discard = state.legal_actions()[0]
    state.apply(discard)
    assert state.observation(0)["zones"]["pile"] == {"count": 1, "face_up": [state.card_text(discard.card)]}
    assert "secret_from" not in state.events[-1]  # nobody is kept from seeing it


def test_a_card_drawn_face_up_is_seen_and_one_taken_face_down_is_not(tmp_path: Path) -> None:
    state = _state(tmp_path)
    discarded = state.legal_actions()[0].card
    state.apply(state.legal_actions()[0])
    top = state.values["stock"][-1]
    state.apply(state.legal_actions()[0])  # p0 draws the top of the stock, face up
    assert state.observation(1)["zones"]["shown"] == {"count": 1, "face_up": [state.card_text(top)]}
    state.apply(state.legal_actions()[0])  # p0 takes the pile: the face-up discard, now face down
    assert discarded in state.values["hand"][0]
    assert state.observation(1)["zones"]["hand"][0] == {"count": 3}


def test_a_card_played_face_down_is_not_seen(tmp_path: Path) -> None:
    state = _state(tmp_path)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    played = state.legal_actions()[0]
    state.apply(played)  # p1 plays its last card face down: the drawn card stays the only one seen
    assert state.is_terminal
    assert played.card in state.values["shown"]
    assert state.card_text(played.card) not in state.observation(0)["zones"]["shown"]["face_up"]
    played_event = next(event for event in state.events if event.get("action") == state.action_text(played))
    assert played_event["secret_from"] == [0]  # nor in the log, nor in p0's transcript


DRAWS = """format: 1
name: draws
players: {min: 2, max: 2}
deck: {ranks: [A, K, Q, J], suits: [S, H]}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: seat, visibility: owner}
  - {name: pile, visibility: hidden}
variables:
  - {name: drawn, type: card, initial: null}
  - {name: drawn_count, type: int, initial: 0}
hand:
  start: main
  phases:
    - name: main
      steps:
        - shuffle: stock
        - deal: 1
          from: stock
          to: hand
        - move: 1
          from: stock
          to: stock
          face: up
        - decide: 0
          options:
            - draw: stock
              to: hand
              FACE
              do:
                - set: drawn
                  to: first(cards)
                - set: drawn_count
                  to: size(cards)
            - discard: hand
              to: pile
        - move: 1
          from: stock
          to: stock
          face: up
        - decide: 1
          options:
            - draw: stock
              to: hand
              FACE
      next: end
match:
  hands: 1
  result: 0
"""


def test_a_card_drawn_keeps_its_face_unless_the_option_says_and_its_steps_see_it(tmp_path: Path) -> None:
    # (a draw among options of several kinds, and a lone one, both moved by the hand's own code: the top of the
    # stock turned face up stays face up in the hand drawn to, unless `face: down`; `cards` holds the card drawn)
    for face, seen in (("", True), ("face: up", True), ("face: down", False)):
        state = game_from_text(tmp_path, DRAWS.replace("FACE", face)).new_initial_state(seed=3, players=2)
        state.apply_chance()
        top = state.values["stock"][-1]
        assert state.face_up.of(("stock", -1)) == [top]
        state.apply(next(action for action in state.legal_actions() if action.kind == "draw"))
        assert state.values["drawn"] == top and state.values["drawn_count"] == 1
        assert state.values["hand"][0][-1] == top and top not in state.values["stock"]
        second = state.values["stock"][-1]
        assert state.face_up.of(("stock", -1)) == [second]  # (only the next card, turned up after the draw)
        assert state.face_up.of(("hand", 0)) == ([top] if seen else [])
        assert ("face_up" in state.observation(1)["zones"]["hand"][0]) == seen
        state.apply(state.legal_actions()[0])  # (p1's lone draw)
        assert state.is_terminal and state.values["hand"][1][-1] == second
        assert state.face_up.of(("hand", 1)) == ([second] if seen else [])
