#!/usr/bin/env python3
"""Hand-coded Bourré: the plain-Python speed reference for the rules interpreter.

One "game" is one full hand of Bourré played by random legal players:

  * 52-card deck, P players (2-8), 5 cards each.  The dealer's last card is
    turned face up and its suit is trump.
  * Everyone antes 1 chip into the pot every hand.
  * Starting left of the dealer, each player decides to play or pass (coin
    flip).  The dealer must play if the turned card is an Ace, and the last
    player to decide must play if everyone before passed.  If only one
    player stays in, that player takes all 5 tricks without play.
  * Every player who stays in discards a random subset (0-5 cards) of their
    hand and draws replacements from the stock.  When the stock runs out the
    discard pile (including folded hands) is shuffled into a new stock.
  * 5 tricks, first lead by the first active player left of the dealer:
      - follow the led suit if able, and beat the highest card of the led
        suit if able (unless the trick has already been trumped);
      - if void in the led suit, play a trump if able, and beat the highest
        trump played if able;
      - otherwise play any card.
    The trick goes to the highest trump, else the highest card of the led
    suit; its winner leads the next trick.
  * Most tricks wins the pot.  A tie for most carries the pot over to the
    next hand.  Every active player who took no trick is "bourréd" and pays
    an amount equal to the pot (as it stood this hand) into the next pot.
  * The cinch rule is not implemented.  The dealer button moves left each hand
    and the pot is carried from hand to hand; chips are conserved (checked).

Differences from the full rules (docs/rules/RULES.md), which a benchmark variant of
the engine must reproduce to do the same work:
  * every seat antes 1 every hand (no BR-05 exemptions);
  * all play/pass declarations come first, then the draws in seat order (the
    two-round form of BR-V2, not BR-11's interleaving); a folded hand goes to
    the discards at once, so it is in the reshuffle pool from the start;
  * when the stock is empty, all discards so far (not those of the player
    being served) are shuffled into a new stock;
  * no cinch (BR-27 to BR-31), no pot limit, no ante exemptions, one hand per
    call with the pot carried to the next.

Cards are ints 0..51: suit = c // 13, rank = c % 13 (0 = deuce .. 12 = Ace),
so within one suit a larger int is a higher card.

Usage:
    python3 bourre_handcoded.py --games 2000 --players 5 --seed 1
prints games/sec and a checksum (tricks and pots won per seat, chip balances)
that is identical for identical --games/--players/--seed.
"""

import argparse
import random
import sys
import time

SUIT = [c // 13 for c in range(52)]
ACE = 12
NAMES = [r + s for s in "cdhs" for r in "23456789TJQKA"]


class Table:
    """State that survives from hand to hand: pot, balances, dealer button."""

    def __init__(self, players, seed, p_play=0.5):
        self.n = players
        self.rng = random.Random(seed)
        self.p_play = p_play
        self.pot = 0
        self.balance = [0] * players
        self.dealer = players - 1
        # statistics / checksum
        self.hands = 0
        self.tricks = [0] * players
        self.pots_won = [0] * players
        self.carries = 0
        self.bourres = 0
        self.cards_played = 0      # cards played to tricks
        self.cards_drawn = 0       # replacement cards drawn
        self.active_total = 0      # players who stayed in, summed over hands
        self.decisions = 0         # play/pass + discard choices + cards played

    # ------------------------------------------------------------------ hand
    def play_hand(self):
        n, rng = self.n, self.rng
        dealer = self.dealer
        # seating order for this hand: left of dealer first, dealer last
        order = [(dealer + 1 + i) % n for i in range(n)]

        # ante
        for p in range(n):
            self.balance[p] -= 1
        self.pot += n

        # deal 5 each, one at a time; the dealer's last card is the trump card
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [[] for _ in range(n)]
        k = 0
        for _ in range(5):
            for p in order:
                hands[p].append(deck[k])
                k += 1
        stock = deck[k:]
        stock.reverse()             # draw from the end: pop() is O(1)
        turned = hands[dealer][-1]
        trump = SUIT[turned]

        # play or pass
        active = []
        discards = []
        last = order[-1]
        for p in order:
            if (p == dealer and turned % 13 == ACE) or (p == last and not active) \
                    or rng.random() < self.p_play:
                active.append(p)
            else:
                discards.extend(hands[p])   # folded hand goes to the discards
                hands[p] = []
        self.active_total += len(active)

        tricks = dict.fromkeys(active, 0)
        self.decisions += n
        if len(active) == 1:
            tricks[active[0]] = 5
        else:
            self.decisions += 6 * len(active)    # one discard choice + 5 cards each
            # draw: discard a random subset, refill from the stock
            for p in active:
                hand = hands[p]
                mask = rng.getrandbits(5)
                if mask:
                    keep = [c for i, c in enumerate(hand) if not (mask >> i) & 1]
                    out = [c for i, c in enumerate(hand) if (mask >> i) & 1]
                    for _ in out:
                        if not stock:
                            stock, discards = discards, []
                            rng.shuffle(stock)
                        keep.append(stock.pop())
                    discards.extend(out)
                    hands[p] = keep
                    self.cards_drawn += len(out)
            self.cards_played += 5 * len(active)
            self._play_tricks(active, hands, trump, tricks)

        # settle
        pot = self.pot
        most = max(tricks.values())
        winners = [p for p in active if tricks[p] == most]
        if len(winners) == 1:
            w = winners[0]
            self.balance[w] += pot
            self.pots_won[w] += 1
            self.pot = 0
        else:
            self.carries += 1
        for p in active:
            self.tricks[p] += tricks[p]
            if tricks[p] == 0:
                self.balance[p] -= pot
                self.pot += pot
                self.bourres += 1

        self.hands += 1
        self.dealer = (dealer + 1) % n

    def _play_tricks(self, active, hands, trump, tricks):
        rng = self.rng
        m = len(active)
        lead = 0                          # index into `active`
        for _ in range(5):
            led = -1                      # suit led
            high_led = high_trump = -1    # highest led-suit card / trump so far
            win_led = win_trump = -1      # who played them
            for j in range(m):
                p = active[(lead + j) % m]
                hand = hands[p]
                if led < 0:
                    legal = hand
                else:
                    follow = [c for c in hand if SUIT[c] == led]
                    if follow:
                        if led != trump and high_trump >= 0:
                            legal = follow            # trick already trumped
                        else:
                            legal = [c for c in follow if c > high_led] or follow
                    else:
                        trumps = [c for c in hand if SUIT[c] == trump]
                        if trumps:
                            legal = [c for c in trumps if c > high_trump] or trumps
                        else:
                            legal = hand
                c = legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
                hand.remove(c)
                s = SUIT[c]
                if led < 0:
                    led = s
                if s == led and c > high_led:
                    high_led, win_led = c, p
                if s == trump and c > high_trump:
                    high_trump, win_trump = c, p
            winner = win_trump if high_trump >= 0 else win_led
            tricks[winner] += 1
            lead = active.index(winner)

    # -------------------------------------------------------------- checksum
    def checksum(self):
        assert sum(self.balance) + self.pot == 0, "chips not conserved"
        return {
            "hands": self.hands,
            "tricks_per_seat": self.tricks,
            "pots_won_per_seat": self.pots_won,
            "carries": self.carries,
            "bourres": self.bourres,
            "cards_played": self.cards_played,
            "cards_drawn": self.cards_drawn,
            "decisions": self.decisions,
            "balance_hash": hash(tuple(self.balance)) & 0xFFFFFFFF,
        }


def run(games, players, seed, p_play=0.5):
    table = Table(players, seed, p_play)
    t0 = time.perf_counter()
    for _ in range(games):
        table.play_hand()
    dt = time.perf_counter() - t0
    return table, dt


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000, help="hands to play")
    ap.add_argument("--players", type=int, default=5, help="2..8")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--p-play", type=float, default=0.5,
                    help="probability a player stays in (default 0.5)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="time the whole run this many times; print min/median/max")
    args = ap.parse_args(argv)
    if not 2 <= args.players <= 8:
        ap.error("--players must be 2..8")

    rates = []
    for _ in range(args.repeat):
        table, dt = run(args.games, args.players, args.seed, args.p_play)
        rates.append(args.games / dt)
    rates.sort()
    cs = table.checksum()
    print(f"bourre_handcoded players={args.players} games={args.games} seed={args.seed}")
    if args.repeat > 1:
        print(f"games/sec min={rates[0]:.0f} median={rates[len(rates) // 2]:.0f} "
              f"max={rates[-1]:.0f} (n={args.repeat})")
    else:
        print(f"games/sec {rates[0]:.0f}  ({dt:.3f} s)")
    print(f"decisions/game {cs['decisions'] / args.games:.2f}  "
          f"cards played/game {cs['cards_played'] / args.games:.2f}  "
          f"cards/sec {rates[len(rates) // 2] * cs['cards_played'] / args.games:.0f}")
    print("checksum", cs)


if __name__ == "__main__":
    sys.exit(main())
