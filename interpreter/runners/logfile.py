"""Writing match logs. The full log holds every event, each shuffle's order included: it is the record of a
match (for replays and for after the match), not for the players. Its lines are chained by hashes from the
header's digest. A per-seat log holds what one seat saw: its views of the table as they changed, the public
events, the others' hidden actions masked as that seat's transcript masks them, and no shuffle order and no
seed (from which the shuffles could be worked out again)."""

from __future__ import annotations

import json
import os
from typing import IO, TYPE_CHECKING, Any

from interpreter.runners.integrity import CHAINED, chained, signed
from interpreter.runners.transcript import is_hidden_from, masked_action

if TYPE_CHECKING:
    from interpreter.engine.state import State

# The events a seat sees as they are (shuffles and hidden actions are shown in part; no other kind is shown).
_PUBLIC = frozenset({"hand", "dealer", "action", "reveal", "log", "hand_end", "result", "pick"})
# The header's fields a per-seat log leaves out: the seed gives every shuffle, and the digest is its own.
_SECRET_HEADER = ("seed", "digest", "human")
_SECRET_EVENT = ("secret_from", "seed", "chain")  # (the result line names the seed too)


class MatchLog:
    """A log being written: one JSON line per event, flushed as it is written, each line chained to the one
    before it (`chain` None: a log written before lines were chained, which goes on unchained). A log resumed
    (an open file that already holds lines) goes on on a line of its own, even when its last line was written
    without its newline."""

    def __init__(self, file: IO[str], chain: str | None) -> None:
        self.file = file
        self.chain = chain
        self.line_open = not ends_a_line(file)  # (the first line written then starts with a newline)

    @classmethod
    def start(cls, file: IO[str], header: dict[str, Any]) -> MatchLog:
        """A new log: its header (signed with a digest from which the chain starts) written first."""
        first = signed({**header, CHAINED: True})
        log = cls(file, None)  # (the header is not chained: the chain starts from its digest)
        log.write(first)
        log.chain = first["digest"]
        return log

    def write(self, event: dict[str, Any]) -> None:
        if self.chain is not None:
            event = chained(event, self.chain)
            self.chain = event["chain"]
        if self.line_open:
            self.file.write("\n")
            self.line_open = False
        write_line(self.file, event)


class SeatLog:
    """The log of what one seat saw, written as the match goes on."""

    def __init__(self, file: IO[str], seat: int) -> None:
        self.file = file
        self.seat = seat
        self.log: MatchLog | None = None
        self.last_view: dict[str, Any] | None = None

    def start(self, header: dict[str, Any]) -> None:
        """The header: the full log's, without its seed, and with the seat whose log it is."""
        shown = {key: value for key, value in header.items() if key not in _SECRET_HEADER}
        self.log = MatchLog.start(self.file, {**shown, "seat": self.seat})

    def follow(self, state: State, events: list[dict[str, Any]]) -> None:
        """Add the events the match has just had, as this seat saw them, then the seat's view when it changed."""
        assert self.log is not None, "start() first"
        for event in events:
            seen = seen_event(event, self.seat)
            if seen is not None:
                self.log.write(seen)
        view = state.observation(self.seat)
        if view != self.last_view:
            self.log.write({"type": "view", **view})
            self.last_view = view


def seen_event(event: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """An event as `seat` saw it: a shuffle without its order, another seat's hidden action masked (without
    the list of whom it was hidden from), other events as they are; None for a kind it does not know."""
    kind = event["type"]
    if kind == "chance":
        return {"type": "chance", "zone": event["zone"], "cards": len(event["order"])}
    if kind not in _PUBLIC:
        return None
    if is_hidden_from(event, seat):
        return {"type": "action", "seat": event["seat"], "action": masked_action(event), "hidden": True}
    return {key: value for key, value in event.items() if key not in _SECRET_EVENT}


def ends_a_line(file: IO[str]) -> bool:
    """Whether what an open log file holds ends with a whole line (or is nothing yet), so that a line written
    next is a line of its own. A log is opened for appending, not for reading, so its last byte is read from the
    file its name names, once that is seen to be the same file. When it cannot be read, the answer is no: an
    empty line before the next one is harmless (the empty lines of a log are passed over)."""
    try:
        file.flush()
        opened = os.fstat(file.fileno())
    except (OSError, ValueError):  # (io.UnsupportedOperation is both)
        return True  # (not a file of the system, such as a text in memory, which holds only what is written)
    if opened.st_size == 0:
        return True
    name = getattr(file, "name", None)
    if not isinstance(name, str):  # (a file opened from a descriptor: another reader would close it)
        return False
    try:
        with open(name, "rb") as reader:
            if not os.path.samestat(os.fstat(reader.fileno()), opened):
                return False
            reader.seek(opened.st_size - 1)
            return reader.read(1) in (b"\n", b"\r")
    except (OSError, ValueError):
        return False


def write_line(file: IO[str], event: dict[str, Any]) -> None:
    file.write(json.dumps(event, ensure_ascii=False) + "\n")  # UTF-8 text, as the file is opened
    file.flush()
