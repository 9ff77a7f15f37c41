"""A syntax error says what was probably meant: a conditional written as Python writes it, a character pasted
from a word processor that only looks like an operator."""

from __future__ import annotations

import pytest

from interpreter.dsl.parser import parse
from interpreter.errors import ExpressionError


@pytest.mark.parametrize(("text", "message", "hint"), [
    ("params.bet if street == 0 else 2 * params.bet", "unexpected 'if'",
     "a conditional is written `if c then a else b`"),
    ("high \u2212 staked", "unexpected character '\u2212'", "write `-`: '\u2212' only looks like it"),
    ("size(hand) \u2264 3", "unexpected character '\u2264'", "write `<=`: '\u2264' only looks like it"),
    ("status[p] == \u2018play\u2019", "unexpected character '\u2018'", "write `'`: '\u2018' only looks like it"),
])
def test_a_syntax_error_says_what_was_meant(text: str, message: str, hint: str) -> None:
    with pytest.raises(ExpressionError) as raised:
        parse(text)
    assert (raised.value.code, raised.value.message, raised.value.hint) == ("expr-syntax", message, hint)


@pytest.mark.parametrize("text", ["if street == 0 then params.bet else 2 * params.bet",
                                  "[c for c in hand if c.rank == K]", "sum(value(c) for c in hand if c.suit == H)"])
def test_the_language_s_own_forms_still_read(text: str) -> None:
    parse(text)


@pytest.mark.parametrize(("text", "hint"), [
    ("is_face_up(AH)", "no expression reads whether a card is face up (a known gap of the format)"),
    ("len([AH])", "`size(items)` counts the items"),
])
def test_a_function_the_language_does_not_have_says_what_to_write(text: str, hint: str) -> None:
    from interpreter.cards import standard_deck
    from interpreter.dsl.checker import Environment
    with pytest.raises(ExpressionError) as raised:
        Environment(standard_deck(), {}).check(parse(text))
    assert raised.value.code == "unknown-name" and raised.value.hint is not None and raised.value.hint.startswith(hint)
