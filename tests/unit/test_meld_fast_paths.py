"""The meld search's fast paths give the answers of the general code they stand for (engine/melds.py): a run
with one wild card (`_run_with_one_wild`) is the run the general builder (`_run_with_wilds`) makes with that one
wild, and the naturals of a window where each place has one card (`_place_naturals`) are the ways the general
choice (`_choose_naturals`) finds. The runs and sets of a group (`_runs`, `_sets`), which build their melds and
what each card stands for without those builders, and leave out the runs another window found, are those of the
general search written out here: every window, the general choice of naturals and of wild cards, the general
builders, each meld once (the first found), and `roles`. Checked on many random
cases of every ruleset with melds and of kinds with other settings (two, three or no wild cards, either end,
aces high only), so that a change to one side that the other does not follow fails here (BU-25 to BU-32 are the
rules these builders serve)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.cards import standard_deck
from interpreter.engine.melds import Meld, MeldKind, MeldRules

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
        "three wilds": MeldKind("run", "run", 3, 14, 3, 1, None, False, True, True, in_place=twos, either_end=True),
        "sets": MeldKind("set", "set", 2, 9, 3, 1, None, True, True, True),
    }
    return MeldRules(deck, [kinds[name]], lambda card: deck.rank_of[card] >= len(deck.ranks) or card in twos)


NAMES = [*RULESETS, "two wilds", "either end", "aces high", "no wilds", "three wilds"]
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
            held = [position for position in window if position in natural_at]
            ways = [{position: naturals[position] for position in places}
                    for places in rules._place_naturals(held, spare)]
            assert ways == rules._choose_naturals(window, natural_at, counts, spare)


def _groups_of(rules: MeldRules, kind: MeldKind, counts: dict[int, int]) -> tuple[
        dict[int, tuple[tuple[int, int], ...]], dict[int, tuple[tuple[int, int], ...]], tuple[tuple[int, int], ...]]:
    """A hand's natural cards by suit and by rank, and its wild cards, as `search` hands them to a group."""
    deck = rules.deck
    by_suit: dict[int, list[tuple[int, int]]] = {}
    by_rank: dict[int, list[tuple[int, int]]] = {}
    wilds = []
    for card, count in sorted(counts.items()):
        if rules.is_wild[card]:
            wilds.append((card, min(count, kind.max_wilds + 2)))
        else:
            by_suit.setdefault(deck.suit_of[card], []).append((card, count))
            by_rank.setdefault(deck.rank_of[card], []).append((card, count))
    for card, _ in wilds:
        if card in kind.in_place:
            by_suit.setdefault(deck.suit_of[card], [])
    return ({suit: tuple(cards) for suit, cards in by_suit.items()},
            {rank: tuple(cards) for rank, cards in by_rank.items()}, tuple(wilds))


Found = list[tuple[Meld, tuple[str, ...]]]  # melds, each with what its cards stand for


def _each_once(rules: MeldRules, melds: list) -> Found:  # type: ignore[type-arg]
    """The melds found (None for none), each once (the first), with what each one's cards stand for."""
    distinct: dict[tuple[object, ...], tuple[Meld, tuple[str, ...]]] = {}
    for meld in melds:
        if meld is not None and (meld.cards, meld.wild) not in distinct:
            distinct[meld.cards, meld.wild] = (meld, rules.roles(meld))
    return list(distinct.values())


def _general_runs(rules: MeldRules, kind: MeldKind, suit: int, holding: tuple[tuple[int, int], ...],
                  wild_cards: tuple[tuple[int, int], ...]) -> Found:
    """The runs of a suit by the general code: every window from the lowest, every way to fill it
    (`_choose_naturals`), every choice of wild cards (`_wild_choices`), the general builder, each run once."""
    counts = dict(wild_cards)
    counts.update(holding)
    natural_at: dict[int, list[int]] = {}
    in_place = [card for card, _ in wild_cards if card in kind.in_place and rules.deck.suit_of[card] == suit]
    for card in sorted(card for card, _ in holding) + in_place:
        for position in rules.positions(kind, card):
            natural_at.setdefault(position, []).append(card)
    most_wilds = min(sum(count for _, count in wild_cards), kind.max_wilds)
    combinations = rules._wild_combinations(wild_cards, kind.max_wilds)
    lowest, highest = rules._bounds(kind)
    melds = []
    for low in range(lowest, highest + 1):
        for high in range(low + kind.minimum - 1, min(highest, low + kind.maximum - 1) + 1):
            window = range(low, high + 1)
            gaps = sum(1 for position in window if position not in natural_at)
            for naturals in rules._choose_naturals(window, natural_at, counts, most_wilds - gaps):
                if len(naturals) < kind.min_naturals:
                    continue
                for wilds in rules._wild_choices(counts, combinations, naturals.values(), len(window) - len(naturals)):
                    for prefer_low in (True, False) if kind.either_end else (True,):
                        melds.append(rules._run_with_wilds(kind, 0, 1, suit, naturals, list(wilds), prefer_low))
    return _each_once(rules, melds)


def _general_sets(rules: MeldRules, kind: MeldKind, rank: int, holding: tuple[tuple[int, int], ...],
                  wild_cards: tuple[tuple[int, int], ...]) -> Found:
    """The sets of a rank by the general code: every choice of its naturals and of wild cards, `_set`."""
    counts = dict(wild_cards)
    counts.update(holding)
    combinations = rules._wild_combinations(wild_cards, kind.max_wilds)
    melds = []
    for amounts in itertools.product(*(range(count + 1) for _, count in holding)):
        naturals = [card for (card, _), n in zip(holding, amounts, strict=True) for _ in range(n)]
        if naturals:
            for wilds in rules._wild_choices(counts, combinations, naturals):
                melds.append(rules._set(kind, 0, 1, rank, naturals, list(wilds)))
    return _each_once(rules, melds)


def _random_hand(rules: MeldRules, rng: random.Random) -> dict[int, int]:
    """5 to 25 cards of a double pack, often with wild cards, sometimes with most of one suit (long runs)."""
    deck = rules.deck
    cards = [card for card in deck.distinct_cards() for _ in range(2)]
    hand = rng.sample(cards, rng.randint(5, 25))
    wild_cards = [card for card in cards if rules.is_wild[card]]
    if wild_cards and rng.random() < 0.5:
        hand += rng.sample(wild_cards, rng.randint(1, min(4, len(wild_cards))))
    if rng.random() < 0.3:
        suit = rng.choice(sorted({deck.suit_of[card] for card in cards if deck.suit_of[card] >= 0}))
        hand += [card for card in deck.distinct_cards() if deck.suit_of[card] == suit and rng.random() < 0.8]
    counts: dict[int, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    return counts


def _candidates(found: tuple[Iterable[Meld], list[tuple[str, ...]]]) -> Found:
    """A group's melds as `_runs` and `_sets` give them (the melds, what each one's cards stand for), one pair
    each (the two of the same length)."""
    melds, roles = found
    return list(zip(melds, roles, strict=True))


def _in_order(found: Found) -> list[tuple[object, ...]]:
    """The melds found with their fields and what their cards stand for, in order."""
    return [(tuple(meld), roles) for meld, roles in found]


@pytest.mark.parametrize("name", [*NAMES, "sets"])
def test_the_melds_of_a_group_are_those_the_general_search_finds(name: str) -> None:
    rules = _rules(name)
    rng = random.Random(name)
    found = 0
    for _ in range(30 if name == "three wilds" else 150):  # (three wild cards make many runs: fewer hands)
        counts = _random_hand(rules, rng)
        for kind in rules.kinds.values():
            by_suit, by_rank, wilds = _groups_of(rules, kind, counts)
            if kind.shape == "run":
                for suit, holding in by_suit.items():
                    fast = _candidates(rules._runs(kind, 1, suit, holding, wilds))
                    general = _general_runs(rules, kind, suit, holding, wilds)
                    assert _in_order(fast) == _in_order(general), (kind.name, holding, wilds)
                    found += len(fast)
            else:
                for rank, holding in by_rank.items():
                    fast = _candidates(rules._sets(kind, 1, rank, holding, wilds))
                    general = _general_sets(rules, kind, rank, holding, wilds)
                    assert _in_order(fast) == _in_order(general), (kind.name, holding, wilds)
                    found += len(fast)
    assert found > 300
