"""Errors raised while a game runs."""

from __future__ import annotations

from interpreter.errors import RuledeckError


class IllegalActionError(RuledeckError):
    """An action the rules do not allow now; the message quotes the ruleset's reason."""

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message


class RulesetRuntimeError(RuledeckError):
    """A ruleset that went wrong while running (an expression failed, a pile ran out, a loop ran away).
    The message names the place in the ruleset."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{message} (at {where})" if where else message)
        self.where = where
