"""A ruleset loaded, checked and compiled afresh: the pipeline from a file to a `Ruleset` (loader.py calls it
when no earlier load of the same files and parameters was kept, see ruleset_cache.py).

source (located YAML) -> variants (extends, merged) -> schema (structure) -> parameters -> semantics (names,
expressions in place, phases, deck arithmetic) -> compiler -> Ruleset.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from interpreter import cache
from interpreter.changes import against_changes
from interpreter.dsl.ast import free_names
from interpreter.dsl.checker import Environment
from interpreter.dsl.compiler import Program, evaluate
from interpreter.dsl.definitions import VOLATILE_NAMES, did_you_mean
from interpreter.dsl.types import CARD, INT, MELD, NUM, SEAT
from interpreter.errors import Diagnostic, EvaluationError, ExpressionError, RulesetError
from interpreter.flow import check_deck_arithmetic, check_phases
from interpreter.model import Ruleset, ShowSpec
from interpreter.parameters import ParamValue, resolve
from interpreter.procedures import (
    Call,
    Calls,
    calls_to,
    chain_note,
    every_call,
    expand_procedures,
    procedure_nodes,
    written_at,
)
from interpreter.semantics import (
    CONTEXTUAL,
    ENGINE_NAMES,
    VARIABLE_TYPES,
    RulesetChecker,
    Scope,
    mentioned_names,
    parameter_types,
    scalar,
)
from interpreter.show import build_show
from interpreter.sites import ExpressionSite
from interpreter.source import MappingNode, Node, ScalarNode, SequenceNode, yaml_path
from interpreter.steps import StepChecker, trick_zones, variable_scope
from interpreter.unchanging import unchanging_variables
from interpreter.variants import load_with_changes

Path_ = tuple[str | int, ...]


def compile_afresh(path: str | Path, params: Mapping[str, Any] | None, *, params_as_text: bool) -> Ruleset:
    """Load, check and compile the ruleset at `path` (see loader.compile_ruleset)."""
    root, applied = load_with_changes(path)
    try:
        return _compile_tree(path, root, params, params_as_text=params_as_text)
    except RulesetError as error:
        if not applied:
            raise
        raise RulesetError(against_changes(error.diagnostics, applied)) from None


def _compile_tree(path: str | Path, root: MappingNode, params: Mapping[str, Any] | None, *,
                  params_as_text: bool) -> Ruleset:
    written = procedure_nodes(root)  # (before the calls are spliced)
    spliced, calls = expand_procedures(root, written)
    if any(d.severity == "error" for d in spliced):
        raise RulesetError(spliced)
    _check_structure(path, root, written)
    unchanging: dict[str, tuple[str, Any]] | None = None
    while True:  # (checked again, once, when variables turn out unchanging: their reads are then folded)
        checker = RulesetChecker(root, {})
        checker.diagnostics.extend(spliced)  # warnings about procedures never called
        specs = checker.build_parameters()
        values = resolve(specs, params or {}, from_text=params_as_text)
        checker.parameter_values = values
        try:
            ruleset = _check_and_compile(checker, str(path), root, specs, values, unchanging)
        except RulesetError as error:
            raise RulesetError(_written(root, error.diagnostics, written, calls)) from None
        if unchanging is not None or not ruleset.unchanging:
            break
        unchanging = dict(ruleset.unchanging)
    return dataclasses.replace(ruleset, warnings=tuple(_written(root, list(ruleset.warnings), written, calls)),
                               procedure_paths=written, procedure_calls=calls)


def _check_structure(path: str | Path, root: MappingNode, written: dict[int, Path_]) -> None:
    """The schema's check of the merged tree, skipped when the same files passed it before (see cache.py:
    the schema and its validator are most of a second load's start)."""
    key = cache.ruleset_key(str(path), "structure")
    if key is not None and cache.get(key[0]) is not None:
        return
    from interpreter.schema import validate_structure

    structural = validate_structure(root)
    if structural:
        raise RulesetError(_written(root, structural, written))
    if key is not None and cache.made_from(root) == key[1]:
        cache.put(key[0], {"structure": "valid"})


def _written(root: MappingNode, diagnostics: list[Diagnostic], written: dict[int, Path_],
             calls: Calls | None = None) -> list[Diagnostic]:
    """The findings with the YAML path where each is written: inside a procedure, for one found in its steps;
    a finding in a procedure called from several places, once. Such a finding notes the calls that brought it
    there (the procedure is fine elsewhere), unless every call of the procedure brings it (it is the
    procedure's own)."""
    found: dict[tuple[object, ...], Diagnostic] = {}
    chains: dict[tuple[object, ...], list[tuple[Call, ...]]] = {}
    for diagnostic in diagnostics:
        chain = calls_to(calls or {}, diagnostic.yaml_path)
        if diagnostic.yaml_path:
            diagnostic = dataclasses.replace(diagnostic, yaml_path=written_at(root, diagnostic.yaml_path, written))
        key = (diagnostic.code, diagnostic.message, diagnostic.yaml_path, diagnostic.sort_key())
        found.setdefault(key, diagnostic)
        if chain and chain not in chains.setdefault(key, []):
            chains[key].append(chain)
    reaching = every_call(calls or {}) if chains else {}
    for finding, brought in chains.items():
        if len(brought) > 1 and set(brought) == reaching.get(brought[0][-1].procedure):
            continue  # (found wherever the procedure is called: its own)
        kept = found[finding]
        found[finding] = dataclasses.replace(kept, notes=(*kept.notes, *map(chain_note, brought)))
    return list(found.values())


def _check_and_compile(checker: RulesetChecker, path: str, root: MappingNode, specs: Any,
                       values: dict[str, ParamValue], unchanging: dict[str, tuple[str, Any]] | None) -> Ruleset:
    """The checked and compiled ruleset; `unchanging`: the variables whose reads are folded (interpreter/
    unchanging.py), or None to find them (the ruleset returned then lists them, its reads not yet folded)."""
    players = checker.build_players()
    deck = checker.build_deck(players)
    zones = checker.build_zones()
    variables = checker.build_variables()
    definitions = checker.build_definitions()
    show = build_show(checker, root, zones, variables, definitions)
    teams = checker.build_teams(players)
    globals_ = {**variable_scope(variables, zones), **ENGINE_NAMES}
    contextual: dict[str, Any] = dict(CONTEXTUAL)
    environment = Environment(deck, globals_, definitions, parameter_types(specs, values), contextual,
                              report=checker.report_definition, broken=checker.broken_definitions,
                              volatile=VOLATILE_NAMES | _choice_argument_names(root),
                              has_melds=isinstance(root.entries.get("melds"), MappingNode),
                              key_words={name: v.by_words for name, v in variables.items() if v.by == "str"},
                              unchanging=unchanging or {},
                              unset=frozenset(name for name, variable in variables.items() if variable.unset))
    program = Program(environment)
    site = ExpressionSite(checker, environment, program)
    steps = StepChecker(checker, site, zones, variables, tricks=trick_zones(root))
    deck_zone = _deck_zone(checker, root, zones)
    _check_variables(steps, root)
    _check_melds(checker, steps, root, deck)
    hand = root.entries["hand"]
    assert isinstance(hand, MappingNode)
    check_phases(checker, steps, hand, {})
    _check_match(steps, root)
    _check_metrics(checker, steps, root)
    _check_hand_order(checker, steps, root)
    _check_shown_definitions(checker, steps, show, definitions)
    _check_unused(checker, environment, site, definitions)
    compiled = program.build()
    expressions = {where: compiled[name] for where, name in site.compiled.items()}
    if deck_zone is not None:
        def count(node: Node, node_path: Path_, players_count: int, hand_number: int) -> int | None:
            function = expressions.get(yaml_path(node_path))
            if function is None:
                return None
            environment_values = {"player_count": players_count, "dealer": 0, "hand_number": hand_number,
                                  "team_of": _team_of(teams[players_count], players_count)}
            try:
                value = evaluate(function, environment_values, {})
            except EvaluationError:
                return None
            return len(value) if isinstance(value, list) else value if isinstance(value, int) else None

        def hands(players_count: int) -> int | None:  # (the hands of a match, when known before play)
            return count(match_hands, ("match", "hands"), players_count, 1) if match_hands is not None else None

        match = root.entries.get("match")
        match_hands = match.entries.get("hands") if isinstance(match, MappingNode) else None
        check_deck_arithmetic(checker, hand, deck_zone, deck, players, count, hands)
    if _has_errors(checker):
        raise RulesetError(checker.diagnostics)
    return Ruleset(
        name=str(scalar(root.entries["name"])), path=path, players=players, deck=deck,
        deck_zone=deck_zone or "", zones=zones, variables=variables, parameters=specs, parameter_values=values,
        teams=teams, tree=root, expressions=expressions, warnings=tuple(checker.diagnostics),
        shown_types=dict(site.types), show=show, generated=program.module,
        unchanging=unchanging if unchanging is not None else unchanging_variables(variables, steps.writes, expressions),
    )


def _choice_argument_names(node: Node) -> frozenset[str]:
    """The names of every choice's arguments in the ruleset (bound anew for each candidate action)."""
    found: set[str] = set()
    if isinstance(node, MappingNode):
        arguments = node.entries.get("args")
        if "choose" in node.entries and isinstance(arguments, MappingNode):
            found.update(arguments.entries)
        for value in node.entries.values():
            found |= _choice_argument_names(value)
    elif isinstance(node, SequenceNode):
        for item in node.items:
            found |= _choice_argument_names(item)
    return frozenset(found)


def _has_errors(checker: RulesetChecker) -> bool:
    return any(d.severity == "error" for d in checker.diagnostics)


def _team_of(teams: tuple[tuple[int, ...], ...], players_count: int) -> tuple[int, ...]:
    owner = [0] * players_count
    for team, seats in enumerate(teams):
        for seat in seats:
            owner[seat] = team
    return tuple(owner)


def _deck_zone(checker: RulesetChecker, root: MappingNode, zones: dict[str, Any]) -> str | None:
    deck = root.entries["deck"]
    assert isinstance(deck, MappingNode)
    named = deck.entries.get("zone")
    table_zones = [name for name, zone in zones.items() if zone.owner == "table" and zone.kind == "cards"]
    if named is None:
        if not table_zones:
            checker.error("unknown-zone", "no zone on the table can hold the deck", root.entries["zones"],
                          ("zones",), hint="declare a zone such as `{name: stock}`")
            return None
        return table_zones[0]
    name = str(scalar(named))
    if name not in table_zones:
        checker.error("unknown-zone", f"`deck.zone` must be a zone of cards on the table; `{name}` is not",
                      named, ("deck", "zone"), hint="table zones: " + (", ".join(table_zones) or "none"))
        return None
    return name


def _check_variables(steps: StepChecker, root: MappingNode) -> None:
    node = root.entries.get("variables")
    for index, item in enumerate(node.items if isinstance(node, SequenceNode) else []):
        assert isinstance(item, MappingNode)
        name = str(scalar(item.entries["name"]))
        variable = steps.variables.get(name)
        if variable is None or "initial" not in item.entries or variable.optional:
            continue  # without `initial` a variable is unset until a step sets it; `initial: null` is optional
        scope: Scope = {"player": SEAT} if variable.per == "seat" else {}
        initial = item.entries["initial"]
        if isinstance(initial, ScalarNode) and isinstance(initial.value, str) and initial.value.strip() == "null" \
                and variable.type not in ("str",):  # (`"null"`: the expression null, not YAML's null)
            steps.checker.error("type", f"the initial value of `{name}` must be {VARIABLE_TYPES[variable.type]}, "
                                "not null", initial, ("variables", index, "initial"),
                                hint="for a variable that starts with no value (optional), write `initial: null` "
                                     "without quotes: in quotes it is the expression null")
            continue
        steps.expression(initial, ("variables", index, "initial"), scope,
                         VARIABLE_TYPES[variable.type], f"the initial value of `{name}`")


def _check_melds(checker: RulesetChecker, steps: StepChecker, root: MappingNode, deck: Any) -> None:
    from interpreter.dsl.types import BOOL

    melds = root.entries.get("melds")
    if not isinstance(melds, MappingNode):
        return
    wild = melds.entries.get("wild")
    steps.expression(wild, ("melds", "wild"), {"card": CARD}, BOOL, "`wild`")
    kinds = melds.entries["kinds"]
    assert isinstance(kinds, SequenceNode)
    if wild is not None and scalar(wild) not in (False, "false") and all(
            isinstance(kind, MappingNode) and not scalar(kind.entries.get("max_wilds"))
            and kind.entries.get("natural_in_place") is None for kind in kinds.items):
        checker.error("unused-wild", "wild cards are declared, but no kind of meld takes one (`max_wilds` is 0 "
                      "unless a kind says otherwise)", wild, ("melds", "wild"),
                      hint="give the kinds that take wild cards `max_wilds: N`", severity="warning")
    if wild is None or scalar(wild) in (False, "false"):  # (the other way round: kinds take wild cards, none is)
        for index, kind in enumerate(kinds.items):
            if not isinstance(kind, MappingNode):
                continue
            most = kind.entries.get("max_wilds")
            if isinstance(most, ScalarNode) and isinstance(most.value, int) and most.value > 0:
                checker.error("unused-wild", f"meld kind `{scalar(kind.entries.get('name'))}` takes up to "
                              f"{most.value} wild card{'s' if most.value != 1 else ''}, but no card is wild",
                              most, ("melds", "kinds", index, "max_wilds"), severity="warning",
                              hint="say which cards are wild: `melds: {wild: is_joker(card)}`")
                break
    names: set[str] = set()
    for index, kind in enumerate(kinds.items):
        assert isinstance(kind, MappingNode)
        path: Path_ = ("melds", "kinds", index)
        name = str(scalar(kind.entries["name"]))
        if name in names:
            checker.error("duplicate-name", f"two meld kinds are named `{name}`", kind.entries["name"],
                          (*path, "name"))
        names.add(name)
        low, high = scalar(kind.entries.get("min")), scalar(kind.entries.get("max"))
        if low is not None and high is not None and low > high:
            checker.error("invalid-value", f"min ({low}) is more than max ({high})", kind.entries["min"],
                          (*path, "min"))
        ranks = kind.entries.get("ranks")
        for rank_index, rank in enumerate(ranks.items if isinstance(ranks, SequenceNode) else []):
            text = str(scalar(rank))
            if text not in deck.rank_names:
                checker.error("unknown-card", f"the deck has no rank `{text}`", rank, (*path, "ranks", rank_index),
                              hint="ranks: " + " ".join(deck.rank_names))
        steps.expression(kind.entries.get("natural_in_place"), (*path, "natural_in_place"), {"card": CARD},
                         BOOL, "`natural_in_place`")
        limit = kind.entries.get("max_added_per_end")
        if limit is not None and scalar(kind.entries.get("shape")) == "set":
            checker.error("invalid-value", "a set has no ends: `max_added_per_end` limits the cards added at each "
                          "end of a run", limit, (*path, "max_added_per_end"),
                          hint="limit a set's size with `max`")
        wrap = kind.entries.get("wrap")
        if scalar(wrap) is True:
            checker.error("unsupported", "runs that turn the corner (`wrap: true`) are not supported", wrap,
                          (*path, "wrap"), hint="remove `wrap`, or set it to false")


def _check_match(steps: StepChecker, root: MappingNode) -> None:
    from interpreter.dsl.types import BOOL

    match = root.entries["match"]
    assert isinstance(match, MappingNode)
    entries = match.entries
    # `first_dealer: random` draws the first dealer (a chance event); otherwise it is an expression.
    first = entries.get("first_dealer")
    drawn = isinstance(first, ScalarNode) and first.value == "random"
    for key, expected, scope in (
        ("first_dealer", SEAT, {}), ("next_dealer", SEAT, {}), ("hands", INT, {}), ("hand_cap", INT, {}),
        ("ends_when", BOOL, {}), ("result", NUM, {"player": SEAT}),
    ):
        if key != "first_dealer" or not drawn:
            steps.expression(entries.get(key), ("match", key), scope, expected, f"`match.{key}`")


def _check_metrics(checker: RulesetChecker, steps: StepChecker, root: MappingNode) -> None:
    """`metrics:`: each a number, or a truth value (counted as 1 or 0), of the table as a hand ends (no `player`)."""
    from interpreter.dsl.types import BOOL

    metrics = root.entries.get("metrics")
    for name, metric in (metrics.entries.items() if isinstance(metrics, MappingNode) else ()):
        path: Path_ = ("metrics", name)
        value: Node | None = metric
        if isinstance(metric, MappingNode):
            value, path = metric.entries.get("value"), (*path, "value")
        kind = steps.expression(value, path, {}, None, f"the metric `{name}`")
        if kind is not None:
            steps.site.types[yaml_path(path)] = kind  # (a truth value's mean is a share: see runners/metrics.py)
        if kind is not None and kind not in (INT, NUM, BOOL):
            checker.error("type", f"the metric `{name}` must be a number or bool, not {kind}", value, path,
                          hint="a metric is a number (a count, a size, a total) or a truth value: "
                               "e.g. `size(...)`, `count(... for p in seats())`")


def _check_hand_order(checker: RulesetChecker, steps: StepChecker, root: MappingNode) -> None:
    """`show.hand_order` (an int for each `card`, `player` the seat looking) and `show.hand_group` (any value)."""
    show = root.entries.get("show")
    if not isinstance(show, MappingNode):
        return
    order, group = show.entries.get("hand_order"), show.entries.get("hand_group")
    scope = {"card": CARD, "player": SEAT}
    if order is not None:
        steps.expression(order, ("show", "hand_order"), scope, INT, "the place of a card in the hand shown")
    if group is not None:
        if order is None:
            checker.error("invalid-value", "`show.hand_group` groups the cards `show.hand_order` sorts: give "
                          "`hand_order` too", group, ("show", "hand_group"),
                          hint="`hand_order: <an int for each card>`, lowest first")
        kind = steps.expression(group, ("show", "hand_group"), scope, None, "the group of a card in the hand shown")
        if kind is not None and (kind.is_list or kind.name in ("per_seat", "per_team")):
            checker.error("type", f"`show.hand_group` is one value for each card, not {kind}", group,
                          ("show", "hand_group"), hint="e.g. `if card.suit == trump then 'trumps' else ...`")


def _check_shown_definitions(checker: RulesetChecker, steps: StepChecker, show: ShowSpec,
                             definitions: dict[str, Any]) -> None:
    """A definition that `show.variables` names is one value of the table, the same for every seat: it reads
    no `player`, and only what every seat sees (public zones and variables, parameters, the dealer, the hand
    number), so that no seat's view shows what it may not see."""
    for index, item in enumerate(show.variables or ()):
        if not item.where:
            continue
        path = ("show", "variables", index, "name")
        node = _show_item_name(checker.root, index)
        kind = steps.expression(node, path, {}, None, f"the definition `{item.name}` shown")
        if kind is not None and MELD in (kind, kind.element if kind.is_list else None):
            checker.error("type", f"`show.variables` shows the definition `{item.name}`, which is {kind}, not a "
                          "value to show", node, path, hint="show a number, a truth value, a text, a seat, a card "
                                                            "or a list of them: the cards of a meld, `m.cards`")
        secret = _hidden_reads(item.name, definitions, steps)
        if secret:
            checker.error("invalid-value", f"`show.variables` shows the definition `{item.name}`, which reads "
                          f"{secret}, not seen by every seat", node, path,
                          hint="a definition shown reads only public zones and variables, parameters, `dealer` "
                               "and `hand_number`; show a variable the steps set instead")


def _show_item_name(root: MappingNode, index: int) -> Node:
    show = root.entries["show"]
    assert isinstance(show, MappingNode)
    items = show.entries["variables"]
    assert isinstance(items, SequenceNode)
    item = items.items[index]
    assert isinstance(item, MappingNode)
    return item.entries["name"]


def _hidden_reads(name: str, definitions: dict[str, Any], steps: StepChecker) -> str | None:
    """What a definition reads (through the definitions it uses) that not every seat sees: a zone or variable
    that is not public, or who placed a card (`placed_by`, which a face-down discard keeps from the others)."""
    used = _closure({name}, definitions)
    for definition in sorted(used):
        for mentioned in sorted(mentioned_names(definitions[definition].body)):
            zone = steps.zones.get(mentioned)
            if zone is not None and zone.visibility != "public":
                return f"the zone `{mentioned}`"
            variable = steps.variables.get(mentioned)
            if variable is not None and variable.visibility != "public" and (
                    variable.per != "table" or variable.visibility == "nobody"):
                return f"the variable `{mentioned}`"
            if mentioned == "placed_by":
                return "`placed_by`"
    return None


_WORD = re.compile(r"[A-Za-z_]\w*")


def _check_unused(checker: RulesetChecker, environment: Environment, site: ExpressionSite,
                  definitions: dict[str, Any]) -> None:
    if site.unparsed:
        return  # what an expression with a syntax error uses is unknown: no warning can be sure
    # (a definition that could not be read may use others: the names its text holds count as used)
    written = {word for name in checker.broken_definitions if name in definitions
               for word in _WORD.findall(definitions[name].text)}
    used = _closure((site.mentioned | written) & set(definitions), definitions)
    known = {*environment.globals, *CONTEXTUAL, *definitions, "params"}
    for name, definition in definitions.items():
        if name in used or name in checker.broken_definitions:
            continue
        node, path = checker.definition_sites[name]
        unknown = [n for n in free_names(definition.body, set(definition.parameters)) if n.identifier not in known]
        for name_node in unknown:
            checker.report_expression(
                ExpressionError("unknown-name", f"unknown name `{name_node.identifier}`", name_node.start,
                                name_node.end, hint=did_you_mean(name_node.identifier, sorted(known))),
                node, path)
        checker.error("unused-definition", f"definition `{name}` is never used", node, path,
                      hint="remove it, or use it in a rule", severity="warning")


def _closure(names: set[str], definitions: dict[str, Any]) -> set[str]:
    """The definitions named, and every definition they use, transitively."""
    seen = set(names)
    pending = list(names)
    while pending:
        for used in mentioned_names(definitions[pending.pop()].body) & set(definitions):
            if used not in seen:
                seen.add(used)
                pending.append(used)
    return seen
