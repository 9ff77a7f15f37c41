"""Errors raised while a game runs."""

from __future__ import annotations

from interpreter.errors import Location, RuledeckError, caret_excerpt


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
        self.message = message
        self.where = where
        self.location: Location | None = None  # the place in the file, when the state could find it
        self.context = ""  # which match it happened in, for a run of many (`simulate`: its seed, how to replay it)
        self.notes: tuple[str, ...] = ()  # more about the place (the call that spliced a procedure's step in)
        # A decision with no legal action: the message without the refusals, and why each option was refused
        self.headline = message
        self.refusals: tuple[str, ...] = ()

    def shown_at(self, written: str) -> None:
        """Name the place by the path it is written at (inside a procedure, for a step spliced from one)."""
        self.args = (f"{self.message} (at {written})",)

    def render(self) -> str:
        """`PATH:LINE:COL: runtime error: message (at yaml.path)` and a caret excerpt, as `validate` shows
        findings; just the message when the place is not known."""
        context = [f"  {self.context}"] if self.context else []
        notes = [f"  note: {note}" for note in self.notes]
        if self.location is None:
            return "\n".join([f"error: {self}", *notes, *context])
        where = self.location
        return "\n".join([f"{where.path}:{where.line}:{where.column}: runtime error: {self}",
                          *caret_excerpt(where), *notes, *context])
