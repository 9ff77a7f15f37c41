"""What the checker records and the compiler reads: the ruleset's definitions and parameters as the checker sees
them, each checked instantiation of a definition, the annotations of a checked expression, and the errors that
belong to a definition rather than to the place using it."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from interpreter.dsl import ast
from interpreter.dsl.types import CARDS, RANK, STR, SUIT, TEAM, Type
from interpreter.errors import ExpressionError

FIELDS: dict[str, dict[str, Type]] = {
    "card": {"rank": RANK, "suit": SUIT},
    "meld": {"cards": CARDS, "kind": STR, "owner": TEAM, "wilds": CARDS, "naturals": CARDS},
}


@dataclass(frozen=True)
class Definition:
    """A named expression of the ruleset: `name(a, b): body`."""

    name: str
    parameters: tuple[str, ...]
    body: ast.Node
    text: str


@dataclass(frozen=True)
class Parameter:
    """A ruleset parameter as the checker sees it: its type (optional when its value is null), value, choices,
    and whether it is declared optional (it may be null in another configuration: a test for null is no
    mistake even where its value is set)."""

    type: Type
    value: Any
    choices: tuple[str, ...] = ()
    declared_optional: bool = False


@dataclass
class Instance:
    """One checked instantiation of a definition, for given argument types in a given context."""

    key: tuple[Any, ...]
    definition: Definition
    function_name: str
    argument_types: tuple[Type, ...]
    context: Mapping[str, Type]
    type: Type | None = None
    annotations: Annotations | None = None
    failed: bool = False  # its body has errors, already reported; uses of it check as `any` and never compile


@dataclass
class Annotations:
    """What the compiler needs beyond the AST, keyed by node identity."""

    types: dict[int, Type] = field(default_factory=dict)
    constants: dict[int, Any] = field(default_factory=dict)  # symbols, coerced literals, parameters
    implicit_index: set[int] = field(default_factory=set)  # per-seat names used bare: index by `player`
    keyed_index: dict[int, str] = field(default_factory=dict)  # a key of a second index (`by:`) -> its type
    calls: dict[int, str] = field(default_factory=dict)  # definition call or zero-arg use -> function name
    binder_types: dict[int, Type] = field(default_factory=dict)
    memoised: set[str] = field(default_factory=set)  # parameterless definitions kept once per environment
    used_context: set[str] = field(default_factory=set)  # contextual names used, transitively
    tainted: bool = False  # uses a definition that has errors (reported there): check on, but never compile
    bound: set[int] = field(default_factory=set)  # names bound by the place (read from B, not from V)
    # Reads of a variable declared without `initial`, which is unset until a step sets it (node -> its name): a
    # name read whole, or read bare for `player`'s item; an index node, for an item of one per owner.
    unset_reads: dict[int, str] = field(default_factory=dict)

# A parameterless definition is kept once per evaluation environment unless it uses one of these names,
# which change within one decision (the card being tested, the cards being laid).
VOLATILE_NAMES = frozenset({"card", "cards", "meld", "after", "laid"})


class Tainted(Exception):
    """The expression uses a definition whose errors were reported at the definition: do not compile it."""


class ContextError(Exception):
    """A definition used a contextual name (such as `card`) that the place using it does not bind."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class DefinitionError(ExpressionError):
    """An error inside a definition's body, to be reported at the definition (its span is in the body)."""

    def __init__(self, definition: Definition, error: ExpressionError) -> None:
        super().__init__(error.code, f"in definition `{definition.name}`: {error.message}", error.start,
                         error.end, hint=error.hint)
        self.definition = definition
        self.error = error
        self.through: tuple[Definition, ...] = ()  # the definitions that called it, outermost first, when known
        self.call: ast.Node | None = None  # the call that was checked: in the text of `through[-1]`, or of the use


def _recursion(stack: list[str], name: str, definition: Definition) -> DefinitionError:
    chain = " -> ".join([*stack[stack.index(name):], name]) if name in stack else name
    return DefinitionError(
        definition,
        ExpressionError("recursion", f"definitions may not call themselves: {chain}", 0, len(definition.text),
                        hint="the language has no recursion; use a quantifier over a finite list"),
    )


def did_you_mean(name: str, candidates: list[str]) -> str | None:
    """`did you mean `x`?` for the closest candidate, or None."""
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.7)
    return f"did you mean `{close[0]}`?" if close else None
