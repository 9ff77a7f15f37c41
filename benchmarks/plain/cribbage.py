#!/usr/bin/env python3
"""Plain-Python Cribbage: the rules of tests/games/cribbage.yaml without the engine, for timing against it.

The match is the ruleset's whole match, played by random legal players: two seats, seat 0 deals first and the
deal alternates; the first seat to reach the target (121) wins at once, wherever the points are scored (his
heels, the play, the show), and the match ends there. Each hand:

  * shuffle the 52 cards, deal six each (one at a time, the non-dealer first);
  * the lay-away: the non-dealer, then the dealer, each lays two cards away to the crib (in the ruleset a
    simultaneous round: the cards move once both have chosen; the two choices are independent, so moving
    each pair at once changes nothing);
  * the starter is the top card of the stock; a jack gives the dealer two for his heels;
  * the play: the non-dealer first, each in turn plays a card keeping the count to 31 at most, pegging 2 for
    fifteen, 2 for thirty-one, 2/6/12 for a pair, pair royal, double pair royal (the last cards of the count of
    the rank just played), and one per card for the longest run of 3 or more that the last cards of the count
    make in any order. A seat that cannot play passes the turn ("go", no decision) if the other can play; when
    neither can, the last to play pegs one for the go and the count starts again, led by the other seat. At
    31 the count starts again at once, the other seat leading. One for the last card, unless it made 31;
  * the show, each with the starter: the non-dealer's four cards, the dealer's four, then the crib (the
    dealer's): 2 per combination making fifteen, 2 per pair, runs (a five-run 5, else 4 per four-run, else 3 per
    three-run), a flush of the four cards 4 (5 with the starter; a crib only the five-card flush), one for his
    nobs (the jack of the starter's suit).

Decisions (each one appends the size of its legal set to `sizes` and takes a uniformly random member):

  * lay_away, once per seat per hand: the legal set is every pair of the six cards, 15 of them (the ruleset's
    `subsets(sort(hand), 2, 2)`, in that order);
  * play, at each turn where the seat holds a card that fits (count + value <= 31): the legal set is those
    cards of the hand. A seat that cannot play is never asked (the ruleset's `if: can_play(turn)`), so a
    "go" is not a decision.

The legal sets and the points are functions of an explicit position (`lay_away_options`, `play_options` and
`can_play`, both from `fits`, `heels_points`, `peg_points`, `show_points`): tests/unit/test_plain_cribbage.py
calls them on the engine's positions, and replays the engine's matches through `Match`, to keep this file the
ruleset's game.

Differences from the ruleset: none in the decisions, their legal sets or the scores. Nothing is logged, the
`gained` and `turn` bookkeeping variables are locals, and the cards played are not kept in a `done` zone (the
show counts each seat's kept cards, which is what the ruleset gives back to the hands).

Cards are ints 0..51 numbered as the engine's deck: rank * 4 + suit, ranks A 2 .. 10 J Q K as 0..12, suits
S H D C as 0..3; the value for counting is the rank's (A 1, court cards 10).

Usage:
    python benchmarks/plain/cribbage.py [--decisions 30000] [--seed 1]
prints decisions per CPU second, the mean legal set, the decisions per match and a checksum of the outcomes
that is identical for identical arguments.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from typing import TypeVar

TARGET = 121                 # params.target: reaching it wins at once
LURCH_LINE = TARGET - 30     # a loser under it is lurched: the win counts two
JACK = 10                    # rank index of J
RANK = [c >> 2 for c in range(52)]
SUIT = [c & 3 for c in range(52)]
VALUE = [min(c // 4 + 1, 10) for c in range(52)]
DECK = list(range(52))
T = TypeVar("T")
NAMES = [r + s for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for s in "SHDC"]


class MatchOver(Exception):
    """A seat reached the target: the match ends at once (the ruleset's `end: match` after every score)."""


class OutOfDecisions(Exception):
    """The decisions asked for are made: stop, in the middle of a match if need be."""


# ---------------------------------------------------------------------------------------------- the decisions


def lay_away_options(hand: list[int]) -> list[tuple[int, int]]:
    """The lay-away's legal set for a six-card hand: every pair of its cards, as `subsets(sort(hand), 2, 2)`."""
    return list(combinations(sorted(hand), 2))


def fits(card: int, running: int) -> bool:
    """Whether `card` may be played on the count `running`: it keeps the count to 31 at most."""
    return running + VALUE[card] <= 31


def play_options(hand: list[int], running: int) -> list[int]:
    """The play's legal set: the cards of `hand` that fit the count (now `running`), in the hand's order; empty
    when the seat cannot play (it says "go")."""
    return [c for c in hand if fits(c, running)]


def can_play(hand: list[int], running: int) -> bool:
    """Whether the play's legal set is not empty, without making it: stops at the first card that fits."""
    return any(fits(c, running) for c in hand)


# ---------------------------------------------------------------------------------------------- the starter


def heels_points(starter: int) -> int:
    """The dealer's points for the starter: two for his heels when it is a jack."""
    return 2 if RANK[starter] == JACK else 0


# ---------------------------------------------------------------------------------------------- the play


def peg_points(pile: list[int], running: int) -> int:
    """The points for the card just played (the last of `pile`), the count now `running`."""
    points = 2 if running == 15 or running == 31 else 0
    # pairs: the last cards of the count of the rank just played (up to four)
    rank = RANK[pile[-1]]
    same = 1
    for i in range(len(pile) - 2, max(len(pile) - 5, -1), -1):
        if RANK[pile[i]] != rank:
            break
        same += 1
    points += same * (same - 1)
    # runs: the longest tail of 3 or more cards of distinct ranks that are consecutive in some order (a tail
    # with a repeated rank cannot be one, nor can any longer tail)
    if len(pile) >= 3:
        seen = 0
        low = high = rank
        best = 0
        for n, card in enumerate(reversed(pile), 1):
            r = RANK[card]
            bit = 1 << r
            if seen & bit:
                break
            seen |= bit
            if r < low:
                low = r
            elif r > high:
                high = r
            if n >= 3 and high - low == n - 1:
                best = n
        points += best
    return points


# ---------------------------------------------------------------------------------------------- the show


def show_points(hand: list[int], starter: int, in_crib: bool) -> int:
    """A hand's (or the crib's) four cards with the starter: fifteens, pairs, runs, flush and nobs."""
    cards = [*hand, starter]
    # fifteens: 2 for every set of cards whose values add up to 15 (ways[s]: the sets adding up to s so far)
    ways = [1] + [0] * 15
    for card in cards:
        v = VALUE[card]
        for s in range(15, v - 1, -1):
            ways[s] += ways[s - v]
    points = 2 * ways[15]
    # pairs and runs, from how many cards of each rank
    counts = [0] * 14                   # (a zero past the king ends the last run)
    for card in cards:
        counts[RANK[card]] += 1
    run = 0                             # length of the run of ranks so far, and its number of card choices
    choices = 1
    for k in counts:
        if k:
            points += k * (k - 1)
            run += 1
            choices *= k
        else:
            if run >= 3:                # five cards hold at most one run of 3 or more ranks
                points += run * choices
            run = 0
            choices = 1
    # flush: the four cards of one suit, 5 with the starter; in the crib only the five-card flush
    suit = SUIT[hand[0]]
    if all(SUIT[c] == suit for c in hand):
        if SUIT[starter] == suit:
            points += 5
        elif not in_crib:
            points += 4
    # his nobs: the jack of the starter's suit
    nobs = JACK * 4 + SUIT[starter]
    if nobs in hand:
        points += 1
    return points


# ---------------------------------------------------------------------------------------------- the match


class Match:
    """One match: the scores, the dealer, and the random choices made against a budget of decisions."""

    def __init__(self, rng: random.Random, sizes: list[int], budget: int) -> None:
        self.rng = rng
        self.sizes = sizes
        self.budget = budget        # decisions this match may still make
        self.made = 0
        self.score = [0, 0]
        self.dealer = 0
        self.hands = 0

    def choose(self, legal: list[T]) -> T:
        """One decision: a uniformly random member of the complete legal set."""
        if self.made == self.budget:
            raise OutOfDecisions
        self.made += 1
        self.sizes.append(len(legal))
        return legal[self.rng.randrange(len(legal))]

    def peg(self, seat: int, points: int) -> None:
        self.score[seat] += points
        if self.score[seat] >= TARGET:
            raise MatchOver

    def play(self) -> None:
        """Hands until a seat reaches the target (MatchOver) or the budget runs out (OutOfDecisions)."""
        while True:
            self.hand()
            self.hands += 1
            self.dealer = 1 - self.dealer

    def hand(self) -> None:
        dealer = self.dealer
        pone = 1 - dealer
        deck = DECK[:]
        self.rng.shuffle(deck)
        hands: list[list[int]] = [[], []]
        hands[pone] = deck[0:12:2]       # one at a time, the non-dealer first
        hands[dealer] = deck[1:12:2]
        # the lay-away, the non-dealer first
        crib: list[int] = []
        kept: list[list[int]] = [[], []]
        for seat in (pone, dealer):
            pair = self.choose(lay_away_options(hands[seat]))
            crib.extend(pair)
            kept[seat] = sorted(c for c in hands[seat] if c not in pair)
        starter = deck[12]
        heels = heels_points(starter)
        if heels:
            self.peg(dealer, heels)      # two for his heels
        self.pegging(pone, [kept[0][:], kept[1][:]])
        self.peg(pone, show_points(kept[pone], starter, False))
        self.peg(dealer, show_points(kept[dealer], starter, False))
        self.peg(dealer, show_points(crib, starter, True))

    def pegging(self, pone: int, hands: list[list[int]]) -> None:
        """The play, the non-dealer leading."""
        turn = last_player = pone
        running = 0
        pile: list[int] = []
        while hands[0] or hands[1]:
            hand = hands[turn]
            legal = play_options(hand, running)
            if legal:
                card = self.choose(legal)
                hand.remove(card)
                pile.append(card)
                running += VALUE[card]
                last_player = turn
                gained = peg_points(pile, running)
                if gained:
                    self.peg(turn, gained)
                if running == 31:        # a new count, the other seat leading
                    pile = []
                    running = 0
                turn = 1 - turn
            elif can_play(hands[1 - turn], running):
                turn = 1 - turn          # "go": the other seat plays on
            else:                        # neither can play: one for the go, and a new count
                self.peg(last_player, 1)
                pile = []
                running = 0
                turn = 1 - last_player
        if pile:
            self.peg(last_player, 1)     # one for the last card


def play(decisions: int, seed: int, sizes: list[int], results: list[tuple[int, int, int]] | None = None) -> int:
    """Random matches from `random.Random(seed)` until `decisions` decisions; returns the decisions made.

    Each legal set's size is appended to `sizes`; each finished match appends (score of seat 0, score of seat 1,
    its decisions) to `results` if given."""
    rng = random.Random(seed)
    made = 0
    while made < decisions:
        match = Match(rng, sizes, decisions - made)
        try:
            match.play()
        except MatchOver:
            if results is not None:
                results.append((match.score[0], match.score[1], match.made))
        except OutOfDecisions:
            pass
        made += match.made
    return made


def result(score: list[int] | tuple[int, ...], seat: int) -> int:
    """The ruleset's `match.result`: 1 a win, 2 over a lurched loser; -1 a loss, -2 lurched."""
    if score[seat] >= TARGET:
        return 2 if score[1 - seat] < LURCH_LINE else 1
    return -2 if score[seat] < LURCH_LINE else -1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=30000, help="decisions to make (default 30000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sizes: list[int] = []
    results: list[tuple[int, int, int]] = []
    start = time.process_time()
    made = play(args.decisions, args.seed, sizes, results)
    seconds = time.process_time() - start
    matches = len(results)
    print(f"cribbage (plain) decisions={made} seed={args.seed}")
    print(f"decisions/sec {made / seconds:.0f}  ({seconds * 1e6 / made:.2f} us per decision, {seconds:.3f} s CPU)")
    print(f"mean legal set {sum(sizes) / len(sizes):.3f}  (lay-away 15; play "
          f"{sum(s for s in sizes if s != 15) / max(1, sum(1 for s in sizes if s != 15)):.3f})")
    if matches:
        print(f"decisions/match {sum(r[2] for r in results) / matches:.2f} over {matches} finished matches")
    checksum = {
        "matches": matches,
        "score_per_seat": [sum(r[seat] for r in results) for seat in (0, 1)],
        "wins_per_seat": [sum(1 for r in results if r[seat] >= TARGET) for seat in (0, 1)],
        "result_per_seat": [sum(result(r, seat) for r in results) for seat in (0, 1)],
        "legal_sizes_sum": sum(sizes),
    }
    print("checksum", checksum)
    return 0


if __name__ == "__main__":
    sys.exit(main())
