"""Checks of the shape of a hand: phase names, transitions, reachability, a way to the end, and deck
arithmetic (the cards dealt must fit the deck for every allowed player count)."""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable

from interpreter.cards import Deck
from interpreter.dsl.types import BOOL
from interpreter.errors import EvaluationError, shorten
from interpreter.model import Players
from interpreter.semantics import RulesetChecker, Scope, scalar, walk_named
from interpreter.source import MappingNode, Node, ScalarNode, SequenceNode
from interpreter.steps import StepChecker

Path = tuple[str | int, ...]
END = "end"


def check_phases(checker: RulesetChecker, steps: StepChecker, hand: MappingNode, scope: Scope) -> None:
    """Every phase's steps and transitions, then the graph: unknown targets, unreachable phases, no end."""
    phases_node = hand.entries["phases"]
    assert isinstance(phases_node, SequenceNode)
    phases: dict[str, MappingNode] = {}
    for index, name, phase in walk_named(phases_node.items):
        path: Path = ("hand", "phases", index)
        if name == END:
            checker.error("duplicate-name", "`end` is the name of the end of the hand; rename this phase",
                          phase.entries["name"], (*path, "name"))
            continue
        if name in phases:
            checker.error("duplicate-name", f"two phases are named `{name}`", phase.entries["name"],
                          (*path, "name"))
            continue
        phases[name] = phase
        steps.steps(phase.entries.get("steps"), (*path, "steps"), scope)
    edges: dict[str, list[str]] = {}
    for index, name, phase in walk_named(phases_node.items):
        if phases.get(name) is not phase:
            continue
        edges[name] = _transitions(checker, steps, phase, ("hand", "phases", index), phases, scope)
    start = hand.entries["start"]
    if scalar(start) not in phases:
        _unknown_phase(checker, start, ("hand", "start"), phases)
        return
    if any(d.code == "unknown-phase" for d in checker.diagnostics):
        return  # the graph is incomplete; its other findings would only repeat that one
    _check_graph(checker, str(scalar(start)), edges, phases, phases_node)


def _unknown_phase(checker: RulesetChecker, node: Node, path: Path, phases: dict[str, MappingNode]) -> None:
    name = str(scalar(node))
    close = difflib.get_close_matches(name, [*phases, END], n=1)
    checker.error("unknown-phase", f"unknown phase `{name}`", node, path,
                  hint=f"did you mean `{close[0]}`?" if close else "phases: " + ", ".join([*phases, END]))


def _transitions(checker: RulesetChecker, steps: StepChecker, phase: MappingNode, path: Path,
                 phases: dict[str, MappingNode], scope: Scope) -> list[str]:
    node = phase.entries["next"]
    targets: list[tuple[Node, Path]] = []
    if isinstance(node, ScalarNode):
        targets.append((node, (*path, "next")))
    elif isinstance(node, SequenceNode):
        for index, item in enumerate(node.items):
            assert isinstance(item, MappingNode)
            item_path = (*path, "next", index)
            steps.expression(item.entries.get("if"), (*item_path, "if"), scope, BOOL, "a transition's condition")
            targets.append((item.entries["goto"], (*item_path, "goto")))
            if "if" not in item.entries and index < len(node.items) - 1:
                checker.error("unreachable-phase", "a transition without `if` makes the ones after it unreachable",
                              item, item_path, hint="put the unconditional `goto` last")
        last = node.items[-1] if node.items else None
        unconditional = any(isinstance(i, MappingNode) and "if" not in i.entries for i in node.items)
        if isinstance(last, MappingNode) and "if" in last.entries and not unconditional:
            checker.error("no-end", "every transition has a condition: when none holds the hand is stuck", last,
                          (*path, "next", len(node.items) - 1), hint="end the list with an unconditional `goto`",
                          severity="warning")
    names = []
    for target, target_path in targets:
        name = str(scalar(target))
        if name != END and name not in phases:
            _unknown_phase(checker, target, target_path, phases)
        else:
            names.append(name)
    return names


def _check_graph(checker: RulesetChecker, start: str, edges: dict[str, list[str]],
                 phases: dict[str, MappingNode], phases_node: SequenceNode) -> None:
    reachable = _closure([start], edges)
    for index, name, phase in walk_named(phases_node.items):
        if phases.get(name) is phase and name not in reachable:
            checker.error("unreachable-phase", f"no transition leads to phase `{name}`", phase.entries["name"],
                          ("hand", "phases", index, "name"), hint=f"the hand starts at `{start}`")
    reverse: dict[str, list[str]] = {}
    for source, targets in edges.items():
        for target in targets:
            reverse.setdefault(target, []).append(source)
    can_end = _closure([END], reverse)
    for index, name, phase in walk_named(phases_node.items):
        if phases.get(name) is phase and name in reachable and name not in can_end:
            checker.error("no-end", f"from phase `{name}` no sequence of transitions reaches `end`",
                          phase.entries["name"], ("hand", "phases", index, "name"),
                          hint="some phase after it must have `next: end`")


def _closure(starts: list[str], edges: dict[str, list[str]]) -> set[str]:
    seen = set(starts)
    pending = list(starts)
    while pending:
        for target in edges.get(pending.pop(), []):
            if target not in seen:
                seen.add(target)
                pending.append(target)
    return seen


# --- deck arithmetic ----------------------------------------------------------------------------------------

Counter = Callable[[Node, Path, int, int], int | None]


def check_deck_arithmetic(checker: RulesetChecker, hand: MappingNode, deck_zone: str, deck: Deck,
                          players: Players, count: Counter, hands: Callable[[int], int | None]) -> None:
    """The opening of a hand (the phases from `start` while each leads to exactly one next phase, their steps
    outside any condition or loop) takes cards from the deck's zone: it must fit for every player count, in every
    hand of a match whose number of hands is known before play (`hands(players)`, None when play decides; a
    count may read `hand_number`, a hand size growing hand by hand). `count(node, path, players, hand_number)`
    evaluates a constant count, or None when it depends on play."""
    phases_node = hand.entries["phases"]
    assert isinstance(phases_node, SequenceNode)
    by_name = {name: (index, phase) for index, name, phase in walk_named(phases_node.items)}
    opening = Opening(checker, by_name, str(scalar(hand.entries["start"])), deck_zone, players, count)
    for players_count in players.counts():
        try:
            deck_size = deck.size_for(players_count)
        except ValueError:  # (a card set aside that the deck does not hold: reported with the deck)
            continue
        known = hands(players_count)
        last = min(known, MOST_HANDS_COUNTED) if known is not None and known > 1 else 1
        for hand_number in range(1, last + 1):
            if not opening.fits(players_count, deck_size, hand_number):
                return


MOST_HANDS_COUNTED = 500  # the most hands of a match whose openings deck arithmetic counts, one by one


class Opening:
    """The deck arithmetic of a hand's opening, for one number of players and one hand at a time."""

    def __init__(self, checker: RulesetChecker, by_name: dict[str, tuple[int, MappingNode]], start: str,
                 deck_zone: str, players: Players, count: Counter) -> None:
        self.checker, self.by_name, self.start = checker, by_name, start
        self.deck_zone, self.players, self.count = deck_zone, players, count
        define = checker.root.entries.get("define")
        self.define = define if isinstance(define, MappingNode) else None
        self.warned = False  # (about the fewest players a deal to every seat would not fit: once)

    def fits(self, players_count: int, deck_size: int, hand_number: int) -> bool:
        """Whether the opening of hand `hand_number` fits the deck; False once it reported that it does not."""
        checker, deck_zone = self.checker, self.deck_zone
        in_hand = f" in hand {hand_number}" if hand_number > 1 else ""
        needed = most = 0  # (the cards taken; and as many as they may be, each deal to some seats to all seats)
        seen: set[str] = set()
        name = self.start
        while name in self.by_name and name not in seen:
            seen.add(name)
            index, phase = self.by_name[name]
            path: Path = ("hand", "phases", index, "steps")
            for step_index, step in enumerate(_items(phase.entries.get("steps"))):
                taken, at_most = _taken(step, (*path, step_index), deck_zone, players_count, self.count,
                                        hand_number)
                most += at_most if at_most is not None and at_most > 0 else 0
                if most > deck_size and not self.warned and needed + (taken or 0) <= deck_size:
                    self.warned = True
                    checker.error("deck-arithmetic", f"with {players_count} players{in_hand}, if every deal of the "
                                  f"opening goes to every seat, this needs {most} cards from `{deck_zone}`, but the "
                                  f"deck has {deck_size}", _count_node(step), (*path, step_index), severity="warning",
                                  hint=f"the game allows {self.players.described()}; the receivers of a deal "
                                  "(`seats:`) are known only as the game runs: narrow `players`, or be sure that so "
                                  "many seats are never dealt to (`validate --playouts` plays them)")
                if taken is None:
                    continue
                if taken < 0 and not _written_as_number(step):  # (a number is refused where it is written)
                    checker.error("deck-arithmetic", f"with {players_count} players{in_hand} this takes {taken} "
                                  f"cards from `{deck_zone}`: a number of cards is never negative", _count_node(step),
                                  (*path, step_index))
                    return False
                needed += taken
                if needed > deck_size:
                    later = (f"; a match of {players_count} players has {hand_number} hands or more "
                             "(`match.hands`), and this count changes from hand to hand") if in_hand else ""
                    checker.error("deck-arithmetic", f"with {players_count} players{in_hand} this needs {needed} "
                                  f"cards from `{deck_zone}`, but the deck has {deck_size}", _count_node(step),
                                  (*path, step_index), hint=f"the game allows {self.players.described()}{later}")
                    checker.diagnostics[-1] = dataclasses.replace(
                        checker.diagnostics[-1], notes=_defined_elsewhere(_count_node(step), self.define))
                    return False
            following = phase.entries["next"]
            name = str(scalar(following)) if isinstance(following, ScalarNode) else ""
        return True


_NAME = re.compile(r"[A-Za-z_]\w*")


def _defined_elsewhere(count: Node, define: MappingNode | None) -> tuple[str, ...]:
    """Notes naming the definitions a count reads (and those they read) that are written in another file than
    the count (a variant's `define:` over the rules it extends), where they are written."""
    if define is None or not isinstance(count, ScalarNode):
        return ()
    by_name = {str(key).split("(")[0]: node for key, node in define.entries.items()}
    found: dict[str, Node] = {}
    pending = [str(count.value)]
    while pending and len(found) < 50:
        for name in _NAME.findall(pending.pop()):
            node = by_name.get(name)
            if node is not None and name not in found:
                found[name] = node
                pending.append(str(node.value) if isinstance(node, ScalarNode) else "")
    here = count.location.path
    return tuple(f"`{name}` is defined at {shorten(node.location.path)}:{node.location.line}, as this count reads it"
                 for name, node in found.items() if node.location.path != here)


def _count_node(step: Node) -> Node:
    """Where a finding about the cards a step takes points: its count (`deal: hand_size`), else the step."""
    if isinstance(step, MappingNode):
        return step.entries.get("deal") or step.entries.get("move") or step
    return step


def _written_as_number(step: Node) -> bool:
    assert isinstance(step, MappingNode)
    count = step.entries.get("deal", step.entries.get("move"))
    return isinstance(scalar(count), int)


def _items(node: Node | None) -> list[Node]:
    return node.items if isinstance(node, SequenceNode) else []


def _taken(step: Node, path: Path, deck_zone: str, players_count: int,
           count: Counter, hand_number: int) -> tuple[int | None, int | None]:
    """The cards a step takes from the deck's zone, when known before play; and the most it may take (a deal
    to receivers known only as the game runs, to every seat)."""
    if not isinstance(step, MappingNode):
        return None, None
    entries = step.entries
    if scalar(entries.get("from")) != deck_zone:
        return None, None
    try:
        if "deal" in entries:
            each = count(entries["deal"], (*path, "deal"), players_count, hand_number)
            if each is None:
                return None, None
            if "seats" in entries:
                receivers = count(entries["seats"], (*path, "seats"), players_count, hand_number)
                if receivers is None:
                    return None, each * players_count
                return each * receivers, each * receivers
            return each * players_count, each * players_count
        if "move" in entries and scalar(entries["move"]) != "all":
            taken = count(entries["move"], (*path, "move"), players_count, hand_number)
            return taken, taken
    except EvaluationError:
        return None, None
    return None, None
