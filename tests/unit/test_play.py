"""`ruledeck play`: a whole match from the command line, its transcript, JSON result, log and replay; bad
arguments get one line naming what is allowed, and exit 2."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from interpreter.cli import cli, main
from interpreter.runners.integrity import signed
from interpreter.runners.replay import replay
from tests.log_helpers import rechained

ROOT = Path(__file__).resolve().parents[2]
BOURRE = str(ROOT / "rulesets" / "bourre.yaml")
BURRACO = str(ROOT / "rulesets" / "burraco.yaml")


def _run(*arguments: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(arguments), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_a_match_is_played_with_a_readable_transcript() -> None:
    code, out, _ = _run("play", BOURRE, "--players", "5", "--seed", "4", "--set", "hands=2")
    assert code == 0
    assert out.startswith("Bourré: 5 players, seed 4 (replay with --seed 4 --players 5 --set hands=2)")
    assert "-- Hand 1, dealer p0 --" in out and "-- Hand 2, dealer p1 --" in out
    assert "trumps are" in out and "wins the trick" in out
    assert "Match over after 2 hands:" in out


def test_the_replay_hint_names_everything_that_decides_the_match() -> None:
    # The table and the bots decide the match as much as the seed: the hint left them out, and the command it
    # gave played another match (three players, the default bots).
    code, out, _ = _run("play", BOURRE, "--players", "3", "--bots", "random,heuristic,random", "--seed", "9",
                        "--set", "hands=1")
    assert code == 0
    hint = re.search(r"\(replay with (.*)\)", out.splitlines()[0])
    assert hint is not None and hint.group(1) == "--seed 9 --players 3 --bots random,heuristic,random --set hands=1"
    again_code, again, _ = _run("play", BOURRE, *hint.group(1).split())
    assert again_code == 0 and again == out


def test_a_hands_header_names_the_dealer_its_first_steps_pick(tmp_path: Path) -> None:
    # BU-05: before the first hand each player draws a card and the lowest deals: the header of hand 1 names that
    # seat, not the seat that was to deal before the draw (it said "dealer p0", then "The dealer is p3").
    log = tmp_path / "match.jsonl"
    code, out, _ = _run("play", BURRACO, "--seed", "5", "--set", "hand_cap=1", "--log", str(log))
    assert code == 0
    drawn = re.search(r"The dealer is (p\d)\.", out)
    assert drawn is not None and drawn.group(1) != "p0"
    assert f"-- Hand 1, dealer {drawn.group(1)} --" in out and "-- Hand 1, dealer p0 --" not in out
    assert out.index("-- Hand 1,") < out.index("draws") < out.index("The dealer is")  # (in the order played)
    replayed = CliRunner().invoke(cli, ["replay", str(log)])
    assert f"-- Hand 1, dealer {drawn.group(1)} --" in replayed.stdout


def test_the_same_seed_plays_the_same_match() -> None:
    first = _run("play", BOURRE, "--seed", "9", "--set", "hands=2", "--bots", "random")
    second = _run("play", BOURRE, "--seed", "9", "--set", "hands=2", "--bots", "random")
    assert first == second and first[0] == 0


def test_json_result() -> None:
    code, out, _ = _run("play", BOURRE, "--players", "3", "--seed", "1", "--set", "hands=3", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["players"] == 3 and result["hands"] == 3 and len(result["returns"]) == 3
    assert len(result["hand_results"]) == 3
    assert '"ruleset": "Bourré"' in out  # UTF-8 text, not an escape


def test_the_log_is_a_replayable_record(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    code, out, _ = _run("play", BOURRE, "--players", "4", "--seed", "2", "--set", "hands=2", "--log", str(log),
                        "--json")
    assert code == 0
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["type"] == "match" and lines[-1]["type"] == "result"
    assert '"ruleset": "Bourré"' in log.read_text(encoding="utf-8").splitlines()[-1]
    state = replay(log)
    assert state.is_terminal and state.returns() == json.loads(out)["returns"]


def test_a_log_cut_short_replays_its_prefix(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    _run("play", BOURRE, "--players", "4", "--seed", "2", "--set", "hands=1", "--log", str(log), "--json")
    lines = log.read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:25]) + "\n" + lines[25][:10], encoding="utf-8")
    state = replay(cut)
    assert not state.is_terminal
    assert len(state.history) == sum(1 for line in lines[:25] if json.loads(line)["type"] == "action")


def test_bad_arguments_exit_2_naming_what_is_allowed() -> None:
    code, _, err = _run("play", BOURRE, "--players", "9")
    assert code == 2 and "Bourré is for 2 to 8 players, not 9" in err
    code, _, err = _run("play", BURRACO, "--players", "5")
    assert code == 2 and "Burraco is for 4 players, not 5" in err  # (not "for 4 to 4")
    code, _, err = _run("play", "burraco", "--players", "3")  # (BU-52: a bundled variant seats three)
    assert code == 2 and "Burraco is for 4 players, not 3 (the bundled variant `burraco_three_players` is for 3)" \
        in err
    code, _, err = _run("play", BOURRE, "--bots", "genius")
    assert code == 2 and "unknown bot 'genius'; bots: random, heuristic, search" in err
    code, _, err = _run("play", BOURRE, "--bots", "heuristic,random,random,random,random")
    assert code == 2 and "--bots: 5 kinds for 7 players: give one bot kind, or 7 (one per seat), or --players 5;" \
        in err
    code, _, err = _run("play", BOURRE, "--players", "3", "--bots", "random,random")
    assert code == 2 and "--bots: 2 kinds for 3 players: give one bot kind, or 3 (one per seat);" in err
    code, _, err = _run("play", BOURRE, "--set", "pot_limit=0")
    assert code == 2 and "pot_limit: 0 is out of range: allowed an integer of at least 1, or null" in err
    code, _, err = _run("play", BOURRE, "--players", "3", "--human", "5")
    assert code == 2 and "--human: seats are 0 to 2" in err


def test_a_person_plays_a_seat_and_sees_only_their_view(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    answers = "\n".join(["1"] * 200) + "\n"
    code, out, _ = _run("play", BOURRE, "--players", "3", "--seed", "5", "--set", "hands=1", "--human", "0",
                        "--bots", "random", stdin=answers)
    assert code == 0
    assert out.startswith("Bourré: 3 players, you are p0. The full log of the match, with every shuffle and so "
                          "every seat's cards, is written to bourre-5.jsonl: it is the record of the match, not "
                          "for the players")
    assert "seed" not in out.split("\n", 1)[0]  # (the seed gives every shuffle)
    assert "The match is on record in bourre-5.jsonl: `ruledeck replay bourre-5.jsonl` plays it again." in out
    assert replay(tmp_path / "bourre-5.jsonl").is_terminal
    assert "You are p0." in out and "Your hand (" in out
    hands = [line for line in out.splitlines() if line.startswith("Hands: ")]
    assert hands and all("p1 " in line and "p0" not in line for line in hands)
    for line in hands:  # the other hands show as counts (and face-up cards), never their cards
        for part in line.removeprefix("Hands: ").split(" · "):
            assert re.fullmatch(r"p[12] [0-9]+ cards?(, face up: .*)?", part), part


def test_a_person_can_stop_and_the_log_is_kept(tmp_path: Path) -> None:
    log = tmp_path / "stopped.jsonl"
    code, _, err = _run("play", BOURRE, "--players", "3", "--seed", "5", "--human", "1", "--log", str(log),
                        stdin="q\n")
    assert code == 130 and "Stopped." in err
    assert replay(log).history == []


def test_a_person_who_stops_without_a_log_finds_the_match_kept_and_goes_on_with_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = _run("play", BOURRE, "--players", "3", "--seed", "5", "--set", "hands=2", "--human", "1",
                        "--bots", "random", stdin="?\n1\nq\n")
    assert code == 130
    assert "Stopped. The match so far is in bourre-5.jsonl: go on with `ruledeck play --resume bourre-5.jsonl`" \
        in err
    stopped = replay(tmp_path / "bourre-5.jsonl")
    assert len([a for a in stopped.history if a.seat == 1]) == 1  # the one move the person made is kept
    code, out, _ = _run("play", "--resume", "bourre-5.jsonl", "--human", "1", "--bots", "random",
                        stdin="1\n" * 200)
    assert code == 0, out
    assert out.startswith(f"Bourré: 3 players, you are p1, resumed from bourre-5.jsonl at hand "
                          f"{stopped.values['hand_number']} after {len(stopped.history)} actions")
    assert "Match over after 2 hands" in out
    finished = replay(tmp_path / "bourre-5.jsonl")
    assert finished.is_terminal and finished.history[:len(stopped.history)] == stopped.history


def test_a_resumed_match_keeps_its_person_at_their_seat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (`--human 0` moved the person of p1 to p0, and gave their seat to a bot, with no word of it)
    monkeypatch.chdir(tmp_path)
    code, _, _ = _run("play", BOURRE, "--players", "3", "--seed", "5", "--human", "1", stdin="q\n")
    assert code == 130
    kept = (tmp_path / "bourre-5.jsonl").read_text(encoding="utf-8")
    code, _, err = _run("play", "--resume", "bourre-5.jsonl", "--human", "0", "--bots", "random", stdin="q\n")
    assert code == 2 and "the person of bourre-5.jsonl plays p1, whose seat stays theirs: resume without --human" \
        in err
    assert (tmp_path / "bourre-5.jsonl").read_text(encoding="utf-8") == kept  # (nothing written)


def test_the_end_of_input_stops_like_q_and_help_explains(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = _run("play", BOURRE, "--players", "3", "--seed", "5", "--human", "1", stdin="?\n")
    assert code == 130 and "`q` stops the match" in out
    assert "Stopped. The match so far is in bourre-5.jsonl" in err


def test_a_resumed_match_shuffles_on_as_the_uninterrupted_one(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    code, _, _ = _run("play", BOURRE, "--players", "4", "--seed", "3", "--set", "hands=3", "--bots", "random",
                      "--log", str(whole), "--json")
    assert code == 0
    lines = whole.read_text(encoding="utf-8").splitlines()
    cut_at = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "hand_end") + 1
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:cut_at]) + "\n", encoding="utf-8")
    code, _, _ = _run("play", "--resume", str(cut), "--bots", "random", "--json")
    assert code == 0

    def chances(path: Path) -> list[list[str]]:
        events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[cut_at:]]
        return [event["order"] for event in events if event["type"] == "chance"]

    assert chances(cut)[0] == chances(whole)[0]  # the second hand's shuffle, from the same generator


def test_resume_takes_everything_from_the_log(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    _run("play", BOURRE, "--players", "3", "--seed", "2", "--set", "hands=1", "--log", str(log), "--json")
    code, _, err = _run("play", BOURRE, "--resume", str(log))
    assert code == 2 and "the log gives the ruleset, players, seed and parameters" in err
    code, _, err = _run("play", "--resume", str(log))
    assert code == 2 and "is over" in err
    code, _, err = _run("play")
    assert code == 2 and "give a RULESET to play, or --resume FILE.jsonl" in err


def _full_log(tmp_path: Path, hands: int = 2) -> tuple[Path, list[str]]:
    log = tmp_path / "full.jsonl"
    code, _, _ = _run("play", BOURRE, "--players", "3", "--seed", "8", "--set", f"hands={hands}", "--bots", "random",
                      "--log", str(log), "--json")
    assert code == 0
    return log, log.read_text(encoding="utf-8").splitlines()


def test_resuming_a_log_whose_last_line_was_cut_off_keeps_it_readable(tmp_path: Path) -> None:
    _, lines = _full_log(tmp_path)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:40]) + "\n" + lines[40][:15], encoding="utf-8")  # a line cut in writing
    code, _, _ = _run("play", "--resume", str(cut), "--bots", "random", "--json")
    assert code == 0
    resumed = cut.read_text(encoding="utf-8").splitlines()
    assert resumed[:40] == lines[:40] and all(json.loads(line) for line in resumed)
    assert replay(cut).is_terminal


def test_a_resumed_match_writes_the_events_its_log_missed(tmp_path: Path) -> None:
    _, lines = _full_log(tmp_path)
    # Cut right after the action that ends the first hand: its log lines and `hand_end` never reached the log.
    end = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "hand_end")
    last_action = max(i for i in range(end) if json.loads(lines[i])["type"] == "action")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:last_action + 1]) + "\n", encoding="utf-8")
    code, out, _ = _run("play", "--resume", str(cut), "--bots", "random")
    assert code == 0 and "After hand 1:" in out
    resumed = [json.loads(line) for line in cut.read_text(encoding="utf-8").splitlines()]
    assert [event["type"] for event in resumed[:end + 1]] == [json.loads(line)["type"] for line in lines[:end + 1]]
    assert len(replay(cut).events) == len(resumed) - 2  # every event but the header and the result


def test_a_resumed_match_gives_the_person_their_seat_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _run("play", BOURRE, "--players", "3", "--seed", "5", "--human", "2", "--bots", "random", stdin="1\nq\n")
    code, out, err = _run("play", "--resume", "bourre-5.jsonl", "--bots", "random", stdin="q\n")
    assert code == 130 and "You are p2." in out and "go on with `ruledeck play --resume bourre-5.jsonl`" in err


def test_a_match_that_cannot_be_logged_here_is_logged_in_the_temporary_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import interpreter.cli_logs as logs

    monkeypatch.chdir(tmp_path)
    elsewhere = tmp_path / "temporary"
    elsewhere.mkdir()
    monkeypatch.setattr(logs.tempfile, "gettempdir", lambda: str(elsewhere))
    opening = logs.locked_log

    def unwritable_here(path: str) -> Any:
        if Path(path).parent != elsewhere:
            raise PermissionError(13, "Permission denied")
        return opening(path)

    monkeypatch.setattr(logs, "locked_log", unwritable_here)
    code, out, err = _run("play", BOURRE, "--players", "3", "--seed", "5", "--human", "1", stdin="q\n")
    assert code == 130 and f"is written to {elsewhere / 'bourre-5.jsonl'}" in out
    assert f"The match so far is in {elsewhere / 'bourre-5.jsonl'}" in err
    assert replay(elsewhere / "bourre-5.jsonl").history == []
    monkeypatch.setattr(logs.tempfile, "gettempdir", lambda: str(tmp_path / "none"))
    code, out, err = _run("play", BOURRE, "--players", "3", "--seed", "5", "--human", "1", stdin="q\n")
    assert code == 2 and "the match could not be logged" in err and "give --log FILE.jsonl" in err


def test_a_log_moved_with_its_ruleset_is_resumed(tmp_path: Path) -> None:
    _, lines = _full_log(tmp_path)
    moved = tmp_path / "moved"
    moved.mkdir()
    (moved / "bourre.yaml").write_text(Path(BOURRE).read_text(encoding="utf-8"), encoding="utf-8")
    header = json.loads(lines[0])
    header["ruleset"] = "/no/such/folder/bourre.yaml"
    (moved / "match.jsonl").write_text("\n".join([json.dumps(header), *lines[1:30]]) + "\n", encoding="utf-8")
    assert len(replay(moved / "match.jsonl").history) == sum(json.loads(x)["type"] == "action" for x in lines[1:30])


def _edited(header_line: str, **fields: Any) -> str:
    """A header line with fields changed and its digest worked out again (as a deliberate edit would)."""
    header = {key: value for key, value in json.loads(header_line).items() if key != "digest"}
    return json.dumps(signed({**header, **fields}))


@pytest.mark.parametrize(("damage", "message"), [
    (lambda lines: [lines[0], "[1, 2]", *lines[2:]], "line 2 is not an event of a ruledeck log"),
    (lambda lines: [lines[0], '{"type": "chance"}', *lines[2:]], "line 2 is not an event of a ruledeck log"),
    (lambda lines: [lines[0], "not json", *lines[2:]], "line 2 is not JSON"),
    (lambda lines: [lines[0].replace('"seed": 8', '"seed": "x"'), *lines[1:]], "line 1 is not an event"),
    (lambda lines: rechained([_edited(lines[0], players=9), *lines[1:]]), "is for 2 to 8 players, not 9"),
    (lambda lines: [lines[0].replace('"players": 3', '"players": 9'), *lines[1:]], "line 1, the header, was edited"),
    (lambda lines: rechained([line.replace('"action": "p', '"action": "q') for line in lines]),
     ": the logged action `q"),
    (lambda lines: [line.replace('"action": "p', '"action": "q') for line in lines], "line 6 was edited"),
])
def test_a_damaged_log_is_refused_saying_which_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    damage: Any, message: str) -> None:
    _, lines = _full_log(tmp_path, hands=2)
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(damage(lines)) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        main(["play", "--resume", str(broken)])
    err = capsys.readouterr().err
    assert exited.value.code == 1 and f"error: {broken}: " in err and message in err, err


def test_a_person_sees_seats_in_variables_as_p1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    euchre = str(ROOT / "tests" / "games" / "euchre.yaml")
    # p1 orders the turn-up alone (its third choice), then plays on
    code, out, _ = _run("play", euchre, "--human", "1", "--bots", "random", "--seed", "4", stdin="3\n" + "1\n" * 8)
    assert code == 130  # the input ends before the match: it is kept in euchre-4.jsonl
    assert "Maker: p1\nMaker plays alone: yes" in out, out


def test_the_end_of_a_match_shows_the_rulesets_metrics_as_simulate_measures_them() -> None:
    from interpreter.runners.simulate import Job, play_one

    code, out, _ = _run("play", BOURRE, "--players", "5", "--seed", "4", "--set", "hands=3", "--bots", "random")
    assert code == 0
    line = out.splitlines()[-1]
    assert line.startswith("Metrics, mean per hand over 3 hands: pot after the hand ")
    record = play_one(Job(BOURRE, (("hands", "3"),), 5, ("random",)), 4)  # the same match, as simulate plays it
    means = [float(value.replace(",", "")) for value in re.findall(r" (-?[\d,.]+)(?=[,;])", line.split(":", 1)[1])]
    assert means == pytest.approx([round(value, 2) for value in record.metric_means])
    assert line.endswith(f"; at the match's end: pot after the hand {record.metric_last[0]:,.0f}.")
    code, out, _ = _run("play", str(ROOT / "tests" / "games" / "whist.yaml"), "--seed", "4", "--bots", "random")
    assert code == 0 and "Metrics" not in out  # (a ruleset without metrics)


def test_a_choice_named_without_choose_is_taken_or_pointed_to(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # A person who types a choice's name (`play`, as the moves list it after `choose`) is told the moves meant;
    # one that names a single move (`pass`) has it taken.
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run("play", BOURRE, "--players", "3", "--seed", "5", "--human", "0", "--bots", "random",
                        stdin="play\npass\nq\n")
    assert code == 130  # (stopped with `q`: the match is kept in its log)
    assert "(did you mean 2 `choose play discard 0` or 3 `choose play discard 1` or 4 `choose play discard 2` " \
        "...?)" in out, out
    assert "\np0 choose pass\n" in out


def test_the_action_the_rules_fail_after_is_in_the_transcript_and_the_log(tmp_path: Path) -> None:
    # (fails_early.yaml fails on the first card of an empty pile, in the steps after p0's choice)
    from interpreter import load_ruleset
    from interpreter.agents import make_agent
    from interpreter.engine.errors import RulesetRuntimeError
    from interpreter.runners.play import play_match
    game = load_ruleset(ROOT / "tests" / "unit" / "playout_files" / "fails_early.yaml")
    lines: list[str] = []
    with (tmp_path / "log.jsonl").open("w", encoding="utf-8") as log, pytest.raises(RulesetRuntimeError):
        play_match(game, players=2, seed=1, choosers=[make_agent("random", 1).choose] * 2, on_line=lines.append,
                   log=log)
    assert lines[-1] == "p0 choose go"
    assert '"action": "p0 choose go"' in (tmp_path / "log.jsonl").read_text(encoding="utf-8").splitlines()[-1]


def test_a_number_that_is_also_a_choices_value_is_asked_about(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # The declaration (BR-09, BR-10) lists `choose play discard 1` as move 3 and `choose play discard 3` as move 5:
    # a person typing 3 may mean either, and is asked; `#3` is move 3 of the list.
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run("play", BOURRE, "--players", "3", "--seed", "5", "--human", "0", "--bots", "random",
                        stdin="3\n#3\nq\n")
    assert code == 130
    assert "3 is move 3 on the list, and a value of other moves: answer #3 for `choose play discard 1`, or " \
        "#5 `choose play discard 3`" in out, out
    assert "\np0 choose play discard 1\n" in out
    # A move of another kind listed under the number (`pass`, move 1) is taken as listed.
    code, out, _ = _run("play", BOURRE, "--players", "3", "--seed", "5", "--human", "0", "--bots", "random",
                        stdin="1\nq\n")
    assert "\np0 choose pass\n" in out and "is move 1 on the list" not in out


def test_a_number_no_move_has_picks_the_choice_of_that_value() -> None:
    from interpreter import load_ruleset
    from interpreter.runners.human import human_chooser

    # Blinds of 5 and 10: the first to act may raise by 10, with three moves listed.
    state = load_ruleset(ROOT / "tests" / "games" / "texas_holdem.yaml",
                         {"small_blind": 5, "big_blind": 10}).new_initial_state(seed=5)
    while state.current_player < 0:
        state.apply_chance()
    legal = [state.action_text(action) for action in state.legal_actions()]
    raises = [text for text in legal if " raise by " in text and int(text.rsplit(" ", 1)[1]) > len(legal)]
    raised = raises[0]
    value = raised.rsplit(" ", 1)[1]
    answers = iter([value])
    chosen = human_chooser(state.current_player, lambda _text: next(answers))(state)
    assert state.action_text(chosen) == raised


@pytest.mark.parametrize("seed", [2, 5])
def test_the_transcript_tells_the_antes_and_who_is_excused(seed: int) -> None:
    # A player saw "The pot is now 10", then the next hand's table with 13 in the pot, and no word of the antes.
    # BR-04/BR-05: every player antes 1 but the previous deal's bourré players and those who tied in a split pot.
    code, out, _ = _run("play", BOURRE, "--players", "4", "--seed", str(seed), "--set", "hands=6", "--bots",
                        "random")
    assert code == 0
    hands = out.split("-- Hand ")[1:]
    pot = 0
    excused_somewhere = False
    for hand in hands:
        lines = [line.strip() for line in hand.splitlines()]
        excused = [line for line in lines if line.endswith("is excused from the ante (BR-05)")]
        excused_somewhere = excused_somewhere or bool(excused)
        (antes,) = [line for line in lines if line.startswith("The antes are in: the pot is ")]
        assert int(antes.rsplit(" ", 1)[1]) == pot + 4 - len(excused), hand
        after = [line for line in lines if line.startswith("The pot is now ")]
        pot = int(after[-1].rsplit(" ", 1)[1]) if after else 0
    assert len(hands) == 6 and excused_somewhere
