"""What makes a match log safe to go on with: a digest of its header (so that an edited seed, player count or
parameter is seen), a fingerprint of the rules it was played under (so that a changed or another ruleset is
seen), a chain of hashes through its lines (so that an edited, removed or inserted line is seen), and an
exclusive lock while a match is written to it (so that two runs never interleave in it)."""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

from interpreter.errors import RuledeckError, shorten
from interpreter.source import to_plain

if TYPE_CHECKING:
    from interpreter.engine.game import Game

# The header's fields that the digest leaves out: the digest itself, and the ruleset's path, which changes when
# a log is moved with its ruleset (the ruleset's content is covered by `rules`).
_UNSIGNED = ("digest", "ruleset")
# The header field that says the log's lines are chained (logs written before the chain have no such field).
CHAINED = "chained"


class LogBusyError(RuledeckError):
    """A log that another run is writing to."""


def header_digest(header: dict[str, Any]) -> str:
    """A digest of a log header's fields (all but its path and the digest), as they read back from JSON."""
    signed = {key: value for key, value in header.items() if key not in _UNSIGNED}
    text = json.dumps(signed, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:32]


def signed(header: dict[str, Any]) -> dict[str, Any]:
    """The header with its digest (worked out on the header as JSON will read it back)."""
    readback = json.loads(json.dumps(header))
    return {**header, "digest": header_digest(readback)}


def line_hash(previous: str, event: dict[str, Any]) -> str:
    """The chain hash of a log line: of the previous line's hash (the header's digest for the first event) and
    of this line's fields (all but its own hash), as they read back from JSON."""
    fields = {key: value for key, value in event.items() if key != "chain"}
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256((previous + text).encode("ascii")).hexdigest()[:32]


def chained(event: dict[str, Any], previous: str) -> dict[str, Any]:
    """The event with its `chain` hash, linked to the previous line's."""
    return {**event, "chain": line_hash(previous, json.loads(json.dumps(event)))}


def chain_problem(events: list[dict[str, Any]], start: str) -> int | None:
    """The index of the first event whose `chain` does not follow from the lines before it and its own fields
    (an edited, removed or inserted line), if any."""
    previous = start
    for index, event in enumerate(events):
        found = event.get("chain")
        if not isinstance(found, str) or found != line_hash(previous, event):
            return index
        previous = found
    return None


def rules_fingerprint(game: Game) -> str:
    """A fingerprint of the rules a game plays by: its merged ruleset, whatever file and folder it is read
    from (comments and layout aside)."""
    rules = to_plain(game.ruleset.tree)
    rules.pop("show", None)  # what the view shows is not a rule: new labels leave a match's log valid
    text = json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:32]


def header_problem(header: dict[str, Any]) -> str | None:
    """What is wrong with a log's header, if anything: no digest, or one that does not match (an edit). Its
    fields are `header_fields_problem`'s."""
    digest = header.get("digest")
    if not isinstance(digest, str):
        return "has no digest, so an edit to it could not be seen (it was not written by `ruledeck play`)"
    if digest != header_digest(header):
        return ("was edited: its digest does not match its fields (the seed, players, parameters or seat), so the "
                "match would not go on as it was played")
    return None


def header_fields_problem(header: dict[str, Any]) -> str | None:
    """What is wrong with the fields of a log's header, if anything: one it must have and has not, or one of
    another type or out of range (as a header edited with its digest worked out again may give it), said as the
    field, what is expected there and what the header gives. The digest is `header_problem`'s; a seat count
    the ruleset does not play, or parameters it does not take, are found when it is loaded."""
    for field, expected, fits in _REQUIRED_FIELDS:
        if field not in header:
            return f"the header has no `{field}`, where {expected} is expected"
        if not fits(header[field]):
            return _gives(field, header[field], expected)
    players = header["players"]
    human = header.get("human")
    if human is not None and not _is_seat(human, players):
        return _gives("human", human, f"the seat a person plays (0 to {players - 1}: the match has {players} "
                                       "players)")
    if "humans" in header:
        humans = header["humans"]
        if not isinstance(humans, list) or not humans or not all(_is_seat(seat, players) for seat in humans) \
                or len(set(humans)) < len(humans):
            return _gives("humans", humans, f"a list of the seats people play (at least one; each of 0 to "
                                            f"{players - 1} once: the match has {players} players)")
    if CHAINED in header and header[CHAINED] is not True:
        return _gives(CHAINED, header[CHAINED], "true (a log whose lines are not chained has no `chained`)")
    return None


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_seat(value: Any, players: int) -> bool:
    return _is_whole(value) and 0 <= value < players


def _is_parameters(value: Any) -> bool:
    """Whether a header's `params` is parameters' values by name (whether the ruleset takes them is found when
    it is loaded with them)."""
    return isinstance(value, dict) and all(
        isinstance(name, str) and isinstance(given, (str, int, float, bool, type(None)))
        for name, given in value.items())


# The fields every header has (`ruledeck play` writes each of them), with what is expected in each.
_REQUIRED_FIELDS: tuple[tuple[str, str, Callable[[Any], bool]], ...] = (
    ("ruleset", "the path of the ruleset file (a text)", lambda value: isinstance(value, str) and value != ""),
    ("params", "the parameters' values by name (an object of numbers, texts, true, false or null)",
     _is_parameters),
    ("players", "the number of players (a whole number, 1 or more)", lambda value: _is_whole(value) and value >= 1),
    ("seed", "the seed (a whole number, or null for a match played without one)",
     lambda value: value is None or _is_whole(value)),
    ("rules", "the fingerprint of the rules the match was played under (a text)",
     lambda value: isinstance(value, str) and value != ""),
)


def _gives(field: str, value: Any, expected: str) -> str:
    found = shorten(json.dumps(value, ensure_ascii=True, default=repr), 60)
    return f"the header gives `{field}` as {found}, where {expected} is expected"


def lock(log: IO[str], path: str) -> None:
    """Hold an exclusive lock on an open log until it is closed (or the process ends, however it ends); a log
    another run holds is refused at once."""
    if not _locked(log):
        log.close()
        raise LogBusyError(f"{path}: another ruledeck is writing this match; wait for it to stop, or stop it "
                           "first") from None


if sys.platform == "win32":  # pragma: no cover - the lock of Windows
    import msvcrt

    def _locked(log: IO[str]) -> bool:
        log.seek(0)  # the lock covers the file's first byte
        try:
            msvcrt.locking(log.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
else:
    import fcntl

    def _locked(log: IO[str]) -> bool:
        """Whether the lock is held now; False only when another open file holds it (a file system that has
        no locks at all leaves the log unlocked rather than unusable)."""
        try:
            fcntl.flock(log.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except OSError:
            pass
        return True
