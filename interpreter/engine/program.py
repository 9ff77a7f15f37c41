"""The executable form of a ruleset's hand: phases, steps and options as frozen objects holding compiled
expressions. Built once per Game from the checked tree; the state machine walks it."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from interpreter.dsl.compiler import Compiled
from interpreter.dsl.types import SEAT, parse_type
from interpreter.model import Ruleset, preference_flag
from interpreter.source import MappingNode, Node, ScalarNode, SequenceNode, yaml_path

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Expr:
    """A compiled expression and where it is written (for runtime errors)."""

    function: Compiled
    where: str
    keeps: bool = True  # it may keep definitions' values in the bindings it is given: give it a copy
    # A choice's argument whose values are of a type that is not a list (numbers, cards): the list of them is
    # frozen, as an action holds it, by `tuple` alone (see actions.frozen)
    flat_values: bool = False


@dataclass(frozen=True, slots=True)
class Shown:
    """A `{...}` of a log line: an expression and the type that says how to print it."""

    expression: Expr
    type: Any


@dataclass(frozen=True, slots=True)
class Ref:
    """A zone or variable: its name and how to find the owner (an index expression, or the bound `player`)."""

    name: str
    owner: Expr | None
    implicit: bool  # a bare per-owner name: the owner is the bound `player`
    where: str
    owner_name: str | None = None  # the owner is simply this name (`hand[winner]`): read it, no evaluation
    key: Expr | None = None  # a variable's second index (`by:`): the key of the value, `bid[t]['NT']`
    on_table: bool = field(init=False)  # no owner: read as `V[name]`
    table_key: tuple[str, int] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "on_table", self.owner_name is None and self.owner is None and not self.implicit)
        object.__setattr__(self, "table_key", (self.name, -1))


@dataclass(frozen=True, slots=True)
class Clause:
    rule: Expr
    reason: str
    per_action: bool = True  # reads what differs between the actions of one option (`card`, `cards`, ...)
    breakable: Expr | None = None  # when it holds, an action may break the clause (a renege), offered marked
    record: Ref | None = None  # the variable that records that the clause was broken
    # A preference (`prefer:`, a card option's): its test of a card. Of the cards the clauses before it allow, it
    # allows those that meet the test, when any does, else all of them. Its `rule`, tested card by card, is
    # `not <flag> or <test>`, the flag bound to whether some card the clauses before it allow meets the test
    # (decisions.preferred works the flags out; a card filter narrows by the test itself).
    prefers: Expr | None = None
    flag: str = ""


class Step(dict[str, Any]):
    """One step: `verb` says which; its fields (a dict, read on the hot path) are the ones that verb uses."""

    __slots__ = ("verb", "where")

    def __init__(self, verb: str, where: str, values: Mapping[str, Any] | None = None) -> None:
        super().__init__(values or {})
        self.verb = verb
        self.where = where


class Block(tuple[Step, ...]):
    """A list of steps. Its `plan` is what a Steps frame runs: the flow compiler's generated functions for the
    runs of steps that never stop the game, and between them the steps that may (see flowcode.py)."""

    plan: tuple[Any, ...]

    def __new__(cls, steps: tuple[Step, ...] = ()) -> Block:
        block = super().__new__(cls, steps)
        block.plan = steps
        return block


NO_STEPS = Block()  # (a Block is never changed once built: one empty list serves every option without steps)


@dataclass(frozen=True, slots=True)
class Option:
    kind: str  # choose play discard draw take meld add
    name: str  # the choice's name, or the pile's zone name
    where: str
    source: Ref | None = None
    destination: Ref | None = None
    arguments: tuple[tuple[str, Expr], ...] = ()
    clauses: tuple[Clause, ...] = ()
    effects: Block = NO_STEPS
    ends: bool = False  # choosing it ends a repeated decision (see `ends_when` for an expression)
    card_filter: Callable[..., list[int]] | None = None  # every clause at once: f(V, B, cards) -> the legal ones
    # A meld's or an addition's clauses at once: f(V, B, candidates) -> those the clauses allow (see steps.py)
    meld_filter: Callable[..., list[Any]] | None = None
    # A choice's clauses at once over combinations of its arguments' values: f(V, B, combinations) -> the allowed
    choice_filter: Callable[..., list[Any]] | None = None
    any_depth: bool = False  # `take` of the top N cards for any N (else the whole pile)
    every_table: bool = False  # `add` to the melds of every owner of the destination zone
    at_once: int = 1  # `meld`, `take` with `meld_top`: the most new melds one action lays (bound as `laid`)
    meld_top: Ref | None = None  # `take`: the zone of melds where the pile's top card is laid at once
    face: str | None = None  # play, discard, draw, take: "up" or "down" where the card lands (else the default)
    ends_when: Expr | None = None  # `ends:` as an expression: the decision ends when it holds after the steps
    secret: bool = False  # `choose` with `secret: true`: its seat alone sees the choice (never revealed)
    hides_card: bool = field(init=False)  # a discard, or a card played face down: some seats may not see it
    hides_action: bool = field(init=False)  # some seats may not see the action: it hides a card, or is secret
    moves_card: bool = field(init=False)  # a play or a discard: one card, bound as `card` by its movement
    # Its steps run with the decision's own bindings: a play or a discard (its movement binds `card`), a choice
    # with no arguments (see decisions.bindings_for)
    binds_nothing: bool = field(init=False)
    breakable: bool = field(init=False)  # some of its clauses may be broken (see Clause.breakable)
    per_action_clauses: tuple[Clause, ...] = field(init=False)  # the clauses that read what differs per action
    prefers: bool = field(init=False)  # some of its clauses are preferences (see Clause.prefers)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hides_card", self.kind == "discard" or (self.kind == "play" and self.face == "down"))
        object.__setattr__(self, "hides_action", self.hides_card or self.secret)
        object.__setattr__(self, "moves_card", self.kind in ("play", "discard"))
        object.__setattr__(self, "binds_nothing", self.moves_card or (self.kind == "choose" and not self.arguments))
        object.__setattr__(self, "breakable", any(clause.breakable is not None for clause in self.clauses))
        object.__setattr__(self, "per_action_clauses", tuple(clause for clause in self.clauses if clause.per_action))
        object.__setattr__(self, "prefers", any(clause.prefers is not None for clause in self.clauses))


@dataclass(frozen=True, slots=True)
class Transition:
    condition: Expr | None
    target: str


@dataclass(frozen=True, slots=True)
class Phase:
    name: str
    steps: Block
    transitions: tuple[Transition, ...]
    where: str = ""  # its `next`, where a failure to leave the phase is reported


@dataclass(frozen=True)
class Program:
    start: str
    phases: Mapping[str, Phase]
    first_dealer: Expr | None
    first_dealer_drawn: bool  # `first_dealer: random`: a chance event before the first hand picks the dealer
    next_dealer: Expr | None
    hands: Expr | None
    hand_cap: Expr | None
    ends_when: Expr | None
    result: Expr
    initial: Mapping[str, Expr]  # variable name -> its initial value
    has_simultaneous_rounds: bool = False
    reseats: bool = False  # a `seating` step may move the seats: the order round the table is read from the state
    # (choice, argument) -> `card`, `rank` or `suit` for an argument shown by name ("" or absent: as it is)
    choice_kinds: Mapping[tuple[str, str], str] = field(default_factory=dict)
    action_kinds: frozenset[str] = frozenset()  # the kinds of action some option of the game offers
    choice_names: frozenset[str] = frozenset()  # the names of the game's choices (`choose: NAME`)


_TEMPLATE_PART = re.compile(r"\{([^{}]*)\}")
# The names that differ between the candidate actions of one option; a clause reading none of them holds for
# all of its actions or for none, and is tested once.
_PER_ACTION = frozenset({"card", "cards", "meld", "after", "laid"})


class _Builder:
    def __init__(self, ruleset: Ruleset) -> None:
        self.expressions = ruleset.expressions
        self.shown_types = ruleset.shown_types
        define = ruleset.tree.entries.get("define")
        self.definitions = {key.split("(")[0] for key in getattr(define, "entries", {})}
        self.simultaneous = False
        self.reseats = False
        self.choice_kinds: dict[tuple[str, str], str] = {}
        self.action_kinds: set[str] = set()
        self.choice_names: set[str] = set()
        self.zones = ruleset.zones
        self.variables = ruleset.variables

    def expr(self, node: Node | None, path: Path) -> Expr | None:
        if node is None:
            return None
        where = yaml_path(path)
        function = self.expressions.get(where)
        if function is None:  # pragma: no cover - the loader compiles every expression it accepts
            raise AssertionError(f"no compiled expression at {where}")
        return Expr(function, where, getattr(function, "keeps", True))

    def required(self, node: Node | None, path: Path) -> Expr:
        found = self.expr(node, path)
        assert found is not None
        return found

    def argument(self, node: Node | None, path: Path) -> Expr:
        """A choice's argument: the list of its values, and whether they are of a type that is not a list (the
        checker's type of one value of the argument)."""
        found = self.required(node, path)
        if getattr(self.shown_types.get(yaml_path(path)), "name", "") not in _FLAT_TYPES:
            return found
        return dataclasses.replace(found, flat_values=True)

    def ref(self, node: Node | None, path: Path) -> Ref | None:
        if not isinstance(node, ScalarNode):
            return None
        text = str(node.value)
        where = yaml_path(path)
        name = re.match(r"\s*([a-z_][a-z0-9_]*)", text)
        assert name is not None
        owner_function = self.expressions.get(where + "#index")
        owner = Expr(owner_function, where, getattr(owner_function, "keeps", True)) if owner_function else None
        spec = self.zones.get(name[1]) or self.variables.get(name[1])
        per_owner = getattr(spec, "owner", None) in ("seat", "team") or getattr(spec, "per", None) in ("seat", "team")
        simple = re.fullmatch(r"\s*[a-z_][a-z0-9_]*\s*\[\s*([a-z_][a-z0-9_]*)\s*\]\s*", text)
        owner_name = simple[1] if simple and per_owner and simple[1] not in self.definitions else None
        key_function = self.expressions.get(where + "#key")
        key = Expr(key_function, where, getattr(key_function, "keeps", True)) if key_function else None
        return Ref(name[1], owner, per_owner and owner is None, where, owner_name, key)

    def steps(self, node: Node | None, path: Path) -> Block:
        if not isinstance(node, SequenceNode):
            return Block()
        return Block(tuple(self.step(item, (*path, index)) for index, item in enumerate(node.items)
                           if isinstance(item, MappingNode)))

    def step(self, node: MappingNode, path: Path) -> Step:
        entries = node.entries
        verb = "decide" if "decide" in entries else next(k for k in entries if hasattr(self, f"_{k}"))
        values: dict[str, Any] = getattr(self, f"_{verb}")(entries, path)
        return Step(verb, yaml_path(path), values)

    def _set(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        target = self.ref(e["set"], (*p, "set"))
        variable = self.variables.get(target.name) if target is not None else None
        # A list is copied as it is set: it may be a zone's list, which changes as cards move.
        copied = variable is not None and variable.type.startswith("list[")
        return {"target": target, "value": self.required(e["to"], (*p, "to")), "copied": copied}

    def _change(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        return {"target": self.ref(e["change"], (*p, "change")), "by": self.required(e["by"], (*p, "by"))}

    def _transfer(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        return {"amount": self.required(e["transfer"], (*p, "transfer")),
                "source": self.ref(e["from"], (*p, "from")), "destination": self.ref(e["to"], (*p, "to"))}

    def _move(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        amount = e["move"]
        return {
            "amount": None if isinstance(amount, ScalarNode) and amount.value == "all" else
            self.required(amount, (*p, "move")),
            "source": self.ref(e["from"], (*p, "from")), "destination": self.ref(e["to"], (*p, "to")),
            "face": _scalar(e.get("face")), "at": _scalar(e.get("at")) or "top",
            "when_empty": self.steps(e.get("when_empty"), (*p, "when_empty")),
        }

    def _turn(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        return {"zone": self.ref(e["turn"], (*p, "turn")), "face": _scalar(e["face"]),
                "cards": self.expr(e.get("cards"), (*p, "cards"))}

    def _shuffle(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        return {"zone": self.ref(e["shuffle"], (*p, "shuffle"))}

    def _random(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        target = self.ref(e["random"], (*p, "random"))
        assert target is not None
        spec = self.variables.get(target.name)
        return {"target": target, "values": self.required(e["from"], (*p, "from")),
                "weights": self.expr(e.get("weights"), (*p, "weights")),
                "kind": parse_type(spec.type) if spec is not None else SEAT}  # (else the dealer)

    def _deal(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        count = None if _scalar(e["deal"]) == "all" else self.required(e["deal"], (*p, "deal"))  # (None: all)
        return {"count": count, "source": self.ref(e["from"], (*p, "from")),
                "zone": str(_scalar(e["to"])), "seats": self.expr(e.get("seats"), (*p, "seats")),
                "one_at_a_time": _scalar(e.get("one_at_a_time")) is not False,
                "face_up": self.expr(e.get("face_up"), (*p, "face_up"))}

    def _if(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        return {"condition": self.required(e["if"], (*p, "if")), "then": self.steps(e["then"], (*p, "then")),
                "else": self.steps(e.get("else"), (*p, "else"))}

    def _for_each(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        return {"items": self.required(e["for_each"], (*p, "for_each")), "name": _scalar(e.get("as")) or "player",
                "where": self.expr(e.get("where"), (*p, "where")), "body": self.steps(e["do"], (*p, "do"))}

    def _repeat(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        looping = _scalar(e["repeat"]) == "while"
        return {"times": None if looping else self.required(e["repeat"], (*p, "repeat")),
                "while": self.expr(e.get("while"), (*p, "while")), "body": self.steps(e["do"], (*p, "do"))}

    def _round(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        self.simultaneous = self.simultaneous or _scalar(e.get("simultaneous")) is True
        return {"first": self.required(e["round"], (*p, "round")), "where": self.expr(e.get("where"), (*p, "where")),
                "simultaneous": _scalar(e.get("simultaneous")) is True, "body": self.steps(e["do"], (*p, "do"))}

    def _turns(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        return {"first": self.required(e["turns"], (*p, "turns")), "until": self.required(e["until"], (*p, "until")),
                "where": self.expr(e.get("where"), (*p, "where")), "body": self.steps(e["do"], (*p, "do"))}

    def _decide(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        options = e["options"]
        assert isinstance(options, SequenceNode)
        return {"seat": self.required(e["decide"], (*p, "decide")), "by": self.expr(e.get("by"), (*p, "by")),
                "repeat": _scalar(e.get("repeat")) is True,
                "options": tuple(self.option(o, (*p, "options", i)) for i, o in enumerate(options.items)
                                 if isinstance(o, MappingNode))}

    def option(self, node: MappingNode, path: Path) -> Option:
        e = node.entries
        kind = next(k for k in ("choose", "play", "discard", "draw", "take", "meld", "add") if k in e)
        self.action_kinds.add(kind)
        source = None if kind == "choose" else self.ref(e[kind], (*path, kind))
        arguments: tuple[tuple[str, Expr], ...] = ()
        if kind == "choose" and isinstance(e.get("args"), MappingNode):
            args_node = e["args"]
            assert isinstance(args_node, MappingNode)
            arguments = tuple((name, self.argument(value, (*path, "args", name)))
                              for name, value in args_node.entries.items())
        name = str(_scalar(e["choose"])) if kind == "choose" else (source.name if source else "")
        if kind == "choose":
            self.choice_names.add(name)
        for argument, _ in arguments:  # a card, rank or suit argument is shown by name in the action's text
            shown = _shown_kind(self.shown_types.get(yaml_path((*path, "args", argument))))
            # Two choices of one name whose argument differs in type: shown as stored (by number), both.
            key = (name, argument)
            self.choice_kinds[key] = shown if self.choice_kinds.get(key, shown) == shown else ""
        destination = self.ref(e.get("to"), (*path, "to"))
        # `add` to a zone of melds named without an owner: every owner's table (lay-offs onto anyone's melds).
        every_table = kind == "add" and destination is not None and destination.implicit

        return Option(kind, name, yaml_path(path), source, destination, arguments,
                      self.clauses(e.get("legal"), (*path, "legal")), self.steps(e.get("do"), (*path, "do")),
                      _scalar(e.get("ends")) is True,
                      self.expressions.get(yaml_path((*path, "legal")) + "#filter") if kind in ("play", "discard")
                      else None,
                      any_depth=_scalar(e.get("depth")) == "any", every_table=every_table,
                      at_once=int(_scalar(e.get("at_once")) or 1) if kind in ("meld", "take") else 1,
                      meld_top=self.ref(e.get("meld_top"), (*path, "meld_top")) if kind == "take" else None,
                      face=_face(e.get("face")),
                      meld_filter=self.expressions.get(yaml_path((*path, "legal")) + "#filter")
                      if kind in ("meld", "add") else None,
                      choice_filter=self.expressions.get(yaml_path((*path, "legal")) + "#filter")
                      if kind == "choose" and arguments else None,
                      ends_when=self.expr(e["ends"], (*path, "ends")) if isinstance(_scalar(e.get("ends")), str)
                      else None,
                      secret=kind == "choose" and _scalar(e.get("secret")) is True)

    def clauses(self, node: Node | None, path: Path) -> tuple[Clause, ...]:
        if not isinstance(node, SequenceNode):
            return ()
        found = []
        for index, item in enumerate(node.items):
            assert isinstance(item, MappingNode)
            prefers, flag = None, ""
            if "prefer" in item.entries:  # (its rule card by card: `not <flag> or <test>`, see Clause.prefers)
                prefers = self.required(item.entries["prefer"], (*path, index, "prefer"))
                flag = preference_flag(index)
                function = self.expressions[prefers.where + "#rule"]
                rule = Expr(function, prefers.where, getattr(function, "keeps", True))
            else:
                rule = self.required(item.entries["rule"], (*path, index, "rule"))
            uses = getattr(rule.function, "uses", None)
            per_action = uses is None or bool(uses & _PER_ACTION)
            breakable = self.expr(item.entries.get("breakable"), (*path, index, "breakable"))
            if breakable is not None and getattr(breakable.function, "constant", None) == (False,):
                breakable = None  # (never broken: e.g. a parameter off; the decision keeps its own fast code)
            found.append(Clause(rule, str(_scalar(item.entries["reason"])), per_action, breakable,
                                self.ref(item.entries.get("record"), (*path, index, "record")), prefers, flag))
        return tuple(found)

    def _trick(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        zone = self.ref(e["trick"], (*p, "trick"))
        source = str(_scalar(e.get("from")) or "hand")
        where = yaml_path(p)
        # Playing to a trick is a `play` option from the player's own zone to the trick.
        self.action_kinds.add("play")
        option = Option("play", source, where, Ref(source, None, True, where), zone, (),
                        self.clauses(e["legal"], (*p, "legal")),
                        card_filter=self.expressions.get(yaml_path((*p, "legal")) + "#filter"))
        return {"zone": zone, "leader": self.required(e["leader"], (*p, "leader")),
                "players": self.expr(e.get("players"), (*p, "players")), "by": self.expr(e.get("by"), (*p, "by")),
                "source": source, "option": option,
                "options": (option,),
                "winning_card": self.expr(e.get("winning_card"), (*p, "winning_card")),
                "beats": self.expr(e.get("beats"), (*p, "beats")),
                "then": self.steps(e.get("then"), (*p, "then")), "count": self.expr(e.get("count"), (*p, "count")),
                "after_card": self.steps(e.get("after_card"), (*p, "after_card")),
                "until": self.expr(e.get("until"), (*p, "until"))}

    def _end(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        return {"match": _scalar(e["end"]) == "match"}

    def _take_back(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        return {}

    def _form_team(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        return {"seats": self.required(e["form_team"], (*p, "form_team"))}

    def _seating(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        self.reseats = True
        return {"seats": self.required(e["seating"], (*p, "seating"))}

    def _log(self, e: Mapping[str, Node], p: Path) -> dict[str, Any]:
        text = str(_scalar(e["log"]))
        where = yaml_path((*p, "log"))
        parts: list[str | Shown] = []
        position = 0
        for index, match in enumerate(_TEMPLATE_PART.finditer(text)):
            parts.append(text[position:match.start()])
            function = self.expressions.get(f"{where}{{{index}}}")
            kind = self.shown_types.get(f"{where}{{{index}}}")
            parts.append(Shown(Expr(function, where, getattr(function, "keeps", True)), kind) if function
                         else match[0])
            position = match.end()
        parts.append(text[position:])
        return {"parts": tuple(part for part in parts if part != "")}


def _face(node: Node | None) -> str | None:
    value = _scalar(node)
    return value if value in ("up", "down") else None


_FLAT_TYPES = frozenset({"int", "num", "bool", "str", "card", "rank", "suit", "seat", "team"})  # (no list in them)


def _shown_kind(value_type: Any) -> str:
    """How a choice's argument is written in an action's text: `card`, `rank` or `suit` by name; a list of them
    as `list:card`, ... (`list:` for a list of other values); `seat` for a seat (written as its number, read as
    `2` or `p2`); "" for a number, a text or a boolean."""
    name = getattr(value_type, "name", "")
    if name in ("card", "rank", "suit", "seat"):
        return str(name)
    if name == "list":
        return "list:" + _shown_kind(getattr(value_type, "element", None))
    return ""


def _scalar(node: Node | None) -> Any:
    return node.value if isinstance(node, ScalarNode) else None


def build_program(ruleset: Ruleset) -> Program:
    builder = _Builder(ruleset)
    root = ruleset.tree
    hand = root.entries["hand"]
    assert isinstance(hand, MappingNode)
    phases_node = hand.entries["phases"]
    assert isinstance(phases_node, SequenceNode)
    phases: dict[str, Phase] = {}
    for index, node in enumerate(phases_node.items):
        assert isinstance(node, MappingNode)
        path: Path = ("hand", "phases", index)
        name = str(_scalar(node.entries["name"]))
        following = node.entries["next"]
        transitions: list[Transition] = []
        if isinstance(following, ScalarNode):
            transitions.append(Transition(None, str(following.value)))
        elif isinstance(following, SequenceNode):
            for t_index, item in enumerate(following.items):
                assert isinstance(item, MappingNode)
                transitions.append(Transition(builder.expr(item.entries.get("if"), (*path, "next", t_index, "if")),
                                              str(_scalar(item.entries["goto"]))))
        phases[name] = Phase(name, builder.steps(node.entries.get("steps"), (*path, "steps")), tuple(transitions),
                             yaml_path((*path, "next")))
    match = root.entries["match"]
    assert isinstance(match, MappingNode)
    entries = match.entries
    initial: dict[str, Expr] = {}
    variables = root.entries.get("variables")
    for index, item in enumerate(variables.items if isinstance(variables, SequenceNode) else []):
        assert isinstance(item, MappingNode)
        declared = item.entries.get("initial")
        if isinstance(declared, ScalarNode) and declared.value is None:
            continue  # `initial: null`: an optional variable starts unset
        found = builder.expr(declared, ("variables", index, "initial"))
        if found is not None:
            initial[str(_scalar(item.entries["name"]))] = found
    drawn = _scalar(entries.get("first_dealer")) == "random"  # a seat drawn at random before the first hand
    return Program(
        start=str(_scalar(hand.entries["start"])), phases=phases,
        first_dealer=None if drawn else builder.expr(entries.get("first_dealer"), ("match", "first_dealer")),
        first_dealer_drawn=drawn,
        next_dealer=builder.expr(entries.get("next_dealer"), ("match", "next_dealer")),
        hands=builder.expr(entries.get("hands"), ("match", "hands")),
        hand_cap=builder.expr(entries.get("hand_cap"), ("match", "hand_cap")),
        ends_when=builder.expr(entries.get("ends_when"), ("match", "ends_when")),
        result=builder.required(entries["result"], ("match", "result")), initial=initial,
        has_simultaneous_rounds=builder.simultaneous, choice_kinds=builder.choice_kinds, reseats=builder.reseats,
        action_kinds=frozenset(builder.action_kinds), choice_names=frozenset(builder.choice_names),
    )


__all__ = ["Block", "Callable", "Clause", "Expr", "Option", "Phase", "Program", "Ref", "Step", "Transition",
           "build_program"]
