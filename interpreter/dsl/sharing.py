"""Common subexpressions of a generated function, worked out once.

A ruleset written as people write it repeats itself: `ranks_of(h)` three times in one test of a straight,
`[c.rank for c in s]` three times in the test of a run, and a definition written in place of its calls carries
its own repeats into the caller. Once the expression compiler (compiler.py) has written a function, this pass
finds, within each of its expressions, the calls written more than once with the same code and keeps each one's
value in a local of the function: the first place reached works it out (`(s_0 if s_0 is not UNSET else (s_0 :=
call))`), the others read it. Nothing is worked out that was not before, nothing is worked out twice, and a
failure happens where it did, at the same call.

What is shared, and where:
- calls of the ruleset's definitions and quantifiers (`d_`, `q_`), of builtins (`B_`, `Q_`) and of the lists and
  sums made in C (`list(map(...))`, `sum(map(...))`), all of which read only their arguments, the game's values
  and the decision's bound names, none of which an expression changes;
- within one statement: the value a function returns, or the test or the step of a quantifier's loop (kept for one
  item: the locals start again at each item);
- not inside a comprehension or a lambda (a local bound there belongs to another scope), and only where every
  place that holds the code is a place found here (the same text elsewhere in the function: nothing is shared);
- only values that are consumed where they are read (compared, added, indexed, given to a builtin or a test):
  a list shared by two places that both end up in the result would be one list where there were two; and never
  a value that holds lists (a list of lists: the compiler names them, from their types) unless every place only
  counts or compares it, since an index, `first` or `+` would hand on its lists from both places.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from collections.abc import Set as AbstractSet

# Functions of generated code whose calls read only their arguments, `V` and `B`: what may be worked out once.
_PURE_PREFIXES = ("d_", "q_", "B_", "Q_")
_PURE_NAMES = frozenset({"list", "sum", "COUNT_OF", "DIVIDE", "KEY"})
# Calls not worth a local: they cost about what reading one does.
_CHEAP = frozenset({"B_size", "B_first", "B_last", "B_order", "KEY"})
# Calls that take a value and give something else (or nothing of it): a value given to them is consumed there.
_CONSUMER_PREFIXES = ("B_", "Q_", "q_")
_CONSUMER_NAMES = frozenset({"list", "sum", "map", "filter", "len", "any", "all", "COUNT_OF", "DIVIDE", "KEY",
                             "FILTER_FALSE", "FROMKEYS"})
# Functions that give a number or a truth of a value, handing on nothing of it.
_COUNTERS = frozenset({"len", "B_size", "COUNT_OF", "any", "all", "sum"})
_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_LOCAL = "s_"


def share(source: str, inlined: list[tuple[str, str]], holding_lists: AbstractSet[str] = frozenset()) \
        -> tuple[str, list[tuple[str, str]]]:
    """The source of one generated function with its common subexpressions kept in locals, and the code of the
    definitions written in place in it as they now read (see compiler.Program._inlined_spans). `holding_lists`:
    the code of values that hold lists, shared only where every place counts or compares them (`_counted`)."""
    if source.count("(") < 4:  # (nothing here can be written twice)
        return source, inlined
    function = ast.parse(source).body[0]
    if not isinstance(function, ast.FunctionDef):
        return source, inlined
    lines = source.split("\n")
    replacements: list[tuple[str, str]] = []
    starts: dict[int, list[str]] = {}  # line index after which the locals are started -> their names
    for statement, start_after, indent in _statements(function):
        expression = statement.test if isinstance(statement, ast.If) else statement.value
        if expression is None or expression.lineno != expression.end_lineno:
            continue  # (the compiler writes every expression on one line)
        shared = _shared(expression, statement, source, holding_lists)
        if not shared:
            continue
        names = []
        for text in shared:
            name = f"{_LOCAL}{len(replacements)}"
            names.append(name)
            replacements.append((text, f"({name} if {name} is not UNSET else ({name} := {text}))"))
        line = lines[statement.lineno - 1]
        for text, wrapped in replacements[-len(names):]:
            line = line.replace(text, wrapped)
        lines[statement.lineno - 1] = line
        starts.setdefault(start_after, []).extend(f"{indent}{name} = UNSET" for name in names)
    if not replacements:
        return source, inlined
    for after in sorted(starts, reverse=True):
        lines[after + 1:after + 1] = starts[after]
    written = []
    for code, function_name in inlined:
        for text, wrapped in replacements:
            code = code.replace(text, wrapped)
        written.append((code, function_name))
    return "\n".join(lines), written


def _statements(function: ast.FunctionDef) -> Iterator[tuple[ast.If | ast.AugAssign | ast.Return, int, str]]:
    """The statements whose expressions are looked at: the function's `return`, and the tests and steps of its
    loops (the forms the compiler writes); each with the line (0-based) after which its locals are started, and
    their indentation."""
    for statement in function.body:
        if isinstance(statement, ast.Return) and statement.value is not None:
            yield statement, function.lineno - 1, " " * (statement.col_offset or 4)
        elif isinstance(statement, ast.For) and statement.body:
            indent = " " * statement.body[0].col_offset
            for inner in statement.body:
                if isinstance(inner, (ast.If, ast.AugAssign, ast.Return)):
                    yield inner, statement.lineno - 1, indent


def _shared(expression: ast.expr, statement: ast.stmt, source: str, holding_lists: AbstractSet[str]) -> list[str]:
    """The code of the calls in one expression (of `statement`) worth working out once, longest first."""
    parents: dict[int, ast.AST] = {}
    places: dict[str, list[ast.Call]] = {}
    copies: list[ast.AST] = []
    for node in _walk(expression, statement, parents, set(), copies):
        if isinstance(node, ast.Call) and _worth_sharing(node, parents):
            text = ast.get_source_segment(source, node)
            if text is not None:
                places.setdefault(text, []).append(node)
    # (the places that keep a value in a local again are copies of the first, not gone into: what is in them is
    # shared as it is in the first, every copy's code replaced alike)
    copied = [ast.get_source_segment(source, node) or "" for node in copies]
    found = [(text, nodes) for text, nodes in places.items()
             if len(nodes) > 1 and source.count(text) == len(nodes) + sum(copy.count(text) for copy in copied)
             and all(_counted(node, parents) if text in holding_lists else _consumed(node, parents) for node in nodes)]
    found.sort(key=lambda item: -len(item[0]))
    kept: list[tuple[str, list[ast.Call]]] = []
    for text, nodes in found:
        # (a call found only inside one call kept already is worked out once with it)
        within = {next((outer_text for outer_text, outers in kept if any(_inside(node, o) for o in outers)), None)
                  for node in nodes}
        if len(within) > 1 or None in within:
            kept.append((text, nodes))
    return [text for text, _ in kept]


def _walk(node: ast.AST, parent: ast.AST, parents: dict[int, ast.AST], kept: set[str],
          copies: list[ast.AST]) -> Iterator[ast.AST]:
    """The nodes of an expression outside every comprehension and lambda, recording each one's parent; of the
    places that keep a value in a local (`(c_0 if c_0 is not UNSET else (c_0 := call))`), only the first is gone
    into: the others work out nothing that it does not (they are put in `copies`)."""
    parents[id(node)] = parent
    yield node
    if isinstance(node, _SCOPES):
        return
    if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
        if node.target.id in kept:
            copies.append(node.value)
            return
        kept.add(node.target.id)
    for child in ast.iter_child_nodes(node):
        yield from _walk(child, node, parents, kept, copies)


def _worth_sharing(node: ast.Call, parents: dict[int, ast.AST]) -> bool:
    function = node.func
    if not isinstance(function, ast.Name) or function.id in _CHEAP or not node.args:
        return False
    if not (function.id.startswith(_PURE_PREFIXES) or function.id in _PURE_NAMES):
        return False
    parent = parents.get(id(node))
    if isinstance(parent, ast.NamedExpr):  # (kept in a local already)
        return False
    # (a call written as `B.setdefault(key, call)` is kept in the bindings already)
    return not (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute)
                and parent.func.attr == "setdefault")


def _consumed(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Whether the value of a node is used up where it is read, never passed on as it is into the result (where
    two places sharing one list would make one list of two)."""
    parent = parents.get(id(node))
    while isinstance(parent, (ast.BoolOp, ast.IfExp)):  # (their value is one of their operands)
        if isinstance(parent, ast.IfExp) and parent.test is node:
            return True
        node, parent = parent, parents.get(id(parent))
    if isinstance(parent, (ast.If, ast.IfExp)):
        return parent.test is node
    if isinstance(parent, (ast.Compare, ast.BinOp, ast.UnaryOp, ast.Subscript)):
        return True
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name):
        name = parent.func.id
        return name.startswith(_CONSUMER_PREFIXES) or name in _CONSUMER_NAMES
    return False


def _counted(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Whether a value is used up where it is read with nothing of it handed on (its size, a comparison, a test):
    what a value holding lists must be, since an index, `first` or `+` would hand on its lists."""
    parent = parents.get(id(node))
    if isinstance(parent, (ast.If, ast.IfExp)):
        return parent.test is node
    if isinstance(parent, ast.Compare) or (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)):
        return True
    return isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in _COUNTERS


def _inside(node: ast.expr, outer: ast.expr) -> bool:
    return (outer.lineno, outer.col_offset) <= (node.lineno, node.col_offset) and \
        (node.end_lineno or 0, node.end_col_offset or 0) <= (outer.end_lineno or 0, outer.end_col_offset or 0)
