"""Error types, source locations and the rendering of located diagnostics with a caret excerpt."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, eq=False)
class SourceText:
    """The text of one file, kept so that any later stage can quote the offending line."""

    path: str
    text: str
    lines: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", tuple(self.text.splitlines()))

    def line(self, number: int) -> str:
        """The 1-based line `number`, or '' past the end."""
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""


@dataclass(frozen=True)
class Location:
    """A span in a file: 1-based line and column; the end is exclusive and may be on another line."""

    source: SourceText
    line: int
    column: int
    end_line: int
    end_column: int

    @property
    def path(self) -> str:
        return self.source.path


@dataclass(frozen=True)
class Diagnostic:
    """One finding about a ruleset: an error or a warning, with where it is and how to fix it."""

    code: str
    message: str
    location: Location | None = None
    yaml_path: str = ""
    hint: str | None = None
    severity: Severity = "error"
    path: str | None = None  # for findings about a whole file that has no usable position
    notes: tuple[str, ...] = ()  # more about the place (the calls that spliced a procedure's step in)

    def sort_key(self) -> tuple[str, int, int, str]:
        where = self.location
        return (
            where.path if where else (self.path or ""),
            where.line if where else 0,
            where.column if where else 0,
            self.code,
        )

    def render(self) -> str:
        """`PATH:LINE:COL: severity[code]: message (at yaml.path)`, a caret excerpt, then the hint."""
        where = self.location
        # A finding about a whole file (empty, binary, missing) is placed at 1:1, keeping the format uniform.
        path = shorten(where.path if where is not None else self.path or "<input>")
        head = f"{path}:{where.line}:{where.column}" if where is not None else f"{path}:1:1"
        text = f"{head}: {self.severity}[{self.code}]: {shorten(self.message, MAX_MESSAGE)}"
        if self.yaml_path:
            text += f" (at {shorten(self.yaml_path)})"
        lines = [text]
        if where is not None:
            lines.extend(caret_excerpt(where))
        if self.hint:
            lines.append(f"  hint: {shorten(self.hint, MAX_MESSAGE)}")
        lines.extend(f"  note: {shorten(note, MAX_MESSAGE)}" for note in self.notes)
        return "\n".join(lines)


MAX_MESSAGE = 300  # characters of a message or hint, which may quote the ruleset
MAX_EXCERPT = 150  # characters of a source line shown; a longer line is cut around the span
MAX_FINDINGS_OF_A_KIND = 20  # findings of one code in one file; the rest are counted


def article(word: str) -> str:
    """`an` before a word that starts with a vowel (`an update`, `an int`), else `a`."""
    return "an" if word[:1] in ("a", "e", "i", "o", "u") else "a"


def shorten(text: str, limit: int = 120) -> str:
    """The text, cut with `...` when it is longer than `limit` characters (a path, a name from the ruleset)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def caret_excerpt(where: Location) -> list[str]:
    """The offending source line with carets under the span (clipped to that line); a long line is cut to
    MAX_EXCERPT characters around the start of the span."""
    source_line = where.source.line(where.line).rstrip()
    if not source_line.strip():
        return []
    number = str(where.line)
    gutter = " " * len(number)
    start = max(where.column - 1, 0)
    if where.end_line == where.line and where.end_column > where.column:
        width = where.end_column - where.column
    else:  # (a span that goes on past this line: to the line's end, less a comment there)
        width = len(_without_comment(source_line)) - start
    width = max(1, min(width, max(len(source_line) - start, 1)))
    shown, start, width = _window(source_line, start, width)
    return [
        f" {number} | {shown}",
        f" {gutter} | {' ' * start}{'^' * width}",
    ]


def _without_comment(line: str) -> str:
    """A YAML line without its comment (`# ...` after a space, outside quotes), and the spaces before it."""
    quote = ""
    escaped = False
    for index, character in enumerate(line):
        if quote:  # (inside quotes: a double-quoted text escapes with a backslash)
            if escaped:
                escaped = False
            elif character == "\\" and quote == '"':
                escaped = True
            elif character == quote:
                quote = ""
        elif character in "\"'" and (index == 0 or line[index - 1] in " \t:[{,-"):
            quote = character  # (a quote opens only where a value may start: `dealer's` is plain text)
        elif character == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index].rstrip()
    return line


def _window(line: str, start: int, width: int) -> tuple[str, int, int]:
    """At most MAX_EXCERPT characters of a line around a span (`...` marks a cut), and the span's place in them."""
    if len(line) <= MAX_EXCERPT:
        return line, start, width
    first = min(max(start - MAX_EXCERPT // 3, 0), len(line) - MAX_EXCERPT)
    if first < 6:
        first = 0
    last = min(first + MAX_EXCERPT, len(line))
    head = "..." if first else ""
    tail = "..." if last < len(line) else ""
    start = len(head) + min(start - first, last - first)
    width = max(1, min(width, len(head) + last - first - start))
    return head + line[first:last] + tail, start, width


def render_findings(diagnostics: list[Diagnostic]) -> str:
    """Every finding rendered, but at most MAX_FINDINGS_OF_A_KIND of one code in one file: the rest are
    counted in a line `... and N more error[code] in PATH`."""
    shown: list[str] = []
    counts: dict[tuple[str, str, str], int] = {}
    for diagnostic in diagnostics:
        kind = (diagnostic.location.path if diagnostic.location else diagnostic.path or "", diagnostic.severity,
                diagnostic.code)
        counts[kind] = counts.get(kind, 0) + 1
        if counts[kind] <= MAX_FINDINGS_OF_A_KIND:
            shown.append(diagnostic.render())
    for (path, severity, code), count in counts.items():
        if count > MAX_FINDINGS_OF_A_KIND:
            shown.append(f"... and {count - MAX_FINDINGS_OF_A_KIND:,} more {severity}[{code}] in {shorten(path)}")
    return "\n".join(shown)


class RuledeckError(Exception):
    """The base of every error this package raises on purpose; anything else is a bug."""


class RulesetError(RuledeckError):
    """A ruleset (or a variant, or a parameter) that cannot be loaded, with every finding."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        super().__init__(self.render())

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def render(self) -> str:
        return render_findings(self.diagnostics)


class ExpressionError(RuledeckError):
    """A finding in one expression, located by offset inside the expression text (0-based, end exclusive)."""

    def __init__(self, code: str, message: str, start: int, end: int, *, hint: str | None = None) -> None:
        self.code = code
        self.message = message
        self.start = start
        self.end = end
        self.hint = hint
        self.from_definition: str | None = None  # the definition whose value is of the wrong type here (semantics)
        super().__init__(message)


class ParameterError(RuledeckError):
    """A parameter value given through the API or `--set` that the ruleset does not accept."""


class EvaluationError(RuledeckError):
    """An expression that failed while running (an empty `max`, an index out of range)."""
