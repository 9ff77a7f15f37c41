"""Variants: `extends:` chains merged before validation, with each node keeping the file and line it came from.

Merge rules (DESIGN.md): mappings merge key by key (a key `name(args)` matches any key with the same `name`);
lists whose items all have a `name:` merge by name, in the parent's order with new items appended, and an item
`{name: x, remove: true}` deletes item x; any other list, and any scalar, is replaced whole.
"""

from __future__ import annotations

import os
from pathlib import Path

from interpreter.bundled import close_bundled, extended_file
from interpreter.changes import AppliedChange, apply_changes, check_ids
from interpreter.errors import Diagnostic, RulesetError, shorten
from interpreter.source import MappingNode, Node, ScalarNode, SequenceNode, read_file, scalar, yaml_path

MAX_EXTENDS_DEPTH = 16


def load_merged(path: str | Path) -> MappingNode:
    """Read a ruleset file and everything it extends, merged into one located tree."""
    return load_with_changes(path)[0]


def load_with_changes(path: str | Path) -> tuple[MappingNode, list[AppliedChange]]:
    """The merged tree, and the `changes:` to named items that the files of the chain applied (changes.py)."""
    applied: list[AppliedChange] = []
    root = _load(Path(path), [], str(path), applied)
    check_ids(root)
    return root, applied


def _load(path: Path, chain: list[Path], shown: str, applied: list[AppliedChange]) -> MappingNode:
    root = read_file(shown)  # first: a path that names no file is refused here
    resolved = path.resolve()
    extends = root.entries.get("extends")
    if extends is None:
        for key in ("remove", "changes"):
            if key in root.entries:
                what, fix = ("deletes keys of", "delete the keys") if key == "remove" else \
                    ("changes named items of", "change the items")
                raise RulesetError([Diagnostic(
                    "extends-remove", f"`{key}` {what} a base ruleset, but this file extends none",
                    root.entries[key].location, key, hint=f"add `extends:`, or {fix} themselves")])
        return root
    if not isinstance(extends, ScalarNode) or not isinstance(extends.value, str) or not extends.value:
        raise RulesetError([Diagnostic("schema", "`extends` must be a relative path to a ruleset file",
                                       extends.location, "extends")])
    parent_path = extended_file(path.parent, extends.value)
    parent_shown = _shown_path(Path(shown).parent / extends.value) if parent_path == path.parent / extends.value \
        else str(parent_path)
    parent_resolved = _resolved_file(parent_path, extends)
    here = [*chain, resolved]
    if parent_resolved in here:
        cycle = [p.name for p in here[here.index(parent_resolved):]] + [parent_resolved.name]
        raise RulesetError([Diagnostic(
            "extends-cycle", "`extends` makes a cycle: " + " -> ".join(cycle), extends.location, "extends",
            hint="a variant extends its base game; the base must not extend the variant")])
    if len(here) >= MAX_EXTENDS_DEPTH:
        raise RulesetError([Diagnostic("extends-cycle", f"`extends` chain is deeper than {MAX_EXTENDS_DEPTH}",
                                       extends.location, "extends")])
    try:
        parent = _load(parent_path, here, parent_shown, applied)
    except RulesetError as error:
        if any(d.code == "extends-cycle" for d in error.diagnostics):
            raise
        # Say which variant led to the broken base, then the base's own errors.
        raise RulesetError([
            Diagnostic("extends-invalid", f"the ruleset this file extends ({extends.value}) has errors",
                       extends.location, "extends", hint=f"fix the errors of {extends.value} listed here"),
            *error.diagnostics,
        ]) from None
    diagnostics: list[Diagnostic] = []
    own = ("extends", "remove", "changes")
    child = MappingNode(root.location, {k: v for k, v in root.entries.items() if k not in own},
                        {k: v for k, v in root.key_locations.items() if k not in own})
    merged = merge(parent, child, (), diagnostics)
    assert isinstance(merged, MappingNode)
    _keep_optional(parent, child, merged)
    given = child.entries.get("params")
    if isinstance(given, MappingNode):  # (a parameter the base has, declared anew: cited by a finding in the base)
        base_params = parent.entries.get("params")
        applied.extend(AppliedChange("params", name, given.key_locations[name]) for name in given.entries
                       if isinstance(base_params, MappingNode) and name in base_params.entries)
    removals = root.entries.get("remove")
    if removals is not None and not isinstance(removals, SequenceNode):  # (`remove: define.x`, `remove: 5`)
        diagnostics.append(Diagnostic(
            "extends-remove", "`remove` is a list of the dotted paths of the base's keys to remove",
            removals.location, "remove", hint="write `remove: [define.name, params.name]`"))
    elif removals is not None:
        for index, item in enumerate(removals.items):
            if isinstance(item, ScalarNode) and isinstance(item.value, str) and item.value:
                _remove_key(merged, item.value, item, index, diagnostics)
                applied.append(AppliedChange("remove", item.value, item.location))
            else:
                diagnostics.append(Diagnostic(
                    "extends-remove", f"`remove` lists dotted paths of the base's keys, not {_shown_item(item)}",
                    item.location, f"remove[{index}]", hint="write a key's path, such as `define.name`"))
    if "changes" in root.entries:
        applied.extend(apply_changes(merged, root.entries["changes"], diagnostics))
    if diagnostics:
        raise RulesetError(diagnostics)
    return merged


def _shown_item(node: Node) -> str:
    """An item of `remove` that is no path, as a message names it."""
    if isinstance(node, ScalarNode):
        return "an empty text" if node.value == "" else "null" if node.value is None else repr(node.value)
    return "a list" if isinstance(node, SequenceNode) else "a mapping"


def _keep_optional(parent: MappingNode, child: MappingNode, merged: MappingNode) -> None:
    """A parameter that is optional in the base (its default null) stays optional when the variant gives it a
    default without saying `optional:` itself: the variant changes the value it starts with, not the values it
    takes, and the base's rules may test it for null (`if params.pot_limit == null then ...`)."""
    before, given, after = (node.entries.get("params") for node in (parent, child, merged))
    if not (isinstance(before, MappingNode) and isinstance(given, MappingNode) and isinstance(after, MappingNode)):
        return
    for name, declaration in given.entries.items():
        base, now = before.entries.get(name), after.entries.get(name)
        if not (isinstance(declaration, MappingNode) and isinstance(base, MappingNode)
                and isinstance(now, MappingNode)) or "optional" in declaration.entries:
            continue
        optional_before = "default" in base.entries and scalar(base.entries["default"]) is None \
            and scalar(base.entries.get("optional")) is not False
        if optional_before and scalar(now.entries.get("default")) is not None:
            where = now.entries["default"].location
            now.entries["optional"] = ScalarNode(where, True)
            now.key_locations["optional"] = where


def _shown_path(path: Path) -> str:
    """A path as messages show it: `..` worked out (`rulesets/game.yaml`, not `rulesets/variants/../game.yaml`)
    where that names the same file (a link to a folder may make it another)."""
    normal = os.path.normpath(path)
    try:
        return normal if normal == str(path) or Path(normal).resolve() == path.resolve() else str(path)
    except (OSError, ValueError, RuntimeError):
        return str(path)


def _resolved_file(path: Path, extends: ScalarNode) -> Path:
    """The absolute path of the file `extends` names, or an error saying why it names no file."""
    problem = "which is not a file"
    try:
        if "\0" in str(path):
            problem = "a path with a NUL character, which no file has"
        elif path.is_file():
            return path.resolve()
    except OSError as error:  # a name longer than the system allows, a loop of links
        problem = f"which cannot be a file ({error.strerror or error})"
    close = close_bundled(str(extends.value))
    hint = f"did you mean the bundled `{close}`?" if close else \
        "the path is relative to the file that says `extends:`; a bundled ruleset is named alone " \
        "(`extends: NAME`; `ruledeck list` names them)"
    raise RulesetError([Diagnostic(
        "extends-missing", f"`extends` names {shorten(repr(extends.value))}, {problem}", extends.location,
        "extends", hint=hint)])


def _remove_key(root: MappingNode, dotted: str, node: ScalarNode, index: int, diagnostics: list[Diagnostic]) -> None:
    """Delete the key at a dotted path (`define.follows`) from the merged tree."""
    parts = dotted.split(".")
    here: Node | None = root
    for position, part in enumerate(parts):
        if isinstance(here, SequenceNode) or "[" in part:  # (`hand.phases[1].beats`, `hand.phases.1`)
            diagnostics.append(Diagnostic(
                "extends-remove", f"cannot remove `{dotted}`: `remove` reaches keys of mappings only, not the "
                "items of a list", node.location, f"remove[{index}]", hint="give the item an `id` in the base "
                "and change it with `changes:` (`- id: ..., update: {...}` or `replace: ...`): see Changing one "
                "named item in docs/ruleset-format.md"))
            return
        if position == len(parts) - 1:
            break
        if not isinstance(here, MappingNode) or part not in here.entries:
            here = None
            break
        here = here.entries[part]
    if isinstance(here, MappingNode):
        by_identity = {_identity(key): key for key in here.entries}
        key = by_identity.get(parts[-1])
        if key is not None:
            del here.entries[key]
            here.key_locations.pop(key, None)
            return
    diagnostics.append(Diagnostic("extends-remove", f"cannot remove `{dotted}`: the base has no such key",
                                  node.location, f"remove[{index}]"))


def _identity(key: str) -> str:
    return key.split("(", 1)[0].strip()


def merge(base: Node, override: Node, path: tuple[str | int, ...], diagnostics: list[Diagnostic]) -> Node:
    """The override merged into the base (neither is changed)."""
    if isinstance(base, MappingNode) and isinstance(override, MappingNode):
        return _merge_mappings(base, override, path, diagnostics)
    if (isinstance(base, SequenceNode) and isinstance(override, SequenceNode)
            and _is_named_list(base) and _is_named_list(override)):
        return _merge_named(base, override, path, diagnostics)
    return override


def _merge_mappings(base: MappingNode, override: MappingNode, path: tuple[str | int, ...],
                    diagnostics: list[Diagnostic]) -> MappingNode:
    entries = dict(base.entries)
    key_locations = dict(base.key_locations)
    by_identity = {_identity(key): key for key in entries}
    for key, value in override.entries.items():
        existing = by_identity.get(_identity(key))
        if existing is not None:
            merged = merge(entries.pop(existing), value, (*path, key), diagnostics)
            key_locations.pop(existing)
        else:
            merged = value
        entries[key] = merged
        key_locations[key] = override.key_locations[key]
    return MappingNode(override.location, entries, key_locations)


def _item_name(node: Node) -> str | None:
    if isinstance(node, MappingNode):
        name = node.entries.get("name")
        if isinstance(name, ScalarNode) and isinstance(name.value, str):
            return name.value
    return None


def _is_named_list(node: SequenceNode) -> bool:
    return bool(node.items) and all(_item_name(item) is not None for item in node.items)


def _is_removal(node: Node) -> bool:
    if not isinstance(node, MappingNode):
        return False
    remove = node.entries.get("remove")
    return isinstance(remove, ScalarNode) and remove.value is True


def _merge_named(base: SequenceNode, override: SequenceNode, path: tuple[str | int, ...],
                 diagnostics: list[Diagnostic]) -> SequenceNode:
    items: dict[str, Node] = {_item_name(item) or "": item for item in base.items}
    for index, item in enumerate(override.items):
        name = _item_name(item) or ""
        if _is_removal(item):
            if name in items:
                del items[name]
            else:
                diagnostics.append(Diagnostic(
                    "extends-remove", f"cannot remove {name!r}: the base has no item of that name",
                    item.location, yaml_path((*path, index)), hint="names: " + ", ".join(items)))
            continue
        items[name] = merge(items[name], item, (*path, index), diagnostics) if name in items else item
    return SequenceNode(override.location, list(items.values()))
