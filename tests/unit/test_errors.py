"""The rendering of findings stays bounded: a long line is cut around the span, with the carets still under
it, and many findings of one kind are counted rather than printed."""

from __future__ import annotations

import pytest

from interpreter.errors import (
    MAX_EXCERPT,
    MAX_FINDINGS_OF_A_KIND,
    Diagnostic,
    Location,
    SourceText,
    caret_excerpt,
    render_findings,
)


def _excerpt(line: str, column: int, width: int) -> tuple[str, str]:
    source = SourceText("f.yaml", line + "\n")
    shown, carets = caret_excerpt(Location(source, 1, column, 1, column + width))
    return shown.split(" | ", 1)[1], carets.split(" | ", 1)[1]


@pytest.mark.parametrize("column", [1, 7, 500, 4990, 5000])
def test_a_long_line_is_cut_around_the_span_and_the_carets_stay_under_it(column: int) -> None:
    line = "".join(chr(ord("a") + index % 26) for index in range(5000))
    shown, carets = _excerpt(line, column, 3)
    assert len(shown) <= MAX_EXCERPT + 6
    start = carets.index("^")
    assert shown[start:start + len(carets) - start] == line[column - 1:column - 1 + len(carets) - start]


def test_a_short_line_is_shown_whole() -> None:
    assert _excerpt("deal: 15", 7, 2) == ("deal: 15", "      ^^")


def test_findings_of_one_kind_are_counted_after_the_first_ones() -> None:
    source = SourceText("f.yaml", "x: 1\n")
    where = Location(source, 1, 1, 1, 2)
    findings = [Diagnostic("unknown-card", f"no rank R{n}", where) for n in range(100)]
    findings.append(Diagnostic("type", "another kind", where))
    text = render_findings(findings)
    assert text.count("error[unknown-card]") == MAX_FINDINGS_OF_A_KIND + 1
    assert "error[type]: another kind" in text
    assert text.endswith(f"... and {100 - MAX_FINDINGS_OF_A_KIND} more error[unknown-card] in f.yaml")


@pytest.mark.parametrize(("line", "carets"), [
    ("- deal: 5   # five each", "  ^^^^^^^"),
    ("- log: 'a # b' # said", "  ^^^^^^^^^^^^"),  # (a `#` inside quotes is text)
    ('- log: "p#1"', "  ^^^^^^^^^^"),  # (and one without a space before it)
    ('- log: "a \\" # b" # c', "  ^^^^^^^^^^^^^^^"),  # (an escaped quote does not end the text)
    ("- log: the dealer's turn   # note", "  ^^^^^^^^^^^^^^^^^^^^^^"),  # (an apostrophe in plain text)
])
def test_a_span_past_its_first_line_is_underlined_to_the_line_end_less_a_comment(line: str, carets: str) -> None:
    source = SourceText("f.yaml", line + "\n  from: stock\n")
    shown, underline = caret_excerpt(Location(source, 1, 3, 2, 14))
    assert shown.split(" | ", 1)[1] == line and underline.split(" | ", 1)[1] == carets
