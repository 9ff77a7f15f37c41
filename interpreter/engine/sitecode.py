"""The code of a decision site, specialised: a decision's own legal-set function (one play or discard of the
cards its clauses allow, or choices tested one by one) and the movement of a card played or discarded, written
in place of the general search (decisions.py) and movement (Cards.perform)."""

from __future__ import annotations

import ast
import math
from typing import Any

from interpreter.actions import frozen
from interpreter.engine.program import Option, Ref
from interpreter.engine.segments import SegmentWriter

MOST_MADE_AHEAD = 1_000  # the most actions of a choice made for every seat when the game is built (see
# `SiteWriter.constant_choices`)


class SiteWriter(SegmentWriter):
    def __init__(self, max_steps: int, unique_cards: bool) -> None:
        super().__init__(max_steps)
        self.unique_cards = unique_cards
        self.placing = False  # whether the seat that plays or discards each card is kept (`placed_by`)
        self.finders: list[str] = []  # the decisions' own legal-set functions, written after the segments
        self.most_players = 0  # how many seats a table of the game may have (set by the hand's compiler)
        self.choice_tables: dict[str, str] = {}  # a choice with no arguments -> its table of actions by seat

    def moves_one_card(self, options: tuple[Option, ...]) -> bool:
        """Whether a decision is one play, discard or draw between zones found without evaluating an expression:
        its card's movement is then written in place (`move_card`)."""
        return len(options) == 1 and self.moves_its_card(options[0])

    @staticmethod
    def moves_its_card(option: Option) -> bool:
        """Whether an option plays, discards or draws a card between zones found without evaluating an expression
        (the table's, or the deciding seat's): its movement can be written in place (`move_card`)."""
        return option.kind in ("play", "discard", "draw") and option.meld_top is None and all(
            ref is not None and (ref.owner is None or ref.owner_name == "player")  # (the seat deciding)
            for ref in (option.source, option.destination))

    def move_card(self, option: Option, indent: int = 0) -> None:
        """The movement of a card played, discarded or drawn (`_a`, bound names `_b`), as Cards.perform makes
        it: a card played lands face up, a card discarded or drawn keeps its face, unless the option's `face` says
        (a draw: `draw_card`)."""
        assert option.source is not None and option.destination is not None
        # (the zones are the deciding seat's or the table's: every decision binds `player`, read once)
        self.code("_player = _b['player']", indent)
        source, source_key = self.ref_code(option.source, "_b", "_player")
        target, target_key = self.ref_code(option.destination, "_b", "_player")
        if option.kind == "draw":
            self.draw_card(option, indent, source, source_key, target, target_key)
            return
        self.code("_card = _a.card", indent)
        if self.unique_cards:  # (the one card of its value)
            self.code(f"{source}.remove(_card)", indent)
        else:  # (the last of the cards of its value, as Cards.perform takes it)
            self.code(f"_from = {source}", indent)
            self.code("if _from[-1] == _card:", indent)
            self.code("_from.pop()", indent + 1)
            self.code("else:", indent)
            self.code("del _from[len(_from) - 1 - _from[::-1].index(_card)]", indent + 1)
        face = option.face
        up = face == "up" or (face is None and option.kind == "play")  # (else it keeps its face, or lands face down)
        self.code("_face_up = S.face_up.cards", indent)  # (a card face up in the source is rare: looked for first)
        if face is None and not up:  # (whether it was face up matters)
            self.code(f"_up = _card in _face_up.get({source_key}, ()) and S.face_up.take({source_key}, _card) "
                      "if _face_up else False", indent)
        else:
            self.code(f"if _face_up and _card in _face_up.get({source_key}, ()):", indent)
            self.code(f"S.face_up.take({source_key}, _card)", indent + 1)
        self.code(f"{target}.append(_card)", indent)
        if self.placing:  # (who put the card there: the seat whose card it is)
            self.code("V['_placed'][_card] = _b['player'] if 'player' in _b else _a.seat", indent)
        if up:
            self.code(f"_face_up.setdefault({target_key}, []).append(_card)", indent)
        elif face is None:
            self.code("if _up:", indent)
            self.code(f"_face_up.setdefault({target_key}, []).append(_card)", indent + 1)

    def draw_card(self, option: Option, indent: int, source: str, source_key: str, target: str,
                  target_key: str) -> None:
        """The top card of the source drawn, as Cards.perform draws it: it keeps its face unless the option's
        `face` says; `_taken`, the cards drawn (none from an empty source), for the option's steps."""
        self.code(f"_from = {source}", indent)
        self.code("_taken = _from[-1:]", indent)
        self.code("if _taken:", indent)
        self.code("_card = _from.pop()", indent + 1)
        self.code("_face_up = S.face_up.cards", indent + 1)
        self.code(f"_up = _card in _face_up.get({source_key}, ()) and S.face_up.take({source_key}, _card) "
                  "if _face_up else False", indent + 1)
        self.code(f"{target}.append(_card)", indent + 1)
        if option.face == "up":
            self.code(f"_face_up.setdefault({target_key}, []).append(_card)", indent + 1)
        elif option.face is None:
            self.code("if _up:", indent + 1)
            self.code(f"_face_up.setdefault({target_key}, []).append(_card)", indent + 2)

    def ref_code(self, ref: Ref, bindings: str, player: str | None = None) -> tuple[str, str]:
        """Code for a zone's cards and its key, with no line of its own (an owner that must be evaluated is
        evaluated again each time the code is used); `player`: a local holding the bound `player`, for a zone of
        the seat deciding."""
        name = repr(ref.name)
        if ref.on_table:
            return f"V[{name}]", f"({name}, -1)"
        deciding = ref.owner_name == "player" or (ref.owner_name is None and ref.owner is None)
        owner = player if player is not None and deciding else self.owner_code(ref, bindings)
        return f"V[{name}][{owner}]", f"({name}, {owner})"

    def owner_code(self, ref: Ref, bindings: str, scratch: bool = False) -> str:
        """Code for the owner of a zone that has one: the name it is read from, its expression (with `scratch`,
        keeping what it works out in the scratch bindings `B`, as `scratch_expr`), or the bound `player`."""
        if ref.owner_name == "player":  # (the bindings are a decision's, and every decision binds `player`)
            return f"{bindings}['player']"
        if ref.owner_name is not None:
            return f"({bindings}[{ref.owner_name!r}] if {ref.owner_name!r} in {bindings} else V[{ref.owner_name!r}])"
        if ref.owner is not None:
            return self.scratch_expr(ref.owner) if scratch else self.expr(ref.owner, bindings)
        return f"{bindings}['player']"

    def finder(self, options: tuple[Option, ...]) -> str:
        """The name of a decision's own legal-set function, for a single play or discard of any card its rules
        allow (the common decision of card games); `None` (the general search) otherwise."""
        if any(option.breakable for option in options):
            return "None"  # (an action that breaks a clause is offered marked: the general search does it)
        if all(option.kind == "choose" and (not (option.arguments and option.clauses) or option.choice_filter)
               for option in options):
            return self.choice_finder(options)
        option = options[0]
        if len(options) != 1 or option.kind not in ("play", "discard") or option.source is None or (
                option.clauses and option.card_filter is None):
            return self.options_finder(options) if all(map(_written, options)) else "None"
        name = f"legal_{len(self.finders)}"
        cards, _ = self.ref_code(option.source, "B")
        if not self.unique_cards:
            cards = f"list(dict.fromkeys({cards}))"
        finish = f"list(map(_action_of, {{}})), {self.name_of(option, 'O')}"
        if option.clauses:  # (the filter's own code run in place, each of its returns the legal set)
            self.adopt(option.card_filter)
            source: str = option.card_filter.filter_source  # type: ignore[union-attr]  # (see Program.build)
            body = _filter_in_place(source, finish, "        ")
            # (a filter that may change the bindings it is given works on a copy: the decision's are read again)
            bindings = "dict(P.bindings)" if getattr(option.card_filter, "changes_bindings", True) else "P.bindings"
        else:
            body, bindings = f"        return {finish.format('items')}\n", "P.bindings"
        self.finders.append(
            f"def {name}(S, P):\n"
            f"    V = S.values\n"
            f"    B = {bindings}\n"
            f"    _action_of = {option.kind.upper()}_OF[P.seat]\n"
            f"    try:\n"
            f"        items = {cards}\n"
            f"{body}"
            f"    except Exception:  # the general search names the failure\n"
            f"        return GENERIC_LEGAL(S, P)\n")
        return name

    def choice_finder(self, options: tuple[Option, ...]) -> str:
        """A decision's own legal-set function when it is made of choices: with rules and no arguments, with
        arguments and no rules (every combination), or with rules over their arguments, tested over every
        combination at once by the option's filter (`Option.choice_filter`), as the general search does."""
        name = f"legal_{len(self.finders)}"
        lines = [f"def {name}(S, P):", "    V = S.values", "    B = dict(P.bindings)  # (definitions worked out "
                 "once for every choice are kept in it)"]
        handed_over = ["    except Exception:  # the general search names the failure",
                       "        return GENERIC_LEGAL(S, P)"]
        option = options[0]
        if len(options) == 1 and option.arguments and not option.clauses:  # every combination, each once: no dict
            constant = self.name_of(option, "O")
            table = self.constant_choices(option, as_dict=False)
            if table is not None:  # (the same actions at every decision: a seat's list, read in place)
                self.finders.append(f"def {name}(S, P):\n    return {table}[P.seat], {constant}\n")
                return name
            subsets = self.subsets_actions_code(option)
            if subsets is not None:  # (each choice once, as tuples: no list to freeze, no repeat to leave out)
                lines += ["    try:", f"        return {subsets}, {constant}", *handed_over]
                self.finders.append("\n".join([*lines, ""]))
                return name
            values = ", ".join(self.frozen_values(expression) for _, expression in option.arguments)
            lines += ["    try:", f"        _values = ({values},)",
                      f"        return {self.choices(option, '_values')}, {constant}", *handed_over]
        else:
            lines += ["    _found = {}", "    try:"]
            for option in options:
                lines += self.choice_lines(option)
            lines += [*handed_over, "    return list(_found), _found"]
        self.finders.append("\n".join([*lines, ""]))
        return name

    def choice_lines(self, option: Option) -> list[str]:
        """The lines of a legal-set function that offer one choice's actions (see `choice_finder`)."""
        constant = self.name_of(option, "O")
        if not option.arguments:
            rules = " and ".join(self.scratch_expr(clause.rule) for clause in option.clauses) or "True"
            table = self.choice_table(option.name)
            return [f"        if {rules}:", f"            _found[{table}[P.seat]] = {constant}"]
        if not option.clauses:
            made = self.constant_choices(option, as_dict=True)
            if made is not None:  # (each action with its option, made once: a seat's dict, merged in C)
                return [f"        _found.update({made}[P.seat])"]
            made = self.subsets_actions_code(option)
            if made is not None:
                return [f"        _found.update(dict.fromkeys({made}, {constant}))"]
        values = ", ".join(self.frozen_values(expression) for _, expression in option.arguments)
        if not option.clauses:
            return [f"        _values = ({values},)",
                    f"        _found.update(dict.fromkeys({self.choices(option, '_values')}, {constant}))"]
        names = tuple(name for name, _ in option.arguments)
        if not any(set(names) & getattr(clause.rule.function, "uses", set(names)) for clause in option.clauses):
            # Rules that read no argument: tested once, when there are values to offer (as the filter tests them,
            # at its first combination), after the values are worked out (as the general search works them out)
            rules = " and ".join(self.scratch_expr(clause.rule) for clause in option.clauses)
            local = f"_values_{len(names)}"
            return [f"        {local} = ({values},)",
                    f"        if all({local}) and {rules}:" if len(names) > 1 else
                    f"        if {local}[0] and {rules}:",
                    f"            _found.update(dict.fromkeys({self.choices(option, local)}, {constant}))"]
        # (in a copy of the bindings: an argument such as `player` must keep its value for the options after it)
        allowed = f"{self.name_of(option.choice_filter, 'F')}(V, dict(B), list(PRODUCT({values})))"
        arguments = "".join(f"({name!r}, _values[{index}]), " for index, name in enumerate(names))
        return [f"        for _values in {allowed}:",
                f"            _found[CHOICE(P.seat, {option.name!r}, ({arguments}))] = {constant}"]

    def choices(self, option: Option, values: str) -> str:
        """Code for a choice's actions for the arguments' values `values` (code, a tuple of each argument's):
        the list the game keeps for them read in place, and made (`Game.choice_actions`) when there is none; a
        choice whose arguments are lists (subsets of a hand) is made each time, and not looked for."""
        constant = self.name_of(option, "O")
        made = f"CHOICES(P.seat, {constant}, {values})"
        if not all(expression.flat_values or getattr(expression.function, "constant_list", None) is not None
                   for _, expression in option.arguments):
            return made
        return f"(CHOICE_LISTS.get((P.seat, {option.where!r}, {values})) or {made})"

    def constant_choices(self, option: Option, as_dict: bool) -> str | None:
        """The name of a table, by seat, of a choice's actions when the values of each of its arguments are the
        same at every decision (`numbers(0, params.max_discard)`): the game's own actions (`Game.choice_actions`),
        made here once for every seat, as a list, or `as_dict` with the option of each (a legal set's dict takes
        them with their hashes, with no hash worked out again); `None` for other arguments, for values that are
        lists (made each time: see `Game.choice_actions`), and for more than MOST_MADE_AHEAD actions (made when
        a decision first offers them, as for other arguments: a decision never reached costs nothing)."""
        constants = [getattr(expression.function, "constant_list", None) for _, expression in option.arguments]
        if any(constant is None for constant in constants):
            return None
        values = tuple(frozen(constant[0]) for constant in constants if constant is not None)
        if any(listed and listed[0].__class__ is tuple for listed in values):
            return None
        if math.prod(len(listed) for listed in values) > MOST_MADE_AHEAD:
            return None
        make = self.namespace["CHOICES"]
        actions = [make(seat, option, values) for seat in range(self.most_players)]
        return self.name_of([dict.fromkeys(made, option) for made in actions] if as_dict else actions, "K")

    def subsets_actions_code(self, option: Option) -> str | None:
        """Code for the actions of a choice of one argument whose values are `subsets(...)` (the pairs of a hand's
        cards): the choices made as tuples, each once, and an action made of each (`actions.subset_actions`), where
        the general form makes lists of lists, freezes them and leaves out repeats; None for other arguments."""
        if len(option.arguments) != 1:
            return None
        argument, expression = option.arguments[0]
        choices = self.subsets_code(expression)
        if choices is None:
            return None
        return f"SUBSET_ACTIONS(P.seat, {option.name!r}, {argument!r}, {choices})"

    def subsets_code(self, expression: Any) -> str | None:
        """Code for the choices of an expression that is a call of `subsets`, as tuples (`subset_choices`; see
        Program._subset_choices_code), reading the decision's scratch bindings `B`; None for any other
        expression."""
        compiled = expression.function
        code = getattr(compiled, "subset_code", None)
        if code is None:
            return None
        self.adopt(compiled)  # (the expressions' helpers, SUBSET_CHOICES among them, by their own names)
        return str(code)

    def choice_table(self, name: str) -> str:
        """The name of a table of a choice with no arguments, one action per seat (made once: the game's own)."""
        table = self.choice_tables.get(name)
        if table is None:
            table = self.choice_tables[name] = f"CHOICE_{len(self.choice_tables)}"
            choice = self.namespace["CHOICE"]
            self.namespace[table] = [choice(seat, name, ()) for seat in range(self.most_players)]
        return table

    def frozen_values(self, expression: Any) -> str:
        """Code for the values of a choice's argument, frozen as actions hold them (see `frozen`): a list that is
        the same at every evaluation (`numbers(0, 5)`) is frozen once, here."""
        listed = getattr(expression.function, "constant_list", None)
        if listed is not None:
            return self.name_of(frozen(listed[0]), "K")
        if expression.flat_values:  # (numbers, cards: as `frozen` makes them, with no call)
            return f"tuple({self.scratch_expr(expression)})"
        choices = self.subsets_code(expression)
        if choices is not None:  # (`subsets(...)`: its choices made as tuples, as `frozen` would make them)
            return f"tuple({choices})"
        return f"FROZEN({self.scratch_expr(expression)})"

    def options_finder(self, options: tuple[Option, ...]) -> str:
        """A decision's own legal-set function for options of every kind but those the general search alone
        makes (a take of any depth or melding the pile's top card; clauses that may be broken): the general
        search's loop over the options (decisions.legal_actions) written out, with each option's zones read in
        place and its clauses tested in place; the new melds and additions are found by the general search's
        own function for them (`decisions.melds_into`)."""
        name = f"legal_{len(self.finders)}"
        lines = [f"def {name}(S, P):", "    V = S.values",
                 "    B = dict(P.bindings)  # (definitions worked out once for every option are kept in it)",
                 "    _found = {}", "    S.meld_plans = {}", "    try:"]
        for option in options:
            constant = self.name_of(option, "O")
            kind = option.kind
            if kind == "choose":
                lines += self.choice_lines(option)
            elif kind in ("play", "discard"):
                assert option.source is not None
                cards, _ = self.owned_zone(option.source, "_owner", lines, "        ", False)
                # (a card held twice is tested twice: its actions are made once, as `dict.fromkeys` keeps them)
                lines.append(f"        _cards = {cards}")
                if option.clauses:
                    lines.append(f"        _cards = {self.name_of(option.card_filter, 'F')}(V, B, _cards)")
                    lines += _restored("card", "        ")
                actions = f"{kind.upper()}_OF[P.seat]"
                lines.append(f"        _found.update(dict.fromkeys(map({actions}, _cards), {constant}))")
            elif kind in ("draw", "take"):
                assert option.source is not None
                pile, _ = self.owned_zone(option.source, "_owner", lines, "        ", False)
                rules = " and ".join(self.scratch_expr(clause.rule) for clause in option.clauses) or "True"
                lines.append(f"        _pile = {pile}")
                lines.append("        if _pile:")
                # (its pile bound as `cards` only when its clauses may read it, and unbound after them: the
                # options after it see the decision's own `cards`, as in the general search)
                binds = any("cards" in getattr(clause.rule.function, "uses", ("cards",)) for clause in option.clauses)
                if binds:
                    lines.append(f"            B['cards'] = {'[_pile[-1]]' if kind == 'draw' else 'list(_pile)'}")
                lines.append(f"            if {rules}:")
                lines.append(f"                _found[NEW(ACTION, (P.seat, {kind!r}, -1, {option.name!r}, (), (), (), "
                             f"-1))] = {constant}")
                if binds:
                    lines += _restored("cards", "            ")
            else:  # meld, add
                assert option.source is not None and option.destination is not None
                fixed = " and ".join(self.scratch_expr(clause.rule) for clause in option.clauses
                                     if not clause.per_action) or "True"
                lines.append(f"        if {fixed}:")
                hand, _ = self.owned_zone(option.source, "_hand_owner", lines, "            ", True)
                table, key = self.owned_zone(option.destination, "_table_owner", lines, "            ", True)
                lines.append(f"            MELDS_INTO(S, P, {constant}, _found, B, {hand}, {table}, {key})")
        lines += ["    except Exception:  # the general search names the failure", "        S.meld_plans = {}",
                  "        return GENERIC_LEGAL(S, P)", "    return list(_found), _found", ""]
        self.finders.append("\n".join(lines))
        return name

    def owned_zone(self, ref: Ref, local: str, lines: list[str], indent: str, scratch: bool) -> tuple[str, str]:
        """Lines (in a legal-set function, at `indent`) that find a zone's owner as `Cards.zone` does, in `local`:
        with the scratch bindings `B` (`scratch`, as the general search finds the zones of melds), else with the
        decision's own; returns the code of the zone's cards and of its key. An owner that is not at the table
        fails (the general search then names the failure)."""
        name = repr(ref.name)
        if ref.on_table:
            return f"V[{name}]", f"({name}, -1)"
        lines.append(f"{indent}{local} = {self.owner_code(ref, 'B' if scratch else 'P.bindings', scratch)}")
        lines.append(f"{indent}if not 0 <= {local} < len(V[{name}]):")
        lines.append(f"{indent}    raise IndexError({name})")
        return f"V[{name}][{local}]", f"({name}, {local})"

    def scratch_expr(self, expression: Any) -> str:
        """Code for an expression's value with `B` a scratch copy of the bound names (definitions' values are
        kept in it for the next expression of the same decision)."""
        compiled = expression.function
        constant = getattr(compiled, "constant", None)
        if constant is not None and constant[0].__class__ in (bool, int, str, type(None)):
            return repr(constant[0])
        if getattr(compiled, "code", None) is not None:
            return self.expr(expression, "B")
        return f"{self.name_of(compiled, 'E')}(V, B)"


def _filter_in_place(source: str, finish: str, indent: str) -> str:
    """The body of a filter's function (`def x(V, B, items)`, compiler.py's `add_filter`) as lines at `indent`,
    each of its `return X` made `return <finish with X>`. (The finish makes a list of its own from what it is
    given: a returned `list(X)`, the filter's copy of its items, is handed over as `X`.)"""
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)

    class Returns(ast.NodeTransformer):
        def visit_Return(self, node: ast.Return) -> ast.AST:
            returned = node.value
            if isinstance(returned, ast.Call) and isinstance(returned.func, ast.Name) and \
                    returned.func.id == "list" and len(returned.args) == 1 and not returned.keywords:
                returned = returned.args[0]  # (`return list(items)`: the finish makes a list of its own from it)
            value = ast.unparse(returned) if returned is not None else "None"
            return ast.parse(f"return {finish.format(f'({value})')}").body[0]

    body = [Returns().visit(statement) for statement in function.body]
    return "".join(indent + line + "\n" for statement in body for line in ast.unparse(statement).split("\n"))


def _restored(name: str, indent: str) -> list[str]:
    """Lines giving a name an option bound in the scratch bindings `B` back the decision's value, or unbinding it
    (as `decisions.restore` does), so that the options after it see the decision's own."""
    return [f"{indent}if {name!r} in P.bindings:", f"{indent}    B[{name!r}] = P.bindings[{name!r}]",
            f"{indent}else:", f"{indent}    B.pop({name!r}, None)"]


def _written(option: Option) -> bool:
    """Whether an option's actions can be found by a decision's own legal-set code (`options_finder`)."""
    kind = option.kind
    if kind == "choose":
        return not (option.arguments and option.clauses) or option.choice_filter is not None
    if option.source is None:
        return False
    if kind in ("play", "discard"):
        return not option.clauses or option.card_filter is not None
    if kind in ("draw", "take"):
        return not option.any_depth and option.meld_top is None
    return kind in ("meld", "add") and option.destination is not None
