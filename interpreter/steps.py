"""Checks every step, option and transition of the phases with the names each place binds: the scope of a
`decide` binds `player`, a `play` option binds `card`, a trick's `then` binds `winner`, and so on."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from interpreter.actions import KINDS
from interpreter.dsl import ast
from interpreter.dsl.operators import null_guards
from interpreter.dsl.types import ANY, BOOL, CARD, CARDS, INT, MELD, NUM, NUMBERS, SEAT, Type, list_of
from interpreter.errors import ExpressionError
from interpreter.model import VariableSpec, ZoneSpec, preference_flag
from interpreter.semantics import (
    RulesetChecker,
    Scope,
    expression_text,
    scalar,
    variable_type,
    zone_type,
)
from interpreter.sites import ExpressionSite
from interpreter.source import MappingNode, Node, ScalarNode, SequenceNode, yaml_path

Path = tuple[str | int, ...]


@dataclass
class StepChecker:
    checker: RulesetChecker
    site: ExpressionSite
    zones: dict[str, ZoneSpec]
    variables: dict[str, VariableSpec]
    deferring: bool = False  # inside a simultaneous round, whose choices' effects wait for every seat
    taking_back: bool = False  # inside a trick's `after_card`, where a `take_back` step may be
    # For each (choice, argument): whether its values are lists, where first seen (an action's text must read
    # back, so one name is not a list in one decision and a single value in another).
    listed: dict[tuple[str, str], tuple[bool, str]] = field(default_factory=dict)
    # Every place a step writes a variable (`set`, `change`, `transfer`, `random`, a clause's `record`): the
    # variable's name and the place's path (see interpreter/unchanging.py)
    writes: list[tuple[str, Path]] = field(default_factory=list)
    tricks: frozenset[str] = frozenset()  # the zones `trick` steps play into (their cards lie face up)

    # --- references to zones and variables ----------------------------------------------------------------

    def _reference(self, node: Node | None, path: Path, scope: Scope, kinds: dict[str, object],
                   what: str) -> tuple[str, Type] | None:
        """A zone or variable reference: `name`, `name[seat]`, or a bare per-seat name where `player` is bound."""
        if not isinstance(node, ScalarNode):
            return None
        text = expression_text(node)
        try:
            tree = self.checker.expressions.parse(text)
        except ExpressionError as error:
            self.checker.report_expression(error, node, path)
            return None
        key: ast.Node | None = None
        variable = self.variables.get(_root_name(tree)) if what == "variable" else None
        if variable is not None and variable.by is not None and isinstance(tree, ast.Index) and (
                variable.per == "table" or isinstance(tree.subject, ast.Index)):
            key, tree = tree.index, tree.subject  # a value per key (`by:`): `name[owner][key]`, `name[key]`
        base = tree.subject if isinstance(tree, ast.Index) else tree
        if not isinstance(base, ast.Name) or base.identifier not in kinds:
            name = base.identifier if isinstance(base, ast.Name) else text
            close = difflib.get_close_matches(name, list(kinds), n=1)
            hint = f"did you mean `{close[0]}`?" if close else (
                f"{what}s: " + ", ".join(kinds) if kinds else f"declare it under `{what}s:`")
            code = "unknown-zone" if what == "zone" else "unknown-variable"
            message = f"unknown {what} `{name}`"
            if not isinstance(base, (ast.Name, ast.Symbol, ast.Literal)):  # (`if c then a[player] else b[player]`)
                message = f"a {what} is named (`hand[player]`), not worked out by an expression"
                hint = f"write an `if` step for each {what} it may be" + \
                    (f" ({what}s: {', '.join(kinds)})" if kinds else "")
            if isinstance(base, ast.Name) and base.identifier in (self.zones if what == "variable"
                                                                   else self.variables):
                if what == "variable":
                    code, message = "not-assignable", f"`{name}` is a zone: only variables can be set"
                    hint = "move cards with `move:`; declare a variable under `variables:` to set a value"
                else:
                    message = f"`{name}` is a variable, not a zone"
                    hint = "zones: " + ", ".join(self.zones)
            self.checker.report_expression(ExpressionError(code, message, base.start, base.end, hint=hint),
                                           node, path)
            return None
        checked = self.site.check(node, path, scope, None, f"this {what}")
        if checked is None:
            return None
        if isinstance(tree, ast.Index):
            # The engine needs the owner apart from the zone or variable: compile the index on its own too.
            self.site.check_tree(tree.index, node, path, scope, suffix="#index")
        if key is not None:
            self.site.check_tree(key, node, path, scope, suffix="#key")
        elif variable is not None and variable.by is not None and checked[0].name == "per_key":
            where = f"{variable.name}[owner][key]" if variable.per != "table" else f"{variable.name}[key]"
            self.checker.error("not-assignable", f"`{variable.name}` has one value per key: a step sets one of them",
                               node, path, hint=f"name the key: `{where}`")
            return None
        return base.identifier, checked[0]

    def zone(self, node: Node | None, path: Path, scope: Scope, *, kind: str = "cards") -> str | None:
        found = self._reference(node, path, scope, dict(self.zones), "zone")
        if found is None:
            return None
        name, _ = found
        if self.zones[name].kind != kind:
            self.checker.error("type", f"zone `{name}` holds {self.zones[name].kind}, but {kind} are needed here",
                               node, path)
        return name

    def _every_table(self, node: Node | None) -> bool:
        """`to: melds` naming a zone of melds with one table per owner, and no owner: every owner's table."""
        name = scalar(node)
        zone = self.zones.get(str(name)) if isinstance(name, str) else None
        return zone is not None and zone.kind == "melds" and zone.owner != "table"

    def target(self, node: Node | None, path: Path, scope: Scope) -> Type | None:
        # A variable, or the dealer: a step may set who deals (a draw for the deal, a random dealer).
        found = self._reference(node, path, scope, {**self.variables, "dealer": None}, "variable")
        if isinstance(node, ScalarNode):
            self.writes.append((str(node.value).split("[", 1)[0].strip(), path))
        return found[1] if found else None

    def expression(self, node: Node | None, path: Path, scope: Scope, expected: Type | None = None,
                   what: str = "the expression") -> Type | None:
        checked = self.site.check(node, path, scope, expected, what)
        return checked[0] if checked else None

    # --- steps --------------------------------------------------------------------------------------------------

    def steps(self, node: Node | None, path: Path, scope: Scope) -> None:
        if isinstance(node, SequenceNode):
            for index, step in enumerate(node.items):
                if isinstance(step, MappingNode):
                    self.step(step, (*path, index), scope)

    def step(self, node: MappingNode, path: Path, scope: Scope) -> None:
        entries = node.entries
        # `repeat: true` beside `decide` is the decision's modifier, not the `repeat` verb.
        verb = "decide" if "decide" in entries else next(key for key in entries if hasattr(self, f"_step_{key}"))
        if verb in ("repeat", "for_each", "round", "turns", "trick", "decide", "move"):
            # Steps that run again, or run later: a name set anywhere inside may be null when they run.
            self.site.narrowed -= assigned_names(node)
        if verb == "decide" and self.deferring:
            # In a simultaneous round a choice's effects wait for the others: whatever follows may run first.
            outer, self.site.narrowed = self.site.narrowed, frozenset()
            self._step_decide(entries, path, scope)
            self.site.narrowed = outer
            return
        getattr(self, f"_step_{verb}")(entries, path, scope)

    def _step_set(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        kind = self.target(entries["set"], (*path, "set"), scope)
        variable = self.variables.get(str(scalar(entries["set"])).split("[")[0].strip())
        if variable is not None and variable.per == "table" and variable.by is None and \
                variable.type.startswith("list[") and _bare_name(entries["set"]) is None:
            self.checker.error("not-assignable", f"`{variable.name}` is a list: a `set` step sets it whole",
                               entries["set"], (*path, "set"),
                               hint=f"`set: {variable.name}` with `to:` the whole new list, e.g. "
                                    f"`{variable.name} + [...]`")
            return
        self.expression(entries["to"], (*path, "to"), scope, kind, "the new value")
        name = _bare_name(entries["set"])
        if name is not None:
            self.site.narrowed -= {name}  # it may be null again from here on

    def _step_change(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        kind = self.target(entries["change"], (*path, "change"), scope)
        if kind is not None and kind not in NUMBERS:
            self.checker.error("type", f"`change` adds to a number, but this variable is {kind}",
                               entries["change"], (*path, "change"), hint="use `set` and `to`")
        # A variable of whole numbers takes whole changes; a `num` one, fractions too.
        self.expression(entries["by"], (*path, "by"), scope, NUM if kind == NUM else INT, "the change")

    def _step_transfer(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        kinds = [self.target(entries[key], (*path, key), scope) for key in ("from", "to")]
        for key, kind in zip(("from", "to"), kinds, strict=True):
            if kind is not None and kind not in NUMBERS:
                self.checker.error("type", f"a transfer moves a number, but this variable is {kind}", entries[key],
                                   (*path, key))
        amount = NUM if all(kind == NUM for kind in kinds) else INT  # (a fraction only between two `num`s)
        self.expression(entries["transfer"], (*path, "transfer"), scope, amount, "the amount")

    def _step_move(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        amount = entries["move"]
        if scalar(amount) != "all":
            kind = self.expression(amount, (*path, "move"), scope, None, "what to move")
            if kind is not None and kind != INT and kind != CARDS and kind != list_of(ANY):
                self.checker.error("type", f"`move` takes `all`, a number of cards or a list of cards, not {kind}",
                                   amount, (*path, "move"))
            self._not_negative(amount, (*path, "move"), "cards moved")
        source = self.zone(entries["from"], (*path, "from"), scope)
        target = self.zone(entries["to"], (*path, "to"), scope)
        if source in self.tricks and target is not None and "face" not in entries and \
                self.zones[target].visibility != "public":
            self.checker.error("face-up-trick", f"the cards played to `{source}` lie face up, and a card keeps its "
                               f"face when it moves: moved to `{target}` without `face:`, they stay face up there, "
                               "seen by every seat", entries["to"], (*path, "to"), severity="warning",
                               hint="add `face: down` to gather the trick face down (or `face: up` to leave its "
                                    "cards seen)")
        self.steps(entries.get("when_empty"), (*path, "when_empty"), scope)

    def _not_negative(self, node: Node, path: Path, what: str) -> None:
        value = scalar(node)
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            self.checker.error("invalid-value", f"{value} {what}: a number of cards is never negative", node, path)

    def _step_turn(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        self.zone(entries["turn"], (*path, "turn"), scope)
        self.expression(entries.get("cards"), (*path, "cards"), scope, CARDS, "the cards to turn")

    def _step_shuffle(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        self.zone(entries["shuffle"], (*path, "shuffle"), scope)

    def _step_random(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        kind = self.target(entries["random"], (*path, "random"), scope)
        self.expression(entries["from"], (*path, "from"), scope, list_of(kind) if kind is not None else None,
                        "the values to pick from")
        self.expression(entries.get("weights"), (*path, "weights"), scope, list_of(INT), "the weights")
        name = _bare_name(entries["random"])
        if name is not None:
            self.site.narrowed -= {name}
        variable = self.variables.get(str(scalar(entries["random"])))
        if variable is not None and variable.visibility == "nobody":
            self.checker.error("invalid-value", f"`{variable.name}` is seen by nobody, but every seat is told what "
                               "a `random` step picks", entries["random"], (*path, "random"),
                               hint="shuffle the cards into a zone no one sees (`visibility: nobody`), then set the "
                                    "variable from it")

    def _step_deal(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        if scalar(entries["deal"]) != "all":  # (all: every card of `from`, shared out as far as it goes)
            self.expression(entries["deal"], (*path, "deal"), scope, INT, "the number of cards dealt")
            self._not_negative(entries["deal"], (*path, "deal"), "cards dealt to each seat")
        self.zone(entries["from"], (*path, "from"), scope)
        target = scalar(entries["to"])
        zone = self.zones.get(str(target))
        if zone is None or zone.owner != "seat":
            seat_zones = [name for name, z in self.zones.items() if z.owner == "seat"]
            close = difflib.get_close_matches(str(target), seat_zones, n=1)
            self.checker.error("unknown-zone", f"`deal` needs a zone with one per seat; `{target}` is not one",
                               entries["to"], (*path, "to"),
                               hint=f"did you mean `{close[0]}`?" if close else "per-seat zones: "
                               + (", ".join(seat_zones) or "none (declare one with `owner: seat`)"))
        self.expression(entries.get("seats"), (*path, "seats"), scope, list_of(SEAT), "the receivers")
        self.expression(entries.get("face_up"), (*path, "face_up"), {**scope, "receiver": SEAT, "round": INT},
                        BOOL, "`face_up`")

    def _step_if(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        checked = self.site.check(entries["if"], (*path, "if"), scope, BOOL, "the condition")
        tree = checked[1] if checked else None
        outer = self.site.narrowed
        # `if: x != null` (through `and`): `x` is not null in `then`; `if: x == null` (through `or`): in `else`.
        # Only parameters and variables on the table: a definition is worked out again at each use, and a bare
        # per-seat name reads whichever `player` is bound there.
        self.site.narrowed = outer | self._steady(null_guards(tree, "!=") if tree is not None else frozenset())
        self.steps(entries["then"], (*path, "then"), scope)
        self.site.narrowed = outer | self._steady(null_guards(tree, "==") if tree is not None else frozenset())
        self.steps(entries.get("else"), (*path, "else"), scope)
        self.site.narrowed = outer - assigned_names(entries["then"]) - assigned_names(entries.get("else"))

    def _steady(self, names: frozenset[str]) -> frozenset[str]:
        """The names whose value stays what a test saw until a `set` of them: parameters, table variables."""
        return frozenset(name for name in names if name.startswith("params.") or
                         (name in self.variables and self.variables[name].per == "table"))

    def _step_for_each(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        kind = self.expression(entries["for_each"], (*path, "for_each"), scope, None, "`for_each`")
        name = str(scalar(entries.get("as")) or "player")
        if "as" in entries:
            self._check_local_name(name, entries["as"], (*path, "as"), scope)
        element: Type = ANY
        if kind is not None and kind != ANY:  # (ANY: a value whose own error is reported already)
            if not kind.is_list:
                self.checker.error("type", f"`for_each` goes through a list, not {kind}", entries["for_each"],
                                   (*path, "for_each"))
            else:
                element = kind.element
                if name == "player" and element not in (SEAT, ANY):
                    self.checker.error("type", f"`for_each` over a list of {element} needs a name: add `as:`",
                                       entries["for_each"], (*path, "for_each"),
                                       hint=f"`player` is always a seat; e.g. `as: {self._item_name(element, scope)}`")
        if "as" not in entries and "player" in scope:
            self.checker.error("shadowed-player", "`for_each` without `as:` binds `player` to each item: the "
                               "steps inside it no longer see the `player` bound around it", entries["for_each"],
                               (*path, "for_each"), hint="name the items: `as: other`", severity="warning")
        inner = {**scope, name: element}
        self.expression(entries.get("where"), (*path, "where"), inner, BOOL, "`where`")
        self.steps(entries["do"], (*path, "do"), inner)

    def _check_listed(self, choice: str, name: str, value_type: Type, node: Node, path: Path) -> None:
        """A choice's argument whose values are lists: lists of cards, ranks, suits, seats, numbers or booleans
        (written with `+`), and a list wherever the choice takes that argument."""
        is_list = value_type.is_list
        if is_list and (value_type.element.is_list or value_type.element.name in ("str", "meld")):
            self.checker.error("type", f"a choice's values may be lists of cards, ranks, suits, seats, numbers or "
                               f"booleans, not of {value_type.element}", node, path,
                               hint="an action's text writes a list's items joined with `+`")
            return
        first = self.listed.setdefault((choice, name), (is_list, yaml_path(path)))
        if first[0] != is_list:
            self.checker.error("type", f"`{name}` of `choose: {choice}` takes "
                               f"{'lists' if is_list else 'single values'} here but "
                               f"{'lists' if first[0] else 'single values'} at {first[1]}", node, path,
                               hint="an action's text must read back alike: give one of them another name")

    def _item_name(self, element: Type, scope: Scope) -> str:
        """A name for the items of a list of `element` that hides nothing (`each_rank`, `each_team`)."""
        from interpreter.semantics import CONTEXTUAL, ENGINE_NAMES, KEYWORDS

        word = re.sub(r"\W+", "_", str(element)).strip("_") or "item"
        taken = {*self.zones, *self.variables, *self.site.environment.definitions, *KEYWORDS, *ENGINE_NAMES,
                 *CONTEXTUAL, *scope}
        name = f"each_{word}"
        return name if name not in taken else next((f"{name}_{n}" for n in range(2, 100) if f"{name}_{n}" not in taken),
                                                   "items")

    def _check_local_name(self, name: str, node: Node, path: Path, scope: Scope) -> None:
        """A name a step binds must not hide a zone, a variable, a definition or a name the engine binds."""
        from interpreter.semantics import CONTEXTUAL, ENGINE_NAMES, KEYWORDS

        what = ("a zone" if name in self.zones else "a variable" if name in self.variables
                else "a definition" if name in self.site.environment.definitions
                else "a word of the language" if name in KEYWORDS
                else "a name the engine binds" if name in ENGINE_NAMES or (name in CONTEXTUAL and name != "player")
                else "a name bound here already" if name in scope and name != "player" else None)
        if what is not None:
            self.checker.error("duplicate-name", f"`{name}` is {what}; a name a step binds would hide it",
                               node, path, hint=f"choose another name, e.g. `chosen_{name}`")

    def _step_repeat(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        if scalar(entries["repeat"]) == "while":
            if "while" not in entries:
                self.checker.error("schema", "`repeat: while` needs a `while:` condition", entries["repeat"],
                                   (*path, "repeat"))
            self.expression(entries.get("while"), (*path, "while"), scope, BOOL, "the condition")
        else:
            self.expression(entries["repeat"], (*path, "repeat"), scope, INT, "the number of repeats")
            if "while" in entries:
                self.checker.error("schema", "`while:` goes with `repeat: while`", entries["while"],
                                   (*path, "while"))
        self.steps(entries["do"], (*path, "do"), scope)

    def _step_round(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        self.expression(entries["round"], (*path, "round"), scope, SEAT, "the first seat of the round")
        inner = {**scope, "player": SEAT}
        self.expression(entries.get("where"), (*path, "where"), inner, BOOL, "`where`")
        simultaneous = entries.get("simultaneous")
        outer, self.deferring = self.deferring, self.deferring or scalar(simultaneous) is True
        self.steps(entries["do"], (*path, "do"), inner)
        self.deferring = outer
        if scalar(simultaneous) is True and decisions_per_pass(entries["do"]) > 1:
            self.checker.error(
                "unsupported", "in a simultaneous round each seat decides once: the effects of its choice wait "
                "until every seat has chosen, so a second decision would not see them", simultaneous,
                (*path, "simultaneous"),
                hint="decide once (a `choose` with `args:` can hold several choices), or drop `simultaneous`")

    def _step_turns(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        self.expression(entries["turns"], (*path, "turns"), scope, SEAT, "the seat that takes the first turn")
        self.expression(entries["until"], (*path, "until"), scope, BOOL, "`until`")
        inner = {**scope, "player": SEAT}
        self.expression(entries.get("where"), (*path, "where"), inner, BOOL, "`where`")
        self.steps(entries["do"], (*path, "do"), inner)

    def _step_decide(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        self.expression(entries["decide"], (*path, "decide"), scope, SEAT, "the deciding seat")
        self.expression(entries.get("by"), (*path, "by"), {**scope, "player": SEAT}, SEAT,
                        "the seat that decides for `player`")
        inner = {**scope, "player": SEAT}
        options = entries["options"]
        assert isinstance(options, SequenceNode)
        ends = False
        for index, option in enumerate(options.items):
            if isinstance(option, MappingNode):
                self.option(option, (*path, "options", index), inner)
                ends = ends or scalar(option.entries.get("ends")) is True or isinstance(scalar(option.entries.get(
                    "ends")), str)
        if scalar(entries.get("repeat")) is True and not ends:
            self.checker.error("no-end", "a repeated decision needs an option with `ends: true`", entries["decide"],
                               (*path, "decide"), hint="mark the option that finishes the turn, e.g. the discard")
        if scalar(entries.get("repeat")) is True:
            self._check_choices_change_something(options, path)
        self._check_secrets_kept(options, path)

    def _check_choices_change_something(self, options: SequenceNode, path: Path) -> None:
        """A choice of a repeated decision with no steps and no `ends`: choosing it changes nothing, and the same
        seat decides again (a `done` whose `ends: true` was left out; a warning, as a decision may mean it)."""
        for index, option in enumerate(options.items):
            if not isinstance(option, MappingNode) or "choose" not in option.entries or "ends" in option.entries:
                continue
            steps = option.entries.get("do")
            if isinstance(steps, SequenceNode) and steps.items:
                continue
            name = scalar(option.entries["choose"])
            self.checker.error(
                "choice-changes-nothing", f"the choice `{name}` has no steps and no `ends`: in a decision with "
                "`repeat: true`, choosing it changes nothing and the same seat decides again",
                option.entries["choose"], (*path, "options", index, "choose"), severity="warning",
                hint="give it `ends: true` if it finishes the seat's turn, or the steps it stands for in `do`")

    def _check_secrets_kept(self, options: SequenceNode, path: Path) -> None:
        """A secret choice beside an option that is not secret: the others see `p1 chooses` for the one and the
        whole action for the other, so they learn which was taken (a warning: that may be meant)."""
        mappings = [(index, option) for index, option in enumerate(options.items) if isinstance(option, MappingNode)]
        secret = [(index, option) for index, option in mappings if scalar(option.entries.get("secret")) is True]
        if not secret or len(secret) == len(mappings):
            return
        index, option = secret[0]
        shown = next(other for _, other in mappings if scalar(other.entries.get("secret")) is not True)
        verb = next((key for key in KINDS if key in shown.entries), "option")
        name = scalar(shown.entries[verb]) if verb in shown.entries else ""
        self.checker.error(
            "secret-mixed", f"the secret choice `{scalar(option.entries['choose'])}` sits beside `{verb} {name}`, "
            "which is not secret: the other seats see which of them was taken", option.entries["secret"],
            (*path, "options", index, "secret"),
            hint="make every option of the decision secret, if which one was taken is to stay hidden too",
            severity="warning")

    def option(self, node: MappingNode, path: Path, scope: Scope) -> None:
        entries = node.entries
        inner = dict(scope)
        if "choose" in entries:
            arguments = entries.get("args")
            if isinstance(arguments, MappingNode):
                for name, values in arguments.entries.items():
                    key = ScalarNode(arguments.key_locations[name], name)  # (the finding points at the name)
                    self._check_local_name(name, key, (*path, "args", name), scope)
                    kind = self.expression(values, (*path, "args", name), scope, None, "the values of an argument")
                    if kind is not None and not kind.is_list:
                        self.checker.error("type", f"an argument's values are a list, not {kind}", values,
                                           (*path, "args", name), hint="e.g. `numbers(0, 5)`")
                    inner[name] = kind.element if kind is not None and kind.is_list else ANY
                    self.site.types[yaml_path((*path, "args", name))] = inner[name]  # how actions show it
                    self._check_listed(str(scalar(entries["choose"])), name, inner[name], key,
                                       (*path, "args", name))
        for verb in ("play", "discard"):
            if verb in entries:
                self.zone(entries[verb], (*path, verb), scope)
                inner["card"] = CARD
        for verb in ("draw", "take"):
            if verb in entries:
                self.zone(entries[verb], (*path, verb), scope)
                inner["cards"] = CARDS
        if "meld_top" in entries:  # the pile's top card laid at once: the meld it lies in, and the new melds
            if "take" in entries:
                self.zone(entries["meld_top"], (*path, "meld_top"), scope, kind="melds")
                if "depth" in entries:
                    self.checker.error("schema", "`meld_top` takes the whole pile, its top card melded: no `depth`",
                                       entries["depth"], (*path, "depth"))
                inner["after"] = MELD
                inner["laid"] = list_of(MELD)
            else:
                self.checker.error("schema", "`meld_top` goes with `take`: the pile is taken by melding its top card",
                                   entries["meld_top"], (*path, "meld_top"),
                                   hint="write `take: PILE` with `meld_top: MELDS` to take a pile by melding its top "
                                   "card")
        several = self._melds_at_once(entries, path)
        for verb in ("meld", "add"):
            if verb in entries:
                self.zone(entries[verb], (*path, verb), scope)
                inner["cards"] = CARDS
                if several:
                    inner["laid"] = list_of(MELD)  # the new melds, in the order the action lays them
                else:
                    inner["after"] = MELD  # the meld as it will be after the action
                if verb == "add":
                    inner["meld"] = MELD  # the meld as it is
        if "add" in entries and self._every_table(entries.get("to")):
            pass  # `to: melds`: every owner's table of melds
        elif "to" in entries:
            self.zone(entries["to"], (*path, "to"), scope,
                      kind="melds" if "meld" in entries or "add" in entries else "cards")
        if "depth" in entries and "take" not in entries:
            self.checker.error("schema", "`depth` goes with `take`", entries["depth"], (*path, "depth"))
        candidate: str | None = "melds" if several else next(
            (verb for verb in ("play", "discard", "meld", "add") if verb in entries), None)
        arguments = entries.get("args") if "choose" in entries else None
        names = list(arguments.entries) if isinstance(arguments, MappingNode) else []
        if names and not any(inner[name].is_list and inner[name].element.is_list for name in names):
            # A choice's clauses are tested over every combination of its arguments' values (tuples: a list
            # value is frozen in the action, thawed for the rules).
            self.clauses(entries.get("legal"), (*path, "legal"), inner, "choose", [
                (name, inner[name].is_list) for name in names])
        else:
            self.clauses(entries.get("legal"), (*path, "legal"), inner, candidate)
        self.steps(entries.get("do"), (*path, "do"), inner)
        if isinstance(scalar(entries.get("ends")), str):  # worked out after the option's steps
            self.expression(entries["ends"], (*path, "ends"), inner, BOOL, "`ends`")

    def _melds_at_once(self, entries: dict[str, Node], path: Path) -> bool:
        """Whether a `meld` option lays several melds at once (`at_once` above 1); `at_once` on another option is
        an error."""
        at_once = entries.get("at_once")
        if at_once is None:
            return False
        if "take" in entries and "meld_top" in entries:
            return False  # (the melds of a pile taken by melding its top card: `laid`, tested one by one)
        if "meld" not in entries:
            self.checker.error("schema", "`at_once` goes with `meld` (or a `take` with `meld_top`): an addition is one "
                               "card to one meld", at_once, (*path, "at_once"),
                               hint="lay several melds with `meld: hand` and `at_once: 3`; add cards one action at "
                               "a time")
            return False
        return isinstance(scalar(at_once), int) and scalar(at_once) > 1

    def clauses(self, node: Node | None, path: Path, scope: Scope, candidate: str | None = None,
                arguments: list[tuple[str, bool]] | None = None) -> None:
        """An option's legality clauses; `candidate` is its verb (what each candidate action binds); for a choice,
        `arguments` are its arguments' names, each with whether its values are lists."""
        if not isinstance(node, SequenceNode):
            return
        prefers: set[int] = set()
        for index, clause in enumerate(node.items):
            if isinstance(clause, MappingNode):
                if "prefer" in clause.entries:
                    self.preference(clause.entries["prefer"], (*path, index, "prefer"), scope, candidate, index)
                    prefers.add(index)
                else:
                    self.expression(clause.entries.get("rule"), (*path, index, "rule"), scope, BOOL,
                                    "a legality rule")
                self.expression(clause.entries.get("breakable"), (*path, index, "breakable"), scope, BOOL,
                                "`breakable`")
                reason = clause.entries.get("reason")
                if isinstance(reason, ScalarNode) and isinstance(reason.value, str) and \
                        _TEMPLATE_LIKE.search(reason.value):
                    self.checker.error("reason-template", "a reason is plain text: `{...}` in it is shown as "
                                       "written, not worked out", reason, (*path, index, "reason"),
                                       hint="say the rule in words; a value the player needs can be shown under "
                                            "`show:`", severity="warning")
                record = clause.entries.get("record")
                if record is not None:
                    kind = self.target(record, (*path, index, "record"), scope)
                    if kind is not None and kind not in (BOOL, INT):
                        self.checker.error("type", f"`record` marks a bool or counts in an int, not {kind}", record,
                                           (*path, index, "record"), hint="declare a bool or int variable to record it")
                    if "breakable" not in clause.entries:
                        self.checker.error("schema", "`record` goes with `breakable`", record,
                                           (*path, index, "record"))
        # One function testing every clause over all the candidates (see Program.add_filter).
        paths = [yaml_path((*path, index, "prefer" if index in prefers else "rule"))
                 for index in range(len(node.items))]
        if candidate in ("play", "discard"):  # each card
            self.site.filter(paths, yaml_path(path) + "#filter", "card", prefers=frozenset(prefers))
        elif candidate == "add":  # (the meld, the card, the meld after, ...) for each addition
            self.site.filter(paths, yaml_path(path) + "#filter", "after",
                             "B['meld'] = item[0]; B['cards'] = [item[1]]; B['after'] = item[2]")
        elif candidate == "meld":  # each new meld
            self.site.filter(paths, yaml_path(path) + "#filter", "after",
                             "B['after'] = item; B['cards'] = list(item.cards)")
        elif candidate == "melds":  # (the new melds, ...) for each group of melds laid at once
            self.site.filter(paths, yaml_path(path) + "#filter", "laid",
                             "B['laid'] = list(item[0]); B['cards'] = [c for m in item[0] for c in m.cards]")
        elif candidate == "choose" and arguments:  # a combination of the arguments' values for each action
            binding = "; ".join(f"B[{name!r}] = " + (f"list(item[{index}])" if listed else f"item[{index}]")
                                for index, (name, listed) in enumerate(arguments))
            self.site.filter(paths, yaml_path(path) + "#filter", arguments[0][0], binding)

    def preference(self, node: Node, path: Path, scope: Scope, candidate: str | None, index: int) -> None:
        """A preference (`prefer:`): a test of each card of a `play` or `discard` option (a trick's included), and
        the rule it is tested by card by card, `not <flag> or <test>` (see engine/program.py, Clause.prefers)."""
        if candidate not in ("play", "discard"):
            self.checker.error("schema", "`prefer` narrows the cards of a `play` or `discard` option (or a trick's "
                               "cards): here there are no cards to prefer", node, path,
                               hint="write the clause as a `rule:`")
            return
        checked = self.site.check(node, path, scope, BOOL, "a preference")
        if checked is None:
            return
        test = checked[1]
        if "card" not in self.site.checked[yaml_path(path)][1].used_context:  # (itself, or a definition it uses)
            self.checker.error("type", "a preference tests each card: it reads `card` (the card it keeps or not)",
                               node, path, hint="e.g. `prefer: card.suit == first(trick).suit` (follow suit when "
                               "able); a test that reads no card is a `rule:`")
            return
        flag = preference_flag(index)
        assert isinstance(node, ScalarNode)  # (checked: an expression's node)
        rule = ast.Binary(test.start, test.end, "or", ast.Unary(test.start, test.start, "not",
                                                                ast.Name(test.start, test.start, flag)), test)
        self.site.check_tree(rule, node, path, {**scope, flag: BOOL}, suffix="#rule")

    def _step_trick(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        self.zone(entries["trick"], (*path, "trick"), scope)
        self.expression(entries["leader"], (*path, "leader"), scope, SEAT, "the leader")
        playing = {**scope, "player": SEAT}
        self.expression(entries.get("players"), (*path, "players"), playing, BOOL, "`players`")
        self.expression(entries.get("by"), (*path, "by"), playing, SEAT, "the seat that plays for `player`")
        source = scalar(entries.get("from")) or "hand"
        zone = self.zones.get(str(source))
        if zone is None or zone.owner != "seat":
            self.checker.error("unknown-zone", f"a trick is played from a per-seat zone; `{source}` is not one",
                               entries.get("from") or entries["trick"], (*path, "from"),
                               hint="name a zone with `owner: seat`, such as `hand`")
        self.clauses(entries["legal"], (*path, "legal"), {**playing, "card": CARD, "to_play": INT}, "play")
        winning, beats = entries.get("winning_card"), entries.get("beats")
        if (winning is None) == (beats is None):
            self.checker.error("schema", "a trick gives `winning_card` or `beats`, not both" if beats is not None
                               else "a trick needs `winning_card` or `beats` (one of the two)",
                               beats or entries["trick"], (*path, "beats" if beats is not None else "trick"),
                               hint="`winning_card` names the card that wins a finished trick; `beats` says whether "
                                    "`card` takes the trick from `winning`, the card winning it so far")
        self.expression(winning, (*path, "winning_card"), scope, CARD, "the winning card")
        self.expression(beats, (*path, "beats"), {**scope, "card": CARD, "winning": CARD}, BOOL, "`beats`")
        self.steps(entries.get("then"), (*path, "then"), {**scope, "winner": SEAT})
        outer, self.taking_back = self.taking_back, True
        self.steps(entries.get("after_card"), (*path, "after_card"), {**playing, "card": CARD})
        self.taking_back = outer
        self.expression(entries.get("count"), (*path, "count"), scope, INT, "the number of tricks")
        self.expression(entries.get("until"), (*path, "until"), scope, BOOL, "`until`")

    def _step_form_team(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        self.expression(entries["form_team"], (*path, "form_team"), scope, list_of(SEAT), "the seats of the team")

    def _step_seating(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        checked = self.site.check(entries["seating"], (*path, "seating"), scope, list_of(SEAT),
                                  "the seats in their new places")
        if checked is not None and isinstance(checked[1], ast.ListDisplay):  # seats written as numbers: seen now
            written = [item.value for item in checked[1].items if isinstance(item, ast.Literal)]
            twice = sorted({seat for seat in written if written.count(seat) > 1}, key=str)
            if twice:
                self.checker.error("invalid-value", f"a seating lists every seat once; this one lists "
                                   f"{', '.join(f'p{seat}' for seat in twice)} more than once", entries["seating"],
                                   (*path, "seating"), hint="list the seats clockwise from place 0, each once")

    def _step_take_back(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        if not self.taking_back or self.deferring:
            self.checker.error("unsupported", "`take_back` takes back the card just played to a trick: it is a step "
                               "of a trick's `after_card`", entries["take_back"], (*path, "take_back"),
                               hint="write it in the `after_card` steps of a `trick` (not in a simultaneous round)")

    def _step_end(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        pass  # (`hand` or `match`: the schema checks it)

    def _step_log(self, entries: dict[str, Node], path: Path, scope: Scope) -> None:
        self.site.template(entries["log"], (*path, "log"), scope)


_BARE_NAME = re.compile(r"\s*([a-z_][a-z0-9_]*)\s*")
# `{total}`, `{3}` in a reason, as in a log line (not `{AS, KS}`: cards written as a set)
_TEMPLATE_LIKE = re.compile(r"\{[^{}]*[a-z_][^{}]*\}|\{\s*-?[0-9]+\s*\}")


def _root_name(tree: ast.Node) -> str:
    """The name an indexed reference starts with (`score` in `score[t][k]`), or ""."""
    while isinstance(tree, ast.Index):
        tree = tree.subject
    return tree.identifier if isinstance(tree, ast.Name) else ""


def _bare_name(node: Node | None) -> str | None:
    """The variable a `set` target names as a whole (`out`, not `score[p]`)."""
    if isinstance(node, ScalarNode) and isinstance(node.value, str):
        found = _BARE_NAME.fullmatch(node.value)
        return found[1] if found else None
    return None


def assigned_names(node: Node | None) -> frozenset[str]:
    """The variables a `set` step anywhere in these steps assigns as a whole (`set: out`)."""
    found: set[str] = set()
    pending = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, MappingNode):
            name = _bare_name(item.entries.get("set"))
            if name is not None:
                found.add(name)
            pending.extend(item.entries.values())
        elif isinstance(item, SequenceNode):
            pending.extend(item.items)
    return frozenset(found)


def decisions_per_pass(node: Node | None) -> int:
    """The most decisions one run through these steps may ask of a seat (2 stands for "more than one")."""
    total = 0
    for item in node.items if isinstance(node, SequenceNode) else []:
        if not isinstance(item, MappingNode):
            continue
        entries = item.entries
        if "decide" in entries:
            options = entries["options"].items if isinstance(entries["options"], SequenceNode) else []
            after = max((decisions_per_pass(o.entries.get("do")) for o in options if isinstance(o, MappingNode)),
                        default=0)
            total += 2 if scalar(entries.get("repeat")) is True else 1 + after
        elif "if" in entries:
            total += max(decisions_per_pass(entries.get("then")), decisions_per_pass(entries.get("else")))
        elif "trick" in entries:
            total += 2
        elif any(loop in entries for loop in ("repeat", "for_each", "round", "turns")):
            total += 2 * decisions_per_pass(entries.get("do"))
        elif "move" in entries:
            total += decisions_per_pass(entries.get("when_empty"))
    return min(total, 2)


def variable_scope(variables: dict[str, VariableSpec], zones: dict[str, ZoneSpec]) -> Scope:
    scope: Scope = {name: zone_type(zone) for name, zone in zones.items()}
    scope.update({name: variable_type(variable) for name, variable in variables.items()})
    return scope


def trick_zones(tree: MappingNode) -> frozenset[str]:
    """The zones that `trick:` steps play into, anywhere in the hand."""
    found: set[str] = set()
    pending: list[Any] = [tree.entries.get("hand"), tree.entries.get("procedures")]
    while pending:
        node = pending.pop()
        if isinstance(node, MappingNode):
            trick = node.entries.get("trick")
            if isinstance(trick, ScalarNode) and isinstance(trick.value, str):
                found.add(trick.value)
            pending.extend(node.entries.values())
        elif isinstance(node, SequenceNode):
            pending.extend(node.items)
    return frozenset(found)
