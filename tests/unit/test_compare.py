"""`ruledeck simulate`'s statistics and `ruledeck compare`: the text, the JSON, the pairs of matches on the same
seeds, plots, and Ctrl-C (a real SIGINT to a real process)."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import cli
from interpreter.runners.comparison import compare
from interpreter.runners.simulate import Job, simulate
from tests.cli_helpers import failing_now_and_then, interruptible, run_apart

ROOT = Path(__file__).resolve().parents[2]
BOURRE = str(ROOT / "rulesets" / "bourre.yaml")
TINY = str(ROOT / "tests" / "games" / "tiny.yaml")
SMALL = ["--players", "3", "--set", "hands=2", "--bots", "random"]


def test_simulate_prints_every_statistic_with_its_interval() -> None:
    result = CliRunner().invoke(cli, ["simulate", BOURRE, "-n", "4", *SMALL])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Bourré with hands=2: 4 matches, 3 players, seed 1; bots: random"
    for label in ("p0 result", "p2 wins", "first dealer's edge", "hands per match", "actions per hand",
                  "stopped by the hand cap", "pot after the hand (per hand)", "pot after the hand (at the match's end)",
                  "bourré players (per hand)"):
        assert any(line.startswith(label) and " to " in line for line in lines), label


def test_every_value_of_a_report_stands_in_one_column_whatever_the_labels_and_values() -> None:
    """Seven players' long labels (`all results together (p0 + ... + p6)`) and values of 11 characters or more
    (Bourré's pot grows with random bots) leave every value of `simulate` and `compare` right-aligned under its
    heading."""
    seven = ["--players", "7", "--bots", "random"]
    for arguments, heading in ((["simulate", BOURRE, "-n", "3", *seven], "value"),
                               (["compare", BOURRE, str(ROOT / "rulesets" / "variants" / "pot_limit.yaml"), "-n", "3",
                                 *seven], "B - A")):
        result = CliRunner().invoke(cli, arguments)
        assert result.exit_code == 0, result.output
        lines = result.stdout.splitlines()
        header = next(index for index, line in enumerate(lines) if "95% interval" in line)
        end = lines[header].index(heading) + len(heading)  # (where the values of that column end)
        rows = []
        for line in lines[header + 1:]:
            if not line.strip():
                break
            rows.append(line)
        assert any(row.startswith("all results together (p0 + p1 + p2 + p3 + p4 + p5 + p6)") for row in rows)
        assert len(rows) > 20 and any(len(row[:end].split()[-1]) > 10 for row in rows)
        assert all(row[end - 1] != " " and row[end] == " " for row in rows), rows


def test_the_header_names_the_default_bots_which_play_uses_too() -> None:
    result = CliRunner().invoke(cli, ["simulate", TINY, "-n", "2", "--players", "2", "--set", "hands=1"])
    assert result.exit_code == 0, result.output
    assert "bots: heuristic,heuristic (the default)" in result.stdout.splitlines()[0] or \
        "bots: heuristic (the default)" in result.stdout.splitlines()[0]
    play = CliRunner().invoke(cli, ["play", "--help"]).stdout
    simulate_help = CliRunner().invoke(cli, ["simulate", "--help"]).stdout
    assert "[default: heuristic]" in play and "[default: heuristic]" in simulate_help


def test_simulate_json_gives_each_statistic_a_value_and_an_interval() -> None:
    result = CliRunner().invoke(cli, ["simulate", BOURRE, "-n", "4", *SMALL, "--json"])
    data = json.loads(result.stdout)
    pot = data["statistics"]["metric.pot.end"]
    assert set(pot) == {"label", "value", "ci95"} and pot["ci95"][0] <= pot["value"] <= pot["ci95"][1]
    assert data["statistics"]["total"]["value"] == -pot["value"]  # the chips in the pot are in no result
    assert data["matches"] == 4 and data["interrupted"] is False and data["bots"] == ["random"]


def test_partners_are_reported_as_a_team() -> None:
    job = Job("burraco", (("target", "300"),), 4, ("random",))
    summary = simulate(job, games=2, seed=1, workers=1)
    keys = [statistic.key for statistic in summary.statistics()]
    assert keys[:4] == ["result.team0", "result.team1", "wins.team0", "wins.team1"]
    assert summary.sides()[0][0] == "team 0 (p0+p2)"
    assert "metric.clean_burracos" in keys


def test_compare_json_gives_a_b_difference_and_its_interval_per_statistic() -> None:
    result = CliRunner().invoke(cli, ["compare", BOURRE, "-n", "6", *SMALL, "--b-set", "pot_limit=2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["matches"] == 6 and data["b"]["params"] == {"hands": "2", "pot_limit": "2"}
    for key, row in data["statistics"].items():
        assert {"a", "b", "difference", "ci95"} <= set(row), key
        assert row["difference"] is None or abs(row["difference"] - (row["b"] - row["a"])) < 1e-9, key
        assert row["ci95"] is None or len(row["ci95"]) == 2
    assert data["statistics"]["hands"]["difference"] == 0.0  # two hands with either
    assert data["summary"] and data["summary"][-1].startswith("  (At 95%")


def test_the_pairs_are_the_same_seeds_whatever_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Several blocks of matches (20 each with two workers), A's and B's in turns, all on one pool of workers
    started once."""
    import interpreter.runners.simulate as simulating

    pools: list[object] = []

    class Counted(simulating.ProcessPoolExecutor):  # type: ignore[misc]
        def __init__(self, *arguments: object, **options: object) -> None:
            pools.append(self)
            super().__init__(*arguments, **options)  # type: ignore[arg-type]

    one = CliRunner().invoke(cli, ["compare", BOURRE, "pot_limit", "-n", "45", *SMALL, "--json", "--workers", "1"])
    assert not pools
    monkeypatch.setattr(simulating, "ProcessPoolExecutor", Counted)
    two = CliRunner().invoke(cli, ["compare", BOURRE, "pot_limit", "-n", "45", *SMALL, "--json", "--workers", "2"])
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert json.loads(one.stdout)["statistics"] == json.loads(two.stdout)["statistics"]
    assert len(pools) == 1


def test_compare_says_in_words_what_changed() -> None:
    result = CliRunner().invoke(cli, ["compare", TINY, "-n", "5", "--players", "2", "--bots", "random",
                                      "--a-set", "hands=1", "--b-set", "hands=3"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.splitlines()[0] == f"A: Tiny tricks ({TINY}) with hands=1"
    assert "What changed from A to B:" in out
    assert "- hands per match: higher with B by 2.00 (1.00 -> 3.00; 95% interval of the difference +2.00 to " \
           "+2.00)." in out


def test_a_paired_difference_is_narrower_than_the_two_intervals() -> None:
    job = Job(BOURRE, (("hands", "2"),), 3, ("random",))
    a = simulate(job, games=20, seed=2, workers=1)
    b = simulate(Job(BOURRE, (("hands", "2"), ("ante", "2")), 3, ("random",)), games=20, seed=2, workers=1)
    row = next(row for row in compare(a, b) if row.statistic.key == "metric.pot")
    assert row.difference is not None and row.a is not None and row.b is not None
    assert row.significant and row.difference.half_width < row.a.half_width + row.b.half_width


def test_usage_errors_of_compare() -> None:
    same = CliRunner().invoke(cli, ["compare", BOURRE, "-n", "4"])
    assert same.exit_code == 2 and "A and B are the same rules with the same parameters' values: give B, or " \
        "--a-set or --b-set" in same.stderr
    bad = CliRunner().invoke(cli, ["compare", BOURRE, TINY, "-n", "4", "--b-set", "ante=2"])
    assert bad.exit_code == 2 and f"B ({TINY}):" in bad.stderr and "ante" in bad.stderr
    seats = CliRunner().invoke(cli, ["compare", BOURRE, TINY, "-n", "4", "--players", "7"])
    assert seats.exit_code == 2 and f"B ({TINY}): Tiny tricks is for 2 to 4 players, not 7" in seats.stderr


def test_a_plot_without_matplotlib_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *rest: None if name == "matplotlib" else real(name, *rest))
    for command in (["simulate", TINY], ["compare", TINY, "--b-set", "hands=1"]):
        result = CliRunner().invoke(cli, [*command, "-n", "2", "--plot", "x.png"])
        assert result.exit_code == 2 and "--plot needs matplotlib: pip install 'ruledeck[plot]'" in result.stderr
        assert "Traceback" not in result.output


def test_two_sides_with_the_same_values_are_refused_however_written() -> None:
    for given in (["--a-set", "hands=1", "--b-set", "hands=01"], ["--set", "hands=3", "--b-set", "hands=3"]):
        result = CliRunner().invoke(cli, ["compare", TINY, "-n", "2", *given])
        assert result.exit_code == 2 and "A and B are the same rules with the same parameters' values" in \
            result.stderr, result.output


def test_a_number_of_workers_past_any_machine_is_a_usage_error() -> None:
    for command in (["simulate", TINY], ["compare", TINY, "--b-set", "hands=1"]):
        result = CliRunner().invoke(cli, [*command, "-n", "2", "--workers", "99999999999999999999"])
        assert result.exit_code == 2 and "is not in the range 1<=x<=4096" in result.stderr, result.output


def test_a_plot_into_a_missing_folder_is_refused_before_any_match(tmp_path: Path) -> None:
    missing = tmp_path / "no such folder" / "plot.png"
    for command in (["simulate", TINY], ["compare", TINY, "--b-set", "hands=1"]):
        result = CliRunner().invoke(cli, [*command, "-n", "2", "--plot", str(missing)])
        assert result.exit_code == 2, result.output
        assert f"--plot: cannot write {missing}: there is no folder" in result.stderr
        assert "Traceback" not in result.output and "Matches" not in result.output


def test_a_plot_that_cannot_be_written_keeps_the_statistics_printed(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    import interpreter.runners.plot as plot

    def refused(*_arguments: object, **_keywords: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(plot, "require_matplotlib", lambda: None)
    monkeypatch.setattr(plot, "plot_simulation", refused)
    monkeypatch.setattr(plot, "plot_comparison", refused)
    path = tmp_path / "plot.png"
    for command in (["simulate", TINY], ["compare", TINY, "--b-set", "hands=1"]):
        result = CliRunner().invoke(cli, [*command, "-n", "2", "--players", "2", "--bots", "random",
                                          "--plot", str(path)])
        assert result.exit_code == 1, result.output
        assert f"error: --plot: cannot write {path}: Permission denied" in result.stderr
        assert "p0" in result.stdout and "Traceback" not in result.output  # (the statistics, printed first)


def test_plots_are_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    for command in (["simulate", TINY], ["compare", TINY, "--b-set", "hands=1"]):
        path = tmp_path / f"{command[0]}.png"
        result = CliRunner().invoke(cli, [*command, "-n", "3", "--players", "2", "--bots", "random",
                                          "--plot", str(path)])
        assert result.exit_code == 0, result.output
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def _interrupted(arguments: list[str], stop: signal.Signals = signal.SIGINT,
                 delay: float = 4.0) -> subprocess.CompletedProcess[str]:
    """Run ruledeck in its own process, send it SIGINT (Ctrl-C, or `stop`) once it has played for a while, and
    wait. (It has started playing when it names the run on stderr; a busy machine may take a while to get
    there.)"""
    process = subprocess.Popen([sys.executable, "-m", "interpreter", *arguments], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, encoding="utf-8",
                               env={**os.environ, "RULEDECK_NO_CACHE": "1"}, preexec_fn=interruptible)
    stream = process.stderr
    assert stream is not None
    started: list[str] = []
    reader = threading.Thread(target=lambda: started.append(stream.read(1)), daemon=True)
    reader.start()
    reader.join(timeout=120)
    time.sleep(delay)
    process.send_signal(stop)
    out, err = process.communicate(timeout=60)
    return subprocess.CompletedProcess(process.args, process.returncode, out, "".join(started) + err)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_a_simulation_and_reports_the_matches_that_finished(workers: str) -> None:
    done = _interrupted(["simulate", BOURRE, "-n", "100000", *SMALL, "--workers", workers])
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    (line,) = [line for line in done.stderr.splitlines() if line.startswith("Interrupted after")]
    played = int(line.split()[2])
    assert 0 < played < 100000 and f"the statistics below are of the first {played}." in line
    assert done.stdout.startswith(f"Bourré with hands=2: {played} matches") and "p0 result" in done.stdout


@pytest.mark.parametrize("workers", ["1", "3"])
def test_sigterm_stops_a_simulation_as_ctrl_c_does(workers: str) -> None:
    """`timeout` and `kill` send SIGTERM: the run stops and reports the matches that finished, as with Ctrl-C;
    its workers, which it stops with SIGTERM too, print nothing (three on two cores: one is idle at times)."""
    done = _interrupted(["simulate", BOURRE, "-n", "100000", *SMALL, "--workers", workers], stop=signal.SIGTERM)
    assert done.returncode == 130 and "Traceback" not in done.stderr, done.stderr
    assert any(line.startswith("Interrupted after") for line in done.stderr.splitlines())
    assert "p0 result" in done.stdout


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("delay", [0.0, 0.005, 0.01])
def test_a_stop_as_the_workers_start_is_answered_at_once(stop: signal.Signals, delay: float) -> None:
    """Ctrl-C or SIGTERM as the run starts its workers (a few milliseconds after it names the run): it waits
    while they start, then stops the run, with no traceback (one arriving as a worker was forked was sometimes
    lost, and the run went on; or it stopped a worker before the worker set its handlers)."""
    done = _interrupted(["compare", BOURRE, "-n", "100000", *SMALL, "--b-set", "ante=2", "--json",
                         "--workers", "2"], stop=stop, delay=delay)
    assert done.returncode == 130 and "Traceback" not in done.stderr, done.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_a_comparison_and_compares_the_pairs_that_finished(workers: str) -> None:
    """(With several workers, every block of matches is played on one pool of them: a pool started for each
    block could lose Ctrl-C in the last one's clean-up, about one run in twenty on a busy machine.)"""
    done = _interrupted(["compare", BOURRE, "-n", "100000", *SMALL, "--b-set", "ante=2", "--json",
                         "--workers", workers])
    assert done.returncode == 130 and "Traceback" not in done.stderr, done.stderr
    data = json.loads(done.stdout)
    assert data["interrupted"] is True and data["planned"] == 100000 and 0 < data["matches"] < 100000
    assert f"Interrupted after {data['matches']} of 100000 pairs of matches: the comparison below is of those." \
        in done.stderr
    assert data["statistics"]["metric.pot"]["difference"] > 0  # a double ante: a bigger pot


def test_a_comparison_of_slow_matches_stopped_early_still_compares_pairs() -> None:
    """Matches of a bot that searches take about a second each on a slow machine: the first blocks are of one
    match a side, so a Ctrl-C after a few seconds leaves pairs to compare (blocks of ten matches a side left
    none). (How many depends on the machine: a fast one plays more, in blocks that grow.)"""
    done = _interrupted(["compare", BOURRE, "-n", "1000", "--players", "3", "--set", "hands=2", "--bots",
                         "search:150,random,random", "--b-set", "ante=2", "--json", "--workers", "1"], delay=8.0)
    assert done.returncode == 130 and "Traceback" not in done.stderr, done.stderr
    data = json.loads(done.stdout)
    assert data["interrupted"] is True and 0 < data["matches"] < 1000, done.stderr


def test_compare_says_when_the_difference_never_came_into_play() -> None:
    # tiny.yaml never reads `pot_limit`: every match comes out the same under both
    result = CliRunner().invoke(cli, ["compare", TINY, "-n", "4", "--players", "2", "--bots", "random",
                                      "--workers", "1", "--b-set", "pot_limit=3"])
    assert result.exit_code == 0, result.output
    assert "- A and B came out the same in every match, all " in result.stdout
    assert "never came into play" in result.stdout and "Nothing changed significantly" not in result.stdout
    assert "(another kind of bot, `--bots heuristic`, or more matches" in result.stdout  # (not the bots it ran)


def test_a_report_of_few_matches_says_its_intervals_are_rough() -> None:
    few = CliRunner().invoke(cli, ["simulate", BOURRE, "-n", "3", *SMALL, "--workers", "1"])
    assert few.exit_code == 0 and "(Only 3 matches: these intervals are rough" in few.stdout
    pairs = CliRunner().invoke(cli, ["compare", BOURRE, "-n", "3", *SMALL, "--workers", "1", "--b-set", "ante=2"])
    assert pairs.exit_code == 0 and "(Only 3 matches: these intervals are rough" in pairs.stdout
    enough = CliRunner().invoke(cli, ["simulate", BOURRE, "-n", "10", *SMALL, "--workers", "1"])
    assert enough.exit_code == 0 and "(Only" not in enough.stdout


def test_a_match_that_fails_late_in_a_comparison_keeps_the_pairs_before_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """B's seventh match fails (a rule that fails only in some deals): the pairs both sides played before it are
    compared, the output says so, and the error follows with the command that plays the failing match (exit 1)."""
    variant = failing_now_and_then(tmp_path)
    for as_json in (False, True):
        code, out, err = run_apart(["compare", TINY, str(variant), "-n", "30", "--bots", "random", "--workers", "1",
                                    *(["--json"] if as_json else [])], capsys)
        assert code == 1, err
        assert "A match failed after 6 of 30 pairs of matches: the comparison below is of those before it" in err
        assert "runtime error: first() of an empty list" in err and "in the match of seed 1000009 " in err, err
        if as_json:
            report = json.loads(out)
            assert report["matches"] == 6 and "first() of an empty list" in report["stopped_by_error"]
        else:
            assert "What changed from A to B:" in out


def test_the_other_side_of_two_teams_wins_is_said_with_the_first() -> None:
    # Two sides: team 1 wins exactly when team 0 does not (a tie shared between them), so its change is the same
    # fact; it is said with team 0's line, not as a second change (a house-rule player read it as two).
    from interpreter.runners.comparison import Compared, what_changed
    from interpreter.runners.summary import Statistic
    from interpreter.stats import paired_difference

    def rows(team0_a: list[int], team0_b: list[int]) -> list[Compared]:
        found = []
        for key, flip in (("wins.team0", False), ("wins.team1", True)):
            a = [1 - x if flip else x for x in team0_a]
            b = [1 - x if flip else x for x in team0_b]
            first = Statistic(key, f"team {key[-1]} wins", tuple(map(float, a)), share=True)
            second = Statistic(key, f"team {key[-1]} wins", tuple(map(float, b)), share=True)
            found.append(Compared(first, first.estimate(), second.estimate(),
                                  paired_difference([float(y) for y in b], [float(x) for x in a])))
        return found

    lines = what_changed(rows([0, 0, 1, 0] * 10, [1, 1, 1, 0] * 10))
    changes = [line for line in lines if line.startswith("- team")]
    assert len(changes) == 1 and changes[0].startswith("- team 0 wins: higher with B by 50.0 percentage points")
    assert changes[0].endswith("team 1 wins: lower by as much (the other side of the same matches).")
    # (with a third side that won the first match of A, the two are not each other's other side: both said)
    three = rows([0, 0, 1, 0] * 10, [1, 1, 1, 0] * 10)
    team1 = three[1].statistic
    three[1] = Compared(Statistic(team1.key, team1.label, (0.0, *team1.values[1:]), share=True), three[1].a,
                        three[1].b, three[1].difference)
    assert len([line for line in what_changed(three) if line.startswith("- team")]) == 2


def test_a_change_at_some_seats_alone_of_seats_playing_alike_is_said_to_be_likely_chance() -> None:
    # The same bots at every seat: the seats differ only by where they sit, and a house rule treats them alike.
    # Two of five seats' results "higher with B" read as the rule's doing to a house-rule player.
    from interpreter.runners.comparison import Compared, what_changed
    from interpreter.runners.summary import Statistic
    from interpreter.stats import paired_difference

    def row(seat: int, a: list[float], b: list[float]) -> Compared:
        first = Statistic(f"result.p{seat}", f"p{seat} result", tuple(a))
        second = Statistic(f"result.p{seat}", f"p{seat} result", tuple(b))
        return Compared(first, first.estimate(), second.estimate(), paired_difference(b, a))

    steady = [float(x % 7 - 3) for x in range(40)]
    rows = [row(0, steady, [x + 5 for x in steady]), *(row(seat, steady, list(reversed(steady)))
                                                        for seat in (1, 2))]
    assert [r.significant for r in rows] == [True, False, False]
    def constant(key: str, value: float) -> Compared:
        a = Statistic(key, key, (value,) * 40)
        return Compared(a, a.estimate(), a.estimate(), paired_difference(list(a.values), list(a.values)))

    rows += [constant("hands", 6.0), constant("first_dealer", 0.0)]  # (6 hands: each of 3 seats deals twice)
    alike = what_changed(rows, ("heuristic",), 3)
    assert any(line.startswith("- Every seat plays the same bots and deals as often") and
               "1 of the sides' 2 results" not in line and "1 of the sides' 3 results" in line for line in alike)
    mixed = what_changed(rows, ("heuristic", "random", "heuristic"), 3)
    assert not any("same bots" in line for line in mixed)
    # (5 hands at 3 seats: p0 and p1 deal once more than p2, and a rule about the dealer moves them alone)
    unequal = what_changed([*rows[:3], constant("hands", 5.0), constant("first_dealer", 0.0)], ("heuristic",), 3)
    assert not any("same bots" in line for line in unequal)


def test_the_progress_bar_of_a_comparison_names_its_sides_apart() -> None:
    # (a ruleset's name may hold a comma: the sides are parted by semicolons)
    from interpreter.cli_stats import _bar_label

    assert _bar_label("Burraco", "Burraco, two burracos to close", 4) == \
        "A: Burraco; B: Burraco, two burracos to close; 4 players"
    assert _bar_label("Burraco", "Burraco", 4) == "Burraco, A and B; 4 players"


def test_seats_playing_different_bots_are_also_measured_by_kind() -> None:
    # "Does the rule change who wins?" with one search bot among heuristic ones is a question of kinds: the
    # heuristic seats' mean result and their share of wins, beside each seat's.
    from interpreter.runners.summary import MatchRecord, Summary

    summary = Summary(3, 3, bots=("search:100", "heuristic", "heuristic"))
    for returns in ([4, -1, -3], [-2, 3, -1], [1, 1, -2]):
        summary.add(MatchRecord(returns, hands=2, actions=20, capped=False, first_dealer=0))
    found = {s.key: s for s in summary.statistics()}
    assert found["kind.result.heuristic"].label == "seats playing heuristic: mean result"
    assert found["kind.result.heuristic"].values == (-2.0, 1.0, -0.5)
    assert found["kind.wins.heuristic"].values == (0.0, 1.0, 0.5)  # (a tie for best: half a win each)
    assert found["kind.wins.heuristic"].share
    assert "kind.wins.search:100" not in found  # (a kind one seat plays: that seat's own rows say it)
    alike = Summary(3, 3, bots=("heuristic",) * 3, records=summary.records)
    assert not [s for s in alike.statistics() if s.key.startswith("kind.")]
