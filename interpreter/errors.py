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
        head = f"{where.path}:{where.line}:{where.column}" if where is not None else f"{self.path or '<input>'}:1:1"
        text = f"{head}: {self.severity}[{self.code}]: {self.message}"
        if self.yaml_path:
            text += f" (at {self.yaml_path})"
        lines = [text]
        if where is not None:
            lines.extend(caret_excerpt(where))
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)


def caret_excerpt(where: Location) -> list[str]:
    """The offending source line with carets under the span (clipped to that line)."""
    source_line = where.source.line(where.line)
    if not source_line.strip():
        return []
    number = str(where.line)
    gutter = " " * len(number)
    start = max(where.column - 1, 0)
    if where.end_line == where.line and where.end_column > where.column:
        width = where.end_column - where.column
    else:
        width = len(source_line.rstrip()) - start
    width = max(1, min(width, max(len(source_line) - start, 1)))
    return [
        f" {number} | {source_line.rstrip()}",
        f" {gutter} | {' ' * start}{'^' * width}",
    ]


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
        return "\n".join(d.render() for d in self.diagnostics)


class ExpressionError(RuledeckError):
    """A finding in one expression, located by offset inside the expression text (0-based, end exclusive)."""

    def __init__(self, code: str, message: str, start: int, end: int, *, hint: str | None = None) -> None:
        self.code = code
        self.message = message
        self.start = start
        self.end = end
        self.hint = hint
        super().__init__(message)


class ParameterError(RuledeckError):
    """A parameter value given through the API or `--set` that the ruleset does not accept."""


class EvaluationError(RuledeckError):
    """An expression that failed while running (an empty `max`, an index out of range)."""
