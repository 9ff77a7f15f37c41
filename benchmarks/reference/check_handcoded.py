#!/usr/bin/env python3
"""Correctness checks for the two hand-coded references (stdlib only).

Bourré: replays whole runs of hands with the trick play replaced by a slow,
independent reference (legal cards recomputed from the trick so far, winner
recomputed from the finished trick) and requires the same checksum as the
fast code, for 2, 3, 5 and 8 players.

Burraco: unit cases for the meld validator; every meld the greedy builder
proposes on random hands must validate; on random 6-card hands the builder
must find a meld exactly when some subset is a valid meld; 500 full hands
with --check (all melds valid, all 108 cards accounted for).

Usage:  python3 check_handcoded.py      (prints 'N passed, 0 failed')
"""

import itertools
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bourre_handcoded as BO   # noqa: E402
import burraco_handcoded as BU  # noqa: E402

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


# ------------------------------------------------------------------ Bourré
def ref_legal(hand, trick, trump):
    S = BO.SUIT
    if not trick:
        return set(hand)
    led = S[trick[0][1]]
    mine = [c for c in hand if S[c] == led]
    trumped = led != trump and any(S[c] == trump for _, c in trick)
    if mine:
        if trumped:
            return set(mine)
        top = max(c for _, c in trick if S[c] == led)
        return set([c for c in mine if c > top] or mine)
    trumps = [c for c in hand if S[c] == trump]
    if trumps:
        top = max([c for _, c in trick if S[c] == trump], default=-1)
        return set([c for c in trumps if c > top] or trumps)
    return set(hand)


def ref_winner(trick, trump):
    S = BO.SUIT
    trumps = [(c, p) for p, c in trick if S[c] == trump]
    if trumps:
        return max(trumps)[1]
    led = S[trick[0][1]]
    return max((c, p) for p, c in trick if S[c] == led)[1]


def reference_tricks(self, active, hands, trump, tricks):
    cards = [c for p in active for c in hands[p]]
    assert all(len(hands[p]) == 5 for p in active) and len(set(cards)) == len(cards)
    m, lead = len(active), 0
    for _ in range(5):
        trick = []
        for j in range(m):
            p = active[(lead + j) % m]
            legal = ref_legal(hands[p], trick, trump)
            options = [c for c in hands[p] if c in legal]   # hand order, as the fast code
            c = options[self.rng.randrange(len(options))] if len(options) > 1 else options[0]
            hands[p].remove(c)
            trick.append((p, c))
        winner = ref_winner(trick, trump)
        tricks[winner] += 1
        lead = active.index(winner)


def check_bourre():
    fast = BO.Table._play_tricks
    for players, seed in ((2, 3), (3, 4), (5, 1), (8, 2)):
        a = BO.run(2000, players, seed)[0].checksum()
        BO.Table._play_tricks = reference_tricks
        try:
            b = BO.run(2000, players, seed)[0].checksum()
        finally:
            BO.Table._play_tricks = fast
        check(a == b, f"bourre players={players}: fast {a} != reference {b}")


# ----------------------------------------------------------------- Burraco
def named(*names):
    """Cards by name ('7h', 'Jk'); repeated names take the second deck's copy."""
    out = []
    for n in names:
        for deck in range(2 if n != "Jk" else 4):
            c = 104 + deck if n == "Jk" else \
                deck * 52 + "cdhs".index(n[1]) * 13 + "A23456789TJQK".index(n[0])
            if c not in out:
                out.append(c)
                break
    return out


VALIDATOR_CASES = [
    ("7h 7s 7d", True), ("7h 7s Jk", True), ("7h 2s Jk", False), ("7h 7s 2c Jk", False),
    ("2h 2s 2d", False), ("7h 7h 7s 7c 2d", True), ("3h 4h 5h", True), ("3h 4h 6h", False),
    ("3h Jk 5h", True), ("3h 4h Jk", True), ("Ah 2h 3h", True), ("Qh Kh Ah", True),
    ("Kh Ah 2h", True),                     # 2h wild as the queen: Q K A
    ("Kh Ah 2c", True), ("Kh Ah 2c 3h", False), ("2h 3h 4h Jk", True), ("2h 3h 4h 2c", True),
    ("2h 4h 5h", True), ("2c 4h 5h", True), ("2c Jk 5h 6h", False), ("Ah 2h 3h 2h", True),
    ("3h 4s 5h", False), ("3h 3h 4h", False), ("Ah Kh Qh Jk", True),
    ("Ah Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h", True),
    ("Ah Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h Ah", False),
    ("Jk Jk 3h 4h", False), ("Jk 3h", False),
]


BUILDER_HANDS = [   # hand -> size of the meld the greedy builder should lay
    ("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", 13),   # one Ace: not both ends
    ("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah", 13),
    ("Qh Kh Ah 2h 3h", 3), ("7c 7d 7s 7h 9c", 4), ("5s 7s Jk 9d", 3), ("5s 6s 2s", 3),
    ("Ks Qs 2d Td", 3), ("2h 2s 2d 2c", 0), ("Jk Jk 4d", 0),
]


def check_burraco():
    for text, expected in VALIDATOR_CASES:
        check(BU.valid_meld(named(*text.split())) == expected, f"valid_meld({text}) != {expected}")
    for text, size in BUILDER_HANDS:
        m = BU.best_new_meld(named(*text.split()))
        got = 0 if m is None else len(m.cards)
        check(got == size and (m is None or (BU.valid_meld(m.cards)
                                             and len(set(m.cards)) == len(m.cards))),
              f"best_new_meld({text}) laid {got} cards, expected {size}")
    rng = random.Random(5)
    bad = 0
    for _ in range(20000):
        hand = rng.sample(range(108), rng.randint(3, 25))
        m = BU.best_new_meld(hand)
        if m is not None:
            bad += not (BU.valid_meld(m.cards) and len(set(m.cards)) == len(m.cards)
                        and set(m.cards) <= set(hand)
                        and (m.kind == "set" or len(m.cards) == m.high - m.low + 1))
    check(bad == 0, f"{bad} builder melds invalid")
    bad = 0
    for _ in range(3000):
        hand = rng.sample(range(108), 6)
        exists = any(BU.valid_meld(list(c)) for k in range(3, 7)
                     for c in itertools.combinations(hand, k))
        bad += (BU.best_new_meld(hand) is not None) != exists
    check(bad == 0, f"builder and validator disagree on {bad} six-card hands")
    try:
        BU.run(500, seed=11, check=True)
        check(True, "")
    except AssertionError as e:
        check(False, f"burraco full hands: {e}")


if __name__ == "__main__":
    check_bourre()
    check_burraco()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
