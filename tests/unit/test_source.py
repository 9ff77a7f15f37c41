"""Safe YAML loading with positions: limits, tags, duplicate keys, and positions inside expressions."""

from __future__ import annotations

import pytest

from interpreter.errors import RulesetError
from interpreter.source import MAX_FILE_BYTES, MappingNode, ScalarNode, find, parse_bytes, parse_text, read_file


def _codes(error: RulesetError) -> list[str]:
    return [d.code for d in error.diagnostics]


def test_every_node_knows_its_line_and_column() -> None:
    root = parse_text("format: 1\nzones:\n  - name: stock\n    visibility: hidden\n", "x.yaml")
    node = find(root, ("zones", 0, "visibility"))
    assert isinstance(node, ScalarNode)
    assert (node.location.line, node.location.column) == (4, 17)
    assert root.key_locations["zones"].line == 2


def test_position_inside_a_literal_block_maps_to_the_file() -> None:
    text = "rule: |\n  any(c.suit == led\n      for c in hand)\n"
    root = parse_text(text, "x.yaml")
    node = root.entries["rule"]
    assert isinstance(node, ScalarNode) and isinstance(node.value, str)
    start = node.value.index("hand")
    where = node.location_of(start, start + 4)
    assert (where.line, where.column, where.end_column) == (3, 16, 20)


def test_position_inside_a_plain_multiline_scalar_maps_to_the_file() -> None:
    root = parse_text("rule: a and\n  b or cc\n", "x.yaml")
    node = root.entries["rule"]
    assert isinstance(node, ScalarNode) and isinstance(node.value, str)
    start = node.value.index("cc")
    where = node.location_of(start, start + 2)
    assert (where.line, where.column) == (2, 8)


def test_python_tags_are_refused_without_constructing_anything() -> None:
    with pytest.raises(RulesetError) as raised:
        parse_text("format: 1\nx: !!python/object/apply:os.system ['echo hacked']\n", "x.yaml")
    assert _codes(raised.value) == ["yaml-tag"]


def test_an_alias_bomb_is_refused_before_it_expands() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    with pytest.raises(RulesetError) as raised:
        parse_text("\n".join(lines) + "\n", "bomb.yaml")
    assert _codes(raised.value) == ["alias-limit"]


def test_a_few_aliases_are_fine() -> None:
    root = parse_text("a: &x [1, 2]\nb: *x\n", "x.yaml")
    assert isinstance(root.entries["b"], object)


def test_too_many_aliases_are_refused() -> None:
    text = "a: &x 1\nb: [" + ", ".join(["*x"] * 101) + "]\n"
    with pytest.raises(RulesetError) as raised:
        parse_text(text, "x.yaml")
    assert _codes(raised.value) == ["alias-limit"]


def test_duplicate_keys_are_refused_with_both_lines() -> None:
    with pytest.raises(RulesetError) as raised:
        parse_text("name: a\nformat: 1\nname: b\n", "x.yaml")
    (finding,) = raised.value.diagnostics
    assert finding.code == "duplicate-key" and "line 1" in finding.message
    assert finding.location is not None and finding.location.line == 3


@pytest.mark.parametrize(("data", "code"), [
    (b"", "file-empty"),
    (b"# only a comment\n\n", "file-empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "file-binary"),
    (b"\xff\xfe\xfa", "file-binary"),
    (b"- a\n- b\n", "not-mapping"),
    (b"just text\n", "not-mapping"),
    (b"a: [1, 2\n", "yaml-syntax"),
    (b"a:\n\tb: 1\n", "yaml-syntax"),
    (b"a: \x01\n", "file-binary"),
])
def test_bad_files_get_their_own_error(data: bytes, code: str) -> None:
    with pytest.raises(RulesetError) as raised:
        parse_bytes(data, "x.yaml")
    assert _codes(raised.value) == [code]


def test_a_file_over_the_size_bound_is_refused_before_parsing() -> None:
    with pytest.raises(RulesetError) as raised:
        parse_bytes(b"#" * (MAX_FILE_BYTES + 1), "big.yaml")
    assert _codes(raised.value) == ["file-too-large"]


def test_a_missing_file_is_an_error_not_a_traceback(tmp_path: object) -> None:
    with pytest.raises(RulesetError) as raised:
        read_file("/nonexistent/ruleset.yaml")
    assert _codes(raised.value) == ["file-missing"]
    assert raised.value.diagnostics[0].render().startswith("/nonexistent/ruleset.yaml:1:1: error[file-missing]")


def test_a_utf8_bom_is_accepted() -> None:
    root = parse_bytes("\ufeffformat: 1\n".encode(), "x.yaml")
    assert isinstance(root, MappingNode) and "format" in root.entries
