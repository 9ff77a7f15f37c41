"""Match logs that are odd but not broken are resumed and replayed as they should be, and logs that are broken
in ways a JSON reader or the engine would choke on are refused with a message naming the file, the line and
the reason: a last line written without its newline, a line nested deeper than Python reads, a shuffle whose
order holds something other than cards' texts, a logged text too long to quote."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from interpreter.cli import cli
from interpreter.runners.logfile import MatchLog
from tests.cli_helpers import run_console
from tests.log_helpers import events_of, rechained

ROOT = Path(__file__).resolve().parents[2]
TINY = str(ROOT / "tests" / "games" / "tiny.yaml")




def _lines(tmp_path: Path) -> list[str]:
    """The lines of the log of a finished match of two hands (its header first)."""
    log = tmp_path / "whole.jsonl"
    result = CliRunner().invoke(cli, ["play", TINY, "--players", "3", "--seed", "5", "--set", "hands=2",
                                      "--bots", "random", "--log", str(log), "--json"])
    assert result.exit_code == 0, result.output
    return log.read_text(encoding="utf-8").splitlines()


def _written(tmp_path: Path, lines: list[str], name: str = "match.jsonl") -> Path:
    log = tmp_path / name
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return log


def _replay_and_resume(log: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[int, str]]:
    """What `replay --verify` and `play --resume` make of a log; the log is left as it was by both."""
    before = log.read_bytes()
    found = [run_console(["replay", str(log), "--verify"], capsys),
             run_console(["play", "--resume", str(log), "--bots", "random", "--json"], capsys)]
    assert log.read_bytes() == before
    return found


# -- a last line written without its newline

def test_a_log_whose_last_line_has_no_newline_is_resumed_on_a_new_line(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "cut.jsonl"
    log.write_text("\n".join(_lines(tmp_path)[:20]), encoding="utf-8")  # (20 whole lines, the last one unended)
    before = log.read_bytes()
    code, output = run_console(["replay", str(log), "--verify"], capsys)
    assert code == 0 and f"{log}: 20 lines verified" in output, output
    code, output = run_console(["play", "--resume", str(log), "--bots", "random", "--json"], capsys)
    assert code == 0, output
    after = log.read_bytes()
    assert after.startswith(before + b"\n") and not after.startswith(before + b"\n\n")  # nothing lost, no gap
    assert events_of(log)[-1]["type"] == "result"
    code, output = run_console(["replay", str(log), "--verify"], capsys)
    assert code == 0 and "the match played again is the one logged, to its result" in output, output
    code, output = run_console(["play", "--resume", str(log), "--bots", "random"], capsys)
    assert code == 2 and "is over" in output, output


def test_a_log_goes_on_on_a_line_of_its_own(tmp_path: Path) -> None:
    """A newline is added before the first line written only when the file's last line has none."""
    path = tmp_path / "log.jsonl"
    for content, expected in ((b'{"type": "a"}', b'{"type": "a"}\n{"type": "x"}\n'),
                              (b'{"type": "a"}\n{"type": "b"}', b'{"type": "a"}\n{"type": "b"}\n{"type": "x"}\n'),
                              (b"", b'{"type": "x"}\n'),
                              (b'{"type": "a"}\n', b'{"type": "a"}\n{"type": "x"}\n'),
                              (b'{"type": "a"}\r', b'{"type": "a"}\r{"type": "x"}\n')):
        path.write_bytes(content)
        with path.open("a", encoding="utf-8") as file:
            log = MatchLog(file, None)
            log.write({"type": "x"})
        assert path.read_bytes() == expected, content


# -- lines nested deeper than a reader goes

def _deep(depth: int) -> Any:
    value: Any = []
    for _level in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize("how", ["a raw line", "a field, hashes worked out again"])
def test_a_line_nested_too_deep_is_refused_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      how: str) -> None:
    lines = _lines(tmp_path)[:20]
    if how == "a raw line":  # (deeper than Python's JSON reader goes)
        lines.insert(10, "[" * 100_000 + "]" * 100_000)
    else:  # (read, but deeper than any event is; 64 levels with the line's own are read)
        allowed = list(lines)
        allowed[10] = json.dumps({**json.loads(lines[10]), "extra": _deep(63)})
        log = _written(tmp_path, rechained(allowed), "allowed.jsonl")
        code, output = run_console(["replay", str(log), "--verify"], capsys)
        assert code == 1 and f"error: {log}: line 11 differs from the match played again" in output, output
        lines[10] = json.dumps({**json.loads(lines[10]), "extra": _deep(64)})
        lines = rechained(lines)
    log = _written(tmp_path, lines)
    for code, output in _replay_and_resume(log, capsys):
        assert code == 1, output
        assert output.startswith(f"error: {log}: line 11 is not an event of a ruledeck log: its lists or objects "
                                 "are nested more than 64 levels deep"), output
        assert "internal error" not in output


# -- a shuffle order that holds something other than cards' texts

@pytest.mark.parametrize(("seed", "item", "shown"), [
    (None, ["AS"], '["AS"]'), (None, {"card": "AS"}, '{"card": "AS"}'), (None, 7, "7"), (None, None, "null"),
    (None, True, "true"), (5, ["AS"], '["AS"]'),
])
def test_a_shuffle_order_of_other_than_cards_texts_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               seed: int | None, item: Any, shown: str) -> None:
    lines = _lines(tmp_path)[:20]
    lines[0] = json.dumps({**json.loads(lines[0]), "seed": seed})
    shuffle = json.loads(lines[2])
    assert shuffle["type"] == "chance"
    order = [item if place == 3 else card for place, card in enumerate(shuffle["order"], 1)]
    lines[2] = json.dumps({**shuffle, "order": order})
    log = _written(tmp_path, rechained(lines))
    for code, output in _replay_and_resume(log, capsys):
        assert code == 1, output
        assert output.startswith(f"error: {log}: line 3: the logged shuffle cannot be replayed: item 3 of its "
                                 f"order is {shown}, not a card's text"), output


def test_a_shuffle_of_lists_in_a_match_without_a_seed_is_refused(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Every card of the order given as a list of its text (the stacked deck of a match without a seed)."""
    lines = _lines(tmp_path)[:20]
    lines[0] = json.dumps({**json.loads(lines[0]), "seed": None})
    shuffle = json.loads(lines[2])
    lines[2] = json.dumps({**shuffle, "order": [[card] for card in shuffle["order"]]})
    log = _written(tmp_path, rechained(lines))
    first = json.dumps([shuffle["order"][0]])
    for code, output in _replay_and_resume(log, capsys):
        assert code == 1 and "internal error" not in output, output
        assert f"line 3: the logged shuffle cannot be replayed: item 1 of its order is {first}" in output, output


# -- a logged text too long to quote whole

@pytest.mark.parametrize("line", [3, 4])
def test_a_long_text_in_a_line_is_not_quoted_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   line: int) -> None:
    lines = _lines(tmp_path)[:20]
    lines[0] = json.dumps({**json.loads(lines[0]), "seed": None})
    event = json.loads(lines[line - 1])
    if event["type"] == "chance":
        event["order"][0] = "A" * 100_000
    else:
        event["action"] = "p1 play " + "A" * 100_000
    lines[line - 1] = json.dumps(event)
    log = _written(tmp_path, rechained(lines))
    for code, output in _replay_and_resume(log, capsys):
        assert code == 1 and f"error: {log}: line {line}: the logged " in output, output
        assert "cannot be replayed: " in output and len(output) < 2_000, output[:300]
