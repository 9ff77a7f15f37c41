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
from interpreter.engine import meldsearch
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.melds import Meld, MeldRules
from interpreter.engine.meldsearch import groups

ROOT = Path(__file__).resolve().parents[2]
RULESETS = [ROOT / "rulesets" / "burraco.yaml", ROOT / "tests" / "games" / "canasta.yaml"]


def _rules(path: Path) -> MeldRules:
    rules = load_ruleset(path).meld_rules
    assert rules is not None
    return rules


def _hands(rules: MeldRules, count: int, size: int) -> list[Counter[int]]:
    deck = rules.deck
    pool = [card for card in range(len(deck.text_of)) for _ in range(deck.packs)]
    rng = random.Random(size * 1000 + len(pool))
    return [Counter(rng.sample(pool, size)) for _ in range(count)]


def _tables(rules: MeldRules, counts: Counter[int]) -> list[list[Meld]]:
    """No meld on the table, and one set already laid (a rank taken, for the kinds of one set per rank)."""
    sets = [meld for meld, _ in rules.search(counts, 0, []) if meld.shape == "set"]
    return [[], sets[:1]]


def _entries(rules: MeldRules, counts: Counter[int], table: list[Meld],
             holding: int | None = None) -> tuple[list[Meld], list[Action]]:
    """The melds a search finds, and their actions (as `groups` takes them)."""
    searched = rules.search(counts, 0, table, holding)
    return [meld for meld, _ in searched], [Action(0, "meld", cards=meld.cards, roles=roles)
                                            for meld, roles in searched]


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_the_melds_that_can_hold_a_card_are_those_of_the_full_search(path: Path) -> None:
    rules = _rules(path)
    wild_seen = natural_seen = taken_seen = 0
    for counts in _hands(rules, 40, 14):
        for table in _tables(rules, counts):
            taken_seen += bool(table)
            everything = rules.search(counts, 0, table)
            for card in counts:
                holding = rules.search(counts, 0, table, card)
                assert [entry for entry in holding if card in entry[0].cards] == \
                    [entry for entry in everything if card in entry[0].cards]
                if rules.is_wild[card]:
                    assert holding == everything  # (a wild card may stand in any meld)
                    wild_seen += 1
                else:  # only its rank's sets and its suit's runs are searched
                    rank, suit = rules.deck.rank_of[card], rules.deck.suit_of[card]
                    assert all(meld.rank == rank if meld.shape == "set" else meld.suit == suit
                               for meld, _ in holding)
                    natural_seen += 1
    assert wild_seen and natural_seen and taken_seen


@pytest.mark.parametrize("most", [1, 2, 3])
@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_the_groups_that_hold_a_card_are_those_of_all_the_groups(path: Path, most: int) -> None:
    rules = _rules(path)
    found_some = False
    for counts in _hands(rules, 20, 12):
        for table in _tables(rules, counts):
            every_group = groups(rules, 0, *_entries(rules, counts, table), counts, most, "test")
            for card in counts:
                wanted = [group for group in every_group if any(card in meld.cards for meld in group[0])]
                assert groups(rules, 0, *_entries(rules, counts, table), counts, most, "test", card) == wanted
                if most == 1:  # (one meld at a time: the melds that can hold it are enough, as top_melds asks)
                    assert groups(rules, 0, *_entries(rules, counts, table, card), counts, most, "test",
                                  card) == wanted
                found_some = found_some or bool(wanted)
    assert found_some


def test_the_bound_on_groups_counts_every_group_gone_through(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the groups that do not hold the card are not offered, but going through them is work: the bound counts
    # them, so that a hand with very many groups is refused whichever card is to be held)
    rules = _rules(RULESETS[1])
    for counts in _hands(rules, 40, 14):
        melds, actions = _entries(rules, counts, [])
        for card in counts:
            held = groups(rules, 0, melds, actions, counts, 3, "test", card)
            # (the first meld found does not hold the card: the group of it alone is gone through, not offered)
            if held and melds and card not in melds[0].cards:
                assert len(held) < len(groups(rules, 0, melds, actions, counts, 3, "test"))
                monkeypatch.setattr(meldsearch, "MOST_GROUPS", len(held))
                with pytest.raises(RulesetRuntimeError, match=f"more than {len(held)} ways to lay"):
                    groups(rules, 0, melds, actions, counts, 3, "test", card)
                monkeypatch.setattr(meldsearch, "MOST_GROUPS", 10 * len(held) + 100)
                assert groups(rules, 0, melds, actions, counts, 3, "test", card) == held
                return
    pytest.fail("no hand whose first meld does not hold one of its cards")  # pragma: no cover
