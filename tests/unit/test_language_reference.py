"""The language reference is generated from the registry and current; every documented example is true."""

from __future__ import annotations

import pytest

from interpreter import reference
from interpreter.cards import standard_deck
from interpreter.dsl.builtins import BUILTINS, QUANTIFIERS
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program, evaluate
from interpreter.dsl.parser import parse
from interpreter.dsl.types import BOOL, SEAT
from interpreter.engine.melds import MeldKind, MeldRules

# A plain rummy's melds for the examples: sets of three or more of a rank, runs of three or more, no wild cards.
RUMMY = MeldRules(standard_deck(), [
    MeldKind("set", "set", 3, 4, 0, 3, None, False, False, False),
    MeldKind("run", "run", 3, 13, 0, 3, None, False, True, True),
], lambda card: False)


def test_docs_language_md_is_current() -> None:
    on_disk = reference.DOCUMENT.read_text(encoding="utf-8")
    assert on_disk == reference.render(), "docs/language.md is stale: run `python -m interpreter.reference --write`"


def _evaluate_example(example: str) -> object:
    environment = Environment(standard_deck(), {"dealer": SEAT})
    node = parse(example)
    kind, annotations = environment.check(node)
    assert kind == BOOL, f"the example {example!r} must be a true/false statement, not {kind}"
    program = Program(environment)
    name = program.add(node, annotations)
    function = program.build()[name]
    return evaluate(function, {"dealer": 0, "player_count": 4, "team_of": (0, 1, 0, 1), "_meld_rules": RUMMY}, {})


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_builtin_example_holds(name: str) -> None:
    assert _evaluate_example(BUILTINS[name].example) is True


@pytest.mark.parametrize("name", sorted(QUANTIFIERS))
def test_quantifier_example_holds(name: str) -> None:
    assert _evaluate_example(QUANTIFIERS[name].example) is True


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_builtin_is_documented(name: str) -> None:
    builtin = BUILTINS[name]
    assert builtin.doc.endswith(".") and len(builtin.doc) > 15
    assert builtin.signature.startswith(f"{name}(")
    assert f"`{builtin.signature}`" in reference.render()
