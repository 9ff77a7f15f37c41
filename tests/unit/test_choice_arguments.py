"""A choice whose arguments are cards, ranks or suits shows them by name in its action's text, reads them
back by name, and names the allowed ones by name when it refuses one."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import load_ruleset
from interpreter.actions import Action, ActionSyntaxError
from interpreter.engine.errors import IllegalActionError
from interpreter.engine.state import State
from tests.play_helpers import game_from_text

ROOT = Path(__file__).resolve().parents[2]
TINY = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
CHOICE = """        - decide: next_seat(dealer)
          options:
            - choose: name
              args:
                pick: sort(hand)
                suit: "[H, S]"
                rank: "[A, 10]"
                count: numbers(1, 2)
"""


def _state(tmp_path: Path) -> State:
    old = "        - set: trump\n          to: last(hand[dealer]).suit\n"
    state = game_from_text(tmp_path, TINY.replace(old, old + CHOICE)).new_initial_state(seed=2, players=2)
    state.apply_chance()
    return state


def test_card_rank_and_suit_arguments_are_shown_and_read_by_name(tmp_path: Path) -> None:
    state = _state(tmp_path)
    texts = [state.action_text(action) for action in state.legal_actions()]
    lowest = state.card_text(sorted(state.values["hand"][1])[0])
    assert texts[0] == f"p1 choose name pick {lowest} suit H rank A count 1"
    assert all(state.parse_action(text) == action for text, action in zip(texts, state.legal_actions(), strict=True))
    state.apply(texts[-1])
    assert state.events[-1]["action"] == texts[-1]


def test_a_seat_argument_is_written_as_its_number_and_read_as_a_seat_is_written_too(tmp_path: Path) -> None:
    # (docs/ruleset-format.md: a seat is written `p0` in text; a choice's seat argument is written as its number,
    # and `whom p0` was refused: "whom must be one of 0, 1, not p0")
    old = "        - set: trump\n          to: last(hand[dealer]).suit\n"
    asking = ("        - decide: next_seat(dealer)\n          options:\n            - choose: ask\n"
              "              args:\n                whom: seats()\n")
    state = game_from_text(tmp_path, TINY.replace(old, old + asking)).new_initial_state(seed=2, players=2)
    state.apply_chance()
    assert [state.action_text(action) for action in state.legal_actions()] == ["p1 choose ask whom 0",
                                                                               "p1 choose ask whom 1"]
    assert state.parse_action("p1 choose ask whom p0") == state.parse_action("p1 choose ask whom 0")
    with pytest.raises(IllegalActionError, match="whom must be one of 0, 1, not 5"):
        state.check(state.parse_action("p1 choose ask whom p5"))
    state.apply("p1 choose ask whom p0")
    assert state.events[-1]["action"] == "p1 choose ask whom 0"


def test_a_refused_card_argument_names_the_allowed_cards(tmp_path: Path) -> None:
    state = _state(tmp_path)
    held = {state.card_text(card) for card in state.values["hand"][1]}
    missing = next(text for text in ("2C", "3C", "4C", "5C") if text not in held)
    with pytest.raises(IllegalActionError) as refused:
        state.check(f"p1 choose name pick {missing} suit H rank A count 1")
    assert str(refused.value).startswith("pick must be one of ") and str(refused.value).endswith(f"not {missing}")
    assert all(text in str(refused.value) for text in held)
    with pytest.raises(ActionSyntaxError, match="'ZZ' is not a suit of this deck"):
        state.parse_action(f"p1 choose name pick {missing} suit ZZ rank A count 1")


def _two_picks(tmp_path: Path, first: str, second: str) -> State:
    """The dealer chooses `pick` twice, its argument `x` taking the values of `first`, then of `second`."""
    old = "        - set: trump\n          to: last(hand[dealer]).suit\n"
    twice = ("        - decide: dealer\n          options:\n            - choose: pick\n"
             f"              args: {{x: '{first}'}}\n"
             "        - decide: dealer\n          options:\n            - choose: pick\n"
             f"              args: {{x: '{second}'}}\n")
    state = game_from_text(tmp_path, TINY.replace(old, old + twice)).new_initial_state(seed=2, players=2)
    state.apply_chance()
    return state


def test_two_choices_of_one_name_with_other_argument_types_show_their_values_as_they_are(tmp_path: Path) -> None:
    state = _two_picks(tmp_path, "[A, K]", "numbers(20, 21)")
    first = [state.action_text(action) for action in state.legal_actions()]
    state.apply(first[0])
    second = [state.action_text(action) for action in state.legal_actions()]
    assert second == ["p0 choose pick x 20", "p0 choose pick x 21"]
    assert all(state.parse_action(text) == action for text, action in zip(second, state.legal_actions(), strict=True))


SEVERAL = """        - decide: next_seat(dealer)
          options:
            - choose: give
              args:
                given: subsets(hand[next_seat(dealer)], 1, 2)
              legal:
                - rule: all(c.suit != trump for c in given) or size(given) == 1
                  reason: "two cards given hold no trump"
              do:
                - move: given
                  from: hand[player]
                  to: stock
                - log: "gave {given}: {size(given)} cards"
"""


def _several(tmp_path: Path, seed: int = 2) -> State:
    old = "        - set: trump\n          to: last(hand[dealer]).suit\n"
    game = game_from_text(tmp_path, TINY.replace(old, old + SEVERAL), name="several.yaml")  # (a scenario names it)
    state = game.new_initial_state(seed=seed, players=2)
    state.apply_chance()
    return state


def test_a_choice_among_lists_offers_one_action_per_allowed_list(tmp_path: Path) -> None:
    state = _several(tmp_path, seed=6)  # p1 holds one trump: the pairs with it are refused
    hand = state.values["hand"][1]
    trump = state.values["trump"]
    names = [state.card_text(card) for card in hand]
    singles = [f"p1 choose give given {name}" for name in names]
    pairs = [f"p1 choose give given {names[i]}+{names[j]}" for i in range(5) for j in range(i + 1, 5)
             if trump not in (state.game.deck.suit_of[hand[i]], state.game.deck.suit_of[hand[j]])]
    texts = [state.action_text(action) for action in state.legal_actions()]
    assert texts == singles + pairs and len(pairs) == 6
    assert all(state.parse_action(text) == action for text, action in zip(texts, state.legal_actions(), strict=True))


def test_the_chosen_list_is_bound_as_a_list_and_its_cards_move(tmp_path: Path) -> None:
    state = _several(tmp_path)
    chosen = state.action_text(state.legal_actions()[-1])
    first, second = chosen.rsplit(" ", 1)[1].split("+")
    state.apply(chosen)
    held = [state.card_text(card) for card in state.values["hand"][1]]
    assert first not in held and second not in held and len(held) == 3
    assert {"type": "log", "text": f"gave {first} {second}: 2 cards"} in state.events


def test_a_refused_list_names_the_allowed_lists_or_the_rule(tmp_path: Path) -> None:
    state = _several(tmp_path, seed=6)
    names = [state.card_text(card) for card in state.values["hand"][1]]
    with pytest.raises(IllegalActionError, match=r"given must be one of .*, \.\.\. \(15 in all\), not 2C\+3C\+4C"):
        state.check("p1 choose give given 2C+3C+4C")
    with pytest.raises(IllegalActionError, match=r"not none"):
        state.check("p1 choose give given none")
    trump = state.game.deck.suit_name(state.values["trump"])
    with_trump = next(n for n in names if n.endswith(trump))  # (with seed 6 p1 holds one trump)
    other = next(n for n in names if n != with_trump)
    with pytest.raises(IllegalActionError, match="two cards given hold no trump"):
        state.check(f"p1 choose give given {min(with_trump, other, key=names.index)}+"
                    f"{max(with_trump, other, key=names.index)}")


def test_too_many_subsets_is_an_error_saying_so() -> None:
    from interpreter.dsl.builtins import BUILTINS
    from interpreter.errors import EvaluationError

    subsets = BUILTINS["subsets"].implementation
    assert len(subsets(list(range(16)))) == 2**16
    with pytest.raises(EvaluationError, match="more than 100,000"):
        subsets(list(range(17)))
    assert subsets(list(range(40)), 0, 2)[:3] == [[], [0], [1]]



@settings(deadline=None, max_examples=300)
@given(items=st.lists(st.integers(0, 6), max_size=7), smallest=st.none() | st.integers(-1, 8),
       largest=st.none() | st.integers(-1, 8))
def test_subsets_are_each_choice_of_the_sizes_asked_once_in_order(items: list[int], smallest: int | None,
                                                                  largest: int | None) -> None:
    # The language reference's `subsets`: each choice of the items of `smallest` to `largest` items (all sizes by
    # default), smallest first, each size in the items' order; equal items (two packs) make each choice once.
    from interpreter.dsl.builtins import BUILTINS

    low = 0 if smallest is None else max(smallest, 0)
    high = len(items) if largest is None else min(largest, len(items))
    expected: list[list[int]] = []
    for size in range(low, high + 1):
        for chosen in itertools.combinations(items, size):
            if sorted(chosen) not in [sorted(seen) for seen in expected]:
                expected.append(list(chosen))
    assert BUILTINS["subsets"].implementation(items, smallest, largest) == expected

def test_a_choice_with_no_allowed_arguments_says_what_refuses_each(tmp_path: Path) -> None:
    from interpreter.engine.errors import RulesetRuntimeError

    old = "        - set: trump\n          to: last(hand[dealer]).suit\n"
    refusing = """        - decide: next_seat(dealer)
          options:
            - choose: bid
              args:
                level: numbers(1, 8)
              legal:
                - rule: level > size(hand)
                  reason: "a bid is more than the cards held"
                - rule: level < 3
                  reason: "a bid is below 3"
"""
    state = game_from_text(tmp_path, TINY.replace(old, old + refusing)).new_initial_state(seed=2, players=2)
    with pytest.raises(RulesetRuntimeError) as raised:
        state.apply_chance()
        state.legal_actions()
    assert str(raised.value).startswith(
        "p1 has no legal action; bid level 1: a bid is more than the cards held; bid level 2: a bid is more than "
        "the cards held; bid level 3: a bid is more than the cards held; bid level 4: a bid is more than the "
        "cards held; bid level 5: a bid is more than the cards held; bid level 6: a bid is below 3; ... "
        "(8 choices in all)")


def _with_definitions(tmp_path: Path, definitions: str, rule: str) -> Path:
    old = "        - set: trump\n          to: last(hand[dealer]).suit\n"
    choice = f"""        - decide: next_seat(dealer)
          options:
            - choose: bid
              args:
                level: numbers(1, 8)
              legal:
                - rule: {rule}
                  reason: "not that bid"
"""
    path = tmp_path / "definitions.yaml"
    path.write_text(TINY.replace(old, old + choice).replace("define:\n", "define:\n" + definitions), encoding="utf-8")
    return path


def test_a_definition_that_reads_an_argument_is_worked_out_for_each_choice(tmp_path: Path) -> None:
    path = _with_definitions(tmp_path, "  fits: level <= size(hand)\n", "fits")
    state = load_ruleset(path).new_initial_state(seed=2, players=2)
    state.apply_chance()
    assert [state.action_text(a) for a in state.legal_actions()] == [f"p1 choose bid level {n}" for n in range(1, 6)]


def test_a_definition_that_reads_no_argument_is_worked_out_once_per_decision(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from interpreter.dsl import builtins

    calls: list[int] = []
    original = builtins.BUILTINS["subsets"]

    def counted(*arguments: object) -> object:
        calls.append(1)
        return original.implementation(*arguments)

    monkeypatch.setitem(builtins.BUILTINS, "subsets", dataclasses.replace(original, implementation=counted))
    path = _with_definitions(tmp_path, "  groups: subsets(hand, 2, 2)\n", "size(groups) >= level")
    state = load_ruleset(path).new_initial_state(seed=2, players=2)
    state.apply_chance()
    calls.clear()
    assert len(state.legal_actions()) == 8  # ten pairs of five cards: every bid up to 8
    assert len(calls) == 1


def test_the_cards_of_a_chosen_list_may_be_given_in_any_order(tmp_path: Path) -> None:
    state = _several(tmp_path, seed=6)
    chosen = state.action_text(state.legal_actions()[-1])
    head, cards = chosen.rsplit(" ", 1)
    reordered = f"{head} {'+'.join(reversed(cards.split('+')))}"
    assert reordered != chosen and state.is_legal(reordered)
    state.apply(reordered)
    assert state.history[-1] == state.parse_action(chosen)  # kept as the legal set writes it
    assert state.events[-2]["action"] == chosen


def test_a_scenario_lists_a_choice_of_cards_in_any_order_and_names_a_card_it_misspells(tmp_path: Path) -> None:
    from interpreter.runners.scenarios import run_file

    state = _several(tmp_path, seed=6)
    texts = [state.action_text(action) for action in state.legal_actions()]
    flipped = [f"{t.rsplit(' ', 1)[0]} {'+'.join(reversed(t.rsplit(' ', 1)[1].split('+')))}" for t in texts]
    scenario = tmp_path / "cases.yaml"
    scenario.write_text(f"ruleset: several.yaml\nplayers: 2\nseed: 6\ncases:\n"
                        f"  - name: any order\n    steps:\n      - legal: [{', '.join(flipped)}]\n"
                        f"  - name: misspelt\n    steps:\n      - legal: [p1 choose give given 5X]\n", encoding="utf-8")
    results = run_file(scenario)
    assert results[0].passed, results[0].message
    assert not results[1].passed and "'5X' is not a card" in results[1].message


def test_a_list_typed_with_a_wrong_item_is_refused_not_a_crash(tmp_path: Path) -> None:
    state = _several(tmp_path, seed=6)
    assert not state.is_legal("p1 choose give given 2C+x")
    with pytest.raises(ActionSyntaxError, match="'x' is not a card"):
        state.check("p1 choose give given 2C+x")


def test_choices_among_lists_are_not_kept_for_ever(tmp_path: Path) -> None:
    state = _several(tmp_path, seed=6)
    for _ in range(6):  # hands of the tiny game: a choice of cards in each
        while not state.is_terminal and state.current_player != -1 and state.legal_actions()[0].kind == "choose":
            state.apply(state.legal_actions()[0])
        if state.is_terminal:
            break
        state.apply_chance() if state.current_player == -1 else state.apply(state.legal_actions()[0])
    assert not any(value.__class__ is tuple for key in state.game._choice_actions for _, value in key[2])
    assert not state.game._choice_lists or all(
        not any(value.__class__ is tuple for listed in key[2] for value in listed) for key in state.game._choice_lists)


def test_with_two_packs_each_choice_of_cards_is_offered_once_and_named_in_any_order(tmp_path: Path) -> None:
    text = TINY.replace("deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H, D, C]}",
                        "deck: {ranks: [10, J, Q, K, A], suits: [S, H], packs: 2}").replace(
        "        - set: trump\n          to: last(hand[dealer]).suit\n",
        "        - set: trump\n          to: last(hand[dealer]).suit\n" + SEVERAL)
    state = game_from_text(tmp_path, text).new_initial_state(seed=1, players=2)
    state.apply_chance()
    hand = state.values["hand"][1]
    texts = [state.action_text(action) for action in state.legal_actions()]
    sets = [sorted(text.rsplit(" ", 1)[1].split("+")) for text in texts]
    assert len(sets) == len({tuple(s) for s in sets})  # no choice twice
    assert len(set(hand)) < len(hand)  # (with this seed p1 holds a card twice)
    last = texts[-1].rsplit(" ", 1)
    assert state.is_legal(f"{last[0]} {'+'.join(reversed(last[1].split('+')))}")


def test_a_list_choice_is_not_legal_when_nothing_is(tmp_path: Path) -> None:
    old = "        - set: trump\n          to: last(hand[dealer]).suit\n"
    refusing = SEVERAL.replace("- rule: all(c.suit != trump for c in given) or size(given) == 1",
                               "- rule: size(given) > 5")
    state = game_from_text(tmp_path, TINY.replace(old, old + refusing)).new_initial_state(seed=6, players=2)
    state.apply_chance()
    held = [state.card_text(card) for card in state.values["hand"][1]]
    assert state.is_legal(f"p1 choose give given {held[1]}+{held[0]}") is False  # refused, not a failure


def test_equal_choices_with_arguments_of_other_types_keep_their_own_texts(tmp_path: Path) -> None:
    # `true` and 1 are equal values, so the two actions are equal; action texts are kept per action once made
    # (Game.action_text), and each must still show its own argument.
    state = _two_picks(tmp_path, "[true, false]", "numbers(0, 1)")
    first = [state.action_text(action) for action in state.legal_actions()]
    assert first == ["p0 choose pick x true", "p0 choose pick x false"]
    state.apply(first[0])
    second = [state.action_text(action) for action in state.legal_actions()]
    assert second[0] == "p0 choose pick x 0" and second[1] == "p0 choose pick x 1"
    assert second[1] != first[0] and state.legal_actions()[1] == state.history[-1]  # (equal, shown apart)
    state.apply(state.legal_actions()[1])
    assert [event["action"] for event in state.events if event["type"] == "action"][-2:] == [first[0], second[1]]


def test_a_choice_of_a_list_is_the_action_its_fields_make_and_a_choice_of_values_is_made_once(
        tmp_path: Path) -> None:
    game = _state(tmp_path).game
    listed = game.choice_action(1, "pick", (("cards", (3, 7)), ("count", 2)))
    assert listed == Action(1, "choose", name="pick", arguments=(("cards", (3, 7)), ("count", 2)))
    assert listed.__class__ is Action and listed.card == -1 and listed.target == -1 and listed.cards == ()
    assert game.choice_action(1, "pick", (("cards", (3, 7)), ("count", 2))) is not listed  # (never kept)
    valued = game.choice_action(1, "pick", (("count", 1),))
    assert game.choice_action(1, "pick", (("count", 1),)) is valued  # (kept: made once)
    other = game.choice_action(1, "pick", (("count", True),))  # (an equal value of another type: its own action)
    assert other is not valued and other.arguments[0][1] is True


FIXED = """        - round: next_seat(dealer)
          do:
            - decide: player
              options:
                - choose: fold
                  legal:
                    - rule: player != dealer
                      reason: "the dealer may not fold"
                - choose: bet
                  args:
                    amount: numbers(1, params.most)
                    times: numbers(1, 2)
                  do:
                    - log: "p{player} bets {amount}, {times} times"
            - decide: player
              options:
                - choose: raise
                  args:
                    by: numbers(1, params.most)
"""


def _fixed(tmp_path: Path, players: int) -> State:
    old = "        - set: trump\n          to: last(hand[dealer]).suit\n"
    most = "  most: {type: int, default: 2, description: the most a bet may be}\n"
    text = TINY.replace(old, old + FIXED).replace("params:\n", "params:\n" + most, 1)
    state = game_from_text(tmp_path, text).new_initial_state(seed=2, players=players)
    state.apply_chance()
    return state


@pytest.mark.parametrize("players", [2, 3])
def test_a_choice_whose_values_never_change_offers_each_seat_its_own_actions(tmp_path: Path, players: int) -> None:
    # (its actions are made once for every seat when the game is built: each seat must get its own, in the
    # order of the combinations, with the other option's beside them, every time the decision comes round)
    state = _fixed(tmp_path, players)
    source = state.game.code.source  # (both decisions read their seat's table: beside `fold`, and alone)
    assert "_found.update(K" in source and "    return K" in source
    dealer = state.values["dealer"]
    for turn in range(players):
        seat = state.current_player
        texts = [state.action_text(action) for action in state.legal_actions()]
        bets = [f"p{seat} choose bet amount {amount} times {times}" for amount in (1, 2) for times in (1, 2)]
        assert texts == ([] if seat == dealer else [f"p{seat} choose fold"]) + bets
        assert all(action.seat == seat for action in state.legal_actions())
        state.apply(texts[-1 - turn % 2])
        assert state.legal_actions() == [state.parse_action(f"p{seat} choose raise by {by}") for by in (1, 2)]
        state.apply(f"p{seat} choose raise by 2")
        assert [event["action"] for event in state.events if event["type"] == "action"][-2:] == \
            [texts[-1 - turn % 2], f"p{seat} choose raise by 2"]


def test_a_choice_of_many_fixed_values_is_made_when_first_offered_not_when_the_game_is_built(tmp_path: Path) -> None:
    # (above MOST_MADE_AHEAD actions a seat, a choice's actions are not made for every seat ahead: a decision
    # never reached costs nothing; reached, it offers them all, as before)
    old = "        - set: trump\n          to: last(hand[dealer]).suit\n"
    most = "  most: {type: int, default: 40, description: the most a bet may be}\n"
    text = TINY.replace(old, old + FIXED.replace("numbers(1, 2)", "numbers(1, params.most)")).replace(
        "params:\n", "params:\n" + most, 1)
    state = game_from_text(tmp_path, text).new_initial_state(seed=2, players=2)
    state.apply_chance()
    source = state.game.code.source
    assert "CHOICE_LISTS.get(" in source and "_found.update(K" not in source  # (`raise`, 40 actions: made ahead)
    seat = state.current_player
    bets = [state.action_text(action) for action in state.legal_actions() if action.name == "bet"]
    assert len(bets) == 40 * 40 and bets[0] == f"p{seat} choose bet amount 1 times 1"
    assert bets[-1] == f"p{seat} choose bet amount 40 times 40"


def test_a_refused_list_written_in_another_order_is_refused_by_the_rule(tmp_path: Path) -> None:
    # (a legal list may be written in any order; a list the rules refuse, written in another order than the
    # allowed values list it, was refused as no value at all, hiding the rule's reason)
    state = _several(tmp_path, seed=6)
    names = [state.card_text(card) for card in state.values["hand"][1]]
    trump = state.game.deck.suit_name(state.values["trump"])
    with_trump = next(n for n in names if n.endswith(trump))
    other = next(n for n in names if n != with_trump)
    backwards = sorted((with_trump, other), key=names.index, reverse=True)
    with pytest.raises(IllegalActionError, match="two cards given hold no trump"):
        state.check(f"p1 choose give given {backwards[0]}+{backwards[1]}")
