"""Zones at run time: lists of cards (the last is the top), one per table zone or one per seat or team, and
the face-up cards among them. Copies of a card are one value, so which copy is face up does not matter: a
zone's face-up cards are kept as a small multiset beside it."""

from __future__ import annotations

ZoneKey = tuple[str, int]  # (zone name, owner index; -1 for a table zone)


class FaceUp:
    """The face-up cards of every zone: {zone key: [cards]}, only for zones that have any."""

    __slots__ = ("cards",)

    def __init__(self, cards: dict[ZoneKey, list[int]] | None = None) -> None:
        self.cards = cards if cards is not None else {}

    def copy(self) -> FaceUp:
        return FaceUp({key: list(value) for key, value in self.cards.items()})

    def of(self, key: ZoneKey) -> list[int]:
        return self.cards.get(key, [])

    def add(self, key: ZoneKey, card: int) -> None:
        self.cards.setdefault(key, []).append(card)

    def take(self, key: ZoneKey, card: int) -> bool:
        """Remove one face-up copy of `card` from a zone; whether there was one."""
        found = self.cards.get(key)
        if found and card in found:
            found.remove(card)
            if not found:
                del self.cards[key]
            return True
        return False

    def clear(self, key: ZoneKey | None = None) -> None:
        if key is None:
            self.cards.clear()
        else:
            self.cards.pop(key, None)

