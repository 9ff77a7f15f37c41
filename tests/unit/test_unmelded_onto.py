"""`unmelded(cards, onto)`: the cards left out when they may also be laid off onto melds on the table, one at a
time as `add` takes them (a run grown by one card may take the next)."""

from __future__ import annotations

from pathlib import Path

from interpreter import load_ruleset
from interpreter.engine.melds import Meld, MeldRules

GIN = Path(__file__).resolve().parents[2] / "tests" / "games" / "gin_rummy.yaml"


def _rules() -> MeldRules:
    rules = load_ruleset(GIN).meld_rules
    assert rules is not None
    return rules


def _cards(rules: MeldRules, text: str) -> list[int]:
    return [rules.deck.parse_card(word) for word in text.split()]


def _meld(rules: MeldRules, text: str) -> Meld:
    return rules.candidates(_cards(rules, text), 0, [], 0)[0]


def _left(rules: MeldRules, hand: str, *melds: str) -> list[str]:
    onto = tuple(_meld(rules, text) for text in melds)
    return [rules.deck.card_text(card) for card in rules.unmelded(_cards(rules, hand), onto)]


def test_cards_that_fit_a_meld_on_the_table_are_laid_off() -> None:
    rules = _rules()
    assert _left(rules, "4H 8H KC") == ["4H", "8H", "KC"]
    assert _left(rules, "4H 8H KC", "5H 6H 7H") == ["KC"]


def test_a_run_grown_by_one_card_takes_the_next() -> None:
    rules = _rules()
    assert _left(rules, "9H 8H 2C", "5H 6H 7H") == ["2C"]  # 8H first, then 9H
    assert _left(rules, "2H 3H 2C", "4H 5H 6H") == ["2C"]  # 3H first, then 2H


def test_a_set_takes_its_fourth_card() -> None:
    rules = _rules()
    assert _left(rules, "4H 9D", "4S 4D 4C") == ["9D"]
    assert _left(rules, "4H 9D", "5S 5D 5C") == ["4H", "9D"]


def test_laying_off_and_new_melds_share_the_cards_so_as_to_leave_the_fewest_points() -> None:
    rules = _rules()
    # The four tens make a set, leaving 9D AS (10); laying off 10D and 9D onto the diamonds, with the other three
    # tens a set, leaves AS (1).
    assert _left(rules, "9D 10D 10C 10S 10H AS", "JD QD KD") == ["AS"]
    # Without 10H the set needs 10D: 9D AS are left (10), not 10C 10S AS after laying off 10D and 9D (21).
    assert _left(rules, "9D 10D 10C 10S AS", "JD QD KD") == ["9D", "AS"]
