"""Stable action ids for a ruleset: one fixed id per card played or discarded, per pile drawn or taken and per
choice with its arguments, and a block of numbered slots for what cannot be listed in advance.

The ids, in blocks, for a deck of C distinct cards and a ruleset of Z zones:

    play of card c                      c
    discard of card c                   C + c
    draw from zone z                    2C + z            (zones in the ruleset's order)
    take of the whole zone z            2C + Z + z
    a choice with its arguments         one block per choice, in the order the ruleset first names them
    anything else                       the last `slots` ids: the k-th of the other legal actions, in the
                                        engine's order (melds, additions to melds, taking the top N cards of a
                                        pile or a pile by melding its top card, choices whose arguments are lists
                                        or text, values out of range)

A choice's block holds every combination of its arguments' values, each argument over a domain fixed by its
type: booleans (false, true), cards (the deck's C cards), ranks, suits, and integers (and seats) from 0 to the
deck's size. A choice whose combinations would be more than `CHOICE_LIMIT` goes to the numbered slots instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.actions import Action, argument_text
from interpreter.engine.program import Block, Option

if TYPE_CHECKING:
    from interpreter.engine.game import Game
    from interpreter.engine.state import State

CHOICE_LIMIT = 4096  # the most combinations a choice's block may hold
DEFAULT_SLOTS = 2048  # numbered slots for the actions with no fixed id


class TooManyActionsError(ValueError):
    """More legal actions without a fixed id than the catalogue has numbered slots."""


@dataclass(frozen=True)
class ChoiceBlock:
    """The ids of one choice: `start` plus the mixed-radix number of its arguments' value indexes."""

    name: str
    arguments: tuple[str, ...]
    domains: tuple[tuple[Any, ...], ...]
    start: int
    kinds: tuple[str, ...] = ()  # (each argument's type: `suit`, `card`, ... as an action's text names its values)

    @property
    def size(self) -> int:
        return math.prod(len(domain) for domain in self.domains)

    def id_of(self, values: Sequence[Any]) -> int | None:
        number = 0
        for domain, value in zip(self.domains, values, strict=True):
            index = _index_in(domain, value)
            if index is None:
                return None
            number = number * len(domain) + index
        return self.start + number

    def values_of(self, action_id: int) -> tuple[Any, ...]:
        number = action_id - self.start
        values: list[Any] = []
        for domain in reversed(self.domains):
            number, index = divmod(number, len(domain))
            values.append(domain[index])
        return tuple(reversed(values))


def _index_in(domain: tuple[Any, ...], value: Any) -> int | None:
    if value.__class__ is bool:  # (True == 1: a boolean is found only in a boolean domain, and the reverse)
        return int(value) if domain == (False, True) else None
    if domain == (False, True) or value.__class__ is not int:
        return None
    return value if 0 <= value < len(domain) else None


class ActionCatalogue:
    """The numbering of every action of one ruleset (with its parameters): `id_of_legal(state)` gives the
    current legal actions by id, `describe(id)` says what an id stands for."""

    def __init__(self, game: Game, *, slots: int = DEFAULT_SLOTS) -> None:
        deck = game.deck
        self.card_count = len(deck.text_of)
        self.zones = tuple(game.ruleset.zones)
        self._zone_index = {name: index for index, name in enumerate(self.zones)}
        self._deck_text = deck.card_text
        self._deck = deck
        most = max(deck.size_for(count) for count in game.ruleset.players.counts())  # (the largest deck)
        domains = {"bool": (False, True), "card": tuple(range(self.card_count)),
                   "rank": tuple(range(len(deck.rank_names))), "suit": tuple(range(len(deck.suits))),
                   "int": tuple(range(most + 1)), "seat": tuple(range(most + 1))}
        start = 2 * self.card_count + 2 * len(self.zones)
        self.choices: dict[tuple[str, tuple[str, ...]], ChoiceBlock] = {}
        for option in _choice_options(game):
            key = (option.name, tuple(name for name, _ in option.arguments))
            if key in self.choices:
                continue
            types = [getattr(game.ruleset.shown_types.get(f"{option.where}.args.{name}"), "name", "")
                     for name in key[1]]
            if not all(kind in domains for kind in types):
                continue
            block = ChoiceBlock(option.name, key[1], tuple(domains[kind] for kind in types), start, tuple(types))
            if block.size > CHOICE_LIMIT:
                continue
            self.choices[key] = block
            start += block.size
        self.slots_start = start
        self.slots = slots
        self.size = start + slots

    def fixed_id(self, action: Action) -> int | None:
        """The fixed id of an action, or None when it has none (it takes a numbered slot)."""
        kind = action.kind
        if kind == "play":
            return action.card
        if kind == "discard":
            return self.card_count + action.card
        if kind == "draw" or (kind == "take" and action.target < 1 and not action.cards and action.card < 0):
            index = self._zone_index.get(action.name)
            if index is None:
                return None
            return 2 * self.card_count + index + (len(self.zones) if kind == "take" else 0)
        if kind == "choose":
            block = self.choices.get((action.name, tuple(name for name, _ in action.arguments)))
            return block.id_of([value for _, value in action.arguments]) if block is not None else None
        return None

    def legal_by_id(self, legal: Sequence[Action]) -> dict[int, Action]:
        """Each legal action under its id (the actions without a fixed id in numbered slots, in the engine's
        order); raises TooManyActionsError when they do not fit."""
        found: dict[int, Action] = {}
        slot = self.slots_start
        for action in legal:
            action_id = self.fixed_id(action)
            if action_id is None:
                if slot >= self.size:
                    raise TooManyActionsError(
                        f"more than {self.slots} legal actions without a fixed id (melds, additions, list-valued "
                        f"choices); make the catalogue with more slots (slots=...)")
                action_id = slot
                slot += 1
            found[action_id] = action
        return found

    def describe(self, action_id: int) -> str:
        """What an id stands for, in words (`play AH`, `choose play discard 3`, `slot 4`)."""
        card_count, zone_count = self.card_count, len(self.zones)
        if not 0 <= action_id < self.size:
            raise ValueError(f"{action_id} is not an action id of this catalogue (0 to {self.size - 1})")
        if action_id < 2 * card_count:
            kind = "play" if action_id < card_count else "discard"
            return f"{kind} {self._deck_text(action_id % card_count)}"
        if action_id < 2 * card_count + 2 * zone_count:
            index = action_id - 2 * card_count
            return f"{'draw' if index < zone_count else 'take'} {self.zones[index % zone_count]}"
        for block in self.choices.values():
            if block.start <= action_id < block.start + block.size:
                values = block.values_of(action_id)
                return " ".join(["choose", block.name, *(
                    f"{name} {argument_text(self._deck, kind, value)}"  # (as the action's own text names it)
                    for name, kind, value in zip(block.arguments, block.kinds, values, strict=True))])
        return f"slot {action_id - self.slots_start}"


def _choice_options(game: Game) -> Iterator[Option]:
    """Every `choose` option of the hand, in the order the ruleset writes them."""
    for phase in game.program.phases.values():
        yield from _options_in(phase.steps)


def _options_in(block: Block) -> Iterator[Option]:
    for step in block:
        for value in step.values():
            if isinstance(value, Block):
                yield from _options_in(value)
            elif isinstance(value, tuple):
                for item in value:
                    if isinstance(item, Option):
                        if item.kind == "choose":
                            yield item
                        yield from _options_in(item.effects)


def legal_ids(catalogue: ActionCatalogue, state: State) -> dict[int, Action]:
    """The legal actions of a state by id (none at a chance node or when the match is over)."""
    return catalogue.legal_by_id(state.legal_actions())
