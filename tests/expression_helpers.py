"""Checked expressions for the compiler's unit tests: clauses with their definitions, in a program of their own."""

from __future__ import annotations

from typing import Any

from interpreter.cards import Deck
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program
from interpreter.dsl.definitions import Definition
from interpreter.dsl.parser import parse
from interpreter.dsl.types import parse_type


def checked(deck: Deck, clauses: list[str], definitions: dict[str, str] | None, context: dict[str, str],
            game: dict[str, str] | None = None) -> tuple[Program, list[tuple[Any, Any]]]:
    """A program for the definitions given (`"follows(c)": "c.suit == led"`), and the clauses checked with the
    names of `context` bound and the game's values `game` (name -> type, as written: `"list[card]"`)."""
    defined = {}
    for key, body in (definitions or {}).items():
        name, _, rest = key.partition("(")
        parameters = tuple(part.strip() for part in rest.rstrip(")").split(",")) if rest else ()
        defined[name] = Definition(name, parameters, parse(body), body)
    environment = Environment(deck, {name: parse_type(kind) for name, kind in (game or {}).items()}, defined, {},
                              {"player": parse_type("seat")})
    bound = {name: parse_type(kind) for name, kind in context.items()}
    parts = []
    for clause in clauses:
        node = parse(clause)
        _, annotations = environment.check(node, bound)
        parts.append((node, annotations))
    return Program(environment), parts
