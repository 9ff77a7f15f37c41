"""Variables that no step of a ruleset changes, with the parameters it is loaded with: every read of one is its
initial value, which the expression compiler then folds as it folds a parameter (dsl/folding.py).

A house rule turned off by a parameter leaves its machinery in the ruleset: a breach of a clause recorded in
`broke` by a clause that is `breakable: params.lenient`, and a penalty set under `if: params.lenient`; with the
parameter off, nothing sets `broke`, and every test of it (`penalised(p): broke[p] or late[p]`) is `false`.

A variable is unchanging when each place a step writes it (`set`, `change`, `transfer`, `random`, a clause's
`record`) lies in the branch of an `if` whose test is a constant that never takes it, or records a clause
whose `breakable` is constant `false`; and when its initial value is a constant number, text or truth value,
the same for every owner (a variable with a second index, `by:`, with no initial value, of a card, or seen
by nobody, never is).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from interpreter.model import VariableSpec
from interpreter.source import yaml_path

Path_ = tuple[str | int, ...]

_FOLDED_TYPES = (bool, int, str)


def unchanging_variables(variables: Mapping[str, VariableSpec], writes: Iterable[tuple[str, Path_]],
                         expressions: Mapping[str, Any]) -> dict[str, tuple[str, Any]]:
    """Each unchanging variable's owner kind (`table`, `seat`, `team`) and value (see the module docstring).
    `writes`: each place a step writes a variable (its name and path); `expressions`: the compiled expressions
    by the YAML path they are written at (a constant one has `constant`, its value in a 1-tuple)."""
    written = {name for name, path in writes if _reached(path, expressions)}
    found: dict[str, tuple[str, Any]] = {}
    for index, (name, variable) in enumerate(variables.items()):
        if name in written or variable.by is not None or variable.optional or variable.visibility == "nobody" \
                or variable.type == "card":  # (a hidden card is dealt again by a search: resample.py changes it)
            continue
        initial = _constant(expressions, ("variables", index, "initial"))
        if initial is not None and initial[0].__class__ in _FOLDED_TYPES:
            found[name] = (variable.per, initial[0])
    return found


def _reached(path: Path_, expressions: Mapping[str, Any]) -> bool:
    """Whether a step at `path` may run: not in a branch of an `if` whose constant test never takes it, nor a
    `record` of a clause that is never `breakable`."""
    for depth, part in enumerate(path):
        if part in ("then", "else"):
            test = _constant(expressions, (*path[:depth], "if"))
            if test is not None and bool(test[0]) != (part == "then"):
                return False
    if path and path[-1] == "record":
        breakable = _constant(expressions, (*path[:-1], "breakable"))
        if breakable is not None and not breakable[0]:
            return False
    return True


def _constant(expressions: Mapping[str, Any], path: Path_) -> tuple[Any] | None:
    function = expressions.get(yaml_path(path))
    return getattr(function, "constant", None) if function is not None else None
