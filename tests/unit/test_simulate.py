"""`ruledeck simulate`: many matches, statistics per seat, the same results whatever the number of workers."""

from __future__ import annotations

import gc
import importlib.util
import json
import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from interpreter import load_ruleset
from interpreter.cli import cli, main
from interpreter.engine.state import State
from interpreter.runners.simulate import Job, _chunks, match_seed, simulate
from interpreter.runners.summary import MatchRecord
from tests.cli_helpers import failing_now_and_then, run_apart

ROOT = Path(__file__).resolve().parents[2]
BOURRE = str(ROOT / "rulesets" / "bourre.yaml")


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    job = Job(BOURRE, (("hands", "2"),), 4, ("random",))
    one = simulate(job, games=12, seed=5, workers=1)
    two = simulate(job, games=12, seed=5, workers=2)
    assert one.results == two.results and one.hands == two.hands
    assert len(one.results) == 12 and all(len(result) == 4 for result in one.results)
    # The memory set aside from garbage collection while the workers start is handed back when the run ends.
    assert gc.get_freeze_count() == 0


def test_a_run_makes_no_event_into_a_dict_and_finds_the_same_results(monkeypatch: pytest.MonkeyPatch) -> None:
    # (statistics read the results only: turning each event into a dict, with its texts, was most of the cost of a
    # match's log that no one reads)
    job = Job(BOURRE, (("hands", "2"),), 4, ("random",))
    before = simulate(job, games=6, seed=3, workers=1)

    def refused(self: Any, event: Any) -> Any:
        raise AssertionError(f"an event made into a dict: {event[0]}")

    monkeypatch.setattr(State, "_event_dict", refused)
    after = simulate(job, games=6, seed=3, workers=1)
    assert after.results == before.results and after.hands == before.hands


def test_a_run_in_one_process_sets_its_objects_aside_and_gives_them_back(monkeypatch: pytest.MonkeyPatch) -> None:
    # (between matches what is alive is set aside from garbage collection; the caller's process is as it was after)
    frozen: list[int] = []
    freeze = gc.freeze
    monkeypatch.setattr(gc, "freeze", lambda: (freeze(), frozen.append(gc.get_freeze_count())))
    simulate(Job(BOURRE, (("hands", "1"),), 3, ("random",)), games=3, seed=1, workers=1)
    assert len(frozen) == 3 and all(count > 0 for count in frozen)
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_a_caller_that_manages_garbage_collection_is_left_to_it() -> None:
    gc.disable()
    try:
        simulate(Job(BOURRE, (("hands", "1"),), 3, ("random",)), games=2, seed=1, workers=1)
        assert gc.get_freeze_count() == 0 and not gc.isenabled()
    finally:
        gc.enable()
    kept = [object()]  # (the caller's own objects, set aside by the caller)
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        for workers in (1, 2):
            simulate(Job(BOURRE, (("hands", "1"),), 3, ("random",)), games=2, seed=1, workers=workers)
            assert gc.get_freeze_count() == before  # (neither added to nor given back)
    finally:
        gc.unfreeze()
    assert kept


def test_what_a_match_leaves_in_the_caches_holds_no_cycles() -> None:
    # (`set_aside` keeps what is alive between matches out of collections: a cycle dropped by a cache later would
    # stay until the run ends. A rummy's meld caches, emptied, leave nothing for a collection to find.)
    from interpreter.runners.simulate import _game, play_one, set_aside

    burraco = str(ROOT / "rulesets" / "burraco.yaml")
    game = _game(burraco, ())
    job = Job(burraco, (), 4, ("random",))
    try:
        for seed in range(2):
            play_one(job, seed)
            set_aside()
        assert game.meld_rules is not None
        # (the caches that keep melds: filled again as they are asked)
        caches = [getattr(game.meld_rules, name) for name in ("_groups", "_searched", "_laid", "_can_meld",
                                                              "_unmelded", "_combinations", "_set_parts",
                                                              "_natural_choices")]
        assert any(caches)  # (the matches filled some)
        for cache in caches:
            cache.clear()
    finally:
        gc.unfreeze()
    assert gc.collect() == 0


@pytest.mark.parametrize("command", [["simulate", BOURRE, "-n", "2"],
                                     ["compare", BOURRE, "-n", "2", "--b-set", "hands=2"]])
def test_a_run_plays_the_game_its_command_loaded(monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    # (the command has loaded and checked the ruleset to report on it: its runs, and the workers forked from it,
    # play that game rather than loading it again)
    import interpreter.loader
    from interpreter.runners import simulate as simulate_module

    loads: list[str] = []
    load = interpreter.loader.load_ruleset

    def counted(path: Any, *args: Any, **kwargs: Any) -> Any:
        loads.append(str(path))
        return load(path, *args, **kwargs)

    monkeypatch.setattr(interpreter.loader, "load_ruleset", counted)
    monkeypatch.setattr(simulate_module, "load_ruleset", counted)
    monkeypatch.setattr(simulate_module, "_games", {})
    result = CliRunner().invoke(cli, [*command, "--set", "hands=1", "--players", "3", "--json"])
    assert result.exit_code == 0, result.output
    assert len(loads) == (1 if command[0] == "simulate" else 2), loads  # (once per side of a comparison)


def test_a_run_names_the_file_as_its_command_loaded_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (a variant reached through a symbolic link extends the base beside the link, as the command loaded it:
    # a worker that loads the game itself, as Ray's do, loads that one)
    from interpreter.runners import simulate as simulate_module

    tiny = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
    for folder, name in (("a", "Tiny A"), ("b", "Tiny B")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "base.yaml").write_text(tiny.replace("name: Tiny tricks", f"name: {name}"),
                                                      encoding="utf-8")
    (tmp_path / "a" / "variant.yaml").write_text("format: 1\nextends: base.yaml\n", encoding="utf-8")
    (tmp_path / "b" / "variant.yaml").symlink_to(tmp_path / "a" / "variant.yaml")
    jobs: list[Job] = []
    run = simulate_module.simulate

    def recorded(job: Job, **kwargs: Any) -> Any:
        jobs.append(job)
        return run(job, **kwargs)

    monkeypatch.setattr(simulate_module, "simulate", recorded)
    monkeypatch.chdir(tmp_path / "b")
    result = CliRunner().invoke(cli, ["simulate", "variant.yaml", "-n", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["ruleset"] == "Tiny B"
    monkeypatch.setattr(simulate_module, "_games", {})  # (as a worker that loads the game itself)
    assert simulate_module._game(jobs[0].ruleset, jobs[0].params).name == "Tiny B"


def test_each_match_has_its_own_seed() -> None:
    assert len({match_seed(3, number) for number in range(1000)}) == 1000


def test_shares_of_wins_add_up_to_one() -> None:
    summary = simulate(Job(BOURRE, (("hands", "1"),), 3, ("random",)), games=20, seed=1, workers=1)
    assert abs(sum(row["wins"] for row in summary.per_seat()) - 1.0) < 1e-9


def test_the_command_prints_statistics_as_json() -> None:
    result = CliRunner().invoke(cli, ["simulate", BOURRE, "-n", "6", "--set", "hands=1", "--players", "3",
                                      "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["matches"] == 6 and data["players"] == 3 and len(data["seats"]) == 3
    assert data["mean_hands"] == 1.0
    assert '"ruleset": "Bourré"' in result.stdout  # UTF-8 text, not an escape


def test_a_run_says_the_parameters_it_was_given() -> None:
    # (a run of a house rule set with --set reads apart from one without it, in text and in JSON)
    arguments = ["simulate", BOURRE, "-n", "2", "--set", "hands=1", "--set", "pot_limit=10", "--players", "3",
                 "--bots", "random"]
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Bourré with hands=1 pot_limit=10: 2 matches, 3 players, seed 1; ")
    data = json.loads(CliRunner().invoke(cli, [*arguments, "--json"]).stdout)
    assert data["params"] == {"hands": 1, "pot_limit": 10} and data["file"] == BOURRE


def test_bad_arguments_exit_2() -> None:
    assert CliRunner().invoke(cli, ["simulate", BOURRE]).exit_code == 2  # -n is required
    result = CliRunner().invoke(cli, ["simulate", BOURRE, "-n", "2", "--players", "1"])
    assert result.exit_code == 2 and "is for 2 to 8 players, not 1" in result.stderr
    result = CliRunner().invoke(cli, ["simulate", BOURRE, "-n", "2", "--address", "localhost:6379"])
    assert result.exit_code == 2 and "--address is for --backend ray" in result.stderr
    for address in ("foo:bar", "localhost", ":6379", "ray://host:٦٣"):  # (a usage error, before any Ray starts)
        result = CliRunner().invoke(cli, ["simulate", BOURRE, "-n", "2", "--backend", "ray", "--address", address])
        assert result.exit_code == 2 and f"--address {address}: expected HOST:PORT" in result.stderr, result.output


def test_by_default_a_run_plays_in_a_process_per_usable_cpu_and_finds_what_one_process_finds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import interpreter.runners.simulate as simulation
    asked: list[int] = []
    real = simulation.simulate

    def recorded(job: Job, **arguments: Any) -> Any:
        asked.append(arguments["workers"])
        return real(job, **arguments)
    monkeypatch.setattr(simulation, "simulate", recorded)
    monkeypatch.setattr("interpreter.cli_stats.usable_cpus", lambda: 2)
    arguments = ["simulate", BOURRE, "-n", "6", "--set", "hands=1", "--players", "3", "--bots", "random", "--json"]
    by_default = CliRunner().invoke(cli, arguments)
    in_one = CliRunner().invoke(cli, [*arguments, "--workers", "1"])
    assert by_default.exit_code == in_one.exit_code == 0, by_default.output
    assert asked == [2, 1]
    assert json.loads(by_default.stdout) == json.loads(in_one.stdout)
    asked.clear()
    assert CliRunner().invoke(cli, [*arguments[:3], "1", *arguments[4:], "--workers", "AUTO"]).exit_code == 0
    assert asked == [1]  # (never more processes than matches)


@pytest.mark.parametrize(("given", "said"), [("0", "0 is not in the range 1<=x<=4096 (or auto)"),
                                             ("two", "'two' is neither a number of processes nor auto")])
def test_a_number_of_workers_that_is_none_is_refused(given: str, said: str) -> None:
    result = CliRunner().invoke(cli, ["simulate", BOURRE, "-n", "2", "--workers", given])
    assert result.exit_code == 2 and said in result.stderr


def test_the_ray_backend_without_ray_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None if name == "ray" else real(name, *rest))
    result = CliRunner().invoke(cli, ["simulate", BOURRE, "-n", "2", "--backend", "ray"])
    assert result.exit_code == 2 and "--backend ray needs Ray: pip install 'ruledeck[ray]'" in result.stderr


def test_the_ray_backend_plays_the_same_matches_as_local_processes() -> None:
    pytest.importorskip("ray")
    job = Job(BOURRE, (("hands", 1),), 3, ("random",))
    seen: list[int] = []
    on_ray = simulate(job, games=12, seed=4, workers=2, backend="ray", progress=seen.append)
    local = simulate(job, games=12, seed=4, workers=1)
    assert on_ray.results == local.results and on_ray.hands == local.hands and on_ray.actions == local.actions
    assert sum(seen) == 12


def test_a_match_that_fails_on_ray_is_reported_as_it_is_locally(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")
    failing = tmp_path / "failing.yaml"
    failing.write_text((ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8").replace(
        "to: last(hand[dealer]).suit", "to: first(won[dealer]).suit"), encoding="utf-8")
    outputs = []
    for backend in ("local", "ray"):
        with pytest.raises(SystemExit) as exited:
            main(["simulate", str(failing), "-n", "4", "--workers", "2", "--backend", backend])
        error = capsys.readouterr().err
        assert exited.value.code == 1, error
        outputs.append(error[error.index(f"{failing}:"):])
    # (every match fails: which one is reported first, and so the seed its last line names, depends on timing)
    located = [output.split("\n  in the match of seed ")[0] for output in outputs]
    assert located[0] == located[1] and "runtime error: first() of an empty list" in located[1], outputs
    assert all("\n  in the match of seed 100000" in output for output in outputs), outputs
    assert "Traceback" not in outputs[1] and "ray::" not in outputs[1]


def _interrupt(count: int) -> None:
    raise KeyboardInterrupt


def test_an_interrupted_ray_run_cancels_the_tasks_not_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    ray = pytest.importorskip("ray")
    cancelled: list[object] = []
    real_cancel = ray.cancel
    monkeypatch.setattr(ray, "cancel", lambda reference, **options: (cancelled.append(reference),
                                                                     real_cancel(reference, **options)))
    job = Job(BOURRE, (("hands", 1),), 3, ("random",))
    with pytest.raises(KeyboardInterrupt):
        simulate(job, games=40, seed=4, workers=2, backend="ray", progress=_interrupt)  # a task per chunk
    assert len(cancelled) == len(_chunks(list(range(40)), 2)) - 1 and not ray.is_initialized()  # (the first done)


class _FakeRay(types.ModuleType):
    """Just enough of Ray to follow what the backend does with its tasks: each finishes when waited for."""

    def __init__(self) -> None:
        super().__init__("ray")
        self.cancelled: list[int] = []
        self.shut_down = False
        self.tasks: dict[int, tuple[Any, Any]] = {}

    def is_initialized(self) -> bool:
        return False

    def init(self, **options: object) -> None:
        pass

    def shutdown(self) -> None:
        self.shut_down = True

    def remote(self, function: Any) -> Any:
        fake = self

        class Task:
            @staticmethod
            def remote(*arguments: Any) -> int:
                reference = len(fake.tasks)
                fake.tasks[reference] = (function, arguments)
                return reference
        return Task

    def wait(self, references: list[int], num_returns: int) -> tuple[list[int], list[int]]:
        return references[:num_returns], references[num_returns:]

    def get(self, reference: int) -> Any:
        function, arguments = self.tasks[reference]
        return function(*arguments)

    def cancel(self, reference: int, *, force: bool = False) -> None:
        self.cancelled.append(reference)


def test_an_interrupted_run_on_ray_cancels_every_task_not_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    job = Job(BOURRE, (("hands", 1),), 3, ("random",))
    with pytest.raises(KeyboardInterrupt):
        simulate(job, games=40, seed=4, workers=2, backend="ray", progress=_interrupt)
    tasks = len(_chunks(list(range(40)), 2))  # (the matches in chunks shrinking towards the end of the run)
    assert tasks > 2 and fake.cancelled == list(range(1, tasks)) and fake.shut_down  # the first task had finished
    fake = _FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    summary = simulate(job, games=40, seed=4, workers=2, backend="ray")
    assert fake.cancelled == [] and summary.results == simulate(job, games=40, seed=4, workers=1).results


def test_an_unreachable_ray_cluster_is_reported_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")
    with pytest.raises(SystemExit) as exited:  # Ray itself would retry for minutes
        main(["simulate", BOURRE, "-n", "2", "--backend", "ray", "--address", "127.0.0.1:1"])
    assert exited.value.code == 1
    assert "error: no Ray cluster answers at 127.0.0.1:1" in capsys.readouterr().err


def test_matches_stopped_at_the_hand_cap_are_reported(tmp_path: Path) -> None:
    # tests/games/tiny.yaml plays 3 hands; a cap of 2 stops every match before its end.
    variant = tmp_path / "capped.yaml"
    variant.write_text(f"extends: {ROOT / 'tests' / 'games' / 'tiny.yaml'}\nname: Tiny, capped\n"
                       "match:\n  hand_cap: 2\n", encoding="utf-8")
    played = CliRunner().invoke(cli, ["play", str(variant), "--bots", "random", "--seed", "1"])
    assert played.exit_code == 0, played.output
    assert "Match over after 2 hands" in played.stdout
    assert "Stopped at the hand cap of 2 hands before the match ended" in played.stdout
    summary = simulate(Job(str(variant), (), 2, ("random",)), games=4, seed=1, workers=1)
    assert summary.capped == 4 and summary.as_json()["capped"] == 4
    ended = simulate(Job(str(ROOT / "tests" / "games" / "tiny.yaml"), (), 2, ("random",)), games=4, seed=1,
                     workers=1)
    assert ended.capped == 0


def test_the_default_hand_cap_never_cuts_a_fixed_number_of_hands_short(tmp_path: Path) -> None:
    # A match of 1200 hands (more than the default cap of 1000) plays them all; a hand here is one step.
    ruleset = tmp_path / "long.yaml"
    ruleset.write_text("format: 1\nname: Long\nplayers: {min: 2, max: 2}\n"
                       "deck: {ranks: [A], suits: [S, H]}\nzones: [{name: stock}]\n"
                       "variables: [{name: hands_played, type: int, initial: 0, lasts: match}]\n"
                       "hand:\n  start: only\n  phases:\n    - name: only\n"
                       "      steps: [{change: hands_played, by: 1}]\n      next: end\n"
                       "match:\n  hands: 1200\n  result: hands_played\n", encoding="utf-8")
    state = load_ruleset(ruleset).new_initial_state(seed=1, players=2)
    assert state.is_terminal and state.ended_by == "hands"
    assert state.returns() == [1200, 1200]


def test_an_interrupted_run_in_one_process_says_how_far_it_got(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    import interpreter.runners.simulate as simulation
    real = simulation.play_one
    played: list[int] = []

    def play_then_stop(job: Job, seed: int) -> MatchRecord:
        if played:
            raise KeyboardInterrupt
        played.append(seed)
        return real(job, seed)

    monkeypatch.setattr(simulation, "play_one", play_then_stop)
    with pytest.raises(SystemExit) as exited:
        main(["simulate", str(ROOT / "tests" / "games" / "tiny.yaml"), "-n", "5", "--bots", "random", "--workers", "1"])
    assert exited.value.code == 130
    captured = capsys.readouterr()
    assert "Interrupted after 1 of 5 matches: the statistics below are of the first 1." in captured.err
    assert "Traceback" not in captured.err
    assert "Tiny tricks: 1 match, " in captured.out and "p0 result" in captured.out


def test_the_chunks_of_a_run_hold_every_match_in_order_and_shrink_towards_its_end() -> None:
    for games, workers in ((1, 2), (40, 2), (600, 2), (1000, 8)):
        chunks = _chunks(list(range(games)), workers)
        assert [seed for chunk in chunks for seed in chunk] == list(range(games))
        sizes = [len(chunk) for chunk in chunks]
        assert sizes == sorted(sizes, reverse=True) and max(sizes) <= 50 and sizes[-1] == 1


def test_the_progress_moves_a_match_at_a_time_when_matches_are_slow(monkeypatch: pytest.MonkeyPatch) -> None:
    # Chunks are sized by how long a match takes (about CHUNK_SECONDS a chunk): matches slower than that go one
    # at a time, so the progress moves with each (chunks of 25 left it still for half an hour on a slow game);
    # fast ones go many at a time. The results are the same either way, in seed order.
    import interpreter.runners.simulate as simulation
    job = Job(BOURRE, (("hands", "1"),), 3, ("random",))
    alone = simulate(job, games=24, seed=4, workers=1)
    monkeypatch.setattr(simulation, "CHUNK_SECONDS", 0.0)  # (every match slower than a chunk's time)
    steps: list[int] = []
    slow = simulate(job, games=24, seed=4, workers=2, progress=steps.append)
    assert steps == [1] * 24
    assert slow.records == alone.records
    monkeypatch.setattr(simulation, "CHUNK_SECONDS", 60.0)
    steps.clear()
    fast = simulate(job, games=200, seed=4, workers=2, progress=steps.append)
    assert sum(steps) == 200 and max(steps) > 1
    assert fast.records[:24] == alone.records


def test_a_run_whose_output_is_no_terminal_says_its_progress_now_and_then(monkeypatch: pytest.MonkeyPatch) -> None:
    # (a pipe, a file, a CI log: click's bar prints its label alone there, and a long run looked stuck)
    from interpreter.cli_stats import _ProgressLines
    monkeypatch.setattr(_ProgressLines, "FIRST", 0.0)
    monkeypatch.setattr(_ProgressLines, "EVERY", 0.0)
    result = CliRunner().invoke(cli, ["simulate", BOURRE, "-n", "3", "--set", "hands=1", "--bots", "random"])
    assert result.exit_code == 0, result.output
    assert "1/3 matches, 0m" in result.stderr and "2/3 matches, 0m" in result.stderr
    assert "3/3 matches" not in result.stderr  # (the statistics say the end)
    # (a long run's line says how long is left, as the bar at a terminal does)
    assert re.search(r"1/3 matches, 0m \d\ds so far, about 0m \d\ds left", result.stderr), result.stderr


def test_a_match_that_fails_is_named_with_the_command_that_plays_it_again(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """A runtime failure in one match of a run names its seed and players, and the `play` command (bots and
    parameters included) that plays that match again to the same failure; the run's other workers, stopped,
    print nothing (their output is read from the process's own descriptors: `capfd`)."""
    variant = tmp_path / "failing.yaml"
    variant.write_text(f"extends: {ROOT / 'tests' / 'games' / 'tiny.yaml'}\nname: Tiny, failing\n"
                       "params:\n  hands: {default: 1}\n  strict: {type: bool, default: false, description: fails}\n"
                       "define:\n  winning: 'if params.strict and size(trick) == 2 then first([c for c in trick if "
                       "false]) else trick_winner(trick, trump)'\n", encoding="utf-8")
    for workers, matches in (("1", "4"), ("4", "400")):
        with pytest.raises(SystemExit):
            main(["simulate", str(variant), "-n", matches, "--players", "2", "--bots", "random", "--set",
                  "strict=true", "--workers", workers])
        err = capfd.readouterr().err
        assert "runtime error: first() of an empty list" in err and "in the match of seed " in err, err
        assert "Traceback" not in err, err
        command = err.split("`")[-2]
        assert command.startswith(f"ruledeck play {variant} --players 2 --seed ") and \
            command.endswith("--bots random --set strict=true")
        with pytest.raises(SystemExit):
            main(command.split()[1:])
        assert "runtime error: first() of an empty list" in capfd.readouterr().err


def test_a_match_that_fails_late_in_a_run_keeps_the_statistics_of_those_before_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A run whose seventh match fails (a rule that fails only in some deals) reports the six before it, text and
    JSON, says so, then gives the error with the command that plays the failing match again (exit 1): the
    minutes of matches that finished are not lost."""
    variant = failing_now_and_then(tmp_path)
    for as_json in (False, True):
        code, out, err = run_apart(["simulate", str(variant), "-n", "30", "--bots", "random", "--workers", "1",
                                    *(["--json"] if as_json else [])], capsys)
        assert code == 1, err
        assert "A match failed after 6 of 30 matches: the statistics below are of the 6 before it" in err, err
        assert "runtime error: first() of an empty list" in err and "in the match of seed 1000009 " in err, err
        if as_json:
            report = json.loads(out)
            assert report["matches"] == 6 and "first() of an empty list" in report["stopped_by_error"], report
        else:
            assert out.startswith("Tiny, failing now and then: 6 matches, 4 players, seed 1") and "p0 wins" in out


def test_a_hand_that_never_ends_is_stopped_and_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Bots that take the discard and give it back for ever (a rummy whose hand has no end they reach) made `play`
    write millions of lines: a hand past MOST_HAND_ACTIONS actions stops the match with an error at the hand,
    naming its last actions (and, in a run, the match)."""
    import interpreter.runners.play as play
    monkeypatch.setattr(play, "MOST_HAND_ACTIONS", 30)
    for command in (["play", str(ROOT / "tests" / "games" / "gin_rummy.yaml"), "--seed", "1", "--bots", "random"],
                    ["simulate", str(ROOT / "tests" / "games" / "gin_rummy.yaml"), "-n", "2", "--bots", "random"]):
        with pytest.raises(SystemExit):
            main(command)
        err = capsys.readouterr().err
        assert "runtime error: hand 1 ran past 30 actions without ending: does it ever end? (the last actions: " in \
            err and "(at hand)" in err, err
    assert "in the match of seed " in err


def test_the_usable_cpus_are_no_more_than_a_container_s_share(monkeypatch: pytest.MonkeyPatch) -> None:
    import interpreter.cli_stats as stats
    monkeypatch.setattr(stats.os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    monkeypatch.setattr(stats, "_cgroup_share", lambda: 2)  # (a container given two CPUs' worth of time)
    assert stats.usable_cpus() == 2
    monkeypatch.setattr(stats, "_cgroup_share", lambda: None)  # (no quota)
    assert stats.usable_cpus() == 64
    assert stats.workers_for(0, 3) == 3 and stats.workers_for(0, 1000) == 64 and stats.workers_for(5, 1) == 5


def test_a_run_with_a_bot_stopped_by_time_says_its_results_may_not_repeat() -> None:
    arguments = ["simulate", BOURRE, "-n", "1", "--set", "hands=1", "--players", "3", "--workers", "1"]
    timed = CliRunner().invoke(cli, [*arguments, "--bots", "search:0.001s,random,random"])
    assert timed.exit_code == 0, timed.output
    assert "note: search:0.001s searches for as long as its time allows" in timed.stderr
    counted = CliRunner().invoke(cli, [*arguments, "--bots", "search:3,random,random"])
    assert counted.exit_code == 0 and "note:" not in counted.stderr


def test_a_metrics_label_that_says_per_hand_is_not_said_twice(tmp_path: Path) -> None:
    tiny = ROOT / "tests" / "games" / "tiny.yaml"
    variant = tmp_path / "measured.yaml"
    variant.write_text(f"format: 1\nextends: {tiny}\nname: Measured\nmetrics:\n"
                       "  first: {value: 'tricks[0]', label: 'tricks of p0 (per hand)'}\n"
                       "  second: {value: 'tricks[1]', label: 'tricks of p1'}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["simulate", str(variant), "-n", "2", "--players", "2", "--bots", "random",
                                      "--workers", "1", "--set", "hands=1"])
    assert result.exit_code == 0, result.output
    labels = [line.split("  ")[0] for line in result.stdout.splitlines() if line.startswith("tricks of")]
    assert labels == ["tricks of p0 (per hand)", "tricks of p1 (per hand)"]
