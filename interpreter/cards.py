"""Decks, ranks, suits and cards. A card is a small int; its rank, suit and text come from tables of its deck."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

JOKER = "JK"
NO_SUIT = -1


@dataclass(frozen=True)
class Deck:
    """The cards of a game. Rank order is the order of `ranks` (low to high); a joker ranks above every rank.

    Card ids: `rank * len(suits) + suit` for suited cards, then one id for the joker. Copies of a card (several
    packs) are the same value; `cards()` lists every physical card.
    """

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    packs: int = 1
    jokers: int = 0
    rankings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    values: Mapping[str, int] = field(default_factory=dict)
    rank_of: tuple[int, ...] = field(init=False, repr=False)
    suit_of: tuple[int, ...] = field(init=False, repr=False)
    text_of: tuple[str, ...] = field(init=False, repr=False)
    value_of: tuple[int, ...] = field(init=False, repr=False)
    card_ids: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        rank_of: list[int] = []
        suit_of: list[int] = []
        text_of: list[str] = []
        for rank_index, rank in enumerate(self.ranks):
            for suit_index, suit in enumerate(self.suits):
                rank_of.append(rank_index)
                suit_of.append(suit_index)
                text_of.append(f"{rank}{suit}")
        if self.jokers:
            rank_of.append(len(self.ranks))
            suit_of.append(NO_SUIT)
            text_of.append(JOKER)
        value_of = tuple(self.values.get(self.rank_name(rank), 0) for rank in rank_of)
        object.__setattr__(self, "rank_of", tuple(rank_of))
        object.__setattr__(self, "suit_of", tuple(suit_of))
        object.__setattr__(self, "text_of", tuple(text_of))
        object.__setattr__(self, "value_of", value_of)
        object.__setattr__(self, "card_ids", {text: index for index, text in enumerate(text_of)})

    @property
    def rank_names(self) -> tuple[str, ...]:
        """Every rank name, the joker's last when the deck has jokers."""
        return (*self.ranks, JOKER) if self.jokers else self.ranks

    def rank_name(self, rank: int) -> str:
        return self.rank_names[rank]

    def suit_name(self, suit: int) -> str:
        return self.suits[suit] if suit >= 0 else ""

    def rank_index(self, name: str) -> int | None:
        names = self.rank_names
        return names.index(name) if name in names else None

    def suit_index(self, name: str) -> int | None:
        return self.suits.index(name) if name in self.suits else None

    def distinct_cards(self) -> tuple[int, ...]:
        """Every distinct card value, in id order."""
        return tuple(range(len(self.text_of)))

    def cards(self) -> list[int]:
        """Every physical card: each value once per pack, and each joker."""
        suited = [card for card in self.distinct_cards() if self.suit_of[card] != NO_SUIT]
        result = suited * self.packs
        if self.jokers:
            result += [len(self.text_of) - 1] * self.jokers
        return result

    @property
    def size(self) -> int:
        return len(self.ranks) * len(self.suits) * self.packs + self.jokers

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
        """The card of a rank and suit (the joker for the joker rank)."""
        if rank >= len(self.ranks):
            return len(self.text_of) - 1
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
