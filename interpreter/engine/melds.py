"""Melds of a rummy: sets (cards of one rank) and runs (consecutive cards of one suit), with wild cards that
stand for what is missing. A generic machinery driven by the ruleset's `melds:` section; nothing here knows a
game.

Runs are kept as positions: a rank's position is its place in the deck's order (0 for the lowest rank); the
ace (the rank named A, else the highest) may also sit at the other end: below the lowest (position -1) when it
is the highest rank, above the highest (position top + 1) when it is the lowest. A wild
fills the one gap of a run; with no gap it sits at an end (the lower end when it can) and is free: it may
later move to fill a gap at the other end, or give way to the natural card it stands for and go back to an
end. A card that is wild but natural in its own place (`natural_in_place`) counts as natural there.
"""

from __future__ import annotations

import collections
import itertools
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from interpreter.cards import Deck
from interpreter.engine.errors import RulesetRuntimeError

try:  # (the C function `Counter` counts with; its Python form where there is none)
    from collections import _count_elements as _count_into  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - CPython has it
    def _count_into(counts: dict[int, int], cards: Iterable[int]) -> None:
        for card in cards:
            counts[card] = counts.get(card, 0) + 1

_Class = TypeVar("_Class")
try:  # (what a class is to the compiled build, see interpreter/native.py: mypy brings it)
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - without mypy: a decorator that does nothing
    def mypyc_attr(*_names: str, **_flags: Any) -> Callable[[_Class], _Class]:  # type: ignore[misc]
        return lambda kind: kind


@dataclass(frozen=True, slots=True)
class MeldKind:
    name: str
    shape: str  # set | run
    minimum: int
    maximum: int
    max_wilds: int
    min_naturals: int
    ranks: frozenset[int] | None  # for sets: the ranks allowed (None: all)
    one_per_owner: bool
    ace_low: bool
    ace_high: bool
    in_place: frozenset[int] = frozenset()  # wild cards that are natural in their own place in a run
    either_end: bool = False  # a free wild may be laid at either end of a new run (else the lower end)
    fixed_wilds: bool = False  # a run's wild keeps the card it was laid as: never moved, never replaced
    max_added_per_end: int | None = None  # a run: the most cards added beyond each end of it as it was laid

# A meld's fields, in order (`Meld.of` gives the last six their defaults).
MELD_FIELDS = ("id", "kind", "shape", "owner", "cards", "wild", "rank", "suit", "low", "free", "laid_low", "laid_high")


# (a tuple's subclass: compiled, it stays a Python class)
@mypyc_attr(native_class=False)
class Meld(tuple[Any, ...]):
    """A meld on the table: its cards in table order and, for each, whether it acts as a wild. Never changed
    once made (`replaced` makes another): it is hashed and compared as its fields, a tuple of them read by name
    as a named tuple's are. Made from all its fields in order, `Meld((id, kind, ...))`, in C and without a call
    through Python (a search makes hundreds: a named tuple is made through its `__new__`, and even
    `tuple.__new__(cls, fields)` goes through a wrapper that costs about as much again as making the tuple), or
    by name with `Meld.of(...)`. A class of its own over the fields, so that a meld may keep what is known of its
    additions."""

    id: int
    kind: str
    shape: str  # set | run
    owner: int
    cards: tuple[int, ...]
    wild: tuple[bool, ...]
    rank: int  # a set's rank (-1 for a run)
    suit: int  # a run's suit (-1 for a set)
    low: int  # a run's position of cards[0]
    free: bool  # a run's wild sits at an end and may move
    # A run whose kind limits what is added at its ends: the positions of its ends as it was laid (set by the
    # first card added to it; a meld never added to has laid_high < laid_low).
    laid_low: int
    laid_high: int
    _fields = MELD_FIELDS

    # What each card added to it makes, once worked out (see MeldRules.add): the rules that worked it out and
    # card -> the meld with the card added, or None, and the cards that may go onto it at all. Kept with the meld
    # (in its own attributes, made only for the melds asked about), so that it goes when the meld does; not part of
    # its value (neither compared nor hashed, nor copied by `replaced`, `pickle` or `copy`).
    additions_known: tuple[Any, dict[int, Meld | None], frozenset[int]] | None = None

    @classmethod
    def of(cls, id: int, kind: str, shape: str, owner: int, cards: tuple[int, ...],
           wild: tuple[bool, ...], rank: int = -1, suit: int = -1, low: int = 0, free: bool = False,
           laid_low: int = 0, laid_high: int = -1) -> Meld:
        """A meld made from its fields by name."""
        return cls((id, kind, shape, owner, cards, wild, rank, suit, low, free, laid_low, laid_high))

    def __repr__(self) -> str:
        return "Meld(" + ", ".join([f"{name}={value!r}" for name, value in zip(MELD_FIELDS, self, strict=True)]) + ")"

    def __reduce__(self) -> tuple[Any, ...]:
        """A copy made by `pickle` or `copy` starts with nothing known of its additions."""
        return Meld, (tuple(self),)

    def replaced(self, **changes: Any) -> Meld:
        """Another meld with `changes` to its fields; nothing known of its additions. (Made in C from the fields,
        a meld being numbered anew each time one is laid.)"""
        fields = list(self)
        for name, value in changes.items():
            index = _FIELD_INDEX.get(name)
            if index is None:
                raise ValueError(f"a meld has no field {name!r}")
            fields[index] = value
        return Meld(fields)

    @property
    def wilds(self) -> list[int]:
        return list(itertools.compress(self.cards, self.wild))  # (picked in C)

    @property
    def naturals(self) -> list[int]:
        return list(itertools.compress(self.cards, map(operator.not_, self.wild)))


_FIELD_INDEX = {name: index for index, name in enumerate(MELD_FIELDS)}  # a field's place among them
# Each field read by name as a named tuple's is, in C (`collections._tuplegetter`, what `namedtuple` uses; an item
# getter as a property where there is none)
_field = getattr(collections, "_tuplegetter", None) or \
    (lambda index, doc: property(operator.itemgetter(index), doc=doc))  # pragma: no cover - CPython has it
for _index, _name in enumerate(MELD_FIELDS):
    setattr(Meld, _name, _field(_index, f"the meld's {_name}"))


_UNMELDED_KEPT = 4096  # hands whose `unmelded` is kept (the same hands recur within a turn)
_GROUPS_KEPT = 16384  # groups of new melds kept (see MeldRules.search)
_SEARCHES_KEPT = 4096  # searches kept (see MeldRules.candidates)
_NONE_TAKEN: frozenset[tuple[str, int]] = frozenset()

# A new meld found by a search: the meld and what each of its cards stands for.
Candidate = tuple["Meld", tuple[str, ...]]
# The new melds of one group of a search (see `search_groups`): the melds and what each one's cards stand for, in two
# tuples of the same length (without a tuple per meld). A meld needs its cards, as many of each as it holds.
Group = tuple[tuple["Meld", ...], tuple[tuple[str, ...], ...]]
_NO_GROUP: Group = ((), ())
# The cards left out of melds, the least (see `unmelded`): their points, how many, the cards.
_Leftover = tuple[int, int, tuple[int, ...]]
# The runs of a group as they are found: (cards, flags) -> the run first found so (each run once).
_RunsFound = dict[tuple[tuple[int, ...], tuple[bool, ...]], "Meld"]
# The wild cards of a set: the cards, their flags, what they stand for; or the same with the flags and what the
# cards stand for of a whole set of so many naturals with them (see `_set_wilds`).
_WildPart = tuple[tuple[int, ...], tuple[bool, ...], tuple[str, ...]]


class MeldRules:
    """The meld kinds of a ruleset, with which cards are wild and which are natural in their own place."""

    def __init__(self, deck: Deck, kinds: list[MeldKind], is_wild: Callable[[int], bool]) -> None:
        self.deck = deck
        self.kinds = {kind.name: kind for kind in kinds}
        self._shortest = min((kind.minimum for kind in kinds), default=0)  # the fewest cards of a new meld
        # Whether any kind is a run, and whether any is a set (a search groups the cards held for those only).
        self._shapes = (any(kind.shape == "run" for kind in kinds), any(kind.shape == "set" for kind in kinds))
        # The set kinds of one set per rank and owner: the ranks their sets take on a table limit a search.
        self._ranked_kinds = frozenset(kind.name for kind in kinds if kind.shape == "set" and kind.one_per_owner)
        self.top = len(deck.ranks) - 1
        self.is_wild = {card: bool(is_wild(card)) for card in deck.distinct_cards()}
        self._unmelded: dict[tuple[int, ...], tuple[int, ...]] = {}  # hand (sorted) -> its least-points leftovers
        # ... with lay-offs onto melds, keyed by the melds' identities (as `_added`): the hand (sorted), the melds'
        # ids -> (the melds, which keep their ids from being reused while kept, the leftovers)
        self._laid: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[Meld, ...], tuple[int, ...]]] = {}
        self._bounds_of: dict[str, tuple[int, int]] = {}  # kind -> the positions its runs may reach
        self._positions: dict[tuple[str, int], list[int]] = {}  # (kind, card) -> where it sits in a run
        # (cards sorted, the melds' ids), or the cards sorted when there is no meld -> (the melds, can_meld): keyed
        # by identity, as `_laid`
        self._can_meld: dict[Any, tuple[tuple[Meld, ...], bool]] = {}
        self._groups: dict[tuple[Any, ...], Group] = {}  # see `search`
        self._searched: dict[tuple[Any, ...], tuple[Meld, ...]] = {}  # see `candidates`
        self._combinations: dict[tuple[Any, ...], list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}
        self._set_parts: dict[tuple[Any, ...], tuple[list[_WildPart], dict[int, list[_WildPart]]]] = {}
        self._natural_choices: dict[tuple[Any, ...], list[Any]] = {}  # see `_set_naturals`
        # The `wild` flags of a run of n cards: none acting (`_no_wild[n]`), or only the i-th (`_one_wild[n][i]`).
        longest = len(deck.ranks) + 2
        self._no_wild = [(False,) * size for size in range(longest + 1)]
        self._one_wild = [[(False,) * index + (True,) + (False,) * (size - index - 1) for index in range(size)]
                          for size in range(longest + 1)]
        # The cards that may go onto a set of each rank, or a run of each suit, seen at a glance (see `additions`).
        self._wild_cards = frozenset(card for card, wild in self.is_wild.items() if wild)
        fit_rank: dict[int, set[int]] = {}
        fit_suit: dict[int, set[int]] = {}
        for card in self.is_wild:
            fit_rank.setdefault(deck.rank_of[card], set(self._wild_cards)).add(card)
            fit_suit.setdefault(deck.suit_of[card], set(self._wild_cards)).add(card)
        self._fit_rank = {rank: frozenset(cards) for rank, cards in fit_rank.items()}
        self._fit_suit = {suit: frozenset(cards) for suit, cards in fit_suit.items()}
        self._role_texts: dict[tuple[int, int], str] = {}  # (suit, position) -> the card a wild stands for there
        self._suit_roles: dict[int, dict[int, str]] = {}  # suit -> position -> the same (see `_roles_in`)
        self._blank = [("",) * size for size in range(longest + 1)]  # the roles of n natural cards
        # The ace: the rank named A, else the highest. At the top of the deck's order it may also sit below the
        # lowest rank (position -1); at the bottom, above the highest (position top + 1).
        names = list(deck.rank_names)
        self.ace = names.index("A") if "A" in names else self.top
        self.ace_low = -1 if self.ace == self.top else self.ace
        self.ace_high = self.top + 1 if self.ace == 0 and self.top > 0 else self.ace

    # --- positions -----------------------------------------------------------------------------------------

    def positions(self, kind: MeldKind, card: int) -> list[int]:
        """Where a card can sit naturally in a run of its suit (worked out once per kind and card)."""
        key = (kind.name, card)
        found = self._positions.get(key)
        if found is None:
            found = self._positions[key] = self._places(kind, card)
        return found

    def _places(self, kind: MeldKind, card: int) -> list[int]:
        rank = self.deck.rank_of[card]
        if rank > self.top:  # a joker
            return []
        if rank != self.ace:
            return [rank]
        if self.ace_low == self.ace_high:  # an ace between other ranks has only its own place
            return [rank]
        return [place for place, allowed in ((self.ace_low, kind.ace_low), (self.ace_high, kind.ace_high))
                if allowed]

    def _bounds(self, kind: MeldKind) -> tuple[int, int]:
        """The lowest and highest positions a run of this kind may reach (worked out once per kind)."""
        found = self._bounds_of.get(kind.name)
        if found is None:
            found = self._bounds_of[kind.name] = self._reach(kind)
        return found

    def _reach(self, kind: MeldKind) -> tuple[int, int]:
        others = [rank for rank in range(self.top + 1) if rank != self.ace] or [self.ace]
        ace = [self.ace_low if kind.ace_low else None, self.ace_high if kind.ace_high else None]
        places = [*others, *(place for place in ace if place is not None)]
        if self.ace_low == self.ace_high:
            places.append(self.ace)
        return min(places), max(places)

    def _is_natural_here(self, card: int, suit: int, position: int, kind: MeldKind) -> bool:
        if self.deck.suit_of[card] != suit:
            return False
        if self.is_wild[card] and card not in kind.in_place:
            return False
        return position in self.positions(kind, card)

    # --- building a run ----------------------------------------------------------------------------------------

    def _run(self, kind: MeldKind, meld_id: int, owner: int, suit: int, naturals: dict[int, int],
             wilds: list[int], prefer_low: bool = True) -> Meld | None:
        """The run with these naturals (position -> card) and wild cards, wilds in the gaps, else at an end."""
        if not naturals or len(naturals) < kind.min_naturals:
            return None
        if not wilds:  # (the common case, kept short: natural cards in a row)
            return self._natural_run(kind, meld_id, owner, suit, naturals)
        if len(wilds) == 1:  # (the next most common, also kept short)
            return self._run_with_one_wild(kind, meld_id, owner, suit, naturals, wilds[0], prefer_low)
        return self._run_with_wilds(kind, meld_id, owner, suit, naturals, wilds, prefer_low)

    def _run_with_wilds(self, kind: MeldKind, meld_id: int, owner: int, suit: int, naturals: dict[int, int],
                        wilds: list[int], prefer_low: bool) -> Meld | None:
        """`_run` with any number of wild cards (the general case; `_run_with_one_wild` gives its answers for one
        wild card faster)."""
        in_place = sum(1 for card in wilds if card in kind.in_place and self.deck.suit_of[card] == suit)
        if len(wilds) > kind.max_wilds + min(in_place, 1):
            return None
        positions = sorted(naturals)
        lowest, highest = self._bounds(kind)
        if positions:
            low_ace, high_ace = self.ace_low, self.ace_high
            if low_ace != high_ace and low_ace in naturals and high_ace in naturals \
                    and self.deck.rank_of[naturals[low_ace]] == self.ace \
                    and self.deck.rank_of[naturals[high_ace]] == self.ace:
                return None  # an ace at both ends (BU-26)
            gaps = [p for p in range(positions[0], positions[-1] + 1) if p not in naturals]
        else:
            return None
        if len(gaps) > len(wilds):
            return None
        slots: dict[int, tuple[int, bool]] = {p: (card, False) for p, card in naturals.items()}
        spare = list(wilds)
        for gap in gaps:
            filler = spare.pop(0)
            slots[gap] = (filler, not self._is_natural_here(filler, suit, gap, kind))
        low, high = positions[0], positions[-1]
        free = False
        for extra in spare:  # wilds with no gap to fill sit at an end (natural there if it is its own place)
            if prefer_low and low - 1 >= lowest:
                low -= 1
                place = low
            elif high + 1 <= highest:
                high += 1
                place = high
            elif low - 1 >= lowest:
                low -= 1
                place = low
            else:
                return None
            natural = self._is_natural_here(extra, suit, place, kind)
            slots[place] = (extra, not natural)
            free = free or not natural
        size = high - low + 1
        if not kind.minimum <= size <= kind.maximum:
            return None
        cards = tuple(slots[p][0] for p in range(low, high + 1))
        wild = tuple(slots[p][1] for p in range(low, high + 1))
        if sum(wild) > kind.max_wilds:
            return None
        return Meld((meld_id, kind.name, "run", owner, cards, wild, -1, suit, low, free and sum(wild) > 0, 0,
                            -1))  # (the fields in order, made in C: see `_sets`)

    def _run_with_one_wild(self, kind: MeldKind, meld_id: int, owner: int, suit: int, naturals: dict[int, int],
                           wild_card: int, prefer_low: bool) -> Meld | None:
        """`_run` with one wild card: it fills the one gap, else sits at an end. (On the hot path of every search:
        written for speed, with the same answers as `_run`.)"""
        in_place = kind.in_place
        suit_of = self.deck.suit_of
        if kind.max_wilds < 1 and not (wild_card in in_place and suit_of[wild_card] == suit):
            return None
        positions = sorted(naturals)
        low, high = positions[0], positions[-1]
        if low == self.ace_low and high == self.ace_high and low != high:
            rank_of = self.deck.rank_of
            if rank_of[naturals[low]] == self.ace and rank_of[naturals[high]] == self.ace:
                return None  # an ace at both ends (BU-26)
        size = len(positions) + 1  # (the cards of the run: the naturals and the wild)
        if high - low + 1 > size or not kind.minimum <= size <= kind.maximum:
            return None  # (more than one gap, or a run too short or too long)
        cards = list(map(naturals.__getitem__, positions))
        if high - low + 1 == size:  # the wild fills the gap: the place missing from the sum of the places low..high
            place = (low + high) * (high - low + 1) // 2 - sum(positions)
        else:  # it sits at an end: the lower one when it can (or when asked)
            lowest, highest = self._bounds(kind)
            if prefer_low and low - 1 >= lowest:
                place = low - 1
            elif high + 1 <= highest:
                place = high + 1
            elif low - 1 >= lowest:
                place = low - 1
            else:
                return None
        # (whether the wild card acts as one: `_is_natural_here`, written out)
        acts = suit_of[wild_card] != suit or (self.is_wild[wild_card] and wild_card not in in_place) or \
            place not in self.positions(kind, wild_card)
        if acts and kind.max_wilds < 1:
            return None
        if place < low:
            low = place
        index = place - low
        cards.insert(index, wild_card)
        wild = self._one_wild[size][index] if acts else self._no_wild[size]
        return Meld((meld_id, kind.name, "run", owner, tuple(cards), wild, -1, suit, low,
                            acts and (place < positions[0] or place > high), 0, -1))

    def _natural_run(self, kind: MeldKind, meld_id: int, owner: int, suit: int,
                     naturals: dict[int, int]) -> Meld | None:
        """`_run` with no wild card: the naturals must fill their places from the lowest to the highest."""
        positions = sorted(naturals)
        low, high = positions[0], positions[-1]
        size = high - low + 1
        if size != len(positions) or not kind.minimum <= size <= kind.maximum:
            return None
        low_ace, high_ace = self.ace_low, self.ace_high
        if low_ace != high_ace and low == low_ace and high == high_ace:
            rank_of = self.deck.rank_of
            if rank_of[naturals[low_ace]] == self.ace and rank_of[naturals[high_ace]] == self.ace:
                return None  # an ace at both ends (BU-26)
        return Meld((meld_id, kind.name, "run", owner, tuple([naturals[p] for p in positions]), (False,) * size,
                            -1, suit, low, False, 0, -1))

    def _set(self, kind: MeldKind, meld_id: int, owner: int, rank: int, naturals: list[int],
             wilds: list[int]) -> Meld | None:
        if len(naturals) < kind.min_naturals or len(wilds) > kind.max_wilds:
            return None
        if not kind.minimum <= len(naturals) + len(wilds) <= kind.maximum:
            return None
        cards = tuple(sorted(naturals)) + tuple(wilds)
        return Meld((meld_id, kind.name, "set", owner, cards, (False,) * len(naturals) + (True,) * len(wilds),
                            rank, -1, 0, False, 0, -1))  # (the fields in order, made in C: see `_sets`)

    # --- new melds from a hand ----------------------------------------------------------------------------------

    def candidates(self, hand: Iterable[int], owner: int, table: list[Meld], meld_id: int) -> list[Meld]:
        """Every valid new meld that can be made from the hand (each distinct arrangement once), numbered
        `meld_id`."""
        counts = counted(hand)
        # (kept for the cards, the owner and the ranks taken: a rule that asks whether some cards make a meld
        # asks it for the same cards again with each meld of the table, which a search reads nothing else of)
        key = (tuple(sorted(counts.items())), owner, self.taken_ranks(table))
        found = self._searched.get(key)
        if found is None:
            if len(self._searched) >= _SEARCHES_KEPT:
                self._searched.clear()
            found = self._searched[key] = tuple([meld for group in self.search_groups(counts, owner, table)
                                                 for meld in group[0]])
        return list(found) if meld_id == 0 else [meld.replaced(id=meld_id) for meld in found]

    def search(self, counts: Mapping[int, int], owner: int, table: list[Meld],
               holding: int | None = None) -> list[Candidate]:
        """Every valid new meld the cards counted can make, as (meld, what each card stands for), in a fixed
        order: the kinds in their order, a set kind's ranks and a run kind's suits
        from the lowest. The melds are numbered 0 (a meld laid is given its number then). It reads nothing of the
        table but the ranks taken there by kinds of one set per rank and owner. With `holding`, a natural card,
        only the sets of its rank and the runs of its suit are searched: the melds it can be part of are among
        them (and some that do not hold it: the caller looks); with a wild card, every meld.

        A set is made of one rank's natural cards and of wild cards, a run of one suit's: the melds of each
        (kind, owner, rank or suit, those cards, the wild cards) are worked out once and kept, since from one
        decision to the next a hand changes in a suit or two (`search_groups`, which gives them as they are
        kept)."""
        found: list[Candidate] = []
        for melds, roles in self.search_groups(counts, owner, table, holding):
            for index, meld in enumerate(melds):
                found.append((meld, roles[index]))
        return found

    def search_groups(self, counts: Mapping[int, int], owner: int, table: list[Meld],
                      holding: int | None = None, first: bool = False) -> list[Group]:
        """`search`'s melds as it keeps them: the groups that hold any, in order, each one's melds with what each
        one's cards stand for in two tuples (a caller that makes an object per meld anyway, such as its action,
        makes no tuple for each, and the cards a meld needs are counted only where they are asked: a search of a
        25-card hand finds over a hundred melds, and each object kept alive is one more for the garbage collector
        to go over). With `first`, only the first group that holds a meld (whether the cards make any: the groups
        after it are not worked out)."""
        is_wild, suit_of, rank_of = self.is_wild, self.deck.suit_of, self.deck.rank_of
        wild_cards: list[tuple[int, int]] = []
        # The natural cards held by suit (for the run kinds) and by rank (for the set kinds).
        by_suit: dict[int, list[tuple[int, int]]] = {}
        by_rank: dict[int, list[tuple[int, int]]] = {}
        runs, sets = self._shapes
        only_rank = only_suit = None  # (the rank and suit of a natural card `holding`: the melds it can be in)
        if holding is not None and not is_wild[holding]:
            only_rank, only_suit = rank_of[holding], suit_of[holding]
        copies = False  # (whether a natural card is held more than once: else a rank holds as many as its cards)
        for card in sorted(counts):  # (the cards in order, so that each suit's and rank's cards come in order)
            count = counts[card]
            if count <= 0:
                continue
            held = (card, count)
            if is_wild[card]:
                wild_cards.append(held)
            else:  # (with a card to hold, only its suit's and rank's natural cards are grouped: no other is searched)
                if runs and (only_suit is None or suit_of[card] == only_suit):
                    _held_into(by_suit, suit_of[card], held)
                if sets and (only_rank is None or rank_of[card] == only_rank):
                    _held_into(by_rank, rank_of[card], held)
                if count > 1:
                    copies = True
        found: list[Group] = []
        groups = self._groups
        wilds: tuple[tuple[int, int], ...] = ()
        wild_copies = 0
        for kind in self.kinds.values():
            if wild_cards:  # (how many of one wild card a search can use: as wilds, and in its place as a natural)
                most = kind.max_wilds + 2
                wilds = tuple([(card, count if count <= most else most) for card, count in wild_cards])
                wild_copies = sum([count for _, count in wilds])
            most_wilds = wild_copies if wild_copies < kind.max_wilds else kind.max_wilds
            if kind.shape == "set":
                taken: set[int] = set()  # (the ranks of its sets on the table, when the kind allows one per rank)
                if kind.one_per_owner:
                    for laid in table:
                        if laid.kind == kind.name:
                            taken.add(laid.rank)
                least_naturals = _least_naturals(kind, most_wilds)
                for rank in sorted(by_rank) if only_rank is None else (only_rank,) if only_rank in by_rank else ():
                    of_rank = by_rank[rank]
                    # (too few cards of the rank for a set, even with every wild card held; as many cards as are
                    # needed hold as many copies)
                    if (kind.ranks is not None and rank not in kind.ranks) or rank in taken or (
                            len(of_rank) < least_naturals and
                            (not copies or sum([count for _, count in of_rank]) < least_naturals)):
                        continue
                    key = (kind.name, owner, rank, tuple(of_rank), wilds)
                    group = groups.get(key)
                    if group is None:
                        made_sets, set_roles = self._sets(kind, owner, rank, key[3], wilds)
                        group = self._keep_group(key, made_sets, set_roles)
                    if group[0]:
                        found.append(group)
                        if first:
                            return found
            else:
                suits = set(by_suit)
                for card, _ in wilds:
                    if card in kind.in_place:
                        suits.add(suit_of[card])
                for suit in sorted(suits) if only_suit is None else (only_suit,) if only_suit in suits else ():
                    of_suit = by_suit.get(suit, ())
                    if len(of_suit) + wild_copies < kind.minimum:
                        continue  # (a run holds each card of its suit once: too few, even with every wild held)
                    key = (kind.name, owner, suit, tuple(of_suit), wilds)
                    group = groups.get(key)
                    if group is None:
                        made_runs, run_roles = self._runs(kind, owner, suit, key[3], wilds)
                        group = self._keep_group(key, made_runs, run_roles)
                    if group[0]:
                        found.append(group)
                        if first:
                            return found
        # (Each meld once: a group holds each of its melds once, and two groups never make the same meld: a meld
        # holds a natural card, of its group's rank or suit.)
        return found

    def _keep_group(self, key: tuple[Any, ...], melds: Iterable[Meld], roles: list[tuple[str, ...]]) -> Group:
        """The melds of one group (each once), with what each one's cards stand for, kept for the next search."""
        if len(self._groups) >= _GROUPS_KEPT:
            self._groups.clear()
        group = self._groups[key] = (tuple(melds), tuple(roles)) if roles else _NO_GROUP
        return group

    def can_meld(self, cards: Sequence[int], melds: Sequence[Meld]) -> bool:
        """Whether some of the cards make a new meld, or one of them goes onto one of the melds (answers kept:
        rules such as "a card that could be melded" ask the same few cards again and again)."""
        if len(cards) < self._shortest:  # (too few cards for a new meld: whether one goes onto a meld, kept by `add`)
            # (`add` card by card, not `additions`, whose set-up costs more for the one card usually asked)
            for meld in melds:
                for card in cards:
                    if self.add(meld, card) is not None:
                        return True
            return False
        # (a meld's hash is a call to Python, its id is not; with no meld, the cards alone: a tuple of cards never
        # equals a key with melds, whose first item is a tuple)
        key = (tuple(sorted(cards)), tuple(map(id, melds))) if melds else tuple(sorted(cards))
        kept = self._can_meld.get(key)
        if kept is not None:
            return kept[1]
        if len(self._can_meld) >= _UNMELDED_KEPT:
            self._can_meld.clear()
        # (whether the cards make a meld: the search stops at the first group of melds it finds)
        known = bool(self.search_groups(counted(cards), 0, list(melds), None, True)) or any(
            self.add(meld, card) is not None for meld in melds for card in dict.fromkeys(cards))
        self._can_meld[key] = (tuple(melds), known)
        return known

    def taken_ranks(self, table: list[Meld]) -> frozenset[tuple[str, int]]:
        """The (kind, rank) of the sets on an owner's table of kinds that allow one set per rank and owner."""
        if not self._ranked_kinds:
            return _NONE_TAKEN
        ranked = self._ranked_kinds  # (a meld of such a kind is a set)
        return frozenset([(meld.kind, meld.rank) for meld in table if meld.kind in ranked])

    def unmelded(self, hand: Sequence[int], onto: Sequence[Meld] = ()) -> list[int]:
        """The cards left out by the arrangement of the hand into disjoint new melds (of the kinds, each as
        `candidates` makes it), and additions to the melds `onto` (laid off, one card at a time, each as `add`
        takes it), that leaves the fewest points (`deck.values`), then the fewest cards; in hand order. A knock
        rummy's deadwood is their points."""
        key = tuple(sorted(hand))
        if onto:
            laid = (key, tuple(map(id, onto)))
            entry = self._laid.get(laid)
            if entry is None:
                if len(self._laid) >= _UNMELDED_KEPT:
                    self._laid.clear()
                melds = tuple(onto)
                entry = self._laid[laid] = (melds, self._laid_off(key, melds))
            kept = entry[1]
        else:
            kept = self._kept_unmelded(key)
        left = Counter(kept)
        ordered = []
        for card in hand:
            if left[card] > 0:
                left[card] -= 1
                ordered.append(card)
        return ordered

    def _kept_unmelded(self, hand: tuple[int, ...]) -> tuple[int, ...]:
        """`_least_unmelded` of a sorted hand, kept (the same hands recur within a turn)."""
        kept = self._unmelded.get(hand)
        if kept is None:
            if len(self._unmelded) >= _UNMELDED_KEPT:
                self._unmelded.clear()
            kept = self._unmelded[hand] = self._least_unmelded(hand)
        return kept

    def _laid_off(self, hand: tuple[int, ...], onto: tuple[Meld, ...]) -> tuple[int, ...]:
        """`_least_unmelded` when cards may also be laid off onto the melds `onto`: each card that fits one of
        them is laid off there (the meld grown, so that the next card may fit) or kept, the cards kept arranged
        into new melds."""
        return self._best_laid_off(hand, onto, {})[2]

    def _best_laid_off(self, remaining: tuple[int, ...], melds: tuple[Meld, ...],
                       known: dict[tuple[tuple[int, ...], tuple[Meld, ...]], _Leftover]) -> _Leftover:
        """`_laid_off` of these cards onto these melds: (the points left, how many cards, the cards), the least;
        each answer kept in `known`. (A method that calls itself, not a function nested in `_laid_off`: that
        would refer to itself through its closure, a cycle left for the garbage collector.)"""
        result = known.get((remaining, melds))
        if result is not None:
            return result
        value_of = self.deck.value_of
        left = self._kept_unmelded(remaining)
        result = (sum([value_of[card] for card in left]), len(left), left)
        for index, card in enumerate(remaining):
            if index and remaining[index - 1] == card:
                continue  # (a second copy is laid off the same ways)
            rest = remaining[:index] + remaining[index + 1:]
            for place, meld in enumerate(melds):
                grown = self.add(meld, card)
                if grown is not None:
                    result = min(result, self._best_laid_off(rest, (*melds[:place], grown, *melds[place + 1:]),
                                                             known))
        known[remaining, melds] = result
        return result

    def _least_unmelded(self, hand: tuple[int, ...]) -> tuple[int, ...]:
        by_lowest: dict[int, list[Counter[int]]] = {}  # the melds by their lowest card
        for meld in self.candidates(hand, 0, [], 0):
            by_lowest.setdefault(min(meld.cards), []).append(Counter(meld.cards))
        return self._best_unmelded(hand, by_lowest, {(): (0, 0, ())})[2]

    def _best_unmelded(self, remaining: tuple[int, ...], by_lowest: dict[int, list[Counter[int]]],
                       known: dict[tuple[int, ...], _Leftover]) -> _Leftover:
        """`_least_unmelded` of these cards (sorted), given the melds by their lowest card: (the points left, how
        many cards, the cards), the least; each answer kept in `known` (a method that calls itself, as
        `_best_laid_off`)."""
        kept = known.get(remaining)
        if kept is not None:
            return kept
        first, rest = remaining[0], remaining[1:]  # the lowest card: left out, or in a meld it is lowest in
        points, count, left = self._best_unmelded(rest, by_lowest, known)
        found = (points + self.deck.value_of[first], count + 1, (first, *left))
        held = Counter(remaining)
        for meld in by_lowest.get(first, ()):
            if all(held[card] >= n for card, n in meld.items()):
                after = tuple(sorted((held - meld).elements()))
                points, count, left = self._best_unmelded(after, by_lowest, known)
                found = min(found, (points, count, left))
        known[remaining] = found
        return found

    def _wild_combinations(self, wild_cards: tuple[tuple[int, int], ...],
                           most: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Every multiset of at most `most` of the wild cards held (card, how many): (the wilds, the distinct cards
        among them). Worked out once for each holding; `_wild_choices` then leaves out those the naturals
        already use up."""
        key = (wild_cards, most)
        found = self._combinations.get(key)
        if found is not None:
            return found
        counts = dict(wild_cards)
        wilds = sorted(counts)
        found = [((), ())]
        for size in range(1, most + 1):
            for combo in itertools.combinations_with_replacement(wilds, size):
                if all(counts[card] >= combo.count(card) for card in combo):
                    found.append((combo, tuple(dict.fromkeys(combo))))
        if len(self._combinations) >= _UNMELDED_KEPT:
            self._combinations.clear()
        self._combinations[key] = found
        return found

    def _wild_choices(self, counts: Mapping[int, int], combinations: list[tuple[tuple[int, ...], tuple[int, ...]]],
                      naturals: Iterable[int], size: int | None = None) -> list[tuple[int, ...]]:
        """The wild cards that can go with these naturals (as many as `size`, if given)."""
        is_wild = self.is_wild
        used: dict[int, int] = {}
        for card in naturals:
            if is_wild[card]:  # a wild card used as a natural (a two in its own place)
                used[card] = used.get(card, 0) + 1
        return [combo for combo, distinct in combinations if (size is None or len(combo) == size) and
                (not used or all(counts[card] >= combo.count(card) + used.get(card, 0) for card in distinct))]

    def _sets(self, kind: MeldKind, owner: int, rank: int, holding: tuple[tuple[int, int], ...],
              wild_cards: tuple[tuple[int, int], ...]) -> tuple[list[Meld], list[tuple[str, ...]]]:
        """The sets of one rank, with what each one's cards stand for (two lists in the same order): its natural
        cards held (card, how many, in card order) with the wild cards held. Each set comes once: the rank's cards
        are never wild, so every choice of naturals and of wilds (`_wild_combinations`, all of which go with any
        naturals of the rank) makes a different set."""
        found: list[Meld] = []
        found_roles: list[tuple[str, ...]] = []
        most_wilds = min(sum(count for _, count in wild_cards), kind.max_wilds)
        least_naturals = _least_naturals(kind, most_wilds)
        if sum(count for _, count in holding) < least_naturals:
            return found, found_roles  # (too few cards of the rank for a set, even with every wild)
        wild_parts, by_size = self._set_wilds(wild_cards, kind, rank)
        kind_name = kind.name
        for size, naturals in self._set_naturals(holding, least_naturals):
            parts = by_size.get(size)
            if parts is None:  # (the choices of wild cards that make a set of a size the kind allows, as `_set`)
                flags, roles = (False,) * size, ("",) * size
                parts = by_size[size] = [(combo, flags + combo_flags, roles + combo_roles)
                                         for combo, combo_flags, combo_roles in wild_parts
                                         if kind.minimum <= size + len(combo) <= kind.maximum]
            # (each set's flags and roles are those its part keeps, shared by every set of so many naturals with
            # those wild cards: a set's own tuples would be a few more objects for the collector per set)
            for combo, flags, roles in parts:
                found.append(Meld((0, kind_name, "set", owner, naturals + combo, flags, rank, -1, 0, False, 0,
                                          -1)))
                found_roles.append(roles)
        return found, found_roles

    def _set_naturals(self, holding: tuple[tuple[int, int], ...], least: int) -> list[tuple[int, tuple[int, ...]]]:
        """Each choice of at least `least` of the natural cards held (card, how many, in card order), in the order
        of `itertools.product` over how many of each: how many, and the cards. Worked out once for each holding (a
        rank's cards recur from hand to hand)."""
        key = (holding, least)
        found = self._natural_choices.get(key)
        if found is None:
            found = []
            cards = [card for card, _ in holding]
            most = [count for _, count in holding]
            # How many of each card, counted as `itertools.product` goes, the last card fastest (plain loops,
            # which the compiled build runs in C)
            amounts = [0] * len(holding)
            while True:
                size = 0
                for amount in amounts:
                    size += amount
                if size >= least:
                    naturals: list[int] = []
                    for index, amount in enumerate(amounts):
                        if amount:
                            naturals.extend([cards[index]] * amount)
                    found.append((size, tuple(naturals)))
                index = len(amounts) - 1
                while index >= 0 and amounts[index] == most[index]:
                    amounts[index] = 0
                    index -= 1
                if index < 0:
                    break
                amounts[index] += 1
            if len(self._natural_choices) >= _UNMELDED_KEPT:
                self._natural_choices.clear()
            self._natural_choices[key] = found
        return found

    def _set_wilds(self, wild_cards: tuple[tuple[int, int], ...], kind: MeldKind, rank: int) -> tuple[
            list[_WildPart], dict[int, list[_WildPart]]]:
        """Each choice of at most `max_wilds` of the wild cards held (`_wild_combinations`) with its part of a set
        of the rank (after the naturals): its cards, its flags and what its cards stand for
        (the rank); and, by how many naturals a set holds, the choices that make a set of a size the kind allows,
        each with the flags of the whole set and what its cards stand for (filled by `_sets` as sizes come).
        Worked out once for each holding, kind and rank."""
        key = (wild_cards, kind.name, rank)
        found = self._set_parts.get(key)
        if found is None:
            name = self.deck.rank_name(rank)
            found = ([(combo, (True,) * len(combo), (name,) * len(combo))
                      for combo, _ in self._wild_combinations(wild_cards, kind.max_wilds)], {})
            if len(self._set_parts) >= _UNMELDED_KEPT:
                self._set_parts.clear()
            self._set_parts[key] = found
        return found

    def _runs(self, kind: MeldKind, owner: int, suit: int, holding: tuple[tuple[int, int], ...],
              wild_cards: tuple[tuple[int, int], ...]) -> tuple[Iterable[Meld], list[tuple[str, ...]]]:
        """The runs of one suit, each once (the first arrangement found), with what each one's cards stand for (in
        the same order): its natural cards held (card, how many) with the wild cards held (those natural in their
        own place in this suit count there too)."""
        found: _RunsFound = {}  # (cards, flags) -> the run first found so
        found_roles: list[tuple[str, ...]] = []
        lowest, highest = self._bounds(kind)
        suit_of = self.deck.suit_of
        # Each place's card, the first of those that sit there naturally (most places have one: the copies of a
        # card are one value; the general choice of a window with both places of the ace sees them all).
        card_at: dict[int, int] = {}
        in_place = [card for card, _ in wild_cards if card in kind.in_place and suit_of[card] == suit] \
            if wild_cards else []
        for card in sorted(card for card, _ in holding) + in_place:
            for position in self.positions(kind, card):
                card_at.setdefault(position, card)
        # The wild cards a window can use: a window with more gaps, or fewer naturals, is never filled.
        most_wilds = min(sum(count for _, count in wild_cards), kind.max_wilds) if wild_cards else 0
        if not card_at or len(card_at) + most_wilds < kind.minimum:
            return (), found_roles
        # The places the hand fills, as bits (bit i: the place lowest + i), and how many it fills below each place
        # (`below[i]`, the same past the highest): a window's naturals are counted in one subtraction, and most
        # windows are ruled out without looking at them. (Plain loops over the places, with no methods of `int`:
        # the compiled build runs them in C.)
        span = highest - lowest + 1
        least_naturals, shortest, longest = kind.min_naturals, kind.minimum, kind.maximum
        if shortest < 0:
            shortest = 0
        mask = 0
        for position in card_at:
            mask |= 1 << (position - lowest)
        below = [0] * (span + shortest + 1)
        for index in range(span + shortest):
            below[index + 1] = below[index] + ((mask >> index) & 1 if index < span else 0)
        # A window starts at most `most_wilds` places below a natural card (its first places can't all be gaps).
        starts = mask
        for gap in range(1, most_wilds + 1):
            starts |= mask >> gap
        # A window with more gaps than wild cards from every start (the shortest has the fewest): no run at all,
        # the common answer, found before the set-up below.
        enough = shortest - most_wilds
        for offset in range(span):
            if (starts >> offset) & 1 and below[offset + shortest] - below[offset] >= enough:
                break
        else:
            return (), found_roles
        counts = dict(wild_cards)
        counts.update(holding)
        # The wild cards that can go with a window's naturals, by how many (see `_wild_choices`): worked out once
        # here, and filtered per window only when a wild card stands as a natural in it (a two in its place).
        combinations = self._wild_combinations(wild_cards, kind.max_wilds)
        by_size: dict[int, list[tuple[int, ...]]] = {}
        for combo, _ in combinations:
            by_size.setdefault(len(combo), []).append(combo)
        # The places where a wild card held sits as a natural (a two in its place): only a window with one of them
        # among its naturals must leave that card out of the wild cards it may use.
        in_place_places = {position for card in in_place for position in self.positions(kind, card)}
        two_aces = self.ace_low != self.ace_high  # (the ace has two places: a window may hold both)
        either_end = kind.either_end
        # For the runs of one wild card, made here rather than by `_run_with_one_wild` (the same runs): the places
        # where each wild card held is natural (its own place in this suit; elsewhere it acts as a wild), and what
        # a wild stands for at each place.
        natural_places = {card: self.positions(kind, card) if card in kind.in_place and suit_of[card] == suit else ()
                          for card, _ in wild_cards} if wild_cards else {}
        role_at = self._roles_in(suit) if wild_cards else {}
        blank, one_wild, no_wild, name = self._blank, self._one_wild, self._no_wild, kind.name
        for offset in range(span):  # (the starts from the lowest)
            if not (starts >> offset) & 1:
                continue
            filled = below[offset + shortest] - below[offset]
            if shortest - filled > most_wilds:
                continue  # (too many gaps in the shortest window from here: in every window from here)
            low = lowest + offset
            first = low + shortest - 1
            held = [position for position in range(low, first) if position in card_at]  # (grown with the window)
            for high in range(first, min(highest, low + longest - 1) + 1):
                if high in card_at:
                    held.append(high)
                size = high - low + 1
                gaps = size - len(held)
                if gaps > most_wilds:
                    break  # a longer window from the same place has as many gaps or more
                if not held:
                    continue
                if two_aces and low <= self.ace_low and self.ace_high <= high:
                    # (a window with both places of the ace may hold one ace twice: see `_choose_naturals`)
                    self._general_window(kind, owner, suit, range(low, high + 1), holding, in_place, counts,
                                         most_wilds - gaps, combinations, found, found_roles)
                    continue
                # (each place has one card that sits there, the copies of a card being one value)
                ways = self._place_naturals(held, most_wilds - gaps) if gaps < most_wilds and len(held) > 1 \
                    else (held,)
                for places in ways:
                    if len(places) < least_naturals:
                        continue
                    needed = size - len(places)  # an extra wild at an end is another window's
                    if needed == 1:
                        # One wild card (as `_run_with_one_wild` places it): in the one gap of the naturals, else at
                        # an end (the lower one when it can, or when asked). A run whose wild sits below the window
                        # is the run that the window one place lower made of the same naturals: found there already.
                        start, end = places[0], places[-1]
                        if end - start + 1 == size:
                            total = 0
                            for place in places:
                                total += place
                            where: tuple[int, ...] = ((start + end) * size // 2 - total,)
                        else:
                            under: int | None = start - 1 if start > lowest else None  # (the places next to it)
                            over: int | None = end + 1 if end < highest else None
                            lower_first = over if under is None else under
                            where = () if lower_first is None or lower_first < low else (lower_first,)
                            if either_end:
                                upper_first = under if over is None else over
                                if upper_first is not None and upper_first >= low and upper_first not in where:
                                    where += (upper_first,)
                            if not where:
                                continue
                    naturals = tuple([card_at[place] for place in places])
                    if not in_place or not _meets(in_place_places, places):
                        choices = by_size.get(needed, ())
                    else:
                        choices = self._wild_choices(counts, combinations, naturals, needed)
                    if not choices:
                        continue
                    if needed == 1:
                        # What each place of the wild card makes of these naturals, worked out before the wild
                        # cards that may go there (the same for each of them, unless one sits there naturally).
                        before_after = []
                        for place in where:
                            index = place - start if place > start else 0
                            before_after.append((place, naturals[:index], naturals[index:], one_wild[size][index],
                                                 blank[index] + (role_at[place],) + blank[size - index - 1],
                                                 place if place < start else start, place < start or place > end))
                        for (wild_card,) in choices:
                            sits_at = natural_places[wild_card]
                            for place, before, after, acting, roles, run_low, free in before_after:
                                cards = (*before, wild_card, *after)
                                natural = place in sits_at  # (the wild card in its own place: a natural there)
                                flags = no_wild[size] if natural else acting
                                # (made before it is looked up: a run found twice is rare, and the look-up that
                                # keeps the first found is then one hash of its cards and flags, not two)
                                meld = Meld((0, name, "run", owner, cards, flags, -1, suit, run_low,
                                                    free and not natural, 0, -1))
                                if found.setdefault((cards, flags), meld) is meld:
                                    found_roles.append(blank[size] if natural else roles)
                    elif needed == 0:  # the window's places all held: its natural run (as `_natural_run` makes it)
                        cards = naturals
                        flags = no_wild[size]
                        if (cards, flags) not in found:
                            found[cards, flags] = Meld((0, name, "run", owner, cards, flags, -1, suit, low,
                                                               False, 0, -1))
                            found_roles.append(blank[size])
                    else:
                        self._general_runs(kind, owner, suit, dict(zip(places, naturals, strict=True)), choices,
                                           found, found_roles)
        return found.values(), found_roles

    def _general_window(self, kind: MeldKind, owner: int, suit: int, window: range,
                        holding: tuple[tuple[int, int], ...], in_place: list[int], counts: Mapping[int, int],
                        spare_wilds: int, combinations: list[tuple[tuple[int, ...], tuple[int, ...]]],
                        found: _RunsFound, found_roles: list[tuple[str, ...]]) -> None:
        """The runs of a window that the general choice of naturals fills (`_choose_naturals`) from the suit's
        cards held and its wild cards natural in their place, added to `found` (by cards and flags) unless found
        already, with what each stands for (see `_general_runs`)."""
        natural_at: dict[int, list[int]] = {}  # position -> the cards that sit there naturally
        for card in sorted(card for card, _ in holding) + in_place:
            for position in self.positions(kind, card):
                natural_at.setdefault(position, []).append(card)
        for naturals in self._choose_naturals(window, natural_at, counts, spare_wilds):
            if len(naturals) < kind.min_naturals:
                continue
            needed = len(window) - len(naturals)
            self._general_runs(kind, owner, suit, naturals,
                               self._wild_choices(counts, combinations, naturals.values(), needed), found,
                               found_roles)

    def _general_runs(self, kind: MeldKind, owner: int, suit: int, naturals: dict[int, int],
                      choices: Iterable[tuple[int, ...]], found: _RunsFound,
                      found_roles: list[tuple[str, ...]]) -> None:
        """The runs of these naturals (position -> card) with each choice of wild cards, as `_run` makes them,
        added to `found` (by cards and flags) unless found already, with what each stands for (appended to
        `found_roles`, in the order of `found`)."""
        for wilds in choices:
            for prefer_low in (True, False) if kind.either_end else (True,):
                meld = self._run(kind, 0, owner, suit, naturals, list(wilds), prefer_low)
                if meld is not None and (meld.cards, meld.wild) not in found:
                    found[meld.cards, meld.wild] = meld
                    found_roles.append(self.roles(meld))

    @staticmethod
    def _place_naturals(held: list[int], spare_wilds: int) -> list[list[int]]:
        """`_choose_naturals` when each place has one card that sits there: the places of a window the hand fills
        (`held`, in order), then the same leaving out up to `spare_wilds` of them for a wild to stand in, in the
        same order."""
        ways = [held]
        if spare_wilds > 0 and len(held) > 1:
            ways.extend(held[:index] + held[index + 1:] for index in range(len(held)))
        for left_out in range(2, min(spare_wilds, len(held) - 1) + 1):
            for omitted in itertools.combinations(held, left_out):
                ways.append([position for position in held if position not in omitted])
        return ways

    def _choose_naturals(self, window: range, natural_at: dict[int, list[int]], counts: Mapping[int, int],
                         spare_wilds: int) -> list[dict[int, int]]:
        """The ways to fill the window's natural positions from the hand (a card used once per copy held),
        also leaving a place the hand could fill for a wild to stand in (as many as `spare_wilds` allows)."""
        held = [p for p in window if p in natural_at]
        ways = []
        for left_out in range(min(spare_wilds, len(held) - 1) + 1):
            for omitted in itertools.combinations(held, left_out):
                positions = [p for p in held if p not in omitted]
                for choice in itertools.product(*(natural_at[p] for p in positions)):
                    if len(set(choice)) == len(choice) or all(counts[card] >= choice.count(card) for card in choice):
                        ways.append(dict(zip(positions, choice, strict=True)))
        return ways

    # --- adding to a meld ------------------------------------------------------------------------------------

    def add(self, meld: Meld, card: int) -> Meld | None:
        """The meld with one more card, or None when the card cannot go there (answers kept: the same melds
        and cards are tried at every decision of a turn, and turn after turn)."""
        known = self._additions_kept(meld)[1]
        if card in known:
            return known[card]
        grown = known[card] = self._grown(meld, card)
        return grown

    def additions(self, melds: Iterable[Meld], cards: Sequence[int]) -> list[tuple[Meld, int, Meld]]:
        """The cards that go onto each meld (the melds in their order, the cards in theirs), each with the meld it
        makes: `add` for each card of the set's rank or the run's suit, or wild (every other card it refuses),
        written out for the legal sets that offer every addition."""
        found = []
        for meld in melds:
            _, known, fitting = self._additions_kept(meld)
            for card in cards:
                if card not in fitting:
                    continue
                if card in known:
                    grown = known[card]
                else:
                    grown = known[card] = self._grown(meld, card)
                if grown is not None:
                    found.append((meld, card, grown))
        return found

    def _additions_kept(self, meld: Meld) -> tuple[MeldRules, dict[int, Meld | None], frozenset[int]]:
        """The record kept with the meld of what each card added to it makes (see `add`), with the cards that may
        go onto it at all (its rank's or its suit's, and the wild cards): made when these rules first ask."""
        kept = meld.additions_known
        if kept is not None and kept[0] is self:
            return kept
        fitting = self._fit_rank.get(meld.rank, self._wild_cards) if meld.shape == "set" else \
            self._fit_suit.get(meld.suit, self._wild_cards)
        kept = meld.additions_known = (self, {}, fitting)
        return kept

    def _grown(self, meld: Meld, card: int) -> Meld | None:
        """The meld with one more card (not kept), within the ends its kind allows."""
        added = self._add(meld, card)
        most = self.kinds[meld.kind].max_added_per_end
        if added is not None and most is not None:
            added = self._within_ends(meld, added, most)
        return added

    @staticmethod
    def _within_ends(meld: Meld, grown: Meld, most: int) -> Meld | None:
        """A run grown by a card, when no more than `most` cards lie beyond either end of the run as it was laid
        (`max_added_per_end`), keeping those ends; else None."""
        low, high = (meld.laid_low, meld.laid_high) if meld.laid_high >= meld.laid_low else \
            (meld.low, meld.low + len(meld.cards) - 1)  # (the first card added: the run is as it was laid)
        if low - grown.low > most or grown.low + len(grown.cards) - 1 - high > most:
            return None
        return grown.replaced(laid_low=low, laid_high=high)

    def _add(self, meld: Meld, card: int) -> Meld | None:
        kind = self.kinds[meld.kind]
        if meld.shape == "set":
            wild = self.is_wild[card]
            if not wild and self.deck.rank_of[card] != meld.rank:
                return None
            # (a set with no wild card, the most common, is all naturals: no need to pick them out)
            naturals, wilds = (list(meld.cards), []) if True not in meld.wild else (meld.naturals, meld.wilds)
            if wild:
                wilds.append(card)
            else:
                naturals.append(card)
            return self._set(kind, meld.id, meld.owner, meld.rank, naturals, wilds)
        return self._add_to_run(kind, meld, card)

    def _add_to_run(self, kind: MeldKind, meld: Meld, card: int) -> Meld | None:
        if not self.is_wild[card] and self.deck.suit_of[card] != meld.suit:
            return None  # a natural card of another suit never goes in a run
        if kind.fixed_wilds:
            return self._add_to_fixed_run(kind, meld, card)
        low, cards = meld.low, meld.cards
        high = low + len(cards) - 1
        wilds: dict[int, int] = {}
        if True in meld.wild:
            naturals: dict[int, int] = {}
            acting = meld.wild
            for index, held in enumerate(cards):
                (wilds if acting[index] else naturals)[low + index] = held
        else:  # (a run with no wild card: every place holds a natural)
            naturals = {low + index: held for index, held in enumerate(cards)}
        # (a natural card of the run's suit sits naturally at each of its places: `_is_natural_here` holds)
        natural_options = self.positions(kind, card) if not self.is_wild[card] else \
            [p for p in self.positions(kind, card) if self._is_natural_here(card, meld.suit, p, kind)]
        for position in natural_options:
            if position in naturals:
                continue
            if position in wilds:  # the natural the wild stands for replaces it (BU-30, BU-31)
                freed = wilds[position]
                others = [c for p, c in wilds.items() if p != position]  # (the next position still has it)
                grown = {**naturals, position: card}
                below = min(grown) - 1
                if self._is_natural_here(freed, meld.suit, below, kind) and below >= self._bounds(kind)[0]:
                    grown[below] = freed  # a two back in its own place, natural again (BU-32)
                    result = self._run(kind, meld.id, meld.owner, meld.suit, grown, others)
                else:
                    result = self._run(kind, meld.id, meld.owner, meld.suit, grown, [*others, freed])
                if result is not None:
                    return result
                continue
            if meld.low - 2 <= position <= high + 2:
                grown = {**naturals, position: card}
                result = self._run(kind, meld.id, meld.owner, meld.suit, grown, list(wilds.values()))
                if result is not None and (not wilds or meld.free or self._keeps_wilds(meld, result)):
                    return result
                if position == high + 2 and not wilds:  # a natural in place at the bottom turns wild (BU-32)
                    bottom = naturals.get(meld.low)
                    if bottom is not None and bottom in kind.in_place:
                        rest = {p: c for p, c in grown.items() if p != meld.low}
                        result = self._run(kind, meld.id, meld.owner, meld.suit, rest, [bottom])
                        if result is not None:
                            return result
        if self.is_wild[card] and len(wilds) < kind.max_wilds:
            return self._run(kind, meld.id, meld.owner, meld.suit, naturals, [*wilds.values(), card])
        return None

    def _add_to_fixed_run(self, kind: MeldKind, meld: Meld, card: int) -> Meld | None:
        """A card added to a run whose wilds keep the cards they were laid as: at an end, next to the run (a wild
        at the lower end when it can), every card staying where it is."""
        if len(meld.cards) >= kind.maximum:
            return None
        high = meld.low + len(meld.cards) - 1
        lowest, highest = self._bounds(kind)
        for position in self.positions(kind, card):  # a natural card (or a wild in its own place), next to the run
            if position in (meld.low - 1, high + 1) and lowest <= position <= highest and \
                    self._is_natural_here(card, meld.suit, position, kind):
                grown = self._extended(meld, card, position, False)
                if not self._both_aces(grown):
                    return grown
        if self.is_wild[card] and sum(meld.wild) < kind.max_wilds:  # a wild: at the lower end, else the upper
            places = [place for place in (meld.low - 1, high + 1) if lowest <= place <= highest]
            return self._extended(meld, card, places[0], True) if places else None
        return None

    def _extended(self, meld: Meld, card: int, position: int, acts: bool) -> Meld:
        if position < meld.low:
            return meld.replaced(cards=(card, *meld.cards), wild=(acts, *meld.wild), low=position, free=False)
        return meld.replaced(cards=(*meld.cards, card), wild=(*meld.wild, acts), free=False)

    def _both_aces(self, meld: Meld) -> bool:
        """Whether a run holds a natural ace at both its ends (BU-26: an ace is low or high, never both)."""
        low_ace, high_ace = self.ace_low, self.ace_high
        high = meld.low + len(meld.cards) - 1
        if low_ace == high_ace or meld.low != low_ace or high != high_ace or meld.wild[0] or meld.wild[-1]:
            return False
        rank_of = self.deck.rank_of
        return rank_of[meld.cards[0]] == self.ace and rank_of[meld.cards[-1]] == self.ace

    def _keeps_wilds(self, before: Meld, after: Meld) -> bool:
        """A fixed wild (between two naturals) may not move: it stands where it stood."""
        old = {before.low + i for i, w in enumerate(before.wild) if w}
        new = {after.low + i for i, w in enumerate(after.wild) if w}
        return old == new

    # --- text and explanations ---------------------------------------------------------------------------------

    def rank_at(self, position: int) -> int:
        return self.ace if position in (-1, self.top + 1) else position

    def _roles_in(self, suit: int) -> dict[int, str]:
        """What a wild card stands for at each place of a run of the suit (as `roles` gives it), worked out once."""
        found = self._suit_roles.get(suit)
        if found is None:
            deck = self.deck
            found = self._suit_roles[suit] = {position: deck.card_text(deck.card_of(self.rank_at(position), suit))
                                              for position in range(-1, self.top + 2)}
        return found

    def roles(self, meld: Meld) -> tuple[str, ...]:
        """What each card stands for, as the action's text gives it: "" for a natural card."""
        wild = meld.wild
        if True not in wild:
            return ("",) * len(wild)
        if meld.shape == "set":
            name = self.deck.rank_name(meld.rank)
            return tuple([name if acts else "" for acts in wild])
        texts = self._role_texts
        found = [""] * len(wild)
        index = -1
        for _ in range(wild.count(True)):  # (a run holds a wild or two among naturals: find them, not the rest)
            index = wild.index(True, index + 1)
            position = meld.low + index
            text = texts.get((meld.suit, position))
            if text is None:
                deck = self.deck
                text = texts[meld.suit, position] = deck.card_text(deck.card_of(self.rank_at(position), meld.suit))
            found[index] = text
        return tuple(found)

    def explain(self, cards: list[int], table: list[Meld]) -> str:
        """Why these cards are not a meld, in the words of the rules."""
        deck = self.deck
        naturals = [card for card in cards if not self.is_wild[card]]
        wilds = [card for card in cards if self.is_wild[card]]
        sets = [k for k in self.kinds.values() if k.shape == "set"]
        runs = [k for k in self.kinds.values() if k.shape == "run"]
        smallest = min(kind.minimum for kind in self.kinds.values())
        if len(cards) < smallest:
            return f"a meld needs at least {smallest} cards"
        ranks = {deck.rank_of[card] for card in naturals}
        suits = {deck.suit_of[card] for card in naturals}
        most_wilds = max(kind.max_wilds + (1 if kind.in_place else 0) for kind in self.kinds.values())
        if len(naturals) == 1 and sets and runs and len(wilds) > most_wilds:  # (either kind, by one natural card)
            return f"a meld may hold {_count(most_wilds, 'wild card')}; this one holds {len(wilds)}"
        if sets and len(ranks) == 1 and not (len(naturals) == 1 and runs):
            kind = sets[0]
            rank = next(iter(ranks))
            if kind.ranks is not None and rank not in kind.ranks:
                return f"there are no sets of {deck.rank_name(rank)}"
            if kind.one_per_owner and any(m.kind == kind.name and m.rank == rank for m in table):
                return f"your side already has a set of {deck.rank_name(rank)}; add to it"
            if len(wilds) > kind.max_wilds:
                return f"a {kind.name} may hold {_count(kind.max_wilds, 'wild card')}; this one holds {len(wilds)}"
            if len(naturals) < kind.min_naturals:
                return f"a {kind.name} needs at least {kind.min_naturals} natural cards"
            if len(cards) > kind.maximum:
                return f"a {kind.name} holds at most {kind.maximum} cards"
        if runs and len(suits) == 1:
            kind = runs[0]
            positions = Counter(deck.rank_of[card] for card in naturals)
            if any(n > 1 for n in positions.values()):
                return f"a {kind.name} may not hold two cards of one rank"
            suit = next(iter(suits))
            in_place = sum(1 for card in wilds if card in kind.in_place and deck.suit_of[card] == suit)
            if len(wilds) > kind.max_wilds + min(in_place, 1):
                return f"a {kind.name} may hold {_count(kind.max_wilds, 'wild card')}; this one holds {len(wilds)}"
            if len(cards) > kind.maximum:
                return f"a {kind.name} holds at most {kind.maximum} cards"
            return "the cards are not consecutive (a wild card fills one gap at most; no wrapping round)"
        if not naturals:
            return "a meld needs natural cards, not only wild ones"
        kinds = " nor ".join([*(f"of one rank (a {kind.name})" for kind in sets[:1]),
                              *(f"consecutive in one suit (a {kind.name})" for kind in runs[:1])])
        return f"the cards are neither {kinds}" if sets and runs else f"the cards are not {kinds}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def build_meld_rules(deck: Deck, section: Any, expressions: Mapping[str, Any]) -> MeldRules | None:
    """The meld rules of a ruleset's `melds:` section (the located tree), or None without one. `wild` and
    `natural_in_place` are evaluated once per card here: they may read the card and parameters only."""
    if section is None:
        return None
    entries = section.entries

    def per_card(path: str) -> Callable[[int], bool]:
        function = expressions.get(path)
        if function is None:
            return lambda card: False

        def test(card: int) -> bool:
            try:
                return bool(function({}, {"card": card}))
            except Exception:
                raise RulesetRuntimeError("`wild` and `natural_in_place` may read only the card and parameters",
                                          path) from None

        return test

    kinds = []
    ranks_by_name = {name: index for index, name in enumerate(deck.rank_names)}
    for index, node in enumerate(entries["kinds"].items):
        e = node.entries
        value = {key: getattr(item, "value", None) for key, item in e.items()}
        ace = value.get("ace") or "low_or_high"
        ranks = e.get("ranks")
        in_place = per_card(f"melds.kinds[{index}].natural_in_place")
        kinds.append(MeldKind(
            name=str(value["name"]), shape=str(value["shape"]), minimum=int(value["min"] or 1),
            maximum=int(value.get("max") or 10_000), max_wilds=int(value.get("max_wilds") or 0),
            min_naturals=int(value.get("min_naturals") or 0),
            ranks=None if ranks is None else frozenset(ranks_by_name[str(item.value)] for item in ranks.items),
            one_per_owner=value.get("one_per_owner") is True, ace_low=ace in ("low", "low_or_high"),
            ace_high=ace in ("high", "low_or_high"),
            in_place=frozenset(card for card in deck.distinct_cards() if in_place(card)),
            either_end=value.get("free_wild") == "either_end",
            fixed_wilds=value.get("fixed_wilds") is True,
            max_added_per_end=_whole_or_none(value.get("max_added_per_end")),
        ))
        if value.get("wrap") is True:
            raise RulesetRuntimeError("runs that turn the corner (`wrap: true`) are not supported",
                                      f"melds.kinds[{index}].wrap")
    return MeldRules(deck, kinds, per_card("melds.wild"))


def _whole_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def _held_into(held_by: dict[int, list[tuple[int, int]]], key: int, held: tuple[int, int]) -> None:
    """`held_by.setdefault(key, []).append(held)`, making a list only for a key not seen yet (`setdefault` would
    make one for every card)."""
    found = held_by.get(key)
    if found is None:
        held_by[key] = [held]
    else:
        found.append(held)


def _least_naturals(kind: MeldKind, most_wilds: int) -> int:
    """The fewest natural cards of a set of the kind with at most `most_wilds` wild cards: the kind's least, one,
    and what the wild cards leave to fill. (Comparisons, not `max(...)`: a call through Python in the compiled
    build, and a search works this out for every kind.)"""
    least = kind.minimum - most_wilds
    if least < kind.min_naturals:
        least = kind.min_naturals
    return least if least > 1 else 1


def _meets(places: set[int], chosen: list[int]) -> bool:
    """Whether one of the places chosen is among the places: `not places.isdisjoint(chosen)`, written as a loop
    that the compiled build runs in C (a method of `set` is a call through Python there)."""
    return any(place in places for place in chosen)


def counted(cards: Iterable[int]) -> dict[int, int]:
    """How many of each card, as a plain dict (what `Counter` gives, made about three times faster: a search counts
    the hand at every decision that offers melds)."""
    counts: dict[int, int] = {}
    _count_into(counts, cards)
    return counts
