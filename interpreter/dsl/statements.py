"""What a filter works out once, written as statements (see compiler.py, `Program.add_filter`).

A filter keeps the items for which its conditions hold. Its tests that read nothing of an item (`leading`,
`not holds_led_suit`, `not must_head`) are worked out once per call, before the items are looked at. The expression
compiler writes every test as one expression, and a parameterless definition read there as a value kept at its
first use: `(k if k is not UNSET else (k := (B[key] if key in B else B.setdefault(key, <body>))))` at every read.
Here those tests are written as statements instead:

- `and`, `or`, `not` and `if ... then ... else` become `if` statements over plain locals;
- a parameterless definition is written in place where it is first needed, its body written as statements too,
  into a local that every later read uses as it is (in the local only, not in `B`: a quantifier's function the
  filter calls keeps what it needs in `B` itself); where it was worked out in one branch of an `if` only, a later
  read works it out again when it is still unset;
- `any` and `all` whose test starts with tests that read nothing of the item (`any(heads(c) for c in allowed)`,
  `heads(c): not leading and beats(c, trick_winner(trick, trump), trump)`, seen through the definitions called
  with the item alone) become a loop written in the filter itself, after those tests, with what every item's test
  works out (`trick_winner(...)`, the cards that beat it) worked out before the loop;
- any other quantifier or comprehension over a zone, a variable or a definition has that list worked out first
  into a local, so that one the expression compiler makes in C is written in place rather than as a function of
  its own (`led in map(SUIT_OF, t_0) if t_0 else False`).

Nothing is worked out that the expression would not have worked out, and a value worked out where the expression
worked it out later (a definition read in a test, before the test's other parts) fails only where the expression
too would have failed, with another failure at most: a filter that fails is never reported from its own code (its
callers test the clauses one by one instead, which name the failure).

What this module uses of the emitter (compiler.py, `_Emitter`): `emit`, `constant`, `annotations`, `folding`,
`locals`, the values kept in locals (`kept_locally`) and those certainly worked out where the code goes
(`assigned`, which `_Emitter._kept` reads), the locals that loops written here bind (`statement_local`), the
values worked out before a loop (`eager`, `eager_lines`), the nodes whose value a statement worked out
(`written_as`) and `_bound`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from interpreter.dsl import ast
from interpreter.dsl.folding import UNKNOWN

# The most definitions deep that one of them is written here in place of its reads (beyond: the expression's form).
_DEPTH = 8
_LOCAL = re.compile(r"t_\d+|k_\w+")  # a local the statements write
# How `any` and `all` are written as a loop here: how the tests of their test are joined (the first ones, read from
# no item, are worked out before the loop), their value when the loop runs to its end and when it stops early, and
# what makes it run and stop (the tests before it, and an item's test, holding for `any`, failing for `all`).
_LOOPS = {"any": ("and", "False", "True", ""), "all": ("or", "True", "False", "not ")}


def worked_out_first(node: ast.Node) -> Iterator[ast.Node]:
    """The nodes an expression always works out: not those behind `and`, `or` or a conditional's branches, nor
    inside a quantifier or a comprehension (whose items may be none)."""
    yield node
    if isinstance(node, ast.Binary) and node.operator in ("and", "or"):
        yield from worked_out_first(node.left)
    elif isinstance(node, ast.Conditional):
        yield from worked_out_first(node.condition)
    elif not isinstance(node, (ast.Quantifier, ast.Comprehension)):
        for child in ast.children(node):
            yield from worked_out_first(child)


def reads(node: ast.Node, variable: str) -> bool:
    """Whether a name `variable` occurs in the node (bound there or not: a conservative answer)."""
    return any((isinstance(child, ast.Name) and child.identifier == variable) or
               (isinstance(child, (ast.Quantifier, ast.Comprehension)) and child.variable == variable)
               for child in nodes(node))


def nodes(node: ast.Node) -> Iterator[ast.Node]:
    """The node and every node inside it."""
    yield node
    for child in ast.children(node):
        yield from nodes(child)


def chain(node: ast.Node, operator: str) -> list[ast.Node]:
    """The tests of a test made of tests joined by `operator` (`and`, `or`), in order."""
    if isinstance(node, ast.Binary) and node.operator == operator:
        return chain(node.left, operator) + chain(node.right, operator)
    return [node]


class Statements:
    """The lines of a filter's function that work out its tests read from no item, written as statements.

    `kept`: the locals of the values kept for the filter's call (key -> local, shared with the emitters: `_Emitter.
    kept_locally`); `assigned`: those certainly worked out at the line being written (shared with the emitters too,
    and kept up to date here: a value worked out in one branch of an `if` only is forgotten after it); `body`: for a
    definition's function name and the emitter reading it, an emitter writing its body in its own terms (the
    parameters bound to the given codes), or None when it is not written here."""

    def __init__(self, kept: dict[str, str], assigned: dict[str, str],
                 body: Callable[[str, Any, dict[str, str]], Any]) -> None:
        self.kept = kept
        self.assigned = assigned
        self.body = body
        self.lines: list[str] = []  # (the function's, which the caller writes to as well)
        self.indent = 1
        self.depth = 0
        self.count = 0

    def either(self, emitter: Any, tests: list[ast.Node]) -> str:
        """Lines working out whether any of the tests holds (in order, stopping at the first that does); the
        code of the answer, valid after them."""
        if len(tests) == 1:
            return self.value(emitter, tests[0])
        local = self._local()
        self._write(f"{local} = {self.value(emitter, tests[0])}")
        for test in tests[1:]:
            self._write(f"if not {local}:")
            with self._branch():
                self._write(f"{local} = {self.value(emitter, test)}")
        return local

    def value(self, emitter: Any, node: ast.Node) -> str:
        """Lines working out the node's value; its code, valid after them."""
        if emitter.constant(node) is not UNKNOWN:
            return str(emitter.emit(node))
        if isinstance(node, ast.Binary) and node.operator in ("and", "or"):
            return self._joined(emitter, node)
        if isinstance(node, ast.Unary) and node.operator == "not":
            return f"(not {self.value(emitter, node.operand)})"
        if isinstance(node, ast.Conditional):
            return self._conditional(emitter, node)
        if isinstance(node, ast.Name) and id(node) in emitter.annotations.calls and \
                emitter.annotations.calls[id(node)] in emitter.annotations.memoised:
            return self._definition(emitter, node)
        if isinstance(node, ast.Quantifier):
            written = self._quantifier(emitter, node)
            if written is not None:
                return written
        # (anything else, as the expression is written; the definitions it always works out written first)
        if isinstance(node, (ast.Quantifier, ast.Comprehension)) and isinstance(node.collection, (ast.Name, ast.Index)):
            # (the list it goes over worked out first, into a local: `any(c.suit == led for c in hand)` is then
            # written in place, `led in map(SUIT_OF, t_0) if t_0 else False`, where it would call a function of
            # its own to read `hand` once)
            collection = self.value(emitter, node.collection)
            if not _LOCAL.fullmatch(collection):
                local = self._local()
                self._write(f"{local} = {collection}")
                collection = local
            emitter.written_as[id(node.collection)] = collection
            try:
                return str(emitter.emit(node))
            finally:
                del emitter.written_as[id(node.collection)]
        for part in worked_out_first(node):
            if part is not node and isinstance(part, ast.Name) and id(part) in emitter.annotations.calls and \
                    emitter.annotations.calls[id(part)] in emitter.annotations.memoised and \
                    emitter.constant(part) is UNKNOWN:  # (a constant one is written as its value)
                self._definition(emitter, part)
        return str(emitter.emit(node))

    def _joined(self, emitter: Any, node: ast.Binary) -> str:
        neutral = node.operator == "and"  # (a side that cannot decide the result is left out, as in the emitter)
        for side, other in ((node.left, node.right), (node.right, node.left)):
            value = emitter.constant(side)
            if value is not UNKNOWN and bool(value) == neutral:
                return self.value(emitter, other)
        local = self._local()
        self._write(f"{local} = {self.value(emitter, node.left)}")
        self._write(f"if {'' if neutral else 'not '}{local}:")
        with self._branch():
            self._write(f"{local} = {self.value(emitter, node.right)}")
        return local

    def _conditional(self, emitter: Any, node: ast.Conditional) -> str:
        condition = emitter.constant(node.condition)
        if condition is not UNKNOWN:
            return self.value(emitter, node.then if condition else node.otherwise)
        local = self._local()
        self._write(f"if {self.value(emitter, node.condition)}:")
        with self._branch() as then:
            self._write(f"{local} = {self.value(emitter, node.then)}")
        self._write("else:")
        with self._branch() as otherwise:
            self._write(f"{local} = {self.value(emitter, node.otherwise)}")
        self.assigned.update({key: kept for key, kept in then.items() if otherwise.get(key) == kept})
        return local

    def _definition(self, emitter: Any, node: ast.Name) -> str:
        """A parameterless definition's value: its local, written here when it is not certainly worked out yet."""
        call = emitter.annotations.calls[id(node)]
        key = emitter.folding.memo_key(call)
        local = self.assigned.get(key)
        if local is not None:
            return str(local)
        inner = self.body(call, emitter, {}) if self.depth < _DEPTH else None
        if inner is None:
            return str(emitter.emit(node))
        instance = emitter.folding.instance(call)
        local = self.kept.setdefault(key, f"k_{key}")
        with ExitStack() as unless_known:
            if self._maybe_assigned(local):  # (by a line before, whichever way the function went)
                self._write(f"if {local} is UNSET:")
                unless_known.enter_context(self._branch())
            self.depth += 1
            try:
                value = self.value(inner, instance.definition.body)
            finally:
                self.depth -= 1
            self._write(f"{local} = {value}")
        self.assigned[key] = local
        return local

    def _quantifier(self, emitter: Any, node: ast.Quantifier) -> str | None:
        """`any` or `all` whose test starts with tests read from nothing of the item: a loop written here after
        them (see the module's text); None for any other quantifier."""
        if node.function not in _LOOPS or node.condition is not None:
            return None
        joiner, ended, stopped, negation = _LOOPS[node.function]
        seen = self._item_test(emitter, node.body, node.variable, f"v_{node.variable}")
        if seen is None:
            return None
        tester, test, item = seen
        tests = chain(test, joiner)
        first = next((number for number, part in enumerate(tests) if reads(part, item)), len(tests))
        if first in (0, len(tests)):
            return None
        collection = self._local()
        self._write(f"{collection} = {self.value(emitter, node.collection)}")
        result = self._local()
        self._write(f"{result} = {ended}")
        self._write(f"if {collection}:")
        with ExitStack() as levels, self._looping(tester, item):
            levels.enter_context(self._branch())
            for part in tests[:first]:  # (the tests read from no item: worked out once, in order)
                self._write(f"if {negation}{self.value(tester, part)}:")
                levels.enter_context(self._branch())
            tester.eager = {id(part) for part in worked_out_first(tests[first])}
            try:
                code = f" {joiner} ".join(f"({tester.emit(part)})" for part in tests[first:])
            finally:
                tester.eager = set()
            for local, value in tester.eager_lines:  # (what the first item's test works out: before the loop)
                self._write(f"if {local} is UNSET:")
                with self._branch():
                    self._write(f"{local} = {value}")
                self.assigned.update((key, kept) for key, kept in self.kept.items() if kept == local)
            tester.eager_lines.clear()
            self._write(f"for v_{node.variable} in {collection}:")
            with self._branch():
                self._write(f"if {negation}{code}:")
                with self._branch():
                    self._write(f"{result} = {stopped}")
                    self._write("break")
        return result

    def _item_test(self, emitter: Any, test: ast.Node, item: str, code: str) -> tuple[Any, ast.Node, str] | None:
        """A quantifier's test as written, seen through the definitions it calls with the item alone
        (`heads(c)`: the body of `heads`, its parameter standing for the item) and the conditionals whose
        condition is constant: the emitter writing it, the test, and the name of the item there."""
        for _ in range(_DEPTH):
            if isinstance(test, ast.Conditional) and emitter.constant(test.condition) is not UNKNOWN:
                test = test.then if emitter.constant(test.condition) else test.otherwise
                continue
            call = emitter.annotations.calls.get(id(test))
            if call is None or not isinstance(test, ast.Call) or len(test.arguments) != 1 or \
                    not isinstance(test.arguments[0], ast.Name) or test.arguments[0].identifier != item:
                return emitter, test, item
            instance = emitter.folding.instance(call)
            if instance is None or len(instance.definition.parameters) != 1:  # (one parameter: the item)
                return emitter, test, item
            parameters = instance.definition.parameters
            inner = self.body(call, emitter, {parameters[0]: code})
            if inner is None:
                return emitter, test, item
            emitter, test, item = inner, instance.definition.body, parameters[0]
        return None

    @contextmanager
    def _looping(self, emitter: Any, item: str) -> Iterator[None]:
        """Writing the test of a loop written here: the item bound (a local of the filter's function)."""
        with ExitStack() as writing:
            writing.enter_context(emitter.statement_local(item))
            if item not in emitter.locals:  # (else a definition's parameter, bound to the item already)
                writing.enter_context(emitter._bound(item))
            yield

    @contextmanager
    def _branch(self) -> Iterator[dict[str, str]]:
        """Lines one level in, under an `if`, `else` or `for`: what is worked out there only is forgotten after
        (what was worked out there, given to the caller)."""
        before = dict(self.assigned)
        self.indent += 1
        found: dict[str, str] = {}
        try:
            yield found
        finally:
            self.indent -= 1
            found.update(self.assigned)
            self.assigned.clear()
            self.assigned.update(before)

    def _maybe_assigned(self, local: str) -> bool:
        """Whether a line written before may have given the local a value (a test's code keeps a value it works
        out in a local too, `(k if k is not UNSET else (k := ...))`)."""
        assigned = re.compile(rf"\b{re.escape(local)}\s*(:=|=(?!=))")
        return any(assigned.search(line) for line in self.lines)

    def _local(self) -> str:
        self.count += 1
        return f"t_{self.count - 1}"

    def _write(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)
