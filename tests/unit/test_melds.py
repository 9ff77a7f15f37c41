"""The meld machinery with Burraco's rules (RULES.md BU-22 to BU-34): which melds a hand can make, and what
adding a card does to a meld on the table, wild cards included."""

from __future__ import annotations

import copy
import pickle
import random
from functools import cache
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.engine.melds import Meld, MeldRules, counted
from tests.play_helpers import game_from_text

BURRACO = Path(__file__).resolve().parents[2] / "rulesets" / "burraco.yaml"
RUMMY_500 = Path(__file__).resolve().parents[2] / "tests" / "games" / "rummy500.yaml"


@cache
def rules() -> MeldRules:
    game_rules = load_ruleset(BURRACO).meld_rules
    assert game_rules is not None
    return game_rules


def cards(text: str) -> list[int]:
    return [rules().deck.parse_card(word) for word in text.split()]


def shown(meld: Meld | None) -> str | None:
    if meld is None:
        return None
    deck = rules().deck
    return " ".join(deck.card_text(c) + ("*" if w else "") for c, w in zip(meld.cards, meld.wild, strict=True))


def new_melds(hand: str) -> list[str]:
    return sorted(str(shown(meld)) for meld in rules().candidates(cards(hand), 0, [], 0))


def laid(hand: str, size: int | None = None) -> Meld:
    found = [m for m in rules().candidates(cards(hand), 0, [], 0) if size is None or len(m.cards) == size]
    return max(found, key=lambda m: len(m.cards))


def add(meld: Meld, card: str) -> Meld | None:
    return rules().add(meld, cards(card)[0])


def test_bu22_bu23_sets_of_one_rank_with_duplicates_and_at_most_one_wild() -> None:
    assert new_melds("10C 10C 10S") == ["10S 10C 10C"]  # in the deck's suit order
    assert "7H 7H 2D*" in new_melds("7H 7H 2D") and "7H 7H 2D*" in new_melds("7H 7H 7S 2D")
    assert new_melds("2C 2D JK") == []  # no set of twos, and no meld of wild cards only


def test_bu24_one_set_of_a_rank_per_team() -> None:
    table = [laid("9S 9H 9D")]
    assert not [m for m in rules().candidates(cards("9C 9C 9H"), 0, table, 1) if m.shape == "set"]


def test_bu25_bu29_a_wild_at_an_end_sits_at_the_lower_end() -> None:
    assert new_melds("6S 7S JK") == ["JK* 6S 7S"]
    assert new_melds("5S 7S JK") == ["5S JK* 7S"]


def test_bu26_the_ace_low_or_high_but_not_both_and_no_wrap() -> None:
    assert "AH 2H 3H" in new_melds("AH 2H 3H")
    assert "QH KH AH" in new_melds("QH KH AH")
    assert new_melds("KH AH 2H") == ["2H* KH AH"]  # the two stands for the queen: K-A-2 never wraps


def test_bu28_a_two_of_the_suit_as_the_wild_and_a_natural_two_in_place() -> None:
    assert "9C 2C* JC" in new_melds("9C 2C JC")
    assert "AS 2S 3S 2H* 5S" in new_melds("AS 2S 3S 2H 5S")


def test_bu29_a_free_wild_moves_to_fill_a_gap_at_the_other_end() -> None:
    assert shown(add(laid("2H 6S 7S"), "9S")) == "6S 7S 2H* 9S"


def test_bu30_the_natural_card_replaces_the_wild_which_goes_to_the_lower_end() -> None:
    meld = add(laid("8D JK 10D"), "9D")
    assert shown(meld) == "JK* 8D 9D 10D"
    assert meld is not None
    assert shown(add(meld, "QD")) == "8D 9D 10D JK* QD"


def test_bu31_a_wild_is_never_replaced_by_another_wild() -> None:
    meld = laid("3H 4H 2H 6H", 4)
    assert shown(meld) == "3H 4H 2H* 6H"
    assert add(meld, "JK") is None and add(meld, "AH") is None
    assert shown(add(meld, "5H")) == "2H 3H 4H 5H 6H"  # the two goes back to its place, natural


def test_bu32_a_natural_two_at_the_bottom_becomes_the_wild_and_comes_back() -> None:
    meld = laid("2D 3D 4D 5D 6D 7D", 6)
    dirty = add(meld, "9D")
    assert shown(dirty) == "3D 4D 5D 6D 7D 2D* 9D"
    assert dirty is not None
    assert shown(add(dirty, "8D")) == "2D 3D 4D 5D 6D 7D 8D 9D"


def test_bu33_a_thirteen_card_sequence_with_a_wild_takes_the_missing_natural() -> None:
    meld = laid("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS JK", 13)
    assert sum(meld.wild) == 1
    full = add(meld, "KS")
    assert full is not None and len(full.cards) == 14 and sum(full.wild) == 1


@pytest.mark.parametrize(("hand", "reason"), [
    ("5H 6H", "a meld needs at least 3 cards"),
    ("7H 7S JK 2C", "a set may hold 1 wild card; this one holds 2"),
    ("5H 6H JK 2C", "a sequence may hold 1 wild card; this one holds 2"),
    ("5H 6S 9D", "the cards are neither of one rank (a set) nor consecutive in one suit (a sequence)"),
])
def test_a_refused_meld_says_why(hand: str, reason: str) -> None:
    assert rules().explain(cards(hand), []) == reason


def test_a_refused_meld_of_one_natural_card_is_not_called_a_set() -> None:
    # (5H between two jokers is a sequence's try as much as a set's: its reason is the sequence's, whose wild
    # cards may be one, or two with a two of the suit in its place; BU-19)
    assert rules().explain(cards("JK 5H JK"), []) == "a sequence may hold 1 wild card; this one holds 2"


def test_a_refused_meld_names_the_kinds_as_the_ruleset_does() -> None:
    rummy = load_ruleset(RUMMY_500).meld_rules
    assert rummy is not None
    hand = [rummy.deck.parse_card(word) for word in ["5H", "6S", "9D"]]
    assert rummy.explain(hand, []) == \
        "the cards are neither of one rank (a group) nor consecutive in one suit (a sequence)"



def test_a_wild_displaced_by_its_natural_is_never_lost() -> None:
    # Rummy 500 (tests/games/rummy500.yaml): the joker stands for the ace below 2D..KD, a sequence of the
    # most cards there can be. The ace of diamonds could only take the joker's place, and the joker would have
    # nowhere to go, so it cannot be laid off (it once was, and the joker vanished from the table).
    rummy = load_ruleset(RUMMY_500).meld_rules
    assert rummy is not None
    run = "JK 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"
    hand = [rummy.deck.parse_card(word) for word in run.split(" ")]
    meld = max(rummy.candidates(hand, 0, [], 0), key=lambda m: len(m.cards))
    assert len(meld.cards) == 13 and rummy.deck.parse_card("JK") in meld.cards
    assert rummy.add(meld, rummy.deck.parse_card("AD")) is None


ACE_FIRST = """format: 1
name: ace first
players: {{min: 2, max: 2}}
deck: {{ranks: [{ranks}], suits: [S, H]}}
zones:
  - {{name: stock}}
  - {{name: hand, owner: seat, visibility: owner}}
  - {{name: melds, owner: seat, visibility: public, kind: melds}}
melds:
  kinds:
    - {{name: run, shape: run, min: 3, ace: {ace}, wrap: false}}
hand:
  start: lay
  phases:
    - name: lay
      steps:
        - deal: 6
          from: stock
          to: hand
        - decide: 0
          options:
            - meld: hand
              to: melds[player]
      next: end
match:
  hands: 1
  result: 0
"""


@pytest.mark.parametrize(("ranks", "ace", "runs"), [
    # The ace is the card named A wherever the deck lists it: first (ace low by nature) or last.
    ("A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K", "low", {"AS 2S 3S", "JS QS KS"}),
    ("A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K", "high", {"QS KS AS", "JS QS KS"}),
    ("A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K", "low_or_high", {"AS 2S 3S", "QS KS AS", "JS QS KS"}),
    ("2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A", "low", {"AS 2S 3S", "JS QS KS"}),
    ("2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A", "high", {"QS KS AS", "JS QS KS"}),
])
def test_the_ace_of_a_run_is_the_card_named_a_wherever_the_deck_lists_it(
        tmp_path: Path, ranks: str, ace: str, runs: set[str]) -> None:
    game_rules = game_from_text(tmp_path, ACE_FIRST.format(ranks=ranks, ace=ace)).meld_rules
    assert game_rules is not None
    deck = game_rules.deck

    def made(hand: str) -> set[str]:
        return {" ".join(deck.card_text(c) for c in meld.cards)
                for meld in game_rules.candidates([deck.parse_card(w) for w in hand.split()], 0, [], 0)}

    found = made("AS 2S 3S") | made("JS QS KS") | made("QS KS AS") | made("KS AS 2S")
    assert found == runs  # and never round the corner: K-A-2 is no run


KNOCK = """format: 1
name: knock rummy
players: {min: 2, max: 2}
deck:
  ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K]
  suits: [S, H, D, C]
  values: {A: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, J: 10, Q: 10, K: 10}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
melds:
  kinds:
    - {name: set, shape: set, min: 3, max: 4}
    - {name: run, shape: run, min: 3, ace: low}
define:
  deadwood: points(unmelded(hand))
hand:
  start: play
  phases:
    - name: play
      steps:
        - deal: 5
          from: stock
          to: hand
        - decide: 0
          options:
            - choose: knock
              legal:
                - rule: deadwood <= 10
                  reason: "a knock needs 10 points of deadwood or less"
            - choose: pass
      next: end
match:
  hands: 1
  result: 0
"""


@pytest.mark.parametrize(("hand", "left"), [
    ("AS 2S 3S 7H 7D 7C KS KH 5D 9C", "KS KH 5D 9C"),  # a run and a set; 34 points of deadwood
    ("4S 5S 6S 6H 6D", "4S 5S"),  # the 6S in the set of sixes leaves 9 points, in the run 12
    ("JS QS KS AS 2S", "AS 2S"),  # the ace is low: no Q-K-A
    ("7S 7H 7D 7C 8C 9C", ""),  # 7C goes to the run, and a set of three sevens is left
    ("", ""),
])
def test_unmelded_leaves_the_fewest_points(tmp_path: Path, hand: str, left: str) -> None:
    game_rules = game_from_text(tmp_path, KNOCK).meld_rules
    assert game_rules is not None
    deck = game_rules.deck
    held = [deck.parse_card(word) for word in hand.split()]
    assert " ".join(deck.card_text(card) for card in game_rules.unmelded(held)) == left


def test_a_rule_reads_the_deadwood_of_a_hand(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, KNOCK)
    state = game.new_initial_state(seed=1, players=2)  # (no shuffle: the cards are put by hand below)
    state.values["hand"][0][:] = [game.deck.parse_card(word) for word in ("7H", "7D", "7C", "2S", "9C")]
    assert [state.action_text(a) for a in state.legal_actions()] == ["p0 choose pass"]  # 11 points: too many
    state.values["hand"][0][:] = [game.deck.parse_card(word) for word in ("7H", "7D", "7C", "AS", "8C")]
    state._legal = None  # (the cards were changed by hand)
    assert [state.action_text(a) for a in state.legal_actions()] == ["p0 choose knock", "p0 choose pass"]
    with pytest.raises(Exception, match="a knock needs 10 points of deadwood or less"):
        state.values["hand"][0][:] = [game.deck.parse_card(word) for word in ("7H", "7D", "KC", "AS", "8C")]
        state._legal = None
        state.check("p0 choose knock")


def test_a_meld_named_with_its_cards_in_another_order_is_the_legal_one(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, ACE_FIRST.format(ranks="A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K", ace="low"))
    state = game.new_initial_state(seed=1, players=2)
    state.values["hand"][0][:] = [game.deck.parse_card(word) for word in ("3S", "AS", "2S", "9H", "KH", "5H")]
    named = state.legal_form(state.parse_action("p0 meld 3S AS 2S"))
    assert state.action_text(named) == "p0 meld AS 2S 3S" and named in state.legal_actions()
    state.apply("p0 meld 2S 3S AS")
    assert state.events[-2]["action"] == "p0 meld AS 2S 3S"


def test_unmelded_gives_the_cards_in_the_order_of_each_hand_asked(tmp_path: Path) -> None:
    game_rules = game_from_text(tmp_path, KNOCK).meld_rules
    assert game_rules is not None
    deck = game_rules.deck
    hand = [deck.parse_card(word) for word in ["KS", "9C", "7H", "7D", "7C", "5D"]]
    assert [deck.card_text(c) for c in game_rules.unmelded(hand)] == ["KS", "9C", "5D"]
    assert [deck.card_text(c) for c in game_rules.unmelded(hand[::-1])] == ["5D", "9C", "KS"]  # (known hand)


@cache
def rummy_rules() -> MeldRules:
    game_rules = load_ruleset(RUMMY_500).meld_rules
    assert game_rules is not None
    return game_rules


def _rummy(text: str) -> list[int]:
    return [rummy_rules().deck.parse_card(word) for word in text.split()]


def _rummy_run(hand: str, shape: str) -> Meld:
    """The new sequence of the hand laid with its cards in this order and wilds (`*`) as given."""
    deck = rummy_rules().deck
    for meld in rummy_rules().candidates(_rummy(hand), 0, [], 0):
        if " ".join(deck.card_text(c) + ("*" if w else "") for c, w in zip(meld.cards, meld.wild, strict=True)) \
                == shape:
            return meld
    raise AssertionError(f"{shape} is not among the melds of {hand}")


def _rummy_shown(meld: Meld | None) -> str | None:
    deck = rummy_rules().deck
    return None if meld is None else " ".join(
        deck.card_text(c) + ("*" if w else "") for c, w in zip(meld.cards, meld.wild, strict=True))


def test_a_fixed_wild_keeps_the_card_it_was_laid_as() -> None:
    """Rummy 500 (`fixed_wilds`): a joker laid as the 8 of a 6-7-8 stays the 8: the 9 goes above it, the 5 below,
    and the natural 8 finds no place (with free wilds, Burraco's BU-29/BU-30, the joker would move or be
    replaced)."""
    run = _rummy_run("6H 7H JK", "6H 7H JK*")
    assert _rummy_shown(rummy_rules().add(run, _rummy("9H")[0])) == "6H 7H JK* 9H"
    assert _rummy_shown(rummy_rules().add(run, _rummy("5H")[0])) == "5H 6H 7H JK*"
    assert rummy_rules().add(run, _rummy("8H")[0]) is None
    assert rummy_rules().add(run, _rummy("10H")[0]) is None  # two places beyond: the joker does not move up


def test_a_fixed_wild_at_the_lower_end_stays_there() -> None:
    run = _rummy_run("6H 7H JK", "JK* 6H 7H")  # (`free_wild: either_end`: laid as the 5)
    assert _rummy_shown(rummy_rules().add(run, _rummy("8H")[0])) == "JK* 6H 7H 8H"
    assert rummy_rules().add(run, _rummy("5H")[0]) is None  # the joker is the 5
    assert _rummy_shown(rummy_rules().add(run, _rummy("4H")[0])) == "4H JK* 6H 7H"
    assert _rummy_shown(rummy_rules().add(run, _rummy("JK")[0])) == "JK* JK* 6H 7H"  # another joker: below


def test_fixed_wilds_keep_the_ace_at_one_end() -> None:
    run = _rummy_run("QS KS JK", "QS KS JK*")  # the joker is the ace, high
    assert rummy_rules().add(run, _rummy("AS")[0]) is None
    low = _rummy_run("2S 3S 4S", "2S 3S 4S")
    assert _rummy_shown(rummy_rules().add(low, _rummy("AS")[0])) == "AS 2S 3S 4S"


def test_can_meld_asks_whether_the_cards_make_a_meld_or_go_onto_one() -> None:
    # BU-22, BU-28: a card goes onto a run of its suit at an end, or onto a set of its rank; two cards make no new
    # meld (three at least), three in sequence do. (Fewer cards than a meld holds are answered from `add` alone.)
    run, group = laid("5H 6H 7H"), laid("9C 9D 9S")
    assert rules().can_meld(cards("8H"), [run]) and rules().can_meld(cards("4H"), [group, run])
    assert rules().can_meld(cards("9H"), [run, group]) and rules().can_meld(cards("JK"), [run])
    assert not rules().can_meld(cards("8S"), [run]) and not rules().can_meld(cards("8H"), [group])
    assert not rules().can_meld(cards("3H"), [run]) and not rules().can_meld(cards("8H"), [])
    assert not rules().can_meld(cards("8H 9H"), []) and rules().can_meld(cards("8H 9H"), [run])
    assert rules().can_meld(cards("8H 9H 10H"), []) and not rules().can_meld(cards("8H 10H QH"), [group])


def test_can_meld_of_many_cards_answers_as_the_whole_search_does() -> None:
    # (`can_meld` stops its search at the first group of melds: the answer is whether the whole search finds one,
    # and that first group is the whole search's first, over hands of 3 to 40 cards of a double pack with jokers)
    dealer = random.Random(7)
    deck = list(range(len(rules().deck.text_of))) * 2
    for number in range(300):
        hand = dealer.sample(deck, 3 + number % 38)
        full = rules().search_groups(counted(hand), 0, [])
        assert rules().search_groups(counted(hand), 0, [], None, True) == full[:1]
        assert rules().can_meld(hand, []) == bool(full)


@pytest.mark.parametrize("path", [BURRACO, RUMMY_500], ids=["burraco", "rummy500"])
def test_the_additions_offered_are_the_cards_add_takes(path: Path) -> None:
    # BU-28 to BU-33: every card of a hand that goes onto a meld, in the hand's order, with the meld it makes, as
    # `add` makes it card by card, asked of rules that have kept nothing (`additions` keeps its answers per meld),
    # meld after meld of the table.
    game_rules, fresh = load_ruleset(path).meld_rules, load_ruleset(path).meld_rules
    assert game_rules is not None and fresh is not None and game_rules is not fresh
    rng = random.Random(7)
    deck = list(game_rules.is_wild)
    tried = offered = 0
    for _ in range(300):
        melds = game_rules.candidates(rng.sample(deck, 14), 0, [], 0)
        if not melds:
            continue
        table = rng.sample(melds, min(len(melds), rng.randint(1, 3)))
        hand = list(dict.fromkeys(rng.sample(deck, 12)))
        expected = [(meld, card, grown) for meld in table for card in hand
                    if (grown := fresh.add(meld, card)) is not None]
        assert game_rules.additions(table, hand) == expected
        assert game_rules.additions(table, hand) == expected  # (again, from what it kept)
        tried, offered = tried + 1, offered + len(expected)
    assert tried > 100 and offered > 50


def test_what_a_meld_makes_is_kept_with_it_for_the_rules_that_worked_it_out(tmp_path: Path) -> None:
    # (`add` keeps its answers with the meld itself: a meld shared by two games' states is answered by each game's
    # own rules, and a copy starts with nothing kept. BU-30: Burraco's natural card replaces the wild it stands
    # for; with `fixed_wilds` the wild keeps its card and the natural finds no place.)
    text = BURRACO.read_text(encoding="utf-8").replace("      free_wild: lower_end\n",
                                                       "      free_wild: lower_end\n      fixed_wilds: true\n", 1)
    fixed = game_from_text(tmp_path, text).meld_rules
    assert fixed is not None
    meld = laid("8D JK 10D")
    nine = cards("9D")[0]
    replaced = rules().add(meld, nine)
    assert shown(replaced) == "JK* 8D 9D 10D"
    assert rules().add(meld, nine) is replaced  # (kept)
    assert fixed.add(meld, nine) is None  # (the other rules' own answer, not the one kept)
    assert shown(rules().add(meld, nine)) == "JK* 8D 9D 10D"
    copy = pickle.loads(pickle.dumps(meld))
    assert copy == meld and hash(copy) == hash(meld) and copy.additions_known is None
    assert shown(rules().add(copy, nine)) == "JK* 8D 9D 10D"
    assert meld.additions_known is not None and repr(meld) == repr(copy)  # (not part of the meld's value)


def test_a_meld_replaced_is_the_meld_made_with_the_fields_changed_with_nothing_known_of_its_additions() -> None:
    # (`Meld.replaced`: a meld laid gets its number, a run grown gets its cards, its ends as laid; BU-30: the 9D
    # takes the joker's place in 8D JK 10D)
    meld = laid("8D JK 10D")
    assert rules().add(meld, cards("9D")[0]) is not None and meld.additions_known is not None
    for changes in ({"id": 7}, {"owner": 1}, {"cards": (1, 2, 3), "wild": (False, True, False), "low": 4},
                    {"laid_low": 2, "laid_high": 9}, {}):
        made = meld.replaced(**changes)
        expected = Meld.of(*[changes.get(name, getattr(meld, name)) for name in Meld._fields])
        assert made is not meld and made == expected and hash(made) == hash(expected)
        assert type(made) is Meld and [getattr(made, name) for name in Meld._fields] == list(expected)
        assert made.additions_known is None
    with pytest.raises(ValueError):
        meld.replaced(colour="red")


def test_the_melds_a_search_makes_are_the_melds_their_fields_make() -> None:
    # (a search makes its melds from all their fields at once, in C: each equals the meld made with its fields
    # by name, and hashes alike; a copy made by `copy` starts with nothing known of its additions)
    found = [meld for meld, _ in rules().search(counted(cards("6S 7S 8S 9S JK 2H 6H 6C")), 0, [])]
    assert found and any(meld.shape == "set" for meld in found) and any(meld.shape == "run" for meld in found)
    for meld in found:
        again = Meld.of(**{name: getattr(meld, name) for name in Meld._fields})
        assert type(meld) is Meld and meld == again and hash(meld) == hash(again) and meld.additions_known is None
    assert copy.copy(found[0]) == found[0] and copy.deepcopy(found[0]) == found[0]


def test_the_ranks_taken_on_a_table_are_those_of_its_sets_of_a_kind_of_one_set_per_rank() -> None:
    # (BU-24 as burraco.yaml writes it: a team holds one set per rank, so a search offers no second set of a rank
    # its table holds; runs, whatever their cards, take no rank)
    table = [laid("7S 7H 7D"), laid("KS KH JK"), laid("4S 5S 6S 7S"), laid("QC QD QH QS")]
    assert [meld.shape for meld in table] == ["set", "set", "run", "set"]
    expected = frozenset((meld.kind, meld.rank) for meld in table if meld.shape == "set")
    assert rules().taken_ranks(table) == expected and len(expected) == 3
    assert rules().taken_ranks(table[2:3]) == frozenset() == rules().taken_ranks([])
    assert new_melds("7S 7C 7H 9D") == ["7S 7H 7C"]  # (with no table)
    assert rules().candidates(cards("7S 7C 7H 9D"), 0, table, 0) == []  # (the sevens are taken)
    assert rules().candidates(cards("9S 9C 9H"), 0, table, 0)


def test_wild_cards_no_kind_takes_are_a_warning(tmp_path: Path) -> None:
    """`max_wilds` is 0 unless a kind says otherwise: wild cards declared with no kind taking one could never be
    melded (a game made from the docs played with its jokers unusable and nothing said so)."""
    from interpreter.loader import validate_file
    base = (Path(__file__).resolve().parents[1] / "bad_rulesets" / "type_unmelded_onto_cards.yaml").read_text()
    text = base.replace("points(unmelded(hand, discard_pile))", "points(unmelded(hand))").replace(
        "melds:\n  kinds:\n", "melds:\n  wild: card.rank == 2\n  kinds:\n")
    path = tmp_path / "wild.yaml"
    path.write_text(text, encoding="utf-8")
    findings = validate_file(str(path))
    assert [(d.code, d.severity, d.yaml_path) for d in findings] == [("unused-wild", "warning", "melds.wild")]
    path.write_text(text.replace("{name: set, shape: set, min: 3}", "{name: set, shape: set, min: 3, max_wilds: 1}"),
                    encoding="utf-8")
    assert validate_file(str(path)) == []
