"""The immutable syntax tree of an expression; every node keeps its span in the expression text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Node:
    start: int
    end: int


@dataclass(frozen=True)
class Literal(Node):
    """An int, a bool, a string or null."""

    value: int | bool | str | None


@dataclass(frozen=True)
class Symbol(Node):
    """An upper-case name: a card (`AH`), a rank (`K`) or a suit (`H`) of the deck."""

    text: str


@dataclass(frozen=True)
class Name(Node):
    identifier: str


@dataclass(frozen=True)
class Field(Node):
    subject: Node
    field: str


@dataclass(frozen=True)
class Index(Node):
    subject: Node
    index: Node


@dataclass(frozen=True)
class Call(Node):
    function: str
    arguments: tuple[Node, ...]
    name_end: int  # the end of the function name, for errors about the name


@dataclass(frozen=True)
class Quantifier(Node):
    """`any(P for c in hand if Q)` or `highest(c in hand by KEY)`: binds `variable` to each item of
    `collection` (those satisfying `condition`, if any) and aggregates `body` over them."""

    function: str
    variable: str
    collection: Node
    body: Node
    condition: Node | None = None


@dataclass(frozen=True)
class Comprehension(Node):
    """`[E for c in hand if P]`: a new list (`[c for c in hand if P]` filters)."""

    result: Node
    variable: str
    collection: Node
    condition: Node | None


@dataclass(frozen=True)
class ListDisplay(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Unary(Node):
    operator: str  # "-" or "not"
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    operator: str  # + - * // % == != < <= > >= in "not in" and or
    left: Node
    right: Node


@dataclass(frozen=True)
class Conditional(Node):
    condition: Node
    then: Node
    otherwise: Node


def children(node: Node) -> tuple[Node, ...]:
    """The direct sub-expressions of a node."""
    if isinstance(node, Field):
        return (node.subject,)
    if isinstance(node, Index):
        return (node.subject, node.index)
    if isinstance(node, Call):
        return node.arguments
    if isinstance(node, ListDisplay):
        return node.items
    if isinstance(node, Quantifier):
        return tuple(part for part in (node.collection, node.body, node.condition) if part is not None)
    if isinstance(node, Comprehension):
        return tuple(part for part in (node.collection, node.result, node.condition) if part is not None)
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, Conditional):
        return (node.condition, node.then, node.otherwise)
    return ()


def free_names(node: Node, bound: set[str]) -> list[Name]:
    """The names an expression reads that it does not bind itself (quantifier variables are bound)."""
    if isinstance(node, Name):
        return [] if node.identifier in bound else [node]
    if isinstance(node, Field) and isinstance(node.subject, Name) and node.subject.identifier == "params":
        return []
    if isinstance(node, (Quantifier, Comprehension)):
        inner = bound | {node.variable}
        found = free_names(node.collection, bound)
        for part in children(node)[1:]:
            found += free_names(part, inner)
        return found
    return [name for child in children(node) for name in free_names(child, bound)]
