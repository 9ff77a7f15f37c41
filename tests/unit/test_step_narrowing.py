"""An `if` step that tests an optional variable against null lets its branch use the value (docs/language.md);
a `set` that may make it null again, or a loop that may, ends that."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import RulesetError
from tests.play_helpers import game_from_text

ROOT = Path(__file__).resolve().parents[2]
TINY = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
SET_TRUMP = "        - set: trump\n          to: last(hand[dealer]).suit\n"


def _load(tmp_path: Path, steps: str) -> None:
    text = TINY.replace("  - {name: trump, type: suit}",
                        "  - {name: trump, type: suit}\n  - {name: out, type: seat, initial: null}\n"
                        "  - {name: bid, type: int, per: seat, initial: null}")
    text = text.replace("  led: trick[0].suit", "  led: trick[0].suit\n  current: out")
    game_from_text(tmp_path, text.replace(SET_TRUMP, SET_TRUMP + steps))


def test_the_branch_of_a_null_test_may_use_the_value(tmp_path: Path) -> None:
    _load(tmp_path, "        - if: out != null and dealer == 0\n          then:\n"
                    "            - change: score[out]\n              by: 1\n"
                    "        - if: out == null\n          then:\n            - set: trump\n              to: H\n"
                    "          else:\n            - change: score[out]\n              by: 2\n")


@pytest.mark.parametrize("steps", [
    # not tested at all
    "        - change: score[out]\n          by: 1\n",
    # set again (to null) before the use
    "        - if: out != null\n          then:\n            - set: out\n              to: 'null'\n"
    "            - change: score[out]\n              by: 1\n",
    # a loop that sets it runs its steps again, after the set
    "        - if: out != null\n          then:\n            - repeat: 2\n              do:\n"
    "                - change: score[out]\n                  by: 1\n"
    "                - set: out\n                  to: 'null'\n",
    # a definition is worked out again at each use: the set of `out` changes it
    "        - if: current != null\n          then:\n            - set: out\n              to: 'null'\n"
    "            - change: score[current]\n              by: 1\n",
    # a simultaneous round's choices take effect after the set that follows them
    "        - round: dealer\n          simultaneous: true\n          do:\n"
    "            - if: out != null\n              then:\n                - decide: player\n"
    "                  options:\n                    - choose: ok\n                      do:\n"
    "                        - change: score[out]\n                          by: 1\n"
    "            - set: out\n              to: 'null'\n",
])
def test_a_use_not_guarded_by_a_null_test_is_refused(tmp_path: Path, steps: str) -> None:
    with pytest.raises(RulesetError, match="must be seat, not seat or null"):
        _load(tmp_path, steps)


def test_a_bare_per_seat_name_is_not_narrowed_by_a_step(tmp_path: Path) -> None:
    # `bid` stands for `bid[player]`, and `player` is bound again by loops and rounds inside the branch.
    with pytest.raises(RulesetError, match="the change must be int, not int or null"):
        _load(tmp_path, "        - for_each: seats()\n          do:\n            - if: bid != null\n"
                        "              then:\n                - change: score[player]\n                  by: bid\n")
