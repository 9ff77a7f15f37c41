"""Constant folding for the compiler: the parts of an expression whose value is the same at every evaluation
(literals, symbols, parameters, and what is made of them alone, definitions included) are worked out once, at
load time. A clause such as `not (leading and strict)` costs nothing when the definition `strict` is `false`.

The language has no side effects, so a part that cannot change the result is not evaluated at all:
`false and first(trick).suit == trump` is false even on an empty trick (where `first` would fail).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from typing import Any

from interpreter.dsl import ast
from interpreter.dsl.builtins import BUILTINS
from interpreter.dsl.checker import Environment
from interpreter.dsl.definitions import Annotations, Instance

UNKNOWN: Any = object()  # not a constant (also the "not worked out yet" marker of generated code)

_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "+": operator.add, "-": operator.sub, "*": operator.mul, "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b}


class Folding:
    """What one ruleset's compilation knows of its constants: the values of its parameterless definitions that
    are constant, and the keys under which values worked out once per evaluation are kept."""

    def __init__(self, environment: Environment) -> None:
        self.environment = environment
        self.values: dict[str, Any] = {}
        self.hoisted: dict[Any, str] = {}  # a call as written (compiler._shape) -> the key of its value in `B`
        self.helpers: list[str] = []  # the functions quantifiers are written as, by name
        # The code of values that hold lists (a list of lists, a list per seat): such a value is worked out once for
        # two places only where both count or compare it, since otherwise they would share its lists (sharing.py).
        self.holding_lists: set[str] = set()
        self.memo_keys: dict[tuple[Any, ...], str] = {}  # (definition, names it reads and their types) -> its key
        self._instances: dict[str, Instance] = {}  # the instances by function name (see `instance`)

    def memo_key(self, function_name: str) -> str:
        """The key under which a parameterless definition's value is kept in `B`: one key for every instance of
        the definition that reads the same bound names with the same types (instances checked in different
        places, a card's clauses and a choice's arguments, then share the value within one decision)."""
        instance = self.instance(function_name)
        if instance is None or instance.annotations is None:
            return function_name
        reads = tuple(sorted((name, str(instance.context.get(name))) for name in instance.annotations.used_context))
        return self.memo_keys.setdefault((instance.definition.name, reads), function_name)

    def instance(self, function_name: str) -> Instance | None:
        """The checked instance of a definition a generated function name stands for."""
        found = self._instances.get(function_name)
        if found is None:  # (instances are made as expressions are checked: look again)
            self._instances = {i.function_name: i for i in self.environment.instances.values()}
            found = self._instances.get(function_name)
        return found

    def unchanging(self, node: ast.Name, annotations: Annotations, *, indexed: bool) -> Any:
        """The value of a variable that no step changes (interpreter/unchanging.py) read by `node` (a name that no
        binding hides): the value on the table, or an owner's, read by an index or at the bound `player`; else
        UNKNOWN."""
        found = self.environment.unchanging.get(node.identifier)
        if found is None or id(node) in annotations.bound:
            return UNKNOWN
        per, value = found
        if per == "table" and not indexed:
            return value
        if per != "table" and (indexed or id(node) in annotations.implicit_index):
            return value
        return UNKNOWN

    def definition(self, function_name: str, *, called: bool = False) -> Any:
        """The value of a parameterless definition when it is constant, else UNKNOWN; `called`: of a definition
        with parameters, whatever its arguments (`owes(p): true`), when its body is constant without them."""
        if function_name not in self.values:
            self.values[function_name] = UNKNOWN
            instance = self.instance(function_name)
            if instance is not None and instance.annotations is not None and not instance.failed \
                    and (called or not instance.definition.parameters):
                self.values[function_name] = constant_value(instance.definition.body, instance.annotations,
                                                            instance.definition.parameters, self)
        return self.values[function_name]


def truth(value: Any) -> bool | None:
    """A constant's truth, or None when it is not a constant."""
    return None if value is UNKNOWN else bool(value)


def constant_value(node: ast.Node, annotations: Annotations, local_names: Iterable[str],
                   folding: Folding | None) -> Any:
    """The node's value when it is the same at every evaluation, else UNKNOWN. `local_names` are the
    quantifier variables and definition parameters in scope (never constant)."""
    constants = annotations.constants
    if id(node) in constants:
        return constants[id(node)]
    if isinstance(node, ast.Literal):
        return node.value
    if isinstance(node, ast.Name):
        call = annotations.calls.get(id(node))
        if folding is None or node.identifier in local_names:
            return UNKNOWN
        if call is None:  # (a variable no step changes, read on the table or at the bound `player`)
            return folding.unchanging(node, annotations, indexed=False)
        return folding.definition(call)
    if isinstance(node, ast.Index) and isinstance(node.subject, ast.Name) and folding is not None and \
            node.subject.identifier not in local_names and id(node.subject) not in annotations.calls:
        found = folding.unchanging(node.subject, annotations, indexed=True)  # (one owner's: all are the same)
        if found is not UNKNOWN:
            return found

    def inner(part: ast.Node) -> Any:
        return constant_value(part, annotations, local_names, folding)

    if isinstance(node, ast.Unary):
        operand = inner(node.operand)
        if operand is UNKNOWN:
            return UNKNOWN
        return (not operand) if node.operator == "not" else -operand
    if isinstance(node, ast.Conditional):
        condition = inner(node.condition)
        return UNKNOWN if condition is UNKNOWN else inner(node.then if condition else node.otherwise)
    if isinstance(node, ast.Binary):
        left, right = inner(node.left), inner(node.right)
        if node.operator in ("and", "or"):  # both sides are booleans (the checker says so)
            deciding = node.operator == "or"  # the value that decides the result on either side
            if deciding in (truth(left), truth(right)):
                return deciding
            return not deciding if UNKNOWN not in (left, right) else UNKNOWN
        function = _OPERATORS.get(node.operator)
        if function is None or left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        try:
            return function(left, right)
        except TypeError:
            return UNKNOWN
    if isinstance(node, ast.Call) and id(node) in annotations.calls:  # a definition whose body reads no argument
        return UNKNOWN if folding is None else folding.definition(annotations.calls[id(node)], called=True)
    if isinstance(node, ast.Call) and id(node) not in annotations.calls:  # a builtin of constant values only
        builtin = BUILTINS.get(node.function)
        if builtin is None or builtin.context != "none":  # (one that reads the deck or the table is not folded)
            return UNKNOWN
        values = [inner(argument) for argument in node.arguments]
        if not all(value.__class__ in (bool, int, str) for value in values):
            return UNKNOWN
        try:
            return builtin.implementation(*values)
        except Exception:  # (a failure is the evaluation's to report, where it happens)
            return UNKNOWN
    return UNKNOWN
