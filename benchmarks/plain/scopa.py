#!/usr/bin/env python3
"""Plain-Python Scopa for two players: the rules of tests/games/scopa.yaml without the engine.

It mirrors tests/games/scopa.yaml with its parameters at their defaults (target 11, kings_redeal on, the full
primiera), so that the cost per decision of random play can be set against the engine's on the same game:
the same decisions, each with the same legal set.

The match (SC-01 to SC-13):
  * 40 cards, A 2 3 4 5 6 7 J Q K worth 1..10, suits D (coins) C S B; the settebello is 7D.
  * Seat 0 deals the first hand, then the deal passes to the other seat. The dealer shuffles and deals 3 cards
    to each seat, one at a time from the dealer's left, then 4 face up to the table; three or four kings on the
    table void the deal and the same dealer shuffles all 40 cards and deals again (SC-03).
  * The non-dealer plays first and the seats alternate until both hands are empty; then, while the stock
    holds cards, 3 more each (none to the table) and play goes on, the non-dealer first (SC-04, SC-09).
  * After the last play the last seat that captured takes the cards left on the table (no scopa; SC-10); if
    nobody captured in the whole hand they stay where they are, as in the ruleset.
  * Each hand scores per seat: its scope, and 1 each for most cards, most coins, the settebello and the
    primiera (best card of each suit at 7=21 6=18 A=16 5=15 4=14 3=13 2=12 J/Q/K=10, summed, 0 for a seat
    lacking a suit, a point only for a total above 0 and above the other's); ties score nothing (SC-11, SC-12).
  * The match ends after a hand in which a seat has 11 or more and the scores differ (SC-13), or after 1000
    hands (the engine's default `hand_cap`).

The decisions: the only decision is a turn of play (phase `play`), one action per turn, asked even when it is
the only move. Its legal set (SC-05, SC-06, SC-07), for each card of the hand in turn:
  * if a table card has the card's value, one capture per such table card (a single card takes precedence);
  * else, if some sets of table cards add up to its value, one capture per such set;
  * else one plain play of the card to the table.
So every card gives at least one action, and a card that can capture cannot be played plainly. This is what the
ruleset's `decide` forms: `play: hand` under `not can_capture(card)`, and `choose: capture` over every
(`with`, `taken`) pair of the hand and `capture_sets` under `points(taken) == value(with)` and
`size(taken) == 1 or not single_match(with)`. (`capture_sets` only offers subsets of the table cards worth no
more than the best card in hand, which keeps no set that adds up to a card's value: the same pairs.)
A capture that empties the table is a scopa unless it is the last play of the hand (SC-08).

Deliberate differences: none in the decisions, their legal sets or the scores. The logs are not written; the
order of the actions within a legal set is the engine's kind of order (plain plays first, then the captures by
card in hand) but the order of the sets of one card may differ, which changes which action a given random
number picks, not the legal set. One generator (`random.Random(seed)`) makes the shuffles and the choices of a
whole run, where the engine seeds each match afresh.

Cards are ints 0..39 as the engine numbers this deck: rank = c // 4 (0 = A .. 9 = K), suit = c % 4
(0 = D, 1 = C, 2 = S, 3 = B), value = rank + 1.

Usage:
    python benchmarks/plain/scopa.py [--decisions 30000] [--seed 1]
prints decisions per second (CPU time), the mean legal-set size, the decisions per match and a checksum of
outcomes that is identical for identical arguments.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

TARGET = 11  # SC-13, params.target
KINGS_REDEAL = True  # SC-03, params.kings_redeal
PRIMIERA_FULL = True  # SC-12, params.primiera == 'full' (False: 'sevens', the most sevens)
HAND_CAP = 1000  # the engine's default match.hand_cap

CARDS = 40
RANK = [c // 4 for c in range(CARDS)]
SUIT = [c % 4 for c in range(CARDS)]
VALUE = [c // 4 + 1 for c in range(CARDS)]
KING = 9  # rank index of K
SEVEN = 6  # rank index of 7
COINS = 0  # suit D
SETTEBELLO = SEVEN * 4 + COINS  # 7D
PRIM = [16, 12, 13, 14, 15, 18, 21, 10, 10, 10]  # SC-12, by rank index
PRIM_OF = [PRIM[RANK[c]] for c in range(CARDS)]
NAMES = [r + s for r in ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K") for s in "DCSB"]

Move = tuple[int, tuple[int, ...]]  # (card played, table cards taken); () taken: a plain play to the table


def sets_by_sum(table: list[int], limit: int) -> dict[int, list[tuple[int, ...]]]:
    """Every set of two or more table cards adding up to at most `limit`, by its sum, each keeping table order."""
    partial: list[tuple[tuple[int, ...], int]] = [((), 0)]
    for t in table:
        v = VALUE[t]
        if v >= limit:
            continue  # alone it is a single match or too much; with another card it is more than the limit
        partial += [((*s, t), total + v) for s, total in partial if total + v <= limit]
    found: dict[int, list[tuple[int, ...]]] = {}
    for s, total in partial:
        if len(s) > 1:
            found.setdefault(total, []).append(s)
    return found


def legal_moves(hand: list[int], table: list[int]) -> list[Move]:
    """The legal set of a turn (SC-05, SC-06, SC-07): the plain plays, then the captures, card by card."""
    table_values = [VALUE[t] for t in table]
    by_sum = [VALUE[c] for c in hand if VALUE[c] not in table_values]  # the cards that need a sum to capture
    sums = sets_by_sum(table, max(by_sum)) if by_sum else {}
    plays: list[Move] = []
    captures: list[Move] = []
    for c in hand:
        v = VALUE[c]
        if v in table_values:  # SC-05: a single card of the same value takes precedence over any sum
            captures += [(c, (t,)) for t in table if VALUE[t] == v]
        elif v in sums:  # SC-06: a set adding up to its value
            captures += [(c, s) for s in sums[v]]
        else:  # SC-07: nothing to capture, the card stays on the table
            plays.append((c, ()))
    return plays + captures


def is_scopa(table: list[int], stock: list[int], hands: list[list[int]]) -> bool:
    """SC-08: whether the capture just made, which left `table`, `stock` and `hands`, is a scopa: it emptied
    the table and it is not the last play of the hand (the stock or a hand still holds cards)."""
    return not table and bool(stock or hands[0] or hands[1])


def primiera(pile: list[int]) -> int:
    """SC-12: the sum of the best primiera card of each suit, 0 without all four suits (or the sevens)."""
    if not PRIMIERA_FULL:
        return sum(1 for c in pile if RANK[c] == SEVEN)
    best = [0, 0, 0, 0]
    for c in pile:
        p = PRIM_OF[c]
        if p > best[SUIT[c]]:
            best[SUIT[c]] = p
    return sum(best) if all(best) else 0


def hand_points(captured: list[list[int]], scope: list[int]) -> list[int]:
    """SC-11: each seat's points for the hand (two seats: 'more than the other' is 'more than every other')."""
    cards = [len(pile) for pile in captured]
    coins = [sum(1 for c in pile if SUIT[c] == COINS) for pile in captured]
    prim = [primiera(pile) for pile in captured]
    points = []
    for p in (0, 1):
        q = 1 - p
        points.append(scope[p] + (cards[p] > cards[q]) + (coins[p] > coins[q]) + (SETTEBELLO in captured[p])
                      + (prim[p] > 0 and prim[p] > prim[q]))
    return points


def finish_hand(captured: list[list[int]], table: list[int], last_capturer: int, scope: list[int]) -> list[int]:
    """SC-10, SC-11: after the last play the last seat that captured (-1: none, the cards stay) takes the cards
    left on the table, which is no scopa; then each seat's points for the hand."""
    if last_capturer >= 0:
        captured[last_capturer] += table
        table.clear()
    return hand_points(captured, scope)


class Run:
    """Random play over one generator: matches one after another until the decisions asked are made."""

    def __init__(self, decisions: int, seed: int, sizes: list[int]) -> None:
        self.rng = random.Random(seed)
        self.left = decisions
        self.sizes = sizes
        self.made = 0
        # checksum and statistics, over the matches finished
        self.matches = 0
        self.match_decisions = 0
        self.hands = 0
        self.redeals = 0
        self.score = [0, 0]
        self.wins = [0, 0]
        self.scope = [0, 0]

    def deal(self, dealer: int) -> tuple[list[int], list[list[int]], list[int]]:
        """SC-02, SC-03: shuffle, 3 cards each from the dealer's left, 4 to the table; redeal on 3+ kings."""
        while True:
            stock = list(range(CARDS))
            self.rng.shuffle(stock)
            hands: list[list[int]] = [[], []]
            for _ in range(3):
                for p in (1 - dealer, dealer):
                    hands[p].append(stock.pop())
            table = [stock.pop() for _ in range(4)]
            if not (KINGS_REDEAL and sum(1 for c in table if RANK[c] == KING) >= 3):
                return stock, hands, table
            self.redeals += 1

    def play_hand(self, dealer: int) -> list[int] | None:
        """One hand; its points per seat, or None when the decisions ran out in the middle of it."""
        rng, sizes = self.rng, self.sizes
        stock, hands, table = self.deal(dealer)
        captured: list[list[int]] = [[], []]
        scope = [0, 0]
        last_capturer = -1
        while True:
            player = 1 - dealer  # SC-04: each round of play starts from the dealer's left
            while hands[0] or hands[1]:
                if self.left == 0:
                    return None
                hand = hands[player]
                legal = legal_moves(hand, table)
                sizes.append(len(legal))
                card, taken = legal[rng.randrange(len(legal))]
                self.left -= 1
                self.made += 1
                hand.remove(card)
                if taken:
                    last_capturer = player
                    pile = captured[player]
                    pile.append(card)
                    pile += taken
                    for t in taken:
                        table.remove(t)
                    if is_scopa(table, stock, hands):  # SC-08
                        scope[player] += 1
                else:
                    table.append(card)
                player = 1 - player
            if not stock:
                break
            for _ in range(3):  # SC-09
                for p in (1 - dealer, dealer):
                    hands[p].append(stock.pop())
        self.scope[0] += scope[0]
        self.scope[1] += scope[1]
        return finish_hand(captured, table, last_capturer, scope)  # SC-10, SC-11

    def play_match(self) -> bool:
        """One match from seat 0's deal; False when the decisions ran out in the middle of it."""
        score = [0, 0]
        dealer = 0
        start = self.made
        hands = 0
        while hands < HAND_CAP:
            points = self.play_hand(dealer)
            if points is None:
                return False
            hands += 1
            score[0] += points[0]
            score[1] += points[1]
            dealer = 1 - dealer
            if max(score) >= TARGET and score[0] != score[1]:  # SC-13
                break
        self.matches += 1
        self.hands += hands
        self.match_decisions += self.made - start
        self.score[0] += score[0]
        self.score[1] += score[1]
        if score[0] != score[1]:
            self.wins[0 if score[0] > score[1] else 1] += 1
        return True

    def run(self) -> int:
        while self.left > 0 and self.play_match():
            pass
        return self.made


def play(decisions: int, seed: int, sizes: list[int]) -> int:
    """Random play of whole matches until `decisions` decisions; each legal set's size goes to `sizes`."""
    return Run(decisions, seed, sizes).run()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=30000, help="decisions to make (default 30000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sizes: list[int] = []
    run = Run(args.decisions, args.seed, sizes)
    start = time.process_time()
    made = run.run()
    seconds = time.process_time() - start
    print(f"scopa (plain) decisions={made} seed={args.seed}")
    if seconds > 0:
        print(f"decisions/sec {made / seconds:.0f}  ({seconds * 1e6 / made:.2f} us per decision, {seconds:.3f} s)")
    print(f"mean legal set {sum(sizes) / max(1, len(sizes)):.3f}  largest {max(sizes, default=0)}")
    if run.matches:
        print(f"decisions/match {run.match_decisions / run.matches:.2f}  hands/match {run.hands / run.matches:.2f}"
              f"  ({run.matches} matches finished)")
    checksum = {"matches": run.matches, "hands": run.hands, "redeals": run.redeals, "score_per_seat": run.score,
                "wins_per_seat": run.wins, "scope_per_seat": run.scope, "sizes_sum": sum(sizes)}
    print("checksum", checksum)
    return 0


if __name__ == "__main__":
    sys.exit(main())
