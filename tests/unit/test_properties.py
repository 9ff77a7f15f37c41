"""Hypothesis: any text given to the expression parser, and any YAML document given to the loader, ends in a
result or in the project's own error type, never in another exception."""

from __future__ import annotations

import contextlib
import string
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.cards import standard_deck
from interpreter.dsl.checker import Environment
from interpreter.dsl.parser import parse
from interpreter.dsl.types import CARDS, SEAT, SUIT, per_seat
from interpreter.errors import ExpressionError, ParameterError, RuledeckError
from interpreter.loader import load_ruleset
from interpreter.source import parse_bytes
from tests.play_helpers import game_from_text

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_TOKENS = st.sampled_from([
    "hand", "card", "c", "trump", "AH", "10S", "K", "H", "JK", "1", "0", "-", "+", "*", "//", "%", "(", ")", "[",
    "]", ",", ".", "rank", "suit", "==", "<", "and", "or", "not", "in", "if", "then", "else", "for", "by", "any",
    "highest", "size", "params", "x", "'s'", "true", "null", ":", "#",
])

ENVIRONMENT = Environment(standard_deck(), {"hand": per_seat(CARDS), "trump": SUIT, "dealer": SEAT},
                          contextual={"player": SEAT})


@SETTINGS
@given(st.text(max_size=60))
def test_arbitrary_text_parses_or_raises_expression_error(text: str) -> None:
    try:
        node = parse(text)
    except ExpressionError as error:
        assert 0 <= error.start <= max(len(text), 1)
        return
    with contextlib.suppress(ExpressionError):
        ENVIRONMENT.check(node, {"player": SEAT})


@SETTINGS
@given(st.lists(_TOKENS, min_size=1, max_size=14).map(" ".join))
def test_token_soup_parses_and_checks_or_raises_expression_error(text: str) -> None:
    try:
        node = parse(text)
        ENVIRONMENT.check(node, {"player": SEAT})
    except ExpressionError as error:
        assert error.code in {"expr-syntax", "unknown-name", "type", "arity", "unknown-card", "unknown-param"}


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 60),
                     st.text(string.ascii_letters + " _:[]{}", max_size=8))
_KEYS = st.sampled_from(["format", "name", "players", "deck", "zones", "hand", "match", "phases", "steps",
                         "next", "start", "min", "max", "ranks", "suits", "result", "deal", "from", "to", "x"])
_DOCUMENTS = st.recursive(
    _SCALARS,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(_KEYS, children, max_size=5)),
    max_leaves=25,
)


def _load_text(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder, contextlib.suppress(RuledeckError):
        game_from_text(Path(folder), text)


@SETTINGS
@given(_DOCUMENTS)
def test_arbitrary_yaml_documents_load_or_raise_ruledeck_errors(document: object) -> None:
    _load_text(yaml.safe_dump(document))


_VALID = Path(__file__).resolve().parents[2] / "tests" / "games" / "tiny.yaml"
_BASE = yaml.safe_load(_VALID.read_text(encoding="utf-8"))


def _paths(node: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


_BASE_PATHS = _paths(_BASE)[1:]


def _replace(document: object, path: tuple[object, ...], value: object) -> object:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(document, dict):
        return {**document, head: _replace(document[head], rest, value)}
    assert isinstance(document, list) and isinstance(head, int)
    return [*document[:head], _replace(document[head], rest, value), *document[head + 1:]]


_EXPRESSION_TEXT = st.lists(_TOKENS, min_size=1, max_size=8).map(" ".join)


@SETTINGS
@given(st.lists(st.tuples(st.sampled_from(_BASE_PATHS), st.one_of(_DOCUMENTS, _EXPRESSION_TEXT)), min_size=1,
                max_size=3))
def test_mutated_valid_rulesets_load_or_raise_ruledeck_errors(
    mutations: list[tuple[tuple[object, ...], object]],
) -> None:
    document: object = _BASE
    for path, value in mutations:
        try:
            document = _replace(document, path, value)
        except (KeyError, IndexError, AssertionError, TypeError):
            continue
    _load_text(yaml.safe_dump(document))


@SETTINGS
@given(st.binary(max_size=200))
def test_arbitrary_bytes_load_or_raise_ruledeck_errors(data: bytes) -> None:
    with contextlib.suppress(RuledeckError):
        parse_bytes(data, "bytes.yaml")


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["hands", "pot_limit", "nope"]),
                       st.one_of(st.integers(-3, 200), st.none(), st.booleans(), st.text(max_size=3)), max_size=2))
def test_arbitrary_parameter_values_are_accepted_or_refused_with_parameter_error(values: dict[str, object]) -> None:
    with contextlib.suppress(ParameterError):
        load_ruleset(_VALID, values)
