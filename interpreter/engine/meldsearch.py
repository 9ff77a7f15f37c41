"""The new melds a seat's hand can make, kept between the decisions of one turn.

MeldRules.candidates depends on the hand as a multiset of cards (not on their order), on the owner and on the
ranks taken on the owner's table. After a meld is laid or a card added to one, the hand has only lost cards and
the table only gained melds. The melds of the last search that the hand still holds, and that no rank taken
since rules out, are then exactly the melds a new search finds, in the same order (a search never finds a meld
the hand could not make, and every meld it finds from fewer cards it also found from more). A hand that gained
a card (a draw, a pile taken) is searched again, which MeldRules.search answers mostly from the melds it keeps
for each suit's and rank's cards. The melds found are numbered 0; the one laid is given its own number when it
is laid (a ruleset's expressions never read it).

A search gives the melds and their actions as two tuples of the same length, not a tuple per meld: a 25-card
hand makes over a hundred melds, and each object left alive is one more for the garbage collector to go over.
A meld needs its own cards, as many of each as it holds: no count of them is kept, they are tested where that is
asked (the turn's kept search below, `groups`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from interpreter.actions import MELD_SIZES, Action
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.melds import Meld, MeldRules, counted

if TYPE_CHECKING:
    from interpreter.engine.state import State


class MeldSearch(NamedTuple):
    """What a search found for one seat's hand: the melds and their actions, in the same order. (A tuple: one is
    made at every decision that offers melds.)"""

    seat: int
    owner: int
    counts: dict[int, int]  # the hand's cards and how many of each (never changed once made)
    taken: frozenset[tuple[str, int]]  # the ranks taken on the owner's table by kinds of one meld per rank
    melds: tuple[Meld, ...]
    actions: tuple[Action, ...]


def new_melds(state: State, rules: MeldRules, seat: int, hand: list[int], owner: int,
              table: list[Meld]) -> tuple[tuple[Meld, ...], tuple[Action, ...]]:
    """Every valid new meld the seat's hand can make, and the action of each, in the same order (see the module
    docstring)."""
    counts = counted(hand)
    taken = rules.taken_ranks(table)
    kept = state.meld_search
    lost = None if kept is None or kept.seat != seat or kept.owner != owner or not kept.taken <= taken \
        else _lost(kept.counts, counts)
    melds: list[Meld] = []
    actions: list[Action] = []
    if lost is not None:
        assert kept is not None
        newly_taken = taken - kept.taken
        kept_actions = kept.actions
        # (plain loops, not generators or methods: this runs at every decision of a turn, and the compiled build
        # runs plain loops in C)
        for index, meld in enumerate(kept.melds):
            cards = meld.cards
            for card, left in lost:
                needed = 0  # (a meld needs its cards, as many of each as it holds)
                for held in cards:
                    if held == card:
                        needed += 1
                if needed > left:
                    break
            else:
                if not (newly_taken and meld.shape == "set" and (meld.kind, meld.rank) in taken):
                    melds.append(meld)
                    actions.append(kept_actions[index])
    else:
        for group, roles in rules.search_groups(counts, owner, table):  # (as the rules keep them)
            melds.extend(group)
            for index, meld in enumerate(group):
                actions.append(_ACTION(Action, (seat, "meld", -1, "", (), meld.cards, roles[index], -1)))
    found = (tuple(melds), tuple(actions))
    # (made in C, as actions are: a named tuple's own constructor is Python code)
    state.meld_search = _ACTION(MeldSearch, (seat, owner, counts, taken, found[0], found[1]))
    return found


def _lost(before: dict[int, int], now: dict[int, int]) -> list[tuple[int, int]] | None:
    """The cards of which the hand now holds fewer, with how many are left; None when it gained any card."""
    for card in now:
        if card not in before:  # (a card the hand did not hold)
            return None
    lost = []
    for card, held in before.items():
        left = now.get(card, 0)
        if left != held:
            if left > held:
                return None
            lost.append((card, left))
    return lost


MOST_GROUPS = 20_000  # the most groups of melds one decision may offer (see `groups`)


def meld_groups(state: State, rules: MeldRules, seat: int, hand: list[int], owner: int, table: list[Meld],
                most: int, where: str) -> list[tuple[tuple[Meld, ...], Action]]:
    """Every way to lay one to `most` new melds at once from the seat's hand, with its action."""
    melds, actions = new_melds(state, rules, seat, hand, owner, table)
    assert state.meld_search is not None  # (the search just made: its count of the hand, which `groups` copies)
    return groups(rules, seat, melds, actions, state.meld_search.counts, most, where)


def groups(rules: MeldRules, seat: int, melds: Sequence[Meld], actions: Sequence[Action],
           counts: Mapping[int, int], most: int, where: str,
           holding: int | None = None) -> list[tuple[tuple[Meld, ...], Action]]:
    """The groups of one to `most` of the melds found (with their actions, in the same order) that the
    cards counted can make together: a meld may come twice when the cards are held twice, and a kind of one meld
    per rank and owner has at most one set of a rank in a group. Each group once, its melds in the order found;
    the single melds first, then the pairs, and so on. With `holding`, only the groups with a meld that holds
    that card, in the same order (the others are not made, and those that cannot lead to one are not gone
    through). More than MOST_GROUPS groups gone through is an error at `where` (a legal set is returned whole):
    a hand of 12 cards of a double pack with four wild cards makes about 2,000 groups of up to three melds."""
    kinds = rules.kinds
    # Each meld with its action, its cards, and the rank it takes (None when its kind allows more sets of it)
    entries = [((meld, action), meld.cards, (meld.kind, meld.rank)
                if meld.shape == "set" and kinds[meld.kind].one_per_owner else None)
               for meld, action in zip(melds, actions, strict=True)]
    # With a card to hold: which melds hold it. A group that does not hold it yet counts as holding none (with no
    # card to hold, every group counts as holding it).
    holds = [holding is None or holding in meld.cards for meld in melds]
    grouping = _Grouping(seat, entries, holds, dict(counts), most, where, holding is None)
    grouping.extend(0)
    return [group for size in grouping.by_size for group in size]


class _Grouping:
    """One enumeration of groups of melds (see `groups`): what is chosen so far and what is left. (A class, not a
    function nested in `groups` that calls itself: such a function refers to itself through its closure, and each
    enumeration's lists would be left for the garbage collector to find.)"""

    def __init__(self, seat: int, entries: list[tuple[tuple[Meld, Action], tuple[int, ...], tuple[str, int] | None]],
                 holds: list[bool], left: dict[int, int], most: int, where: str, held_anyway: bool) -> None:
        self.seat = seat
        self.entries = entries
        self.holds = holds
        self.last = max((index for index, holds_it in enumerate(holds) if holds_it), default=-1)  # the last holding it
        self.left = left  # the cards not in the group, by how many
        self.most = most
        self.where = where
        self.chosen: list[tuple[Meld, Action]] = []
        self.taken: set[tuple[str, int]] = set()  # the sets of the group, of kinds of one per rank and owner
        self.held = 1 if held_anyway else 0  # how many melds of the group hold the card (with none to hold: one)
        self.made = 0  # the groups gone through
        self.by_size: list[list[tuple[tuple[Meld, ...], Action]]] = [[] for _ in range(most)]

    def extend(self, start: int) -> None:
        """The groups made of those chosen and one more meld, from the `start`-th on, each followed by those it
        leads to."""
        entries, holds, left, chosen, taken, most = \
            self.entries, self.holds, self.left, self.chosen, self.taken, self.most
        for index in range(start, len(entries)):
            if not self.held:  # (a group that does not hold the card yet)
                if index > self.last:
                    break  # no meld from here on holds it
                if not holds[index] and len(chosen) + 1 == most:
                    continue  # the group would be full without it
            entry, cards, rank_taken = entries[index]
            if rank_taken in taken:
                continue
            # The meld's cards taken from those left, one at a time (a card it holds twice, twice), and given back
            # when one is missing (loops, not `any(...)`: this runs for every meld at every depth)
            given = 0
            for card in cards:
                if left.get(card, 0) <= 0:
                    break
                left[card] -= 1
                given += 1
            if given < len(cards):
                for card in cards[:given]:
                    left[card] += 1
                continue
            chosen.append(entry)
            if rank_taken is not None:
                taken.add(rank_taken)
            # (every group gone through counts, those that do not hold the card too: the work is bounded)
            self.made += 1
            if self.made > MOST_GROUPS:
                raise RulesetRuntimeError(f"more than {MOST_GROUPS:,} ways to lay up to {most} melds at once: the "
                                          f"legal set would be too large; lower `at_once`", self.where)
            self.held += holds[index]
            if self.held:
                self.by_size[len(chosen) - 1].append(_group(self.seat, chosen))
            if len(chosen) < most:
                self.extend(index)  # (the same meld again, when the cards are there twice)
            self.held -= holds[index]
            chosen.pop()
            if rank_taken is not None:
                taken.discard(rank_taken)
            for card in cards:
                left[card] += 1


def _group(seat: int, chosen: list[tuple[Meld, Action]]) -> tuple[tuple[Meld, ...], Action]:
    """A group of melds with its action: one meld's own, or the cards and roles of all, with their sizes."""
    if len(chosen) == 1:
        return (chosen[0][0],), chosen[0][1]
    actions = [entry[1] for entry in chosen]
    cards = tuple(itertools.chain.from_iterable([action.cards for action in actions]))
    roles = tuple(itertools.chain.from_iterable([action.roles for action in actions]))
    sizes = tuple([len(action.cards) for action in actions])
    return tuple([entry[0] for entry in chosen]), _ACTION(Action, (seat, "meld", -1, "", ((MELD_SIZES, sizes),),
                                                                   cards, roles, -1))


_ACTION = tuple.__new__  # an action made from its fields in order (Action is a named tuple)
