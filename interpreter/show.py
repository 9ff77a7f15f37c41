"""The `show:` section of a ruleset: which zones and variables a player's view shows, under which labels, and
which zone is the hand. Checked here against the declared zones and variables; read by interpreter/view.py."""

from __future__ import annotations

from collections.abc import Mapping

from interpreter.dsl.definitions import Definition, did_you_mean
from interpreter.model import ShownItem, ShowSpec, VariableSpec, ZoneSpec
from interpreter.semantics import RulesetChecker, scalar
from interpreter.source import MappingNode, ScalarNode, SequenceNode, yaml_path


def build_show(checker: RulesetChecker, root: MappingNode, zones: Mapping[str, ZoneSpec],
               variables: Mapping[str, VariableSpec], definitions: Mapping[str, Definition]) -> ShowSpec:
    """The checked `show:` section (every default when the ruleset has none); findings go to `checker`.
    `show.variables` may name a definition without parameters, whose value is shown as a variable's."""
    section = root.entries.get("show")
    if not isinstance(section, MappingNode):
        return ShowSpec(hand=default_hand(zones))
    entries = section.entries
    return ShowSpec(
        hand=_hand(checker, entries.get("hand"), zones),
        zones=_items(checker, entries.get("zones"), "zones", "zone", zones),
        variables=_items(checker, entries.get("variables"), "variables", "variable", {**definitions, **variables}),
    )


def default_hand(zones: Mapping[str, ZoneSpec]) -> str | None:
    """The hand when `show.hand` does not name one: the first zone of cards per seat that its owner sees."""
    for name, zone in zones.items():
        if zone.owner == "seat" and zone.kind == "cards" and zone.visibility in ("owner", "team"):
            return name
    return None


def _hand(checker: RulesetChecker, node: object, zones: Mapping[str, ZoneSpec]) -> str | None:
    if not isinstance(node, ScalarNode):
        return default_hand(zones)
    name = str(node.value)
    hands = [zone_name for zone_name, zone in zones.items() if zone.owner == "seat" and zone.kind == "cards"]
    if name in hands:
        return name
    problem = "names no zone" if name not in zones else "is not a zone of cards per seat"
    checker.error("unknown-zone", f"`show.hand`: `{name}` {problem}", node, ("show", "hand"),
                  hint=did_you_mean(name, hands) or "zones per seat: " + (", ".join(hands) or "none"))
    return default_hand(zones)


def _items(checker: RulesetChecker, node: object, key: str, kind: str,
           declared: Mapping[str, object]) -> tuple[ShownItem, ...] | None:
    if not isinstance(node, SequenceNode):
        return None
    shown: list[ShownItem] = []
    for index, item in enumerate(node.items):
        assert isinstance(item, MappingNode)
        name_node = item.entries["name"]
        name = str(scalar(name_node))
        path = ("show", key, index, "name")
        if name not in declared:
            hint = did_you_mean(name, sorted(declared)) or f"{kind}s: " + ", ".join(
                item for item in declared if not isinstance(declared[item], Definition))
            if name_node.location.source is not checker.root.location.source:  # from the file extended
                hint = (f"a variant that removes a {kind} removes it from `show.{key}` too: "
                        f"`{{name: {name}, remove: true}}`")
            checker.error(f"unknown-{kind}", f"`show.{key}` names no {kind} `{name}`", name_node, path, hint=hint)
        elif isinstance(shown_definition := declared[name], Definition) and shown_definition.parameters:
            checker.error("invalid-value", f"`show.{key}` shows the definition `{name}`, which takes parameters",
                          name_node, path, hint="show a definition without parameters: `name: expression`")
        elif getattr(declared[name], "visibility", None) == "nobody" and kind == "variable":
            checker.error("invalid-value", f"`show.{key}` shows the variable `{name}`, which nobody sees",
                          name_node, path, hint="leave it out: its value is hidden from every seat")
        elif any(other.name == name for other in shown):
            checker.error("duplicate-name", f"`show.{key}` shows the {kind} `{name}` twice", name_node, path,
                          hint="keep one of them")
        else:
            label = scalar(item.entries.get("label"))
            where = yaml_path(path) if isinstance(declared[name], Definition) else ""
            in_order = scalar(item.entries.get("sorted")) is True
            if in_order and getattr(declared[name], "kind", "cards") != "cards":
                checker.error("invalid-value", f"`show.{key}` sorts the zone `{name}`, which holds melds",
                              item.entries["sorted"], ("show", key, index, "sorted"),
                              hint="`sorted` orders the cards of a zone of cards, as a hand is shown")
            shown.append(ShownItem(name, str(label) if label is not None else name.replace("_", " "), where,
                                   in_order))
    return tuple(shown)
