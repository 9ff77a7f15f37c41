"""A seat's observation (`state.observation(seat)`) as a vector of numbers of fixed length for one ruleset,
parameters and player count, made of named parts in this order:

    seat, current_player, dealer    one-hot over the seats (current_player all zeros at a chance node or the end)
    hand_number                     one number
    phase                           one-hot over the hand's phases, in the ruleset's order
    zone NAME[OWNER]                for each zone (in the ruleset's order) and each owner (one for a table zone,
                                    one per seat or per team): how many of each card the seat sees there (C
                                    numbers, face-up cards of hidden zones included; for a zone of melds, the
                                    cards of all its melds), then the number of cards (or of melds) it holds,
                                    when the seat may know it (else 0)
    variable NAME[OWNER]            for each variable and owner the seat may see (else zeros): a number for an
                                    int, 1/0 for a bool, one-hot for a seat, a card, a rank or a suit, one-hot
                                    over the quoted words of the ruleset for a text (zeros when unset); list
                                    variables are left out
    seating PLACE                   in a game with a `seating` step only: for each place at the table,
                                    clockwise from place 0, one-hot over the seats of the seat sitting there

Only what `observation(seat)` shows is encoded, so a vector never holds what the seat may not see.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.numbers import parse_number
from interpreter.source import MappingNode, Node, ScalarNode, SequenceNode

if TYPE_CHECKING:
    from interpreter.engine.game import Game

_QUOTED = re.compile(r"'([A-Za-z0-9_ ]+)'")


@dataclass(frozen=True)
class Part:
    """A named run of the vector: `start`, `width` numbers."""

    name: str
    start: int
    width: int


class ObservationEncoder:
    """The vector layout of one ruleset at one player count; `encode(observation)` fills it."""

    def __init__(self, game: Game, players: int) -> None:
        ruleset = game.ruleset
        self.deck = game.deck
        self.players = players
        self.card_count = len(game.deck.text_of)
        self.teams = len(game.teams(players))
        self.phases = {name: index for index, name in enumerate(game.program.phases)}
        self.words = {word: index for index, word in enumerate(sorted(set(_quoted_words(ruleset.tree))))}
        self.parts: list[Part] = []
        self.size = 0
        for name, width in (("seat", players), ("current_player", players), ("dealer", players),
                            ("hand_number", 1), ("phase", len(self.phases))):
            self._add(name, width)
        self.zones = [(name, self._owners(zone.owner)) for name, zone in ruleset.zones.items()]
        for name, owners in self.zones:
            for owner in owners:
                self._add("zone " + _owned(name, owner), self.card_count + 1)
        # A variable with a second index (`by:`) has a part per owner and key: `variable bid[1][NT]`.
        self.variables = [(name, variable.type, self._owners(variable.per),
                           [text for _, text in variable.keys(game.deck, players, self.teams)] or NO_KEYS)
                          for name, variable in ruleset.variables.items() if self._width(variable.type)]
        for name, type_name, owners, keys in self.variables:
            for owner in owners:
                for key in keys:
                    self._add("variable " + _keyed(_owned(name, owner), key), self._width(type_name))
        self.seating = game.program.reseats  # (where the seats sit is public: every seat sees it)
        if self.seating:
            for place in range(players):
                self._add(f"seating {place}", players)
        self.starts = {part.name: part.start for part in self.parts}

    def _owners(self, per: str) -> list[int | None]:
        if per == "seat":
            return list(range(self.players))
        if per == "team":
            return list(range(self.teams))
        return [None]

    def _width(self, type_name: str) -> int:
        widths = {"int": 1, "num": 1, "seat": self.players, "bool": 1, "card": self.card_count,
                  "rank": len(self.deck.rank_names), "suit": len(self.deck.suits), "str": len(self.words)}
        return widths.get(type_name, 0)

    def _add(self, name: str, width: int) -> None:
        self.parts.append(Part(name, self.size, width))
        self.size += width

    def encode(self, observation: dict[str, Any]) -> list[float]:
        vector = [0.0] * self.size
        starts = self.starts
        players = self.players
        for name in ("seat", "current_player", "dealer"):
            value = observation[name]
            if isinstance(value, int) and 0 <= value < players:
                vector[starts[name] + value] = 1.0
        vector[starts["hand_number"]] = float(observation["hand"])
        phase = self.phases.get(observation["phase"])
        if phase is not None:
            vector[starts["phase"] + phase] = 1.0
        for name, owners in self.zones:
            views = observation["zones"][name]
            for owner in owners:
                view = views if owner is None else views[owner]
                self._zone(vector, starts["zone " + _owned(name, owner)], view)
        for name, type_name, owners, keys in self.variables:
            values = observation["variables"][name]
            for owner in owners:
                value = values if owner is None else values[owner]
                for key in keys:
                    self._variable(vector, starts["variable " + _keyed(_owned(name, owner), key)], type_name,
                                   value if key is None or value is None else value[key])
        if self.seating:
            for place, seat in enumerate(observation["seating"]):
                vector[starts[f"seating {place}"] + seat] = 1.0
        return vector

    def _zone(self, vector: list[float], start: int, view: dict[str, Any]) -> None:
        parse = self.deck.parse_card
        if "melds" in view:
            for meld in view["melds"]:
                for text in meld["cards"]:
                    vector[start + parse(text)] += 1.0
            vector[start + self.card_count] = float(len(view["melds"]))
            return
        for text in view.get("cards", view.get("face_up", ())):
            vector[start + parse(text)] += 1.0
        size = len(view["cards"]) if "cards" in view else view.get("count", 0)
        vector[start + self.card_count] = float(size)

    def _variable(self, vector: list[float], start: int, type_name: str, value: Any) -> None:
        if value is None:
            return
        if type_name in ("int", "bool", "num"):
            vector[start] = float(parse_number(value))  # (a fraction comes as its exact text)
        elif type_name == "seat":
            if 0 <= value < self.players:
                vector[start + value] = 1.0
        elif type_name == "str":
            index = self.words.get(value)
            if index is not None:
                vector[start + index] = 1.0
        else:
            index = self.deck.parse_card(value) if type_name == "card" else self.deck.parse_value(type_name, value)
            vector[start + index] = 1.0


NO_KEYS: list[str | None] = [None]  # the keys of a variable without a second index


def _owned(name: str, owner: int | None) -> str:
    return name if owner is None else f"{name}[{owner}]"


def _keyed(name: str, key: str | None) -> str:
    return name if key is None else f"{name}[{key}]"


def _quoted_words(node: Node) -> Iterator[str]:
    """The words quoted in the ruleset's expressions (`'play'`): the values its text variables take."""
    if isinstance(node, MappingNode):
        for item in node.entries.values():
            yield from _quoted_words(item)
    elif isinstance(node, SequenceNode):
        for item in node.items:
            yield from _quoted_words(item)
    elif isinstance(node, ScalarNode) and isinstance(node.value, str):
        yield from _QUOTED.findall(node.value)
