"""A readable transcript of a match, line by line, from the state's events."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from interpreter.numbers import signed


def describe(event: dict[str, Any], viewer: int | None = None) -> str | None:
    """One event as a line of the transcript (None for events the transcript leaves out). With a `viewer`,
    only what that seat may see."""
    kind = event["type"]
    if viewer is not None and is_hidden_from(event, viewer):
        return masked_action(event)
    if kind == "hand":
        return f"\n-- Hand {event['hand']}, dealer p{event['dealer']} --"
    if kind == "dealer":
        return f"  The dealer is p{event['dealer']}."
    if kind == "chance":
        return f"The {event['zone']} is shuffled."
    if kind == "breaks":  # (known to the one who broke the rule, until the ruleset finds it out)
        if viewer is not None and viewer in event.get("secret_from", ()):
            return None
        return f"  ({event['action']} breaks a rule: {'; '.join(event['rules'])})"
    if kind == "pick":
        if event.get("at") == "match.first_dealer":  # (`first_dealer: random`: a seat, written as seats are)
            return f"The first dealer, picked at random: p{event['value']}."
        return f"Picked at random: {event['value']}."
    if kind == "action":
        return str(event["action"])
    if kind == "reveal":
        return f"revealed: {event['action']}"
    if kind == "log":
        return f"  {event['text']}"
    if kind == "hand_end":
        scores = ", ".join(f"p{seat} {signed(value)}" for seat, value in enumerate(event["result"]))
        return f"After hand {event['hand']}: {scores}"
    return None


class Transcript:
    """A match's transcript as its events come, for a viewer (None: everything). A hand's header waits, with the
    lines after it, for the hand's first move or decision, so that it names the dealer the hand's own first steps
    pick (a draw for the first deal: `set: dealer` before anyone moves), not the seat that was to deal."""

    def __init__(self, viewer: int | None = None) -> None:
        self.viewer = viewer
        self.header: dict[str, Any] | None = None  # the hand's header event while it waits
        self.held: list[str] = []  # the lines after it, meanwhile

    def lines(self, events: Iterable[dict[str, Any]], *, settled: bool = True) -> list[str]:
        """The lines of these events. `settled`: whether the match now waits for a decision or is over (then a
        waiting header is written); at a chance node, what follows may still pick the dealer."""
        written: list[str] = []
        for event in events:
            kind = event["type"]
            if kind == "hand":
                written += self._released()
                self.header = dict(event)
                continue
            if self.header is not None:
                if kind == "dealer":
                    self.header["dealer"] = event["dealer"]
                elif kind in ("action", "hand_end"):
                    written += self._released()
            line = describe(event, self.viewer)
            if line is not None:
                (self.held if self.header is not None else written).append(line)
        if settled:
            written += self._released()
        return written

    def _released(self) -> list[str]:
        if self.header is None:
            return []
        header, held = describe(self.header, self.viewer), self.held
        self.header, self.held = None, []
        return [header, *held] if header is not None else held


def is_hidden_from(event: dict[str, Any], seat: int) -> bool:
    """Whether an event is an action that `seat` may not see (a hidden discard, a secret choice, a choice of a
    simultaneous round before it is revealed): the engine lists those seats as its `secret_from`."""
    return event["type"] == "action" and seat in event.get("secret_from", ())


def masked_action(event: dict[str, Any]) -> str:
    """A hidden action as the seats it is hidden from see it: who did what kind of thing, not with what
    (`p1 discard (hidden)`, `p2 chooses`)."""
    words = str(event["action"]).split()
    return f"{words[0]} {words[1]}s" if words[1] == "choose" else f"{words[0]} {words[1]} (hidden)"
