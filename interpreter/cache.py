"""What checking a ruleset found, kept between runs: a second `ruledeck validate` of files that have not changed
answers from here without loading the checker, and a second load of a ruleset skips its structural check.

An entry is keyed by the engine (its files' sizes and times), the text of the ruleset file and of every file
it extends, and what else the answer depends on (parameters, the path as shown). An entry is written only
after a full check has confirmed which files the ruleset is made of. The cache lives in `RULEDECK_CACHE_DIR`,
else `$XDG_CACHE_HOME/ruledeck`, else `~/.cache/ruledeck`; `RULEDECK_NO_CACHE=1` turns it off. A cache that
cannot be read or written is simply not used.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

_FORMAT = 1  # of the entries; a change of what they hold changes it
_EXTENDS = re.compile(r"^extends:[ \t]*['\"]?([^'\"\s#]+)", re.MULTILINE)
_MOST_BYTES = 2_000_000  # a larger file is not keyed (the loader refuses it anyway)
_MOST_FILES = 32  # in a chain of `extends`


def folder() -> Path | None:
    """Where entries are kept; None when the cache is turned off."""
    if os.environ.get("RULEDECK_NO_CACHE"):
        return None
    chosen = os.environ.get("RULEDECK_CACHE_DIR")
    if chosen:
        return Path(chosen)
    return user_folder() / "checked"


def user_folder() -> Path:
    """The user's own folder of what ruledeck keeps between runs: `$XDG_CACHE_HOME/ruledeck`, else
    `~/.cache/ruledeck`."""
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "ruledeck"


@cache
def engine_fingerprint() -> str:
    """The engine's own files (names, sizes, modification times): a changed engine makes new keys."""
    package = Path(__file__).resolve().parent
    parts = []
    for file in sorted(package.rglob("*")):
        if file.suffix in (".py", ".lark", ".json") and "rulesets" not in file.relative_to(package).parts:
            status = file.stat()
            parts.append(f"{file.relative_to(package)}:{status.st_size}:{status.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def ruleset_key(path: str, purpose: str, *details: Any) -> tuple[str, frozenset[str]] | None:
    """The key of what a check of the ruleset at `path` found for `purpose` (with `details` it depends on), and
    the files it was made from, following `extends:` lines; None when a file cannot be read."""
    digest = hashlib.sha256(json.dumps([_FORMAT, purpose, engine_fingerprint(), [str(d) for d in details]],
                                       sort_keys=True).encode())
    files: list[str] = []
    current = Path(path)
    for _ in range(_MOST_FILES):
        try:
            resolved = str(current.resolve())
            with open(current, "rb") as file:
                data = file.read(_MOST_BYTES + 1)
        except (OSError, ValueError):
            return None
        if len(data) > _MOST_BYTES or resolved in files:
            return None
        files.append(resolved)
        digest.update(resolved.encode() + b"\0" + data + b"\0")
        extends = _EXTENDS.search(data.decode("utf-8", "replace"))
        if extends is None:
            return digest.hexdigest(), frozenset(files)
        current = current.parent / extends[1]
    return None


def made_from(tree: Any) -> frozenset[str]:
    """The files a loaded ruleset's nodes come from (to confirm a key's chain of `extends`)."""
    found: set[str] = set()
    pending = [tree]
    while pending:
        node = pending.pop()
        location = getattr(node, "location", None)
        if location is not None:
            found.add(location.source.path)
        pending.extend(getattr(node, "entries", {}).values())
        pending.extend(getattr(node, "items", ()))
    return frozenset(str(Path(path).resolve()) for path in found)


def get(key: str) -> dict[str, Any] | None:
    place = folder()
    if place is None:
        return None
    try:
        found = json.loads((place / key[:2] / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def put(key: str, value: dict[str, Any]) -> None:
    """Keep an entry (written whole or not at all)."""
    place = folder()
    if place is None:
        return
    try:
        target = place / key[:2]
        target.mkdir(parents=True, exist_ok=True)
        file = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=target, delete=False, suffix=".tmp")  # noqa: SIM115 - closed below
        try:
            with file:
                json.dump(value, file, ensure_ascii=False)
            os.replace(file.name, target / f"{key}.json")
        except BaseException:  # a full disk, or Ctrl-C: no half-written file is left behind
            with contextlib.suppress(OSError):
                os.unlink(file.name)
            raise
    except OSError:
        return
