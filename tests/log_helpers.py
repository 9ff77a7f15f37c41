"""Editing match logs in tests as someone who works the hashes out again would: the header signed anew, every
line chained anew, so that what the engine checks beyond the hashes is what refuses the edit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from interpreter.runners.integrity import chained, signed


def rechained(lines: list[str]) -> list[str]:
    """The lines of a log with its header's digest and every line's chain worked out again."""
    header = signed({key: value for key, value in json.loads(lines[0]).items() if key != "digest"})
    previous, found = header["digest"], [json.dumps(header)]
    for line in lines[1:]:
        event = chained({key: value for key, value in json.loads(line).items() if key != "chain"}, previous)
        previous = event["chain"]
        found.append(json.dumps(event))
    return found


def edit_line(log: Path, number: int, *, rechain: bool, **fields: Any) -> dict[str, Any]:
    """Change fields of one line of a log (1 is the header), and work the hashes out again or not; the line as
    it was."""
    lines = log.read_text(encoding="utf-8").splitlines()
    before = json.loads(lines[number - 1])
    lines[number - 1] = json.dumps({**before, **fields})
    log.write_text("\n".join(rechained(lines) if rechain else lines) + "\n", encoding="utf-8")
    return before


def edit_header(log: Path, *, without: tuple[str, ...] = (), **fields: Any) -> dict[str, Any]:
    """Change fields of a log's header and leave out those named in `without`, with the header signed anew and
    every line chained anew (as someone who edits a header and works its digest out again leaves it); the
    header as it was."""
    lines = log.read_text(encoding="utf-8").splitlines()
    before = json.loads(lines[0])
    lines[0] = json.dumps({key: value for key, value in {**before, **fields}.items() if key not in without})
    log.write_text("\n".join(rechained(lines)) + "\n", encoding="utf-8")
    return before


def events_of(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
