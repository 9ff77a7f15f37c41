"""A log line's values are written in braces: a brace left unclosed (or closed twice) is shown as it stands, and
`validate` warns, since the format has no way to write a brace on purpose that this could be."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import validate_file

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("line", "message", "column"), [
    ("p{dealer} has {hand_number", "a `{` without its `}`: the line shows it as it stands", 15),
    ("p{dealer} has} {hand_number}", "a `}` without its `{`: the line shows it as it stands", 14),
])
def test_a_brace_not_closed_in_a_log_line_is_a_warning_at_it(tmp_path: Path, line: str, message: str,
                                                             column: int) -> None:
    text = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
    anchor = "        - shuffle: stock\n"
    assert anchor in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(anchor, anchor + f'        - log: "{line}"\n', 1), encoding="utf-8")
    (finding,) = validate_file(str(path))
    assert (finding.code, finding.severity, finding.message) == ("log-brace", "warning", message)
    assert finding.location is not None and finding.location.column - len('        - log: "') == column
