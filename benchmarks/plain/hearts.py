#!/usr/bin/env python3
"""Hearts in plain Python: the rules of tests/games/hearts.yaml with no engine, to time against the engine.

It plays the ruleset's whole match with its default parameters (four players, `target: 100`,
`simultaneous_pass: false`) and makes the same decisions as the engine, with the same legal sets:

  * A match starts with seat 0 dealing; the dealer moves one seat left after each hand, and the match ends
    after the hand in which some seat's score reaches 100 (or after 1000 hands, the engine's default
    `hand_cap`, which is never reached). Each seat's result is minus its score: the lowest score wins.
  * Each hand: shuffle the 52 cards, deal 13 to each seat one at a time from the dealer's left (a chance
    event, not a decision). Hand n passes left (n % 4 == 1), right (2), across (3) or not at all (0).
  * Passing (phase `pass`), 12 decisions: from the dealer's left, each seat in turn discards three cards one
    at a time into its `passed` pile. The legal set is every card of the hand (13, then 12, then 11). Once all
    have passed, seat by seat from seat 0, each pile goes to the end of its receiver's hand.
  * Play (phase `play`), 52 decisions: 13 tricks, the first led by the holder of the 2 of clubs, each next by
    the last trick's winner, the others following clockwise. A card is legal when the ruleset's four clauses
    all hold, which comes to:
      - leading the first trick: only the 2 of clubs;
      - leading a later trick: any card but a heart, unless hearts are broken or the hand holds only hearts;
      - following: the cards of the suit led if the hand holds any; else any card, except on the first trick
        no heart and not the queen of spades unless the hand holds nothing else.
    A legal set of one card is still a decision, as in the engine. The highest card of the suit led wins
    (aces high). After each trick: hearts are broken if it held a heart or the queen of spades; its winner
    takes a point per heart and 13 for the queen of spades.
  * Scoring (phase `score`): a seat that took all 26 points shoots the moon and every other seat scores 26;
    otherwise each seat scores the points it took.

Differences from the ruleset, none of which changes a decision or a legal set: nothing is logged or shown,
no `won` piles are kept (nothing reads them), and the cards of a hand are kept in the same order as the
engine's zone (dealt order, passed cards at the end) only because it costs nothing. The legal sets and the
scoring are functions of the position alone (`pass_legal`, `lead_legal`, `follow_legal`, `score_hand`), so that
tests/unit/test_plain_hearts.py can ask them at the engine's own positions.

Cards are ints 0..51 numbered as the engine's deck: rank * 4 + suit, ranks 0 (the 2) .. 12 (the ace), suits
0 spades, 1 hearts, 2 diamonds, 3 clubs; so within a suit a larger int is a higher card.

Usage:
    python benchmarks/plain/hearts.py [--decisions 30000] [--seed 1]
prints decisions per second (CPU time), the mean legal-set size, the decisions per match and a checksum
(total score per seat over the matches finished, and more) that is identical for identical arguments.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
TWO_CLUBS = 0 * 4 + CLUBS
QUEEN_SPADES = 10 * 4 + SPADES
NAMES = [r + s for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A") for s in "SHDC"]
POINTS = [1 if c & 3 == HEARTS else 13 if c == QUEEN_SPADES else 0 for c in range(52)]  # 0: not a point card
SEATS = 4
TARGET = 100
HAND_CAP = 1000  # the engine's default `hand_cap`


class Budget(Exception):
    """Raised when the decisions asked for have all been made, to stop in the middle of a match."""


class Hearts:
    """Random play of whole matches, one after another, until a number of decisions is made."""

    def __init__(self, decisions: int, seed: int, sizes: list[int], target: int = TARGET) -> None:
        self.rng = random.Random(seed)
        self.limit = decisions
        self.sizes = sizes
        self.target = target
        self.made = 0
        self.phase = ""
        # the checksum: over the matches finished
        self.matches = 0
        self.match_decisions = 0   # decisions made in the matches finished
        self.hands = 0             # hands of the matches finished
        self.moons = 0
        self.score_total = [0] * SEATS
        self.wins = [0] * SEATS   # seats sharing the lowest score each count a win

    def decide(self, legal: list[int]) -> int:
        """One decision: record the size of the legal set and pick a card of it uniformly at random."""
        if self.made == self.limit:
            raise Budget
        self.made += 1
        self.sizes.append(len(legal))
        return legal[self.rng.randrange(len(legal))]

    def run(self) -> int:
        try:
            while True:
                self.play_match()
        except Budget:
            return self.made

    # ------------------------------------------------------------------ match
    def play_match(self) -> None:
        score = [0] * SEATS
        dealer = 0
        hand_number = 1
        while True:
            self.play_hand(hand_number, dealer, score)
            if any(s >= self.target for s in score) or hand_number >= HAND_CAP:
                break
            dealer = (dealer + 1) % SEATS
            hand_number += 1
        self.matches += 1
        self.hands += hand_number
        self.match_decisions = self.made
        low = min(score)
        for p in range(SEATS):
            self.score_total[p] += score[p]
            if score[p] == low:
                self.wins[p] += 1

    # ------------------------------------------------------------------- hand
    def play_hand(self, hand_number: int, dealer: int, score: list[int]) -> None:
        self.phase = "deal"
        deck = list(range(52))
        self.rng.shuffle(deck)
        hands: list[list[int]] = [[], [], [], []]
        for i in range(SEATS):   # one at a time from the dealer's left: the k-th card to the (k % 4)-th seat
            hands[(dealer + 1 + i) % SEATS] = deck[i::SEATS]
        pass_dir = hand_number % 4
        if pass_dir:
            self.pass_cards(hands, dealer, pass_dir)
        taken = self.play_tricks(hands)
        self.phase = "score"
        if score_hand(taken, score):
            self.moons += 1

    def pass_cards(self, hands: list[list[int]], dealer: int, pass_dir: int) -> None:
        self.phase = "pass"
        passed: list[list[int]] = [[], [], [], []]
        for i in range(1, SEATS + 1):
            p = (dealer + i) % SEATS
            hand = hands[p]
            for _ in range(3):
                card = self.decide(pass_legal(hand))
                hand.remove(card)
                passed[p].append(card)
        shift = 1 if pass_dir == 1 else 3 if pass_dir == 2 else 2   # left, right, across
        for p in range(SEATS):
            hands[(p + shift) % SEATS].extend(passed[p])

    def play_tricks(self, hands: list[list[int]]) -> list[int]:
        """The 13 tricks; returns the points each seat took."""
        self.phase = "play"
        decide = self.decide
        lead, follow = lead_legal, follow_legal   # (locals: no global look-up per decision)
        taken = [0] * SEATS
        broken = False
        leader = next(p for p in range(SEATS) if TWO_CLUBS in hands[p])
        for tricks_played in range(13):
            first_trick = tricks_played == 0
            # the lead
            hand = hands[leader]
            card = decide(lead(hand, first_trick, broken))
            hand.remove(card)
            led = card & 3
            high, winner = card, leader
            points = POINTS[card]
            # the three others, clockwise
            for i in range(1, SEATS):
                p = (leader + i) % SEATS
                hand = hands[p]
                card = decide(follow(hand, led, first_trick))
                hand.remove(card)
                points += POINTS[card]
                if card & 3 == led and card > high:
                    high, winner = card, p
            if points:
                broken = True   # (any heart or the queen of spades in the trick: every point card counts)
                taken[winner] += points
            leader = winner
        return taken


# The legal sets and the scoring, as functions of the position alone (what a test compares with the engine's):


def pass_legal(hand: list[int]) -> list[int]:
    """The cards a seat holding `hand` may pass next: any card of it."""
    return hand[:]


def lead_legal(hand: list[int], first_trick: bool, broken: bool) -> list[int]:
    """The cards a seat holding `hand` may lead: only the 2 of clubs to the first trick; later, any card but a
    heart, unless hearts are `broken` or the hand holds only hearts."""
    if first_trick:
        return [TWO_CLUBS]
    if broken:
        return hand[:]
    return [c for c in hand if c & 3 != HEARTS] or hand[:]


def follow_legal(hand: list[int], led: int, first_trick: bool) -> list[int]:
    """The cards a seat holding `hand` may play to a trick led in suit `led`: that suit's if the hand holds any;
    else any card, except on the first trick no point card unless the hand holds nothing else."""
    legal = [c for c in hand if c & 3 == led]
    if legal:
        return legal
    if first_trick:   # void on the first trick: no point card unless all are
        return [c for c in hand if not POINTS[c]] or hand[:]
    return hand[:]    # void: any card


def score_hand(taken: list[int], score: list[int]) -> bool:
    """Adds a hand's scores to `score`, from the points each seat `taken`: a seat that took all 26 shoots the
    moon and every other seat scores 26, else each seat scores its points. Returns whether the moon was shot."""
    if 26 in taken:
        for p in range(SEATS):
            if taken[p] != 26:
                score[p] += 26
        return True
    for p in range(SEATS):
        score[p] += taken[p]
    return False


def play(decisions: int, seed: int, sizes: list[int]) -> int:
    """Random play of whole matches from random.Random(seed) until `decisions` decisions; appends each legal
    set's size to `sizes` and returns the number of decisions made."""
    return Hearts(decisions, seed, sizes).run()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=30000, help="decisions to make (default 30000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sizes: list[int] = []
    game = Hearts(args.decisions, args.seed, sizes)
    start = time.process_time()
    made = game.run()
    elapsed = time.process_time() - start
    print(f"plain hearts decisions={made} seed={args.seed}")
    rate = made / elapsed if elapsed else float("inf")
    print(f"decisions/sec {rate:.0f}  ({elapsed * 1e6 / max(made, 1):.2f} us per decision, {elapsed:.3f} s CPU)")
    print(f"mean legal set {sum(sizes) / max(len(sizes), 1):.3f}")
    if game.matches:
        print(f"decisions/match {game.match_decisions / game.matches:.1f}  hands/match "
              f"{game.hands / game.matches:.2f}  ({game.matches} matches finished)")
    print("checksum", {"matches": game.matches, "hands": game.hands, "moons": game.moons,
                       "score_total": game.score_total, "wins": game.wins, "sizes_sum": sum(sizes)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
