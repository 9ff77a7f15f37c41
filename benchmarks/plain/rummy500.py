#!/usr/bin/env python3
"""Rummy 500 in plain Python: the rules of tests/games/rummy500.yaml written out by hand, without the engine.

It plays whole matches with a uniformly random legal choice at every decision, as benchmarks/games_speed.py plays
the ruleset through the engine, so that the two costs per decision can be compared: the same decisions, with the
same legal sets (benchmarks/plain/ holds such programs for a few test games).

The match (three players by default, as the ruleset; 2 to 8 are played): a 52-card deck and two jokers (two decks
and four jokers for five or more players), shuffled anew for each hand; 7 cards each (13 with two players) and
one card face up to start the discard pile. Seat 0 deals the first hand, the deal passes to the left, and the
turns go round from the dealer's left until a player goes out or ends the play on an empty stock. After each
hand every player scores the cards they melded or laid off (an ace 15, but 1 as the low card of A-2-3; a joker
15 wherever it stands; a face card or a ten 10, the others their number) less the cards left in their hand;
the match ends after a hand where the best total is at least 500 and held by one player alone (at most 1000
hands).

The decisions, each a call of the engine's legal_actions() and apply() (dealing and scoring are not decisions):

* The draw, once per turn: `draw stock` when the stock holds a card; `take discard N` for each N from 1 to
  the size of the discard pile, taking the top N cards, when the card taken deepest can be used at once: laid
  off onto any player's meld, or melded as a three-card meld with two cards of the hand it joins (the hand and
  the other cards taken); `stop` (ending the play) when the stock is empty.
* Then, until the player discards or has no cards left: one decision among every new meld the hand can make,
  every lay-off (a card of the hand onto a meld of any player: each distinct card and meld) and every discard
  (each distinct card of the hand). After a take the card taken deepest must be used first: only the melds
  holding it and its lay-offs are offered, and no discard. A player whose hand empties goes out.

The melds (the ruleset's `melds:` section, as the engine offers them): a group is one to four natural cards of
one rank, all of different suits, with jokers up to 3, 3 or 4 cards in all; a sequence is natural cards of one
suit with jokers up to 4, 3 to 13 consecutive places, the ace low (A-2-3) or high (Q-K-A), never both, never
turning the corner. Every distinct meld is an action: each choice of the rank's natural cards held with each
number of jokers; for a sequence, each choice of the suit's natural cards held (any of them may be left out for
a joker to stand in its place) with each number of jokers, which first fill the gaps between the naturals and
then, when there are more, sit below them (above where there is no room) or, as the other action
(`free_wild: either_end`), above them (below where there is no room): never some below and some above. A joker
keeps the card it was laid as (`fixed_wilds`). A lay-off onto a group adds a card of its rank and a new suit, or
a joker (at most 3 in it, 4 cards in all); onto a sequence, a natural card of its suit next to either end (an ace
that fits both ends goes low), or a joker at the lower end (the upper one when the run starts with the low ace),
at most 4 jokers and 13 cards in it.

No deliberate difference from the ruleset changes a decision or its legal set; the log lines are not written.
Checked against the engine by tests/unit/test_plain_rummy500.py (2, 3, 5 and 8 players): at every decision of its
random play, the same legal set, action by action text, the same points and meld after each meld or lay-off, the
same scores after each hand, match end, deck and number of cards dealt; and in whole matches played by this
program's own loop (`Table`) beside the engine's, on the engine's deals and choices, the same player, position and
legal set at every decision, the same scores after each hand, the same dealer and the same end of the match.

Cards are ints: suit * 13 + rank (suits S H D C, ranks 0 = two .. 12 = ace), 52 a joker (both jokers are the
same card, as they are to the engine: one action discards either). A sequence's places are the ranks, and -1 for
the ace below the two.

    python benchmarks/plain/rummy500.py [--decisions N] [--seed S] [--players P]

prints decisions per second (CPU time), the mean legal set, decisions per match and a checksum of the outcomes
that is the same for the same arguments.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from typing import Any

RANK_NAMES = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUIT_NAMES = "SHDC"
ACE = 12
JOKER = 52
NONE = -1                  # no card (must_use unset)
LOW_ACE, TOP = -1, 12      # the lowest and highest places of a sequence
GROUP_MIN, GROUP_MAX, GROUP_WILDS = 3, 4, 3
RUN_MIN, RUN_MAX, RUN_WILDS = 3, 13, 4
TARGET = 500
HAND_CAP = 1000
NO_PLACE = -99             # a card that does not fit a meld

RANK = [card % 13 for card in range(52)] + [NONE]
SUIT = [card // 13 for card in range(52)] + [NONE]
VALUE = [15 if rank == ACE else 10 if rank >= 8 else rank + 2 for rank in RANK[:52]] + [15]
PLACES = [[LOW_ACE, ACE] if rank == ACE else [rank] for rank in RANK[:52]] + [[]]  # a card's places in a sequence

# The actions: tuples whose first item is their kind: (DRAW,), (TAKE, depth), (STOP,), (GROUP, rank, cards, jokers),
# (RUN, suit, cards, jokers, low, high, the place of the lowest card), (ADD, card, meld, place), (DISCARD, card).
DRAW, TAKE, STOP, GROUP, RUN, ADD, DISCARD = range(7)
Action = tuple[Any, ...]
DRAW_ACTION: Action = (DRAW,)
STOP_ACTION: Action = (STOP,)


class Meld:
    """A meld on the table: a group (its rank, the suits of its natural cards as bits) or a sequence (its suit and
    the places low..high it covers); how many cards and jokers it holds; and the cards that may be laid off onto
    it, each with its place (`takes`, worked out again whenever the meld grows)."""

    __slots__ = ("high", "is_group", "low", "rank", "size", "suit", "suits", "takes", "wilds")

    def __init__(self, is_group: bool, rank: int, suits: int, suit: int, low: int, high: int, size: int,
                 wilds: int) -> None:
        self.is_group, self.rank, self.suits, self.suit = is_group, rank, suits, suit
        self.low, self.high, self.size, self.wilds = low, high, size, wilds
        self.takes: dict[int, int] = {}
        self.find_takes()

    def find_takes(self) -> None:
        """A group takes a card of its rank and a suit it lacks, or a joker (at most 3 in it, 4 cards in all); a
        sequence a natural card next to either end (an ace that fits both ends goes low), or a joker at the lower
        end (the upper one when the low ace is there), at most 4 jokers and 13 cards in it."""
        takes = self.takes
        takes.clear()
        if self.is_group:
            if self.size < GROUP_MAX:
                for suit in range(4):
                    if not self.suits >> suit & 1:
                        takes[suit * 13 + self.rank] = 0
                if self.wilds < GROUP_WILDS:
                    takes[JOKER] = 0
            return
        if self.size >= RUN_MAX:
            return
        low, high, base = self.low, self.high, self.suit * 13
        if high < TOP:
            takes[base + high + 1] = high + 1
        if low > LOW_ACE:
            takes[base + (low - 1) % 13] = low - 1  # (the ace, low, when the meld starts with the two)
        if self.wilds < RUN_WILDS:
            takes[JOKER] = low - 1 if low > LOW_ACE else high + 1


def card_name(card: int) -> str:
    return "JK" if card == JOKER else RANK_NAMES[RANK[card]] + SUIT_NAMES[SUIT[card]]


def new_deck(players: int) -> list[int]:
    packs, jokers = (2, 4) if players >= 5 else (1, 2)
    return list(range(52)) * packs + [JOKER] * jokers


# ----------------------------------------------------------------------------------------------------- lay-offs
def lay_off_place(meld: Meld, card: int) -> int:
    """Where the card goes when laid off onto the meld (a sequence's place; 0 for a group), or NO_PLACE."""
    return meld.takes.get(card, NO_PLACE)


def lay_off_points(meld: Meld, card: int, place: int) -> int:
    """What a card laid off scores: its value, 1 for an ace that becomes the low end of a sequence."""
    return 1 if place == LOW_ACE and card != JOKER and not meld.is_group else VALUE[card]


def lay_off(meld: Meld, card: int, place: int) -> None:
    meld.size += 1
    if card == JOKER:
        meld.wilds += 1
    elif meld.is_group:
        meld.suits |= 1 << SUIT[card]
    if not meld.is_group:
        if place < meld.low:
            meld.low = place
        else:
            meld.high = place
    meld.find_takes()


# -------------------------------------------------------------------------------------------------- the draw
class Pool:
    """The cards a card taken from the discard pile may be melded with (the hand and the cards above it), as bits:
    for each suit its places (bit place + 1; an ace sets bits 0 and 13), for each rank its suits."""

    __slots__ = ("jokers", "naturals", "places", "suits")

    def __init__(self, cards: list[int]) -> None:
        self.jokers = self.naturals = 0
        self.places = [0] * 4
        self.suits = [0] * 13
        for card in cards:
            self.add(card)

    def add(self, card: int) -> None:
        if card == JOKER:
            self.jokers += 1
            return
        self.naturals += 1
        for place in PLACES[card]:
            self.places[SUIT[card]] |= 1 << (place + 1)
        self.suits[RANK[card]] |= 1 << SUIT[card]


def makes_three(card: int, pool: Pool) -> bool:
    """Whether the card and two cards of the pool make a meld (the ruleset's `melds_with`)."""
    jokers = pool.jokers
    if card == JOKER:
        if jokers and pool.naturals:
            return True  # JK JK and any natural card: a group
        return any(suits & (suits - 1) for suits in pool.suits) or \
            any(bits & (bits >> 1) or bits & (bits >> 2) for bits in pool.places)
    if jokers >= 2 or jokers + (pool.suits[RANK[card]] & ~(1 << SUIT[card])).bit_count() >= 2:
        return True  # a group of its rank
    bits = pool.places[SUIT[card]]
    for place in PLACES[card]:
        bit = place + 1
        for start in range(max(bit - 2, 0), min(bit, 11) + 1):  # the three places around it
            if 2 - (bits & (7 << start) & ~(1 << bit)).bit_count() <= jokers:
                return True
    return False


def draw_options(stock_size: int, discard: list[int], hand: list[int], melds: list[Meld]) -> list[Action]:
    """The draw: from the stock, or the top N cards of the discard pile when the deepest can be used at once, or
    the end of the play on an empty stock."""
    legal = [DRAW_ACTION] if stock_size else [STOP_ACTION]
    pool = Pool(hand)
    laid_off = {card for meld in melds for card in meld.takes}  # the cards that can be laid off somewhere
    for depth in range(1, len(discard) + 1):
        card = discard[-depth]
        if card in laid_off or makes_three(card, pool):
            legal.append((TAKE, depth))
        pool.add(card)
    return legal


# -------------------------------------------------------------------------------------------------- new melds
def new_melds(cards: list[int], jokers: int, must: int) -> list[Action]:
    """Every distinct new meld of the distinct natural cards held (in order) and the jokers (only those holding
    `must`, when set)."""
    if jokers < (must == JOKER):
        return []
    natural_must = must not in (NONE, JOKER)
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, list[tuple[int, int]]] = {}
    for card in cards:
        if natural_must and RANK[card] != RANK[must] and SUIT[card] != SUIT[must]:
            continue
        by_rank.setdefault(RANK[card], []).append(card)
        held = by_suit.setdefault(SUIT[card], [])
        if RANK[card] == ACE:
            held.insert(0, (LOW_ACE, card))
        held.append((RANK[card], card))
    legal: list[Action] = []
    wilds = min(jokers, GROUP_WILDS)
    for rank, naturals in by_rank.items():
        if len(naturals) + wilds >= GROUP_MIN and (not natural_must or RANK[must] == rank):
            group_melds(rank, naturals, jokers, must, legal)
    wilds = min(jokers, RUN_WILDS)
    for suit, held in by_suit.items():
        if len(held) + wilds >= RUN_MIN and (not natural_must or SUIT[must] == suit):
            if wilds:
                sequence_melds(suit, held, jokers, must, legal)
            else:
                natural_sequences(suit, held, must, legal)
    return legal


def group_melds(rank: int, cards: list[int], jokers: int, must: int, legal: list[Action]) -> None:
    """The groups of one rank: each choice of its natural cards (one suit each) with each number of jokers."""
    most = min(jokers, GROUP_WILDS)
    least = 1 if must == JOKER else 0
    for count in range(1, min(len(cards), GROUP_MAX) + 1):
        fewest, wilds = max(least, GROUP_MIN - count), min(most, GROUP_MAX - count)
        if fewest > wilds:
            continue
        for chosen in combinations(cards, count):
            if must not in (NONE, JOKER) and must not in chosen:
                continue
            for wild in range(fewest, wilds + 1):
                legal.append((GROUP, rank, chosen, wild))


def natural_sequences(suit: int, held: list[tuple[int, int]], must: int, legal: list[Action]) -> None:
    """The sequences of one suit without a joker: three or more consecutive cards of those held (place, card, in
    order of place; an ace twice)."""
    first = 0
    for end in range(1, len(held) + 1):
        if end < len(held) and held[end][0] == held[end - 1][0] + 1:
            continue
        for low in range(first, end - 2):  # (held[first:end]: consecutive places)
            for high in range(low + 2, min(end, low + RUN_MAX)):  # (at most 13 places: an ace once)
                cards = tuple([card for _, card in held[low:high + 1]])
                if must == NONE or must in cards:
                    legal.append((RUN, suit, cards, 0, held[low][0], held[high][0], held[low][0]))
        first = end


def sequence_melds(suit: int, held: list[tuple[int, int]], jokers: int, must: int, legal: list[Action]) -> None:
    """The sequences of one suit from its natural cards held (place, card, in order of place; an ace twice) and
    jokers: by their lowest and highest natural cards, each choice of the cards between, and each number of
    jokers."""
    most = min(jokers, RUN_WILDS)
    least = 1 if must == JOKER else 0
    natural_must = must not in (NONE, JOKER)
    count = len(held)
    for first in range(count):
        low, low_card = held[first]
        for last in range(first, count):
            high, high_card = held[last]
            span = high - low + 1
            gaps = span - (last - first + 1)
            if span > RUN_MAX or gaps > most:
                break  # (a later last card spans more, with as many gaps or more)
            inner = held[first + 1:last]
            top = (high_card,) if last > first else ()
            for left_out in range(min(most - gaps, len(inner)) + 1):
                for omitted in combinations(inner, left_out) if left_out else ((),):
                    cards = (low_card, *[card for place, card in inner if (place, card) not in omitted], *top)
                    if natural_must and must not in cards:
                        continue
                    filled = gaps + left_out
                    for wild in range(max(filled, least, RUN_MIN - len(cards)), most + 1):
                        size = len(cards) + wild
                        if size > RUN_MAX:
                            break
                        spare = wild - filled
                        below = low - min(spare, low - LOW_ACE)  # the spare jokers below, the rest above
                        legal.append((RUN, suit, cards, wild, below, below + size - 1, low))
                        if spare:
                            above = low - (spare - min(spare, TOP - high))  # ... or above, the rest below
                            if above != below:
                                legal.append((RUN, suit, cards, wild, above, above + size - 1, low))


def turn_options(hand: list[int], must: int, melds: list[Meld]) -> list[Action]:
    """After the draw: every new meld, every lay-off, every discard (only the card taken deepest, melded or
    laid off, while it is `must`)."""
    held = set(hand)
    jokers = hand.count(JOKER) if JOKER in held else 0
    legal = new_melds(sorted(held - {JOKER}) if jokers else sorted(held), jokers, must)
    usable = held if must == NONE else {must}
    for meld in melds:
        for card, place in meld.takes.items():
            if card in usable:
                legal.append((ADD, card, meld, place))
    if must == NONE:
        legal.extend([(DISCARD, card) for card in held])
    return legal


def meld_points(action: Action) -> int:
    """What a new meld scores: its cards' values, 1 for the ace at the low end of a sequence, 15 a joker."""
    points = sum(VALUE[card] for card in action[2]) + VALUE[JOKER] * action[3]
    if action[0] == RUN and action[6] == LOW_ACE:  # (the lowest natural card is then the ace, the first card)
        points += 1 - VALUE[ACE]
    return points


def action_text(seat: int, action: Action, meld_names: dict[int, str] | None = None) -> str:
    """The action as the engine writes it (melds named by `meld_names`, id(meld) -> m3, when given)."""
    kind = action[0]
    head = f"p{seat}"
    if kind == DRAW:
        return f"{head} draw stock"
    if kind == STOP:
        return f"{head} choose stop"
    if kind == TAKE:
        return f"{head} take discard {action[1]}"
    if kind == DISCARD:
        return f"{head} discard {card_name(action[1])}"
    if kind == ADD:
        name = meld_names[id(action[2])] if meld_names else "m?"
        return f"{head} add {card_name(action[1])} to {name}"
    if kind == GROUP:
        words = [card_name(card) for card in action[2]] + ["JK=" + RANK_NAMES[action[1]]] * action[3]
        return f"{head} meld {' '.join(words)}"
    _, suit, cards, _, low, high, _ = action
    at = {place: card for place, card in zip(sequence_places(action), cards, strict=True)}
    words = [card_name(at[place]) if place in at else "JK=" + RANK_NAMES[place % 13] + SUIT_NAMES[suit]
             for place in range(low, high + 1)]
    return f"{head} meld {' '.join(words)}"


def sequence_places(action: Action) -> list[int]:
    """The places of a new sequence's natural cards, in order (the first an ace's low place when it is -1)."""
    cards, lowest = action[2], action[6]
    return [lowest] + [RANK[card] for card in cards[1:]]


# -------------------------------------------------------------------------------------------------- the match
class Done(Exception):
    """The decisions asked for are made."""


class Table:
    """Random matches, one after another: the state kept from hand to hand and the decisions counted."""

    def __init__(self, seed: int, players: int, decisions: int, sizes: list[int]) -> None:
        self.rng = random.Random(seed)
        self.players = players
        self.budget = decisions
        self.sizes = sizes
        self.made = 0
        self.matches = 0
        self.hands = 0
        self.match_decisions = 0     # decisions of the matches finished
        self.totals = [0] * players  # final scores summed over the matches finished
        self.wins = [0] * players
        # the hand being played
        self.stock: list[int] = []
        self.discard: list[int] = []
        self.held: list[list[int]] = []
        self.melds: list[Meld] = []
        self.tabled = [0] * players

    def pick(self, seat: int, legal: list[Action]) -> Action:
        """A uniformly random legal action (one decision)."""
        if self.made >= self.budget:
            raise Done
        self.made += 1
        self.sizes.append(len(legal))
        return legal[self.rng.randrange(len(legal))]

    def play(self) -> None:
        """Matches until the budget of decisions is spent."""
        try:
            while True:
                start = self.made
                scores = self.play_match()
                self.matches += 1
                self.match_decisions += self.made - start
                for seat, score in enumerate(scores):
                    self.totals[seat] += score
                self.wins[scores.index(max(scores))] += 1
        except Done:
            pass

    def play_match(self) -> list[int]:
        scores = [0] * self.players
        dealer = 0
        for _ in range(HAND_CAP):
            for seat, points in enumerate(self.play_hand(dealer)):
                scores[seat] += points
            self.hands += 1
            if match_over(scores):
                break
            dealer = (dealer + 1) % self.players
        return scores

    def play_hand(self, dealer: int) -> list[int]:
        """One hand from the deal: each player's score for it."""
        n = self.players
        stock = new_deck(n)
        self.rng.shuffle(stock)
        size = deal_size(n)
        self.held = hands = [stock[size * seat:size * (seat + 1)] for seat in range(n)]
        del stock[:size * n]
        self.stock, self.discard, self.melds = stock, [stock.pop()], []
        self.tabled = [0] * n
        seat = dealer
        while True:
            seat = (seat + 1) % n
            if self.turn(seat):
                break
        return hand_scores(self.tabled, hands)

    def turn(self, seat: int) -> bool:
        """One player's turn; whether the hand is over (the player went out or ended the play)."""
        hand, discard, melds = self.held[seat], self.discard, self.melds
        action = self.pick(seat, draw_options(len(self.stock), discard, hand, melds))
        must = NONE
        if action[0] == STOP:
            return True
        if action[0] == DRAW:
            hand.append(self.stock.pop())
        else:
            depth = action[1]
            must = discard[-depth]
            hand.extend(discard[-depth:])
            del discard[-depth:]
        while hand:
            action = self.pick(seat, turn_options(hand, must, melds))
            kind = action[0]
            if kind == DISCARD:
                hand.remove(action[1])
                discard.append(action[1])
                break
            must = NONE
            if kind == ADD:
                _, card, meld, place = action
                hand.remove(card)
                self.tabled[seat] += lay_off_points(meld, card, place)
                lay_off(meld, card, place)
                continue
            for card in action[2]:
                hand.remove(card)
            for _ in range(action[3]):
                hand.remove(JOKER)
            self.tabled[seat] += meld_points(action)
            melds.append(laid_meld(action))
        return not hand


def deal_size(players: int) -> int:
    """The cards dealt to each player: 13 with two players, 7 with more."""
    return 13 if players == 2 else 7


def hand_scores(tabled: list[int], hands: list[list[int]]) -> list[int]:
    """Each player's score for a hand: the points they melded and laid off (`tabled`) less the values of the
    cards left in their hand."""
    return [points - sum(VALUE[card] for card in hand) for points, hand in zip(tabled, hands, strict=True)]


def match_over(scores: list[int]) -> bool:
    """Whether the match ends after a hand: the best total is at least the target and held by one player."""
    best = max(scores)
    return best >= TARGET and scores.count(best) == 1


def laid_meld(action: Action) -> Meld:
    if action[0] == GROUP:
        _, rank, cards, wilds = action
        suits = 0
        for card in cards:
            suits |= 1 << SUIT[card]
        return Meld(True, rank, suits, NONE, 0, 0, len(cards) + wilds, wilds)
    _, suit, _, wilds, low, high, _ = action
    return Meld(False, NONE, 0, suit, low, high, high - low + 1, wilds)


def play(decisions: int, seed: int, sizes: list[int], players: int = 3) -> int:
    """Random matches from `random.Random(seed)` until `decisions` decisions are made, each legal set's size
    appended to `sizes`; the number of decisions made."""
    table = Table(seed, players, decisions, sizes)
    table.play()
    return table.made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=30_000, help="decisions to make (default 30000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=3, choices=range(2, 9), metavar="2..8")
    args = parser.parse_args(argv)
    sizes: list[int] = []
    table = Table(args.seed, args.players, args.decisions, sizes)
    start = time.process_time()
    table.play()
    seconds = time.process_time() - start
    print(f"rummy500 plain: players={args.players} decisions={table.made} seed={args.seed}")
    print(f"decisions/sec {table.made / seconds:.0f}  ({seconds / table.made * 1e6:.2f} us per decision, "
          f"{seconds:.3f} s CPU)")
    print(f"mean legal set {sum(sizes) / len(sizes):.3f}  largest {max(sizes)}")
    if table.matches:
        print(f"decisions/match {table.match_decisions / table.matches:.1f}  hands/match "
              f"{table.hands / table.matches:.2f}  ({table.matches} matches finished)")
    print(f"checksum matches={table.matches} hands={table.hands} totals={table.totals} wins={table.wins} "
          f"legal_sum={sum(sizes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
