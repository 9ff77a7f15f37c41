"""Changes to named items: a variant replaces, removes, updates or extends one step, option or legality clause
of its base by its `id:`, or inserts items before or after it, without restating the list that holds it.

Every item of a list (a step, an option, a clause) may carry `id: NAME`; ids are unique in a ruleset. A
variant's top-level `changes:` is a list of operations, applied in order to the merged tree:

    - replace: ID        with: ITEM           the item, replaced whole (it keeps the id)
    - update: ID         with: {KEY: VALUE}   keys of the item, merged into it
    - remove: ID (or a list of ids)           the item, deleted from its list
    - before: ID / after: ID   insert: [ITEMS]   items put into the same list, next to it
    - extend: ID         KEY: [ITEMS]         items appended to the item's list KEY (such as `legal`)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from interpreter.dsl.definitions import did_you_mean
from interpreter.errors import Diagnostic, Location, RulesetError, article
from interpreter.source import MappingNode, Node, ScalarNode, SequenceNode, yaml_path

Path_ = tuple[str | int, ...]
VERBS = ("replace", "update", "remove", "before", "after", "extend")
COMPANIONS = {"replace": ("with",), "update": ("with",), "remove": (), "before": ("insert",),
              "after": ("insert",)}


@dataclass
class Site:
    """Where an item with an id sits: the list that holds it, its index there, and its YAML path."""

    holder: SequenceNode
    index: int
    path: Path_

    @property
    def item(self) -> MappingNode:
        node = self.holder.items[self.index]
        assert isinstance(node, MappingNode)
        return node


@dataclass(frozen=True)
class AppliedChange:
    """One operation a variant applied: its verb, the id it names, and where the variant says it."""

    verb: str
    target: str
    location: Location


def item_id(node: Node) -> str | None:
    """The `id:` of a list item, or None."""
    if isinstance(node, MappingNode):
        value = node.entries.get("id")
        if isinstance(value, ScalarNode) and isinstance(value.value, str):
            return value.value
    return None


def find_ids(root: Node, diagnostics: list[Diagnostic] | None = None) -> dict[str, Site]:
    """Every item with an id in the tree; a second item with the same id is reported (`duplicate-id`)."""
    sites: dict[str, Site] = {}

    def visit(node: Node, path: Path_) -> None:
        if isinstance(node, MappingNode):
            for key, value in node.entries.items():
                visit(value, (*path, key))
        elif isinstance(node, SequenceNode):
            for index, item in enumerate(node.items):
                name = item_id(item)
                if name is not None:
                    if name in sites and diagnostics is not None:
                        diagnostics.append(_duplicate(name, sites[name], item, (*path, index, "id")))
                    sites.setdefault(name, Site(node, index, (*path, index)))
                visit(item, (*path, index))

    visit(root, ())
    return sites


def _duplicate(name: str, first: Site, item: Node, path: Path_) -> Diagnostic:
    assert isinstance(item, MappingNode)
    where = first.item.entries["id"].location
    return Diagnostic("duplicate-id", f"a second item has the id `{name}`", item.entries["id"].location,
                      yaml_path(path), hint=f"ids are unique in a ruleset; the first is at {where.path}:{where.line}")


def check_ids(root: MappingNode) -> None:
    """Raise RulesetError when two items of the tree have the same id."""
    diagnostics: list[Diagnostic] = []
    find_ids(root, diagnostics)
    if diagnostics:
        raise RulesetError(diagnostics)


def apply_changes(root: MappingNode, changes: Node, diagnostics: list[Diagnostic]) -> list[AppliedChange]:
    """Apply a variant's `changes:` to the merged tree in place; report each bad operation."""
    if not isinstance(changes, SequenceNode):
        diagnostics.append(Diagnostic("schema", "`changes` must be a list of operations", changes.location,
                                      "changes", hint="e.g. `changes: [{remove: BR-15}]`"))
        return []
    applied: list[AppliedChange] = []
    for index, change in enumerate(changes.items):
        found = _apply_one(root, change, ("changes", index), diagnostics)
        if found is not None:
            applied.append(found)
    return applied


def _apply_one(root: MappingNode, change: Node, path: Path_, diagnostics: list[Diagnostic]) -> AppliedChange | None:
    verb = _verb(change, path, diagnostics)
    if verb is None:
        return None
    assert isinstance(change, MappingNode)
    operation = _OPERATIONS[verb]
    targets = _targets(change.entries[verb])
    if targets is None:
        diagnostics.append(Diagnostic("schema", f"`{verb}` names an item by its id", change.entries[verb].location,
                                      yaml_path((*path, verb)), hint=f"e.g. `{verb}: BR-15`"))
        return None
    for target_node, target, target_path in _each_target(change.entries[verb], targets, (*path, verb)):
        sites = find_ids(root)
        if target not in sites:
            diagnostics.append(_unknown_id(target, target_node, target_path, sites))
            continue
        problem = operation(sites[target], change, target)
        if problem:
            diagnostics.append(Diagnostic("change-invalid", problem, target_node.location, yaml_path(target_path)))
    return AppliedChange(verb, ", ".join(targets), change.entries[verb].location)


def _verb(change: Node, path: Path_, diagnostics: list[Diagnostic]) -> str | None:
    """The operation of one change, after checking its keys; None (reported) when they are wrong."""
    if not isinstance(change, MappingNode):
        diagnostics.append(Diagnostic("schema", "a change is a mapping such as `{remove: BR-15}`",
                                      change.location, yaml_path(path)))
        return None
    verbs = [key for key in change.entries if key in VERBS]
    if len(verbs) != 1:
        hint = did_you_mean(next(iter(change.entries), ""), list(VERBS)) or "verbs: " + ", ".join(VERBS)
        diagnostics.append(Diagnostic("schema", f"a change needs exactly one of {', '.join(VERBS)}",
                                      change.location, yaml_path(path), hint=hint))
        return None
    verb = verbs[0]
    allowed = COMPANIONS.get(verb)
    for key in change.entries:
        if key == verb:
            continue
        if allowed is not None and key not in allowed:
            diagnostics.append(Diagnostic(
                "schema", f"`{key}` is not part of {article(verb)} `{verb}` change", change.key_locations[key],
                yaml_path((*path, key)), hint=did_you_mean(key, list(allowed)) or _expected(verb)))
            return None
    missing = [key for key in allowed or () if key not in change.entries]
    if missing or (verb == "extend" and len(change.entries) == 1):
        diagnostics.append(Diagnostic("schema", f"a `{verb}` change needs {_expected(verb)}",
                                      change.location, yaml_path(path)))
        return None
    return verb


def _expected(verb: str) -> str:
    companions = COMPANIONS.get(verb)
    if companions is None:
        return "a list to append to, such as `legal: [...]`"
    if verb == "update":  # (the usual slip: a key of the item written beside `update`, not under `with`)
        return "an `update` takes `with`, the item's keys to change: `with: {reason: ...}`"
    return " and ".join(f"`{key}`" for key in companions) or "nothing else"


def _targets(node: Node) -> list[str] | None:
    if isinstance(node, ScalarNode) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, SequenceNode) and all(isinstance(i, ScalarNode) and isinstance(i.value, str)
                                              for i in node.items):
        return [str(i.value) for i in node.items]  # type: ignore[attr-defined]
    return None


def _each_target(node: Node, targets: list[str], path: Path_) -> list[tuple[Node, str, Path_]]:
    if isinstance(node, SequenceNode):
        pairs = zip(node.items, targets, strict=True)
        return [(item, name, (*path, index)) for index, (item, name) in enumerate(pairs)]
    return [(node, targets[0], path)]


def _unknown_id(target: str, node: Node, path: Path_, sites: dict[str, Site]) -> Diagnostic:
    names = sorted(sites)
    hint = did_you_mean(target, names) or ("the ids are: " + ", ".join(names) if names else
                                           "the base names no item: give the item an `id:` in the base")
    return Diagnostic("unknown-id", f"no step, option or clause has the id `{target}`", node.location,
                      yaml_path(path), hint=hint)


def _replace(site: Site, change: MappingNode, target: str) -> str | None:
    new = change.entries["with"]
    if not isinstance(new, MappingNode):
        return "`with` must be a mapping: the item that takes the place of this one"
    if "id" not in new.entries:
        identity = ScalarNode(change.entries["replace"].location, target)
        new = MappingNode(new.location, {"id": identity, **new.entries},
                          {"id": identity.location, **new.key_locations})
    site.holder.items[site.index] = new
    return None


def _update(site: Site, change: MappingNode, target: str) -> str | None:
    new = change.entries["with"]
    if not isinstance(new, MappingNode):
        return "`with` must be a mapping of the keys to change"
    item = site.item
    site.holder.items[site.index] = MappingNode(item.location, {**item.entries, **new.entries},
                                                {**item.key_locations, **new.key_locations})
    return None


def _remove(site: Site, change: MappingNode, target: str) -> str | None:
    del site.holder.items[site.index]
    return None


def _insert(offset: int) -> Callable[[Site, MappingNode, str], str | None]:
    def insert(site: Site, change: MappingNode, target: str) -> str | None:
        items = change.entries["insert"]
        if not isinstance(items, SequenceNode):
            return "`insert` must be a list of items"
        site.holder.items[site.index + offset:site.index + offset] = list(items.items)
        return None
    return insert


def _extend(site: Site, change: MappingNode, target: str) -> str | None:
    item = site.item
    entries = dict(item.entries)
    locations = dict(item.key_locations)
    for key, value in change.entries.items():
        if key == "extend":
            continue
        existing = entries.get(key)
        if not isinstance(value, SequenceNode) or (existing is not None and not isinstance(existing, SequenceNode)):
            return f"`{key}` of `{target}` is not a list, so it cannot be extended"
        before = existing.items if isinstance(existing, SequenceNode) else []
        entries[key] = SequenceNode(value.location, [*before, *value.items])
        locations.setdefault(key, change.key_locations[key])
    site.holder.items[site.index] = MappingNode(item.location, entries, locations)
    return None


_OPERATIONS: dict[str, Callable[[Site, MappingNode, str], str | None]] = {
    "replace": _replace, "update": _update, "remove": _remove, "before": _insert(0), "after": _insert(1),
    "extend": _extend,
}


def against_changes(diagnostics: list[Diagnostic], applied: list[AppliedChange]) -> list[Diagnostic]:
    """The findings of a changed ruleset; one that points into another file than the changes' own (the base)
    also names the changes that left the base so, so it is reported against both files."""
    return [_with_changes(diagnostic, applied) for diagnostic in diagnostics]


def _with_changes(diagnostic: Diagnostic, applied: list[AppliedChange]) -> Diagnostic:
    where = diagnostic.location
    elsewhere = [change for change in applied if where is None or change.location.path != where.path]
    if not elsewhere or diagnostic.severity != "error":
        return diagnostic
    # (those that name what the finding names first: the parameter given anew, the definition removed)
    said = diagnostic.message + "\n" + (where.source.line(where.line) if where is not None else "")
    named = [change for change in elsewhere if re.search(rf"\b{re.escape(change.target.rsplit('.', 1)[-1])}\b",
                                                         said)]
    cited = "; ".join(f"`{c.verb}: {c.target}` at {c.location.path}:{c.location.line}"
                      for c in (named or elsewhere)[:3])
    note = f"the base is checked after the changes of a variant: {cited}"
    return replace(diagnostic, hint=f"{diagnostic.hint}; {note}" if diagnostic.hint else note)
