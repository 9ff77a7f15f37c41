#!/usr/bin/env python3
"""Canasta in plain Python: the rules of tests/games/canasta.yaml, hand-written, to time against the engine.

The same match as the ruleset, decision for decision, with the same legal sets:

  * four seats, partners opposite (sides 0: seats 0 and 2, 1: seats 1 and 3); two packs and four jokers; jokers
    and twos are wild. The first dealer is seat 0 and the deal passes to the left; the match ends after a hand
    in which a side reaches 5000 and the two totals differ.
  * The deal: eleven cards each, the next card starts the discard pile; while its top card is wild or a red three
    another covers it and the pile is frozen.
  * A turn: the red threes held are laid out and replaced from the stock; then the first decision, whose legal
    set is
      - `draw` the top card of the stock (when it has one; red threes drawn are laid out and replaced);
      - each way to take the pile by laying its top card at once (never with a wild card or a three on top):
        a side that has not melded lays one to three melds of its hand and the top card, one a set of the top
        card's rank holding it and two more natural cards, counting the side's minimum together (15, 50, 90 or
        120 by its total); a side that has melded adds the top card to its set of that rank, or, without one,
        lays a new set holding it (with a natural pair when the pile is frozen; a frozen pile is never taken by
        the addition). A take that would leave fewer than two cards in the hand needs a canasta after it, and
        black threes are laid in a take only when it empties the hand. The rest of the pile joins the hand, its
        red threes laid out (not replaced), and the pile is no longer frozen;
      - `stop` the play, when the stock is empty, unless the pile is open, not frozen, the side has melded, has a
        set of the top card's rank and the hand would keep two cards (or the side has a canasta).
  * Then, while the play goes on, the turn is not over and the hand holds cards, one more decision, whose legal
    set is
      - a side that has not melded: each group of one to three melds of the hand (of distinct ranks) counting the
        minimum together;
      - a side that has melded: each new meld of a rank it has not melded yet;
      - each distinct card of the hand that goes onto each of the side's melds (an addition);
      - `end_play`, only after a red three drawn as the last card of the stock;
      - `discard` each distinct card of the hand (not after such a red three), which ends the turn; a wild card
        discarded freezes the pile.
    A meld is a set of three or more cards of one rank (4 to A) with at least two natural cards and at most three
    wild ones, or three or four black threes, which are laid only when they empty the hand. Every way to lay the
    cards is a separate action: each choice of natural cards (copies of one card are one card) and each multiset
    of wild cards. A meld or an addition that would leave the hand fewer than two cards, and the discard of the
    last card, need a canasta (seven cards) on the side's table after them.
  * A player whose hand is empty at the end of the turn (by a take, melds or the last card discarded) goes out;
    the play also ends by `stop` or `end_play`. The score of a side: 500 a clean canasta, 300 a mixed one; 100 a
    red three (800 all four), a penalty when the side has not melded; 100 for going out (200 concealed: the player
    had melded nothing before the turn); the cards melded, less those left in both partners' hands.

Differences from the ruleset: none in the decisions or their legal sets. Only what the ruleset logs or keeps for
its log is left out: the count of the turn's melds (`turn_points`: a side opens with the one action that lays its
initial meld, so the opening is set there) and the cards' faces. The actions of a legal set come in another order
than the engine's, so one seed plays other matches here than there (the shuffles differ anyway).

Cards are ints as the engine numbers them: `rank * 4 + suit` for ranks 3 4 5 6 7 8 9 10 J Q K A 2 (0 to 12) and
suits S H D C (0 to 3), the joker 52; copies of a card are the same int. A meld laid is a list [rank, cards,
how many wild cards]: a set of rank 1 to 11, or black threes (rank 0).

Usage:
    python benchmarks/plain/canasta.py [--decisions N] [--seed S]
prints decisions per second (CPU time), the mean legal set, the decisions per match and a checksum of the outcomes
that is identical for identical arguments.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time

RANK_NAMES = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
THREE, TWO = 0, 12
JOKER = 52
RANK = [card // 4 for card in range(52)] + [13]
WILD = [RANK[card] == TWO or card == JOKER for card in range(53)]
RED_THREE = [card in (1, 2) for card in range(53)]  # 3H, 3D
VALUE = [50 if card == JOKER else 20 if RANK[card] in (TWO, 11) else 10 if RANK[card] >= 5 else 5
         for card in range(53)]
WILD_CARDS = (48, 49, 50, 51, JOKER)  # 2S 2H 2D 2C JK: a hand's wild cards are counted in this order
WILD_INDEX = {card: index for index, card in enumerate(WILD_CARDS)}
DECK = list(range(52)) * 2 + [JOKER] * 4
TARGET = 5000
MOST_WILDS = 3  # in a set
AT_ONCE = 3  # melds laid by the initial meld, or by a take that opens

# The actions: a tuple whose first item says which.
DRAW, TAKE_ADD, TAKE_MELD, STOP, MELD, ADD, END_PLAY, DISCARD = range(8)


def card_name(card: int) -> str:
    return "JK" if card == JOKER else RANK_NAMES[RANK[card]] + "SHDC"[card % 4]


def minimum(score: int) -> int:
    """The count an initial meld needs, by the side's total."""
    return 15 if score < 0 else 50 if score < 1500 else 90 if score < 3000 else 120


def points(cards: list[int] | tuple[int, ...]) -> int:
    return sum([VALUE[card] for card in cards])


# Each choice of natural cards of one rank: (cards, points), for the cards held of the rank (sorted); at least two.
_naturals: dict[tuple[int, ...], list[tuple[tuple[int, ...], int]]] = {}


def natural_choices(held: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
    found = _naturals.get(held)
    if found is None:
        distinct = sorted(set(held))
        choices: list[tuple[int, ...]] = [()]
        for card in distinct:
            copies = held.count(card)
            choices = [choice + (card,) * n for choice in choices for n in range(copies + 1)]
        found = _naturals[held] = [(choice, points(choice)) for choice in choices if len(choice) >= 2]
    return found


# The wild cards a set may take from those left (counts in WILD_CARDS order): each multiset of at most three, as
# (cards, the counts left after, points); all of them, and those of one card or more.
_wilds: dict[tuple[int, ...], tuple[list[tuple[tuple[int, ...], tuple[int, ...], int]], ...]] = {}


def wild_choices(left: tuple[int, ...]) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...], int]], ...]:
    found = _wilds.get(left)
    if found is None:
        every = []
        for size in range(MOST_WILDS + 1):
            for picked in itertools.combinations_with_replacement(range(5), size):
                counts = list(left)
                for index in picked:
                    counts[index] -= 1
                if min(counts) >= 0:
                    cards = tuple([WILD_CARDS[index] for index in picked])
                    every.append((cards, tuple(counts), points(cards)))
        found = _wilds[left] = (every, every[1:])
    return found


class Done(Exception):
    """The decisions asked for are made."""


class Canasta:
    """Matches of random play, one after another, until `limit` decisions are made."""

    def __init__(self, rng: random.Random, sizes: list[int], limit: int) -> None:
        self.rng = rng
        self.sizes = sizes
        self.limit = limit
        self.made = 0
        # outcomes, for the checksum
        self.matches = 0
        self.match_decisions = 0  # in the matches played to their end
        self.hands = 0
        self.totals = [0, 0]  # the final scores of the matches, per side
        self.wins = [0, 0]
        self.outs = 0
        self.canastas = 0
        # the hand
        self.score = [0, 0]
        self.stock: list[int] = []
        self.discard: list[int] = []
        self.hand: list[list[int]] = [[], [], [], []]
        self.melds: list[list[list]] = [[], []]  # per side: [rank, cards, how many wild cards]
        self.red_threes: list[list[int]] = [[], []]
        self.opened = [False, False]
        self.has_melded = [False] * 4
        self.frozen = False
        self.red_last = False
        self.hand_over = False
        self.turn_done = False
        self.went_out = -1
        self.concealed = False

    def choose(self, legal: list[tuple]) -> tuple:
        """A decision: a uniformly random legal action."""
        if self.made >= self.limit:
            raise Done
        self.made += 1
        self.sizes.append(len(legal))
        return legal[self.rng.randrange(len(legal))]

    # ------------------------------------------------------------------ match and hand
    def play_match(self) -> None:
        self.score = [0, 0]
        start = self.made
        dealer = 0
        while True:
            self.play_hand(dealer)
            best = max(self.score)
            if best >= TARGET and self.score[0] != self.score[1]:
                break
            dealer = (dealer + 1) % 4
        self.matches += 1
        self.match_decisions += self.made - start
        self.totals[0] += self.score[0]
        self.totals[1] += self.score[1]
        self.wins[0 if self.score[0] > self.score[1] else 1] += 1

    def play_hand(self, dealer: int) -> None:
        deck = DECK[:]
        self.rng.shuffle(deck)
        self.hand = [deck[11 * seat:11 * seat + 11] for seat in range(4)]
        self.stock = deck[44:]
        self.discard = [self.stock.pop()]
        self.frozen = False
        while WILD[self.discard[-1]] or RED_THREE[self.discard[-1]]:
            self.frozen = True
            self.discard.append(self.stock.pop())
        self.melds = [[], []]
        self.red_threes = [[], []]
        self.opened = [False, False]
        self.has_melded = [False] * 4
        self.red_last = self.hand_over = False
        self.went_out = -1
        self.concealed = False
        self.play_from((dealer + 1) % 4)

    def play_from(self, player: int) -> None:
        """The play of the hand from the position held, `player` in turn, until it is over; then its score."""
        while not self.hand_over:
            self.play_turn(player)
            player = (player + 1) % 4
        self.hands += 1
        self.score_hand()

    def score_hand(self) -> None:
        for side in (0, 1):
            melds = self.melds[side]
            total = 0
            for _, cards, wilds in melds:
                total += points(cards)
                if len(cards) >= 7:
                    total += 300 if wilds else 500
                    self.canastas += 1
            reds = len(self.red_threes[side])
            total += (800 if reds == 4 else 100 * reds) * (1 if melds else -1)
            if self.went_out >= 0 and self.went_out % 2 == side:
                total += 200 if self.concealed else 100
            total -= points(self.hand[side]) + points(self.hand[side + 2])
            self.score[side] += total
        self.outs += self.went_out >= 0

    # ------------------------------------------------------------------ a turn
    def play_turn(self, player: int) -> None:
        hand = self.hand[player]
        self.turn_done = False
        fresh = not self.has_melded[player]
        self.lay_red_threes(player)
        action = self.choose(self.first_options(player))
        kind = action[0]
        if kind == DRAW:
            hand.append(self.stock.pop())
            self.lay_red_threes(player)
        elif kind == STOP:
            self.hand_over = True
        else:
            self.take_pile(player, action)
        while not self.hand_over and not self.turn_done and hand:
            action = self.choose(self.meld_options(player))
            kind = action[0]
            if kind == MELD:
                self.lay(player, action[1])
            elif kind == ADD:
                meld, card = action[1], action[2]
                hand.remove(card)
                meld[1].append(card)
                meld[2] += WILD[card]
                self.has_melded[player] = True
            elif kind == DISCARD:
                card = action[1]
                hand.remove(card)
                self.discard.append(card)
                self.turn_done = True
                if WILD[card]:
                    self.frozen = True
            else:  # END_PLAY
                self.turn_done = self.hand_over = True
        if not hand and not self.hand_over:
            self.went_out = player
            self.concealed = fresh
            self.hand_over = True

    def lay_red_threes(self, player: int) -> None:
        """Red threes held are laid out, each replaced from the stock; one that empties it ends the play."""
        hand = self.hand[player]
        while 1 in hand or 2 in hand:
            reds = [card for card in hand if RED_THREE[card]]
            hand[:] = [card for card in hand if not RED_THREE[card]]
            self.red_threes[player % 2].extend(reds)
            if not self.stock:
                self.red_last = True
            else:
                for _ in range(min(len(reds), len(self.stock))):
                    hand.append(self.stock.pop())

    def take_pile(self, player: int, action: tuple) -> None:
        """The pile taken: its top card laid (added to a meld, or in new melds), the rest into the hand, its red
        threes laid out."""
        side = player % 2
        hand = self.hand[player]
        top = self.discard.pop()
        if action[0] == TAKE_ADD:
            action[1][1].append(top)
        else:
            hand.append(top)
            self.lay(player, action[1])
        hand.extend(self.discard)
        self.discard = []
        self.frozen = False
        self.has_melded[player] = True
        self.opened[side] = True
        if 1 in hand or 2 in hand:
            self.red_threes[side].extend([card for card in hand if RED_THREE[card]])
            hand[:] = [card for card in hand if not RED_THREE[card]]

    def lay(self, player: int, group: tuple) -> None:
        """New melds (rank, cards, wild cards, points) laid from the hand."""
        hand = self.hand[player]
        side = player % 2
        for rank, cards, wilds, _ in group:
            for card in cards:
                hand.remove(card)
            self.melds[side].append([rank, list(cards), wilds])
        self.has_melded[player] = True
        self.opened[side] = True  # (already, or by this initial meld, which counts the minimum)

    # ------------------------------------------------------------------ legal sets
    def has_canasta(self, side: int) -> bool:
        return any(len(meld[1]) >= 7 for meld in self.melds[side])

    def first_options(self, player: int) -> list[tuple]:
        """Draw from the stock, take the pile, or end the play with the stock exhausted."""
        legal: list[tuple] = [(DRAW,)] if self.stock else []
        pile = self.discard
        pile_open = bool(pile) and not WILD[pile[-1]] and RANK[pile[-1]] != THREE
        if pile_open:
            legal.extend(self.takes(player))
        if not self.stock:
            side = player % 2
            top = pile[-1] if pile else -1
            must_take = pile_open and not self.frozen and self.opened[side] and \
                any(meld[0] == RANK[top] for meld in self.melds[side]) and \
                (len(self.hand[player]) + sum([not RED_THREE[card] for card in pile]) - 1 >= 2 or
                 self.has_canasta(side))
            if not must_take:
                legal.append((STOP,))
        return legal

    def takes(self, player: int) -> list[tuple]:
        """Each way to take the open pile by laying its top card."""
        side = player % 2
        hand = self.hand[player]
        top = self.discard[-1]
        rank = RANK[top]
        kept = sum([not RED_THREE[card] for card in self.discard]) - 1  # the pile's cards that join the hand
        canasta = self.has_canasta(side)
        legal: list[tuple] = []
        if self.opened[side]:
            for meld in self.melds[side]:
                if meld[0] == rank:  # the top card added to the side's set (never to a frozen pile)
                    if not self.frozen and (len(hand) + kept >= 2 or canasta or len(meld[1]) >= 6):
                        legal.append((TAKE_ADD, meld))
                    return legal
        naturals, wilds = self.holding([*hand, top])
        least = 3 if self.frozen or not self.opened[side] else 2
        sets = [choice for choice in natural_choices(naturals[rank]) if top in choice[0] and len(choice[0]) >= least]
        if self.opened[side]:  # one new set holding the top card
            for cards, nat_points in sets:
                for wild, _, wild_points in wild_choices(wilds)[len(cards) < 3]:
                    size = len(cards) + len(wild)
                    if len(hand) - (size - 1) + kept >= 2 or canasta or size >= 7:
                        legal.append((TAKE_MELD, ((rank, cards + wild, len(wild), nat_points + wild_points),)))
            return legal
        # the initial meld: the set holding the top card, and up to two more melds of other ranks
        others = self.meldable(naturals, [rank])
        need = minimum(self.score[side])
        groups: list[tuple] = []
        for cards, nat_points in sets:
            for wild, left, wild_points in wild_choices(wilds)[len(cards) < 3]:
                self.grow(groups, ((rank, cards + wild, len(wild), nat_points + wild_points),), others, 0, left,
                          AT_ONCE - 1)
        for group in groups:
            size, total, black_threes, made_canasta = group_facts(group)
            left_after = len(hand) - size + 1 + kept
            if (left_after >= 2 or canasta or made_canasta) and (not black_threes or left_after == 0) \
                    and total >= need:
                legal.append((TAKE_MELD, group))
        return legal

    def meld_options(self, player: int) -> list[tuple]:
        """New melds, additions, the end of the play after a red three drawn last, or a discard."""
        side = player % 2
        hand = self.hand[player]
        canasta = self.has_canasta(side)
        legal: list[tuple] = []
        naturals, wilds = self.holding(hand)
        if not self.opened[side]:  # the initial meld: one to three melds counting the minimum together
            need = minimum(self.score[side])
            groups: list[tuple] = []
            self.grow(groups, (), self.meldable(naturals, []), 0, wilds, AT_ONCE)
            for group in groups:
                size, total, black_threes, made_canasta = group_facts(group)
                if total >= need and (not black_threes or size == len(hand)) and \
                        (len(hand) - size >= 2 or made_canasta):
                    legal.append((MELD, group))
        else:  # one new meld of a rank the side has not melded
            taken = [meld[0] for meld in self.melds[side]]
            no_wilds = [((), wilds, 0)]  # (black threes)
            for rank, choices in self.meldable(naturals, taken):
                for cards, nat_points in choices:
                    wild_sets = wild_choices(wilds)[len(cards) < 3] if rank != THREE else no_wilds
                    for wild, _, wild_points in wild_sets:
                        size = len(cards) + len(wild)
                        if (rank != THREE or size == len(hand)) and (len(hand) - size >= 2 or size >= 7 or canasta):
                            legal.append((MELD, ((rank, cards + wild, len(wild), nat_points + wild_points),)))
        distinct = list(dict.fromkeys(hand))
        for meld in self.melds[side]:  # additions
            rank, cards, wild_count = meld
            for card in distinct:
                if WILD[card]:
                    fits = rank != THREE and wild_count < MOST_WILDS
                else:
                    fits = RANK[card] == rank and (rank != THREE or len(cards) < 4)
                if fits and (rank != THREE or len(hand) == 1) and (len(hand) >= 3 or len(cards) >= 6 or canasta):
                    legal.append((ADD, meld, card))
        if self.red_last:
            legal.append((END_PLAY,))
        elif len(hand) >= 2 or canasta:
            legal.extend([(DISCARD, card) for card in distinct])
        return legal

    @staticmethod
    def holding(cards: list[int]) -> tuple[dict[int, tuple[int, ...]], tuple[int, ...]]:
        """The natural cards by rank (sorted), and the counts of the wild cards."""
        by_rank: dict[int, list[int]] = {}
        wilds = [0] * 5
        for card in cards:
            if WILD[card]:
                wilds[WILD_INDEX[card]] += 1
            else:
                by_rank.setdefault(RANK[card], []).append(card)
        return {rank: tuple(sorted(held)) for rank, held in by_rank.items()}, tuple(wilds)

    @staticmethod
    def meldable(naturals: dict[int, tuple[int, ...]], taken: list[int]) -> list[tuple[int, list]]:
        """The ranks that make melds, not among `taken`, with their choices of natural cards (black threes: three
        or four)."""
        found = []
        for rank in sorted(naturals):
            if rank in taken:
                continue
            choices = natural_choices(naturals[rank])
            if rank == THREE:
                choices = [choice for choice in choices if 3 <= len(choice[0]) <= 4]
            if choices:
                found.append((rank, choices))
        return found

    def grow(self, found: list[tuple], group: tuple, ranks: list[tuple[int, list]], start: int,
             wilds: tuple[int, ...], most: int) -> None:
        """Append the group (when it holds a meld) and every group made of it and up to `most` more melds of the
        ranks from `start` on (one per rank) with the wild cards left."""
        if group:
            found.append(group)
        if not most:
            return
        for index in range(start, len(ranks)):
            rank, choices = ranks[index]
            for cards, nat_points in choices:
                wild_sets = wild_choices(wilds)[len(cards) < 3] if rank != THREE else [((), wilds, 0)]
                for wild, left, wild_points in wild_sets:
                    meld = (rank, cards + wild, len(wild), nat_points + wild_points)
                    self.grow(found, (*group, meld), ranks, index + 1, left, most - 1)


def group_facts(group: tuple) -> tuple[int, int, bool, bool]:
    """Of a group of melds laid at once: its cards, its points, whether it holds black threes, whether one of its
    melds is a canasta (seven cards or more)."""
    size = total = 0
    black_threes = made_canasta = False
    for meld in group:
        size += len(meld[1])
        total += meld[3]
        black_threes = black_threes or meld[0] == THREE
        made_canasta = made_canasta or len(meld[1]) >= 7
    return size, total, black_threes, made_canasta


def play(decisions: int, seed: int, sizes: list[int]) -> int:
    """Random matches from `random.Random(seed)` until `decisions` decisions are made; the decisions made."""
    return run(decisions, seed, sizes).made


def run(decisions: int, seed: int, sizes: list[int]) -> Canasta:
    game = Canasta(random.Random(seed), sizes, decisions)
    try:
        while True:
            game.play_match()
    except Done:
        pass
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=30000, help="decisions to make (default 30000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sizes: list[int] = []
    start = time.process_time()
    game = run(args.decisions, args.seed, sizes)
    elapsed = time.process_time() - start
    print(f"canasta (plain Python) decisions={game.made} seed={args.seed}")
    print(f"decisions/s {game.made / elapsed:,.0f}  ({elapsed / game.made * 1e6:.1f} us per decision, "
          f"{elapsed:.2f} s CPU)")
    print(f"mean legal set {sum(sizes) / len(sizes):.2f}  (largest {max(sizes)})")
    if game.matches:
        print(f"decisions per match {game.match_decisions / game.matches:.1f}  ({game.matches} matches, "
              f"{game.hands} hands)")
    print(f"checksum matches={game.matches} hands={game.hands} totals={game.totals} wins={game.wins} "
          f"outs={game.outs} canastas={game.canastas} legal={sum(sizes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
