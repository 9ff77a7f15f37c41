"""The checks of operators: arithmetic, comparisons (where a bare number or a card name takes its type from the
other side), membership, `and`/`or`/`not`, `if`, and the null tests that narrow an optional value."""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.dsl import ast
from interpreter.dsl.types import (
    ANY,
    BOOL,
    CARD,
    INT,
    NULL,
    NUM,
    NUMBERS,
    PARAMS,
    RANK,
    SEAT,
    STR,
    Type,
    compatible,
    join,
    list_of,
)
from interpreter.errors import ExpressionError, article

if TYPE_CHECKING:
    from interpreter.dsl.checker import Environment

Locals = dict[str, Type]
Narrowed = frozenset[str]


class OperatorChecks:
    """The part of the checker for operators (mixed into it)."""

    if TYPE_CHECKING:  # provided by the checker
        environment: Environment

        def check(self, node: ast.Node, local: Locals, narrowed: Narrowed, expected: Type | None) -> Type: ...
        def _fail(self, node: ast.Node, code: str, message: str, hint: str | None = None,
                  start: int | None = None, end: int | None = None) -> ExpressionError: ...
        def _expect(self, node: ast.Node, expected: Type, local: Locals, narrowed: Narrowed, what: str) -> Type: ...

    def _check_unary(self, node: ast.Unary, local: Locals, narrowed: Narrowed, expected: Type | None) -> Type:
        if node.operator == "not":
            self._expect(node.operand, BOOL, local, narrowed, "the operand of `not`")
            return BOOL
        return INT if self._expect(node.operand, NUM, local, narrowed, "the operand of `-`") == INT else NUM

    def _check_binary(self, node: ast.Binary, local: Locals, narrowed: Narrowed, expected: Type | None) -> Type:
        operator = node.operator
        if operator in ("and", "or"):
            self._expect(node.left, BOOL, local, narrowed, f"the left side of `{operator}`")
            inner = narrowed | null_guards(node.left, "!=" if operator == "and" else "==")
            self._expect(node.right, BOOL, local, inner, f"the right side of `{operator}`")
            return BOOL
        if operator in ("in", "not in"):
            if isinstance(node.right, ast.ListDisplay) and not _is_number(node.left):
                # `c.rank in [7, 8, 9]`: the item's type guides the numbers in the list.
                item = self.check(node.left, local, narrowed, None)
                container = self.check(node.right, local, narrowed, list_of(_plain(item) or ANY))
            else:
                container = self.check(node.right, local, narrowed, None)
                if container == ANY:
                    self.check(node.left, local, narrowed, None)
                    return BOOL
                if not container.is_list:
                    raise self._fail(node.right, "type", f"`{operator}` needs a list on its right, not {container}")
                item = self.check(node.left, local, narrowed,
                                  None if container.element == ANY else container.element)
            if not container.is_list:
                raise self._fail(node.right, "type", f"`{operator}` needs a list on its right, not {container}")
            if not (compatible(container.element, item) or compatible(item, container.element)):
                raise self._fail(node, "type", f"{_article(item)} is never in a list of {container.element}")
            return BOOL
        comparison = operator in ("==", "!=", "<", "<=", ">", ">=")
        # Check first the side that says most about its type; it guides a card name or a number on the other.
        left_first = _type_strength(node.left) >= _type_strength(node.right)
        first, second = (node.left, node.right) if left_first else (node.right, node.left)
        first_type = self.check(first, local, narrowed, None)
        second_type = self.check(second, local, narrowed, _plain(first_type) if comparison else None)
        left, right = (first_type, second_type) if left_first else (second_type, first_type)
        if ANY in (left, right):
            return BOOL if operator in ("==", "!=", "<", "<=", ">", ">=") else (
                ANY if operator == "+" else INT)
        if operator in ("==", "!="):
            return self._check_equality(node, left, right)
        if operator in ("<", "<=", ">", ">="):
            if not (left in NUMBERS and right in NUMBERS) and (left != right or left != RANK):
                raise self._fail(node, "type", f"`{operator}` compares two numbers or two ranks, not "
                                 f"{left} and {right}", _optional_hint(node, left, right))
            return BOOL
        if operator == "+" and left == STR and right == STR:  # two texts joined
            return STR
        if operator == "+" and left.is_list and right.is_list:
            joined = join(left, right)
            if joined is None:
                raise self._fail(node, "type", f"cannot join {left} and {right}")
            return joined
        if left not in NUMBERS or right not in NUMBERS or (operator in ("//", "%") and NUM in (left, right)):
            hint = "`+` also joins two lists, or two texts" if operator == "+" else None
            if operator in ("//", "%") and left in NUMBERS and right in NUMBERS:
                raise self._fail(node, "type", f"`{operator}` needs two whole numbers, not {left} and {right}",
                                 "a fraction is rounded with `floor(x)` or `ceil(x)`")
            if "optional" in (left.name, right.name):
                hint = _optional_hint(node, left, right)
            elif RANK in (left, right):
                hint = "ranks are not numbers: `order(c.rank)` gives a rank's position"
            elif operator == "+" and STR in (left, right):
                # (`'p' + player` in a log line: the line's own `{...}` writes any value as text)
                hint = f"`+` joins two texts, and {right if left == STR else left} is not one: in a log line, " \
                    "write the value in its own braces (`p{player} goes alone`, `{c} wins`)"
            elif SEAT in (left, right):
                hint = "seats are not numbers: use `next_seat(seat)` or `seats_from(seat)`"
            wanted = "adds two numbers or joins two texts" if operator == "+" and STR in (left, right) \
                else "needs two numbers"
            raise self._fail(node, "type", f"`{operator}` {wanted}, not {left} and {right}", hint)
        return NUM if operator == "/" or NUM in (left, right) else INT

    def _check_equality(self, node: ast.Binary, left: Type, right: Type) -> Type:
        if not (compatible(left, right) or compatible(right, left)) and not self._optional_parameter_test(node):
            from interpreter.dsl.checker import number_for_seat_hint

            hint = "compare a card's rank with a rank: `c.rank == K`" if CARD in (left, right) else \
                number_for_seat_hint(left, right) or number_for_seat_hint(right, left)
            raise self._fail(node, "type", f"comparing {left} with {right} is always false", hint=hint)
        self._check_choice(node)
        return BOOL

    def _optional_parameter_test(self, node: ast.Binary) -> bool:
        """`params.limit == null` where the optional parameter has a value: false here, true in another
        configuration of the same rules (a variant's default, a `--set`), so no mistake."""
        for subject, other in ((node.left, node.right), (node.right, node.left)):
            if (isinstance(subject, ast.Field) and isinstance(subject.subject, ast.Name)
                    and subject.subject.identifier == "params" and isinstance(other, ast.Literal)
                    and other.value is None):
                parameter = self.environment.parameters.get(subject.field)
                return parameter is not None and parameter.declared_optional
        return False

    def _check_choice(self, node: ast.Binary) -> None:
        for subject, other in ((node.left, node.right), (node.right, node.left)):
            if (isinstance(subject, ast.Field) and isinstance(subject.subject, ast.Name)
                    and subject.subject.identifier == "params" and isinstance(other, ast.Literal)
                    and isinstance(other.value, str)):
                parameter = self.environment.parameters.get(subject.field)
                if parameter and parameter.choices and other.value not in parameter.choices:
                    raise self._fail(other, "type", f"{other.value!r} is not a choice of params.{subject.field}",
                                     hint="choices: " + ", ".join(parameter.choices))

    def _check_conditional(self, node: ast.Conditional, local: Locals, narrowed: Narrowed,
                           expected: Type | None) -> Type:
        self._expect(node.condition, BOOL, local, narrowed, "the condition of `if`")
        then_narrowed = narrowed | null_guards(node.condition, "!=")
        else_narrowed = narrowed | null_guards(node.condition, "==")
        # A bare number says least about its type: check the other branch first so it can guide it.
        if _is_number(node.then) and not _is_number(node.otherwise):
            else_type = self.check(node.otherwise, local, else_narrowed, expected)
            then_type = self.check(node.then, local, then_narrowed, expected or _plain(else_type))
        else:
            then_type = self.check(node.then, local, then_narrowed, expected)
            else_type = self.check(node.otherwise, local, else_narrowed, expected or _plain(then_type))
        joined = join(then_type, else_type)
        if joined is None:
            raise self._fail(node, "type", f"the two branches differ: {then_type} and {else_type}")
        return joined


def _type_strength(node: ast.Node) -> int:
    """How much a node's own text fixes its type: a bare number least, a card name more, anything else most."""
    if _is_number(node):
        return 0
    if isinstance(node, (ast.Literal, ast.Symbol, ast.ListDisplay)):
        return 1
    return 2


def _plain(kind: Type) -> Type | None:
    """The expectation passed to the other side of a comparison (guides symbols and literals)."""
    if kind.name == "optional":
        return kind.element
    return None if kind in (ANY, NULL, PARAMS) else kind


def null_guards(node: ast.Node, operator: str) -> frozenset[str]:
    """Everything known not to be null (`!=`, through `and`) or tested null (`==`, through `or`) by `node`."""
    chain = "and" if operator == "!=" else "or"
    if isinstance(node, ast.Binary) and node.operator == chain:
        return null_guards(node.left, operator) | null_guards(node.right, operator)
    tested = _null_test(node, operator)
    return frozenset({tested}) if tested else frozenset()


def _optional_hint(node: ast.Binary, left: Type, right: Type) -> str | None:
    """`null_hint` for the side of a binary operation that may be null, if one may."""
    if left.name == "optional":
        return null_hint(node.left)
    return null_hint(node.right) if right.name == "optional" else None


def _is_number(node: ast.Node) -> bool:
    return isinstance(node, ast.Literal) and isinstance(node.value, int) and not isinstance(node.value, bool)


def _article(kind: Type) -> str:
    text = str(kind)
    return f"{article(text)} {text}"


def _null_test(node: ast.Node, operator: str) -> str | None:
    """What `node` tests against null with `operator` (see `guard_key`)."""
    if not (isinstance(node, ast.Binary) and node.operator == operator):
        return None
    for subject, other in ((node.left, node.right), (node.right, node.left)):
        if isinstance(other, ast.Literal) and other.value is None:
            key = guard_key(subject)
            if key is not None:
                return key
    return None


def guard_key(node: ast.Node) -> str | None:
    """The name under which a test against null narrows `node`: `params.NAME`, a plain NAME (an optional
    variable), or an item of a value per owner or a list read by a name or a number (`bid[p]`, `bid[0]`),
    which nothing changes within one expression; None for anything else."""
    if isinstance(node, ast.Field) and isinstance(node.subject, ast.Name) and node.subject.identifier == "params":
        return f"params.{node.field}"
    if isinstance(node, ast.Name):
        return node.identifier
    if isinstance(node, ast.Index) and isinstance(node.subject, ast.Name):
        index = node.index
        if isinstance(index, ast.Name):
            return f"{node.subject.identifier}[{index.identifier}]"
        if _is_number(index):
            return f"{node.subject.identifier}[{index.value}]"  # type: ignore[attr-defined]
    return None


def null_hint(node: ast.Node) -> str:
    """How to read a value that may be null where one that is not is needed: test it first."""
    key = guard_key(node) or "params.x"
    return (f"test it first: `if {key} == null then ... else ...`, or `{key} != null and ...` (in a loop, "
            f"after the items: `... if {key} != null`)")


def without_name(narrowed: frozenset[str], name: str) -> frozenset[str]:
    """The narrowings that still hold where `name` is bound anew (a quantifier's variable): none that reads it."""
    return frozenset(key for key in narrowed if key != name and not key.endswith(f"[{name}]")
                     and not key.startswith(f"{name}["))
