"""Parse expression text into the AST with Lark (LALR, strict); syntax errors become ExpressionError."""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from interpreter.dsl import ast
from interpreter.errors import ExpressionError
from interpreter.source_limits import MAX_NUMBER_DIGITS

MAX_EXPRESSION_LENGTH = 10_000
MAX_EXPRESSION_DEPTH = 100  # the shipped rulesets need 11; every later pass recurses once per level
MAX_RULESET_EXPRESSIONS = 100_000  # characters parsed for one ruleset; the shipped ones need under 5,000

_GRAMMAR = Path(__file__).with_name("grammar.lark")

_TOKEN_NAMES = {
    "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "COMMA": "','",
    "DOT": "'.'", "BY": "'by'", "NAME": "a name", "INT": "a number", "SYMBOL": "a card, rank or suit",
    "STRING": "a string",
    "COMPARE": "a comparison", "ADD": "'+' or '-'", "MUL": "'*', '/', '//' or '%'", "MINUS": "'-'",
    "IF": "'if'", "THEN": "'then'", "ELSE": "'else'", "FOR": "'for'", "IN": "'in'", "NOT": "'not'",
    "AND": "'and'", "OR": "'or'", "TRUE": "'true'", "FALSE": "'false'", "NULL": "'null'", "$END": "the end",
}


def _cache_file() -> str | bool:
    """Where the built parser tables are kept between runs: a private folder of the user's cache, since Lark
    reads it back with pickle (never a shared temporary folder). Building the tables costs most of a cold start."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ruledeck"
    try:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _is_own_folder(base):
            return False
    except OSError:
        return False
    version = f"{lark.__version__}-py{sys.version_info.major}{sys.version_info.minor}"
    return str(base / f"expression-grammar-{version}.lark-cache")


def _is_own_folder(folder: Path) -> bool:
    """Whether this user owns the folder and may write in it. Where the system has no user ids (Windows, whose
    per-user folders are private already), writable is enough."""
    get_user_id = getattr(os, "getuid", None)
    if get_user_id is not None and folder.stat().st_uid != get_user_id():
        return False
    return os.access(folder, os.W_OK)


@cache
def _parser() -> Lark:
    # Lark checks the cache against a hash of the grammar and options, and rebuilds when they differ.
    return Lark(
        _GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        strict=True,
        propagate_positions=True,
        maybe_placeholders=True,
        cache=_cache_file(),
    )


def _span(meta: Any) -> tuple[int, int]:
    return meta.start_pos, meta.end_pos


@v_args(meta=True)
class _ToAst(Transformer[Token, ast.Node]):
    """Builds AST nodes and nothing else; every later pass works on the AST."""

    def integer(self, meta: Any, children: list[Token]) -> ast.Node:
        digits = str(children[0])
        if len(digits) > MAX_NUMBER_DIGITS:
            raise ExpressionError("number-too-large", f"a number of {len(digits):,} digits; a ruleset's numbers "
                                  f"have at most {MAX_NUMBER_DIGITS}", *_span(meta))
        return ast.Literal(*_span(meta), int(digits))

    def string(self, meta: Any, children: list[Token]) -> ast.Node:
        return ast.Literal(*_span(meta), str(children[0])[1:-1])

    def true(self, meta: Any, children: list[Token]) -> ast.Node:
        return ast.Literal(*_span(meta), True)

    def false(self, meta: Any, children: list[Token]) -> ast.Node:
        return ast.Literal(*_span(meta), False)

    def null(self, meta: Any, children: list[Token]) -> ast.Node:
        return ast.Literal(*_span(meta), None)

    def symbol(self, meta: Any, children: list[Token]) -> ast.Node:
        return ast.Symbol(*_span(meta), str(children[0]))

    def name(self, meta: Any, children: list[Token]) -> ast.Node:
        return ast.Name(*_span(meta), str(children[0]))

    def field(self, meta: Any, children: list[Any]) -> ast.Node:
        return ast.Field(*_span(meta), children[0], str(children[1]))

    def index(self, meta: Any, children: list[Any]) -> ast.Node:
        return ast.Index(*_span(meta), children[0], children[1])

    def arguments(self, meta: Any, children: list[ast.Node]) -> tuple[ast.Node, ...]:
        return tuple(children)

    def call(self, meta: Any, children: list[Any]) -> ast.Node:
        name, arguments = children
        return ast.Call(*_span(meta), str(name), arguments or (), name.end_pos)

    def generator(self, meta: Any, children: list[Any]) -> tuple[ast.Node, str, ast.Node, ast.Node | None]:
        result, variable, collection, condition = children
        return result, str(variable), collection, condition

    def quantifier(self, meta: Any, children: list[Any]) -> ast.Node:
        name, (body, variable, collection, condition) = children
        return ast.Quantifier(*_span(meta), str(name), variable, collection, body, condition)

    def ranked(self, meta: Any, children: list[Any]) -> ast.Node:
        name, head, key = children
        if not (isinstance(head, ast.Binary) and head.operator == "in" and isinstance(head.left, ast.Name)):
            raise ExpressionError("expr-syntax", "expected `name in items` before `by`", head.start, head.end,
                                  hint=f"write it as `{name}(c in hand by c.rank)`")
        return ast.Quantifier(*_span(meta), str(name), head.left.identifier, head.right, key, None)

    def list_display(self, meta: Any, children: list[Any]) -> ast.Node:
        return ast.ListDisplay(*_span(meta), children[0] or ())

    def comprehension(self, meta: Any, children: list[Any]) -> ast.Node:
        result, variable, collection, condition = children[0]
        return ast.Comprehension(*_span(meta), result, variable, collection, condition)

    def negate(self, meta: Any, children: list[ast.Node]) -> ast.Node:
        return ast.Unary(*_span(meta), "-", children[0])

    def not_op(self, meta: Any, children: list[ast.Node]) -> ast.Node:
        return ast.Unary(*_span(meta), "not", children[0])

    def _binary(self, meta: Any, operator: str, left: ast.Node, right: ast.Node) -> ast.Node:
        return ast.Binary(*_span(meta), operator, left, right)

    def arith(self, meta: Any, children: list[Any]) -> ast.Node:
        return self._binary(meta, str(children[1]), children[0], children[2])

    def compare(self, meta: Any, children: list[Any]) -> ast.Node:
        return self._binary(meta, str(children[1]), children[0], children[2])

    def in_op(self, meta: Any, children: list[ast.Node]) -> ast.Node:
        return self._binary(meta, "in", children[0], children[1])

    def not_in_op(self, meta: Any, children: list[ast.Node]) -> ast.Node:
        return self._binary(meta, "not in", children[0], children[1])

    def and_op(self, meta: Any, children: list[ast.Node]) -> ast.Node:
        return self._binary(meta, "and", children[0], children[1])

    def or_op(self, meta: Any, children: list[ast.Node]) -> ast.Node:
        return self._binary(meta, "or", children[0], children[1])

    def if_expr(self, meta: Any, children: list[ast.Node]) -> ast.Node:
        return ast.Conditional(*_span(meta), *children)


def parse(text: str) -> ast.Node:
    """Parse one expression. Raises ExpressionError (code `expr-syntax`) with the offending span."""
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise ExpressionError(
            "expr-syntax", f"expression is longer than {MAX_EXPRESSION_LENGTH:,} characters", 0, 1
        )
    if not text.strip():
        raise ExpressionError("expr-syntax", "empty expression", 0, 1)
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(error, text) from None
    _check_depth(tree)
    try:
        result = _ToAst().transform(tree)
    except VisitError as error:
        if isinstance(error.orig_exc, ExpressionError):
            raise error.orig_exc from None
        raise
    if isinstance(result, Tree):  # pragma: no cover - every rule has a transformer method
        raise ExpressionError("expr-syntax", "unsupported expression", 0, len(text))
    return result


class BudgetSpent(ExpressionError):
    """An expression past the budget of its ruleset; `repeated` once one was refused already (say it once)."""

    def __init__(self, *, repeated: bool) -> None:
        super().__init__("expr-too-long", f"the expressions of this ruleset add up to more than "
                         f"{MAX_RULESET_EXPRESSIONS:,} characters here", 0, 1,
                         hint="a ruleset needs far less: give repeated parts a name under `define:`")
        self.repeated = repeated


class ExpressionBudget:
    """The expression text one ruleset may have parsed in all: parsing costs some 50 µs a character, so a
    file of many long expressions would take minutes. Past the budget, every expression is refused at once."""

    def __init__(self, characters: int = MAX_RULESET_EXPRESSIONS) -> None:
        self.left = characters

    def parse(self, text: str) -> ast.Node:
        spent = self.left < 0
        self.left -= len(text)
        if self.left < 0:
            raise BudgetSpent(repeated=spent)
        return parse(text)


def _check_depth(tree: Tree[Token]) -> None:
    """Refuse an expression nested deeper than MAX_EXPRESSION_DEPTH before any recursive pass walks it (the
    walk here is a loop). Operators in a row nest too: `a or b or c` is `(a or b) or c`."""
    pending: list[tuple[Tree[Token], int]] = [(tree, 1)]
    while pending:
        node, depth = pending.pop()
        if depth > MAX_EXPRESSION_DEPTH:
            start = node.meta.start_pos if not node.meta.empty else 0
            raise ExpressionError(
                "expr-too-deep", f"the expression nests more than {MAX_EXPRESSION_DEPTH} levels deep here",
                start, start + 1, hint="operators in a row and brackets each nest one level: give parts of it a "
                "name under `define:`, or use any(...)/all(...) over a list")
        pending.extend((child, depth + 1) for child in reversed(node.children) if isinstance(child, Tree))


def _syntax_error(error: UnexpectedInput, text: str) -> ExpressionError:
    position = getattr(error, "pos_in_stream", None)
    if isinstance(error, UnexpectedEOF) or position is None:
        return _ends_too_early(text, getattr(error, "expected", set()))
    if isinstance(error, UnexpectedCharacters):
        char = text[position]
        hint = None
        if char == "=":
            hint = "compare with `==`"
        elif char in "&|!":
            hint = "write `and`, `or`, `not`"
        elif char in _LOOK_ALIKES:
            hint = f"write `{_LOOK_ALIKES[char]}`: {char!r} only looks like it"
        elif char.isalpha():
            hint = "names are lower case; cards, ranks and suits upper case (AH, K, H)"
        return ExpressionError("expr-syntax", f"unexpected character {char!r}", position, position + 1, hint=hint)
    assert isinstance(error, UnexpectedToken)
    token = error.token
    if token.type == "$END":
        return _ends_too_early(text, error.expected)
    shown = repr(str(token))
    end = position + max(len(str(token)), 1)
    hint = _expected_hint(error.expected)
    if str(token) in ("=",):
        hint = "compare with `==`"
    if str(token) == "if" and text[:position].strip():  # (`a if c else b`, as Python writes it)
        hint = "a conditional is written `if c then a else b`"
    if str(token) in ("where", "when", "with") and " for " in text[:position]:  # (SQL's, or a spoken filter)
        hint = "a comprehension or quantifier keeps the items a condition holds for with `if`: " \
            "`min(c.rank for c in cards if c.suit == trump)`"
    if str(token) == "for" and " for " in text[:position]:
        hint = "a comprehension or quantifier has one `for`: for pairs of items of one list, go through " \
            "subsets(items, 2, 2); for an item of each of two lists, put one inside the other (`any(any(... for " \
            "b in second) for a in first)`)"
    return ExpressionError("expr-syntax", f"unexpected {shown}", position, end, hint=hint)


# Characters that look like an operator of the language (pasted from a word processor): the one meant
_LOOK_ALIKES = {"\u2212": "-", "\u2013": "-", "\u2014": "-", "\u00d7": "*", "\u00f7": "/", "\u2264": "<=",
                "\u2265": ">=", "\u2260": "!=", "\u2018": "'", "\u2019": "'", "\u201c": "'", "\u201d": "'"}


def _unclosed(text: str) -> int | None:
    """The position of the last bracket that is never closed (outside strings), if any."""
    stack: list[int] = []
    quote = ""
    for index, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([":
            stack.append(index)
        elif char in ")]" and stack:
            stack.pop()
    return stack[-1] if stack else None


def _ends_too_early(text: str, expected: set[str]) -> ExpressionError:
    opener = _unclosed(text)
    if opener is not None:
        closer = ")" if text[opener] == "(" else "]"
        return ExpressionError("expr-syntax", f"this `{text[opener]}` is never closed", opener, opener + 1,
                               hint=f"add `{closer}` where it ends")
    position = len(text.rstrip())
    return ExpressionError("expr-syntax", "the expression ends too early", max(position - 1, 0), max(position, 1),
                           hint=_expected_hint(expected))


def _expected_hint(expected: set[str]) -> str | None:
    names = sorted({_TOKEN_NAMES.get(name, name.lower()) for name in expected})
    if not names or len(names) > 6:
        return None
    return "expected " + ", ".join(names)
