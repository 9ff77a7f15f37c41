"""A legality clause's `reason`: plain text, shown as written in every refusal."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_reason_written_as_a_log_line_is_a_warning(tmp_path: Path) -> None:
    """A reason is shown as written: `{trump}` in it is not worked out as in a log line, and `validate` says so
    (a designer wrote `reason: "meet the contract: {contract}"` and saw the braces in every refusal)."""
    from interpreter import validate_file
    text = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
    path = tmp_path / "reason.yaml"
    path.write_text(text.replace('reason: "you must follow suit"', 'reason: "follow {led}, trumps {trump}"'),
                    encoding="utf-8")
    findings = validate_file(str(path))
    assert [(d.code, d.severity, d.yaml_path) for d in findings] == \
        [("reason-template", "warning", "hand.phases[1].steps[0].legal[0].reason")]
    path.write_text(text.replace('reason: "you must follow suit"', 'reason: "follow suit {AS, KS}"'), encoding="utf-8")
    assert validate_file(str(path)) == []


def test_a_number_in_braces_in_a_reason_is_a_warning_too(tmp_path: Path) -> None:
    from interpreter import validate_file
    text = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
    path = tmp_path / "reason.yaml"
    path.write_text(text.replace('reason: "you must follow suit"', 'reason: "at most {3} cards"'), encoding="utf-8")
    assert [d.code for d in validate_file(str(path))] == ["reason-template"]
