"""The scenario runner (`ruledeck test`) reports a badly written case as a failure of that case, naming what is
wrong, and goes on with the others; a scenario file that is not YAML is located like a ruleset finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.runners.scenarios import ScenarioError, run_file

ROOT = Path(__file__).resolve().parents[2]
HEADER = f"ruleset: {ROOT / 'rulesets' / 'bourre.yaml'}\nplayers: 4\ncases:\n"
GOOD_CASE = "  - name: good\n    steps:\n      - expect: {phase: declare, dealer: p0}\n"


def _results(tmp_path: Path, cases: str) -> list[tuple[str, bool, str]]:
    path = tmp_path / "cases.yaml"
    path.write_text(HEADER + cases + GOOD_CASE, encoding="utf-8")
    return [(result.name, result.passed, result.message) for result in run_file(path)]


@pytest.mark.parametrize(("case", "message"), [
    ("start: {phase: declare, dealer: 'null'}",
     "expected a seat such as p2, not 'null' (for no value, write null without quotes"),
    ("steps: [{expect: {dealer: bob}}]", "expected a seat such as p2, not 'bob'"),
    ("steps: [{expect: {hand: first}}]", "hand must be a whole number, not 'first'"),
    ("steps: [{expect: {counts: {stock: many}}}]", "a count must be a whole number, not 'many'"),
    ("steps: [{expect: {variables: {trump: 'null'}}}]", "no suit 'null' (for no value, write null without quotes"),
    ("players: four", "players must be a whole number, not 'four'"),
    # a case of the wrong shape says what shape it needs
    ("steps: [{expect: [phase, declare]}]", "`expect` is a mapping"),
    ("steps: [{legal: 5}]", "`legal` is the list of the legal actions"),
    ("steps: [{expect: {counts: [stock]}}]", "`counts` is a mapping"),
    ("start: [declare]", "`start` is a mapping"),
    ("start: {phase: declare, zones: [AS]}", "`zones` is a mapping"),
    ("start: {phase: declare, variables: {pot: lots}}",
     "variable `pot`: an int variable's value must be a whole number, not 'lots'"),
    ("start: {phase: declare, variables: {next_to_deal: AH}}",
     "variable `next_to_deal`: expected a seat such as p2, not 'AH'"),
    ("start: {phase: declare, variables: {chips: {p9: 3}}}", "variable `chips`: there is no seat p9"),
    ("start: {phase: tricsk}", "the ruleset has no phase 'tricsk' (did you mean `tricks`?)"),
    ("start: {phase: nowhere}", "the ruleset has no phase 'nowhere' (phases: "),
    ("start: {phase: declare, variables: {pott: 3}}", "the ruleset has no variable 'pott' (did you mean `pot`?)"),
    # a misspelt action is a mistake of the case, not an action the rules refuse (as in `legal` and `refused`)
    ("steps: [p1 chose pass]", "step 1 (p1 chose pass): the text is not an action of this game: 'p1 chose pass': "
                               "unknown action kind 'chose' (did you mean `choose`?); this game has play, choose, "
                               "discard"),
    ("steps: [p1 play 9S]", "step 1 (p1 play 9S): refused: "),
    ("start: {phase: declare, zones: {hand: {p1: [AS, KX]}}}", "hand[p1]: "),
    ("start: {phase: declare, zones: {stock: 3}}", "stock: expected a list of cards, not 3"),
    # a card placed more often than the deck holds it: where it is placed
    ("start: {phase: declare, zones: {hand: {p1: [AS]}, stock: [2C, AS]}}",
     "the start is not possible: AS is placed in hand[p1] and stock, but the deck holds it once"),
    ("start: {phase: declare, zones: {hand: {p1: [AS, KD, AS]}}}",
     "the start is not possible: AS is placed 2 times in hand[p1], but the deck holds it once"),
    ("deals: [[AS, AS, 2C]]", "the stacked order names cards more times than stock holds them: AS (2 times, stock "
                              "holds 1)"),
    ("deals: [[AS, ZZ]]", "'ZZ' is not a card"),
    ("steps: [p1 choose plya]", "refused: p1 cannot choose plya now (did you mean `choose play`?); the choices are"),
    ("steps: [{expect: {zones: {stokc: []}}}]", "the ruleset has no zone 'stokc' (did you mean `stock`?)"),
    ("steps: [{expect: {variables: {pot: yes}}}]", "an int variable's value must be a whole number, not true"),
    ("steps: [p1 choose play discrad 2]", "refused: `choose play` takes discard, e.g. `p1 choose play discard 0`; "
                                          "it takes no `discrad` (did you mean `discard`?); `discard` not given"),
    ("start: {phase: declare, hand: 0}", "hands are numbered from 1, not 0"),
    ("steps: [{expect: {hand: '--1'}}]", "hand must be a whole number, not '--1'"),
    ("deals: [AS]", "`deals` is a list of stacked orders"),
    # a deal or pick never used: the case does not play what it says (Bourré has no `random` step)
    ("picks: [3]", "the case ends with 1 of its `picks` never used"),
    ("params: {hands: [1]}", "`params` gives parameters their values"),
    ("steps: p0 play AS", "`steps` is a list"),
    ("seed: [1]", "seed must be a whole number"),
    # an unknown key is named, with the closest known one
    ("stpes: [p1 choose pass]", "unknown key `stpes` in the case (did you mean `steps`?)"),
    ("start: {phase: declare, dealr: p1}", "unknown key `dealr` in `start` (did you mean `dealer`?)"),
    ("start: {phase: declare, rest: hand}", "`rest` names a table zone of cards that takes the cards not placed"),
    ("start: {phase: declare, teams: [p1, p2]}", "`teams` lists the teams formed, each a list of seats"),
    ("start: {phase: declare, seating: [p1, p2, p3, p0]}", "this ruleset has no `seating` step"),
    ("steps: [{expect: {seating: [p1, p2, p3, p0]}}]", "seating is [p0, p1, p2, p3], not [p1, p2, p3, p0]"),
    ("steps: [{expect: {seating: p1}}]", "seating: expected a list of seats"),
    ("steps: [{expect: {teams: [[p0, p1], [p2], [p3]]}}]",
     "teams are [[p0], [p1], [p2], [p3]], not [[p0, p1], [p2], [p3]]"),
])
def test_a_badly_written_case_fails_alone_saying_what_is_wrong(tmp_path: Path, case: str, message: str) -> None:
    # (a case with no step tests nothing and is refused with its file, test_scenario_file_errors.py: one is added)
    step = "" if "steps:" in case or "stpes:" in case else "\n    steps: [{expect: {phase: declare}}]"
    results = _results(tmp_path, f"  - name: bad\n    {case}{step}\n")
    assert results[0][:2] == ("bad", False) and message in results[0][2], results[0]
    assert "internal error" not in results[0][2]
    assert results[1] == ("good", True, "")


@pytest.mark.parametrize(("refused", "parsed"), [
    ('{action: "p1 chose pass", reason: ""}',  # an empty reason accepts any refusal
     "'p1 chose pass': unknown action kind 'chose' (did you mean `choose`?); this game has play, choose, discard"),
    ('{action: "p1 chosee pass", reason: "a"}',  # "a" is in the parser's message
     "'p1 chosee pass': unknown action kind 'chosee'"),
    ('{action: "p1 play ZZ", reason: "ZZ"}', "'p1 play ZZ': 'ZZ' is not a card of this deck"),
])
def test_a_refused_step_whose_text_is_not_an_action_fails_saying_so(tmp_path: Path, refused: str,
                                                                     parsed: str) -> None:
    """As in `legal:`, a misspelt action is a mistake of the case, not an action the rules refuse."""
    results = _results(tmp_path, f"  - name: misspelt\n    steps: [{{refused: {refused}}}]\n")
    assert results[0][:2] == ("misspelt", False), results[0]
    assert results[0][2].startswith(f"step 1 (refused): the text is not an action, so it cannot be refused: {parsed}")
    assert results[1] == ("good", True, "")


def test_a_variable_without_a_value_is_written_null(tmp_path: Path) -> None:
    results = _results(tmp_path, "  - name: unset trump\n    start: {phase: declare, variables: {trump: null}}\n"
                                 "    steps: [{expect: {variables: {trump: null}}}]\n")
    assert results[0] == ("unset trump", True, "")


def test_a_scenario_file_that_is_not_yaml_is_located(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(HEADER + "  - name: [unclosed\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as raised:
        run_file(path)
    assert str(raised.value).startswith(f"{path}:4:11: error[yaml-syntax]: YAML syntax: this `[` is not closed")
    assert "^" in str(raised.value)


def test_the_command_prints_a_located_yaml_error_once(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from interpreter.cli import cli

    path = tmp_path / "broken.yaml"
    path.write_text(HEADER + "  - name: [unclosed\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["test", str(path)])
    assert result.exit_code == 2 and result.stderr.startswith(f"{path}:4:11: error[yaml-syntax]")


@pytest.mark.parametrize(("step", "message"), [
    ("{expect: {zones: {melds: {t0: [2H 3H 4H]}}}}", "melds[t0] holds no meld, not 2H 3H 4H"),
    ("{expect: {counts: {melds: {t0: 2}}}}", "melds[t0] holds 0 melds, not 2"),
    ("{expect: {face_up: {melds: {t0: [2H]}}}}", "`melds` holds melds, not cards: expect them under `zones:`"),
    ("{expect: {zones: {melds: {t0: [2H 3H XX]}}}}", "XX"),
])
def test_a_zone_of_melds_is_counted_in_melds_and_listed_by_its_melds(tmp_path: Path, step: str, message: str) -> None:
    path = tmp_path / "melds.yaml"
    path.write_text(f"ruleset: {ROOT / 'rulesets' / 'burraco.yaml'}\nplayers: 4\ncases:\n"
                    f"  - name: melds\n    steps: [{step}]\n", encoding="utf-8")
    (result,) = run_file(path)
    assert not result.passed and message in result.message and "internal error" not in result.message


def test_an_unknown_key_of_the_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text(HEADER.replace("players: 4", "player: 4") + GOOD_CASE, encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"unknown key `player` in the scenario file \(did you mean `players`"):
        run_file(path)


def test_start_rest_puts_the_cards_not_placed_in_the_named_zone(tmp_path: Path) -> None:
    results = _results(tmp_path, "  - name: rest played\n"
                                 "    start: {phase: declare, zones: {hand: {p1: [AS]}, stock: [2C]}, rest: played}\n"
                                 "    steps: [{expect: {counts: {stock: 1, played: 50, hand: {p1: 1}}}}]\n")
    assert results[0] == ("rest played", True, "")


def test_start_teams_forms_the_teams_before_the_phase_runs() -> None:
    from interpreter import load_ruleset
    from interpreter.runners.scenarios import _Case

    game = load_ruleset(ROOT / "rulesets" / "variants" / "burraco_three_players.yaml")
    alone = _Case(game, {}, {"players": 3, "start": {"phase": "play"}})
    formed = _Case(game, {}, {"players": 3, "start": {"phase": "play", "teams": [["p2", "p0"]]}})
    assert alone.state.values["team_of"] == (0, 1, 2)
    assert formed.state.values["team_of"] == (2, 1, 2)  # the first seat's team, as `form_team` makes it


def test_start_places_melds_on_the_table_and_they_can_be_added_to(tmp_path: Path) -> None:
    path = tmp_path / "melds.yaml"
    path.write_text(f"ruleset: {ROOT / 'rulesets' / 'burraco.yaml'}\nplayers: 4\ncases:\n"
                    "  - name: placed\n"
                    "    start: {phase: play, zones: {hand: {p1: [10H, 3C, 4C]}, stock: [5D],"
                    " melds: {t1: [7H 8H 9H, KS KD JK]}}}\n"
                    "    steps:\n"
                    "      - p1 draw stock\n"
                    "      - p1 add 10H to m0\n"
                    "      - expect: {counts: {melds: {t1: 2, t0: 0}, hand: {p1: 3}}}\n"
                    "  - name: not a meld\n"
                    "    start: {phase: play, zones: {melds: {t1: [7H 9S 2C]}}}\n"
                    "    steps: [{expect: {phase: play}}]\n", encoding="utf-8")
    placed, refused = run_file(path)
    assert placed.passed, placed.message
    assert not refused.passed and "7H 9S 2C is not a meld of this ruleset" in refused.message


def test_a_case_that_starts_at_the_tricks_may_name_who_leads(tmp_path: Path) -> None:
    # BR-19: from the dealer's left (p1 here) unless the case says otherwise.
    start = ("start: {phase: tricks, dealer: p0, variables: {status: {p0: play, p1: play, p2: play, p3: play}, "
             "trump: S}, zones: {hand: {p0: [2S], p1: [3S], p2: [4S], p3: [5S]}}")
    results = _results(tmp_path, f"  - name: as the rules say\n    {start}}}\n"
                                 "    steps: [{expect: {current_player: p1}}]\n"
                                 f"  - name: named\n    {start}, leader: p2}}\n"
                                 "    steps: [{expect: {current_player: p2}}, p2 play 4S,"
                                 " {expect: {current_player: p3}}]\n")
    assert [(name, passed) for name, passed, _ in results[:2]] == [("as the rules say", True), ("named", True)], results


def test_a_case_sets_some_seats_of_a_variable_whose_initial_reads_another(tmp_path: Path) -> None:
    """docs/scenarios.md: the seats not given keep their `initial` values, and an `initial` may read other
    variables (it failed with "`chips` is not bound here" when worked out before the hand was set up)."""
    ruleset = tmp_path / "mini.yaml"
    ruleset.write_text("""format: 1
name: Initial values that read others
players: {min: 2, max: 2}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H, D, C]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
variables:
  - {name: chips, type: int, per: seat, initial: 5, lasts: match}
  - {name: out, type: bool, per: seat, initial: "chips[player] == 0 or player == dealer"}
hand:
  start: main
  phases:
    - name: main
      steps:
        - decide: next_seat(dealer)
          options:
            - choose: pass
      next: end
match:
  hands: 1
  result: chips[player]
""", encoding="utf-8")
    cases = tmp_path / "cases.yaml"
    cases.write_text(f"""ruleset: {ruleset}
cases:
  - name: one seat given, the other initial
    start: {{phase: main, dealer: p1, variables: {{out: {{p0: true}}}}}}
    steps:
      - expect: {{variables: {{out: {{p0: true, p1: true}}}}}}
""", encoding="utf-8")
    assert [(result.passed, result.message) for result in run_file(cases)] == [(True, "")]


def test_start_seating_places_the_seats_of_a_game_that_moves_them(tmp_path: Path) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text(f"ruleset: {ROOT / 'rulesets' / 'burraco.yaml'}\nplayers: 4\ncases:\n"
                    "  - name: seated\n    start: {phase: play, dealer: p0, seating: [p0, p3, p1, p2]}\n"
                    "    steps: [{expect: {current_player: p3, seating: [p0, p3, p1, p2],\n"
                    "                      teams: [[p0, p1], [p3, p2]]}}]\n"
                    "  - name: not every seat\n    start: {phase: play, seating: [p0, p3, p3, p2]}\n"
                    "    steps: [{expect: {phase: play}}]\n",
                    encoding="utf-8")
    results = [(result.name, result.passed, result.message) for result in run_file(path)]
    assert results[0] == ("seated", True, "")
    assert results[1][:2] == ("not every seat", False)
    assert "`seating` lists every seat of the table once" in results[1][2]


def test_expecting_a_phase_once_the_match_is_over_says_the_match_is_over(tmp_path: Path) -> None:
    """A case whose match ended (its one hand's last trick played) and that expects a phase is told the match is
    over, not that the phase is ''."""
    path = tmp_path / "cases.yaml"
    path.write_text(f"ruleset: {ROOT / 'tests' / 'games' / 'tiny.yaml'}\nplayers: 2\nparams: {{hands: 1}}\ncases:\n"
                    "  - name: over\n    start: {phase: play, zones: {hand: {p0: [2S], p1: [3S]}}, "
                    "variables: {trump: S}}\n    steps:\n      - p1 play 3S\n      - p0 play 2S\n"
                    "      - expect: {phase: play}\n", encoding="utf-8")
    [result] = run_file(path)
    assert not result.passed and "the match is over (no phase), not in phase 'play'" in result.message, result.message


def test_a_failing_case_is_located_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text(HEADER + GOOD_CASE + "\n  # a comment\n  - name: bad\n    steps: [p1 chose pass]\n",
                    encoding="utf-8")
    good, bad = run_file(path)
    assert (good.passed, good.line, bad.passed, bad.line) == (True, 4, False, 9)


def test_cards_a_failure_names_are_shown_by_suit_then_rank(tmp_path: Path) -> None:
    # (not as texts sort: `10H` before `7H`)
    case = ("  - name: zones\n    start: {phase: declare, zones: {hand: {p1: [10H, 7H, AS, 8H]}}}\n"
            "    steps: [{expect: {zones: {hand: {p1: [7H]}}}}]\n")
    results = _results(tmp_path, case)
    assert "holds [AS 7H 8H 10H]" in results[0][2], results[0]  # (Bourré's suits: S, H, D, C)


def test_a_failure_of_the_ruleset_in_a_case_names_its_place_in_the_ruleset_file(tmp_path: Path) -> None:
    ruleset = ROOT / "tests" / "unit" / "playout_files" / "fails_early.yaml"  # (the first card of an empty pile)
    path = tmp_path / "cases.yaml"
    path.write_text(f"ruleset: {ruleset}\nplayers: 2\ncases:\n  - name: fails\n    steps: [p0 choose go]\n",
                    encoding="utf-8")
    (result,) = run_file(path)
    assert not result.passed
    assert result.message == ("step 1 (p0 choose go): the ruleset failed: first() of an empty list (at "
                              f"hand.phases[0].steps[1].to) ({ruleset}:21:15)")



def test_cards_of_a_zone_may_be_given_as_one_text(tmp_path: Path) -> None:
    case = ("  - name: text\n    start: {phase: declare, zones: {hand: {p1: \"AS KH 2C\"}}}\n"
            "    steps: [{expect: {zones: {hand: {p1: \"2C AS KH\"}}}}]\n")
    assert _results(tmp_path, case)[0] == ("text", True, "")


def test_a_bundled_ruleset_is_named_alone_as_extends_names_it(tmp_path: Path) -> None:
    # (a house-rule player's cases beside their variant, for the shipped game: `ruleset: bourre`)
    path = tmp_path / "cases.yaml"
    path.write_text("ruleset: bourre\nplayers: 4\ncases:\n" + GOOD_CASE, encoding="utf-8")
    (result,) = run_file(path)
    assert result.passed, result.message
    (tmp_path / "bourre.yaml").write_text("not: a ruleset\n", encoding="utf-8")  # (a file of that name comes first)
    path.write_text("ruleset: bourre.yaml\nplayers: 4\ncases:\n" + GOOD_CASE, encoding="utf-8")
    with pytest.raises(ScenarioError, match="cannot be loaded"):
        run_file(path)


def test_a_misspelt_bundled_ruleset_is_offered_the_one_meant(tmp_path: Path) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text("ruleset: bouree\nplayers: 4\ncases:\n" + GOOD_CASE, encoding="utf-8")
    with pytest.raises(ScenarioError, match="did you mean the bundled `bourre`"):
        run_file(path)
