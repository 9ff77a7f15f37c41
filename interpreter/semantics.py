"""Checks of meaning beyond the schema: names, the deck, parameters, zones, variables, definitions and teams.
The expressions themselves are checked in the places they are written (sites.py)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from interpreter.cards import JOKER, Deck, DeckChange, SetAsideError
from interpreter.dsl import ast
from interpreter.dsl.definitions import Definition, DefinitionError, Parameter
from interpreter.dsl.parser import BudgetSpent, ExpressionBudget, parse
from interpreter.dsl.types import (
    ANY,
    BOOL,
    CARD,
    CARDS,
    INT,
    MELD,
    NUM,
    RANK,
    SEAT,
    STR,
    SUIT,
    TEAM,
    Type,
    list_of,
    optional,
    per_key,
    per_seat,
    per_team,
)
from interpreter.errors import Diagnostic, ExpressionError, Location
from interpreter.model import Players, VariableSpec, ZoneSpec
from interpreter.parameters import Bound, ParamSpec, ParamValue, exact_number
from interpreter.source import (
    YAML_WORDS,
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    scalar,
    written_word,
    yaml_path,
)

Path = tuple[str | int, ...]
Scope = dict[str, Type]

VARIABLE_TYPES = {"int": INT, "num": NUM, "bool": BOOL, "str": STR, "seat": SEAT, "team": TEAM, "suit": SUIT,
                  "rank": RANK, "card": CARD}
# A variable may also hold a list of values of one of these types (`list[card]`), set whole by a `set` step.
VARIABLE_TYPES.update({f"list[{name}]": list_of(element) for name, element in list(VARIABLE_TYPES.items())})
INDEX_TYPES = ("suit", "rank", "seat", "team")  # what a variable's `by:` may name besides a list of words
PARAM_TYPES = {"int": INT, "num": NUM, "bool": BOOL, "str": STR}
HIDDEN_VALUE_TYPES = ("card", "list[card]")  # the types of a variable seen by nobody (`visibility: nobody`)
# Names the engine binds in some places; a ruleset may not declare them.
CONTEXTUAL = {"player": SEAT, "card": CARD, "cards": CARDS, "meld": MELD, "after": MELD, "winner": SEAT,
              "receiver": SEAT, "round": INT, "to_play": INT, "laid": list_of(MELD)}
ENGINE_NAMES = {"dealer": SEAT, "hand_number": INT}
KEYWORDS = {"params", "end", "all", "while", "remove"}  # words with a meaning of their own in a ruleset
RESERVED = {*CONTEXTUAL, *ENGINE_NAMES, *KEYWORDS}
_DEFINITION_KEY = re.compile(r"^([a-z][a-z0-9_]*)(?:\((.*)\))?$")


def expression_text(node: ScalarNode) -> str:
    value = node.value
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


class RulesetChecker:
    """Walks a structurally valid merged tree, collecting every finding in `diagnostics`."""

    def __init__(self, root: MappingNode, parameter_values: dict[str, ParamValue]) -> None:
        self.root = root
        self.parameter_values = parameter_values
        self.diagnostics: list[Diagnostic] = []
        self.definition_sites: dict[str, tuple[ScalarNode, Path]] = {}
        self.reported_definitions: set[tuple[str, str]] = set()
        self.using: tuple[ScalarNode, Path] | None = None  # the expression being checked (see report_definition)
        self.broken_definitions: set[str] = set()  # refused before checking (recursion): uses stay silent
        self.expressions = ExpressionBudget()

    # --- reporting -------------------------------------------------------------------------------------------

    def error(self, code: str, message: str, node: Node | None, path: Path, hint: str | None = None,
              severity: str = "error") -> None:
        self.diagnostics.append(Diagnostic(code, message, node.location if node else None, yaml_path(path),
                                           hint, severity))  # type: ignore[arg-type]

    def _node(self, *path: str | int) -> Node | None:
        node: Node | None = self.root
        for part in path:
            if isinstance(node, MappingNode) and isinstance(part, str):
                node = node.entries.get(part)
            elif isinstance(node, SequenceNode) and isinstance(part, int) and part < len(node.items):
                node = node.items[part]
            else:
                return None
        return node

    # --- the sections ----------------------------------------------------------------------------------------

    def build_deck(self, players: Players) -> Deck:
        node = self._node("deck")
        assert isinstance(node, MappingNode)
        ranks = tuple(str(scalar(item)) for item in _items(node.entries.get("ranks")))
        suits = tuple(str(scalar(item)) for item in _items(node.entries.get("suits")))
        jokers_node = node.entries.get("jokers")
        joker_names = self._joker_names(jokers_node, ranks, suits)
        jokers = 0 if isinstance(jokers_node, SequenceNode) else scalar(jokers_node) or 0
        pack = self._card_list(node, ("deck", "cards"), ranks, suits, joker_names)
        changes = tuple(self._deck_change(item, ("deck", "by_players", index), ranks, suits, players, joker_names)
                        for index, item in enumerate(_items(node.entries.get("by_players"))))
        has_joker = bool(jokers or joker_names) or JOKER in (pack or ()) or any(
            c.add_jokers or JOKER in c.add for c in changes)
        rank_names = (*ranks, *(joker_names or (JOKER,))) if has_joker else ranks
        for suit_node, suit in zip(_items(node.entries.get("suits")), suits, strict=True):
            if suit in ranks:
                self.error("duplicate-name", f"`{suit}` is both a rank and a suit", suit_node, ("deck", "suits"),
                           hint="give suits names no rank has")
        rankings: dict[str, tuple[str, ...]] = {}
        rankings_node = node.entries.get("rankings")
        if isinstance(rankings_node, MappingNode):
            for name, order in rankings_node.entries.items():
                for index, item in enumerate(_items(order)):
                    self._check_rank_name(str(scalar(item)), item.location, ("deck", "rankings", name, index),
                                          rank_names)
                rankings[name] = tuple(str(scalar(item)) for item in _items(order))
        values: dict[str, int] = {}
        values_node = node.entries.get("values")
        if isinstance(values_node, MappingNode):
            for rank, value in values_node.entries.items():
                self._check_rank_name(rank, values_node.key_locations[rank], ("deck", "values", rank), rank_names)
                values[rank] = int(scalar(value))
        deck = Deck(ranks, suits, scalar(node.entries.get("packs")) or 1, jokers, rankings, values, pack, changes,
                    joker_names)
        self._check_set_aside(deck, players)
        return deck

    def _joker_names(self, node: Node | None, ranks: tuple[str, ...], suits: tuple[str, ...]) -> tuple[str, ...]:
        """The names of distinct jokers (`deck.jokers` as a list), each checked to name no rank, suit or card."""
        names: list[str] = []
        cards = {f"{rank}{suit}" for rank in ranks for suit in suits}
        for index, item in enumerate(_items(node) if isinstance(node, SequenceNode) else []):
            name = str(scalar(item))
            if not re.fullmatch(r"[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*", name):  # (written as a card is)
                self.error("invalid-value", f"`{name}` is not a joker's name", item, ("deck", "jokers", index),
                           hint="a joker's name is its card's text, written as a card is: upper-case letters and "
                                "digits, two upper-case letters at least (RJ, BJ)")
                continue
            if name == JOKER:
                self.error("duplicate-name", "`JK` is the plain joker's card: named jokers are each named otherwise",
                           item, ("deck", "jokers", index), hint="name each joker (BJ, RJ), or write `jokers: N` for "
                           "N plain jokers")
                continue
            clash = "rank" if name in ranks else "suit" if name in suits else "card" if name in cards else None
            if clash is not None:
                self.error("duplicate-name", f"the joker `{name}` has the name of a {clash} of the deck", item,
                           ("deck", "jokers", index), hint="give each joker a name that is no rank, suit or card")
                continue
            names.append(name)
        return tuple(names)

    def _card_list(self, node: MappingNode, path: Path, ranks: tuple[str, ...],
                   suits: tuple[str, ...], joker_names: tuple[str, ...] = ()) -> tuple[str, ...] | None:
        """The cards a list of the deck section names (`cards`, `add`, `remove`), each checked: a rank of
        `ranks` then a suit of `suits`, or a joker (`JK`, or one `deck.jokers` names)."""
        listed = node.entries.get(str(path[-1]))
        if not isinstance(listed, SequenceNode):
            return None
        known = [f"{rank}{suit}" for rank in ranks for suit in suits]
        jokers = joker_names or (JOKER,)
        texts: list[str] = []
        for index, item in enumerate(listed.items):
            text = str(scalar(item))
            if text == JOKER and joker_names:
                self.error("unknown-card", "`JK` is not a card of this deck: its jokers are named", item,
                           (*path, index), hint="the deck's jokers: " + " ".join(joker_names))
                continue
            if text not in jokers and text not in known:
                close = difflib.get_close_matches(text, [*known, *jokers], n=1)
                self.error("unknown-card", f"`{text}` is not a card of the deck's ranks and suits", item,
                           (*path, index), hint=f"did you mean `{close[0]}`?" if close else
                           "a card is a rank of `deck.ranks` then a suit of `deck.suits` (10H, AS), or "
                           + " or ".join(jokers))
                continue
            texts.append(text)
        return tuple(texts)

    def _deck_change(self, node: Node, path: Path, ranks: tuple[str, ...], suits: tuple[str, ...],
                     players: Players, joker_names: tuple[str, ...]) -> DeckChange:
        assert isinstance(node, MappingNode)
        entries = node.entries
        if joker_names and "add_jokers" in entries:
            self.error("invalid-value", "`add_jokers` adds jokers `JK`, and this deck's jokers are named", entries[
                "add_jokers"], (*path, "add_jokers"), hint=f"add named jokers as cards: add: [{joker_names[-1]}]")
        counts = entries["players"]
        if isinstance(counts, MappingNode):
            low, high = scalar(counts.entries.get("min")), scalar(counts.entries.get("max"))
            minimum, maximum = low or 1, high or 16
            written = (f"{low} to {high}" if low and high else f"{low} or more" if low else f"{high} or fewer")
        else:
            minimum = maximum = scalar(counts)
            written = f"{minimum}"
        if not any(minimum <= count <= maximum for count in players.counts()):
            self.error("invalid-value", f"no number of players the game allows is {written}", counts,
                       (*path, "players"), hint=f"the game is for {players.described()}")
        return DeckChange(minimum, maximum, scalar(entries.get("add_packs")) or 0,
                          0 if joker_names else scalar(entries.get("add_jokers")) or 0,
                          self._card_list(node, (*path, "add"), ranks, suits, joker_names) or (),
                          self._card_list(node, (*path, "remove"), ranks, suits, joker_names) or ())

    def _check_set_aside(self, deck: Deck, players: Players) -> None:
        """Every card `by_players` sets aside is in the deck for each number of players it applies to."""
        for count in players.counts():
            try:
                deck.cards(count)
            except SetAsideError as error:
                path: Path = ("deck", "by_players", error.change, "remove", error.item)
                self.error("invalid-value", str(error), self._node(*path), path,
                           hint="a card is set aside from the cards the deck holds for that many players")
                return

    def _check_rank_name(self, name: str, location: Location, path: Path, rank_names: tuple[str, ...]) -> None:
        if name not in rank_names:
            close = difflib.get_close_matches(name, rank_names, n=1)
            hint = f"did you mean `{close[0]}`?" if close else "ranks: " + " ".join(rank_names)
            if name == JOKER and not isinstance(self._node("deck", "jokers"), SequenceNode):
                hint = "this deck has no jokers: set `deck.jokers`"
            self.diagnostics.append(Diagnostic("unknown-card", f"the deck has no rank `{name}`", location,
                                               yaml_path(path), hint))

    def build_players(self) -> Players:
        node = self._node("players")
        assert isinstance(node, MappingNode)
        minimum = scalar(node.entries["min"])
        maximum = scalar(node.entries["max"])
        default = scalar(node.entries.get("default")) or minimum
        if minimum > maximum:
            self.error("invalid-value", f"players.min ({minimum}) is more than players.max ({maximum})",
                       node.entries["min"], ("players", "min"), hint="swap them")
        elif not minimum <= default <= maximum:
            self.error("invalid-value", f"players.default ({default}) is outside {minimum} to {maximum}",
                       node.entries["default"], ("players", "default"),
                       hint="the default player count must be one the game allows")
        return Players(minimum, maximum, default)

    def build_parameters(self) -> dict[str, ParamSpec]:
        specs: dict[str, ParamSpec] = {}
        node = self._node("params")
        if not isinstance(node, MappingNode):
            return specs
        for name, declaration in node.entries.items():
            assert isinstance(declaration, MappingNode)
            entries = declaration.entries
            path: Path = ("params", name)
            kind = str(scalar(entries["type"]))
            bounds = [self._parameter_bound(kind, entries.get(key), (*path, key)) for key in ("min", "max")]
            default = scalar(entries["default"])
            if kind == "num" and exact_number(default) is not None:
                default = exact_number(default)  # (`1/2`, written as text, or a decimal: the number exactly)
            spec = ParamSpec(
                name, kind, default, str(scalar(entries["description"])), bounds[0], bounds[1],
                tuple(str(scalar(c)) for c in _items(entries.get("choices"))), scalar(entries.get("optional")) is True,
            )
            if scalar(entries.get("optional")) is False and default is None:
                self.error("param-value", f"`{name}` has no default (null), so it is optional", entries["optional"],
                           (*path, "optional"), hint="give it a default, or leave `optional` out")
            if spec.choices and spec.type != "str":
                self.error("param-value", "only a str parameter has choices", entries["choices"], (*path, "choices"))
            if (spec.minimum is not None or spec.maximum is not None) and spec.type not in ("int", "num"):
                self.error("param-value", "only an int or num parameter has min and max", declaration, path)
            if spec.minimum is not None and spec.maximum is not None and spec.minimum > spec.maximum:
                self.error("param-value", f"min ({spec.minimum}) is more than max ({spec.maximum})",
                           entries["min"], (*path, "min"), hint="swap them, or widen the range")
                specs[name] = spec
                continue
            problem = spec.problem(spec.default)
            if problem is not None and spec.default is not None:
                word = written_word(entries["default"].location) if isinstance(spec.default, bool) else None
                hint = (f"YAML reads `{word}` as {YAML_WORDS[word.lower()]}: quote it (\"{word}\") to write the "
                        "word" if word is not None else "a default must be an allowed value")
                self.error("param-value", f"the default of `{name}`: {problem}", entries["default"],
                           (*path, "default"), hint=hint)
            specs[name] = spec
        return specs

    def _parameter_bound(self, kind: str, node: Node | None, path: Path) -> Bound | None:
        """A parameter's `min` or `max`: an integer, or for a `num` parameter any exact number (`1/2`, `0.05`);
        None (with an error when it is written but is not one)."""
        value = scalar(node)
        if node is None or value is None:
            return None
        if kind == "int" and isinstance(value, int) and not isinstance(value, bool):
            return value
        number = exact_number(value) if kind == "num" else None
        if number is None:
            wanted = "a number (a fraction such as 1/2 is allowed)" if kind == "num" else "an integer"
            self.error("param-value", f"{path[-1]} must be {wanted}, not {value!r}", node, path,
                       hint=None if kind in ("int", "num") else "only an int or num parameter has min and max")
        return number

    def build_zones(self) -> dict[str, ZoneSpec]:
        zones: dict[str, ZoneSpec] = {}
        for index, item in enumerate(_items(self._node("zones"))):
            assert isinstance(item, MappingNode)
            entries = item.entries
            name = str(scalar(entries["name"]))
            zone = ZoneSpec(name, scalar(entries.get("owner")) or "table",
                            scalar(entries.get("visibility")) or "hidden", scalar(entries.get("kind")) or "cards",
                            scalar(entries.get("shows_count")) is not False)
            if self._declare(name, entries["name"], ("zones", index, "name"), "zone"):
                zones[name] = zone
        return zones

    def build_variables(self) -> dict[str, VariableSpec]:
        variables: dict[str, VariableSpec] = {}
        for index, item in enumerate(_items(self._node("variables"))):
            assert isinstance(item, MappingNode)
            entries = item.entries
            name = str(scalar(entries["name"]))
            initial = entries.get("initial")
            by, words = self._second_index(entries.get("by"), ("variables", index, "by"))
            variable = VariableSpec(name, str(scalar(entries["type"])), scalar(entries.get("per")) or "table",
                                    scalar(entries.get("lasts")) or "hand",
                                    scalar(entries.get("visibility")) or "public",
                                    optional=isinstance(initial, ScalarNode) and initial.value is None,
                                    unset=initial is None,
                                    by=by, by_words=words)
            if variable.visibility == "nobody" and variable.type not in HIDDEN_VALUE_TYPES:
                self.error("invalid-value", f"`{name}` is seen by nobody, so it holds cards (`card` or "
                           f"`list[card]`), not `{variable.type}`", entries["visibility"],
                           ("variables", index, "visibility"),
                           hint="a search that deals the unseen cards again deals a hidden card again, which it "
                                "cannot do for another value; keep the cards and work the value out from them")
            if self._declare(name, entries["name"], ("variables", index, "name"), "variable"):
                variables[name] = variable
        return variables

    def _second_index(self, node: Node | None, path: Path) -> tuple[str | None, tuple[str, ...]]:
        """A variable's `by`: ("str", its words) for a list of words, (the type, ()) for suit, rank, seat or team."""
        if node is None:
            return None, ()
        if isinstance(node, SequenceNode):
            return "str", tuple(str(scalar(item)) for item in node.items)
        kind = scalar(node)
        if kind not in INDEX_TYPES:
            self.error("invalid-value", f"`by: {kind}` is no second index", node, path,
                       hint="a list of words (`by: [C, D, H, S, NT]`), or suit, rank, seat or team")
            return None, ()
        return str(kind), ()

    _declared: dict[str, tuple[str, Node]]

    def _declare(self, name: str, node: Node, path: Path, kind: str) -> bool:
        if not hasattr(self, "_declared"):
            self._declared = {}
        if name in KEYWORDS:
            self.error("duplicate-name", f"`{name}` is a word of the ruleset format; choose another {kind} name",
                       node, path, hint="reserved words: " + ", ".join(sorted(KEYWORDS)))
            return False
        if name in RESERVED:
            self.error("duplicate-name", f"`{name}` is a name the engine binds; choose another {kind} name",
                       node, path, hint="names the engine binds: " + ", ".join(sorted({*CONTEXTUAL, *ENGINE_NAMES})))
            return False
        if name in self._declared:
            other_kind, other = self._declared[name]
            if other_kind == kind:
                self.error("duplicate-name", f"two {kind}s are named `{name}` (the other at line "
                           f"{other.location.line})", node, path, hint="rename or remove one of them")
            else:
                self.error("duplicate-name", f"{kind} `{name}` has the name of the {other_kind} at line "
                           f"{other.location.line}", node, path,
                           hint="zones, variables and definitions share one set of names")
            return False
        self._declared[name] = (kind, node)
        return True

    def build_definitions(self) -> dict[str, Definition]:
        definitions: dict[str, Definition] = {}
        node = self._node("define")
        if not isinstance(node, MappingNode):
            return definitions
        for key, body in node.entries.items():
            path: Path = ("define", key)
            match = _DEFINITION_KEY.match(key)
            assert match is not None and isinstance(body, ScalarNode)  # the schema's propertyNames pattern
            name = match[1]
            parameters = tuple(p.strip() for p in (match[2] or "").split(",") if p.strip())
            if len(set(parameters)) != len(parameters):
                self.error("duplicate-name", f"definition `{name}` names a parameter twice", body, path)
                continue
            if not self._declare(name, body, path, "definition"):
                continue
            text = expression_text(body)
            try:
                tree = self.expressions.parse(text)
            except ExpressionError as error:
                self.report_expression(error, body, path)
                # Known, but broken: its uses are not reported again as unknown names.
                definitions[name] = Definition(name, parameters, parse("false"), text)
                self.broken_definitions.add(name)
                self.definition_sites[name] = (body, path)
                continue
            definitions[name] = Definition(name, parameters, tree, text)
            self.definition_sites[name] = (body, path)
        self._check_recursion(definitions)
        return definitions

    def _check_recursion(self, definitions: dict[str, Definition]) -> None:
        """Refuse any cycle of definitions using each other (the language has no recursion)."""
        uses = {name: _uses(definition, definitions) for name, definition in definitions.items()}
        reported: set[frozenset[str]] = set()
        for name in list(definitions):
            cycle = _find_cycle(name, uses)
            if cycle is None or frozenset(cycle) in reported:
                continue
            reported.add(frozenset(cycle))
            node, path = self.definition_sites[name]
            self.error("recursion", "definitions may not use themselves: " + " -> ".join(cycle), node, path,
                       hint="the language has no recursion; go through a finite list with a quantifier")
            self.broken_definitions.update(cycle)

    def build_teams(self, players: Players) -> dict[int, tuple[tuple[int, ...], ...]]:
        node = self._node("teams")
        teams: dict[int, tuple[tuple[int, ...], ...]] = {}
        count = scalar(node.entries.get("count")) if isinstance(node, MappingNode) else None
        explicit = node.entries.get("by_players") if isinstance(node, MappingNode) else None
        for players_count in players.counts():
            if count:
                teams[players_count] = tuple(tuple(range(t, players_count, count)) for t in range(count))
            else:
                teams[players_count] = tuple((seat,) for seat in range(players_count))
        if isinstance(explicit, MappingNode):
            for key, layout in explicit.entries.items():
                path: Path = ("teams", "by_players", key)
                number = int(key)
                seats = [[scalar(seat) for seat in _items(team)] for team in _items(layout)]
                flat = sorted(seat for team in seats for seat in team)
                if number not in players.counts():
                    self.error("invalid-value", f"teams for {number} players, but the game is for "
                               f"{players.minimum} to {players.maximum}", layout, path)
                elif flat != list(range(number)):
                    missing = sorted(set(range(number)) - set(flat))
                    repeated = sorted({seat for seat in flat if flat.count(seat) > 1})
                    problems = [f"seat {s} is in no team" for s in missing]
                    problems += [f"seat {s} is in two teams" for s in repeated]
                    problems += [f"there is no seat {s}" for s in sorted(set(flat) - set(range(number)))]
                    self.error("invalid-value", f"the teams for {number} players must hold each seat 0 to "
                               f"{number - 1} exactly once: " + "; ".join(problems), layout, path,
                               hint=f"e.g. {[list(range(t, number, 2)) for t in range(2)]} for two teams")
                else:
                    teams[number] = tuple(tuple(team) for team in seats)
        if count and count > players.minimum and isinstance(node, MappingNode):
            self.error("invalid-value", f"{count} teams need at least {count} players, but the game allows "
                       f"{players.minimum}", node.entries["count"], ("teams", "count"),
                       hint="raise players.min, or give `by_players` layouts for the smaller tables")
        return teams

    # --- expressions -------------------------------------------------------------------------------------------

    def report_expression(self, error: ExpressionError, node: ScalarNode, path: Path) -> None:
        if isinstance(error, BudgetSpent) and error.repeated:
            return  # the first expression past the budget is reported; the ruleset is refused
        location = node.location_of(error.start, error.end) if isinstance(node.value, str) else node.location
        self.diagnostics.append(Diagnostic(error.code, error.message, location, yaml_path(path), error.hint,
                                           notes=self._defined_elsewhere(error, location)))

    def _defined_elsewhere(self, error: ExpressionError, location: Location | None) -> tuple[str, ...]:
        """For a definition's value of the wrong type used in another file (a variant's own definition in place
        of its base's, read by the base's rules; a base's definition misused by a variant): where the definition
        is written."""
        site = self.definition_sites.get(error.from_definition) if error.from_definition is not None else None
        if site is None:
            return ()
        node, path = site
        written = node.location
        if written is None or location is None or written.path == location.path:
            return ()
        return (f"`{error.from_definition}`, whose value this is, is defined at {written.path}:{written.line}:"
                f"{written.column} ({yaml_path(path)})",)

    def report_definition(self, error: DefinitionError) -> None:
        """An error in a definition's body, at the definition; a type error found while checking a use outside
        the definitions (the body is checked with each use's argument types: `using`) names that use too, which
        the body alone may not show."""
        name = error.definition.name
        key = (name, error.error.message)
        if key in self.reported_definitions:
            return
        self.reported_definitions.add(key)
        node, path = self.definition_sites[name]
        # (named only where the types came from that use: through definitions with parameters, which hand on
        # its arguments, not through one without, whose own constants they would be)
        if error.error.code == "type" and self.using is not None and error.definition.parameters and \
                all(outer.parameters for outer in error.through):
            used, used_path = self.using
            if used.location is not None and used_path and used_path[0] != "define":
                chain = "".join(f" through `{outer.name}`" for outer in error.through)
                where = f"checked with the types of its use{chain} at line {used.location.line} " \
                        f"({yaml_path(used_path)})"
                inner = self._inner_call(error)
                if inner is not None:  # (the call that handed those types on, inside the definition calling it)
                    outer_chain = "".join(f" through `{outer.name}`" for outer in error.through[:-1])
                    where = f"checked with the types of {inner}, used{outer_chain} at line {used.location.line} " \
                            f"({yaml_path(used_path)})"
                error.error.hint = f"{where}; {error.error.hint}" if error.error.hint else where
        self.report_expression(error.error, node, path)


    def _inner_call(self, error: DefinitionError) -> str | None:
        """The call of the failing definition inside the definition that called it, as `f(x)` at line N (in
        `g`), when it is known and written in that definition's text."""
        call = error.call
        if call is None or not error.through:
            return None
        caller = error.through[-1]
        site = self.definition_sites.get(caller.name)
        if site is None or not isinstance(site[0], ScalarNode) or not isinstance(site[0].value, str):
            return None
        location = site[0].location_of(call.start, call.end)
        return f"`{caller.text[call.start:call.end]}` at line {location.line} (in `{caller.name}`)"


def mentioned_names(tree: ast.Node) -> set[str]:
    """Every name and called function an expression mentions."""
    found: set[str] = set()
    pending = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Name):
            found.add(node.identifier)
        elif isinstance(node, ast.Call):
            found.add(node.function)
        pending.extend(ast.children(node))
    return found


def _uses(definition: Definition, definitions: dict[str, Definition]) -> set[str]:
    """The definitions a definition's body names or calls."""
    return mentioned_names(definition.body) & set(definitions)


def _find_cycle(start: str, uses: dict[str, set[str]]) -> list[str] | None:
    """A path start -> ... -> start through `uses`, if there is one."""
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        name, trail = stack.pop()
        for used in sorted(uses.get(name, ())):
            if used == start:
                return [*trail, start]
            if used not in seen:
                seen.add(used)
                stack.append((used, [*trail, used]))
    return None


def _items(node: Node | None) -> list[Node]:
    return node.items if isinstance(node, SequenceNode) else []


def zone_type(zone: ZoneSpec) -> Type:
    inner = list_of(MELD) if zone.kind == "melds" else CARDS
    return {"seat": per_seat, "team": per_team}.get(zone.owner, lambda t: t)(inner)


def variable_type(variable: VariableSpec) -> Type:
    inner = VARIABLE_TYPES[variable.type]
    if variable.optional:
        inner = optional(inner)
    if variable.by is not None:
        inner = per_key(inner, VARIABLE_TYPES[variable.by])
    return {"seat": per_seat, "team": per_team}.get(variable.per, lambda t: t)(inner)


def parameter_types(specs: dict[str, ParamSpec], values: dict[str, ParamValue]) -> dict[str, Parameter]:
    result = {}
    for name, spec in specs.items():
        kind = PARAM_TYPES[spec.type]
        # (typed by its value: an optional parameter given a value is read as one, its test for null allowed)
        unset = spec.optional and values.get(name, spec.default) is None
        result[name] = Parameter(optional(kind) if unset else kind, values.get(name), spec.choices, spec.optional)
    return result


def walk_named(items: list[Node]) -> Iterator[tuple[int, str, MappingNode]]:
    for index, item in enumerate(items):
        if isinstance(item, MappingNode):
            yield index, str(scalar(item.entries.get("name"))), item


__all__ = [
    "ANY",
    "CONTEXTUAL",
    "ENGINE_NAMES",
    "RulesetChecker",
    "Scope",
    "expression_text",
    "mentioned_names",
    "parameter_types",
    "scalar",
    "variable_type",
    "walk_named",
    "zone_type",
]
