"""A readable transcript of a match, line by line, from the state's events."""

from __future__ import annotations

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


def is_hidden_from(event: dict[str, Any], seat: int) -> bool:
    """Whether an event is an action that `seat` may not see (a hidden discard, a secret choice, a choice of a
    simultaneous round before it is revealed): the engine lists those seats as its `secret_from`."""
    return event["type"] == "action" and seat in event.get("secret_from", ())


def masked_action(event: dict[str, Any]) -> str:
    """A hidden action as the seats it is hidden from see it: who did what kind of thing, not with what
    (`p1 discard (hidden)`, `p2 chooses`)."""
    words = str(event["action"]).split()
    return f"{words[0]} {words[1]}s" if words[1] == "choose" else f"{words[0]} {words[1]} (hidden)"
