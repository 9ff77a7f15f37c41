"""Validation that plays (`ruledeck validate --playouts N`): dead ends, runaway matches and options or phases
never reached, each finding with its seed and located in the ruleset; failing matches as scenario cases."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter import load_ruleset
from interpreter.cli import cli
from interpreter.runners.playouts import run_playouts
from interpreter.runners.scenarios import run_file
from tests.cli_helpers import run_apart

ROOT = Path(__file__).resolve().parents[2]
FILES = Path(__file__).parent / "playout_files"


def test_a_must_follow_rule_without_escape_when_void_is_found_as_a_dead_end_with_its_seed() -> None:
    report = run_playouts(load_ruleset(FILES / "dead_end.yaml"), 2, seconds=60)
    (finding,) = report.findings  # one per place, the other matches counted in the hint
    assert finding.code == "playout-dead-end" and finding.severity == "error"
    # (each card refused on a line of its own, as a note: a message listing them all was cut short)
    assert finding.message.startswith("p") and "has no legal action (seed" in finding.message
    assert finding.notes and all(note.startswith("refused: ") and note.endswith("you must follow suit")
                                 for note in finding.notes)
    assert all(f"  note: {note}" in finding.render() for note in finding.notes)
    assert "(seed 1, 3 players, after 5 actions)" in finding.message
    assert finding.location is not None and finding.location.line == 26  # the trick step of dead_end.yaml
    assert finding.hint is not None and "--bots random --players 3 --seed 1" in finding.hint
    assert f"replay: ruledeck play {FILES / 'dead_end.yaml'} --bots" in finding.hint  # (the file, not FILE)
    assert "3 other matches too (seed 1, 4 players / seed 2, 3 players / seed 2, 4 players)" in finding.hint
    assert report.played == report.planned == 4


@pytest.mark.parametrize("ruleset", ["rulesets/bourre.yaml", "rulesets/variants/dealer_may_not_pass.yaml",
                                     "rulesets/variants/spades_trumps.yaml", "tests/games/tiny.yaml"])
def test_the_shipped_rulesets_have_no_dead_end(ruleset: str) -> None:
    report = run_playouts(load_ruleset(ROOT / ruleset), 1, seconds=60)
    assert [f for f in report.findings if f.severity == "error"] == []


def test_a_match_past_its_bound_of_actions_is_reported_against_the_match_section() -> None:
    report = run_playouts(load_ruleset(ROOT / "tests" / "games" / "tiny.yaml"), 1, seconds=60, max_actions=4)
    codes = {finding.code for finding in report.findings if finding.severity == "error"}
    assert codes == {"playout-runaway"}
    assert all(f.yaml_path == "match" for f in report.findings if f.code == "playout-runaway")


def test_options_and_phases_never_reached_are_warnings_located_at_them() -> None:
    report = run_playouts(load_ruleset(FILES / "unreached.yaml"), 2, seconds=60)
    shown = {(f.severity, f.message, f.yaml_path) for f in report.findings}
    assert shown == {("warning", "no match entered the phase `bonus`", "hand.phases[1]"),
                     ("warning", "no match took the option `never`", "hand.phases[0].steps[0].options[1]")}


def test_a_hand_order_that_cannot_be_worked_out_is_a_warning_located_at_it() -> None:
    report = run_playouts(load_ruleset(FILES / "hand_order_unset.yaml"), 8, seconds=60)
    (finding,) = report.findings  # (once the suit is chosen, the order holds: p1's hand is arranged)
    assert (finding.code, finding.severity, finding.yaml_path) == ("playout-hand-order", "warning", "show.hand_order")
    assert "the hand of p0 cannot be put in `show.hand_order` here: `chosen` is read before" in finding.message
    assert "(seed 1, 2 players, after 0 actions)" in finding.message
    assert finding.location is not None and finding.location.line == 14
    assert finding.hint is not None and "--human 0 --bots random --players 2 --seed 1" in finding.hint
    assert "7 other matches too" in finding.hint  # (one finding for the place, the others counted)
    assert report.failing == []  # (the matches themselves played to their end)


def test_nothing_is_said_never_reached_when_matches_stopped_on_a_failure() -> None:
    report = run_playouts(load_ruleset(FILES / "fails_early.yaml"), 2, seconds=60)
    assert [finding.code for finding in report.findings] == ["playout-failure"]  # (not: phase `second` unreached)
    assert len(report.failing) == report.played == 2


def test_a_match_without_decisions_is_seen_entering_its_phases() -> None:
    # (it is played whole as it starts: its phase was reported as never entered)
    report = run_playouts(load_ruleset(FILES / "no_decisions.yaml"), 2, seconds=60)
    assert report.played == 2 and report.findings == []


def test_a_cut_short_run_makes_no_claim_about_what_never_occurs() -> None:
    report = run_playouts(load_ruleset(FILES / "unreached.yaml"), 50, seconds=0)
    assert report.played == 1 < report.planned and report.findings == []


def test_validate_playouts_fails_the_file_and_writes_cases_that_replay_the_dead_end(tmp_path: Path) -> None:
    cases = tmp_path / "cases.yaml"
    result = CliRunner().invoke(cli, ["validate", "--playouts", "1", "--cases", str(cases),
                                      str(FILES / "dead_end.yaml")])
    assert result.exit_code == 1
    assert "error[playout-dead-end]" in result.stdout
    outcomes = run_file(cases)
    assert len(outcomes) == 2 and not any(outcome.passed for outcome in outcomes)
    assert all("has no legal action" in (outcome.message or "") for outcome in outcomes)


@pytest.mark.parametrize("checked_before", [False, True])
def test_a_file_is_said_ok_only_once_its_playouts_found_nothing(checked_before: bool) -> None:
    # (`validate` keeps a file found free of errors: the second run answers the checks from that)
    dead_end, clean = str(FILES / "dead_end.yaml"), str(FILES / "no_decisions.yaml")
    if checked_before:
        assert CliRunner().invoke(cli, ["validate", dead_end, clean]).exit_code == 0
    result = CliRunner().invoke(cli, ["validate", "--playouts", "1", dead_end, clean])
    assert result.exit_code == 1
    assert f"{dead_end}: ok" not in result.stdout  # (its checks pass; its playouts do not)
    assert result.stdout.index("error[playout-dead-end]") < result.stdout.index(f"{clean}: ok")


def test_cases_are_never_written_over_a_file_that_holds_something_else(tmp_path: Path) -> None:
    ruleset = tmp_path / "dead_end.yaml"
    ruleset.write_bytes((FILES / "dead_end.yaml").read_bytes())
    result = CliRunner().invoke(cli, ["validate", "--playouts", "1", "--cases", str(ruleset), str(ruleset)])
    assert result.exit_code == 2 and "holds something else than cases `--cases` wrote" in result.stderr
    assert ruleset.read_bytes() == (FILES / "dead_end.yaml").read_bytes()
    cases = tmp_path / "cases.yaml"
    for _ in range(2):  # (cases an earlier run wrote are written again)
        result = CliRunner().invoke(cli, ["validate", "--playouts", "1", "--cases", str(cases), str(ruleset)])
        assert result.exit_code == 1 and "failing matches written to" in result.stderr, result.output


def test_cases_that_cannot_be_written_are_said_before_any_playout(tmp_path: Path) -> None:
    for path, message in ((str(tmp_path / "no such folder" / "cases.yaml"), "there is no folder"),
                          ("/dev/null", "is not a file"), ("", "give a file name")):
        result = CliRunner().invoke(cli, ["validate", "--playouts", "1", "--cases", path,
                                          str(FILES / "dead_end.yaml")])
        assert result.exit_code == 2 and message in result.stderr, result.output
        assert "playouts" not in result.stderr  # (refused before any match was played)


def test_a_spent_budget_ends_the_whole_run_however_many_playouts_were_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import interpreter.runners.playouts as playouts

    clock = iter(range(10**9))  # (a second passes at every look at the clock)
    looks: list[int] = []
    monkeypatch.setattr(playouts.time, "monotonic", lambda: looks.append(1) or float(next(clock)))
    report = run_playouts(load_ruleset(FILES / "dead_end.yaml"), 10**6, seconds=1.5)
    assert report.played == 1 < report.planned and len(looks) == 3  # (the start, a playout, the end)


def test_a_budget_of_seconds_that_is_no_number_is_refused() -> None:
    result = CliRunner().invoke(cli, ["validate", "--playouts", "1", "--playout-seconds", "nan",
                                      str(FILES / "dead_end.yaml")])
    assert result.exit_code == 2 and "--playout-seconds: give a number of seconds, not nan" in result.stderr


@pytest.mark.parametrize(("options", "message"), [
    (["--playout-seconds", "5"], "--playout-seconds needs --playouts N (it is the time budget of the playouts, and "
                                 "none are played without it)"),
    (["--playout-seconds", "60"], "--playout-seconds needs --playouts N"),  # (its default, given: still ignored)
    (["--playouts", "0", "--playout-seconds", "5"], "--playout-seconds needs --playouts N"),
    (["--cases", "CASES"], "--cases needs --playouts N (it writes the matches that failed in the playouts, and "
                           "none are played without it)"),
    (["--playouts", "0", "--cases", "CASES"], "--cases needs --playouts N"),
], ids=["seconds", "seconds-as-default", "seconds-with-playouts-0", "cases", "cases-with-playouts-0"])
def test_the_options_of_the_playouts_without_playouts_are_a_usage_error(
        options: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = tmp_path / "cases.yaml"
    arguments = [str(cases) if option == "CASES" else option for option in options]
    code, out, err = run_apart(["validate", *arguments, str(FILES / "dead_end.yaml")], capsys)
    assert code == 2 and out == "", (code, out, err)
    assert message in err and "Traceback" not in err
    assert not cases.exists()  # (nothing checked, played or written)


def test_the_options_of_the_playouts_are_taken_with_playouts(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    clean = str(FILES / "no_decisions.yaml")
    assert run_apart(["validate", clean], capsys)[0] == 0  # (neither given: no playouts, no complaint)
    code, out, err = run_apart(["validate", "--playouts", "1", "--playout-seconds", "30", "--cases",
                                str(tmp_path / "cases.yaml"), clean], capsys)
    assert code == 0 and f"{clean}: ok" in out and "needs --playouts" not in err, (code, out, err)


def test_matches_stopped_by_the_hand_cap_are_counted_and_said(tmp_path: Path) -> None:
    """A match whose end random bots never reach (here `hands` past the cap) stops at the hand cap: the run says
    so beside its count of playouts, where a designer would otherwise see nothing (a note, not a finding)."""
    variant = tmp_path / "capped.yaml"
    tiny = Path(__file__).resolve().parents[1] / "games" / "tiny.yaml"
    variant.write_text(f"extends: {tiny}\nname: Tiny, capped\nparams:\n  hands: {{default: 5}}\n"
                       "match:\n  hand_cap: 2\n", encoding="utf-8")
    report = run_playouts(load_ruleset(variant), 2, seconds=60)
    assert report.capped == report.played == 2 * 3 and not report.findings
    result = CliRunner().invoke(cli, ["validate", "--playouts", "2", str(variant)])
    assert result.exit_code == 0 and "6 playouts (every one stopped at the hand cap: random bots never reached the " \
        "match's end)" in result.stderr
    plain = run_playouts(load_ruleset(tiny), 1, seconds=60)
    assert plain.capped == 0


def test_the_replay_hint_gives_the_parameters_the_run_was_given(tmp_path: Path) -> None:
    """A failure found with `--set` is replayed with the same parameters: the hint names those that are not their
    defaults (without them, `play` would play another match)."""
    variant = tmp_path / "failing.yaml"
    tiny = Path(__file__).resolve().parents[1] / "games" / "tiny.yaml"
    variant.write_text(f"extends: {tiny}\nname: Tiny, failing\nparams:\n  hands: {{default: 1}}\n"
                       "  strict: {type: bool, default: false, description: fails}\n"
                       "define:\n  winning: 'if params.strict and size(trick) == 2 then first([c for c in trick if "
                       "false]) else trick_winner(trick, trump)'\n", encoding="utf-8")
    assert not run_playouts(load_ruleset(variant), 1, seconds=60).findings
    report = run_playouts(load_ruleset(variant, {"strict": True, "hands": 2}), 1, seconds=60)
    hint = report.findings[0].hint or ""
    assert "--seed 1 --set hands=2 --set strict=true;" in hint, hint


def test_a_hand_that_never_ends_is_reported_at_its_phase() -> None:
    report = run_playouts(load_ruleset(FILES / "runaway_hand.yaml"), 1, seconds=60, max_actions=3_000)
    (finding,) = report.findings
    assert (finding.code, finding.yaml_path) == ("playout-runaway", "hand.phases[0]")
    assert finding.message.startswith("hand 1 ran for 3,000 actions without ending, in the phase `main`")
    assert finding.hint is not None and "whose `until` never holds" in finding.hint


def test_an_option_the_parameters_turn_off_is_not_said_never_reached() -> None:
    # BR-40's question after each card is asked only with `reneges` and `correct_reneges` (bourre.yaml: an `if`
    # step on both): with the defaults the rules never offer it, so the playouts make no claim about it.
    from interpreter.runners.playouts import _off_by_parameters

    question = "hand.phases[4].steps[0].after_card[0].then[1].options[1]"
    bourre = ROOT / "rulesets" / "bourre.yaml"
    assert _off_by_parameters(load_ruleset(bourre), question)
    assert not _off_by_parameters(load_ruleset(bourre, {"reneges": True, "correct_reneges": True}), question)
    report = run_playouts(load_ruleset(bourre, {"hands": 1}), 2, seconds=60)
    assert not [d for d in report.findings if d.yaml_path == question]
