"""A log's header edited with its digest worked out again (the digest catches mistakes, not someone who works
it out): a field left out, or one of another type or out of range, is refused by every command that reads a log,
naming the file, the field, what is expected there and what the header gives, before anything is played again,
with the exit status of any other damaged log and never a traceback."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from interpreter import cli_serve
from interpreter.cli import cli
from interpreter.runners.replay import Log, ReplayError, replay, replay_log
from tests.cli_helpers import run_console
from tests.log_helpers import edit_header, events_of

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "games" / "tiny.yaml"
REFUSED = "line 1 is not an event of a ruledeck log: "
WEB_EXTRA = all(importlib.util.find_spec(module) is not None for module in ("starlette", "uvicorn"))


@pytest.fixture(scope="module")
def stopped_match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The log of a match of 3 players (seats 0 to 2), two hands, seed 5, stopped by its person (p1) after one
    move."""
    log = tmp_path_factory.mktemp("stopped") / "match.jsonl"
    result = CliRunner().invoke(cli, ["play", str(TINY), "--players", "3", "--seed", "5", "--set", "hands=2",
                                      "--human", "1", "--bots", "random", "--log", str(log)], input="1\nq\n")
    assert result.exit_code == 130, result.output
    return log


def _edited(stopped_match: Path, folder: Path, *, without: tuple[str, ...] = (), **fields: Any) -> Path:
    """A copy of the stopped match's log with its header edited and its hashes worked out again."""
    log = folder / "match.jsonl"
    shutil.copyfile(stopped_match, log)
    edit_header(log, without=without, **fields)
    return log


# (fields given, fields left out, what the message says of them)
_BAD_FIELDS: list[tuple[dict[str, Any], tuple[str, ...], str]] = [
    ({"humans": "0"}, (), 'gives `humans` as "0", where a list of the seats people play (at least one; each of '
                          "0 to 2 once: the match has 3 players) is expected"),
    ({"humans": 2}, (), "gives `humans` as 2, where a list of the seats people play"),
    ({"humans": [1, 3]}, (), "gives `humans` as [1, 3], where a list of the seats people play"),
    ({"humans": [2, 2]}, (), "gives `humans` as [2, 2], where a list of the seats people play"),
    ({"humans": {"0": True}}, (), 'gives `humans` as {"0": true}, where a list of the seats people play'),
    ({"humans": []}, (), "gives `humans` as [], where a list of the seats people play"),
    ({"humans": [True]}, (), "gives `humans` as [true], where a list of the seats people play"),
    ({"human": "1"}, (), 'gives `human` as "1", where the seat a person plays (0 to 2: the match has 3 players) '
                         "is expected"),
    ({"human": 3}, (), "gives `human` as 3, where the seat a person plays (0 to 2"),
    ({}, ("rules",), "has no `rules`, where the fingerprint of the rules the match was played under (a text) is "
                     "expected"),
    ({"rules": 5}, (), "gives `rules` as 5, where the fingerprint of the rules"),
    ({}, ("params",), "has no `params`, where the parameters' values by name (an object of numbers, texts, true, "
                      "false or null) is expected"),
    ({"params": ["hands", 2]}, (), "gives `params` as [\"hands\", 2], where the parameters' values by name"),
    ({"params": None}, (), "gives `params` as null, where the parameters' values by name"),
    ({"params": {"hands": [2]}}, (), "gives `params` as {\"hands\": [2]}, where the parameters' values by name"),
    ({"seed": "5"}, (), 'gives `seed` as "5", where the seed (a whole number, or null for a match played without '
                        "one) is expected"),
    ({"seed": 5.5}, (), "gives `seed` as 5.5, where the seed"),
    ({"seed": True}, (), "gives `seed` as true, where the seed"),
    ({}, ("seed",), "has no `seed`, where the seed"),
    ({"players": 0}, (), "gives `players` as 0, where the number of players (a whole number, 1 or more) is "
                         "expected"),
    ({"players": "3"}, (), 'gives `players` as "3", where the number of players'),
    ({"players": True}, (), "gives `players` as true, where the number of players"),
    ({}, ("players",), "has no `players`, where the number of players"),
    ({}, ("ruleset",), "has no `ruleset`, where the path of the ruleset file (a text) is expected"),
    ({"ruleset": 3}, (), "gives `ruleset` as 3, where the path of the ruleset file"),
    ({"ruleset": ""}, (), 'gives `ruleset` as "", where the path of the ruleset file'),
    ({"chained": "yes"}, (), 'gives `chained` as "yes", where true (a log whose lines are not chained has no '
                             "`chained`) is expected"),
    ({"chained": False}, (), "gives `chained` as false, where true"),
]
_COMMANDS = {
    "replay": ["replay"],
    "replay --verify": ["replay", "--verify"],
    "play --resume": ["play", "--bots", "random", "--resume"],
    "serve --resume": ["serve", "--port", "0", "--bot-delay", "0", "--resume"],
}


def _case_name(case: tuple[dict[str, Any], tuple[str, ...], str]) -> str:
    fields, without, _ = case
    return ",".join([*(f"{name}={value!r}" for name, value in fields.items()), *(f"no {name}" for name in without)])


@pytest.mark.parametrize("command", list(_COMMANDS))
@pytest.mark.parametrize("case", _BAD_FIELDS, ids=[_case_name(case) for case in _BAD_FIELDS])
def test_a_header_field_missing_or_of_another_kind_is_refused_naming_it(
        stopped_match: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        command: str, case: tuple[dict[str, Any], tuple[str, ...], str]) -> None:
    if command == "serve --resume" and not WEB_EXTRA:
        pytest.skip("the web extra (starlette, uvicorn) is not installed: `serve` says so before it reads the log")
    fields, without, said = case
    log = _edited(stopped_match, tmp_path, without=without, **fields)
    before = log.read_bytes()

    def served(*_: Any) -> None:  # (a table that would be served is a header let through)
        raise AssertionError("the table was served")

    monkeypatch.setattr(cli_serve, "_serve", served)
    code, output = run_console([*_COMMANDS[command], str(log)], capsys)
    assert code == 1, output
    assert output.startswith(f"error: {log}: {REFUSED}the header {said}"), output
    assert "Traceback" not in output and "internal error" not in output
    assert log.read_bytes() == before  # (nothing was cut from it or written to it)


@pytest.mark.parametrize(("params", "said"), [
    ({"hands": "two", "pot_limit": None}, "parameter hands: 'two' is not an integer from 1 to 100"),
    ({"hands": 2, "pot_limit": None, "colour": 1}, "unknown parameter 'colour'; parameters: hands, pot_limit"),
])
@pytest.mark.parametrize("command", ["replay", "play --resume"])
def test_parameters_the_ruleset_does_not_take_are_the_headers_not_another_ruleset(
        stopped_match: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str,
        params: dict[str, Any], said: str) -> None:
    """The ruleset is the one the match was played with (its fingerprint is the header's): what is wrong is the
    parameters the header gives, and the message says so, not that the ruleset was changed."""
    log = _edited(stopped_match, tmp_path, params=params)
    code, output = run_console([*_COMMANDS[command], str(log)], capsys)
    assert code == 1 and output.startswith(f"error: {log}: line 1, the header's `params`: {said}"), output
    assert "is not the ruleset the match was played with" not in output


@pytest.mark.parametrize("command", ["replay", "play --resume"])
def test_a_player_count_the_ruleset_does_not_play_is_named_as_the_headers(
        stopped_match: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    log = _edited(stopped_match, tmp_path, players=9)
    code, output = run_console([*_COMMANDS[command], str(log)], capsys)
    assert code == 1, output
    assert output.startswith(f"error: {log}: line 1, the header's `players`: Tiny tricks is for 2 to 4 players, "
                             "not 9"), output


def test_the_python_replay_refuses_such_a_header_too(stopped_match: Path, tmp_path: Path) -> None:
    log = _edited(stopped_match, tmp_path, without=("rules",))
    with pytest.raises(ReplayError, match="line 1 is not an event of a ruledeck log: the header has no `rules`"):
        replay(log)
    header, *events = events_of(stopped_match)  # (a log read otherwise than from its file is checked the same)
    made = Log({**header, "humans": [0, 0]}, events, 0, list(range(2, len(events) + 2)))
    with pytest.raises(ReplayError, match=r"the header gives `humans` as \[0, 0\], where a list of the seats"):
        replay_log(log, made)
