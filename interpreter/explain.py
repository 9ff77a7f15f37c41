"""What a variant changes relative to the ruleset it extends, item by item (`ruledeck explain`).

Both files are merged as the loader merges them (source -> variants); the two trees are then compared: mappings
key by key, lists item by item, where an item is known by its `id`, else its `name`, else the option it offers
(`choose`), else its whole content. Each difference is one line, with the place in the variant that made it.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from interpreter.bundled import extended_file
from interpreter.errors import RuledeckError, shorten
from interpreter.source import MappingNode, Node, ScalarNode, SequenceNode, read_file, to_plain
from interpreter.variants import load_merged

SUMMARY_LENGTH = 70
IDENTITY_KEYS = ("id", "name", "choose")


@dataclass(frozen=True)
class Difference:
    """One change: `added`, `removed` or `changed`, where (a readable path), what, and the file line that did it."""

    kind: str
    path: str
    before: str
    after: str
    origin: str

    def render(self) -> str:
        text = {"added": f"+ {self.path}: {self.after}", "removed": f"- {self.path}: {self.before}",
                "changed": f"~ {self.path}: {self.before} -> {self.after}"}[self.kind]
        return f"{text}  ({self.origin})" if self.origin else text


def base_of(path: str | Path) -> Path:
    """The file a variant extends; RuledeckError when it extends none."""
    extends = read_file(str(path)).entries.get("extends")
    if not isinstance(extends, ScalarNode) or not isinstance(extends.value, str):
        raise RuledeckError(f"{path} extends no ruleset, so there is nothing to compare it with")
    found = extended_file(Path(path).parent, extends.value)  # (a bundled ruleset by its name, too)
    return Path(os.path.normpath(found)) if found == Path(path).parent / extends.value else found


def explain(path: str | Path) -> tuple[Path, list[Difference]]:
    """The base a variant extends, and what the variant changes in it (RulesetError for a broken file)."""
    merged = load_merged(path)  # (first: a base that is missing is reported at the variant's `extends:`)
    base = base_of(path)
    removals = _removals(read_file(str(path)))
    return base, [_removed_by(difference, removals) for difference in differences(load_merged(base), merged)]


def _removals(variant: MappingNode) -> dict[str, str]:
    """Where the variant's own file removes things, by what it names: a `changes:` item's `remove: ID`, a
    top-level `remove:` path (`define.follows`), an item `{name: x, remove: true}`."""
    found: dict[str, str] = {}
    changes = variant.entries.get("changes")
    for change in changes.items if isinstance(changes, SequenceNode) else []:
        removed = change.entries.get("remove") if isinstance(change, MappingNode) else None
        for item in removed.items if isinstance(removed, SequenceNode) else [removed] if removed else []:
            if isinstance(item, ScalarNode):
                found.setdefault(str(item.value), _origin(item))
    top = variant.entries.get("remove")
    for item in top.items if isinstance(top, SequenceNode) else [top] if top else []:
        if isinstance(item, ScalarNode):
            found.setdefault(str(item.value), _origin(item))
    pending: list[Node] = [variant]
    while pending:
        node = pending.pop()
        if isinstance(node, MappingNode):
            name, flag = node.entries.get("name"), node.entries.get("remove")
            if isinstance(name, ScalarNode) and isinstance(flag, ScalarNode) and flag.value is True:
                found.setdefault(str(name.value), _origin(flag))
            pending.extend(node.entries.values())
        elif isinstance(node, SequenceNode):
            pending.extend(node.items)
    return found


def _removed_by(difference: Difference, removals: dict[str, str]) -> Difference:
    """A removal with the place in the variant that made it: the path it names, or the item's id or name."""
    if difference.kind != "removed" or difference.origin:
        return difference
    last = difference.path.rsplit("[", 1)[1].rstrip("]") if difference.path.endswith("]") else ""
    origin = removals.get(difference.path) or (removals.get(last) if last else None)
    return dataclasses.replace(difference, origin=origin) if origin else difference


def differences(base: Node, variant: Node, path: str = "") -> list[Difference]:
    """Every difference between two merged trees, in the variant's order."""
    if isinstance(base, MappingNode) and isinstance(variant, MappingNode):
        return _mapping_differences(base, variant, path)
    if isinstance(base, SequenceNode) and isinstance(variant, SequenceNode):
        return _list_differences(base, variant, path)
    if _canonical(base) == _canonical(variant):
        return []
    return [Difference("changed", path, summary(base), summary(variant), _origin(variant))]


def _mapping_differences(base: MappingNode, variant: MappingNode, path: str) -> list[Difference]:
    """In the base's order (a variant's merge moves the keys it gives to the end), then the keys it adds."""
    found: list[Difference] = []
    for key, value in base.entries.items():
        where = f"{path}.{key}" if path else key
        if key in variant.entries:
            found.extend(differences(value, variant.entries[key], where))
        else:
            found.append(Difference("removed", where, summary(value), "", ""))
    found.extend(Difference("added", f"{path}.{key}" if path else key, "", summary(value), _origin(value))
                 for key, value in variant.entries.items() if key not in base.entries)
    return found


def _list_differences(base: SequenceNode, variant: SequenceNode, path: str) -> list[Difference]:
    base_keys = [_identity(item) for item in base.items]
    variant_keys = [_identity(item) for item in variant.items]
    found: list[Difference] = []
    matcher = difflib.SequenceMatcher(a=base_keys, b=variant_keys, autojunk=False)
    for operation, low, high, new_low, new_high in matcher.get_opcodes():
        # Items known in both lists, or a run of unnamed items changed one for one: compared item by item.
        if operation == "equal" or (operation == "replace" and high - low == new_high - new_low):
            pairs = zip(base.items[low:high], variant.items[new_low:new_high], strict=True)
            for index, (old, new) in enumerate(pairs):
                found.extend(differences(old, new, f"{path}[{_label(new, new_low + index)}]"))
        else:
            found.extend(Difference("removed", f"{path}[{_label(item, low + i)}]", summary(item), "", "")
                         for i, item in enumerate(base.items[low:high]))
            found.extend(Difference("added", f"{path}[{_label(item, new_low + i)}]", "", summary(item),
                                    _origin(item)) for i, item in enumerate(variant.items[new_low:new_high]))
    return found


def _identity(node: Node) -> str:
    """How an item is recognised in both lists: its id, name or option, else its whole content."""
    if isinstance(node, MappingNode):
        for key in IDENTITY_KEYS:
            value = node.entries.get(key)
            if isinstance(value, ScalarNode) and isinstance(value.value, str):
                return f"{key}={value.value}"
    return _canonical(node)


def _label(node: Node, index: int) -> str:
    """An item's name in a path: `[BR-15]`, `[declare]`, `[pass]`, else its position `[2]`."""
    identity = _identity(node)
    for key in IDENTITY_KEYS:
        if identity.startswith(f"{key}="):
            return identity[len(key) + 1:]
    return str(index)


def _canonical(node: Node) -> str:
    return json.dumps(to_plain(node), sort_keys=True, default=str)


def summary(node: Node) -> str:
    """A short text of a value: a scalar as written, an item by its first meaningful key."""
    if isinstance(node, ScalarNode):
        text = json.dumps(node.value, ensure_ascii=False)
    elif isinstance(node, MappingNode):
        shown = [(k, v) for k, v in node.entries.items() if k not in ("id", "description")][:2]
        text = "{" + ", ".join(f"{k}: {summary(v)}" for k, v in shown) + (", ...}" if len(node.entries) > 2
                                                                           else "}")
    else:
        assert isinstance(node, SequenceNode)
        text = f"[{len(node.items)} item{'s' if len(node.items) != 1 else ''}]"
    return shorten(" ".join(text.split()), SUMMARY_LENGTH)


def _origin(node: Node) -> str:
    where = node.location
    return f"{where.path}:{where.line}"


def render(path: str | Path, base: Path, found: list[Difference]) -> str:
    """The report `ruledeck explain` prints."""
    head = f"{path} changes {base}: {len(found)} difference{'s' if len(found) != 1 else ''}"
    return "\n".join([head, *("  " + difference.render() for difference in found)])
