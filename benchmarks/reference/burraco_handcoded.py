#!/usr/bin/env python3
"""Hand-coded Burraco: a simple random-play reference for the rules interpreter.

One "game" is one hand (smazzata) of 4-player partnership Burraco:

  * 108 cards: two 52-card decks + 4 jokers.  Seats 0/2 and 1/3 are partners.
  * Deal 11 cards each, two pozzetti of 11 cards set aside, one card face up
    starts the discard pile, the rest (41) is the stock.
  * A turn: draw the top stock card OR take the whole discard pile (coin flip
    when the pile is not empty); meld greedily; discard a random card.
  * Melding (greedy, repeated until nothing applies):
      1. extend the team's melds with natural cards (a natural that matches
         the position a sequence's wild stands for replaces it and the wild
         moves to an end of the sequence);
      2. lay the largest new natural meld (set or sequence);
      3. otherwise lay the largest new meld that needs exactly one wild.
  * Meld validity: a set is 3+ cards of one rank (not 2s) with at most one
    wild; a sequence is 3+ consecutive cards of one suit, Ace low (A-2-3) or
    high (Q-K-A) but not both, with at most one wild.  Wilds are jokers and
    2s; a 2 of the sequence's suit standing in the 2 position is natural.
  * A player whose hand empties (by melding or by discarding) takes the team's
    pozzetto if it has not been taken (melding then continues).  After the
    pozzetto the team may only empty a hand by discarding the last card when
    it has a burraco (7+ card meld): that closes the hand.  Without a burraco
    a player must keep 2 cards after melding (one to discard, one to hold).
  * The hand ends when a player closes or the stock is down to 2 cards.
  * Score: card values (joker 30, 2 20, A 15, 8-K 10, 3-7 5) of melded cards,
    +200 clean / +100 dirty burraco, +100 closing, minus values left in hands,
    -100 for a pozzetto not taken.

Differences from the full rules (docs/rules/RULES.md), which a benchmark variant of
the engine must reproduce to do the same work:
  * a pozzetto is picked up at once however it was earned (no BU-37 delay, so
    no unseen pozzetto at scoring, BU-46);
  * the final closing discard may be a wild card (against BU-41);
  * no stalemate (BU-44) and no one-card-pile re-discard rule (BU-15);
  * wild cards move only as described above (a subset of BU-29 to BU-33);
  * one hand per call, no match to a target.
The policy, not the rules: coin flip between stock and pile, greedy melding
in the order above, a uniformly random discard.

Cards are ints 0..107: for c < 104, suit = (c % 52) // 13 and rank =
(c % 52) % 13 + 1 (1 = Ace, 2 = deuce, 11-13 = J Q K); 104..107 are jokers.
Sequence positions run 1..14: Ace is 1 or 14, other ranks are their number.

Usage:
    python3 burraco_handcoded.py --games 200 --seed 1 [--check]
prints games/sec and a checksum; --check also validates every meld with an
independent validator and checks that all 108 cards are accounted for.
"""

import argparse
import random
import sys
import time

JOKER = 0
RANK = [(c % 52) % 13 + 1 for c in range(104)] + [JOKER] * 4
SUIT = [(c % 52) // 13 for c in range(104)] + [4] * 4
WILD = [r == 2 or r == JOKER for r in RANK]
VALUE = [30 if r == JOKER else 20 if r == 2 else 15 if r == 1 else 10 if r >= 8 else 5
         for r in RANK]
MAX_TURNS = 2000   # safety net; a random hand ends long before this


def card_name(c):
    if RANK[c] == JOKER:
        return "Jk"
    return "A23456789TJQK"[RANK[c] - 1] + "cdhs"[SUIT[c]]


# --------------------------------------------------------------- validator
def valid_meld(cards):
    """Independent validity check of a list of cards as a set or sequence."""
    return len(cards) >= 3 and (_valid_set(cards) or _valid_seq(cards))


def _valid_set(cards):
    naturals = [c for c in cards if not WILD[c]]
    if len(cards) - len(naturals) > 1 or len(naturals) < 2:
        return False
    return len({RANK[c] for c in naturals}) == 1


def _valid_seq(cards):
    plain = [c for c in cards if not WILD[c]]          # never wild
    extra = [c for c in cards if WILD[c]]              # 2s and jokers
    if not plain or len({SUIT[c] for c in plain}) != 1:
        return False
    suit = SUIT[plain[0]]
    # try each 2 of the suit as the natural 2 (or none)
    options = [None] + [c for c in extra if RANK[c] == 2 and SUIT[c] == suit]
    for nat2 in options:
        wilds = len(extra) - (nat2 is not None)
        if wilds > 1:
            continue
        ranks = [RANK[c] for c in plain] + ([2] if nat2 is not None else [])
        if len(set(ranks)) != len(ranks):
            continue
        for ace in (1, 14):
            pos = [ace if r == 1 else r for r in ranks]
            lo, hi = min(pos), max(pos)
            holes = hi - lo + 1 - len(pos)
            if holes == wilds or (holes == 0 and wilds == 1 and (lo > 1 or hi < 14)):
                return True
    return False


# ------------------------------------------------------------------- melds
class Meld:
    """A meld on the table.  Sets: kind 'set', rank.  Sequences: kind 'seq',
    suit, covered positions low..high, and wild_pos (the position the wild
    stands for) when wild >= 0."""
    __slots__ = ("kind", "cards", "rank", "suit", "low", "high", "wild", "wild_pos")

    def __init__(self, kind, cards, rank=0, suit=0, low=0, high=0, wild=-1, wild_pos=0):
        self.kind, self.cards, self.rank, self.suit = kind, cards, rank, suit
        self.low, self.high, self.wild, self.wild_pos = low, high, wild, wild_pos
        self.normalize()

    def normalize(self):
        # a 2 of the suit standing in position 2 is natural, not wild
        if (self.kind == "seq" and self.wild >= 0 and self.wild_pos == 2
                and RANK[self.wild] == 2 and SUIT[self.wild] == self.suit):
            self.wild = -1


def suit_positions(hand, suit):
    """pos[1..14] -> a natural card of `suit` in hand at that sequence position."""
    pos = [-1] * 16
    for c in hand:
        if SUIT[c] == suit:
            r = RANK[c]
            if r == 1:
                if pos[1] < 0:
                    pos[1] = c
                elif pos[14] < 0:
                    pos[14] = c
                continue
            if pos[r] < 0:
                pos[r] = c
    if pos[14] < 0:
        pos[14] = pos[1]      # a lone Ace may go low or high
    return pos


def best_new_meld(hand):
    """Largest meld that can be laid from `hand`: natural first, else with one
    wild.  Returns a Meld (not yet removed from hand) or None."""
    by_rank = {}
    for c in hand:
        if not WILD[c]:
            by_rank.setdefault(RANK[c], []).append(c)
    best = None
    for r, cs in by_rank.items():
        if len(cs) >= 3 and (best is None or len(cs) > len(best.cards)):
            best = Meld("set", list(cs), rank=r)
    suits = {SUIT[c] for c in hand if RANK[c] != JOKER}
    positions = {s: suit_positions(hand, s) for s in suits}
    for s, pos in positions.items():
        p = 1
        while p <= 14:
            if pos[p] < 0:
                p += 1
                continue
            q = p
            while q < 14 and pos[q + 1] >= 0 and not (p == 1 and q + 1 == 14):
                q += 1
            if q - p + 1 >= 3 and (best is None or q - p + 1 > len(best.cards)):
                best = Meld("seq", [pos[i] for i in range(p, q + 1)], suit=s, low=p, high=q)
            p = q + 1
    if best is not None:
        return best

    wilds = [c for c in hand if WILD[c]]
    if not wilds:
        return None
    for r, cs in by_rank.items():
        if len(cs) == 2 and r != 2:
            w = wilds[0]
            if best is None:
                best = Meld("set", cs + [w], rank=r, wild=w)
    for s, pos in positions.items():
        # windows low..high with exactly one hole, 3+ long, not both Aces
        for lo in range(1, 15):
            holes, hole = 0, 0
            for hi in range(lo, 15):
                if lo == 1 and hi == 14:
                    break
                if pos[hi] < 0:
                    holes += 1
                    if holes > 1:
                        break
                    hole = hi
                if holes == 1 and hi - lo + 1 >= 3 and \
                        (best is None or hi - lo + 1 > len(best.cards)):
                    naturals = [pos[i] for i in range(lo, hi + 1) if i != hole]
                    w = next((x for x in wilds if x not in naturals), -1)
                    if w >= 0:
                        best = Meld("seq", naturals + [w], suit=s, low=lo, high=hi,
                                    wild=w, wild_pos=hole)
    return best


# -------------------------------------------------------------------- game
class Hand:
    def __init__(self, rng, dealer):
        self.rng = rng
        deck = list(range(108))
        rng.shuffle(deck)
        self.hands = [deck[i * 11:(i + 1) * 11] for i in range(4)]
        self.pozzetto = [deck[44:55], deck[55:66]]       # per team
        self.pozzetto_taken = [False, False]
        self.discard = [deck[66]]
        self.stock = deck[67:]
        self.melds = [[], []]                            # per team
        self.has_burraco = [False, False]
        self.closed_by = -1
        self.player = (dealer + 1) % 4
        self.turns = 0
        self.cards_melded = 0
        self.pile_takes = 0

    # minimum cards the player must still hold after a meld
    def _min_keep(self, team):
        if not self.pozzetto_taken[team]:
            return 0
        return 1 if self.has_burraco[team] else 2

    def _take_pozzetto(self, p):
        team = p & 1
        self.hands[p] = self.pozzetto[team]
        self.pozzetto[team] = []
        self.pozzetto_taken[team] = True

    def _lay(self, p, cards, meld=None):
        """Move `cards` from p's hand onto the table (new meld or existing)."""
        team = p & 1
        hand = self.hands[p]
        for c in cards:
            hand.remove(c)
        if meld is not None:
            self.melds[team].append(meld)
        self.cards_melded += len(cards)
        if not self.has_burraco[team]:
            self.has_burraco[team] = any(len(m.cards) >= 7 for m in self.melds[team])
        if not hand and not self.pozzetto_taken[team]:
            self._take_pozzetto(p)

    def _extend(self, p):
        """Add natural cards to the team's melds; True if anything was added."""
        team = p & 1
        added = False
        for m in self.melds[team]:
            hand = self.hands[p]
            room = len(hand) - self._min_keep(team)
            if room <= 0:
                return added
            if m.kind == "set":
                cs = [c for c in hand if RANK[c] == m.rank and not WILD[c]][:room]
                if cs:
                    m.cards.extend(cs)
                    self._lay(p, cs)
                    added = True
                continue
            pos = suit_positions(hand, m.suit)
            while room > 0:
                if m.wild >= 0 and pos[m.wild_pos] >= 0 and (m.low > 1 or m.high < 14) \
                        and not (m.low == 2 and m.high == 14) \
                        and not (m.low == 1 and m.high == 13):
                    c = pos[m.wild_pos]
                    if m.low > 1:                      # wild slides to the low end
                        m.low -= 1
                        m.wild_pos = m.low
                    else:                              # ... or the high end
                        m.high += 1
                        m.wild_pos = m.high
                    m.normalize()
                elif m.low > 1 and pos[m.low - 1] >= 0 and not (m.low == 2 and m.high == 14):
                    m.low -= 1
                    c = pos[m.low]
                elif m.high < 14 and pos[m.high + 1] >= 0 and not (m.high == 13 and m.low == 1):
                    m.high += 1
                    c = pos[m.high]
                else:
                    break
                m.cards.append(c)
                self._lay(p, [c])
                added = True
                room -= 1
                hand = self.hands[p]
                pos = suit_positions(hand, m.suit)
        return added

    def _meld(self, p):
        team = p & 1
        while True:
            progressed = self._extend(p)
            hand = self.hands[p]
            m = best_new_meld(hand)
            if m is not None and len(hand) - len(m.cards) >= self._min_keep(team):
                self._lay(p, m.cards, m)
                progressed = True
            if not progressed:
                return

    def turn(self):
        p = self.player
        team = p & 1
        rng = self.rng
        hand = self.hands[p]
        if self.discard and rng.random() < 0.5:
            hand.extend(self.discard)
            self.discard = []
            self.pile_takes += 1
        else:
            hand.append(self.stock.pop())
        self._meld(p)
        hand = self.hands[p]
        self.discard.append(hand.pop(rng.randrange(len(hand))))
        if not hand:
            if not self.pozzetto_taken[team]:
                self._take_pozzetto(p)
            else:
                assert self.has_burraco[team]
                self.closed_by = team
        self.turns += 1
        self.player = (p + 1) % 4

    def play(self):
        while self.closed_by < 0 and len(self.stock) > 2 and self.turns < MAX_TURNS:
            self.turn()
        return self.score()

    def score(self):
        scores = []
        for team in (0, 1):
            s = 0
            for m in self.melds[team]:
                s += sum(VALUE[c] for c in m.cards)
                if len(m.cards) >= 7:
                    s += 200 if m.wild < 0 else 100
            if self.closed_by == team:
                s += 100
            for p in (team, team + 2):
                s -= sum(VALUE[c] for c in self.hands[p])
            if not self.pozzetto_taken[team]:
                s -= 100
            scores.append(s)
        return scores

    def check(self):
        """Validate every meld and that all 108 cards are accounted for."""
        everything = self.stock + self.discard + self.pozzetto[0] + self.pozzetto[1]
        for h in self.hands:
            everything += h
        for team in (0, 1):
            for m in self.melds[team]:
                if not valid_meld(m.cards):
                    raise AssertionError("invalid meld: " + " ".join(map(card_name, m.cards)))
                if m.kind == "seq" and len(m.cards) != m.high - m.low + 1:
                    raise AssertionError("sequence bookkeeping: %r" % [card_name(c) for c in m.cards])
                everything += m.cards
        assert sorted(everything) == list(range(108)), "cards lost or duplicated"


def run(games, seed, check=False):
    rng = random.Random(seed)
    totals = {"score": [0, 0], "closed": 0, "pozzetti": 0, "turns": 0,
              "cards_melded": 0, "discards": 0, "pile_takes": 0, "melds": 0,
              "burraco": 0}
    t0 = time.perf_counter()
    for g in range(games):
        h = Hand(rng, dealer=g % 4)
        s = h.play()
        if check:
            h.check()
        totals["score"][0] += s[0]
        totals["score"][1] += s[1]
        totals["closed"] += h.closed_by >= 0
        totals["pozzetti"] += h.pozzetto_taken[0] + h.pozzetto_taken[1]
        totals["turns"] += h.turns
        totals["discards"] += h.turns
        totals["cards_melded"] += h.cards_melded
        totals["pile_takes"] += h.pile_takes
        totals["melds"] += len(h.melds[0]) + len(h.melds[1])
        totals["burraco"] += sum(len(m.cards) >= 7 for t in h.melds for m in t)
    return totals, time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="hands to play")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", action="store_true",
                    help="validate melds and card conservation after every hand")
    ap.add_argument("--repeat", type=int, default=1,
                    help="time the whole run this many times; print min/median/max")
    args = ap.parse_args(argv)

    rates = []
    for _ in range(args.repeat):
        totals, dt = run(args.games, args.seed, args.check)
        rates.append(args.games / dt)
    rates.sort()
    med = rates[len(rates) // 2]
    print(f"burraco_handcoded players=4 games={args.games} seed={args.seed}"
          f"{' check=on' if args.check else ''}")
    if args.repeat > 1:
        print(f"games/sec min={rates[0]:.1f} median={med:.1f} max={rates[-1]:.1f} "
              f"(n={args.repeat})")
    else:
        print(f"games/sec {med:.1f}  ({dt:.3f} s)")
    played = (totals["cards_melded"] + totals["discards"]) / args.games
    print(f"turns/game {totals['turns'] / args.games:.1f}  "
          f"cards played/game (melded+discarded) {played:.1f}  "
          f"cards/sec {med * played:.0f}")
    print("checksum", totals)


if __name__ == "__main__":
    sys.exit(main())
