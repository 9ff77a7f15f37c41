"""Numbers that may be fractions: the language's `num` (`7 / 2` is exactly 7/2), and how they are written in
text (exact: `3.5`, `1/3`) and in JSON (a whole number as a number, a fraction as its exact text)."""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any


def divide(numerator: Any, denominator: Any) -> int | Fraction:
    """The exact quotient: a whole number when it divides, else a Fraction. ZeroDivisionError on 0."""
    if denominator == 0:
        raise ZeroDivisionError("division by zero")
    if numerator.__class__ is int and denominator.__class__ is int:  # (two whole numbers: no Fraction made to
        whole_part, remainder = divmod(numerator, denominator)  # find that one divides the other)
        return whole_part if remainder == 0 else Fraction(numerator, denominator)
    quotient: int | Fraction = whole(Fraction(numerator) / Fraction(denominator))
    return quotient


@functools.lru_cache(maxsize=1024)
def fraction(numerator: int, denominator: int) -> Fraction:
    """The Fraction of a constant (a parameter's `1/2`), made once: a Fraction never changes, so it is shared."""
    return Fraction(numerator, denominator)


def whole(value: Any) -> Any:
    """A Fraction that is a whole number as that int; any other value as it is."""
    if value.__class__ is Fraction and value.denominator == 1:
        return value.numerator
    return value


def floor(value: Any) -> int:
    floored: int = math.floor(value)
    return floored


def ceil(value: Any) -> int:
    ceiled: int = math.ceil(value)
    return ceiled


def number_text(value: Any) -> str:
    """A number as transcripts write it, exactly: `7`, `3.5`, `-0.25`, `1/3` (a decimal when it has one)."""
    value = whole(value)
    if value.__class__ is not Fraction:
        return str(value)
    denominator = value.denominator
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    scaled = abs(value.numerator) * 10 ** places // value.denominator
    digits = str(scaled).rjust(places + 1, "0")
    return f"{'-' if value < 0 else ''}{digits[:-places]}.{digits[-places:]}"


def plain_number(value: Any) -> Any:
    """A number for JSON: a whole number as it is, a fraction as its exact text (`"3.5"`, `"1/3"`), which
    `parse_number` reads back."""
    value = whole(value)
    return number_text(value) if value.__class__ is Fraction else value


def plain_numbers(values: Any) -> Any:
    """`plain_number` of each item of a list (or of a single value)."""
    if isinstance(values, list):
        return [plain_number(value) for value in values]
    return plain_number(values)


MAX_NUMBER_TEXT = 64  # the longest text read as a number (`"3.5"`, `"7/2"`, `"1e6"`)
MAX_EXPONENT = 100  # the largest power of ten written with `e` (`1e5000` would be a number of 5,000 digits)


def number_from_text(text: str) -> Any:
    """The exact value of a number written as text (`"3.5"`, `"7/2"`, `"1e6"`): a whole number as an int.
    ValueError for text that is no number, or one too long or too large to be a score or a share (reading
    `1e10000000` alone would take seconds, and printing it fails)."""
    text = text.strip()
    exponent = text.lower().partition("e")[2].partition("/")[0].strip()
    if len(text) > MAX_NUMBER_TEXT or (exponent.lstrip("+-").isdigit() and abs(int(exponent)) > MAX_EXPONENT):
        raise ValueError(f"a number of at most {MAX_NUMBER_TEXT} characters and powers of ten up to "
                         f"{MAX_EXPONENT}, not {text[:20]}{'...' if len(text) > 20 else ''}")
    return whole(Fraction(text))


def parse_number(value: Any) -> Any:
    """A number from JSON or YAML: an int as it is, an exact text (`"3.5"`, `"7/2"`) as its value."""
    if isinstance(value, str):
        return number_from_text(value)
    return value


def signed(value: Any) -> str:
    """A result with its sign, as transcripts write it: `+5`, `-2`, `+3.5`, `+0` (a number or its exact text)."""
    value = parse_number(value)
    text = number_text(value)
    return text if value < 0 else f"+{text}"


def real(value: Any) -> Any:
    """A number for statistics: a fraction as a float, a whole number as it is."""
    value = whole(value)
    return float(value) if value.__class__ is Fraction else value
