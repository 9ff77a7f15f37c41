"""`show.variables` naming a definition: a value worked out by the rules (Bridge's board number and
vulnerability, Law 2) shown in every seat's view without being copied into a variable. It is a value of the
table that reads only what every seat sees, which `validate` checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.errors import RulesetError
from interpreter.view import table_view
from tests.play_helpers import game_from_text

ROOT = Path(__file__).resolve().parents[2]

RULESET = """
format: 1
name: Values worked out
players: {min: 2, max: 2}
deck: {ranks: [7, 8, 9, 10, J, Q, K, A], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: pile, visibility: public}
  - {name: table, kind: melds, visibility: public}
variables:
  - {name: points, type: int, per: seat, initial: 0}
define:
  round_name: if hand_number % 2 == 1 then 'odd' else 'even'
  pile_top: last(pile)
  lead(p): points[p] - points[next_seat(p)]
  held: size(hand[0])
  mine: size(hand[player])
  every_seats_points: points
  first_meld: first(table)
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 2, from: stock, to: hand}
        - decide: 0
          options:
            - play: hand
              to: pile
      next: end
match:
  hands: 2
  result: points[player]
show:
  variables:
    - {name: round_name, label: round}
    - {name: pile_top}
    - {name: points}
"""


def test_a_definition_is_shown_as_a_value_of_the_table(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = game.new_initial_state(seed=2)
    state.apply_chance()
    shown = {variable.name: variable for variable in table_view(state, 1).variables}
    assert list(shown) == ["round_name", "pile_top", "points"]
    assert (shown["round_name"].label, shown["round_name"].per, shown["round_name"].text) == ("round", "table", "odd")
    assert shown["pile_top"].text == "-"  # (an empty pile has no last card: nothing to show yet)
    played = state.legal_actions()[0]
    state.apply(played)
    state.apply_chance()  # the second hand
    shown = {variable.name: variable for variable in table_view(state, 0).variables}
    assert shown["round_name"].text == "even"
    assert shown["pile_top"].text == "-"  # the pile is empty again at the new hand's start


def test_bridge_shows_the_board_and_its_vulnerability(tmp_path: Path) -> None:
    game = load_ruleset(ROOT / "tests" / "games" / "bridge.yaml")
    state = game.new_initial_state(seed=1)
    state.apply_chance(1)  # Law 2: East deals first: board 2, N-S vulnerable
    state.apply_chance()
    assert "board" not in game.ruleset.variables and "vulnerable" not in game.ruleset.variables
    for seat in range(4):
        shown = {variable.label: variable.text for variable in table_view(state, seat).variables}
        assert shown["board"] == "2" and shown["vulnerable"] == "N-S"


@pytest.mark.parametrize(("name", "message"), [
    ("lead", "`show.variables` shows the definition `lead`, which takes parameters"),
    ("held", "`show.variables` shows the definition `held`, which reads the zone `hand`, not seen by every seat"),
    ("mine", "`mine` uses `player`, which is not bound here"),
    ("every_seats_points", "`points` has one value per seat: write `points[seat]`"),
    ("first_meld", "`show.variables` shows the definition `first_meld`, which is meld, not a value to show"),
])
def test_validate_refuses_a_definition_that_is_not_one_public_value(tmp_path: Path, name: str, message: str) -> None:
    with pytest.raises(RulesetError) as caught:
        shown = f"    - {{name: pile_top}}\n    - {{name: {name}}}\n"
        game_from_text(tmp_path, RULESET.replace("    - {name: pile_top}\n", shown))
    assert message in str(caught.value)
