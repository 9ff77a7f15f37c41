"""The meld search's fast paths give the answers of the general code they stand for (engine/melds.py): a run
with one wild card (`_run_with_one_wild`) is the run the general builder (`_run_with_wilds`) makes with that one
wild, and the naturals of a window where each place has one card (`_place_naturals`) are the ways the general
choice (`_choose_naturals`) finds. Checked on many random cases of every ruleset with melds and of kinds with
other settings (two or no wild cards, either end, aces high only), so that a change to one side that the other
does not follow fails here (BU-25 to BU-32 are the rules these builders serve)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.cards import standard_deck
from interpreter.engine.melds import MeldKind, MeldRules

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ["rulesets/burraco.yaml", "tests/games/canasta.yaml", "tests/games/gin_rummy.yaml",
            "tests/games/rummy500.yaml", "tests/games/variants/rummy500_short_runs.yaml"]


@cache
def _rules(name: str) -> MeldRules:
    if name.endswith(".yaml"):
        rules = load_ruleset(ROOT / name).meld_rules
        assert rules is not None
        return rules
    deck = standard_deck(packs=2, jokers=4)
    twos = frozenset(card for card in deck.distinct_cards()
                     if deck.suit_of[card] >= 0 and deck.rank_name(deck.rank_of[card]) == "2")
    kinds = {
        "two wilds": MeldKind("run", "run", 3, 14, 2, 1, None, False, True, True, in_place=twos),
        "either end": MeldKind("run", "run", 3, 14, 1, 2, None, False, True, False, in_place=twos,
                               either_end=True),
        "aces high": MeldKind("run", "run", 4, 8, 1, 1, None, True, False, True),
        "no wilds": MeldKind("run", "run", 3, 13, 0, 3, None, False, True, True, in_place=twos),
    }
    return MeldRules(deck, [kinds[name]], lambda card: deck.rank_of[card] >= len(deck.ranks) or card in twos)


NAMES = [*RULESETS, "two wilds", "either end", "aces high", "no wilds"]
# (Canasta has no runs, Gin Rummy no wild cards: a run with a wild card is made only where both are.)
WITH_WILD_RUNS = [name for name in NAMES if name not in ("tests/games/canasta.yaml", "tests/games/gin_rummy.yaml")]


def _runs_of(rules: MeldRules) -> list[MeldKind]:
    return [kind for kind in rules.kinds.values() if kind.shape == "run"]


def _random_naturals(rules: MeldRules, kind: MeldKind, rng: random.Random) -> tuple[int, dict[int, int]]:
    """A suit and some of its cards at their places (position -> card), a few places apart at most."""
    deck = rules.deck
    suit = rng.choice(sorted({deck.suit_of[card] for card in deck.distinct_cards() if deck.suit_of[card] >= 0}))
    cards = [card for card in deck.distinct_cards() if deck.suit_of[card] == suit and
             (not rules.is_wild[card] or card in kind.in_place)]
    naturals: dict[int, int] = {}
    for card in rng.sample(cards, rng.randint(1, min(6, len(cards)))):
        places = rules.positions(kind, card)
        if places:
            naturals.setdefault(rng.choice(places), card)
    return suit, dict(sorted(naturals.items()))


@pytest.mark.parametrize("name", WITH_WILD_RUNS)
def test_a_run_with_one_wild_is_the_one_the_general_builder_makes(name: str) -> None:
    rules = _rules(name)
    rng = random.Random(name)
    wild_cards = [card for card in rules.deck.distinct_cards() if rules.is_wild[card]]
    made = 0
    for kind in _runs_of(rules):
        for _ in range(3000):
            suit, naturals = _random_naturals(rules, kind, rng)
            if not naturals:
                continue
            wild = rng.choice(wild_cards)
            prefer_low = rng.random() < 0.5
            fast = rules._run_with_one_wild(kind, 3, 1, suit, naturals, wild, prefer_low)
            general = rules._run_with_wilds(kind, 3, 1, suit, naturals, [wild], prefer_low)
            assert fast == general, (kind.name, naturals, wild, prefer_low)
            made += fast is not None
    # (the cases reach runs that are made, not only refusals; with no wild allowed, only a two in its place)
    assert made > (0 if name == "no wilds" else 100)


@pytest.mark.parametrize("name", NAMES)
def test_the_naturals_of_a_window_are_the_ways_the_general_choice_finds(name: str) -> None:
    rules = _rules(name)
    rng = random.Random(name)
    for kind in _runs_of(rules):
        lowest, highest = rules._bounds(kind)
        for _ in range(500):
            _, naturals = _random_naturals(rules, kind, rng)
            natural_at = {position: [card] for position, card in naturals.items()}
            counts = {card: 1 for card in naturals.values()}
            low = rng.randint(lowest, highest)
            window = range(low, rng.randint(low, highest) + 1)
            if not any(position in natural_at for position in window) or \
                    (rules.ace_low != rules.ace_high and low <= rules.ace_low and rules.ace_high in window):
                continue  # (the search leaves a window with both places of the ace to the general choice)
            spare = rng.randint(0, 2)
            assert rules._place_naturals(window, natural_at, spare) == \
                rules._choose_naturals(window, natural_at, counts, spare)
