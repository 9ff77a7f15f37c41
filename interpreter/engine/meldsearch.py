"""The new melds a seat's hand can make, kept from one decision to the next.

MeldRules.search depends on the hand as a multiset of cards (not on their order), on the owner and on the ranks
taken on the owner's table; it finds the melds of each part (a kind with a rank's or a suit's natural cards) on
its own. The last search of each seat is kept, by part. From one of the seat's decisions to the next its hand
lost and gained a few cards (a meld laid, a card added, a discard; a draw) and its table gained melds:

- the melds kept that the hand still holds, and that no rank taken since rules out, are exactly the melds a new
  search finds from the cards it lost, in the same order (a search never finds a meld the hand could not make,
  and every meld it finds from fewer cards it also found from more);
- a natural card gained changes only the parts of its rank and of its suit: those are searched again (mostly
  answered from the melds MeldRules keeps for each part's cards); a wild card gained changes every part, and
  the hand is searched again.

The melds found are numbered 0; the one laid is given its own number when it is laid (a ruleset's expressions
never read it).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from interpreter.actions import MELD_SIZES, Action
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.melds import Candidate, Meld, MeldRules, Part, counted

if TYPE_CHECKING:
    from interpreter.engine.state import State


Entry = tuple[Meld, dict[int, int], Action]  # a new meld, the cards it needs (card -> how many), its action


class MeldSearch(NamedTuple):
    """What a search found for one seat's hand: the melds, with the cards each needs and its action, by part of
    the search (see MeldRules.search_parts), and all of them in order. (A tuple: one is made at every decision
    that offers melds, and the copies of a state share it.)"""

    owner: int
    counts: dict[int, int]  # the hand's cards and how many of each (never changed once made)
    taken: frozenset[tuple[str, int]]  # the ranks taken on the owner's table by kinds of one meld per rank
    parts: dict[Part, tuple[Entry, ...]]  # (never changed once made)
    found: tuple[Entry, ...]


def new_melds(state: State, rules: MeldRules, seat: int, hand: list[int], owner: int,
              table: list[Meld]) -> tuple[Entry, ...]:
    """Every valid new meld the seat's hand can make, with the cards it needs and its action (see the module
    docstring)."""
    counts = counted(hand)
    taken = rules.taken_ranks(table)
    searches = state.meld_searches
    kept = searches.get(seat)
    parts = None if kept is None or kept.owner != owner or not kept.taken <= taken else \
        _parts_again(rules, seat, kept, counts, taken)
    if parts is None:
        parts = {part: _entries(seat, group) for part, group in rules.search_parts(counts, owner, taken).items()}
    elif kept is not None and parts is kept.parts:  # (the same hand and table: the same melds)
        return kept.found
    found = tuple(itertools.chain.from_iterable(parts.values()))
    # (a new dict, not the old one changed: the copies of a state share it)
    state.meld_searches = {**searches, seat: MeldSearch(owner, counts, taken, parts, found)}
    return found


def _parts_again(rules: MeldRules, seat: int, kept: MeldSearch, counts: dict[int, int],
                 taken: frozenset[tuple[str, int]]) -> dict[Part, tuple[Entry, ...]] | None:
    """The parts of a search of the hand counted, from the search kept for the seat (the same owner, no rank
    taken then that is not taken now); None when a wild card was gained (every part changes)."""
    before = kept.counts
    lost = []  # (card, how many are left) for each card held fewer times
    for card, held in before.items() - counts.items():  # (the cards whose count changed: the items' difference in C)
        left = counts.get(card, 0)
        if left < held:
            lost.append((card, left))
    ranks: set[int] = set()  # the ranks and suits of the natural cards gained
    suits: set[int] = set()
    for card, held in counts.items() - before.items():
        if held > before.get(card, 0):
            if rules.is_wild[card]:
                return None
            ranks.add(rules.deck.rank_of[card])
            suits.add(rules.deck.suit_of[card])
    newly_taken = taken - kept.taken
    parts = kept.parts
    if not (lost or ranks or newly_taken):
        return parts
    places = rules.kind_places
    still: dict[Part, tuple[Entry, ...]] = {}
    for part, entries in parts.items():
        kind, is_set, value = places[part[0]] + (part[1],)
        if value in (ranks if is_set else suits) or (is_set and newly_taken and (kind, value) in newly_taken):
            continue  # (searched again below; or a rank newly taken: none of its sets)
        if lost:
            # (the melds kept that the hand still holds are those a new search of fewer cards finds)
            kept_entries = []
            for entry in entries:  # (loops, not generators: this runs at every decision of a turn)
                needs = entry[1]
                for card, left in lost:
                    if needs.get(card, 0) > left:
                        break
                else:
                    kept_entries.append(entry)
            if not kept_entries:
                continue
            if len(kept_entries) < len(entries):
                entries = tuple(kept_entries)
        still[part] = entries
    if ranks:  # (natural cards gained: the parts of their ranks and suits are searched again)
        again = rules.search_parts(counts, kept.owner, taken, (ranks, suits))
        if again:
            still.update((part, _entries(seat, group)) for part, group in again.items())
            still = dict(sorted(still.items()))  # (in the order of the parts' keys: the order of a search)
    return still


def _entries(seat: int, group: tuple[Candidate, ...]) -> tuple[Entry, ...]:
    return tuple([(meld, needs, _ACTION(Action, (seat, "meld", -1, "", (), meld.cards, roles, -1)))
                  for meld, needs, roles in group])


MOST_GROUPS = 20_000  # the most groups of melds one decision may offer (see `groups`)


def meld_groups(state: State, rules: MeldRules, seat: int, hand: list[int], owner: int, table: list[Meld],
                most: int, where: str) -> list[tuple[tuple[Meld, ...], Action]]:
    """Every way to lay one to `most` new melds at once from the seat's hand, with its action."""
    return groups(rules, seat, new_melds(state, rules, seat, hand, owner, table), counted(hand), most, where)


def groups(rules: MeldRules, seat: int, found: Sequence[tuple[Meld, dict[int, int], Action]], counts: dict[int, int],
           most: int, where: str) -> list[tuple[tuple[Meld, ...], Action]]:
    """The groups of one to `most` of the melds found (each with the cards it needs and its action) that the
    cards counted can make together: a meld may come twice when the cards are held twice, and a kind of one meld
    per rank and owner has at most one set of a rank in a group. Each group once, its melds in the order found;
    the single melds first, then the pairs, and so on. More than MOST_GROUPS is an error at `where` (a legal set
    is returned whole): a hand of 12 cards of a double pack with four wild cards makes about 2,000 groups of up
    to three melds."""
    left = dict(counts)
    chosen: list[tuple[Meld, dict[int, int], Action]] = []
    taken: set[tuple[str, int]] = set()  # the sets of the group, of kinds of one per rank and owner
    kinds = rules.kinds
    by_size: list[list[tuple[tuple[Meld, ...], Action]]] = [[] for _ in range(most)]
    made = 0
    # Each meld with the cards it needs as pairs, and the rank it takes (None when its kind allows more sets of it)
    entries = [(entry, tuple(entry[1].items()), (entry[0].kind, entry[0].rank)
                if entry[0].shape == "set" and kinds[entry[0].kind].one_per_owner else None) for entry in found]

    def extend(start: int) -> None:
        nonlocal made
        for index in range(start, len(entries)):
            entry, needs, rank_taken = entries[index]
            fits = True
            for card, count in needs:  # (a loop, not `any(...)`: this runs for every meld at every depth)
                if left.get(card, 0) < count:
                    fits = False
                    break
            if not fits or rank_taken in taken:
                continue
            for card, count in needs:
                left[card] -= count
            chosen.append(entry)
            if rank_taken is not None:
                taken.add(rank_taken)
            made += 1
            if made > MOST_GROUPS:
                raise RulesetRuntimeError(f"more than {MOST_GROUPS:,} ways to lay up to {most} melds at once: the "
                                          f"legal set would be too large; lower `at_once`", where)
            by_size[len(chosen) - 1].append(_group(seat, chosen))
            if len(chosen) < most:
                extend(index)  # (the same meld again, when the cards are there twice)
            chosen.pop()
            if rank_taken is not None:
                taken.discard(rank_taken)
            for card, count in needs:
                left[card] += count

    extend(0)
    return [group for size in by_size for group in size]


def _group(seat: int, chosen: list[tuple[Meld, dict[int, int], Action]]) -> tuple[tuple[Meld, ...], Action]:
    """A group of melds with its action: one meld's own, or the cards and roles of all, with their sizes."""
    if len(chosen) == 1:
        return (chosen[0][0],), chosen[0][2]
    actions = [entry[2] for entry in chosen]
    cards = tuple(itertools.chain.from_iterable([action.cards for action in actions]))
    roles = tuple(itertools.chain.from_iterable([action.roles for action in actions]))
    sizes = tuple([len(action.cards) for action in actions])
    return tuple([entry[0] for entry in chosen]), _ACTION(Action, (seat, "meld", -1, "", ((MELD_SIZES, sizes),),
                                                                   cards, roles, -1))


_ACTION = tuple.__new__  # an action made from its fields in order (Action is a named tuple)
