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
            if not current.is_file():  # (a pipe is read once, by the loader; a device is never kept)
                return None
            with open(current, "rb") as file:
                data = file.read(_MOST_BYTES + 1)
        except (OSError, ValueError, RuntimeError):  # (RuntimeError: a loop of symbolic links)
            return None
        if len(data) > _MOST_BYTES or resolved in files:
            return None
        files.append(resolved)
        digest.update(os.fsencode(resolved) + b"\0" + data + b"\0")  # (a path's bytes, whatever they are)
        extends = _EXTENDS.search(data.decode("utf-8", "replace"))
        if extends is None:
            return digest.hexdigest(), frozenset(files)
        from interpreter.bundled import extended_file  # (as the loader finds it: a bundled ruleset by name)

        current = extended_file(current.parent, extends[1])
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
    data = get_bytes(key, ".json")
    if data is None:
        return None
    try:
        found = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):  # (an entry damaged since it was written is none)
        return None
    return found if isinstance(found, dict) else None


def put(key: str, value: dict[str, Any]) -> None:
    """Keep an entry (written whole or not at all)."""
    put_bytes(key, ".json", json.dumps(value, ensure_ascii=False).encode("utf-8"))


def get_bytes(key: str, suffix: str) -> bytes | None:
    """The entry `key` of this kind (`suffix`: `.json`, ...); None when there is none or it cannot be read."""
    place = folder()
    if place is None:
        return None
    try:
        return (place / key[:2] / f"{key}{suffix}").read_bytes()
    except OSError:
        return None


def put_bytes(key: str, suffix: str, data: bytes) -> None:
    """Keep an entry of this kind (written whole or not at all: a reader never sees half of one)."""
    place = folder()
    if place is None:
        return
    try:
        target = place / key[:2]
        target.mkdir(parents=True, exist_ok=True)
        file = tempfile.NamedTemporaryFile("wb", dir=target, delete=False, suffix=".tmp")  # noqa: SIM115 - closed below
        try:
            with file:
                file.write(data)
            os.replace(file.name, target / f"{key}{suffix}")
        except BaseException:  # a full disk, or Ctrl-C: no half-written file is left behind
            with contextlib.suppress(OSError):
                os.unlink(file.name)
            raise
    except OSError:
        return


def prune(suffix: str, most: int) -> None:
    """Keep at most `most` entries of this kind, the most recently written."""
    place = folder()
    if place is None:
        return
    try:
        entries = list(place.glob(f"??/*{suffix}"))
        if len(entries) <= most:
            return
        dated = []
        for entry in entries:
            with contextlib.suppress(OSError):  # (another process may have removed it)
                dated.append((entry.stat().st_mtime_ns, entry))
        dated.sort()
        for _, entry in dated[:len(dated) - most]:
            with contextlib.suppress(OSError):
                entry.unlink()
    except OSError:
        return
