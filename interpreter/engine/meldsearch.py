"""The new melds a seat's hand can make, kept between the decisions of one turn.

After a meld is laid or a card added to one, the hand has only lost cards (the last copy of each: see
CardsAndValues.perform) and the table only gained melds. The melds of the last search that the hand still
holds, and that no rank taken since rules out, are then exactly the melds a new search finds, in the same
order: MeldRules.candidates goes over the hand's distinct cards in the order they first appear, which losing a
last copy does not change. A hand that gained a card (a draw, a pile taken), or whose distinct cards come in
another order, is searched again. The melds kept carry the meld number of the search that found them; the one
laid is given its own when it is laid (a ruleset's expressions never read it).
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
    order: tuple[int, ...]  # the hand's distinct cards, in the order they first appear
    counts: Counter[int]  # (never changed once made)
    taken: frozenset[tuple[str, int]]  # the ranks taken on the owner's table by kinds of one meld per rank
    found: tuple[tuple[Meld, tuple[tuple[int, int], ...], Action], ...]


def new_melds(state: State, rules: MeldRules, seat: int, hand: list[int], owner: int,
              table: list[Meld]) -> list[tuple[Meld, Action]]:
    """Every valid new meld the seat's hand can make, with its action (see the module docstring)."""
    counts = Counter(hand)
    order = tuple(counts)
    taken = rules.taken_ranks(table)
    kept = state.meld_search
    if kept is not None and kept.seat == seat and kept.owner == owner and kept.taken <= taken \
            and counts <= kept.counts and order == tuple(card for card in kept.order if card in counts):
        found = tuple(entry for entry in kept.found if all(counts[card] >= n for card, n in entry[1])
                      and not (entry[0].shape == "set" and (entry[0].kind, entry[0].rank) in taken))
    else:
        found = tuple((meld, tuple(Counter(meld.cards).items()),
                       Action(seat, "meld", cards=meld.cards, roles=rules.roles(meld)))
                      for meld in rules.candidates(hand, owner, table, state.melds_laid))
    state.meld_search = MeldSearch(seat, owner, order, counts, taken, found)
    return [(meld, action) for meld, _, action in found]
