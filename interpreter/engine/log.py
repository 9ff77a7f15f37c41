"""An append-only list that a copy of the state shares instead of copying: a match's history and events grow
with every action, and copying them made `clone()` cost as much as the match was long."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


class Log:
    """Items appended in order. `fork()` gives a log that sees this one's items so far and appends its own;
    both go on independently (this one only ever appends, so the part the fork sees never changes)."""

    __slots__ = ("base", "base_length", "depth", "items")

    DEEPEST = 32  # a fork of a fork of ... this deep is first flattened, so that reading stays quick

    def __init__(self, base: Log | None = None, base_length: int = 0) -> None:
        self.base = base
        self.base_length = base_length
        self.depth: int = 0 if base is None else base.depth + 1
        self.items: list[Any] = []

    def append(self, item: Any) -> None:
        self.items.append(item)

    def __len__(self) -> int:
        return self.base_length + len(self.items)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.as_list())

    def fork(self) -> Log:
        if self.depth >= self.DEEPEST:
            self.as_list()
        return Log(self, len(self))

    def prefix(self, length: int) -> list[Any]:
        """The first `length` items (a loop down the chain of logs forked from each other)."""
        parts: list[list[Any]] = []
        log: Log | None = self
        while log is not None and length > 0:
            if length > log.base_length:
                parts.append(log.items[:length - log.base_length])
                length = log.base_length
            log = log.base
        found: list[Any] = []
        for part in reversed(parts):
            found.extend(part)
        return found

    def since(self, start: int) -> list[Any]:
        """The items from position `start` on."""
        if start >= self.base_length:
            return self.items[start - self.base_length:]
        return self.as_list()[start:]

    def as_list(self) -> list[Any]:
        """Every item, as a list this log keeps (the shared part is copied in once, on the first read)."""
        if self.base is not None:
            self.items[:0] = self.base.prefix(self.base_length)  # in place: `items` stays the same list
            self.base = None
            self.base_length = 0
            self.depth = 0
        return self.items
