"""A `for_each` step names its items with `as:`, or binds them to `player`: inside a decision or a round, where
`player` is bound already, the second hides the first from the steps inside it, and `validate` warns."""

from __future__ import annotations

from pathlib import Path

from interpreter import validate_file

GAME = """\
format: 1
name: Everyone scores
players: {min: 2, max: 2}
deck: {ranks: [7, 8], suits: [S, H]}
zones:
  - {name: stock}
variables:
  - {name: score, type: int, per: seat, initial: 0}
hand:
  start: main
  phases:
    - name: main
      steps:
        - round: 0
          do:
            - decide: player
              options:
                - choose: go
                  do:
                    - for_each: seats()
                      NAMED
                      do:
                        - change: score[player]
                          by: 1
      next: end
match: {hands: 1, result: "score[player]"}
"""


def _findings(tmp_path: Path, named: str) -> list[tuple[str, str, str]]:
    path = tmp_path / "game.yaml"
    path.write_text(GAME.replace("NAMED", named), encoding="utf-8")
    return [(d.code, d.severity, d.yaml_path) for d in validate_file(str(path))]


def test_items_bound_to_player_inside_a_decision_are_a_warning(tmp_path: Path) -> None:
    assert _findings(tmp_path, "where: true") == [
        ("shadowed-player", "warning", "hand.phases[0].steps[0].do[0].options[0].do[0].for_each")]


def test_items_named_with_as_hide_nothing(tmp_path: Path) -> None:
    assert _findings(tmp_path, "as: other") == []


def test_a_for_each_where_no_player_is_bound_may_bind_it(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    text = GAME.replace("NAMED", "where: true")
    start = text.index("        - round: 0")
    loop = "        - for_each: seats()\n          do:\n            - change: score[player]\n              by: 1\n"
    path.write_text(text[:start] + loop + "      next: end\n" + text[text.index("match:"):], encoding="utf-8")
    assert validate_file(str(path)) == []


def test_a_for_each_over_a_value_with_an_error_of_its_own_is_not_refused_again(tmp_path: Path) -> None:
    # (the value's own error says what is wrong: its type is then unknown, and no list is asked of it again)
    path = tmp_path / "game.yaml"
    path.write_text(GAME.replace("NAMED", "as: other").replace("for_each: seats()", "for_each: seats() + [true]"),
                    encoding="utf-8")
    findings = validate_file(str(path))
    assert [(d.code, d.message) for d in findings] == [("type", "cannot join list[seat] and list[bool]")]


def test_a_zone_misspelt_with_a_capital_is_named_with_the_closest_zone(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    text = GAME.replace("NAMED", "as: other").replace("  - {name: stock}\n", "  - {name: stock}\n  - {name: pile}\n")
    text = text.replace("                        - change: score[player]\n                          by: 1\n",
                        "                        - {move: all, from: Stock, to: pile}\n")
    path.write_text(text, encoding="utf-8")
    (finding,) = validate_file(str(path))
    assert (finding.code, finding.message, finding.hint) == ("unknown-zone", "unknown zone `Stock`",
                                                             "did you mean `stock`?")


def test_items_other_than_seats_need_a_name_and_the_hint_gives_one_that_hides_nothing(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    text = GAME.replace("- for_each: seats()\n                      NAMED\n", "- for_each: \"[7, 8]\"\n")
    path.write_text(text.replace("  - {name: score,", "  - {name: each_int, type: int, initial: 0}\n"
                                 "  - {name: score,"), encoding="utf-8")
    finding = next(d for d in validate_file(str(path)) if d.code == "type")
    assert finding.message == "`for_each` over a list of int needs a name: add `as:`"
    assert finding.hint == "`player` is always a seat; e.g. `as: each_int_2`"  # (`each_int` is a variable)
