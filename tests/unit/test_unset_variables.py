"""A variable declared without `initial` is unset until a step sets it; reading it before that is an error that
names it, at the expression that reads it (docs/ruleset-format.md, "variables"). It read as null: a log showed
`pnull`, and a comparison with it was quietly false."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.engine.errors import RulesetRuntimeError
from tests.play_helpers import game_from_text

RULESET = """\
format: 1
name: Unset variables
players: {min: 2, max: 2}
deck: {ranks: [2, 3, 4], suits: [S, H]}
zones:
  - {name: stock}
variables:
  - {name: lead, type: seat}
  - {name: bid, type: int, per: seat}
  - {name: kept, type: "list[card]"}
  - {name: x, type: int, initial: 0}
define:
  is_one(v): v == 1
hand:
  start: main
  phases:
    - name: main
      steps:
STEPS
      next: end
match:
  hands: 1
  result: x
"""


def _first_state(tmp_path: Path, steps: str) -> object:
    game = game_from_text(tmp_path, RULESET.replace("STEPS\n", steps))
    return game.new_initial_state(seed=1)


@pytest.mark.parametrize(("steps", "named", "where"), [
    # a log reading it (it showed `pnull`)
    ("        - log: 'lead is p{lead}'\n", "`lead`", "hand.phases[0].steps[0].log"),
    # a comparison with it (it was quietly false, and the match went on)
    ("        - set: x\n          to: if lead == 0 then 7 else 3\n", "`lead`", "hand.phases[0].steps[0].to"),
    # an item of a per-seat variable, and one read bare for `player`
    ("        - set: x\n          to: bid[1] + 1\n", "`bid[1]`", "hand.phases[0].steps[0].to"),
    ("        - for_each: seats()\n          do:\n            - set: x\n              to: bid\n", "`bid[0]`",
     "hand.phases[0].steps[0].do[0].to"),
    # a list variable
    ("        - set: x\n          to: size(kept)\n", "`kept`", "hand.phases[0].steps[0].to"),
    # items counted, summed or looked for over the seats (written over the variable's list, in C)
    ("        - set: x\n          to: count(bid[q] == 1 for q in seats())\n", "`bid[0]`", "hand.phases[0].steps[0].to"),
    ("        - set: x\n          to: sum(bid[q] for q in seats())\n", "`bid[0]`", "hand.phases[0].steps[0].to"),
    # an item, or a value not a list, handed to a definition
    ("        - set: x\n          to: if is_one(bid[1]) then 1 else 0\n", "`bid[1]`", "hand.phases[0].steps[0].to"),
    ("        - set: x\n          to: if is_one(lead) then 1 else 0\n", "`lead`", "hand.phases[0].steps[0].to"),
])
def test_a_variable_read_before_any_step_sets_it_is_an_error_naming_it(tmp_path: Path, steps: str, named: str,
                                                                       where: str) -> None:
    with pytest.raises(RulesetRuntimeError) as raised:
        _first_state(tmp_path, steps)
    assert f"{named} is read before any step has set it" in str(raised.value), str(raised.value)
    assert raised.value.where == where


def test_a_variable_set_first_reads_its_value_even_when_it_is_0_or_empty(tmp_path: Path) -> None:
    # seat 0, a bid of 0 and an empty list are values, not "unset"
    steps = ("        - set: lead\n          to: 0\n        - set: bid[1]\n          to: 0\n"
             "        - set: kept\n          to: '[]'\n"
             "        - set: x\n          to: (if lead == 0 then 7 else 3) + bid[1] + size(kept)\n")
    state = _first_state(tmp_path, steps)
    assert state.is_terminal and state.returns() == [7, 7]
