"""A secret choice (`choose` with `secret: true`): its seat alone sees what was chosen, at once and after a
simultaneous round, where the other choices are revealed (the crib laid away face down, cards passed that only
their receiver sees)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import CHANCE, load_ruleset, validate_file
from interpreter.engine.resample import knowledge
from interpreter.engine.state import State
from interpreter.runners.transcript import describe
from tests.play_helpers import game_from_text

GAMES = Path(__file__).resolve().parent.parent / "games"

# Each seat lays one card of its hand face down in a pile nobody sees: all at once in a simultaneous round, or
# in turn; SECRET is replaced by `true` or `false`.
GAME = """
format: 1
name: Cards laid away
players: {min: 3, max: 3}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: pile, visibility: hidden}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 3, from: stock, to: hand}
        - round: next_seat(dealer)
          ROUND
          do:
            - decide: player
              options:
                - choose: lay
                  secret: SECRET
                  args:
                    chosen: hand[player]
                  do:
                    - {move: "[chosen]", from: "hand[player]", to: pile}
      next: end
match:
  hands: 1
  result: 0
"""


def _played(tmp_path: Path, *, secret: bool, simultaneous: bool) -> State:
    """A match played up to the end of the round, each seat laying its first card."""
    text = GAME.replace("SECRET", "true" if secret else "false").replace(
        "ROUND", "simultaneous: true" if simultaneous else "where: true")
    state = game_from_text(tmp_path, text).new_initial_state(seed=3)
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(state.legal_actions()[0])
    return state


def _seen_by(state: State, seat: int) -> list[str]:
    """The transcript's lines of the round's choices, as `seat` sees them."""
    lines = [describe(event, seat) for event in state.events if event["type"] in ("action", "reveal")]
    return [line for line in lines if line is not None]


@pytest.mark.parametrize("simultaneous", [False, True], ids=["in turn", "simultaneous"])
def test_a_secret_choice_is_seen_by_its_seat_alone(tmp_path: Path, simultaneous: bool) -> None:
    state = _played(tmp_path, secret=True, simultaneous=simultaneous)
    actions = [event for event in state.events if event["type"] == "action"]
    assert [event["seat"] for event in actions] == [1, 2, 0]  # (from the dealer's left)
    # Each choice is hidden from the two other seats, and never revealed.
    assert [sorted(event["secret_from"]) for event in actions] == [[0, 2], [0, 1], [1, 2]]
    assert not [event for event in state.events if event["type"] == "reveal"]
    own = actions[0]["action"]
    assert own.startswith("p1 choose lay chosen ")
    assert _seen_by(state, 1) == [own, "p2 chooses", "p0 chooses"]
    assert _seen_by(state, 0) == ["p1 chooses", "p2 chooses", actions[2]["action"]]
    # What seat 1 knows of the pile: its own card, not the others'.
    laid = [state.game.deck.parse_card(event["action"].split()[-1]) for event in actions]
    known = knowledge(state, 1).get(("pile", -1), {})
    assert known[laid[0]] == 1
    assert known[laid[1]] == 0 and known[laid[2]] == 0


def test_a_choice_that_is_not_secret_is_seen_by_every_seat(tmp_path: Path) -> None:
    state = _played(tmp_path, secret=False, simultaneous=False)
    actions = [event for event in state.events if event["type"] == "action"]
    assert all(not event.get("secret_from") for event in actions)
    assert _seen_by(state, 0) == [event["action"] for event in actions]


def test_a_simultaneous_rounds_choices_that_are_not_secret_are_revealed(tmp_path: Path) -> None:
    state = _played(tmp_path, secret=False, simultaneous=True)
    actions = [event["action"] for event in state.events if event["type"] == "action"]
    assert [event["action"] for event in state.events if event["type"] == "reveal"] == actions
    assert _seen_by(state, 0)[3:] == [f"revealed: {action}" for action in actions]
    laid = [state.game.deck.parse_card(action.split()[-1]) for action in actions]
    known = knowledge(state, 1).get(("pile", -1), {})
    assert all(known[card] == 1 for card in laid)  # (every seat saw every card revealed)


def test_hearts_passed_at_once_a_seat_sees_only_its_own_pass_and_the_cards_passed_to_it() -> None:
    # tests/games/hearts.yaml, `simultaneous_pass`: three cards each in one secret choice, passed to the left in
    # the first hand. p2 passed its cards to p3 and received p1's; it must know nothing of p0's cards to p1 or
    # p3's to p0.
    state = load_ruleset(GAMES / "hearts.yaml", {"simultaneous_pass": True}).new_initial_state(seed=2)
    while state.phase != "play":
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(state.legal_actions()[0])
    passes = {event["seat"]: event["action"] for event in state.events if event["type"] == "action"}
    assert sorted(passes) == [0, 1, 2, 3]
    assert not [event for event in state.events if event["type"] == "reveal"]
    seen = _seen_by(state, 2)
    assert passes[2] in seen and sorted(line for line in seen if line != passes[2]) == [
        "p0 chooses", "p1 chooses", "p3 chooses"]
    deck = state.game.deck
    passed = {seat: [deck.parse_card(word) for word in text.split()[4::2]] for seat, text in passes.items()}
    known = knowledge(state, 2)
    assert all(known.get(("hand", 1), {}).get(card, 0) == 0 for card in passed[0])  # p0's, now p1's
    assert all(known.get(("hand", 0), {}).get(card, 0) == 0 for card in passed[3])  # p3's, now p0's
    assert all(known.get(("hand", 3), {}).get(card, 0) == 1 for card in passed[2])  # its own, now p3's


def test_a_secret_choice_beside_an_open_option_is_a_warning(tmp_path: Path) -> None:
    # `p0 chooses` beside `p0 choose pass`: the others see which was taken.
    mixed = GAME.replace("ROUND", "where: true").replace("SECRET", "true").replace(
        "              options:\n", "              options:\n                - choose: pass\n", 1)
    path = tmp_path / "mixed.yaml"
    path.write_text(mixed, encoding="utf-8")
    findings = validate_file(path)
    assert [(d.code, d.severity) for d in findings] == [("secret-mixed", "warning")]
    assert "`lay` sits beside `choose pass`" in findings[0].message
    assert findings[0].yaml_path.endswith("options[1].secret")
    # Every option secret, or none: no warning.
    path.write_text(mixed.replace("                - choose: pass\n",
                                  "                - choose: pass\n                  secret: true\n"), encoding="utf-8")
    assert validate_file(path) == []
    path.write_text(GAME.replace("ROUND", "where: true").replace("SECRET", "false"), encoding="utf-8")
    assert validate_file(path) == []
