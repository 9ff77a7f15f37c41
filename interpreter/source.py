"""Reading YAML safely into a tree whose every node knows the file, line and column it came from."""

from __future__ import annotations

import bisect
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from interpreter.errors import Diagnostic, Location, RulesetError, SourceText, shorten
from interpreter.source_limits import check_events, check_expansion, check_number, mark_location

MAX_FILE_BYTES = 1_000_000

_STANDARD_TAG_PREFIX = "tag:yaml.org,2002:"
_ALLOWED_TAGS = {
    _STANDARD_TAG_PREFIX + name for name in ("str", "int", "float", "bool", "null", "map", "seq")
}


@dataclass(eq=False)
class Node:
    """A value from a ruleset file with its span. Merging keeps each node's own location."""

    location: Location


@dataclass(eq=False)
class ScalarNode(Node):
    value: str | int | float | bool | None
    style: str | None = None  # YAML style: None (plain), "'", '"', "|", ">"
    start_index: int = 0
    end_index: int = 0
    _offsets: list[int] | None = field(default=None, repr=False)

    def location_of(self, start: int, end: int) -> Location:
        """The file span of characters start..end (0-based, end exclusive) of this scalar's string value."""
        offsets = self._char_offsets()
        if not offsets:
            return self.location
        first = offsets[min(max(start, 0), len(offsets) - 1)]
        last = offsets[min(max(end - 1, start, 0), len(offsets) - 1)]
        line, column = _line_column(self.location.source, first)
        end_line, end_column = _line_column(self.location.source, last)
        if end_line != line:
            end_line, end_column = line, column + 1
        return Location(self.location.source, line, column, end_line, end_column + 1)

    def _char_offsets(self) -> list[int]:
        # Align the value's characters with the file text: exact for plain and literal scalars, which is
        # what DESIGN.md asks of multi-line expressions; quoted scalars with escapes align approximately.
        if self._offsets is None:
            self._offsets = _align(str(self.value), self.location.source.text, self.start_index, self.end_index)
        return self._offsets


@dataclass(eq=False)
class SequenceNode(Node):
    items: list[Node]


@dataclass(eq=False)
class MappingNode(Node):
    entries: dict[str, Node]
    key_locations: dict[str, Location]


def scalar(node: Node | None) -> Any:
    """A scalar node's value; None for any other node, or none."""
    return node.value if isinstance(node, ScalarNode) else None


def _align(value: str, text: str, start: int, end: int) -> list[int]:
    offsets: list[int] = []
    position = start
    for char in value:
        if char.isspace():
            offsets.append(min(position, max(end - 1, start)))
            continue
        found = text.find(char, position, end)
        if found < 0:
            offsets.append(min(position, max(end - 1, start)))
            continue
        offsets.append(found)
        position = found + 1
    return offsets


def _line_starts(source: SourceText) -> list[int]:
    cached: list[int] | None = getattr(source, "_line_starts", None)
    if cached is None:
        cached = [0]
        cached.extend(i + 1 for i, char in enumerate(source.text) if char == "\n")
        object.__setattr__(source, "_line_starts", cached)
    return cached


def _line_column(source: SourceText, index: int) -> tuple[int, int]:
    starts = _line_starts(source)
    line = bisect.bisect_right(starts, index) - 1
    return line + 1, index - starts[line] + 1


def to_plain(node: Node) -> Any:
    """The plain Python value of a located tree (what the schema validator sees)."""
    if isinstance(node, ScalarNode):
        return node.value
    if isinstance(node, SequenceNode):
        return [to_plain(item) for item in node.items]
    assert isinstance(node, MappingNode)
    return {key: to_plain(value) for key, value in node.entries.items()}


def yaml_path(path: tuple[str | int, ...]) -> str:
    """`hand.phases[2].next` from ('hand', 'phases', 2, 'next')."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text or "(top level)"


def parse_yaml_path(text: str) -> tuple[str | int, ...]:
    """('hand', 'phases', 2, 'next') from `hand.phases[2].next` (what follows `#` or `{` is left out)."""
    text = re.split(r"[#{]", text, maxsplit=1)[0]
    return tuple(int(index) if index else key for key, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", text))


def find(root: Node, path: tuple[str | int, ...]) -> Node | None:
    """The node at `path`, or None when the path leaves the tree."""
    node: Node = root
    for part in path:
        if isinstance(node, MappingNode) and isinstance(part, str) and part in node.entries:
            node = node.entries[part]
        elif isinstance(node, SequenceNode) and isinstance(part, int) and 0 <= part < len(node.items):
            node = node.items[part]
        else:
            return None
    return node


_NO_WAIT = getattr(os, "O_NONBLOCK", 0)  # (POSIX: opening a named pipe does not wait for a writer)


class UnreadableFile(Exception):
    """A file that cannot be read, in words (`problem`, and a `hint` or None) that its reader puts in its own
    error."""

    def __init__(self, problem: str, hint: str | None) -> None:
        super().__init__(problem)
        self.problem, self.hint = problem, hint


def read_bounded(path: str | Path, kind: str) -> tuple[bytes, int]:
    """The first MAX_FILE_BYTES + 1 bytes of a file and its size; UnreadableFile saying why not (`kind`: what the
    file should be, `a ruleset file`). Opened without waiting (a named pipe no program writes to would wait for
    ever: it reads as empty), then read as any file, never more than the bound (the path may name /dev/zero)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | _NO_WAIT)
        if _NO_WAIT:
            os.set_blocking(descriptor, True)
        with open(descriptor, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
            return data, max(os.fstat(file.fileno()).st_size, len(data))
    except ValueError:  # a NUL character in the path
        raise UnreadableFile("no such file: the path holds a NUL character", None) from None
    except FileNotFoundError:
        raise UnreadableFile("no such file", "check the path") from None
    except IsADirectoryError:
        raise UnreadableFile(f"is a directory, not {kind}", None) from None
    except OSError as error:
        raise UnreadableFile(f"cannot be read: {error.strerror}", None) from None


def read_file(path: str | Path) -> MappingNode:
    """Read one ruleset file: checked for size, encoding and shape, every node located."""
    shown = str(path)
    try:
        data, size = read_bounded(path, "a ruleset file")
    except UnreadableFile as unreadable:
        raise _file_error(shown, "file-missing", unreadable.problem, unreadable.hint) from None
    return parse_bytes(data, shown, size=size)


def parse_bytes(data: bytes, path: str, *, size: int | None = None) -> MappingNode:
    """Parse the bytes of a ruleset file (already read, or its first MAX_FILE_BYTES + 1 bytes when its
    `size` is given) into a located mapping."""
    if len(data) > MAX_FILE_BYTES:
        raise _file_error(
            path,
            "file-too-large",
            f"file is {size or len(data):,} bytes; a ruleset may be at most {MAX_FILE_BYTES:,}",
            "split it with `extends:` or remove embedded data",
        )
    if b"\x00" in data:
        raise _file_error(path, "file-binary", "file is binary, not YAML text", "a ruleset is UTF-8 YAML")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        shown = SourceText(path, data.decode("latin-1"))
        line, column = _line_column(shown, error.start)
        raise RulesetError([Diagnostic(
            "file-binary", f"file is not UTF-8 text: byte 0x{data[error.start]:02X} cannot be decoded",
            Location(shown, line, column, line, column + 1), hint="save the file as UTF-8")]) from None
    return parse_text(text, path)


# libyaml's parser where PyYAML has it (several times faster: most of a ruleset's loading time was reading it);
# PyYAML's own when not, and to report an error.
FAST_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_text(text: str, path: str) -> MappingNode:
    """Parse YAML text into a located mapping, refusing tags, alias bombs and duplicate keys."""
    source = SourceText(path, text)
    if not text.strip():
        raise _file_error(path, "file-empty", "file is empty", "a ruleset starts with `format: 1`")
    if all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()):
        raise _file_error(path, "file-empty", "file holds only comments", "a ruleset starts with `format: 1`")
    try:
        check_events(text, source, FAST_LOADER)  # before composing: aliases and nesting are bounded first
        composed = yaml.compose(text, Loader=FAST_LOADER)
    except yaml.YAMLError:
        try:  # again with PyYAML's own parser, whose messages the findings are written for
            check_events(text, source)
            composed = yaml.compose(text, Loader=yaml.SafeLoader)
        except yaml.YAMLError as error:
            raise RulesetError([yaml_error(error, source)]) from None
    if composed is None:
        raise _file_error(path, "file-empty", "file holds no YAML document", "a ruleset starts with `format: 1`")
    check_expansion(composed, source)
    diagnostics: list[Diagnostic] = []
    root = _convert(composed, source, diagnostics, ())
    if diagnostics:
        raise RulesetError(diagnostics)
    if not isinstance(root, MappingNode):
        kind = "a list" if isinstance(root, SequenceNode) else "a single value"
        raise RulesetError(
            [
                Diagnostic(
                    "not-mapping",
                    f"a ruleset must be a mapping of sections, but this file is {kind}",
                    root.location,
                    hint="start with `format: 1` and then sections such as `deck:` and `zones:`",
                )
            ]
        )
    return root


def load_plain(text: str, path: str) -> Any:
    """The plain data of a YAML text that is not a ruleset (a scenario file), under a ruleset's bounds on
    aliases, their expansion and nesting. Raises RulesetError with the finding, located."""
    source = SourceText(path, text)
    try:
        check_events(text, source)
        composed = yaml.compose(text, Loader=yaml.SafeLoader)
        if composed is not None:
            check_expansion(composed, source)
            _check_numbers(composed, source, [])
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise RulesetError([yaml_error(error, source)]) from None
    except ValueError:  # an integer of more than 4,300 digits
        raise _file_error(path, "number-too-large", "a number too long to be read", None) from None


def _check_numbers(node: yaml.Node, source: SourceText, path: list[str | int]) -> None:
    """Refuse, at its place, the first integer of a plain file too long for Python to read (more than 4,300
    digits)."""
    if isinstance(node, yaml.ScalarNode):
        digits = sum(char not in "+-_:" for char in node.value)
        if node.tag == "tag:yaml.org,2002:int" and digits > sys.get_int_max_str_digits() > 0:
            location = mark_location(source, node.start_mark, node.end_mark)
            raise RulesetError([Diagnostic("number-too-large", f"a number of {digits:,} digits is too long to be "
                                           "read", location, yaml_path(tuple(path)),
                                           hint="quote it if it is text, not a number")])
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _check_numbers(item, source, [*path, index])
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            _check_numbers(key, source, path)
            _check_numbers(value, source, [*path, key.value if isinstance(key, yaml.ScalarNode) else "?"])


def _file_error(path: str, code: str, message: str, hint: str | None) -> RulesetError:
    return RulesetError([Diagnostic(code, message, hint=hint, path=shorten(path))])


def yaml_error(error: yaml.YAMLError, source: SourceText) -> Diagnostic:
    """Any PyYAML error as a located diagnostic."""
    if isinstance(error, yaml.MarkedYAMLError):
        return _yaml_syntax(error, source)
    if isinstance(error, yaml.reader.ReaderError):
        line, column = _line_column(source, min(error.position, len(source.text)))
        location = Location(source, line, column, line, column + 1)
        return Diagnostic("file-binary", f"character U+{error.character:04X} is not allowed in a YAML file",
                          location, hint="a ruleset is plain UTF-8 text without control characters")
    return Diagnostic("yaml-syntax", f"YAML: {error}", path=source.path)


def _yaml_syntax(error: yaml.MarkedYAMLError, source: SourceText) -> Diagnostic:
    mark = error.problem_mark or error.context_mark
    problem = error.problem or "invalid YAML"
    message = f"YAML syntax: {problem}"
    hint = None
    context = error.context or ""
    if "flow" in context and error.context_mark is not None:
        # An unclosed bracket: point at the bracket, not where the parser gave up.
        opener = source.line(error.context_mark.line + 1)[error.context_mark.column:error.context_mark.column + 1]
        mark = error.context_mark
        message = f"YAML syntax: this `{opener}` is not closed ({problem} at line {error.problem_mark.line + 1})" \
            if error.problem_mark is not None else f"YAML syntax: this `{opener}` is not closed"
        hint = "close it, or quote the value if the bracket is part of an expression"
    elif context and error.context_mark is not None and error.problem_mark is not None:
        message += f" ({context} at line {error.context_mark.line + 1})"
    if "\t" in problem or "\\t" in problem or "tab" in problem:
        hint = "indent with spaces, not tabs"
    elif "mapping values are not allowed" in problem:
        hint = "quote a value that contains ': ' or start an expression with `|`"
    elif problem.startswith("expected <block end>") and mark is not None:
        # (a line indented to fit none of the blocks above it: which block it meant is the writer's to say)
        item = source.line(mark.line + 1)[mark.column:mark.column + 1] == "-"
        hint = ("this `-` item is indented to fit none of the lists above it: line it up with the `-` of the "
                "other items of its list" if item else
                f"line {mark.line + 1} is indented to fit none of the blocks above it: line it up with the other "
                "entries of the block it belongs to")
    location = mark_location(source, mark) if mark is not None else None
    return Diagnostic("yaml-syntax", message, location, hint=hint, path=source.path)


_CONSTRUCTOR = yaml.SafeLoader("")


def _tag_finding(node: yaml.Node, source: SourceText, location: Location, path: tuple[str | int, ...]) -> Diagnostic:
    """A value of a type a ruleset does not take: a tag written (`!!python/object`), or a plain value that YAML
    reads as one (`2001-12-14`, a date), which quoting makes text."""
    tag = node.tag.replace(_STANDARD_TAG_PREFIX, "!!")
    written = source.text[node.start_mark.index:node.start_mark.index + 1] == "!"
    if written or not isinstance(node, yaml.ScalarNode):
        return Diagnostic("yaml-tag", f"YAML tag `{tag}` is not allowed in a ruleset", location, yaml_path(path),
                          hint="rulesets are plain data: remove the `!tag`")
    return Diagnostic("yaml-tag", f"`{node.value}` reads in YAML as a {tag.removeprefix('!!')} (`{tag}`), which a "
                      "ruleset does not take", location, yaml_path(path), hint=f"quote it: '{node.value}'")


def _convert(
    node: yaml.Node, source: SourceText, diagnostics: list[Diagnostic], path: tuple[str | int, ...]
) -> Node:
    location = mark_location(source, node.start_mark, node.end_mark)
    if node.tag not in _ALLOWED_TAGS:
        diagnostics.append(_tag_finding(node, source, location, path))
        return ScalarNode(location, None)
    if isinstance(node, yaml.ScalarNode):
        too_large = check_number(node, location, yaml_path(path))
        if too_large is not None:
            diagnostics.append(too_large)
            return ScalarNode(location, None)
        value = _CONSTRUCTOR.construct_object(node, deep=True)
        if isinstance(value, (bytes, bytearray)) or not isinstance(value, (str, int, float, bool, type(None))):
            value = node.value
        return ScalarNode(location, value, node.style, node.start_mark.index, node.end_mark.index)
    if isinstance(node, yaml.SequenceNode):
        items = [_convert(item, source, diagnostics, (*path, index)) for index, item in enumerate(node.value)]
        return SequenceNode(location, items)
    assert isinstance(node, yaml.MappingNode)
    entries: dict[str, Node] = {}
    key_locations: dict[str, Location] = {}
    for key_node, value_node in node.value:
        key_location = mark_location(source, key_node.start_mark, key_node.end_mark)
        if key_node.tag == _STANDARD_TAG_PREFIX + "merge":
            diagnostics.append(
                Diagnostic("yaml-tag", "YAML merge keys (`<<`) are not supported", key_location, yaml_path(path),
                           hint="use `extends:` to build on another ruleset")
            )
            continue
        if not isinstance(key_node, yaml.ScalarNode):
            diagnostics.append(
                Diagnostic("yaml-syntax", "a mapping key must be a plain name", key_location, yaml_path(path))
            )
            continue
        if key_node.tag not in _ALLOWED_TAGS:  # (a tag on a key: `!!python/object rank: ...`)
            diagnostics.append(_tag_finding(key_node, source, key_location, path))
            continue
        too_large = check_number(key_node, key_location, yaml_path(path))
        if too_large is not None:
            diagnostics.append(too_large)
            continue
        constructed = _CONSTRUCTOR.construct_object(key_node)
        if constructed is None:  # (`~:` or `null:`, which YAML reads as no key at all)
            diagnostics.append(
                Diagnostic("yaml-syntax", f"a mapping key must be a name, not `{key_node.value or '~'}` (null)",
                           key_location, yaml_path(path), hint="write the key's name, or quote it")
            )
            continue
        key = str(constructed)
        if key in entries:
            first = key_locations[key]
            diagnostics.append(
                Diagnostic(
                    "duplicate-key",
                    f"key {key!r} appears twice in one mapping (first at line {first.line})",
                    key_location,
                    yaml_path((*path, key)),
                    hint="YAML keeps only the last one; remove or rename one of them",
                )
            )
            continue
        entries[key] = _convert(value_node, source, diagnostics, (*path, key))
        key_locations[key] = key_location
    return MappingNode(location, entries, key_locations)


# The plain words YAML (1.1, as PyYAML reads it) turns into a truth value or null, lower-cased.
YAML_WORDS = {**dict.fromkeys(("yes", "on", "true"), "true"), **dict.fromkeys(("no", "off", "false"), "false"),
               **dict.fromkeys(("null", "~"), "null")}


def written_word(location: Location | None) -> str | None:
    """The word written at a location (a key, or a plain value) when it is one YAML reads as a truth value or
    null (`off`, `yes`, `null`, ...); None otherwise."""
    if location is None:
        return None
    text = location.source.line(location.line)[location.column - 1:]
    word = re.match(r"[A-Za-z]*~?", text)
    return word[0] if word and word[0].lower() in YAML_WORDS else None
