"""The new melds a seat's hand can make, kept between the decisions of one turn.

MeldRules.candidates depends on the hand as a multiset of cards (not on their order), on the owner and on the
ranks taken on the owner's table. After a meld is laid or a card added to one, the hand has only lost cards and
the table only gained melds. The melds of the last search that the hand still holds, and that no rank taken
since rules out, are then exactly the melds a new search finds, in the same order (a search never finds a meld
the hand could not make, and every meld it finds from fewer cards it also found from more). A hand that gained
a card (a draw, a pile taken) is searched again, which MeldRules.search answers mostly from the melds it keeps
for each suit's and rank's cards. The melds found are numbered 0; the one laid is given its own number when it
is laid (a ruleset's expressions never read it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from interpreter.actions import Action
from interpreter.engine.melds import Meld, MeldRules

if TYPE_CHECKING:
    from interpreter.engine.state import State


@dataclass(frozen=True)
class MeldSearch:
    """What a search found for one seat's hand: the melds, with the cards each needs and its action."""

    seat: int
    owner: int
    counts: dict[int, int]  # the hand's cards and how many of each (never changed once made)
    taken: frozenset[tuple[str, int]]  # the ranks taken on the owner's table by kinds of one meld per rank
    found: tuple[tuple[Meld, dict[int, int], Action], ...]


def new_melds(state: State, rules: MeldRules, seat: int, hand: list[int], owner: int,
              table: list[Meld]) -> list[tuple[Meld, Action]]:
    """Every valid new meld the seat's hand can make, with its action (see the module docstring)."""
    counts = Counter(hand)
    taken = rules.taken_ranks(table)
    kept = state.meld_search
    lost = None if kept is None or kept.seat != seat or kept.owner != owner or not kept.taken <= taken \
        else _lost(kept.counts, counts)
    if lost is not None:
        assert kept is not None
        newly_taken = taken - kept.taken
        found = tuple(entry for entry in kept.found
                      if all(entry[1].get(card, 0) <= left for card, left in lost)
                      and not (newly_taken and entry[0].shape == "set" and (entry[0].kind, entry[0].rank) in taken))
    else:
        found = tuple((meld, needs, _ACTION(Action, (seat, "meld", -1, "", (), meld.cards, roles, -1)))
                      for meld, needs, roles in rules.search(counts, owner, table))
    state.meld_search = MeldSearch(seat, owner, counts, taken, found)
    return [(meld, action) for meld, _, action in found]


def _lost(before: dict[int, int], now: dict[int, int]) -> list[tuple[int, int]] | None:
    """The cards of which the hand now holds fewer, with how many are left; None when it gained any card."""
    lost = []
    for card, held in before.items():
        left = now.get(card, 0)
        if left < held:
            lost.append((card, left))
    if len(now) > len(before) or any(before.get(card, 0) < held for card, held in now.items()):
        return None
    return lost


_ACTION = tuple.__new__  # an action made from its fields in order (Action is a named tuple)
