"""The compiler: checked AST -> Python source -> functions, once at load time. Evaluation never walks the AST.

Generated code sees only what this module puts in its namespace: the builtins of the registry (by their
registry names), a few helpers, and its two arguments: `V`, the values of the game (zones, variables, the
dealer; never written by an expression), and `B`, the names bound where the expression is evaluated
(`player`, `card`, ...), in which parameterless definitions are also kept once computed. Names from the
ruleset become string keys of `V` or `B`, local variables `v_<name>` (quantifier variables and definition
parameters), or calls of other generated functions. Literals are emitted with repr().
"""

from __future__ import annotations

import ast as python_ast
import dataclasses
import functools
import itertools
import operator
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from types import CodeType
from typing import Any

from interpreter.cards import Deck, missing_key
from interpreter.dsl import ast
from interpreter.dsl.builtins import BUILTINS, NO_STRENGTHS, Beaters, subset_choices
from interpreter.dsl.checker import Environment
from interpreter.dsl.definitions import Annotations
from interpreter.dsl.folding import UNKNOWN, Folding, constant_value
from interpreter.dsl.sharing import share
from interpreter.dsl.statements import Statements
from interpreter.dsl.statements import chain as _chain
from interpreter.dsl.statements import nodes as _nodes
from interpreter.dsl.statements import reads as _reads
from interpreter.dsl.statements import worked_out_first as _worked_out_first
from interpreter.dsl.types import Type
from interpreter.dsl.writers import changing_bindings
from interpreter.errors import EvaluationError
from interpreter.numbers import divide, fraction

FILENAME = "<ruleset expressions>"  # the file name of the generated code, in tracebacks

Compiled = Callable[[Mapping[str, Any], dict[str, Any]], Any]

_OPERATORS = {"and": "and", "or": "or", "==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
              "+": "+", "-": "-", "*": "*", "//": "//", "%": "%", "in": "in", "not in": "not in"}


def _empty(function: str) -> EvaluationError:
    return EvaluationError(f"{function}() over no items")


def _q_max(values: list[Any]) -> Any:
    if not values:
        raise _empty("max")
    return max(values)


def _q_min(values: list[Any]) -> Any:
    if not values:
        raise _empty("min")
    return min(values)


def _key(deck: Deck, values: dict[Any, Any], key: Any, by: str) -> Any:
    """The value at `key` of a variable's second index (`by:` of type `by`); an EvaluationError naming the key
    and the keys there are, as the ruleset writes them, for a key it does not have."""
    try:
        return values[key]
    except (KeyError, TypeError):  # (TypeError: a list, say, is no key)
        raise EvaluationError(missing_key(deck, by, values, key)) from None


def _set_value(values: dict[str, Any], name: str) -> Any:
    """A variable declared without `initial`, read where its value is falsy or it is unset: the value, or an
    EvaluationError naming the variable when no step has set it yet (generated code reads `V[name] or ...`)."""
    value = values[name]
    if value is None:
        raise EvaluationError(_unset_message(name))
    return value


def _set_item(items: list[Any], owner: Any, name: str) -> Any:
    """An owner's item of a variable declared without `initial` (one per seat or team), or an EvaluationError
    naming it when no step has set that item yet."""
    value = items[owner]
    if value is None:
        raise EvaluationError(_unset_message(f"{name}[{owner}]"))
    return value


def _unset_message(name: str) -> str:
    return (f"`{name}` is read before any step has set it (a variable without `initial` is unset until a step "
            "sets it)")


def _q_highest(items: Iterable[Any], key: Callable[[Any], Any]) -> Any:
    best = None
    best_key = None
    for item in items:
        value = key(item)
        if best_key is None or value > best_key:
            best, best_key = item, value
    if best_key is None:
        raise _empty("highest")
    return best


def _q_lowest(items: Iterable[Any], key: Callable[[Any], Any]) -> Any:
    best = None
    best_key = None
    for item in items:
        value = key(item)
        if best_key is None or value < best_key:
            best, best_key = item, value
    if best_key is None:
        raise _empty("lowest")
    return best


class Program:
    """The generated functions of one ruleset: expressions and definition instances, compiled together."""

    def __init__(self, environment: Environment) -> None:
        self.environment = environment
        self._sources: list[str] = []
        self._inlined: list[list[tuple[str, str]]] = []  # for each source: the definitions written in place
        self._expressions: list[str] = []
        self._emitted: set[str] = set()
        self._keeping: set[str] = set()  # expressions that call definitions, which may keep values in `B`
        self._uses: dict[str, frozenset[str]] = {}  # the names each expression reads from `B`, transitively
        self._constants: dict[str, Any] = {}  # expressions whose value is a constant (bool, int, str or null)
        self._constant_lists: dict[str, list[Any]] = {}  # expressions whose value is always the same list
        self._subset_codes: dict[str, str] = {}  # expressions that are a call of `subsets`: their choices as tuples
        self._pure: dict[str, str] = {}  # the code of expressions that call no definition and keep nothing
        # The same, for expressions with definitions written in place in them: a failure in such code names the
        # definition only from the expression's own function, so a caller writing it in place must name it so
        # (engine/flowcode.py: `StepWriter.locate` works the expression out again with its function).
        self._pure_inlined: dict[str, str] = {}
        self._filters: list[str] = []  # the filters' functions (`add_filter`)
        self._filter_sources: dict[str, str] = {}  # their code, which a decision's own code may run in place
        self.namespace: dict[str, Any] = namespace_for(environment.deck)
        self.module: GeneratedModule | None = None  # (once built)
        self._folding = Folding(environment)

    def add(self, node: ast.Node, annotations: Annotations) -> str:
        """Queue one checked expression; returns the name its function will have after `build()`."""
        name = f"x_{len(self._expressions)}"
        emitter = self._emitter(annotations)
        code, start = emitter.common_calls(emitter.emit(node))
        self._expressions.append(name)
        self._append(f"def {name}(V, B):\n{start}    return {code}\n", [emitter])
        if emitter.called or emitter.hoisted:  # (a definition folded into a constant is not called)
            self._keeping.add(name)
        elif not emitter.inlined:  # reads only `V` and bound names: callers may write the code in place
            self._pure[name] = code
        elif not start:  # the same, with definitions written in place in it (whose failures name them: see
            self._pure_inlined[name] = code  # `inlined_code`, which only a caller that names them may use)
        self._uses[name] = frozenset(annotations.used_context)
        if name in self._pure and isinstance(node, ast.Call) and node.function == "subsets" and \
                id(node) not in annotations.calls and node.arguments and emitter.hashable_items(node.arguments[0]):
            self._subset_choices_code(name, code)
        value = emitter.constant(node)
        if value is not UNKNOWN and isinstance(value, (bool, int, str, type(None))):
            self._constants[name] = value  # the same at every evaluation: callers may read it once
        elif value is not UNKNOWN and isinstance(value, list):
            self._constant_lists[name] = list(value)  # (a list: callers that only read it may keep one copy)
        self._emit_instances()
        return name

    def _subset_choices_code(self, name: str, code: str) -> None:
        """For an expression that is a call of `subsets` of values that hash, with nothing but values read in its
        arguments (a choice's argument, `subsets(sort(hand), 2, 2)`): the same call made to give its choices as
        tuples, each once, as `subset_choices` makes them (a choice's actions hold tuples: see actions.frozen),
        kept as the function's `subset_code`. (Subsets of lists are left to `frozen`, which makes tuples of them
        at every depth.)"""
        called = python_ast.parse(code, mode="eval").body
        if isinstance(called, python_ast.Call) and isinstance(called.func, python_ast.Name) and \
                called.func.id == "B_subsets" and code.startswith("B_subsets("):
            self._subset_codes[name] = "SUBSET_CHOICES" + code[len("B_subsets"):]

    def add_filter(self, parts: list[tuple[ast.Node, Annotations]], variable: str,
                   binding: str | None = None, prefers: frozenset[int] = frozenset()) -> str:
        """Queue one function `f(V, B, items)` keeping the items for which every condition holds, each item
        bound in `B` under `variable` while its conditions are tested (several checked expressions at once);
        or, with `binding`, bound as that code says (e.g. `B['after'] = item[0]`: several names at once). The
        parts at the indexes `prefers` are preferences: of the items the conditions before them keep, they keep
        those that meet them, when any does (and all of them when none does).

        The conditions are tested in turn over the items left by those before (`_filter_lines`): what reads
        nothing of an item is worked out once, not once per item. Callers fall back to testing the clauses one by
        one when the function fails (which names the failure): the function may work out a value that testing the
        items one by one would not have reached."""
        name = f"x_{len(self._expressions)}"
        emitters = [(self._emitter(annotations), node) for node, annotations in parts]
        kept: dict[str, str] = {}  # what reads no item, kept in locals of the function (faster than in `B`)
        assigned: dict[str, str] = {}  # of those, the ones certainly worked out at the line being written
        item_names = {variable} if binding is None else set(_BOUND_NAME.findall(binding))
        for emitter, _ in emitters:
            emitter.looping = True  # the conditions run once per item: what reads no item is worked out once
            emitter.kept_locally = kept
            emitter.item_names = item_names
            emitter.assigned = assigned
        # A condition that always holds is left out (a definition `strict: "false"` can make one always hold), and
        # so is a preference whose value is the same for every item (all of them meet it, or none does).
        written = [(emitter, node, index in prefers) for index, (emitter, node) in enumerate(emitters)
                   if emitter.constant(node) is UNKNOWN or not (index in prefers or emitter.constant(node))]

        def bind(tests: list[tuple[_Emitter, list[ast.Node]]]) -> str:
            """The code binding an item for one pass over the items, which tests `tests`: a name its tests never
            read is not bound (`cards` is a new list each time), one they read only in place is a local of the
            function, not an entry of `B` (`_read_in_place`), a list only counted is not copied (`_counted_only`)."""
            tested = [(term, emitter.annotations) for emitter, terms in tests for term in terms]
            read: set[str] = set()
            for term, found in tested:
                names = _context_read(term, found, self._folding)
                read |= item_names if names is None else names & item_names
            in_place = {name: "item" if binding is None else f"i_{name}" for name in sorted(read)
                        if self._read_in_place(name, tested)}
            for emitter, _ in tests:
                emitter.item_locals = in_place
            if binding is None:
                return "pass" if variable in in_place else f"B[{variable!r}] = item"
            bindings = [self._counted_only(part, tested) for part in binding.split("; ")
                        if _BOUND_NAME.findall(part)[0] in read]
            return "; ".join(_BOUND_NAME.sub(lambda m: in_place.get(m.group(1), m.group(0)), part, count=1)
                             for part in bindings) or "pass"

        statements = Statements(kept, assigned, self._body_emitter)
        body = _filter_lines(written, variable if binding is None else None, bind, statements)
        self._expressions.append(name)
        self._filters.append(name)
        self._append(f"def {name}(V, B, items):\n{_unset(kept, body)}    if not items:\n        return []\n{body}",
                     [emitter for emitter, _ in emitters])
        self._filter_sources[name] = self._sources[-1]
        self._emit_instances()
        return name

    def _counted_only(self, part: str, parts: list[tuple[ast.Node, Annotations]]) -> str:
        """A filter's binding of a name to a new list (`B['cards'] = list(item.cards)`), or the sequence itself
        when the conditions only count or add up its items: every read of the name is `size(name)` or
        `points(name)`, and no definition they call reads it (`size(hand) - size(cards) >= 2` for each meld; a list
        is made for nothing else)."""
        copied = _LIST_COPY.fullmatch(part)
        if copied is None or self._folding is None:
            return part
        name = copied.group(1)
        for node, found in parts:
            for parent in _nodes(node):
                call = found.calls.get(id(parent))
                if call is not None:
                    instance = self._folding.instance(call)
                    if instance is None or instance.annotations is None or \
                            name in instance.annotations.used_context:
                        return part
                for child in ast.children(parent):
                    if isinstance(child, ast.Name) and child.identifier == name and id(child) in found.bound \
                            and not (isinstance(parent, ast.Call) and parent.function in _SEQUENCE_READERS
                                     and call is None and len(parent.arguments) == 1):
                        return part
            if isinstance(node, ast.Name) and node.identifier == name:  # (the condition is the name itself)
                return part
        return f"B[{name!r}] = {copied.group(2)}"

    def _read_in_place(self, name: str, parts: list[tuple[ast.Node, Annotations]]) -> bool:
        """Whether the conditions of a filter read a name bound for each item only where they are written: not
        inside a quantifier or a comprehension (a function or a list of its own), not inside an argument of a
        definition (the name itself as the argument is read where the call is), and through no definition that
        reads it from the bound names. The filter then keeps it in a local, not in `B`."""
        if self._folding is None:
            return False
        for node, found in parts:
            waiting: list[tuple[ast.Node, bool]] = [(node, False)]
            while waiting:
                current, hidden = waiting.pop()
                call = found.calls.get(id(current))
                if call is not None:
                    instance = self._folding.instance(call)
                    if instance is None or instance.annotations is None or name in instance.annotations.used_context:
                        return False
                if isinstance(current, ast.Name) and current.identifier == name and id(current) in found.bound \
                        and (hidden or id(current) in found.implicit_index):
                    return False
                if name == "player" and id(current) in found.implicit_index:  # (`tricks` read at `player`)
                    return False
                # (a name given to a definition as an argument is read where the call is: its function, or its body
                # written in place, has it as a parameter)
                inside = hidden or isinstance(current, (ast.Quantifier, ast.Comprehension))
                waiting.extend((child, inside or (call is not None and not isinstance(child, ast.Name)))
                               for child in ast.children(current))
        return True

    def _body_emitter(self, function_name: str, reader: _Emitter, arguments: dict[str, str]) -> _Emitter | None:
        """For statements.py: an emitter writing the body of the definition `function_name` in place, in the
        function `reader` writes for (what it keeps, kept alike), its parameters written as `arguments` (none for
        a parameterless definition); None for a definition with errors or other parameters."""
        instance = self._folding.instance(function_name)
        if instance is None or instance.annotations is None or instance.failed or \
                set(instance.definition.parameters) != set(arguments):
            return None
        inner = self._emitter(instance.annotations, instance.definition.parameters)
        inner.arguments = dict(arguments)
        inner.statement_locals = set(arguments)  # (written as the arguments' code, in place)
        inner.looping = bool(arguments)  # (a definition with parameters is called in a loop, as a rule)
        inner.kept_locally = reader.kept_locally
        inner.assigned = reader.assigned
        inner.item_names = reader.item_names
        inner.inline_depth = reader.inline_depth + 1
        return inner

    def _emitter(self, annotations: Annotations, parameters: Iterable[str] = ()) -> _Emitter:
        emitter = _Emitter(annotations, parameters, self._folding)
        emitter.helper = self._helper
        return emitter

    def _helper(self, source: str, inlined: list[tuple[str, str]]) -> None:
        """A function a quantifier is written as (see `_Emitter._emit_quantifier`)."""
        source, inlined = share(source, inlined, self._folding.holding_lists)
        self._sources.append(source)
        self._inlined.append(inlined)

    def _emit_instances(self) -> None:
        for instance in list(self.environment.instances.values()):
            if instance.function_name in self._emitted or instance.annotations is None or instance.failed:
                continue  # a definition with errors (reported where it is written) is never compiled
            self._emitted.add(instance.function_name)
            parameters = "".join(f", v_{name}" for name in instance.definition.parameters)
            emitter = self._emitter(instance.annotations, instance.definition.parameters)
            code, start = emitter.common_calls(emitter.emit(instance.definition.body))
            self._append(f"def {instance.function_name}(V, B{parameters}):\n{start}    return {code}\n", [emitter])

    def _append(self, source: str, emitters: list[_Emitter]) -> None:
        source, inlined = share(source, [written for emitter in emitters for written in emitter.inlined],
                                self._folding.holding_lists)
        self._sources.append(source)
        self._inlined.append(inlined)

    def _inlined_spans(self) -> dict[int, list[tuple[int, int, str]]]:
        """Where each definition written in place of its call is in the generated code: line -> (first column,
        end column, function name), so that a failure inside it can name the definition (`_failing_definition`).
        Copies with the same code (two definitions with one body) are told apart by their order: the k-th
        written is the k-th found."""
        spans: dict[int, list[tuple[int, int, str]]] = {}
        line = 1
        for source, inlined in zip(self._sources, self._inlined, strict=True):
            lines = source.split("\n")
            names_by_code: dict[str, list[str]] = {}
            for code, function_name in inlined:
                names_by_code.setdefault(code, []).append(function_name)
            for code, names in names_by_code.items():
                places = [(offset, start) for offset, text in enumerate(lines) for start in _occurrences(text, code)]
                if len(places) == len(names):
                    named = list(zip(places, names, strict=True))
                else:  # (not expected) every name at every place
                    named = [(place, name) for place in places for name in dict.fromkeys(names)]
                for (offset, start), function_name in named:
                    spans.setdefault(line + offset, []).append((start, start + len(code), function_name))
            line += len(lines)  # the sources are joined with a newline
        return spans

    def build(self) -> dict[str, Compiled]:
        """Compile every queued function at once; returns them by name (and keeps them as `self.module`)."""
        self._emit_instances()
        source = "\n".join(self._sources)
        attributes: dict[str, dict[str, Any]] = {}
        # Whether each filter may change the bindings it is given (binding its items there, keeping a definition's
        # value there): a caller whose bindings must stay as they are gives one that does a copy (writers.py).
        changing = changing_bindings(source) if self._filters else frozenset()
        for name in self._filters:
            attributes[name] = {"changes_bindings": name in changing, "filter_source": self._filter_sources[name]}
        for name in self._expressions:
            # Whether a caller must give this function a `B` of its own (it may keep definitions' values there).
            kept = attributes.setdefault(name, {})
            kept.update(keeps=name in self._keeping, uses=self._uses.get(name, frozenset()))
            if name in self._constants:
                kept["constant"] = (self._constants[name],)
            if name in self._constant_lists:
                kept["constant_list"] = (self._constant_lists[name],)
            if name in self._pure:  # (with `V` and `B` for the values and the bound names, in this namespace)
                kept["code"] = self._pure[name]
            if name in self._pure_inlined:
                kept["inlined_code"] = self._pure_inlined[name]
            if name in self._subset_codes:
                kept["subset_code"] = self._subset_codes[name]
        self.module = GeneratedModule(compile(source, FILENAME, "exec"), self._inlined_spans(), attributes, source)
        return self.module.install(self.namespace)

    @property
    def source(self) -> str:
        return "\n".join(self._sources)


@dataclasses.dataclass(frozen=True)
class GeneratedModule:
    """A ruleset's generated functions as `Program.build` compiles them: what makes them again in a namespace of
    their own (a second load of the same ruleset does so from what it kept, see interpreter/ruleset_cache.py)."""

    code: CodeType  # the whole generated source, compiled
    inlined: dict[int, list[tuple[int, int, str]]]  # the definitions written in place (`Program._inlined_spans`)
    attributes: dict[str, dict[str, Any]]  # each expression's function -> what its callers read of it
    source: str = ""  # the generated source, read only to say more of a failure (`index_failure`)

    def install(self, namespace: dict[str, Any]) -> dict[str, Compiled]:
        """Run the code in `namespace` (made by `namespace_for` the ruleset's deck); the expressions' functions by
        name."""
        exec(self.code, namespace)  # generated from the checked AST, see the module docstring
        namespace["INLINED"] = self.inlined
        keep_source(namespace, self.code, self.source.split("\n"))
        for name, attributes in self.attributes.items():
            function = namespace[name]
            for attribute, value in attributes.items():
                setattr(function, attribute, value)
        return {name: namespace[name] for name in self.attributes}


_BOUND_NAME = re.compile(r"B\['(\w+)'\]")  # a name a filter's binding code binds for each item
_SEQUENCE_READERS = ("size", "points")  # builtins that read a tuple as they read a list (`_counted_only`)
_LIST_COPY = re.compile(r"B\['(\w+)'\] = list\((.+)\)")  # a binding to a new list (see Program._counted_only)


def _occurrences(text: str, code: str) -> Iterator[int]:
    start = text.find(code)
    while start >= 0:
        yield start
        start = text.find(code, start + len(code))


def namespace_for(deck: Deck) -> dict[str, Any]:
    """What the generated functions of a ruleset with this deck see, before their own definitions."""
    namespace: dict[str, Any] = {"__builtins__": {}}
    for name, builtin in BUILTINS.items():
        function = builtin.implementation
        if builtin.specialised is not None:
            function = builtin.specialised(deck)
        elif builtin.context == "deck":
            function = functools.partial(function, deck)
        namespace[f"B_{name}"] = function
    beaters = Beaters(deck)
    namespace.update(
        RANK=deck.rank_of, SUIT=deck.suit_of, VALUE=deck.value_of, DECK_CARDS=tuple(deck.distinct_cards()),
        # (each card's field by a call made once, where `RANK.__getitem__` would make one at each use)
        RANK_OF=deck.rank_of.__getitem__, SUIT_OF=deck.suit_of.__getitem__, VALUE_OF=deck.value_of.__getitem__,
        SEAT_RANGES=SEAT_RANGES,
        DECK_BY_SUIT=_cards_by_suit(deck), range=range, list=list, map=map, filter=filter, COUNT_OF=operator.countOf,
        FROMKEYS=dict.fromkeys,
        FILTER_FALSE=itertools.filterfalse, NO_CARDS=frozenset(), set=set, **_cards_of_fields(deck),
        CARDS_WHERE=_cards_where(deck), BEATERS=beaters, BEATERS_BY=beaters.by_trump,
        BEATERS_ROW=beaters.row, SUBSET_CHOICES=subset_choices,
        any=any, all=all, sum=sum, len=len, max=max, min=min, Q_max=_q_max, Q_min=_q_min,
        Q_highest=_q_highest, Q_lowest=_q_lowest, UNSET=UNKNOWN, DIVIDE=divide, FRACTION=fraction,
        KEY=functools.partial(_key, deck), SET_VALUE=_set_value, SET_ITEM=_set_item,
        # (a trick's winner worked out in place as `B_trick_winner` does, with its tables: `_emit_call`)
        TRICK_STRENGTHS=namespace["B_trick_winner"].strengths, TRICK_STRENGTH=namespace["B_trick_winner"].strength,
        NO_STRENGTHS=NO_STRENGTHS,
    )
    return namespace


def _free_locals(code: str) -> set[str]:
    """The quantifier variables and parameters (`v_...`) generated code reads that it does not bind itself, and a
    filter's candidate read in place (`item`, `i_...`: see `Program._read_in_place`), which a definition written
    in place may hand to a quantifier's function."""
    if not code:
        return set()
    free: set[str] = set()

    def visit(node: python_ast.AST, bound: frozenset[str]) -> None:
        if isinstance(node, (python_ast.GeneratorExp, python_ast.ListComp, python_ast.SetComp)):
            inner = set(bound)
            for generator in node.generators:
                visit(generator.iter, frozenset(inner))
                inner |= {name.id for name in python_ast.walk(generator.target) if isinstance(name, python_ast.Name)}
                for condition in generator.ifs:
                    visit(condition, frozenset(inner))
            visit(node.elt, frozenset(inner))
            return
        if isinstance(node, python_ast.Lambda):
            visit(node.body, bound | {argument.arg for argument in node.args.args})
            return
        if isinstance(node, python_ast.Name) and (node.id.startswith(("v_", "i_")) or node.id == "item") and \
                node.id not in bound:
            free.add(node.id)
        for child in python_ast.iter_child_nodes(node):
            visit(child, bound)

    visit(python_ast.parse(code, mode="eval"), frozenset())
    return free


# Builtins without arguments whose list a quantifier or comprehension only goes over: written as what goes
# over the same items without making a list (`seats()`, `deck_cards()`).
# Builtins written as a look-up in the deck's tables instead of a call (their arguments are each read once; -1 is
# NO_SUIT, the suit of a joker).
_WRITTEN_IN_PLACE = {("value", 1): "VALUE[{0}]", ("order", 1): "({0})", ("is_joker", 1): "(SUIT[{0}] == -1)",
                     ("seats", 0): "list(SEAT_RANGES[V['player_count']])", ("player_count", 0): "V['player_count']"}
# Builtins written in place that are worth keeping as calls are (over a list): kept alike (see `_emit_call`).
_FOLDED_IN_PLACE = {("points", 1): "sum(map(VALUE_OF, {0}))"}
# The element types whose values hash, and are no lists (`_Emitter.hashable_items`)
_HASHABLE_TYPES = frozenset({"int", "num", "bool", "str", "card", "rank", "suit", "seat", "team", "null"})
_ITERATED = {"seats": "SEAT_RANGES[V['player_count']]", "deck_cards": "DECK_CARDS"}
# `first` and `last` of a list whose code costs nothing to read again (a value of the game, a seat's, a local):
# the item read in place, their call made only to fail with their own message when there is none (`_emit_call`)
_ENDS = {"first": "0", "last": "-1"}
_READ_AGAIN = re.compile(r"[VB]\['\w+'\](?:\[(?:[A-Za-z_]\w*|\d+|[VB]\['\w+'\])\])?|[A-Za-z_]\w*"
                         r"|\(V\['(\w+)'\] or SET_VALUE\(V, '\1'\)\)")  # (the last: a variable without `initial`)
# The seats of a table of each size, as a quantifier goes over them (made once: a `range` made at each loop over
# the seats costs more than the loop over four seats): more than any ruleset seats (the format allows 16).
SEAT_RANGES = tuple(range(count) for count in range(257))

# How a quantifier is written as a loop (`_Emitter._loop`): before the loop, for each item, after it.
_LOOPS = {
    "any": ("", "        if {body}:\n            return True\n", "    return False\n"),
    "all": ("", "        if not ({body}):\n            return False\n", "    return True\n"),
    "count": ("    found = 0\n", "        if {body}:\n            found += 1\n", "    return found\n"),
    "sum": ("    found = 0\n", "        found += {body}\n", "    return found\n"),
    # (`first([... for x in xs if ...])`: the first item that meets the condition, the others never looked at;
    # none is the error `first` of an empty list is)
    "first": ("", "        return {body}\n", "    return B_first(())\n"),
}

# A quantifier or comprehension written as a loop of its own only when its loop keeps a value for its items
# (`_Emitter._quantifier`, `_Emitter._comprehension`): `max` and `min` as the builtins find them (the first
# greatest), a list in order.
_KEPT_LOOPS = {
    "max": ("    found = UNSET\n", "        value = {body}\n        if found is UNSET or value > found:\n"
            "            found = value\n", "    return Q_max(()) if found is UNSET else found\n"),
    "min": ("    found = UNSET\n", "        value = {body}\n        if found is UNSET or value < found:\n"
            "            found = value\n", "    return Q_min(()) if found is UNSET else found\n"),
    "list": ("    found = []\n", "        found.append({body})\n", "    return found\n"),
}

# The quantifiers over cards that `_Emitter._field_test` writes as one comparison made in C, and what each gives
# over no cards.
# (An order, `value(c) <= top` or `c.rank > r`: the set of the deck's cards for which it holds, made once for each
# field, operator and value, `CARDS_WHERE`.)
_ORDERS = ("<", "<=", ">", ">=")
_WHERE = "CARDS_WHERE('{field}', '%s', {value})"
_FIELD_TESTS = {"any": {"==": "{value} in map({field}_OF, items)",
                        "!=": "not {{{value}}}.issuperset(map({field}_OF, items))",
                        **{order: f"not {_WHERE % order}.isdisjoint(items)" for order in _ORDERS}},
                "all": {"!=": "{value} not in map({field}_OF, items)",
                        "==": "{{{value}}}.issuperset(map({field}_OF, items))",
                        **{order: f"{_WHERE % order}.issuperset(items)" for order in _ORDERS}},
                "count": {"==": "COUNT_OF(map({field}_OF, items), {value})",
                          **{order: f"sum(map({_WHERE % order}.__contains__, items))" for order in _ORDERS}}}
# Whether some card's (or no card's) field equals a value, as a set of the deck's cards (`CARDS_OF_SUIT`) has it:
# one look-up and a pass in C that makes no iterator of the fields, where the loop over them is not kept.
_BY_SET = {"{value} in map({field}_OF, items)": "not CARDS_OF_{field}.get({value}, NO_CARDS).isdisjoint(items)",
           "{value} not in map({field}_OF, items)": "CARDS_OF_{field}.get({value}, NO_CARDS).isdisjoint(items)"}
# (`IS_{field}`: for each value, the test of whether a card is among the deck's cards of that value, bound once)
_FIELD_FILTERS = {"==": "list(filter(IS_{field}.get({value}, IS_NONE), items))",
                  "!=": "list(FILTER_FALSE(IS_{field}.get({value}, IS_NONE), items))",
                  **{order: f"list(filter({_WHERE % order}.__contains__, items))" for order in _ORDERS}}
# An operator with its sides swapped (`top >= value(c)` is `value(c) <= top`): see `_sides`
_SWAPPED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
# A card field compared with a value, as `_Emitter._comparison` finds it: the code written for its operator, the
# deck's table of the field, the value's code, and the definitions written in that code (code, definition).
Comparison = tuple[str, str, str, list[tuple[str, str]]]
_EMPTY = {"any": "False", "all": "True", "count": "0", "sum": "0"}
# A quantifier over one field of each card (`sum(value(c) for c in s)`, `max(c.rank for c in cs)`): made in C.
_FIELD_FOLDS = {"sum": "sum({fields})", "max": "Q_max(list({fields}))", "min": "Q_min(list({fields}))"}

# A quantifier over `seats()` of one per-seat value (`_Emitter._over_seats`), by (quantifier, form of the test,
# kind of the value: see `_element_kind`): the code over the variable's list, `{values}`, and the value compared
# with, `{other}`. (A false bool, int or num equals False; `==` and `!=` compare as the loop would.)
_OVER_SEATS = {
    **{(function, "read", kind): code for kind in ("bool", "number") for function, code in (
        ("any", "any({values})"), ("all", "all({values})"), ("count", "len({values}) - {values}.count(False)"))},
    **{(function, "not", kind): code for kind in ("bool", "number") for function, code in (
        ("any", "not all({values})"), ("all", "not any({values})"), ("count", "{values}.count(False)"))},
    ("count", "read", "bool"): "{values}.count(True)",
    **{(function, form, kind): code for kind in ("bool", "number", "other") for function, form, code in (
        ("any", "==", "{other} in {values}"), ("all", "!=", "{other} not in {values}"),
        ("count", "==", "{values}.count({other})"), ("count", "!=", "len({values}) - {values}.count({other})"))},
    ("sum", "read", "number"): "sum({values})",
    ("max", "read", "number"): "max({values})",
    ("min", "read", "number"): "min({values})",
}

# A local of the generated code, read as often as wanted: a quantifier's variable or a parameter, or a local of a
# filter's tests written as statements (statements.py: `t_0`, a value kept `k_...`)
_LOCAL = re.compile(r"v_[a-z0-9_]+|t_\d+|k_\w+")


def _plainly_read(node: ast.Node) -> bool:
    """Whether a node is a name, a literal or a name indexed by one (`dealer`, `seat_of[player]`): its code, written
    a second time, adds nothing to what the expression calls or writes in place."""
    if isinstance(node, ast.Index):
        return isinstance(node.subject, ast.Name) and isinstance(node.index, (ast.Name, ast.Literal))
    return isinstance(node, (ast.Name, ast.Literal))


_CALLERS_LOCAL = re.compile(r"v_[a-z0-9_]+")  # a parameter or a loop's item: a local of the code that calls a loop
_HANDED = "p_"  # the locals of a loop's function that its caller works out and hands to it (see `_loop`)
_ITEMS = re.compile(r"\bitems\b")  # the collection in `_FIELD_TESTS`' code
_PLAIN_ARGUMENT = re.compile(r"v_[a-z0-9_]+|B\['[a-z_][a-z0-9_]*'\]|-?\d+|True|False|None|item|i_[a-z0-9_]+")
_INLINE_SIZE = 40  # the most syntax nodes of a definition written in place of its calls
# Values that a set holds as a list does (each equal to what it equals in a list): `_Emitter._membership_filter`
_HASHED = frozenset({"int", "num", "bool", "str", "card", "rank", "suit", "seat", "team"})


def _holds_lists(value_type: Type) -> bool:
    """Whether a value of the type holds lists (a list of lists, a list per seat), which two places given one
    value would share."""
    return any(_is_list(argument) or _holds_lists(argument) for argument in value_type.arguments)


def _is_list(value_type: Type) -> bool:
    if value_type.name == "optional":
        return _is_list(value_type.arguments[0])
    return value_type.name in ("list", "per_seat", "per_team", "per_key")


def _unwrapped(code: str) -> str:
    """Code without the parentheses around all of it."""
    while code.startswith("(") and code.endswith(")"):
        depth = 0
        for position, character in enumerate(code[:-1]):
            depth += (character == "(") - (character == ")")
            if depth == 0 and position > 0:
                return code  # (`(a) + (b)`: the first does not close at the end)
        code = code[1:-1]
    return code


def _sides(test: ast.Binary) -> tuple[tuple[ast.Node, ast.Node, str], tuple[ast.Node, ast.Node, str]]:
    """A comparison read from either side: (this side, the other, the operator as seen from this side), the left
    side first (`top >= value(c)` from its right is `value(c) <= top`; an operator with no swapped form, "")."""
    return (test.left, test.right, test.operator), (test.right, test.left, _SWAPPED.get(test.operator, ""))


class _Emitter:
    def __init__(self, annotations: Annotations, parameters: Iterable[str] = (),
                 folding: Folding | None = None) -> None:
        self.annotations = annotations
        self.locals: set[str] = set(parameters)  # quantifier variables and definition parameters in scope
        self.folding = folding
        self.hoisted = False  # whether a value is kept in `B` (the caller must then give a `B` of its own)
        self.called = False  # whether the code calls a definition's function (which may keep values in `B`)
        self.looping = False  # the expression runs once per item of a filter
        self.kept_locally: dict[str, str] | None = None  # in a filter: key -> the local keeping its value
        self.item_names: set[str] = set()  # in a filter: the names bound for each item
        self.item_locals: dict[str, str] = {}  # in a filter: the names read in place, by the local holding each
        # In a filter's pass over its items: the nodes every item's test works out (see `_worked_out_first`), and
        # the values among them kept for the items, worked out before the loop instead: (local, code)
        self.eager: set[int] = set()
        self.eager_lines: list[tuple[str, str]] = []
        self.arguments: dict[str, str] = {}  # in a definition written in place of its call: parameter -> code
        self.shadowing: list[str] = []  # the quantifier variables in scope, innermost last
        self.inline_depth = 0
        self.inlined: list[tuple[str, str]] = []  # (code, function name) of each definition written in place
        self.helper: Callable[[str, list[tuple[str, str]]], None] | None = None  # adds a quantifier's function
        # Calls of definitions with arguments, by their code: whether each place may keep its value in a local of
        # the function being written (outside every quantifier, comprehension and inlined definition).
        self.repeated_calls: dict[str, tuple[bool, int]] = {}  # code -> (keepable at every place, places)
        self.in_iterable = 0  # inside the list a comprehension goes over (where Python forbids `:=`)
        self.inlined_here: dict[tuple[Any, ...], str] = {}  # definitions written in place, by call and place
        # For each quantifier being written as a loop, innermost last: its variable and the calls kept in locals of
        # its function (code -> local); None inside a comprehension or the list one goes over (see `_loop_kept`).
        self.loop_frames: list[tuple[str, dict[str, str]] | None] = []
        # In a definition written in place of its call: the loop whose function the code goes into, as the
        # caller saw it (its innermost frame, None inside a comprehension), for `_field_test` alone
        self.enclosing_frame: tuple[str, dict[str, str]] | None = None
        # In a filter's tests written as statements (statements.py): the values certainly worked out where the code
        # goes (key -> local of the filter's function), and the locals that loops written there bind (the item, or
        # a definition's parameter standing for it).
        self.assigned: dict[str, str] | None = None
        self.statement_locals: set[str] = set()
        self.written_as: dict[int, str] = {}  # nodes whose value a statement before worked out: id -> its local

    def emit(self, node: ast.Node) -> str:
        if id(node) in self.written_as:
            return self.written_as[id(node)]
        value = self.constant(node)
        if value is not UNKNOWN and isinstance(value, (bool, int, str, type(None))):
            return repr(value)
        if value.__class__ is Fraction:  # a `num` constant (a parameter `1/2`), exactly, made once
            return f"FRACTION({value.numerator}, {value.denominator})"
        method: Callable[[Any], str] = getattr(self, f"_emit_{type(node).__name__.lower()}")
        code = method(node)
        value_type = self.annotations.types.get(id(node))
        if value_type is not None and self.folding is not None and _holds_lists(value_type):
            self.folding.holding_lists.add(_unwrapped(code))
        return code

    def constant(self, node: ast.Node) -> Any:
        """The node's value when it is the same at every evaluation, else UNKNOWN (see folding.py)."""
        return constant_value(node, self.annotations, self.locals, self.folding)

    def _emit_literal(self, node: ast.Literal) -> str:
        return repr(node.value)

    def _emit_symbol(self, node: ast.Symbol) -> str:  # pragma: no cover - symbols are always constants
        raise AssertionError("unresolved symbol")

    def _emit_name(self, node: ast.Name) -> str:
        annotations = self.annotations
        call = annotations.calls.get(id(node))
        if call is not None:
            self.called = True
            if call in annotations.memoised:
                # A parameterless definition that depends on nothing but the decision: computed once per
                # environment and kept in it under the function's name.
                key = self.folding.memo_key(call) if self.folding is not None else call
                return self._kept(key, self._inline_memoised(call) or f"{call}(V, B)", node)
            return f"{call}(V, B)"
        if node.identifier in self.locals:
            return self._argument(node.identifier) or f"v_{node.identifier}"
        local = self.item_locals.get(node.identifier)
        if local is not None and id(node) in annotations.bound and not self.shadowing and not self.in_iterable \
                and not self.loop_frames and not self.inline_depth:  # (see `Program._read_in_place`)
            return local
        code = f"{'B' if id(node) in annotations.bound else 'V'}[{node.identifier!r}]"
        unset = annotations.unset_reads.get(id(node))  # (a variable without `initial`: an error while unset)
        if id(node) in annotations.implicit_index:
            player = self._argument("player") or ("v_player" if "player" in self.locals else "B['player']")
            return f"SET_ITEM({code}, {player}, {unset!r})" if unset else f"{code}[{player}]"
        return f"({code} or SET_VALUE(V, {unset!r}))" if unset else code

    def _argument(self, name: str) -> str | None:
        """The code of the argument a parameter stands for, in a definition written in place of its call."""
        return self.arguments.get(name) if name not in self.shadowing else None

    def _emit_field(self, node: ast.Field) -> str:
        subject = self.emit(node.subject)
        if node.field == "rank":
            return f"RANK[{subject}]"
        if node.field == "suit":
            return f"SUIT[{subject}]"
        if node.field == "cards":  # (a list, as every list of cards is: `m.cards + [card]`, `m.cards == [...]`)
            return f"list({subject}.cards)"
        return f"{subject}.{node.field}"  # meld fields, checked against FIELDS

    def _emit_index(self, node: ast.Index) -> str:
        by = self.annotations.keyed_index.get(id(node))
        if by is not None:  # (a value per key: a key it does not have is named)
            return f"KEY({self.emit(node.subject)}, {self.emit(node.index)}, {by!r})"
        subject = node.subject
        if isinstance(subject, ast.ListDisplay) and subject.items and all(
                self.constant(item).__class__ in (int, str, bool) for item in subject.items):
            # (a list of constants indexed where it is written, `[16, 12, 13][order(c.rank)]`: a tuple, which the
            # code holds as one constant, rather than a list made at every evaluation)
            return f"({', '.join(repr(self.constant(item)) for item in subject.items)},)[{self.emit(node.index)}]"
        unset = self.annotations.unset_reads.get(id(node))  # (an owner's item of a variable without `initial`)
        if unset is not None:
            return f"SET_ITEM({self.emit(subject)}, {self.emit(node.index)}, {unset!r})"
        return f"{self.emit(subject)}[{self.emit(node.index)}]"

    def _emit_call(self, node: ast.Call) -> str:
        call = self.annotations.calls.get(id(node))
        if call is None and node.function == "first" and len(node.arguments) == 1 and \
                isinstance(node.arguments[0], ast.Comprehension) and node.arguments[0].condition is not None and \
                self.helper is not None and self.folding is not None:
            return self._kept_whole(node.arguments[0], self._first_of)
        counted = node.arguments[0] if call is None and node.function == "size" and len(node.arguments) == 1 else None
        if isinstance(counted, ast.Field) and counted.field == "cards":  # (`size(m.cards)`: the meld's own tuple
            arguments = [f"{self.emit(counted.subject)}.cards"]  # counted, where a list of them is made elsewhere)
        else:
            arguments = [self.emit(argument) for argument in node.arguments]
        if call is not None:
            inlined = self._inline(call, arguments)
            if inlined is not None:
                self._record_call(inlined)
                return inlined
            self.called = True
            code = f"{call}(V, B{''.join(', ' + a for a in arguments)})"
            if arguments:  # (see `common_calls`)
                self._record_call(code)
                if self._same_for_every_item(node):  # (`complete(my_team)` in a meld's clause)
                    return self._kept_for_items(code, node)
            return self._loop_kept(node, code)
        written = _WRITTEN_IN_PLACE.get((node.function, len(arguments)))
        if written is not None:  # (a look-up: no call, and nothing worth keeping)
            return written.format(*arguments)
        if node.function == "beats" and self.folding is not None and (self.locals or self.looping) and \
                all(self._invariant(argument) for argument in node.arguments[1:]):
            # (`beats(c, trick_winner(trick, trump), trump)` for each card of a quantifier or a filter, the card
            # winning and the trumps the same for all: `c in` the cards that beat it, a set worked out once)
            trump = arguments[2] if len(arguments) > 2 else "None"
            beaters = f"(BEATERS_BY.get({trump}) or BEATERS_ROW({trump}))[{arguments[1]}]"
            # (kept by what is written, not by its code, which reads a value worked out before as a local)
            shape = ("beats", *(_shape(argument) for argument in node.arguments[1:]))
            key = self.folding.hoisted.setdefault(shape, f"h_{len(self.folding.hoisted)}")
            self.hoisted = True
            return f"({arguments[0]} in {self._in_loop_local(self._kept(key, beaters, node))})"
        folded = _FOLDED_IN_PLACE.get((node.function, len(arguments)))
        end = _ENDS.get(node.function) if len(arguments) == 1 and _READ_AGAIN.fullmatch(arguments[0]) else None
        seats = self._seats_in_place(node, arguments) if node.function in ("next_seat", "seats_from") else None
        if folded is not None:  # (`points(cs)`: summed in C, with no call, and kept as a call would be)
            code = folded.format(*arguments)
        elif end is not None:  # (`first(trick)`: the item read in place, the call made only to fail on no items)
            code = f"({arguments[0]}[{end}] if {arguments[0]} else B_{node.function}({arguments[0]}))"
        elif seats is not None:
            code = seats
        elif node.function == "distinct" and len(arguments) == 1 and self.hashable_items(node.arguments[0]):
            code = f"list(FROMKEYS({arguments[0]}))"  # (the builtin's own work, with no call: see `_distinct`)
        elif node.function == "trick_winner" and all(_READ_AGAIN.fullmatch(argument) for argument in arguments):
            # (`trick_winner(trick, trump)`: the builtin's own work in place, with its tables; the call made only to
            # fail on an empty trick)
            cards, trump = arguments[0], arguments[1] if len(arguments) > 1 else "None"
            led = f"SUIT[{cards}[0]]"
            # (a trick of one card is won by it, as it is of the suit led: no table is asked)
            code = (f"(({cards}[0] if len({cards}) == 1 else max({cards}, key=TRICK_STRENGTHS.get({trump}, "
                    f"NO_STRENGTHS).get({led}) or TRICK_STRENGTH({led}, {trump}))) "
                    f"if {cards} else B_trick_winner({cards}, {trump}))")
        else:
            if BUILTINS[node.function].context == "env":
                arguments.insert(0, "V")
            code = f"B_{node.function}({', '.join(arguments)})"
        if (self.locals or self.looping) and self.folding is not None and node.arguments and self._invariant(node):
            # A builtin over game values only, inside a loop or a definition with parameters (`trick_winner(
            # trick, trump)` in `beats_trick(c)`): worked out once per evaluation and kept in `B`.
            # (by what is written, which reads the game's values and constants only: the same call written in several
            # places, `first(trick)` in three definitions, is worked out once)
            key = self.folding.hoisted.setdefault(_shape(node), f"h_{len(self.folding.hoisted)}")
            self.hoisted = True
            return self._kept(key, code, node)
        if node.arguments and self._same_for_every_item(node):  # (`size(hand)` in a meld's clause)
            return self._kept_for_items(code, node)
        return self._loop_kept(node, code)

    def hashable_items(self, node: ast.Node) -> bool:
        """Whether the checker's type of a list says its items are values that hash (numbers, cards, ranks, seats,
        ...; or null), not lists: `distinct` of them is `dict.fromkeys` alone."""
        found = self.annotations.types.get(id(node))
        if found is None or not found.is_list:
            return False
        element = found.element.arguments[0] if found.element.name == "optional" else found.element
        return element.name in _HASHABLE_TYPES

    def _seats_in_place(self, node: ast.Call, arguments: list[str], listed: bool = True) -> str | None:
        """`next_seat(s)`, `seats_from(s)` and `seats_from(next_seat(s))` of a seat whose code costs nothing to
        read again: read from where the seats sit (the state's `_next` and `_clockwise`, see MatchLoop.
        _set_seating), the builtins called only where those are not known or `s` is no seat at the table, to
        fail with their own message. Not `listed`: the seats' own tuple, for a loop that only goes over them."""
        inner = node.arguments[0] if len(node.arguments) == 1 else None
        clockwise = "list(V['_clockwise']" if listed else "(V['_clockwise']"
        if node.function == "seats_from" and isinstance(inner, ast.Call) and inner.function == "next_seat" and \
                len(inner.arguments) == 1 and self.annotations.calls.get(id(inner)) is None and \
                _plainly_read(inner.arguments[0]):
            seat = self.emit(inner.arguments[0])
            if _READ_AGAIN.fullmatch(seat):
                return (f"({clockwise}[V['_next'][{seat}]]) if '_next' in V and 0 <= {seat} < "
                        f"V['player_count'] else B_seats_from(V, B_next_seat(V, {seat})))")
        if inner is None or not _READ_AGAIN.fullmatch(arguments[0]):
            return None
        seat = arguments[0]
        read = f"V['_next'][{seat}]" if node.function == "next_seat" else f"{clockwise}[{seat}])"
        return f"({read} if '_next' in V and 0 <= {seat} < V['player_count'] else B_{node.function}(V, {seat}))"

    def _kept_for_items(self, code: str, node: ast.Node) -> str:
        """In a filter, a value that reads nothing of the item: worked out at the first item that reaches it and
        kept in a local of the filter's function for the others (see `_same_for_every_item`); before the loop when
        every item's test works it out (`_eagerly`)."""
        assert self.kept_locally is not None
        local = self.kept_locally.get(code)
        if local is None:  # (`kc_` locals: those of `_kept` are `k_` followed by a definition's or hoisted key)
            local = self.kept_locally[code] = f"kc_{sum(name.startswith('kc_') for name in self.kept_locally.values())}"
        return self._eagerly(local, code, node)

    def _eagerly(self, local: str, code: str, node: ast.Node | None) -> str:
        """A value kept in a local of a filter's function: worked out at the first item that reaches it, or, when
        every item's test works it out (`eager`), before the loop, which then reads the local alone."""
        if node is not None and id(node) in self.eager:
            self.eager_lines.append((local, code))
            return local
        return f"({local} if {local} is not UNSET else ({local} := {code}))"

    def _same_for_every_item(self, node: ast.Node) -> bool:
        """Whether a node, at the top of a filter's conditions (outside every quantifier, comprehension and
        definition written in place), reads none of the names the filter binds for each item, not even through the
        definitions it uses."""
        if self.kept_locally is None or not self.item_names or self.locals or self.shadowing or self.in_iterable \
                or self.inline_depth or self.folding is None:
            return False
        read = _context_read(node, self.annotations, self.folding)
        return read is not None and not read & self.item_names

    def _loop_kept(self, node: ast.Call, code: str) -> str:
        """A call in the body of a quantifier written as a loop (`_loop`) that reads nothing of the loop's item
        (`points(s)` in `any(points(s) == value(c) for c in hand)`): worked out at the first item that reaches
        it and kept in a local of the loop's function for the others."""
        frame = self.loop_frames[-1] if self.loop_frames else None
        if frame is None or not node.arguments or _reads(node, frame[0]):
            return code
        return self._in_loop_local(code)

    def _in_loop_local(self, code: str) -> str:
        """Code that reads nothing of any loop's item, in the body of a quantifier written as a loop: worked out at
        the first item that reaches it and kept in a local of the loop's function (as `_loop_kept`)."""
        frame = self.loop_frames[-1] if self.loop_frames else None
        if frame is None:
            return code
        local = frame[1].setdefault(code, f"j_{len(frame[1])}")
        return f"({local} if {local} is not UNSET else ({local} := {code}))"

    def _record_call(self, code: str, keepable: bool = True) -> None:
        """A call written (see `common_calls`): whether its value may be kept in a local of the function here."""
        keepable = keepable and not self.shadowing and not self.in_iterable and not self.inline_depth
        kept, places = self.repeated_calls.get(code, (True, 0))
        self.repeated_calls[code] = (kept and keepable, places + 1)

    def common_calls(self, code: str) -> tuple[str, str]:
        """The code of a function's body with each call of a definition that it makes more than once with the same
        arguments worked out once (`runs_of(cs, 4) > 0 then 4 * runs_of(cs, 4)`), and the lines that start its
        locals. Only calls made outside every quantifier and comprehension are kept (their arguments are the same
        wherever they are made); the first one reached works the value out, so nothing is evaluated that was not."""
        start = ""
        for number, (call, (keepable, places)) in enumerate(self.repeated_calls.items()):
            # (the code must hold the call just where it was written: no other text may happen to look the same)
            if keepable and places > 1 and "(V, B" in call and code.count(call) == places:
                local = f"c_{number}"
                code = code.replace(call, f"({local} if {local} is not UNSET else ({local} := {call}))")
                start += f"    {local} = UNSET\n"
        return code, start

    def _inline(self, function_name: str, arguments: list[str]) -> str | None:
        """A small definition with parameters written in place of its call (`heads(card)` becomes the test
        itself), when every argument is a plain value that may be read more than once; None otherwise."""
        instance = self.folding.instance(function_name) if self.folding is not None else None
        if instance is None or instance.annotations is None or instance.failed or self.inline_depth >= 3 or \
                not instance.definition.parameters or not all(_PLAIN_ARGUMENT.fullmatch(a) for a in arguments):
            return None
        body = instance.definition.body
        nodes = list(_nodes(body))
        captured = {f"v_{n.variable}" for n in nodes if isinstance(n, (ast.Quantifier, ast.Comprehension))}
        if len(nodes) > _INLINE_SIZE or captured & set(arguments):
            return None
        frame = self.loop_frames[-1] if self.loop_frames else self.enclosing_frame
        place = (function_name, tuple(arguments), bool(self.shadowing), bool(self.in_iterable),
                 self.kept_locally is None, self.looping, id(frame),  # (its code may read the frame's locals)
                 self._where_written())
        written = self.inlined_here.get(place)
        if written is not None:  # the same call again: the same code (a quantifier in it keeps its one function)
            self.inlined.append((written, function_name))
            return written
        inner = _Emitter(instance.annotations, instance.definition.parameters, self.folding)
        inner.arguments = dict(zip(instance.definition.parameters, arguments, strict=True))
        inner.looping = True  # a definition with parameters is called in a loop, as a rule
        return self._written_in_place(inner, body, function_name, place)

    def _written_in_place(self, inner: _Emitter, body: ast.Node, function_name: str, place: tuple[Any, ...]) -> str:
        """A definition's body written by `inner` in place of its call: what it calls and keeps is this
        expression's too, and the code is kept for the same call at the same kind of place."""
        inner.helper = self.helper
        inner.inline_depth = self.inline_depth + 1
        inner.enclosing_frame = self.loop_frames[-1] if self.loop_frames else self.enclosing_frame
        if self._where_written() is not None:  # (its parameters are written as the arguments' code, in place)
            inner.assigned = self.assigned
            inner.statement_locals = set(inner.locals) | self.statement_locals
            if inner.kept_locally is None:  # (what it keeps is kept in the function's locals, as the caller's is)
                inner.kept_locally = self.kept_locally
        code = f"({inner.emit(body)})"
        for call, (_, places) in inner.repeated_calls.items():  # (never kept: see `_record_call`)
            for _ in range(places):
                self._record_call(call, keepable=False)
        self.hoisted = self.hoisted or inner.hoisted
        self.called = self.called or inner.called
        self.inlined += [*inner.inlined, (code, function_name)]
        self.inlined_here[place] = code
        return code

    def _inline_memoised(self, function_name: str) -> str | None:
        """A small parameterless definition's body, written where its value is worked out for the decision
        (`_kept`: it is kept as before, in `B`, and at the top of a filter's conditions also in a local), so that
        working it out calls no function; None inside a quantifier, a comprehension or a definition with
        parameters, and for a larger definition."""
        if self.locals or self.shadowing or self.in_iterable or self.inline_depth >= 3 or self.folding is None:
            return None
        place = ("memoised", function_name, self.kept_locally is None, self._where_written())
        written = self.inlined_here.get(place)
        if written is not None:  # (written once: the same code at each place, its quantifiers' functions shared)
            self.inlined.append((written, function_name))
            return written
        instance = self.folding.instance(function_name)
        if instance is None or instance.annotations is None or instance.failed or instance.definition.parameters \
                or len(list(_nodes(instance.definition.body))) > _INLINE_SIZE:
            return None
        inner = _Emitter(instance.annotations, (), self.folding)
        inner.kept_locally = self.kept_locally  # (what it works out is the decision's too: kept in the same locals)
        return self._written_in_place(inner, instance.definition.body, function_name, place)

    def _kept(self, key: str, code: str, node: ast.Node | None = None) -> str:
        """A value worked out once and kept: in `B` under `key`, or in a filter's function in a local of the
        function instead (the quantifiers' functions it calls keep what they work out in `B` themselves). Not
        inside a quantifier or a comprehension: a local bound there by `:=` becomes a cell that the
        comprehension's function closes over, which costs more than it saves."""
        written = self._assigned(key)
        if written is not None:  # (worked out by a statement before: see statements.py)
            return written
        in_bindings = f"(B[{key!r}] if {key!r} in B else B.setdefault({key!r}, {code}))"
        if self.kept_locally is None or self.loop_frames or self.locals - self.statement_locals:
            # (in a quantifier written as a loop, also in a local of its function: it reads nothing of the items)
            return self._in_loop_local(in_bindings) if self.loop_frames and not self.in_iterable else in_bindings
        local = self.kept_locally.setdefault(key, f"k_{key}")
        return self._eagerly(local, in_bindings if self.assigned is None else code, node)

    def _at_function_level(self) -> bool:
        """Whether the code being written goes into a filter's function itself, at the level of its statements
        (statements.py), not into a quantifier's function or a comprehension."""
        return self.assigned is not None and not self.loop_frames and not self.in_iterable and \
            not self.locals - self.statement_locals

    def _assigned(self, key: str) -> str | None:
        """The local of the filter's function holding the value kept under `key`, when a statement before the code
        being written certainly worked it out and the code goes into that function itself; else None."""
        return self.assigned.get(key) if self.assigned is not None and self._at_function_level() else None

    def _where_written(self) -> tuple[tuple[str, str], ...] | None:
        """What code written here reads as worked out before it (see `_assigned`): part of the place a definition
        written in place is kept for, since the same call elsewhere in the function may not read the same."""
        return tuple(sorted(self.assigned.items())) if self.assigned is not None and self._at_function_level() \
            else None

    @contextmanager
    def statement_local(self, variable: str) -> Iterator[None]:
        """Writing code in which `variable` is a local of the filter's function itself (a loop written by
        statements.py, or a value read where a quantifier over a local is written in place)."""
        added = variable not in self.statement_locals
        self.statement_locals.add(variable)
        try:
            yield
        finally:
            if added:
                self.statement_locals.discard(variable)

    def _invariant(self, node: ast.Node) -> bool:
        """Whether a node reads the game's values and constants only: no bound name, no variable of a loop or
        parameter, no definition (which may read bound names)."""
        annotations = self.annotations
        if isinstance(node, ast.Name):
            return node.identifier not in self.locals and id(node) not in annotations.bound and \
                id(node) not in annotations.calls and id(node) not in annotations.implicit_index
        if isinstance(node, ast.Call) and id(node) in annotations.calls:
            return False
        if isinstance(node, (ast.Quantifier, ast.Comprehension)):
            return False
        return all(self._invariant(child) for child in ast.children(node))

    @contextmanager
    def _bound(self, variable: str) -> Iterator[None]:
        shadowed = variable in self.locals
        self.locals.add(variable)
        self.shadowing.append(variable)
        try:
            yield
        finally:
            self.shadowing.pop()
            if not shadowed:
                self.locals.discard(variable)

    def _iterable(self, node: ast.Node) -> str:
        """The list a quantifier or comprehension goes over: Python forbids binding a local inside it, so what
        it keeps is kept in `B` only."""
        if isinstance(node, ast.Call) and not node.arguments and node.function in _ITERATED \
                and id(node) not in self.annotations.calls:
            return _ITERATED[node.function]  # (gone over, never kept: no list need be made)
        with self._in_iterable():
            if isinstance(node, ast.Call) and node.function == "seats_from" and id(node) not in self.annotations.calls \
                    and all(_plainly_read(argument) for argument in node.arguments):
                seats = self._seats_in_place(node, [self.emit(argument) for argument in node.arguments], listed=False)
                if seats is not None:  # (the seats' own tuple, gone over)
                    return seats
            return self.emit(node)

    @contextmanager
    def _in_iterable(self) -> Iterator[None]:
        """Writing the list a quantifier or comprehension goes over (see `_iterable`)."""
        kept, self.kept_locally = self.kept_locally, None
        self.in_iterable += 1
        self.loop_frames.append(None)
        try:
            yield
        finally:
            self.kept_locally = kept
            self.in_iterable -= 1
            self.loop_frames.pop()

    def _emit_quantifier(self, node: ast.Quantifier) -> str:
        # (`not any(follows(c) for c in hand)` in a card's clause: see `_kept_whole`)
        return self._kept_whole(node, self._quantifier)

    def _kept_whole(self, node: ast.Node, write: Callable[[Any], str]) -> str:
        """A quantifier or comprehension written by `write`: in a filter, when it reads nothing of the item, kept
        whole for the items (`_kept_for_items`), with nothing inside it kept by the filter itself."""
        if not self._same_for_every_item(node):
            return write(node)
        kept, self.kept_locally = self.kept_locally, None
        try:
            code = write(node)
        finally:
            self.kept_locally = kept
        return self._kept_for_items(code, node)

    def _quantifier(self, node: ast.Quantifier) -> str:
        # (`highest(s in subsets(cs) by ...)` gives a choice itself: a list, never a tuple)
        collection, rest, tuples = self._collection(node.variable, node.collection, node.condition, node.body,
                                                    node.function in _GIVES_ITEM)
        variable = f"v_{node.variable}"
        function = node.function
        if rest is None and _is_seats(node.collection, self.annotations):
            over_seats = self._over_seats(function, node.variable, node.body)
            if over_seats is not None:  # (`count(not folded[p] for p in seats())`: counted in C)
                return over_seats
        looped = function in _LOOPS and self.helper is not None and self.folding is not None
        if looped and rest is None:
            compared = self._field_test(node.variable, node.body, collection, _FIELD_TESTS.get(function, {}),
                                        _EMPTY[function])
            if compared is not None:
                return compared
        table = self._card_field(node.body, node.variable) if rest is None else None
        if table is not None and function in _FIELD_FOLDS:  # (`sum(value(c) for c in s)`: summed in C)
            return _FIELD_FOLDS[function].format(fields=f"map({table}_OF, {collection})")
        kept_loop = function in _KEPT_LOOPS and self.helper is not None and self.folding is not None
        frame: tuple[str, dict[str, str]] | None = (node.variable, {}) if looped or kept_loop else None
        body, condition = self._in_loop(node.variable, node.body, rest, frame, tuples)
        loop = f"for {variable} in {collection}{condition}"
        if frame is not None and (looped or frame[1]):  # (`max`, `min`: a loop when it keeps a value)
            return self._loop(function, variable, collection, body, condition, frame[1])
        if function in ("any", "all"):
            return f"{function}({body} {loop})"
        if function == "count":
            return f"sum(1 {loop} if {body})" if not condition else f"sum(1 {loop} and {body})"
        if function == "sum":
            return f"sum({body} {loop})"
        if function in ("max", "min"):
            return f"Q_{function}([{body} {loop}])"
        return f"Q_{function}({collection}, lambda {variable}: {body})"

    def _over_seats(self, function: str, variable: str, body: ast.Node) -> str | None:
        """A quantifier over `seats()` whose test reads one per-seat variable at the seat (`folded[p]`, `not
        folded[p]`, `status[p] == 'play'`, `score[p]` for `sum`, `max`, `min`), itself or through a definition of
        one parameter called with the seat (`live(p)`, `live(s): not folded[s]`): written over the variable's
        list in C (`V['folded'].count(False)`, `'play' in V['status']`, `max(V['score'])`), its one value per
        seat in seat order. A value compared with is worked out once, before the list is looked at (it reads
        nothing of the seat). None for any other quantifier."""
        emitter, parameter, inlined = self, variable, None
        if id(body) in self.annotations.calls:  # (a definition called with the seat: written by its own emitter)
            found = _called_with(self, body, variable)
            if found is None:
                return None
            emitter, parameter, body, inlined = found
        shape = emitter._seat_read(body, parameter)
        if shape is None:
            return None
        form, values_node, compared = shape
        template = _OVER_SEATS.get((function, form, emitter._element_kind(values_node)))
        if template is None:
            return None
        values = emitter.emit(values_node.subject)
        other = ""
        if compared is not None:
            with emitter._bound(parameter):
                other = emitter.emit(compared)
        code = "(" + template.format(values=values, other=other) + ")"
        if inlined is not None:  # (written in this expression's code: a failure in it names the definition)
            self.hoisted = self.hoisted or emitter.hoisted
            self.called = self.called or emitter.called
            self.inlined += [*emitter.inlined, (code, inlined)]
        return code

    def _seat_read(self, node: ast.Node, seat: str) -> tuple[str, ast.Index, ast.Node | None] | None:
        """For a test of `_over_seats`: its form (`read`, `not`, `==`, `!=`), the per-seat variable read at the
        seat `seat`, and the value compared with (which reads nothing of the seat); else None."""
        if isinstance(node, ast.Unary) and node.operator == "not":
            found = self._seat_read(node.operand, seat)
            return ("not", found[1], None) if found is not None and found[0] == "read" else None
        if isinstance(node, ast.Binary) and node.operator in ("==", "!="):
            for side, other in ((node.left, node.right), (node.right, node.left)):
                found = self._seat_read(side, seat)
                if found is not None and found[0] == "read" and not _reads(other, seat):
                    return node.operator, found[1], other
            return None
        if not (isinstance(node, ast.Index) and isinstance(node.index, ast.Name) and node.index.identifier == seat
                and isinstance(node.subject, ast.Name)) or id(node) in self.annotations.keyed_index \
                or id(node) in self.annotations.unset_reads:  # (a variable without `initial`: each item checked)
            return None
        subject, annotations = node.subject, self.annotations
        if subject.identifier in self.locals or id(subject) in annotations.bound or id(subject) in \
                annotations.calls or id(subject) in annotations.implicit_index:
            return None
        subject_type = annotations.types.get(id(subject))
        if subject_type is None or subject_type.name != "per_seat":  # (one value per seat: as many as seats)
            return None
        return "read", node, None

    def _element_kind(self, node: ast.Index) -> str:
        """The kind of a per-seat value, as `_OVER_SEATS` tells them apart: `bool`; `number` (int or num: their
        false value equals False, as a bool's does, and they sum and compare); or `other` (compared only)."""
        element = self.annotations.types.get(id(node))
        name = element.name if element is not None else ""
        return "bool" if name == "bool" else "number" if name in ("int", "num") else "other"

    def _field_test(self, variable: str, test: ast.Node, collection: str, written: Mapping[str, str],
                    empty: str) -> str | None:
        """A quantifier or a comprehension over cards whose test compares each card's suit, rank or value with a
        value read from nothing of the card (`any(c.suit == led for c in hand)`, `all(c.rank != r ...)`,
        `count(c.suit == s ...)`, `any(points(s) == value(c) for c in hand)`, `[c for c in hand if c.suit ==
        trump]`): written as a function of its own that works the value out once and compares or picks the cards
        in C (`led in map(SUIT_OF, hand)`), and works it out only when there are cards, as the loop would.
        `written`: the code for each operator (`==`, `!=`) it is written for; `empty`: the value over no cards.
        None for any other test."""
        assert self.helper is not None and self.folding is not None
        if variable in self.locals:
            return None
        frame = self.loop_frames[-1] if self.loop_frames else self.enclosing_frame
        # (over a local of a filter's tests written as statements, at its function's level: written in place there,
        # below, the value read as the function's code reads it)
        here = frame is None and _LOCAL.fullmatch(collection) is not None and self._where_written() is not None
        # (`any(follows(c) for c in hand)`, `follows(c): c.suit == led`, or the comparison written out)
        found = _definition_comparison(self, test, variable, written, lambda read: True) \
            if isinstance(test, ast.Call) else self._comparison(test, variable, written, here)
        if found is None:
            return None
        code, field, value, inlined = found
        listed = "map({field}_OF, items)"
        if frame is not None and not self.in_iterable and listed in code and \
                not re.search(rf"\bv_{re.escape(frame[0])}\b", collection):
            # (in a loop over other items, a list read from nothing of them: `same(h, c)` for each card c of h,
            # `any(points(s) == value(c) for c in hand)` for each subset s of the table: the cards' fields listed
            # once, at the first item that reaches the test, kept in a local of the loop's function, and the test
            # written in place; the value is still worked out only when there are cards)
            fields = f"list(map({field}_OF, {collection}))"
            self.inlined += inlined  # (a failure in it names the definitions written there)
            if _CALLERS_LOCAL.fullmatch(collection):
                # (the cards are a local of the caller's, `h` in `same(h, c)`: their fields are listed by the caller
                # and handed to the loop's function, where the caller's own list of them is shared with it,
                # sharing.py; see `_loop`. A list not set yet, null, is handed as UNSET, which fails as the list
                # would have, where an item first reaches the test)
                handed = f"({fields} if {collection} is not None else UNSET)"
                local = frame[1].setdefault(handed, f"{_HANDED}{len(frame[1])}")
                tested = code.replace(listed, local).format(value=value, field=field)
                return f"({tested} if {local} else {empty})"
            local = frame[1].setdefault(fields, f"j_{len(frame[1])}")
            tested = code.replace(listed, local).format(value=value, field=field)
            return f"({tested} if ({local} if {local} is not UNSET else ({local} := {fields})) else {empty})"
        code = _BY_SET.get(code, code)
        if _LOCAL.fullmatch(collection):
            # (over a local, `same(h, c)` for each card of a five-card hand: written in place, with no call, the
            # local read twice; the value is still worked out only when there are cards)
            self.inlined += inlined  # (a failure in it names the definitions written there)
            return f"({_ITEMS.sub(collection, code).format(value=value, field=field)} if {collection} else {empty})"
        name = f"q_{len(self.folding.helpers)}"
        self.folding.helpers.append(name)
        parameters = "".join(f", {local}" for local in sorted(_free_locals(value)))
        source = (f"def {name}(V, B, items{parameters}):\n    if not items:\n        return {empty}\n"
                  f"    return {code.format(value=value, field=field)}\n")
        self.helper(source, [*self.inlined, *inlined])  # (a failure in the helper names what is written there)
        return f"{name}(V, B, {collection}{parameters})"

    def _membership_filter(self, variable: str, test: ast.Node, collection: str) -> str | None:
        """A comprehension keeping the items that are, or are not, in lists read from nothing of the item (`[c for c
        in pool if c not in hand and c not in seen]`), the lists holding values that hash (cards, numbers,
        text, ...): written as a function of its own that narrows the items one test at a time in C, each list
        made a set once. A list is read only when some item is left to test, as the loop reads it. None for any
        other test."""
        assert self.helper is not None and self.folding is not None
        if variable in self.locals:
            return None
        tests: list[ast.Binary] = []
        for each in _chain(test, "and"):
            if not (isinstance(each, ast.Binary) and each.operator in ("in", "not in") and
                    _is_name(each.left, variable) and not _reads(each.right, variable)):
                return None
            listed = self.annotations.types.get(id(each.right))
            if listed is None or not listed.is_list or listed.element.name not in _HASHED:
                return None
            tests.append(each)
        narrowing = []
        with self._once_for_items(variable):
            for each in tests:
                picked = "filter" if each.operator == "in" else "FILTER_FALSE"
                narrowing.append(f"list({picked}(set({self.emit(each.right)}).__contains__, items))")
        free = sorted(set().union(*(_free_locals(code) for code in narrowing)))
        parameters = "".join(f", {local}" for local in free)
        steps = "    if not items:\n        return items\n".join(f"    items = {code}\n" for code in narrowing)
        name = f"q_{len(self.folding.helpers)}"
        self.folding.helpers.append(name)
        self.helper(f"def {name}(V, B, items{parameters}):\n    if not items:\n        return []\n{steps}"
                    f"    return items\n", list(self.inlined))
        return f"{name}(V, B, {collection}{parameters})"

    def _comparison(self, test: ast.Node, variable: str, written: Mapping[str, str],
                    here: bool = False) -> Comparison | None:
        """For a test comparing the card `variable`'s suit, rank or value with a value that reads nothing of it:
        the code written for its operator, the deck's table of the field, the value's code, and no definition
        written in it (see `_definition_comparison`); else None. `here`: the value is read where the code is
        written, at the level of a filter's function (see `_field_test`)."""
        if not isinstance(test, ast.Binary):
            return None
        for side, other, compared in _sides(test):
            field = self._card_field(side, variable)
            code = written.get(compared)
            if field is not None and code is not None and not _reads(other, variable):
                break
        else:
            return None
        if here:  # (what the value keeps, kept in the function's locals: it reads nothing of the card)
            with self.statement_local(variable), self._bound(variable):
                value = self.emit(other)
        else:
            with self._once_for_items(variable):
                value = self.emit(other)
        return code, field, value, []

    @contextmanager
    def _once_for_items(self, variable: str) -> Iterator[None]:
        """Writing code that reads nothing of the item `variable` of a loop over items, worked out once for all of
        them: nothing in it is kept per item (a loop frame of none)."""
        self.loop_frames.append(None)
        try:
            with self._bound(variable):
                yield
        finally:
            self.loop_frames.pop()

    def _card_field(self, node: ast.Node, variable: str) -> str | None:
        """The table of the deck a node reads of the card `variable` (`c.suit`: SUIT, `c.rank` or `order(c.rank)`:
        RANK, `value(c)`: VALUE), or None."""
        if isinstance(node, ast.Field) and node.field in ("suit", "rank") and isinstance(node.subject, ast.Name) \
                and node.subject.identifier == variable:
            return node.field.upper()
        if isinstance(node, ast.Call) and id(node) not in self.annotations.calls and len(node.arguments) == 1:
            argument = node.arguments[0]
            if node.function == "value" and isinstance(argument, ast.Name) and argument.identifier == variable:
                return "VALUE"
            if node.function == "order" and self._card_field(argument, variable) == "RANK":
                return "RANK"  # (`order(c.rank)`: the rank's place in the order, which the rank is)
        return None

    def _deck_suit(self, variable: str, collection: ast.Node,
                   condition: ast.Node | None) -> tuple[str, ast.Node | None]:
        """The code of the list a quantifier or comprehension goes over, and what is left of its condition. Over
        `deck_cards()` with a condition that starts `c.suit == s` (s not read from c), only the cards of that suit
        are gone over (`[c for c in deck_cards() if c.suit == trump and ...]`: a quarter of the deck). (Over a
        list of a hand's size, picking the cards of a suit in C first costs more than the loop's own test does:
        a C call per card against a few specialised bytecodes.)"""
        deck = isinstance(collection, ast.Call) and collection.function == "deck_cards" and \
            not collection.arguments and id(collection) not in self.annotations.calls
        first, rest = _first_conjunct(condition)
        if deck and isinstance(first, ast.Binary) and first.operator == "==":
            for side, other in ((first.left, first.right), (first.right, first.left)):
                if isinstance(side, ast.Field) and side.field == "suit" and isinstance(side.subject, ast.Name) \
                        and side.subject.identifier == variable and variable not in self.locals \
                        and not _reads(other, variable):
                    return f"DECK_BY_SUIT.get({self._iterable(other)}, ())", rest
        return self._iterable(collection), condition

    def _loop(self, function: str, variable: str, collection: str, body: str, condition: str,
              kept: dict[str, str]) -> str:
        """A quantifier written as a function of its own with a plain loop (`any(... for c in hand)` makes a
        generator and resumes it for every item: several times slower in CPython); the call to it. `kept`: the
        locals of calls that read nothing of the item (see `_loop_kept`), and of the values the caller works out
        and hands to the function (`_field_test`)."""
        assert self.helper is not None and self.folding is not None
        name = f"q_{len(self.folding.helpers)}"
        self.folding.helpers.append(name)
        free = sorted((_free_locals(body) | _free_locals(condition[4:])) - {variable})
        handed = {local: code for code, local in kept.items() if local.startswith(_HANDED)}
        parameters = "".join(f", {local}" for local in free)
        test = f"        if not ({condition[4:]}):\n            continue\n" if condition else ""
        start, step, end = _LOOPS[function] if function in _LOOPS else _KEPT_LOOPS[function]
        start = "".join(f"    {local} = UNSET\n" for local in kept.values() if local not in handed) + start
        source = (f"def {name}(V, B, items{parameters}{''.join(f', {local}' for local in handed)}):\n{start}"
                  f"    for {variable} in items:\n{test}{step.format(body=body)}{end}")
        self.helper(source, list(self.inlined))
        return f"{name}(V, B, {collection}{parameters}{''.join(f', {code}' for code in handed.values())})"

    def _first_of(self, node: ast.Comprehension) -> str:
        """`first([... for x in xs if ...])`: a function of its own with a loop that stops at the first item that
        meets the condition (as `_loop`), rather than the list of them all; or the first of the cards picked in C
        (`first([c for c in hand if c.suit == trump])`, see `_field_test`)."""
        collection, rest, tuples = self._collection(node.variable, node.collection, node.condition, node.result)
        if rest is not None and rest is node.condition and isinstance(node.result, ast.Name) and \
                node.result.identifier == node.variable:
            picked = self._field_test(node.variable, rest, collection, _FIELD_FILTERS, "[]")
            if picked is not None:
                return f"B_first({picked})"
        frame: tuple[str, dict[str, str]] = (node.variable, {})
        result, condition = self._in_loop(node.variable, node.result, rest, frame, tuples)
        return self._loop("first", f"v_{node.variable}", collection, result, condition, frame[1])

    def _in_loop(self, variable: str, result: ast.Node, rest: ast.Node | None,
                 frame: tuple[str, dict[str, str]] | None, tuples: bool = False) -> tuple[str, str]:
        """The code of a quantifier's or a comprehension's result and of its condition (` if ...`, or nothing),
        with its variable bound; `frame`: the loop's, when it is written as a function of its own (`_loop`). The
        variable itself as the result of a loop over tuples (`tuples`: see `_collection`) is made a list."""
        self.loop_frames.append(frame)  # (None in a comprehension: a local bound there would be a cell)
        try:
            with self._bound(variable):
                code = self.emit(result)
                if tuples and isinstance(result, ast.Name) and result.identifier == variable:
                    code = f"list({code})"
                return code, f" if {self.emit(rest)}" if rest is not None else ""
        finally:
            self.loop_frames.pop()

    def _collection(self, variable: str, collection: ast.Node, condition: ast.Node | None,
                    result: ast.Node, gives_item: bool = False) -> tuple[str, ast.Node | None, bool]:
        """The code of what a quantifier or comprehension goes over, what is left of its condition (see
        `_deck_suit`). The choices of `subsets(...)` are made one at a time as tuples, not as a list of lists, when
        the loop only goes over, counts, indexes or looks in each (`count(sum(value(c) for c in s) == 15 for s in
        subsets(cs, 2))`); a comprehension that keeps the choice itself makes a list of each one it keeps (a
        quantifier that gives an item itself, `gives_item`, goes over lists). Subsets of the game's values alone,
        in a loop or a definition with parameters, are still made once as a list and kept for the evaluation
        (`_emit_call`). And whether the items are such tuples."""
        if not gives_item and isinstance(collection, ast.Call) and collection.function == "subsets" and \
                id(collection) not in self.annotations.calls and self.folding is not None and \
                not ((self.locals or self.looping) and self._invariant(collection)):
            kept_whole = isinstance(result, ast.Name) and result.identifier == variable
            reads = [part for part in (condition, None if kept_whole else result) if part is not None]
            if _reads_as_items(variable, reads, self.annotations, self.folding):
                with self._in_iterable():
                    arguments = ", ".join(self.emit(argument) for argument in collection.arguments)
                return f"SUBSET_CHOICES({arguments})", condition, True
        return (*self._deck_suit(variable, collection, condition), False)

    def _emit_comprehension(self, node: ast.Comprehension) -> str:
        return self._kept_whole(node, self._comprehension)

    def _comprehension(self, node: ast.Comprehension) -> str:
        collection, rest, tuples = self._collection(node.variable, node.collection, node.condition, node.result)
        if rest is not None and isinstance(node.result, ast.Name) and node.result.identifier == node.variable and \
                self.helper is not None and self.folding is not None:
            kept = self._field_test(node.variable, rest, collection, _FIELD_FILTERS, "[]") \
                if rest is node.condition else None  # (`[c for c in hand if c.suit == trump]`)
            if kept is None:  # (`[c for c in deck_cards() if c.suit == s and c not in hand and c not in seen]`)
                kept = self._membership_filter(node.variable, rest, collection)
            if kept is not None:
                return kept
        table = self._card_field(node.result, node.variable) if rest is None else None
        if table is not None:  # (`[c.rank for c in cs]`: listed in C)
            return f"list(map({table}_OF, {collection}))"
        # (a loop of its own when it keeps a value for its items: `[same(h, c) * 16 + order(c.rank) for c in h]`)
        frame: tuple[str, dict[str, str]] | None = (node.variable, {}) \
            if self.helper is not None and self.folding is not None else None
        result, condition = self._in_loop(node.variable, node.result, rest, frame, tuples)
        if frame is not None and frame[1]:
            return self._loop("list", f"v_{node.variable}", collection, result, condition, frame[1])
        return f"[{result} for v_{node.variable} in {collection}{condition}]"

    def _emit_listdisplay(self, node: ast.ListDisplay) -> str:
        return "[" + ", ".join(self.emit(item) for item in node.items) + "]"

    def _emit_unary(self, node: ast.Unary) -> str:
        operator = "not " if node.operator == "not" else "-"
        return f"({operator}{self.emit(node.operand)})"

    def _emit_binary(self, node: ast.Binary) -> str:
        if node.operator in ("and", "or"):  # a side that cannot decide the result is left out
            neutral = node.operator == "and"
            if self.constant(node.left) is not UNKNOWN and bool(self.constant(node.left)) == neutral:
                return self.emit(node.right)
            if self.constant(node.right) is not UNKNOWN and bool(self.constant(node.right)) == neutral:
                return self.emit(node.left)
        if node.operator == "/":  # exact: a Fraction where it does not divide
            return f"DIVIDE({self.emit(node.left)}, {self.emit(node.right)})"
        if node.operator == "*":  # a fraction constant times a number (`params.share * pot`): one exact division
            for constant_side, other in ((node.left, node.right), (node.right, node.left)):
                value = self.constant(constant_side)
                if value.__class__ is Fraction:
                    return f"DIVIDE({value.numerator} * {self.emit(other)}, {value.denominator})"
        return f"({self.emit(node.left)} {_OPERATORS[node.operator]} {self.emit(node.right)})"

    def _emit_conditional(self, node: ast.Conditional) -> str:
        condition = self.constant(node.condition)
        if condition is not UNKNOWN:
            return self.emit(node.then if condition else node.otherwise)
        return f"({self.emit(node.then)} if {self.emit(node.condition)} else {self.emit(node.otherwise)})"


def _filter_lines(written: list[tuple[_Emitter, ast.Node, bool]], variable: str | None,
                  bind: Callable[[list[tuple[_Emitter, list[ast.Node]]]], str], statements: Statements) -> str:
    """The body of a filter's function once it has items: each condition in turn narrows `items`.

    The tests of a condition joined by `or` that read nothing of an item are worked out once: when one holds,
    the condition holds for every item and is not tested (`leading or card.suit == led`); otherwise the items are
    tested with its other tests only. Conditions that read the item, one after another, are tested in one pass,
    and so are conditions one after another whose tests that read nothing of an item are the same (`top_rank ==
    null or size(group) == top_count`, then `top_rank == null or first(group).rank > top_rank`: one pass, when
    `top_rank` is set); one that compares a card's suit, rank or value with a value that reads nothing of the
    card is made in C (the cards of that suit: `_FIELD_FILTERS`). `variable`: the name each card is bound to (None
    when several names are bound); `bind`: the code binding an item for a pass over the items testing the tests
    given (each pass binds what its own tests read); `statements`: what writes the tests that read nothing of an
    item, at the function's level (statements.py)."""
    lines = statements.lines  # (the statements write where the conditions' lines go)
    waiting: list[tuple[_Emitter, list[ast.Node]]] = []  # conditions reading the item, for the next pass
    # the tests reading nothing of an item that the waiting conditions share (the emitter of the first one
    # waiting, its tests, and their shape, which tells whether another condition's are the same)
    waiting_once: tuple[_Emitter, list[ast.Node], tuple[Any, ...]] | None = None
    fresh = False  # whether `items` is a list made here (else the caller's own, which is copied at the end)

    def narrow(tests: list[tuple[_Emitter, list[ast.Node]]], indent: str, prefer: bool = False) -> None:
        """One pass over the items keeping those for which every condition (tests joined by `or`) holds; with
        `prefer`, only when some item meets them (else all stay)."""
        emitter, terms = tests[0]
        made_in_c = _field_filter(emitter, terms[0], variable) if len(tests) == 1 and len(terms) == 1 else None
        if made_in_c is not None and prefer:
            lines.extend([f"{indent}found = {made_in_c}", f"{indent}if found:", f"{indent}    items = found"])
            return
        if made_in_c is not None:
            lines.extend([f"{indent}items = {made_in_c}", f"{indent}if not items:", f"{indent}    return items"])
            return
        bound = bind(tests)
        # (what every item's test works out, the first test's first term, is kept before the loop: `_eagerly`)
        first = tests[0][0]
        first.eager = {id(node) for node in _worked_out_first(terms[0])}
        try:
            condition = " and ".join(f"({' or '.join(emitter.emit(term) for term in terms)})"
                                     for emitter, terms in tests)
        finally:
            first.eager = set()
        for local, code in first.eager_lines:
            lines.extend([f"{indent}if {local} is UNSET:", f"{indent}    {local} = {code}"])
        first.eager_lines.clear()
        lines.extend([f"{indent}found = []", f"{indent}for item in items:",
                      *([f"{indent}    {bound}"] if bound != "pass" else []),
                      f"{indent}    if {condition}:", f"{indent}        found.append(item)",
                      *([f"{indent}if found:", f"{indent}    items = found"] if prefer else
                        [f"{indent}if not found:", f"{indent}    return found", f"{indent}items = found"])])

    def flush() -> None:
        nonlocal fresh, waiting_once
        if not waiting:
            return
        if waiting_once is not None:
            lines.append(f"    if not ({statements.either(waiting_once[0], waiting_once[1])}):")
            narrow(waiting, "        ")
        else:
            narrow(waiting, "    ")
            fresh = True
        waiting.clear()
        waiting_once = None

    for emitter, node, preference in written:
        if preference:  # of the items left, those that meet it when any does: a pass of its own
            flush()
            first, tested = _and_split(emitter, node)
            if not tested:  # (the same for every item: all of them meet it, or none does; either way all stay)
                continue
            # (its first tests read nothing of an item: when they fail, no item meets it; when they always hold,
            # there is nothing to test first)
            indent = "    "
            if first is not None and emitter.constant(first) is not True:
                lines.append(f"    if {statements.value(emitter, first)}:")
                indent = "        "
            narrow([(emitter, [term]) for term in tested], indent, prefer=True)
            continue
        terms = _or_terms(emitter, node)
        if terms is None:  # (a test that always holds)
            continue
        if not terms:  # (it never holds)
            lines.append("    return []")
            return "\n".join(lines) + "\n"
        once: list[ast.Node] = []  # the tests that read nothing of an item, and those that do
        each: list[ast.Node] = []
        for term in terms:
            (once if emitter._same_for_every_item(term) else each).append(term)
        shape = tuple(_shape(term) for term in once)
        if not each or (once and len(each) == 1 and _field_filter(emitter, each[0], variable) is not None):
            flush()
            lines.append(f"    if not ({statements.either(emitter, once)}):")
            if each:  # (made in C)
                narrow([(emitter, each)], "        ")
            else:  # (only tests that read nothing of an item)
                lines.append("        return []")
            continue
        if (waiting_once[2] if waiting_once is not None else ()) != shape:
            flush()
        if not waiting:
            waiting_once = (emitter, once, shape) if once else None
        waiting.append((emitter, each))
    flush()
    lines.append("    return items" if fresh else "    return list(items)")
    return "\n".join(lines) + "\n"


def _shape(node: ast.Node) -> tuple[Any, ...]:
    """A node as written, without where: equal for the same test written in two conditions of one filter."""
    return (type(node).__name__, *(_shape(value) if isinstance(value, ast.Node) else
                                   tuple(_shape(item) for item in value) if isinstance(value, tuple) else value
                                   for field, value in vars(node).items() if field not in ("start", "end", "name_end")))


def _and_split(emitter: _Emitter, node: ast.Node) -> tuple[ast.Node | None, list[ast.Node]]:
    """A preference's test as its first tests joined by `and` that read nothing of an item (one node, as written;
    None when there are none) and the tests after them, in order."""
    each: list[ast.Node] = []
    while not emitter._same_for_every_item(node):
        if not (isinstance(node, ast.Binary) and node.operator == "and"):
            return None, [node, *each]
        each.insert(0, node.right)
        node = node.left
    return node, each


def _or_terms(emitter: _Emitter, node: ast.Node) -> list[ast.Node] | None:
    """The tests of a condition joined by `or`, in order, without those that never hold; None when one always
    holds."""
    if isinstance(node, ast.Binary) and node.operator == "or":
        left, right = _or_terms(emitter, node.left), _or_terms(emitter, node.right)
        return None if left is None or right is None else left + right
    value = emitter.constant(node)
    if value is UNKNOWN:
        return [node]
    return None if value else []


def _field_filter(emitter: _Emitter, test: ast.Node, variable: str | None) -> str | None:
    """The cards of `items` for which a test comparing the card's suit, rank or value with a value that reads
    nothing of the card holds, made in C (`card.suit == led`: `list(filter(CARDS_OF_SUIT.get(led, NO_CARDS)
    .__contains__, items))`), written in the test or in a definition of one parameter called with the card
    (`follows(card)`, with `follows(c): c.suit == led`); None for any other test."""
    if variable is None:
        return None
    if isinstance(test, ast.Call):
        return _definition_field_filter(emitter, test, variable)
    if not isinstance(test, ast.Binary):
        return None
    for side, other, compared in _sides(test):
        field = emitter._card_field(side, variable)
        code = _FIELD_FILTERS.get(compared)
        if field is not None and code is not None and not emitter._same_for_every_item(side) and \
                emitter._same_for_every_item(other):
            return code.format(value=emitter.emit(other), field=field)
    return None


def _definition_field_filter(emitter: _Emitter, test: ast.Call, variable: str) -> str | None:
    """`_field_filter` for a definition of one parameter called with the card, the name bound for each candidate
    (see `_definition_comparison`), whose value reads nothing of the candidate."""
    if variable in emitter.locals or not test.arguments or id(test.arguments[0]) not in emitter.annotations.bound:
        return None
    through = _definition_comparison(emitter, test, variable, _FIELD_FILTERS,
                                     lambda read: not read & emitter.item_names)
    if through is None:
        return None
    code, field, value, inlined = through
    emitter.inlined += inlined  # (written in the filter's own code: a failure in it names the definition)
    return code.format(value=value, field=field)


def _definition_comparison(emitter: _Emitter, test: ast.Call, variable: str, written: Mapping[str, str],
                           allowed: Callable[[set[str]], bool]) -> Comparison | None:
    """For a call of a definition of one parameter with the card `variable` (`follows(c)`), whose body compares
    the parameter's suit, rank or value with a value that reads nothing of it (`follows(c): c.suit == led`): the
    code written for its operator, the deck's table of the field, and the value's code, written as the
    definition's own code works it out (its definitions kept in `B` as there), with the definitions written in
    that code (for the caller to record where the code goes, so that a failure in it names them). `allowed`:
    whether the value may read the bound names it reads, itself or through the definitions it calls. None for
    any other call."""
    found = _called_with(emitter, test, variable)
    if found is None:
        return None
    inner, parameter, body, call = found
    if not isinstance(body, ast.Binary):
        return None
    for side, other, compared in _sides(body):
        field = inner._card_field(side, parameter)
        code = written.get(compared)
        if field is None or code is None or _reads(other, parameter):
            continue
        read = _context_read(other, inner.annotations, inner.folding)
        if read is None or not allowed(read):
            continue
        value = inner.emit(other)
        emitter.hoisted = emitter.hoisted or inner.hoisted
        emitter.called = emitter.called or inner.called
        return code, field, value, [*inner.inlined, (value, call)]
    return None


def _called_with(emitter: _Emitter, test: ast.Node, variable: str) -> tuple[_Emitter, str, ast.Node, str] | None:
    """For a call of a definition of one parameter with the name `variable` (`follows(c)`, `live(p)`): an emitter
    that writes the definition's body in its own terms (its definitions kept in `B` as there), its parameter, its
    body and its function's name; None for any other node."""
    call = emitter.annotations.calls.get(id(test))
    folding = emitter.folding
    if call is None or folding is None or not isinstance(test, ast.Call) or len(test.arguments) != 1:
        return None
    argument = test.arguments[0]
    if not (isinstance(argument, ast.Name) and argument.identifier == variable):
        return None
    instance = folding.instance(call)
    if instance is None or instance.annotations is None or instance.failed or \
            len(instance.definition.parameters) != 1:
        return None
    inner = _Emitter(instance.annotations, instance.definition.parameters, folding)
    inner.helper = emitter.helper
    inner.inline_depth = emitter.inline_depth + 1
    return inner, instance.definition.parameters[0], instance.definition.body, call


def _context_read(node: ast.Node, annotations: Any, folding: Any) -> set[str] | None:
    """The bound names a node reads, itself or through the definitions it calls; None when a definition's names
    are not known."""
    read: set[str] = set()
    for child in _nodes(node):
        if id(child) in annotations.bound:
            read.add(child.identifier)  # type: ignore[attr-defined]  # (a bound name)
        if id(child) in annotations.implicit_index:
            read.add("player")
        call = annotations.calls.get(id(child))
        if call is not None:
            instance = folding.instance(call)
            if instance is None or instance.annotations is None:
                return None
            read |= instance.annotations.used_context
    return read


def _unset(kept: dict[str, str], body: str) -> str:
    """The lines that start a function's locals keeping values worked out once (see `_Emitter._kept`): those that
    `body` asks whether they are worked out yet (`k is UNSET`). The others it reads only where they certainly are
    (statements.py tracks them through the branches), so they need no start."""
    return "".join(f"    {local} = UNSET\n" for local in sorted(set(kept.values()))
                   if re.search(rf"\b{re.escape(local)} is (not )?UNSET\b", body))


def _is_seats(node: ast.Node, annotations: Annotations) -> bool:
    """Whether a node is the call `seats()` of the builtin (every seat, in order)."""
    return isinstance(node, ast.Call) and node.function == "seats" and not node.arguments and \
        id(node) not in annotations.calls


def _first_conjunct(condition: ast.Node | None) -> tuple[ast.Node | None, ast.Node | None]:
    """The first test of a condition made of tests joined by `and`, and the rest (None when nothing is left)."""
    if isinstance(condition, ast.Binary) and condition.operator == "and":
        first, rest = _first_conjunct(condition.left)
        if rest is None:
            return first, condition.right
        return first, dataclasses.replace(condition, left=rest)
    return condition, None


# Quantifiers whose value is one of the items they go over (`highest(x in items by key)`)
_GIVES_ITEM = frozenset({"highest", "lowest"})
# Builtins that read a tuple of items as they read a list, and make no list that holds it (`_reads_as_items`)
_ITEM_READERS = frozenset({"size", "points", "first", "last", "sort", "distinct"})


def _reads_as_items(variable: str, nodes: Iterable[ast.Node], annotations: Annotations, folding: Folding,
                    depth: int = 0) -> bool:
    """Whether the nodes read a quantifier's or comprehension's variable, a list, only for its items: gone over
    by a quantifier or comprehension, indexed, looked in (`x in s`), or given to a builtin of _ITEM_READERS or to
    a definition whose body reads its parameter so. A tuple of the same items then gives the same values
    (`_Emitter._collection`); a list compared (`s == [...]`), joined (`s + t`), put in a list or returned is not
    read so."""
    waiting = list(nodes)
    while waiting:
        node = waiting.pop()
        if isinstance(node, ast.Name):
            if node.identifier == variable:  # (a read that none of the cases below took for items)
                return False
        elif isinstance(node, (ast.Quantifier, ast.Comprehension)):
            if not _is_name(node.collection, variable):
                waiting.append(node.collection)
            if node.variable != variable:  # (an inner loop's variable of the same name hides it)
                waiting.extend(part for part in ast.children(node)[1:])
        elif isinstance(node, ast.Index) and _is_name(node.subject, variable):
            waiting.append(node.index)
        elif isinstance(node, ast.Binary) and node.operator in ("in", "not in") and _is_name(node.right, variable):
            waiting.append(node.left)
        elif isinstance(node, ast.Call):
            call = annotations.calls.get(id(node))
            for position, argument in enumerate(node.arguments):
                if not _is_name(argument, variable):
                    waiting.append(argument)
                elif call is None:
                    if node.function not in _ITEM_READERS:
                        return False
                else:
                    instance = folding.instance(call)
                    if instance is None or instance.annotations is None or instance.failed or depth > 8 or \
                            position >= len(instance.definition.parameters) or not _reads_as_items(
                                instance.definition.parameters[position], [instance.definition.body],
                                instance.annotations, folding, depth + 1):
                        return False
        else:
            waiting.extend(ast.children(node))
    return True


def _is_name(node: ast.Node, identifier: str) -> bool:
    return isinstance(node, ast.Name) and node.identifier == identifier


def _cards_of_fields(deck: Deck) -> dict[str, Any]:
    """For the generated code: the deck's cards of each suit, rank and value (`CARDS_OF_SUIT`, ...), and the test
    of whether a card is among them, bound once for each (`IS_SUIT`, ...; `IS_NONE` for a value no card has)."""
    found: dict[str, Any] = {"IS_NONE": frozenset().__contains__}
    for field, values in (("SUIT", deck.suit_of), ("RANK", deck.rank_of), ("VALUE", deck.value_of)):
        cards = found[f"CARDS_OF_{field}"] = _cards_of(values)
        found[f"IS_{field}"] = {value: of_value.__contains__ for value, of_value in cards.items()}
    return found


def _cards_of(field: Any) -> dict[int, frozenset[int]]:
    """The cards of each suit, rank or value (`field`: the deck's suit, rank or value of each card), for
    `_Emitter._field_test`'s filters."""
    cards: dict[int, set[int]] = {}
    for card in range(len(field)):
        cards.setdefault(field[card], set()).add(card)
    return {value: frozenset(found) for value, found in cards.items()}


def _cards_where(deck: Deck) -> Callable[[str, str, Any], frozenset[int]]:
    """The deck's cards whose suit, rank or value (`field`: "SUIT", "RANK", "VALUE") stands in an order (`<`, `<=`,
    `>`, `>=`) to a value, as `field[card] < value` decides it (it fails as that would: `None` is in no order):
    a set made once for each field, operator and value (the last thousand kept: a value compared with may be any
    number), for `_Emitter._field_test`'s filters and quantifiers."""
    fields = {"SUIT": deck.suit_of, "RANK": deck.rank_of, "VALUE": deck.value_of}
    orders = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}

    @functools.lru_cache(maxsize=1024)
    def where(field: str, order: str, value: Any) -> frozenset[int]:
        table, holds = fields[field], orders[order]
        return frozenset(card for card in range(len(table)) if holds(table[card], value))

    return where


def _cards_by_suit(deck: Deck) -> dict[int, tuple[int, ...]]:
    """The deck's distinct cards of each suit, in the order `deck_cards()` gives them (a suit-less joker: -1)."""
    found: dict[int, list[int]] = {}
    for card in deck.distinct_cards():
        found.setdefault(deck.suit_of[card], []).append(card)
    return {suit: tuple(cards) for suit, cards in found.items()}


class _SeatInTurn(python_ast.NodeTransformer):
    """`B['player']` read from a loop's own local (see `seat_list`)."""

    def visit_Subscript(self, node: python_ast.Subscript) -> python_ast.AST:
        if isinstance(node.value, python_ast.Name) and node.value.id == "B" and \
                isinstance(node.slice, python_ast.Constant) and node.slice.value == "player":
            return python_ast.Name(id=_SEAT_IN_TURN, ctx=python_ast.Load())
        return self.generic_visit(node)


_SEAT_IN_TURN = "_seat_in_turn"


def seat_list(function: Compiled) -> Callable[[Mapping[str, Any], Iterable[int]], list[Any]] | None:
    """An expression's value with each of the seats given bound in turn as `player`, as one function making the
    whole list (`(V, seats) -> list`), written from the expression's own code: for an expression that calls no
    definition, keeps nothing and reads no other bound name (its function has `code`, see `Program.build`);
    None for any other. (A match's result per seat at every hand's end, a per-seat variable's initial value.)"""
    code = getattr(function, "code", None)
    if code is None:
        return None
    try:
        tree = _SeatInTurn().visit(python_ast.parse(code, mode="eval"))
    except SyntaxError:  # pragma: no cover - the code was compiled once already
        return None
    if any(isinstance(node, python_ast.Name) and node.id == "B" for node in python_ast.walk(tree)):
        return None  # (another bound name, or the bindings as a whole)
    source = f"lambda V, seats: [{python_ast.unparse(tree.body)} for {_SEAT_IN_TURN} in seats]"
    made: Callable[[Mapping[str, Any], Iterable[int]], list[Any]] = eval(  # the expression's own checked code
        compile(source, FILENAME, "eval"), function.__globals__)
    return made


def evaluate(function: Compiled, values: Mapping[str, Any], bound: dict[str, Any] | None = None) -> Any:
    """Run a compiled expression over the game's values and the bound names, turning Python's arithmetic and
    index failures into EvaluationError."""
    try:
        return function(values, {} if bound is None else bound)
    except (ZeroDivisionError, IndexError, KeyError, TypeError, EvaluationError) as failure:
        explained = explain_failure(failure)
        assert explained is not None
        raise explained from None


def explain_failure(failure: BaseException) -> EvaluationError | None:
    """A failure of generated code in the ruleset's terms, naming the definition it happened in (None for one
    that is not a ruleset's failure)."""
    explained = _explained(failure)
    if explained is None:
        return None
    definition = _failing_definition(failure)
    return EvaluationError(f"{explained} (in definition `{definition}`)") if definition else explained


def _failing_definition(failure: BaseException) -> str | None:
    """The innermost definition of the ruleset whose generated function the failure passed through."""
    found = None
    trace = failure.__traceback__
    while trace is not None:
        code = trace.tb_frame.f_code
        if code.co_filename == FILENAME:
            if code.co_name.startswith("d_"):
                found = code.co_name
            # A definition written in place of its call: the innermost whose code holds the failing operation.
            line, _, start, end = next(itertools.islice(code.co_positions(), trace.tb_lasti // 2, None),
                                       (None, None, None, None))
            spans = trace.tb_frame.f_globals.get("INLINED", {}).get(line, ())
            inside = [s for s in spans if start is not None and end is not None and s[0] <= start and end <= s[1]]
            if inside:
                found = min(inside, key=lambda span: span[1] - span[0])[2]
        trace = trace.tb_next
    return found[2:].rsplit("_", 1)[0] if found else None  # d_<name>_<number>


def _explained(failure: BaseException) -> EvaluationError | None:
    if isinstance(failure, EvaluationError):
        return failure
    if isinstance(failure, ZeroDivisionError):
        return EvaluationError("division by zero")
    if isinstance(failure, IndexError):
        return EvaluationError(index_failure(failure))
    if isinstance(failure, KeyError):
        return EvaluationError(f"`{failure.args[0]}` is not bound here")
    if isinstance(failure, TypeError):
        return EvaluationError("a value was read before it was set (a variable without `initial` that no step "
                               "has set yet?)")
    return None


SOURCES = "GENERATED_SOURCES"  # the name, in a namespace of generated code, of its source lines by file name


def keep_source(namespace: dict[str, Any], code: CodeType, lines: list[str]) -> None:
    """Keep the lines of generated code run in `namespace` (compiled as `code`), for `index_failure` to read."""
    namespace.setdefault(SOURCES, {})[code.co_filename] = (code, lines)


def _compiled_in(module: CodeType, code: CodeType) -> bool:
    """Whether `code` is a function's (or a comprehension's) of the module compiled as `module`."""
    pending = [module]
    while pending:
        found = pending.pop()
        if found is code:
            return True
        pending.extend(constant for constant in found.co_consts if isinstance(constant, CodeType))
    return False


def index_failure(failure: IndexError) -> str:
    """What an index past a list's end read, in words: the index and the list's length, worked out again from the
    generated code where it failed (the expression's operands read nothing that changed since, and change
    nothing); `index out of range` when that cannot be told."""
    trace, innermost = failure.__traceback__, None
    while trace is not None:
        if SOURCES in trace.tb_frame.f_globals:
            innermost = trace
        trace = trace.tb_next
    try:
        if innermost is None:
            raise LookupError
        frame = innermost.tb_frame
        line, last_line, start, end = next(itertools.islice(frame.f_code.co_positions(), innermost.tb_lasti // 2,
                                                            None))
        module, lines = frame.f_globals[SOURCES][frame.f_code.co_filename]
        if not _compiled_in(module, frame.f_code):  # (code compiled apart, e.g. `seat_list`'s: other lines)
            raise LookupError
        if line is None or line != last_line or start is None or end is None:
            raise LookupError
        read = python_ast.parse(lines[line - 1][start:end].strip(), mode="eval").body
        if not isinstance(read, python_ast.Subscript) or isinstance(read.slice, python_ast.Slice):
            raise LookupError
        scope = dict(frame.f_locals)
        subject = eval(python_ast.unparse(read.value), frame.f_globals, scope)
        index = eval(python_ast.unparse(read.slice), frame.f_globals, scope)
    except Exception:  # (a failure not at an index of generated code, or one that cannot be read again)
        return "index out of range"
    if not isinstance(subject, (list, tuple)) or type(index) is not int:
        return "index out of range"
    size = len(subject)
    if size == 0:
        return f"index {index} of an empty list"
    items = "1 item" if size == 1 else f"{size:,} items"
    if index >= size:
        return f"index {index:,} is past the end of a list of {items} (0 to {size - 1:,})"
    if index < -size:
        return f"index {index:,} is before the start of a list of {items} (-{size:,} to -1)"
    return "index out of range"
