"""A choice whose arguments are cards, ranks or suits shows them by name in its action's text, reads them
back by name, and names the allowed ones by name when it refuses one."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.actions import ActionSyntaxError
from interpreter.engine.errors import IllegalActionError
from interpreter.engine.state import State

ROOT = Path(__file__).resolve().parents[2]
TINY = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
CHOICE = """        - decide: next_seat(dealer)
          options:
            - choose: name
              args:
                pick: sort(hand)
                suit: "[H, S]"
                rank: "[A, 10]"
                count: numbers(1, 2)
"""


def _state(tmp_path: Path) -> State:
    old = "        - set: trump\n          to: last(hand[dealer]).suit\n"
    path = tmp_path / "game.yaml"
    path.write_text(TINY.replace(old, old + CHOICE), encoding="utf-8")
    state = load_ruleset(path).new_initial_state(seed=2, players=2)
    state.apply_chance()
    return state


def test_card_rank_and_suit_arguments_are_shown_and_read_by_name(tmp_path: Path) -> None:
    state = _state(tmp_path)
    texts = [state.action_text(action) for action in state.legal_actions()]
    lowest = state.card_text(sorted(state.values["hand"][1])[0])
    assert texts[0] == f"p1 choose name pick {lowest} suit H rank A count 1"
    assert all(state.parse_action(text) == action for text, action in zip(texts, state.legal_actions(), strict=True))
    state.apply(texts[-1])
    assert state.events[-1]["action"] == texts[-1]


def test_a_refused_card_argument_names_the_allowed_cards(tmp_path: Path) -> None:
    state = _state(tmp_path)
    held = {state.card_text(card) for card in state.values["hand"][1]}
    missing = next(text for text in ("2C", "3C", "4C", "5C") if text not in held)
    with pytest.raises(IllegalActionError) as refused:
        state.check(f"p1 choose name pick {missing} suit H rank A count 1")
    assert str(refused.value).startswith("pick must be one of ") and str(refused.value).endswith(f"not {missing}")
    assert all(text in str(refused.value) for text in held)
    with pytest.raises(ActionSyntaxError, match="'ZZ' is not a suit of this deck"):
        state.parse_action(f"p1 choose name pick {missing} suit ZZ rank A count 1")


def test_two_choices_of_one_name_with_other_argument_types_show_their_values_as_they_are(tmp_path: Path) -> None:
    old = "        - set: trump\n          to: last(hand[dealer]).suit\n"
    twice = ("        - decide: dealer\n          options:\n            - choose: pick\n"
             "              args: {x: '[A, K]'}\n"
             "        - decide: dealer\n          options:\n            - choose: pick\n"
             "              args: {x: 'numbers(20, 21)'}\n")
    path = tmp_path / "game.yaml"
    path.write_text(TINY.replace(old, old + twice), encoding="utf-8")
    state = load_ruleset(path).new_initial_state(seed=2, players=2)
    state.apply_chance()
    first = [state.action_text(action) for action in state.legal_actions()]
    state.apply(first[0])
    second = [state.action_text(action) for action in state.legal_actions()]
    assert second == ["p0 choose pick x 20", "p0 choose pick x 21"]
    assert all(state.parse_action(text) == action for text, action in zip(second, state.legal_actions(), strict=True))
