"""Decks, ranks, suits and cards. A card is a small int; its rank, suit and text come from tables of its deck."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

JOKER = "JK"
NO_SUIT = -1


class SetAsideError(ValueError):
    """A card `deck.by_players` sets aside that the deck does not hold: the change and the card, by index."""

    def __init__(self, message: str, change: int, item: int) -> None:
        super().__init__(message)
        self.change = change
        self.item = item


@dataclass(frozen=True)
class DeckChange:
    """Cards added to the deck or set aside for some numbers of players (`deck.by_players`): for a count from
    `minimum` to `maximum`, `add_packs` more packs, `add_jokers` more jokers, the cards `add`, less one copy of
    each card of `remove` (cards by their texts)."""

    minimum: int
    maximum: int
    add_packs: int = 0
    add_jokers: int = 0
    add: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()

    def applies(self, players: int) -> bool:
        return self.minimum <= players <= self.maximum


@dataclass(frozen=True)
class Deck:
    """The cards of a game. Rank order is the order of `ranks` (low to high); a joker ranks above every rank.

    Card ids: `rank * len(suits) + suit` for suited cards, then one id per joker rank. The jokers are `jokers`
    copies of `JK`, or the distinct jokers `joker_names` names (one of each in the whole deck), each a rank of its
    own, above every rank in the order listed. Copies of a card (several packs) are the same value;
    `cards(players)` lists every physical card. A pack is every rank of every suit, or the cards `pack` lists
    (card texts, copies repeated); `changes` add or set aside cards by player count.
    """

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    packs: int = 1
    jokers: int = 0
    rankings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    values: Mapping[str, int] = field(default_factory=dict)
    pack: tuple[str, ...] | None = None
    changes: tuple[DeckChange, ...] = ()
    joker_names: tuple[str, ...] = ()
    rank_of: tuple[int, ...] = field(init=False, repr=False)
    suit_of: tuple[int, ...] = field(init=False, repr=False)
    text_of: tuple[str, ...] = field(init=False, repr=False)
    value_of: tuple[int, ...] = field(init=False, repr=False)
    card_ids: dict[str, int] = field(init=False, repr=False)  # the cards of the deck (for some count), by text
    has_joker: bool = field(init=False, repr=False)
    _by_players: dict[int, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _rank_names: tuple[str, ...] = field(init=False, repr=False, compare=False)  # (see rank_names)

    def __post_init__(self) -> None:
        has_joker = bool(self.jokers or self.joker_names) or JOKER in (self.pack or ()) or any(
            change.add_jokers or JOKER in change.add for change in self.changes)
        object.__setattr__(self, "has_joker", has_joker)
        object.__setattr__(self, "_rank_names", (*self.ranks, *self.joker_ranks) if has_joker else self.ranks)
        rank_of: list[int] = []
        suit_of: list[int] = []
        text_of: list[str] = []
        for rank_index, rank in enumerate(self.ranks):
            for suit_index, suit in enumerate(self.suits):
                rank_of.append(rank_index)
                suit_of.append(suit_index)
                text_of.append(f"{rank}{suit}")
        for joker_index, joker in enumerate(self.joker_ranks if has_joker else ()):
            rank_of.append(len(self.ranks) + joker_index)
            suit_of.append(NO_SUIT)
            text_of.append(joker)
        value_of = tuple(self.values.get(self.rank_name(rank), 0) for rank in rank_of)
        object.__setattr__(self, "rank_of", tuple(rank_of))
        object.__setattr__(self, "suit_of", tuple(suit_of))
        object.__setattr__(self, "text_of", tuple(text_of))
        object.__setattr__(self, "value_of", value_of)
        object.__setattr__(self, "_by_players", {})
        every = {index: text for index, text in enumerate(text_of)}
        used: set[str] = set(self.pack) if self.pack is not None else {
            text for text, suit in zip(text_of, suit_of, strict=True) if suit != NO_SUIT}
        if self.jokers:
            used.add(JOKER)
        used.update(self.joker_names)
        for change in self.changes:
            used.update(change.add)
            if change.add_jokers:
                used.add(JOKER)
        object.__setattr__(self, "card_ids", {text: index for index, text in every.items() if text in used})

    @property
    def joker_ranks(self) -> tuple[str, ...]:
        """The ranks of the jokers, low to high: the named jokers, else `JK`."""
        return self.joker_names or (JOKER,)

    @property
    def rank_names(self) -> tuple[str, ...]:
        """Every rank name, the jokers' last (low to high) when the deck has jokers."""
        return self._rank_names

    def rank_name(self, rank: int) -> str:
        return self._rank_names[rank]

    def suit_name(self, suit: int) -> str:
        return self.suits[suit] if suit >= 0 else ""

    def rank_index(self, name: str) -> int | None:
        names = self.rank_names
        return names.index(name) if name in names else None

    def suit_index(self, name: str) -> int | None:
        return self.suits.index(name) if name in self.suits else None

    def distinct_cards(self) -> tuple[int, ...]:
        """Every distinct card value of the deck (for any number of players), in id order."""
        return tuple(sorted(self.card_ids.values()))

    def cards(self, players: int | None = None) -> list[int]:
        """Every physical card for a number of players (None: before any change by player count): each card
        of a pack once per pack, then each joker, then the cards `by_players` adds, less those it sets aside.
        ValueError names a card set aside that the deck does not hold."""
        if players is not None and players in self._by_players:
            return list(self._by_players[players])
        one_pack = self._one_pack()
        joker = len(self.ranks) * len(self.suits)  # (`JK`: the only joker of a deck without named jokers)
        result = one_pack * self.packs + [joker] * self.jokers + [self.card_ids[name] for name in self.joker_names]
        for change_index, change in enumerate(self.changes):
            if players is None or not change.applies(players):
                continue
            result += one_pack * change.add_packs + [joker] * change.add_jokers
            result += [self.card_ids[text] for text in change.add]
            for item, text in enumerate(change.remove):
                card = self.card_ids.get(text, -1)
                if card not in result:
                    raise SetAsideError(f"with {players} players the deck holds no {text} to set aside",
                                        change_index, item)
                del result[len(result) - 1 - result[::-1].index(card)]  # (the last copy: the added one first)
        if players is not None:
            self._by_players[players] = tuple(result)
        return result

    def _one_pack(self) -> list[int]:
        if self.pack is not None:
            return [self.card_ids[text] for text in self.pack]
        return [card for card in range(len(self.text_of)) if self.suit_of[card] != NO_SUIT]

    @property
    def size(self) -> int:
        """The number of cards before any change by player count (`size_for` counts them for a table)."""
        return len(self._one_pack()) * self.packs + self.jokers + len(self.joker_names)

    def size_for(self, players: int) -> int:
        return len(self.cards(players))

    def has_copies(self, players: int) -> bool:
        """Whether two cards of the deck, for this number of players, are the same value."""
        cards = self.cards(players)
        return len(set(cards)) < len(cards)

    def card_text(self, card: int) -> str:
        return self.text_of[card]

    def parse_card(self, text: str) -> int:
        """The card named `text` (`10H`, `AS`, `JK`); ValueError names the deck's ranks and suits if unknown."""
        card = self.card_ids.get(text)
        if card is None:
            raise ValueError(
                f"{text!r} is not a card of this deck (ranks {' '.join(self.rank_names)}; suits {' '.join(self.suits)})"
            )
        return card

    def card_of(self, rank: int, suit: int) -> int:
        """The card of a rank and suit (the joker of a joker's rank, whatever the suit)."""
        if rank >= len(self.ranks):
            return len(self.ranks) * len(self.suits) + rank - len(self.ranks)
        return rank * len(self.suits) + suit

    def value_text(self, kind: str, value: int) -> str:
        """A card, rank or suit (by the name of its type) as its name in this deck."""
        if kind == "card":
            return self.card_text(value)
        if kind == "suit":
            return self.suit_name(value)
        if kind == "rank":
            return self.rank_name(value)
        raise ValueError(f"{kind} is not a card, rank or suit type")

    def parse_value(self, kind: str, text: str) -> int:
        """A card, rank or suit (by the name of its type) from its name; ValueError if the deck has none."""
        if kind == "card":
            return self.parse_card(text)
        found = self.rank_index(text) if kind == "rank" else self.suit_index(text)
        if found is None:
            names = self.rank_names if kind == "rank" else self.suits
            raise ValueError(f"{text!r} is not a {kind} of this deck ({' '.join(names)})")
        return found

    def ranking(self, name: str) -> dict[int, int]:
        """Position of each rank in a named ranking (its listed ranks only)."""
        order = self.rankings[name]
        return {self.rank_names.index(rank): position for position, rank in enumerate(order)}


def standard_deck(*, packs: int = 1, jokers: int = 0, values: Mapping[str, int] | None = None) -> Deck:
    """The 52-card French deck, ace high."""
    return Deck(
        ranks=("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"),
        suits=("S", "H", "D", "C"),
        packs=packs,
        jokers=jokers,
        values=dict(values or {}),
    )


def cards_text(deck: Deck, cards: Iterable[int]) -> str:
    return " ".join(deck.text_of[card] for card in cards)


def parse_cards(deck: Deck, texts: Sequence[str]) -> list[int]:
    return [deck.parse_card(text) for text in texts]


def key_text(deck: Deck, by: str, key: Any) -> str:
    """A key of a variable's second index (`by:`) as a ruleset writes it: a word, a suit or rank by name, a seat
    or team as `p1` or `t0`; a value that is no key (a joker's suit, a seat not at the table) as plainly as it can."""
    if key is None:
        return "null"
    if by == "suit":
        return deck.suits[key] if 0 <= key < len(deck.suits) else "no suit (a joker's)" if key == -1 else str(key)
    if by == "rank":
        return deck.rank_names[key] if 0 <= key < len(deck.rank_names) else str(key)
    if by in ("seat", "team"):
        return f"{'p' if by == 'seat' else 't'}{key}"
    return f"'{key}'" if isinstance(key, str) else str(key)  # (a word, as the ruleset quotes it)


def missing_key(deck: Deck, by: str, values: Mapping[Any, Any], key: Any) -> str:
    """Why a value per key has no value at `key`: the key and the keys it has, as a ruleset writes them."""
    return f"no key {key_text(deck, by, key)} among {', '.join(key_text(deck, by, k) for k in values)}"
