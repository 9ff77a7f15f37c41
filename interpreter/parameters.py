"""Ruleset parameters: their declarations, the values given through the API or `--set NAME=VALUE`, and the
checks that refuse a bad value with the allowed range."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from interpreter.errors import ParameterError, shorten
from interpreter.numbers import number_from_text, number_text, whole

ParamValue = int | Fraction | bool | str | None
Bound = int | Fraction


def exact_number(value: object) -> Bound | None:
    """A `num` parameter's value, exactly: an int or a Fraction as it is, a decimal (`0.05`) as the number it
    is written as, a text (`"1/2"`, `"0.5"`, `"3"`) as its value; None when `value` is not a number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, Fraction)):
        return whole(value)  # type: ignore[no-any-return]
    text = repr(value) if isinstance(value, float) else value if isinstance(value, str) else None
    if text is None:
        return None
    try:
        return number_from_text(text)  # type: ignore[no-any-return]
    except (ValueError, ZeroDivisionError):
        return None


@dataclass(frozen=True)
class ParamSpec:
    """One declared parameter. A parameter whose default is null is optional: it may be unset (null); so is one
    declared `optional: true` whatever its default (a variant that gives an optional parameter a default keeps it
    optional: see variants.py)."""

    name: str
    type: str  # int | num | bool | str
    default: ParamValue
    description: str
    minimum: Bound | None = None
    maximum: Bound | None = None
    choices: tuple[str, ...] = ()
    declared_optional: bool = False  # `optional: true`

    @property
    def optional(self) -> bool:
        return self.default is None or self.declared_optional

    def allowed(self) -> str:
        """The allowed values in words, for error messages and help."""
        if self.type == "bool":
            text = "true or false"
        elif self.choices:
            text = "one of " + ", ".join(self.choices)
        elif self.type in ("int", "num"):
            text = "an integer" if self.type == "int" else "a number (a fraction such as 1/2 is allowed)"
            low, high = (None if bound is None else number_text(bound) for bound in (self.minimum, self.maximum))
            if low is not None and high is not None:
                text += f" from {low} to {high}"
            elif low is not None:
                text += f" of at least {low}"
            elif high is not None:
                text += f" of at most {high}"
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
        if self.type in ("int", "num"):
            if isinstance(value, bool) or not isinstance(value, (int, Fraction) if self.type == "num" else int):
                return f"{shown} is not {self.allowed()}"
            too_low = self.minimum is not None and value < self.minimum
            too_high = self.maximum is not None and value > self.maximum
            return f"{number_text(value)} is out of range: allowed {self.allowed()}" if too_low or too_high else None
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
        if self.type == "num":
            number = exact_number(text)
            if number is None:
                raise ParameterError(f"parameter {self.name}: {shorten(repr(text))} is not {self.allowed()}")
            return number
        return text

    def given(self, value: Any) -> Any:
        """A value given from Python as the parameter holds it: a `num` parameter takes an int, a Fraction, a
        decimal or an exact text (`"1/2"`, as logs write it); any other value is checked as it is."""
        if self.type == "num":
            number = exact_number(value)
            return value if number is None else number
        return value


def parse_assignments(assignments: list[str]) -> dict[str, str]:
    """`['pot_limit=20']` -> {'pot_limit': '20'}; a malformed item is a ParameterError."""
    values: dict[str, str] = {}
    for assignment in assignments:
        name, equals, value = assignment.partition("=")
        if not equals or not name.strip():
            raise ParameterError(f"--set {assignment!r}: expected NAME=VALUE, e.g. --set pot_limit=20")
        if name.strip() in values and values[name.strip()] != value:
            raise ParameterError(f"--set {name.strip()} is given twice ({values[name.strip()]!r}, then {value!r}): "
                                 "give it once")
        values[name.strip()] = value
    return values


def resolve(specs: Mapping[str, ParamSpec], given: Mapping[str, Any], *, from_text: bool) -> dict[str, ParamValue]:
    """Every parameter's value: the defaults, overridden by `given` (typed values, or text from --set)."""
    values: dict[str, ParamValue] = {name: spec.default for name, spec in specs.items()}
    for name, raw in given.items():
        spec = specs.get(name)
        if spec is None:
            raise ParameterError(_unknown(name, specs))
        value = spec.parse(raw) if from_text and isinstance(raw, str) else spec.given(raw)
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
