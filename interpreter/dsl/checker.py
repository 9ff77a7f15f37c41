"""The static checker: resolves names, card symbols and parameters, checks arity and types, instantiates
definitions per argument types and refuses recursion. It annotates the AST for the compiler (the records it
keeps are in definitions.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from interpreter.cards import Deck
from interpreter.dsl import ast
from interpreter.dsl.builtins import BUILTINS, QUANTIFIERS
from interpreter.dsl.definitions import (
    FIELDS,
    VOLATILE_NAMES,
    Annotations,
    ContextError,
    Definition,
    DefinitionError,
    Instance,
    Parameter,
    Tainted,
    _recursion,
    did_you_mean,
)
from interpreter.dsl.operators import (
    OperatorChecks,
    _is_number,
    _plain,
    guard_key,
    null_guards,
    null_hint,
    without_name,
)
from interpreter.dsl.types import (
    ANY,
    BOOL,
    CARD,
    INT,
    NULL,
    NUM,
    PARAMS,
    RANK,
    SEAT,
    STR,
    SUIT,
    TEAM,
    Type,
    compatible,
    join,
    list_of,
    substitute,
    unify,
)
from interpreter.errors import ExpressionError


@dataclass
class Environment:
    """What expressions of one ruleset can see.

    `globals` are always bound (zones, variables, engine names such as `dealer`); `contextual` lists every name
    that some place of the ruleset binds (`player`, `card`, ...), used to explain a definition used out of place.
    """

    deck: Deck
    globals: dict[str, Type]
    definitions: dict[str, Definition] = field(default_factory=dict)
    parameters: dict[str, Parameter] = field(default_factory=dict)
    contextual: dict[str, Type] = field(default_factory=dict)
    instances: dict[tuple[Any, ...], Instance] = field(default_factory=dict)
    report: Callable[[DefinitionError], None] | None = None  # where errors inside definitions go
    broken: set[str] = field(default_factory=set)  # definitions refused before checking (e.g. recursion)
    referenced: set[str] = field(default_factory=set)  # definitions some checked expression uses
    has_melds: bool = True  # whether the ruleset has a `melds:` section (the meld functions need one)
    key_words: dict[str, tuple[str, ...]] = field(default_factory=dict)  # a variable's `by:` words, by name
    # The names bound anew for each candidate action of a decision (its card, its choice's arguments): a
    # definition that reads one is worked out for each candidate, the others once per decision.
    volatile: frozenset[str] = VOLATILE_NAMES
    # The variables no step changes (interpreter/unchanging.py): name -> (its owner kind, its value), folded
    unchanging: dict[str, tuple[str, Any]] = field(default_factory=dict)
    unset: frozenset[str] = frozenset()  # the variables declared without `initial` (see Annotations.unset_reads)
    _stack: list[str] = field(default_factory=list)
    _calls: list[ast.Node] = field(default_factory=list)  # the calls of the definitions in `_stack`, in turn
    depth: int = 0  # of the expressions being checked, definitions used included: bounded, as checking recurses

    def symbol_candidates(self, text: str) -> dict[str, Any]:
        """What an upper-case name may mean in this deck: {'card': id, 'rank': index, 'suit': index}."""
        found: dict[str, Any] = {}
        if text in self.deck.card_ids:
            found["card"] = self.deck.card_ids[text]
        rank = self.deck.rank_index(text)
        if rank is not None:
            found["rank"] = rank
        suit = self.deck.suit_index(text)
        if suit is not None:
            found["suit"] = suit
        return found

    def check(self, node: ast.Node, context: Mapping[str, Type] | None = None,
              expected: Type | None = None, what: str = "the expression",
              narrowed: frozenset[str] = frozenset()) -> tuple[Type, Annotations]:
        """Check one expression where `context` names are bound; `narrowed` names (`params.x`, a variable) are
        known not to be null there. Raises ExpressionError."""
        checker = _Checker(self, dict(context or {}), Annotations())
        try:
            result = checker.check(node, {}, narrowed, expected)
        except ContextError as error:
            raise ExpressionError("unknown-name", f"`{error.name}` is not bound here", node.start, node.end) from None
        if checker.annotations.tainted:
            raise Tainted()
        if expected is not None and not compatible(expected, result):
            hint = null_hint(node) if result.name == "optional" else number_for_seat_hint(expected, result)
            raise ExpressionError("type", f"{what} must be {expected}, not {result}", node.start, node.end,
                                  hint=hint)
        return result, checker.annotations

    def instantiate(self, name: str, argument_types: tuple[Type, ...], context: Mapping[str, Type]) -> Instance:
        definition = self.definitions[name]
        key = (name, argument_types, tuple(sorted((k, str(v)) for k, v in context.items())))
        known = self.instances.get(key)
        if known is not None:
            if known.type is None:
                raise _recursion(self._stack, name, definition)
            return known
        if name in self._stack:
            raise _recursion(self._stack, name, definition)
        instance = Instance(key, definition, f"d_{name}_{len(self.instances)}", argument_types, context)
        self.instances[key] = instance
        self._stack.append(name)
        try:
            checker = _Checker(self, dict(context), Annotations(), inside=definition)
            local = dict(zip(definition.parameters, argument_types, strict=True))
            instance.type = checker.check(definition.body, local, frozenset(), None)
            instance.annotations = checker.annotations
            instance.failed = checker.annotations.tainted
        except ExpressionError as error:
            if self.report is None:
                del self.instances[key]
                raise
            instance.failed, instance.type = True, ANY
            failure = DefinitionError(definition, error)
            failure.through = tuple(self.definitions[outer] for outer in self._stack[:-1])
            failure.call = self._calls[-1] if self._calls else None
            self.report(failure)
        except BaseException:
            del self.instances[key]
            raise
        finally:
            self._stack.pop()
        return instance


# Functions a designer reaches for that the language does not have, and what to write instead
_FACE = ("no expression reads whether a card is face up (a known gap of the format): keep the cards shown in a "
         "variable of cards, set by the steps that turn them")
# The English names of the French suits, for a suit written out where the deck names it by its letter
_SUIT_WORDS = {"spade": "S", "heart": "H", "diamond": "D", "club": "C"}


def _deck_name_hint(name: str, deck: Deck, expected: Type | None) -> str | None:
    """For an unknown name where a suit or rank is expected (`c.suit == hearts`), the suit or rank of the deck it
    means written another way: in another case (`h` for `H`), or a French suit written out (`hearts` for `H`, in
    a deck of those four suits); None otherwise (a name where neither is expected is more likely a slip for
    another name: `c.suit` for `card.suit`)."""
    if expected not in (SUIT, RANK):
        return None
    kind = "suit" if expected == SUIT else "rank"
    names = deck.suits if kind == "suit" else deck.rank_names
    word = name.lower()
    meant = next((known for known in names if known.lower() == word), None)
    if meant is None and kind == "suit" and set(deck.suits) == set(_SUIT_WORDS.values()):
        meant = _SUIT_WORDS.get(word[:-1] if word.endswith("s") else word)
    if meant is None:
        return None
    return f"a {kind} is written as the deck names it: `{meant}` ({kind}s: {' '.join(names)})"


_NOT_IN_THE_LANGUAGE = {
    "len": "`size(items)` counts the items", "length": "`size(items)` counts the items",
    "is_face_up": _FACE, "face_up": _FACE, "is_face_down": _FACE, "face_down": _FACE,
    "str": "a log line writes any value in braces: `p{player} has {points(hand)}`",
    "sum_of": "`sum(value(c) for c in cards)`, or `points(cards)` for their points",
}

Locals = dict[str, Type]
MAX_CHECK_DEPTH = 150  # more than one expression may nest (parser.MAX_EXPRESSION_DEPTH), less than Python allows
Narrowed = frozenset[str]


@dataclass
class _Checker(OperatorChecks):
    environment: Environment
    context: dict[str, Type]
    annotations: Annotations
    inside: Definition | None = None

    # --- entry ---------------------------------------------------------------------------------------------

    def check(self, node: ast.Node, local: Locals, narrowed: Narrowed, expected: Type | None) -> Type:
        method = getattr(self, f"_check_{type(node).__name__.lower()}")
        environment = self.environment
        if environment.depth >= MAX_CHECK_DEPTH:
            raise self._fail(node, "expr-too-deep", f"the expression nests more than {MAX_CHECK_DEPTH} levels "
                             "deep here, counting the definitions it uses",
                             hint="definitions that use definitions each add their depth: make some shallower")
        environment.depth += 1
        try:
            result: Type = method(node, local, narrowed, expected)
        finally:
            environment.depth -= 1
        self.annotations.types[id(node)] = result
        return result

    def _fail(self, node: ast.Node, code: str, message: str, hint: str | None = None,
              start: int | None = None, end: int | None = None) -> ExpressionError:
        return ExpressionError(code, message, node.start if start is None else start,
                               node.end if end is None else end, hint=hint)

    def _expect(self, node: ast.Node, expected: Type, local: Locals, narrowed: Narrowed, what: str) -> Type:
        actual = self.check(node, local, narrowed, expected)
        if not compatible(expected, actual):
            hint = null_hint(node) if actual.name == "optional" else number_for_seat_hint(expected, actual)
            failure = self._fail(node, "type", f"{what} must be {expected}, not {actual}", hint)
            name = node.function if isinstance(node, ast.Call) else node.identifier \
                if isinstance(node, ast.Name) else None
            if name is not None and name not in local and name in self.environment.definitions:
                failure.from_definition = name  # (its value's type is the definition's: where it is written, it says)
            raise failure
        return actual

    # --- leaves ----------------------------------------------------------------------------------------------

    def _check_literal(self, node: ast.Literal, local: Locals, narrowed: Narrowed, expected: Type | None) -> Type:
        value = node.value
        if value is None:
            return NULL
        if isinstance(value, bool):
            return BOOL
        if isinstance(value, int):
            if expected == RANK:
                rank = self.environment.deck.rank_index(str(value))
                if rank is None:
                    raise self._fail(node, "unknown-card", f"the deck has no rank {value}",
                                     hint="ranks: " + " ".join(self.environment.deck.rank_names))
                self.annotations.constants[id(node)] = rank
                return RANK
            if expected == SEAT:
                if not 0 <= value < 16:
                    raise self._fail(node, "type", f"there is no seat {value}; seats are numbered from 0")
                return SEAT
            if expected == TEAM:
                if not 0 <= value < 16:
                    raise self._fail(node, "type", f"there is no team {value}; teams are numbered from 0")
                return TEAM
            return INT
        return STR

    def _check_symbol(self, node: ast.Symbol, local: Locals, narrowed: Narrowed, expected: Type | None) -> Type:
        found = self.environment.symbol_candidates(node.text)
        if not found:
            deck = self.environment.deck
            listing = f"ranks {' '.join(deck.rank_names)}; suits {' '.join(deck.suits)}"
            rank = next((r for r in sorted(deck.rank_names, key=len, reverse=True) if node.text.startswith(r)), None)
            suit = next((s for s in deck.suits if node.text.endswith(s)), None)
            if rank is not None and len(node.text) > len(rank):
                hint = f"the deck has no suit `{node.text[len(rank):]}`; suits: {' '.join(deck.suits)}"
            elif suit is not None and len(node.text) > len(suit):
                hint = f"the deck has no rank `{node.text[:-len(suit)]}`; ranks: {' '.join(deck.rank_names)}"
            else:
                names = [*deck.card_ids, *deck.rank_names, *deck.suits]
                hint = did_you_mean(node.text, names) or f"cards are rank then suit, e.g. {deck.text_of[-1]}; {listing}"
            raise self._fail(node, "unknown-card", f"`{node.text}` is not a card, rank or suit of this deck",
                             hint)
        if expected is not None and expected.name in found:
            kind = expected.name
        elif len(found) == 1:
            kind = next(iter(found))
        elif "card" in found:
            kind = "card"
        else:
            raise self._fail(node, "type", f"`{node.text}` is both a rank and a suit of this deck",
                             hint="compare it with a rank (`c.rank`) or a suit (`c.suit`)")
        self.annotations.constants[id(node)] = found[kind]
        return {"card": CARD, "rank": RANK, "suit": SUIT}[kind]

    def _check_name(self, node: ast.Name, local: Locals, narrowed: Narrowed, expected: Type | None) -> Type:
        result = self._resolve_name(node, local, bare=True, expected=expected)
        if result.name == "optional" and node.identifier in narrowed:
            return result.element
        return result

    def _resolve_name(self, node: ast.Name, local: Locals, *, bare: bool, expected: Type | None = None) -> Type:
        name = node.identifier
        if name in local:
            return local[name]
        environment = self.environment
        if name in self.context:
            result = self.context[name]
            self.annotations.used_context.add(name)
            self.annotations.bound.add(id(node))
        elif name in environment.globals:
            result = environment.globals[name]
            if name in environment.unset and (bare or not result.is_per_owner) and "per_key" not in (
                    result.name, result.element.name if result.is_per_owner else ""):
                self.annotations.unset_reads[id(node)] = name
        elif name in environment.definitions:
            return self._use_definition(node, name, ())
        elif name == "params":
            if bare:
                raise self._fail(node, "type", "`params` is not a value; write `params.NAME`")
            return PARAMS
        elif self.inside is not None and name in environment.contextual:
            raise ContextError(name)
        else:
            known = [*local, *self.context, *environment.globals, *environment.definitions, "params"]
            hint = _deck_name_hint(name, environment.deck, expected) or did_you_mean(name, known)
            if name in BUILTINS:
                hint = f"`{name}` is a function: write `{name}(...)`"
            elif hint is None and name == "after" and "laid" in self.context:
                hint = "a `meld` option with `at_once` binds `laid`, the list of the melds it lays, not `after`"
            elif hint is None and name in environment.contextual:
                hint = f"`{name}` is bound only in some places of a ruleset, not here"
            elif hint is None and expected == STR:  # (`initial: normal` for a text: YAML's quotes are not the text's)
                hint = f"a text is quoted within the expression: `'{name}'` (YAML takes its own quotes off: a " \
                    f"value that is only a text is written \"'{name}'\")"
            raise self._fail(node, "unknown-name", f"unknown name `{name}`", hint)
        if bare and result.is_per_owner:
            owner = "player" if result.name == "per_seat" else None
            if owner is not None and owner in self.context | local:
                self.annotations.implicit_index.add(id(node))
                if owner not in local:  # (read from the bound names: `tricks` reads `player` as `tricks[player]`)
                    self.annotations.used_context.add(owner)
                return result.element
            kind = "seat" if result.name == "per_seat" else "team"
            # (a seat bound here, `winner` after a trick, is the likelier one meant than the dealer)
            seat = next((bound for bound, type_ in {**self.context, **local}.items() if type_ == SEAT), "dealer")
            raise self._fail(node, "type", f"`{name}` has one value per {kind}: write `{name}[{kind}]`",
                             hint=f"e.g. `{name}[{seat}]`" if kind == "seat" else None)
        return result

    # --- definitions and calls --------------------------------------------------------------------------------

    def _use_definition(self, node: ast.Node, name: str, argument_types: tuple[Type, ...]) -> Type:
        definition = self.environment.definitions[name]
        self.environment.referenced.add(name)
        if name in self.environment.broken:
            self.annotations.tainted = True
            return ANY
        if len(definition.parameters) != len(argument_types):
            if not definition.parameters:
                raise self._fail(node, "arity", f"`{name}` takes no arguments: write `{name}`")
            raise self._fail(node, "arity", f"`{name}` takes {len(definition.parameters)} argument(s) "
                             f"({', '.join(definition.parameters)}), not {len(argument_types)}")
        self.environment._calls.append(node)
        try:
            instance = self.environment.instantiate(name, argument_types, self.context)
        except ContextError as error:
            if self.inside is not None:
                raise
            raise self._fail(node, "unknown-name", f"`{name}` uses `{error.name}`, which is not bound here",
                             hint=f"`{error.name}` is bound only in some places of a ruleset") from None
        except ExpressionError as error:
            raise DefinitionError(definition, error) from None
        finally:
            self.environment._calls.pop()
        if instance.failed:
            self.annotations.tainted = True
            return ANY
        self.annotations.calls[id(node)] = instance.function_name
        assert instance.type is not None and instance.annotations is not None
        used = instance.annotations.used_context
        self.annotations.used_context |= used
        if not argument_types and not used & self.environment.volatile:
            self.annotations.memoised.add(instance.function_name)
        return instance.type

    def _check_call(self, node: ast.Call, local: Locals, narrowed: Narrowed, expected: Type | None) -> Type:
        name = node.function
        if name in self.environment.definitions:
            argument_types = tuple(self.check(argument, local, narrowed, None) for argument in node.arguments)
            for argument, kind in zip(node.arguments, argument_types, strict=True):
                if isinstance(argument, ast.Name) and kind.is_list:  # (a list handed on whole is read where the
                    self.annotations.unset_reads.pop(id(argument), None)  # definition goes over it)
            return self._use_definition(node, name, argument_types)
        builtin = BUILTINS.get(name)
        if builtin is None:
            if name in QUANTIFIERS:
                raise self._fail(node, "expr-syntax", f"`{name}` goes through a list: write "
                                 f"`{QUANTIFIERS[name].form.split(' -> ')[0]}`")
            known = [*BUILTINS, *self.environment.definitions]
            raise self._fail(node, "unknown-name", f"unknown function `{name}`",
                             did_you_mean(name, known) or _NOT_IN_THE_LANGUAGE.get(name), end=node.name_end)
        if builtin.category == "melds" and not self.environment.has_melds:
            raise self._fail(node, "unknown-name", f"`{name}` needs a `melds:` section: the kinds of meld it "
                             "works with", hint="declare the melds under `melds: {kinds: [...]}`",
                             end=node.name_end)
        parameters = builtin.parameters
        count = len(node.arguments)
        if not builtin.required_count <= count <= len(parameters):
            wanted = (str(len(parameters)) if builtin.required_count == len(parameters)
                      else f"{builtin.required_count} to {len(parameters)}")
            hint = f"signature: {builtin.signature}"
            if name in QUANTIFIERS:
                hint += f"; over a list: `{QUANTIFIERS[name].form.split(' -> ')[0]}`"
            raise self._fail(node, "arity", f"`{name}` takes {wanted} argument(s), not {count}", hint=hint)
        bindings: dict[str, Type] = {}
        for parameter, argument in zip(parameters, node.arguments, strict=False):
            generic = "T" in str(parameter.type) or "N" in str(parameter.type)  # (a type variable)
            hint_type = None if generic else parameter.type
            if parameter.type.name == "optional" and not generic:
                hint_type = parameter.type.arguments[0]
            actual = self.check(argument, local, narrowed, hint_type)
            if not unify(parameter.type, actual, bindings):
                wanted_type = substitute(parameter.type, {"N": INT, **bindings})  # (a number: int, or num)
                shown = "a list" if wanted_type == list_of(ANY) else str(wanted_type)
                seat_hint = number_for_seat_hint(wanted_type, actual)
                raise self._fail(argument, "type", f"argument `{parameter.name}` of `{name}` must be "
                                 f"{shown}, not {actual}", hint=f"{seat_hint}; signature: {builtin.signature}"
                                 if seat_hint else f"signature: {builtin.signature}")
        if name == "order" and len(node.arguments) == 2:
            self._check_ranking_name(node.arguments[1])
            self._check_rank_ranked(node.arguments[0], node.arguments[1])
        return substitute(builtin.returns, bindings)

    def _check_ranking_name(self, argument: ast.Node) -> None:
        rankings = self.environment.deck.rankings
        if not isinstance(argument, ast.Literal) or not isinstance(argument.value, str):
            raise self._fail(argument, "type", "a ranking is named by a string literal, e.g. 'draw'")
        if argument.value not in rankings:
            hint = (f"the deck's rankings: {', '.join(rankings)}" if rankings
                    else "declare it under `deck.rankings`")
            raise self._fail(argument, "unknown-name", f"the deck has no ranking {argument.value!r}", hint)

    def _check_rank_ranked(self, rank: ast.Node, ranking: ast.Node) -> None:
        """`order(Q, 'fail')`, a rank written out that the ranking leaves out, fails wherever it runs: said now."""
        written = rank.text if isinstance(rank, ast.Symbol) else str(rank.value) \
            if isinstance(rank, ast.Literal) and type(rank.value) is int else None
        assert isinstance(ranking, ast.Literal) and isinstance(ranking.value, str)  # (a name the deck has: checked)
        ranks = self.environment.deck.rankings[ranking.value]
        if written is not None and written not in ranks:
            raise self._fail(rank, "type", f"rank {written} is not in the ranking {ranking.value!r}",
                             f"its ranks, low to high: {', '.join(ranks)}")

    def _check_quantifier(self, node: ast.Quantifier, local: Locals, narrowed: Narrowed,
                          expected: Type | None) -> Type:
        function = node.function
        form = QUANTIFIERS.get(function)
        if form is None:
            hint = did_you_mean(function, list(QUANTIFIERS)) or "quantifiers: " + ", ".join(QUANTIFIERS)
            if function in BUILTINS:  # (`distinct(c.rank for c in hand)`: a function of a list, given a loop)
                hint = f"`{function}` takes a list: make one with brackets, `{function}([... for ... in ...])`; " \
                    + hint
            raise self._fail(node, "unknown-name", f"`{function}` is not a quantifier", hint,
                             end=node.start + len(function))
        ranked = function in ("highest", "lowest")
        if ranked and not _is_by_form(node):
            raise self._fail(node, "expr-syntax", f"write `{function}(c in items by key)`",
                             hint=f"e.g. `{function}(c in hand by c.rank)`")
        if not ranked and _is_by_form(node):
            raise self._fail(node, "expr-syntax", "`by` goes with highest and lowest; write "
                             f"`{form.form.split(' -> ')[0]}`")
        element = self._element_type(node.collection, local, narrowed)
        inner = {**local, node.variable: element}
        self.annotations.binder_types[id(node)] = element
        narrowed = without_name(narrowed, node.variable)
        if node.condition is not None:
            self._expect(node.condition, BOOL, inner, narrowed, "the condition after `if`")
            narrowed = narrowed | null_guards(node.condition, "!=")  # (the body is read where it holds)
        if function in ("any", "all", "count"):
            self._expect(node.body, BOOL, inner, narrowed, f"the condition of `{function}`")
            return INT if function == "count" else BOOL
        if function == "sum":
            summed = self._expect(node.body, NUM, inner, narrowed, "the summed value")
            return NUM if summed == NUM else INT
        key = self.check(node.body, inner, narrowed, None)
        if key not in (INT, NUM, RANK, ANY):
            raise self._fail(node.body, "type", f"`{function}` compares numbers or ranks, not {key}")
        return key if function in ("max", "min") else element

    def _element_type(self, collection: ast.Node, local: Locals, narrowed: Narrowed) -> Type:
        kind = self.check(collection, local, narrowed, None)
        if kind == ANY:
            return ANY
        if not kind.is_list:
            raise self._fail(collection, "type", f"expected a list to go through, not {kind}")
        return kind.element

    def _check_comprehension(self, node: ast.Comprehension, local: Locals, narrowed: Narrowed,
                             expected: Type | None) -> Type:
        element = self._element_type(node.collection, local, narrowed)
        inner = {**local, node.variable: element}
        self.annotations.binder_types[id(node)] = element
        narrowed = without_name(narrowed, node.variable)
        if node.condition is not None:
            self._expect(node.condition, BOOL, inner, narrowed, "the condition after `if`")
            narrowed = narrowed | null_guards(node.condition, "!=")  # (the result is made where it holds)
        return list_of(self.check(node.result, inner, narrowed, None))

    def _check_listdisplay(self, node: ast.ListDisplay, local: Locals, narrowed: Narrowed,
                           expected: Type | None) -> Type:
        wanted = expected.element if expected is not None and expected.is_list and expected.element != ANY else None
        if wanted is None and any(_is_number(item) for item in node.items):
            # `[J, 10]`: a card name among the items says what the numbers stand for.
            guide = next((item for item in node.items if isinstance(item, ast.Symbol)), None)
            if guide is not None:
                wanted = _plain(self.check(guide, local, narrowed, None))
        result: Type = ANY
        for item in node.items:
            actual = self.check(item, local, narrowed, wanted)
            joined = join(result, actual)
            if joined is None:
                raise self._fail(item, "type", f"a list holds items of one type: {result} and {actual} differ")
            result = joined
        return list_of(result)

    # --- fields and indexing -------------------------------------------------------------------------------------

    def _check_field(self, node: ast.Field, local: Locals, narrowed: Narrowed, expected: Type | None) -> Type:
        subject = node.subject
        if isinstance(subject, ast.Name) and subject.identifier == "params" and "params" not in local:
            return self._check_parameter(node, narrowed)
        kind = self.check(subject, local, narrowed, None)
        if kind == ANY:
            return ANY
        fields = FIELDS.get(kind.name)
        if kind.name == "optional" and node.field in FIELDS.get(kind.arguments[0].name, {}):
            # (`called.suit` where `called` may be null: a field of the value, once it is known not to be)
            known = f"known({guard_key(subject) or '...'}).{node.field}"
            raise self._fail(node, "type", f"`.{node.field}` of a value that may be null ({kind})",
                             start=subject.end, hint=f"{null_hint(subject)}; or read `{known}`, which fails where "
                             "it is null")
        if fields is None or node.field not in fields:
            allowed = ", ".join(f".{f}" for f in fields) if fields else "none"
            raise self._fail(node, "type", f"{kind} has no field `.{node.field}` (fields: {allowed})",
                             start=subject.end, hint=did_you_mean(node.field, list(fields or {})))
        return fields[node.field]

    def _check_parameter(self, node: ast.Field, narrowed: Narrowed) -> Type:
        parameter = self.environment.parameters.get(node.field)
        if parameter is None:
            hint = did_you_mean(node.field, list(self.environment.parameters)) or (
                "declare it under `params:`" if not self.environment.parameters
                else "parameters: " + ", ".join(self.environment.parameters))
            raise self._fail(node, "unknown-param", f"unknown parameter `params.{node.field}`", hint)
        self.annotations.constants[id(node)] = parameter.value
        if f"params.{node.field}" in narrowed and parameter.type.name == "optional":
            return parameter.type.element
        return parameter.type

    def _check_index(self, node: ast.Index, local: Locals, narrowed: Narrowed, expected: Type | None) -> Type:
        item = self._indexed(node, local, narrowed)
        if item.name == "optional" and guard_key(node) in narrowed:  # (`bid[p] != null and bid[p] > 0`)
            return item.element
        return item

    def _indexed(self, node: ast.Index, local: Locals, narrowed: Narrowed) -> Type:
        subject = node.subject
        if isinstance(subject, ast.Name):
            kind = self._resolve_name(subject, local, bare=False)
            self.annotations.types[id(subject)] = kind
        else:
            kind = self.check(subject, local, narrowed, None)
        if kind == ANY:
            self.check(node.index, local, narrowed, None)
            return ANY
        if isinstance(subject, ast.Name) and kind.is_per_owner and kind.element.name != "per_key" and \
                subject.identifier in self.environment.unset and subject.identifier not in local and \
                subject.identifier not in self.context:
            self.annotations.unset_reads[id(node)] = subject.identifier
        if kind.name == "per_seat":
            self._expect(node.index, SEAT, local, narrowed, "the index of a per-seat value")
            return kind.element
        if kind.name == "per_team":
            self._expect(node.index, TEAM, local, narrowed, "the index of a per-team value")
            return kind.element
        if kind.name == "per_key":
            self._check_key(node, kind.arguments[1], local, narrowed)
            self.annotations.keyed_index[id(node)] = str(kind.arguments[1])
            return kind.element
        if kind.is_list:
            self._expect(node.index, INT, local, narrowed, "a list index")
            return kind.element
        raise self._fail(node, "type", f"{kind} cannot be indexed")

    def _check_key(self, node: ast.Index, key: Type, local: Locals, narrowed: Narrowed) -> None:
        """The index of a variable's second index (`by:`): of its type, and a word it lists when written out."""
        self._expect(node.index, key, local, narrowed, "the key of a value per key")
        subject = node.subject.subject if isinstance(node.subject, ast.Index) else node.subject
        words = self.environment.key_words.get(subject.identifier) if isinstance(subject, ast.Name) else None
        if words and isinstance(node.index, ast.Literal) and node.index.value not in words:
            name = subject.identifier if isinstance(subject, ast.Name) else ""
            raise self._fail(node.index, "type", f"`{name}` has no key {node.index.value!r}",
                             hint="its keys: " + ", ".join(words))

    # --- operators ---------------------------------------------------------------------------------------------

def _is_by_form(node: ast.Quantifier) -> bool:
    """`highest(c in hand by key)`: the body comes after the collection in the text."""
    return node.body.start > node.collection.end


__all__ = [
    "Annotations",
    "ContextError",
    "Definition",
    "DefinitionError",
    "Environment",
    "Instance",
    "Parameter",
]


def number_for_seat_hint(expected: Type, actual: Type) -> str | None:
    """A number stands for a seat or a team only when it is written as one (`0`): one worked out (a parameter,
    a sum) is a number; say how to turn it into a seat."""
    while expected.is_list and actual.is_list:
        expected, actual = expected.element, actual.element
    if actual == INT and expected in (SEAT, TEAM):
        listing = "seats()" if expected == SEAT else "teams()"
        return (f"a number is a {expected} only when written as a number (`0`) where a {expected} is wanted; for a "
                f"number worked out, or handed to a definition, write `{listing}[n]`")
    return None
