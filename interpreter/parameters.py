"""Ruleset parameters: their declarations, the values given through the API or `--set NAME=VALUE`, and the
checks that refuse a bad value with the allowed range."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from interpreter.errors import ParameterError, shorten

ParamValue = int | bool | str | None


@dataclass(frozen=True)
class ParamSpec:
    """One declared parameter. A parameter whose default is null is optional: it may be unset (null)."""

    name: str
    type: str  # int | bool | str
    default: ParamValue
    description: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    @property
    def optional(self) -> bool:
        return self.default is None

    def allowed(self) -> str:
        """The allowed values in words, for error messages and help."""
        if self.type == "bool":
            text = "true or false"
        elif self.choices:
            text = "one of " + ", ".join(self.choices)
        elif self.type == "int":
            if self.minimum is not None and self.maximum is not None:
                text = f"an integer from {self.minimum} to {self.maximum}"
            elif self.minimum is not None:
                text = f"an integer of at least {self.minimum}"
            elif self.maximum is not None:
                text = f"an integer of at most {self.maximum}"
            else:
                text = "an integer"
        else:
            text = "a string"
        return text + (", or null (unset)" if self.optional else "")

    def problem(self, value: object) -> str | None:
        """Why `value` is refused, or None when it is fine."""
        if value is None:
            return None if self.optional else f"null is not allowed: it must be {self.allowed()}"
        shown = repr(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else value
        if self.type == "bool":
            return None if isinstance(value, bool) else f"{shown} is not {self.allowed()}"
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return f"{shown} is not {self.allowed()}"
            too_low = self.minimum is not None and value < self.minimum
            too_high = self.maximum is not None and value > self.maximum
            return f"{value} is out of range: allowed {self.allowed()}" if too_low or too_high else None
        if not isinstance(value, str):
            return f"{shown} is not {self.allowed()}"
        if self.choices and value not in self.choices:
            return f"{value!r} is not allowed: {self.allowed()}"
        return None

    def parse(self, text: str) -> ParamValue:
        """A value from the command line (`--set NAME=VALUE`), converted to the parameter's type."""
        lowered = text.strip().lower()
        if lowered in ("null", "none", "") and self.optional:
            return None
        if self.type == "bool":
            if lowered in ("true", "yes", "on", "1"):
                return True
            if lowered in ("false", "no", "off", "0"):
                return False
            raise ParameterError(f"parameter {self.name}: {shorten(repr(text))} is not {self.allowed()}")
        if self.type == "int":
            try:
                return int(text.strip())
            except ValueError:
                raise ParameterError(f"parameter {self.name}: {shorten(repr(text))} is not {self.allowed()}") from None
        return text


def parse_assignments(assignments: list[str]) -> dict[str, str]:
    """`['pot_limit=20']` -> {'pot_limit': '20'}; a malformed item is a ParameterError."""
    values: dict[str, str] = {}
    for assignment in assignments:
        name, equals, value = assignment.partition("=")
        if not equals or not name.strip():
            raise ParameterError(f"--set {assignment!r}: expected NAME=VALUE, e.g. --set pot_limit=20")
        values[name.strip()] = value
    return values


def resolve(specs: Mapping[str, ParamSpec], given: Mapping[str, Any], *, from_text: bool) -> dict[str, ParamValue]:
    """Every parameter's value: the defaults, overridden by `given` (typed values, or text from --set)."""
    values: dict[str, ParamValue] = {name: spec.default for name, spec in specs.items()}
    for name, raw in given.items():
        spec = specs.get(name)
        if spec is None:
            raise ParameterError(_unknown(name, specs))
        value = spec.parse(raw) if from_text and isinstance(raw, str) else raw
        problem = spec.problem(value)
        if problem is not None:
            raise ParameterError(f"parameter {name}: {problem}")
        values[name] = value
    return values


def _unknown(name: str, specs: Mapping[str, ParamSpec]) -> str:
    if not specs:
        return f"unknown parameter {name!r}: this ruleset has no parameters"
    close = difflib.get_close_matches(name, list(specs), n=1)
    message = f"unknown parameter {name!r}"
    if close:
        message += f" (did you mean {close[0]!r}?)"
    return message + "; parameters: " + ", ".join(sorted(specs))
