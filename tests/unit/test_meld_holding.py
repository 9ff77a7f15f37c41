"""The melds and groups of melds that hold one given card (a pile taken by melding its top card, `meld_top`):
searched among the sets of its rank and the runs of its suit only, and the groups made only where one of their
melds holds it, give what the full search and all the groups give once filtered, in the same order."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.actions import Action
from interpreter.engine.meldsearch import groups

ROOT = Path(__file__).resolve().parents[2]
RULESETS = [ROOT / "rulesets" / "burraco.yaml", ROOT / "tests" / "games" / "canasta.yaml"]


def _hands(path: Path, count: int, size: int) -> list[Counter[int]]:
    game = load_ruleset(path)
    deck = game.deck
    pool = [card for card in range(len(deck.text_of)) for _ in range(deck.packs)]
    rng = random.Random(str(path))
    return [Counter(rng.sample(pool, size)) for _ in range(count)]


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_the_melds_that_can_hold_a_card_are_those_of_the_full_search(path: Path) -> None:
    rules = load_ruleset(path).meld_rules
    assert rules is not None
    wild_seen = natural_seen = 0
    for counts in _hands(path, 40, 14):
        everything = rules.search(counts, 0, [])
        for card in counts:
            holding = rules.search(counts, 0, [], card)
            assert [entry for entry in holding if card in entry[0].cards] == \
                [entry for entry in everything if card in entry[0].cards]
            if rules.is_wild[card]:
                assert holding == everything  # (a wild card may stand in any meld)
                wild_seen += 1
            else:  # only its rank's sets and its suit's runs are searched
                rank, suit = rules.deck.rank_of[card], rules.deck.suit_of[card]
                assert all(meld.rank == rank if meld.shape == "set" else meld.suit == suit
                           for meld, _, _ in holding)
                assert len(holding) <= len(everything)
                natural_seen += 1
    assert wild_seen and natural_seen


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_the_groups_that_hold_a_card_are_those_of_all_the_groups(path: Path) -> None:
    rules = load_ruleset(path).meld_rules
    assert rules is not None
    found_some = False
    for counts in _hands(path, 25, 12):
        entries = [(meld, needs, Action(0, "meld", cards=meld.cards, roles=roles))
                   for meld, needs, roles in rules.search(counts, 0, [])]
        every_group = groups(rules, 0, entries, counts, 3, "test")
        for card in counts:
            holding = groups(rules, 0, entries, counts, 3, "test", card)
            assert holding == [group for group in every_group if any(card in meld.cards for meld in group[0])]
            found_some = found_some or bool(holding)
    assert found_some
