"""Bounds on what a YAML file can make the loader do, checked before the work is done: aliases and their
expansion, nesting depth, and the size of numbers."""

from __future__ import annotations

from typing import Any

import yaml

from interpreter.errors import Diagnostic, Location, RulesetError, SourceText

MAX_ALIASES = 100
MAX_EXPANDED_NODES = 100_000
MAX_VALUES = 50_000  # in the file as written; the largest shipped file has 5,500; reading one costs some 40 µs
MAX_NESTING = 50  # lists and mappings inside each other; the shipped rulesets need 20
MAX_NUMBER_DIGITS = 18  # beyond any count, score or limit a card game has

_INT_TAG = "tag:yaml.org,2002:int"
_OPENING = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSING = (yaml.SequenceEndEvent, yaml.MappingEndEvent)
_VALUES = (*_OPENING, yaml.ScalarEvent, yaml.AliasEvent)


def mark_location(source: SourceText, start: Any, end: Any = None) -> Location:
    """The span between two PyYAML marks (0-based) as a 1-based Location."""
    end = end or start
    if end.line == start.line and end.column <= start.column:
        return Location(source, start.line + 1, start.column + 1, start.line + 1, start.column + 2)
    return Location(source, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def check_events(text: str, source: SourceText, loader: Any = yaml.SafeLoader) -> None:
    """Count values, aliases and nesting on the event stream, before anything is composed or expanded
    (composing is recursive and slow, and the scanner slows down with every open bracket). YAML syntax errors
    pass through."""
    aliases = depth = values = 0
    for event in yaml.parse(text, Loader=loader):
        values += isinstance(event, _VALUES)
        if values > MAX_VALUES:
            raise _refused("file-too-large", f"more than {MAX_VALUES:,} values (lists, mappings and "
                           "scalars) in one file", mark_location(source, event.start_mark),
                           "a ruleset needs far fewer; split it with `extends:`, or remove embedded data")
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise _refused("alias-limit", f"more than {MAX_ALIASES} YAML aliases (*name); refused before "
                               "expanding", mark_location(source, event.start_mark, event.end_mark),
                               "use `extends:` or `define:` to share parts of a ruleset")
        elif isinstance(event, _OPENING):
            depth += 1
            if depth > MAX_NESTING:
                raise too_deep(mark_location(source, event.start_mark))
        elif isinstance(event, _CLOSING):
            depth -= 1


def too_deep(location: Location) -> RulesetError:
    return _refused("nesting-limit", f"lists and mappings are nested more than {MAX_NESTING} deep here",
                    location, "a ruleset needs far less; look for brackets that are never closed, or flatten it")


def check_expansion(root: yaml.Node, source: SourceText) -> None:
    """Refuse a tree whose aliases expand it beyond MAX_EXPANDED_NODES nodes or MAX_NESTING levels. Aliases
    share nodes, so the composed graph is small even when its expansion is huge: sizes and depths are counted
    on the graph, each node once."""
    measured: dict[int, tuple[int, int]] = {}

    def measure(node: yaml.Node) -> tuple[int, int]:
        known = measured.get(id(node))
        if known is not None:
            return known
        measured[id(node)] = (1, 1)  # a recursive alias counts once; yaml cannot build one without a tag anyway
        total, deepest = 1, 0
        for child in _children(node):
            size, depth = measure(child)
            total, deepest = total + size, max(deepest, depth)
        result = (min(total, MAX_EXPANDED_NODES + 1), min(deepest + 1, MAX_NESTING + 1))
        measured[id(node)] = result
        return result

    size, depth = measure(root)
    if depth > MAX_NESTING:
        culprit = _culprit(root, lambda node: measure(node)[1] > MAX_NESTING)
        raise too_deep(mark_location(source, culprit.start_mark))
    if size > MAX_EXPANDED_NODES:
        # Point at the smallest node that is too big by itself: where the expansion blows up.
        culprit = _culprit(root, lambda node: measure(node)[0] > MAX_EXPANDED_NODES)
        raise _refused("alias-limit", f"aliases expand this to more than {MAX_EXPANDED_NODES:,} nodes; refused "
                       "before expanding", mark_location(source, culprit.start_mark, culprit.end_mark),
                       "this looks like an alias bomb; a ruleset has no need of nested aliases")


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _culprit(root: yaml.Node, too_big: Any) -> yaml.Node:
    """The deepest node, on a path of nodes that are too big, that is too big by itself."""
    culprit = root
    while True:
        bigger = next((child for child in _children(culprit) if too_big(child)), None)
        if bigger is None:
            return culprit
        culprit = bigger


def check_number(node: yaml.ScalarNode, location: Location, path: str) -> Diagnostic | None:
    """A finding for an integer too long to be a count or a score (Python refuses to read one of more than
    4,300 digits at all)."""
    digits = sum(char not in "+-_:" for char in node.value)
    if node.tag != _INT_TAG or digits <= MAX_NUMBER_DIGITS:
        return None
    return Diagnostic("number-too-large", f"a number of {digits:,} digits; a ruleset's numbers have at most "
                      f"{MAX_NUMBER_DIGITS}", location, path, hint="quote it if it is text, not a number")


def _refused(code: str, message: str, location: Location, hint: str) -> RulesetError:
    return RulesetError([Diagnostic(code, message, location, hint=hint)])
