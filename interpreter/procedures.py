"""Named lists of steps: a ruleset's `procedures:` section, and `- call: name` steps that stand for a
procedure's steps, spliced in place before anything else checks the ruleset. Every spliced node keeps the file
and line it was written at, so a finding inside a procedure points at the procedure; the calls it was spliced
by are kept too (`Call`), so the finding also names the call that brought it there."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from interpreter.errors import Diagnostic, Location
from interpreter.source import MappingNode, Node, ScalarNode, SequenceNode, find, parse_yaml_path, yaml_path

Path = tuple[str | int, ...]


class Call(NamedTuple):
    """A `- call:` step that spliced a procedure's steps in: the procedure, where the call is written (its YAML
    path, inside another procedure for a call from one) and its place in the file."""

    procedure: str
    where: str
    location: Location

    def describe(self) -> str:
        where = self.location
        return f"`{self.procedure}`, called at {self.where} ({where.path}:{where.line}:{where.column})"


Calls = dict[Path, tuple[Call, ...]]  # a spliced step's path in the spliced tree -> the calls that put it there


def calls_to(calls: Mapping[Path, tuple[Call, ...]], where: str | Path) -> tuple[Call, ...]:
    """The calls that brought the place `where` (a path in the spliced tree) into the hand, the outermost
    first; none for a place written in the hand itself."""
    if not calls or not where:
        return ()
    parts = parse_yaml_path(where) if isinstance(where, str) else where
    chain: list[Call] = []
    for end in range(1, len(parts) + 1):
        chain.extend(calls.get(parts[:end], ()))
    return tuple(chain)


def chain_note(chain: tuple[Call, ...]) -> str:
    """The calls, innermost first, as a traceback's last lines: "in procedure `tally`, called at
    hand.phases[0].steps[3] (file:12:9)"."""
    return "in procedure " + "; in procedure ".join(call.describe() for call in reversed(chain))


def calls_note(calls: Mapping[Path, tuple[Call, ...]], where: str) -> str | None:
    """The note naming the calls that brought the place `where` into the hand (`chain_note`); None for a place
    written in the hand itself."""
    chain = calls_to(calls, where)
    return chain_note(chain) if chain else None


def every_call(calls: Mapping[Path, tuple[Call, ...]]) -> dict[str, set[tuple[Call, ...]]]:
    """Each procedure spliced into the hand -> every chain of calls that brings its steps there."""
    found: dict[str, set[tuple[Call, ...]]] = {}
    for where in calls:
        chain = calls_to(calls, where)
        found.setdefault(chain[-1].procedure, set()).add(chain)
    return found


@dataclass
class _Splicer:
    procedures: dict[str, Node]
    written: Mapping[int, Path]  # every node of the file, by identity, with the path it is written at
    diagnostics: list[Diagnostic] = field(default_factory=list)
    calls: dict[str, set[str]] = field(default_factory=dict)  # who calls whom ("" for the hand itself)
    # The calls that put each spliced item in its list (the list's identity, the item's place): the call that
    # spliced it, then those that spliced it into that procedure's steps.
    sites: dict[tuple[int, int], tuple[Call, ...]] = field(default_factory=dict)
    kept: list[Node] = field(default_factory=list)  # (the lists `sites` names by identity, alive while it is)

    def expand(self, node: Node, path: Path, calling: list[str]) -> None:
        if isinstance(node, MappingNode):
            for key, value in node.entries.items():
                self.expand(value, (*path, key), calling)
        elif isinstance(node, SequenceNode):
            items: list[Node] = []
            for index, item in enumerate(node.items):
                name = _called(item)
                if name is None:
                    self.expand(item, (*path, index), calling)
                    items.append(item)
                    continue
                self.calls.setdefault(calling[-1] if calling else "", set()).add(name)
                assert isinstance(item, MappingNode)
                call = Call(name, yaml_path(self.written.get(id(item), (*path, index))),
                            item.entries["call"].location)
                for inner in self.body(name, item, (*path, index), calling):
                    self.sites[id(node), len(items)] = (call, *inner[1])
                    items.append(inner[0])
            node.items[:] = items
            self.kept.append(node)

    def body(self, name: str, item: MappingNode, path: Path,
             calling: list[str]) -> list[tuple[Node, tuple[Call, ...]]]:
        """The steps a call splices in, each with the calls inside the procedure that spliced it there."""
        where = item.entries["call"].location
        if len(item.entries) > 1:
            extra = ", ".join(key for key in item.entries if key != "call")
            self.diagnostics.append(Diagnostic("schema", f"a `call` step takes nothing else; found {extra}", where,
                                               yaml_path(path)))
        found = self.procedures.get(name)
        if found is None:
            close = difflib.get_close_matches(name, list(self.procedures), n=1)
            hint = f"did you mean `{close[0]}`?" if close else (
                "procedures: " + ", ".join(self.procedures) if self.procedures else "declare it under `procedures:`")
            self.diagnostics.append(Diagnostic("unknown-procedure", f"unknown procedure `{name}`", where,
                                               yaml_path(path), hint=hint))
            return []
        if name in calling:
            chain = " -> ".join([*calling[calling.index(name):], name])
            self.diagnostics.append(Diagnostic("recursion", f"procedures may not call themselves: {chain}", where,
                                               yaml_path(path), hint="a procedure is spliced in place; it cannot loop"))
            return []
        if not isinstance(found, SequenceNode):
            return []  # the schema reports a procedure that is not a list of steps
        copy = SequenceNode(found.location, list(found.items))
        inner = [self.sites.get((id(found), place), ()) for place in range(len(found.items))]
        self.expand(copy, path, [*calling, name])  # (no call left in a procedure spliced already)
        spliced_now = [self.sites.get((id(copy), place), ()) for place in range(len(copy.items))]
        if any(spliced_now) or len(spliced_now) != len(inner):  # (one declared later: its calls spliced now)
            inner = spliced_now
        return list(zip(copy.items, inner, strict=True))

    def spliced_calls(self, node: Node, path: Path, found: Calls) -> None:
        """The calls that put each spliced step where it is in the spliced tree, by its path there."""
        if isinstance(node, MappingNode):
            for key, value in node.entries.items():
                self.spliced_calls(value, (*path, key), found)
        elif isinstance(node, SequenceNode):
            for place, item in enumerate(node.items):
                chain = self.sites.get((id(node), place))
                if chain:
                    found[(*path, place)] = chain
                self.spliced_calls(item, (*path, place), found)

    def reached(self) -> set[str]:
        """The procedures the hand calls, directly or through others."""
        seen: set[str] = set()
        pending = list(self.calls.get("", ()))
        while pending:
            name = pending.pop()
            if name not in seen:
                seen.add(name)
                pending.extend(self.calls.get(name, ()))
        return seen


def expand_procedures(root: MappingNode, written: Mapping[int, Path]) -> tuple[list[Diagnostic], Calls]:
    """Splice every `call` step (in `hand`, and in procedures) into the steps it names (`written`: the nodes'
    paths before, from `procedure_nodes`); the findings, and the calls each spliced step of the hand came by."""
    section = root.entries.get("procedures")
    procedures = dict(section.entries) if isinstance(section, MappingNode) else {}
    splicer = _Splicer(procedures, written)
    for name, body in procedures.items():  # procedures calling procedures, first
        splicer.expand(body, ("procedures", name), [name])
    hand = root.entries.get("hand")
    if isinstance(hand, MappingNode):
        splicer.expand(hand, ("hand",), [])
    reached = splicer.reached()
    for name in procedures:
        if name not in reached and isinstance(section, MappingNode):
            splicer.diagnostics.append(Diagnostic(
                "unused-procedure", f"procedure `{name}` is never called", section.key_locations[name],
                f"procedures.{name}", hint=f"call it with `- call: {name}`, or remove it", severity="warning"))
    unique: dict[tuple[object, ...], Diagnostic] = {}
    for diagnostic in splicer.diagnostics:
        unique.setdefault((diagnostic.code, diagnostic.sort_key()), diagnostic)
    calls: Calls = {}
    if isinstance(hand, MappingNode) and splicer.sites:
        splicer.spliced_calls(hand, ("hand",), calls)
    return list(unique.values()), calls


def _called(item: Node) -> str | None:
    if isinstance(item, MappingNode) and "call" in item.entries:
        value = item.entries["call"]
        return str(value.value) if isinstance(value, ScalarNode) else ""
    return None


def procedure_nodes(root: MappingNode) -> dict[int, Path]:
    """Every node of the file, by identity, with the path it is written at. Taken before the calls are spliced:
    a spliced step is the procedure's own node, and the steps after a call move up in their list, so what is
    found in the spliced tree is named where it is written (`written_at`)."""
    index: dict[int, Path] = {}

    def walk(node: Node, path: Path) -> None:
        index.setdefault(id(node), path)  # (a node written once and aliased keeps its first place)
        if isinstance(node, MappingNode):
            for key, value in node.entries.items():
                walk(value, (*path, key))
        elif isinstance(node, SequenceNode):
            for number, item in enumerate(node.items):
                walk(item, (*path, number))

    if isinstance(root.entries.get("procedures"), MappingNode):  # nothing moves in a file without procedures
        walk(root, ())
    return index


def written_at(root: MappingNode, where: str, index: Mapping[int, Path]) -> str:
    """The YAML path where the place `where` (a path in the hand, procedures spliced in) is written: inside the
    procedure it comes from (`procedures.turn[1].options[0]`), or at its place before the splicing."""
    if not index or not where:
        return where
    cut = min((where.find(mark) for mark in "#{" if mark in where), default=len(where))
    parts = parse_yaml_path(where)
    node: Node | None = root
    written: str | None = None
    for number, part in enumerate(parts):
        node = find(node, (part,)) if node is not None else None
        if node is None:
            break
        inside = index.get(id(node))
        if inside is not None:  # the deepest node known wins
            written = yaml_path((*inside, *parts[number + 1:]))
    return written + where[cut:] if written is not None else where
