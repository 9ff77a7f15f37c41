"""Game: the static, compiled form of a ruleset, from which states are made."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from interpreter.actions import Action
from interpreter.cards import missing_key
from interpreter.engine.cardmoves import Cards
from interpreter.engine.errors import IllegalActionError
from interpreter.engine.handcode import HandCode, compile_hand
from interpreter.engine.match import MatchLoop
from interpreter.engine.melds import build_meld_rules
from interpreter.engine.program import Option, Program, build_program
from interpreter.engine.state import MAX_STEPS, State
from interpreter.model import Ruleset
from interpreter.source import MappingNode, ScalarNode, SequenceNode

_NEW = tuple.__new__  # an Action made from its fields in order (a named tuple), the cheapest way
_TEXTS_KEPT = 16_384  # action texts kept (see Game.action_text)


class Game:
    """A loaded ruleset ready to play: `new_initial_state(seed, players)` starts a match."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.deck = ruleset.deck
        self.program: Program = build_program(ruleset)
        self.has_simultaneous_rounds = self.program.has_simultaneous_rounds
        self.meld_rules = build_meld_rules(ruleset.deck, ruleset.tree.entries.get("melds"), ruleset.expressions)
        # The parts of the engine that act on a state (each state holds them too): finding zones and moving cards,
        # and running the match over hands. They keep nothing of a match, so every state of the game shares them.
        self.cards = Cards()
        self.match = MatchLoop()
        self._card_actions: dict[tuple[int, str], list[Action]] = {}
        self._choice_actions: dict[tuple[int, str, tuple[tuple[str, Any], ...], tuple[type, ...]], Action] = {}
        self._choice_lists: dict[tuple[int, str, tuple[tuple[Any, ...], ...]], list[Action]] = {}
        self._action_texts: dict[Action, str] = {}
        # What a copy of a state copies: zones on the table and per-owner variables are lists of values;
        # per-owner zones are lists of lists (melds are frozen, so a list of them is copied shallow).
        zones, variables = ruleset.zones, ruleset.variables
        self.shallow_copied = tuple([name for name, zone in zones.items() if zone.owner == "table"] +
                                    [name for name, variable in variables.items() if variable.per != "table"])
        self.deep_copied = tuple(name for name, zone in zones.items() if zone.owner != "table")
        # Variables with a second index (`by:`) hold a dict per owner (or one on the table), changed in place.
        self.keyed_copied = tuple(name for name, variable in variables.items() if variable.by is not None)
        # Who put each card where it lies (`placed_by`): followed only in a ruleset that asks for it.
        self.tracks_placement = _mentions(ruleset.tree, "placed_by(")
        if self.tracks_placement:
            self.shallow_copied += ("_placed",)
        # The deck's zone at the start of a hand, for each number of players (`deck.by_players` may change it).
        self.fresh_decks = {count: tuple(reversed(ruleset.deck.cards(count))) for count in ruleset.players.counts()}
        self.hand_variables = tuple((name, variable) for name, variable in variables.items()
                                    if variable.lasts == "hand")  # (taken anew at each hand)
        self.zone_owners = tuple((name, zone.owner) for name, zone in zones.items())
        self.hand_plans: dict[int, Any] = {}  # what each hand starts from, by number of players (see MatchLoop)
        self.match_lengths: tuple[int | None, int] | None = None  # (hands, cap), once read, when both are constant
        # Each expression worked out for every seat (State.per_seat): the function making the whole list, or None
        # (`seat_list`), made at its first use.
        self.seat_lists: dict[Callable[..., Any], Callable[..., list[Any]] | None] = {}
        self.unique_cards = not any(ruleset.deck.has_copies(count)  # no two cards are the same value
                                    for count in ruleset.players.counts())
        # Who may not see where a discarded card goes: by (zone, owner, seat, teams), worked out once.
        self.secrets: dict[tuple[str, int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.code: HandCode = compile_hand(self.program, MAX_STEPS, card_actions=self.card_actions,
                                           choice_action=self.choice_action, choice_actions=self.choice_actions,
                                           unique_cards=self.unique_cards,
                                           most_players=ruleset.players.maximum, placing=self.tracks_placement,
                                           missing_key=self.missing_key, names_read=self._names_read(ruleset),
                                           choice_lists=self._choice_lists)
        self.trick_steps = self.code.tricks  # a trick's decisions (by `Pending.where`) -> the trick's step

    @staticmethod
    def _names_read(ruleset: Ruleset) -> frozenset[str]:
        """The bound names some expression of the ruleset reads, through its definitions too (an expression whose
        value is the same at every evaluation reads none: a clause a house rule turns off)."""
        return frozenset().union(*(getattr(function, "uses", ()) for function in ruleset.expressions.values()
                                   if getattr(function, "constant", None) is None))

    def missing_key(self, name: str, values: Mapping[Any, Any], key: Any) -> str:
        """Why the variable `name`, with a second index, has no value at `key` (its keys, as the ruleset writes
        them)."""
        return missing_key(self.deck, self.ruleset.variables[name].by or "str", values, key)

    def action_text(self, action: Action) -> str:
        """An action's canonical text (`Action.text`), kept once made: the same actions recur in every legal set,
        log and transcript of a game. A choice with arguments is written each time, since equal arguments of
        other types (1 and true) would share a text."""
        texts = self._action_texts
        text = texts.get(action)
        if text is None:
            text = action.text(self.deck, self.program.choice_kinds)
            if not action.arguments:
                if len(texts) >= _TEXTS_KEPT:
                    texts.clear()
                texts[action] = text
        return text

    def card_action(self, seat: int, kind: str, card: int) -> Action:
        """The one Action value for a card played or discarded by a seat (made once, then shared)."""
        return self.card_actions(seat, kind)[card]

    def choice_action(self, seat: int, name: str, arguments: tuple[tuple[str, Any], ...]) -> Action:
        """The one Action value for a named choice with its arguments (made once, then shared; a choice among
        lists, such as subsets of a hand, is made each time: there may be no end to them)."""
        # (the values' types are part of the key: `true` and 1 are equal, but are not the same argument; one
        # argument, the common case, needs no loop)
        kinds = (arguments[0][1].__class__,) if len(arguments) == 1 else \
            tuple([value.__class__ for _, value in arguments])
        if tuple in kinds:  # (a list of values, such as a group of cards: made each time)
            return _NEW(Action, (seat, "choose", -1, name, arguments, (), (), -1))
        key = (seat, name, arguments, kinds)
        action = self._choice_actions.get(key)
        if action is None:
            action = self._choice_actions[key] = Action(seat, "choose", name=name, arguments=arguments)
        return action

    def choice_actions(self, seat: int, option: Option, values: tuple[tuple[Any, ...], ...]) -> list[Action]:
        """A choice with every combination of its arguments' values, in order, each once (made once per values;
        lists of values, such as subsets of cards, given as tuples: see `frozen`)."""
        for listed in values:  # (an argument's values are of one type; a loop, not `any`: on every choice's path)
            if listed and listed[0].__class__ is tuple:
                return self._lists_of_lists(seat, option, values)
        key = (seat, option.where, values)  # (two options may share a name but not their arguments)
        actions = self._choice_lists.get(key)
        if actions is None:
            names = [name for name, _ in option.arguments]
            distinct = [dict.fromkeys(listed) for listed in values]  # (each combination once)
            actions = self._choice_lists[key] = [
                self.choice_action(seat, option.name, tuple(zip(names, combination, strict=True)))
                for combination in itertools.product(*distinct)]
        return actions

    @staticmethod
    def _lists_of_lists(seat: int, option: Option, values: tuple[tuple[Any, ...], ...]) -> list[Action]:
        """A choice's actions for arguments whose values are lists (subsets of a hand): made each time, not kept
        (see choice_action), each combination once."""
        name, names = option.name, [name for name, _ in option.arguments]
        values = tuple(tuple(dict.fromkeys(listed)) for listed in values)  # (each combination once)
        if len(names) == 1:
            return [_NEW(Action, (seat, "choose", -1, name, ((names[0], value),), (), (), -1)) for value in values[0]]
        return [_NEW(Action, (seat, "choose", -1, name, tuple(zip(names, combination, strict=True)), (), (), -1))
                for combination in itertools.product(*values)]

    def card_actions(self, seat: int, kind: str) -> list[Action]:
        """A seat's actions of one kind (play or discard) for every card, indexed by the card: made once,
        then shared by every legal set."""
        key = (seat, kind)
        actions = self._card_actions.get(key)
        if actions is None:
            actions = self._card_actions[key] = [Action(seat, kind, card=card)
                                                 for card in range(len(self.deck.text_of))]
        return actions

    @property
    def name(self) -> str:
        return self.ruleset.name

    def __reduce__(self) -> Any:
        raise TypeError("a Game cannot be pickled (its code is made when the ruleset is loaded): send the "
                        "ruleset's path and its parameters, and load it where it is needed (a second load is "
                        "read from the cache)")

    def new_initial_state(self, seed: int | None = None, players: int | None = None) -> State:
        if seed is not None and seed.__class__ is not int:  # (a match is replayed from its seed: a whole number)
            if isinstance(seed, bool) or not hasattr(type(seed), "__index__"):
                raise TypeError(f"seed is an int, or None for one drawn at random, not {seed!r}"[:200])
            seed = operator.index(seed)  # (numpy's integers, as a library's caller may give)
        count = self.ruleset.players.default if players is None else players
        if count.__class__ is not int or count not in self.ruleset.players.counts():  # (4.0 is no number of seats)
            allowed = self.ruleset.players
            given: object = count  # (whatever the caller gave)
            if given.__class__ is not int and not (isinstance(given, float) and given.is_integer()):
                raise IllegalActionError(f"players is a number of seats, an int: not {count!r} "
                                         f"({self.name} is for {allowed.described()})")
            raise IllegalActionError(f"{self.name} is for {allowed.described()}, not {count}")
        state = State(self, count, seed)
        state.start()
        return state

    def teams(self, players: int) -> tuple[tuple[int, ...], ...]:
        return self.ruleset.teams[players]

    @cache  # noqa: B019 - a Game lives as long as its states
    def team_of(self, players: int) -> tuple[int, ...]:
        owner = [0] * players
        for team, seats in enumerate(self.teams(players)):
            for seat in seats:
                owner[seat] = team
        return tuple(owner)


def _mentions(node: Any, text: str) -> bool:
    """Whether some scalar of the ruleset's tree (an expression, say) holds the text."""
    pending = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, MappingNode):
            pending.extend(item.entries.values())
        elif isinstance(item, SequenceNode):
            pending.extend(item.items)
        elif isinstance(item, ScalarNode) and isinstance(item.value, str) and text in item.value:
            return True
    return False
