"""Which generated functions may change the bound names they are given (`B`).

A function of generated code takes the decision's or the step's bound names as `B`. A definition keeps its value
there (`B.setdefault('d_...', ...)`), a filter may bind each candidate there (`B['card'] = item`), and either may
call another function that does. A caller that hands over bindings it must keep as they are (a pending decision's,
read again by the steps that follow the action) gives such a function a copy; a function that changes none needs
none. This pass reads the generated source as Python and answers, for each function, whether it or anything it
calls may change `B`: an assignment to or deletion of an entry, a call of one of its changing methods, or `B`
handed to a function that may, or anywhere this pass cannot follow (to a function that is not generated, kept in
another name). It answers "may" whenever it cannot tell.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

BINDINGS = "B"
_CHANGING_METHODS = frozenset({"setdefault", "pop", "popitem", "update", "clear", "__setitem__", "__delitem__"})


def changing_bindings(source: str) -> frozenset[str]:
    """The names of the module's top-level functions that may change the `B` they are given."""
    functions = {node.name: node for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)}
    changing: set[str] = set()
    calls: dict[str, set[str]] = {}
    for name, function in functions.items():
        found = _callees(function, functions)
        if found is None:
            changing.add(name)
        else:
            calls[name] = found
    # (whatever calls a function that changes `B` with it changes it too, to a fixed point)
    grown = True
    while grown:
        grown = False
        for name, callees in calls.items():
            if name not in changing and not callees.isdisjoint(changing):
                changing.add(name)
                grown = True
    return frozenset(changing)


def _callees(function: ast.FunctionDef, functions: Iterable[str]) -> set[str] | None:
    """The generated functions `function` hands its `B` to; None when it changes `B` itself, or uses it in a way
    this pass does not follow."""
    known = set(functions)
    handed: set[str] = set()
    parents = {id(child): parent for parent in ast.walk(function) for child in ast.iter_child_nodes(parent)}
    for node in ast.walk(function):
        if not (isinstance(node, ast.Name) and node.id == BINDINGS):
            continue
        if not isinstance(node.ctx, ast.Load):
            return None  # (`B` itself rebound: not followed)
        parent = parents.get(id(node))
        if isinstance(parent, ast.Subscript) and parent.value is node:
            if not isinstance(parent.ctx, ast.Load):
                return None  # `B[...] = ...`, `del B[...]`
            continue  # a read
        if isinstance(parent, ast.Compare) and node is not parent.left:
            continue  # `'name' in B`
        if isinstance(parent, ast.Attribute) and parent.value is node:
            if parent.attr in _CHANGING_METHODS or parent.attr not in ("get", "__contains__", "__getitem__"):
                return None  # `B.setdefault(...)`, or a method not known to leave it as it is
            continue
        if isinstance(parent, ast.Call) and node in parent.args:
            callee = parent.func
            if isinstance(callee, ast.Name) and callee.id == "dict":
                continue  # a copy
            # (every generated function takes the bindings second, as `B`: `q_3(V, B, items)`)
            if isinstance(callee, ast.Name) and callee.id in known and parent.args.index(node) == 1:
                handed.add(callee.id)
                continue
        return None  # handed elsewhere, kept, or used in a way not followed
    return handed
