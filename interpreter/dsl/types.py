"""The static types of the expression language and the parsing of type names such as `list[card]`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Type:
    """A type: a base name (`int`, `card`, ...) or a constructor (`list`, `optional`, `per_seat`, `per_team`,
    `per_key`: a value per key of a variable's second index)."""

    name: str
    arguments: tuple[Type, ...] = ()

    def __str__(self) -> str:
        if self.name == "optional":
            return f"{self.arguments[0]} or null"
        if self.name == "per_key":
            return f"{self.arguments[0]} by {self.arguments[1]}"
        if self.arguments:
            return f"{self.name}[{', '.join(str(argument) for argument in self.arguments)}]"
        return self.name

    @property
    def element(self) -> Type:
        return self.arguments[0]

    @property
    def is_list(self) -> bool:
        return self.name == "list"

    @property
    def is_per_owner(self) -> bool:
        return self.name in ("per_seat", "per_team")


INT = Type("int")
BOOL = Type("bool")
STR = Type("str")
CARD = Type("card")
RANK = Type("rank")
SUIT = Type("suit")
SEAT = Type("seat")
TEAM = Type("team")
MELD = Type("meld")
NUM = Type("num")  # a number that may be a fraction (`7 / 2`); a whole number (`int`) is one too
NULL = Type("null")
ANY = Type("any")  # the element type of an empty list display, compatible with everything
PARAMS = Type("params")

BASE_TYPES = {t.name: t for t in (INT, NUM, BOOL, STR, CARD, RANK, SUIT, SEAT, TEAM, MELD)}
NUMBERS = (INT, NUM)
ORDERED = (INT, RANK)


def list_of(element: Type) -> Type:
    return Type("list", (element,))


def optional(inner: Type) -> Type:
    return inner if inner.name == "optional" else Type("optional", (inner,))


def per_seat(inner: Type) -> Type:
    return Type("per_seat", (inner,))


def per_team(inner: Type) -> Type:
    return Type("per_team", (inner,))


def per_key(inner: Type, key: Type) -> Type:
    """One value of `inner` per key of type `key` (a variable's second index, `by:`)."""
    return Type("per_key", (inner, key))


CARDS = list_of(CARD)


def parse_type(text: str) -> Type:
    """`int`, `list[card]`, `suit?` (optional), `T` (a type variable), `list[T]`, and `N` (a number: `int`, or
    `num` as soon as one of the numbers it stands for may be a fraction)."""
    text = text.strip()
    if text.endswith("?"):
        return optional(parse_type(text[:-1]))
    if text.startswith("list[") and text.endswith("]"):
        return list_of(parse_type(text[5:-1]))
    if text in BASE_TYPES:
        return BASE_TYPES[text]
    if text in ("T", "U", "N"):
        return Type(text)
    raise ValueError(f"unknown type {text!r}")


def is_type_variable(type_: Type) -> bool:
    return type_.name in ("T", "U", "N")


def unify(expected: Type, actual: Type, bindings: dict[str, Type]) -> bool:
    """Whether `actual` fits `expected`, binding type variables of `expected` on the way."""
    if actual == ANY:
        return True
    if expected.name == "N":  # a number: int, or num when any of them is a num
        if actual not in (INT, NUM):
            return False
        if bindings.get("N") in (None, ANY, INT):
            bindings["N"] = actual
        return True
    if is_type_variable(expected):
        bound = bindings.get(expected.name)
        if bound is None or bound == ANY:
            bindings[expected.name] = actual
            return True
        return compatible(bound, actual) or compatible(actual, bound)
    if expected.name == "optional":
        if actual == NULL:
            return True
        inner = actual.arguments[0] if actual.name == "optional" else actual
        return unify(expected.arguments[0], inner, bindings)
    if expected == NUM and actual == INT:
        return True
    if expected.name != actual.name or len(expected.arguments) != len(actual.arguments):
        return False
    return all(unify(e, a, bindings) for e, a in zip(expected.arguments, actual.arguments, strict=True))


def substitute(type_: Type, bindings: dict[str, Type]) -> Type:
    if is_type_variable(type_):
        return bindings.get(type_.name, ANY)
    if not type_.arguments:
        return type_
    return Type(type_.name, tuple(substitute(argument, bindings) for argument in type_.arguments))


def compatible(expected: Type, actual: Type) -> bool:
    """Whether a value of type `actual` may stand where `expected` is wanted."""
    return unify(expected, actual, {})


def join(first: Type, second: Type) -> Type | None:
    """The common type of two branches (of `if`, of a list display), or None."""
    if compatible(first, second):
        return second if first == ANY or _has_any(first) else first
    if compatible(second, first):
        return second
    if first == NULL:
        return optional(second)
    if second == NULL:
        return optional(first)
    return None


def _has_any(type_: Type) -> bool:
    return type_ == ANY or any(_has_any(argument) for argument in type_.arguments)
