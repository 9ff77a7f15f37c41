"""Expressions in the places a ruleset writes them: each is parsed, checked with the names its place binds and
queued for the compiler; a card option's clauses also become one filter; a `log` line's `{...}` parts are
checked one by one. Errors are reported at the expression's place in the file."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from interpreter.dsl import ast
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program
from interpreter.dsl.definitions import Annotations, DefinitionError, Tainted
from interpreter.dsl.types import Type
from interpreter.errors import Diagnostic, ExpressionError
from interpreter.semantics import Path, RulesetChecker, Scope, expression_text, mentioned_names
from interpreter.source import Node, ScalarNode, written_word, yaml_path

_TEMPLATE_PART = re.compile(r"\{([^{}]*)\}")


@dataclass
class ExpressionSite:
    """Checks expressions in place and queues them for the compiler."""

    checker: RulesetChecker
    environment: Environment
    program: Program
    compiled: dict[str, str] = field(default_factory=dict)
    mentioned: set[str] = field(default_factory=set)  # every name and function any parsed expression uses
    types: dict[str, Type] = field(default_factory=dict)  # the type of each `{...}` of a log line
    checked: dict[str, tuple[ast.Node, Annotations]] = field(default_factory=dict)
    unparsed: int = 0  # expressions with syntax errors: what they use is unknown
    narrowed: frozenset[str] = frozenset()  # optional names known not to be null where the steps are (`if` tests)

    def _parse(self, text: str) -> ast.Node:
        try:
            tree = self.checker.expressions.parse(text)
        except ExpressionError:
            self.unparsed += 1
            raise
        self.mentioned |= mentioned_names(tree)
        return tree

    def check(self, node: Node | None, path: Path, scope: Scope, expected: Type | None = None,
              what: str = "the expression") -> tuple[Type, ast.Node] | None:
        if not isinstance(node, ScalarNode):
            return None
        previous = self.checker.using
        try:
            tree = self._parse(expression_text(node))
            self.checker.using = (node, path)
            kind, annotations = self.environment.check(tree, scope, expected, what, self.narrowed)
        except DefinitionError as error:
            self.checker.report_definition(error)
            return None
        except ExpressionError as error:
            if error.code == "type" and error.hint is None and isinstance(node.value, bool):
                word = written_word(node.location)  # (`off`, `yes`: YAML's truth values, not the word)
                if word is not None and word.lower() not in ("true", "false"):
                    error.hint = f"YAML reads `{word}` as {str(node.value).lower()}: a string of the language " \
                                 f"is quoted twice, \"'{word}'\""
            self.checker.report_expression(error, node, path)
            return None
        except Tainted:
            return None
        finally:
            self.checker.using = previous
        self.compiled[yaml_path(path)] = self.program.add(tree, annotations)
        self.checked[yaml_path(path)] = (tree, annotations)
        return kind, tree

    def filter(self, paths: list[str], where: str, variable: str, binding: str | None = None,
               prefers: frozenset[int] = frozenset()) -> None:
        """One function testing every clause of an option over all candidates at once (the hot path of legal
        moves): compiled only when every clause checked. `prefers`: the clauses that are preferences (their
        paths are their tests'). See Program.add_filter."""
        parts = [self.checked[path] for path in paths if path in self.checked]
        if parts and len(parts) == len(paths):
            self.compiled[where] = self.program.add_filter(parts, variable, binding, prefers)

    def check_tree(self, tree: ast.Node, node: ScalarNode, path: Path, scope: Scope, *, suffix: str) -> None:
        """Compile a part of an expression already checked whole (the owner in `hand[p]`)."""
        try:
            _, annotations = self.environment.check(tree, scope, narrowed=self.narrowed)
        except (ExpressionError, Tainted):
            return  # reported with the whole expression
        self.compiled[yaml_path(path) + suffix] = self.program.add(tree, annotations)

    def template(self, node: Node | None, path: Path, scope: Scope) -> None:
        """A `log` line: each `{expression}` inside it is checked (any type)."""
        if not isinstance(node, ScalarNode) or not isinstance(node.value, str):
            return
        stray = re.search(r"[{}]", _TEMPLATE_PART.sub(lambda part: " " * len(part[0]), node.value))
        if stray is not None:  # (a brace outside `{...}`: a value's braces not closed, or one closed twice)
            opening = stray[0] == "{"
            self.checker.diagnostics.append(Diagnostic(
                "log-brace", ("a `{` without its `}`" if opening else "a `}` without its `{`") + ": the line shows "
                "it as it stands", node.location_of(stray.start(), stray.start() + 1), yaml_path(path),
                "a value in a log line is written in braces, `{hand_number}`, and an expression inside them may "
                "not hold braces", "warning"))
        for index, match in enumerate(_TEMPLATE_PART.finditer(node.value)):
            offset = match.start(1)
            previous = self.checker.using
            try:
                tree = self._parse(match[1])
                self.checker.using = (node, path)
                kind, annotations = self.environment.check(tree, scope, narrowed=self.narrowed)
            except DefinitionError as error:
                self.checker.report_definition(error)
                continue
            except ExpressionError as error:
                error.start += offset
                error.end += offset
                self.checker.report_expression(error, node, path)
                continue
            except Tainted:
                continue
            finally:
                self.checker.using = previous
            where = f"{yaml_path(path)}{{{index}}}"
            self.compiled[where] = self.program.add(tree, annotations)
            self.types[where] = kind
