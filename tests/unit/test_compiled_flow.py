"""The compiled forms of a ruleset behave as the rules say: steps run as generated code still fail with the
place in the ruleset, definitions made of parameters fold away without changing a value, and a copied
state goes its own way while sharing the history it was copied with."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import CHANCE, load_ruleset
from interpreter.engine import decisions
from interpreter.engine.cardmoves import Cards
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.log import Log
from interpreter.engine.state import State
from tests.play_helpers import play_alike, play_out, random_choices

ROOT = Path(__file__).resolve().parents[2]
TINY = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    assert old in TINY
    path = tmp_path / "game.yaml"
    path.write_text(TINY.replace(old, new), encoding="utf-8")
    return path


def _play(state: State, seed: int = 1, actions: int = 100_000) -> State:
    """Random legal actions until the match ends (or for as many actions)."""
    return play_out(state, random_choices(seed), actions)


def test_a_failing_expression_in_a_generated_step_names_its_place(tmp_path: Path) -> None:
    path = _variant(tmp_path, "            - change: tricks[winner]\n              by: 1",
                    "            - change: tricks[winner]\n              by: 1 // (size(trick) - size(trick))")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    with pytest.raises(RulesetRuntimeError) as raised:
        _play(state)
    assert "division by zero" in str(raised.value)
    assert raised.value.where == "hand.phases[1].steps[0].then[0].by"


def test_a_failing_builtin_in_a_generated_loop_names_its_place(tmp_path: Path) -> None:
    path = _variant(tmp_path, "        - set: trump\n          to: last(hand[dealer]).suit",
                    "        - for_each: seats()\n          do:\n            - set: trump\n"
                    "              to: first(won[player]).suit")
    with pytest.raises(RulesetRuntimeError) as raised:
        load_ruleset(path).new_initial_state(seed=1, players=2).apply_chance()
    assert "first() of an empty list" in str(raised.value)
    assert raised.value.where == "hand.phases[0].steps[2].do[0].to"


@pytest.mark.parametrize(("steps", "where"), [
    ("        - if: 1 // (size(trick) - size(trick)) > 0\n          then: [{log: never}]\n",
     "hand.phases[0].steps[3].if"),
    ("        - for_each: seats()\n          where: 1 // (size(trick) - size(trick)) > 0\n"
     "          do: [{log: never}]\n",
     "hand.phases[0].steps[3].where"),
])
def test_a_failing_test_of_a_generated_step_names_its_place(tmp_path: Path, steps: str, where: str) -> None:
    path = _variant(tmp_path, "        - set: trump\n          to: last(hand[dealer]).suit",
                    "        - set: trump\n          to: last(hand[dealer]).suit\n" + steps.rstrip("\n"))
    with pytest.raises(RulesetRuntimeError) as raised:
        load_ruleset(path).new_initial_state(seed=1, players=2).apply_chance()
    assert "division by zero" in str(raised.value)
    assert raised.value.where == where


@pytest.mark.parametrize(("steps", "where", "in_place"), [
    ("        - if: spread(dealer) > 0\n          then: [{log: never}]\n", "hand.phases[0].steps[3].if", False),
    ("        - for_each: seats()\n          where: spread(player) > 0\n          do: [{log: never}]\n",
     "hand.phases[0].steps[3].where", True),
    ("        - for_each: seats()\n          do:\n            - if: spread(player) > 0\n"
     "              then: [{log: never}]\n", "hand.phases[0].steps[3].do[0].if", True),
])
def test_a_failing_definition_written_into_a_generated_step_names_the_definition(
        tmp_path: Path, steps: str, where: str, in_place: bool) -> None:
    # (`spread(p)` is small: called with a plain argument, `player`, its code is written into the test's, which
    # the step's code writes in place; called with `dealer`, it is called; five cards each make it divide by 0)
    path = _variant(tmp_path, "        - set: trump\n          to: last(hand[dealer]).suit",
                    "        - set: trump\n          to: last(hand[dealer]).suit\n" + steps.rstrip("\n"))
    path.write_text(path.read_text(encoding="utf-8").replace(
        "  follows(c): c.suit == led\n", "  follows(c): c.suit == led\n  spread(p): 10 // (size(hand[p]) - 5)\n"),
        encoding="utf-8")
    game = load_ruleset(path)
    assert ("if not (10 // (B_size(" in game.code.source or "if (10 // (B_size(" in game.code.source) == in_place
    with pytest.raises(RulesetRuntimeError) as raised:
        game.new_initial_state(seed=1, players=2).apply_chance()
    assert str(raised.value).startswith("division by zero (in definition `spread`)")
    assert raised.value.where == where


def test_parameters_fold_away_without_changing_what_is_legal(tmp_path: Path) -> None:
    # `pot_limit` is null, so `strict` is false and the rule reduces to the follow-suit test of the original.
    folded = _variant(tmp_path, "              reason: \"you must follow suit\"",
                      "              reason: \"you must follow suit\"\n"
                      "            - rule: not strict or size(trick) == 0 or card.suit == trump\n"
                      "              reason: \"never, with no pot limit\"")
    folded.write_text(folded.read_text(encoding="utf-8").replace(
        "  winning: trick_winner(trick, trump)",
        "  winning: trick_winner(trick, trump)\n  strict: params.pot_limit != null and params.pot_limit > 0"),
        encoding="utf-8")
    original = load_ruleset(ROOT / "tests" / "games" / "tiny.yaml").new_initial_state(seed=5, players=3)
    changed = load_ruleset(folded).new_initial_state(seed=5, players=3)
    play_alike(original, changed, 5)
    assert changed.returns() == original.returns()


def test_a_definition_whose_body_reads_none_of_its_parameters_folds_away(tmp_path: Path) -> None:
    # `owes(c)` is true whatever its argument: the step's test is worked out once, at load, and its argument, which
    # fails on the empty pile at a hand's start (`first(won[player])`), is never worked out, as `false and
    # first(...)` is not (the language has no side effects). `deals(p)` reads its parameter: a test per seat.
    path = _variant(tmp_path, "        - set: trump\n          to: last(hand[dealer]).suit",
                    "        - set: trump\n          to: last(hand[dealer]).suit\n"
                    "        - for_each: seats()\n          do:\n"
                    "            - if: owes(first(won[player]))\n"
                    "              then: [{change: 'score[player]', by: 1}]\n"
                    "            - if: deals(player)\n"
                    "              then: [{change: 'score[player]', by: 10}]")
    path.write_text(path.read_text(encoding="utf-8").replace(
        "  winning: trick_winner(trick, trump)",
        "  winning: trick_winner(trick, trump)\n  owes(c): \"true\"\n  deals(p): p == dealer"), encoding="utf-8")
    game = load_ruleset(path)
    tests = game.ruleset.expressions
    assert getattr(tests["hand.phases[0].steps[3].do[0].if"], "constant", None) == (True,)
    assert getattr(tests["hand.phases[0].steps[3].do[1].if"], "constant", None) is None
    state = _play(game.new_initial_state(seed=2, players=3))
    assert state.is_terminal
    assert state.returns() == [3 + 10, 3 + 10, 3 + 10]  # three hands: 1 a hand each, 10 for the hand dealt


def test_a_copy_shares_the_past_and_keeps_its_own_future() -> None:
    game = load_ruleset(ROOT / "tests" / "games" / "tiny.yaml")
    state = game.new_initial_state(seed=3, players=3)
    state.apply_chance()
    state.apply(state.legal_actions()[0])
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    taken = len(state.history)
    before = list(state.events)
    copy = state.clone()
    copy.apply(copy.legal_actions()[-1])
    state.apply(state.legal_actions()[0])
    assert copy.events[:len(before)] == before == state.events[:len(before)]
    assert copy.events[len(before)] != state.events[len(before)]
    assert len(copy.history) == len(state.history) == taken + 1
    assert copy.history[:taken] == state.history[:taken] and copy.history[taken] != state.history[taken]
    _play(copy)
    assert copy.is_terminal and not state.is_terminal


def test_a_log_fork_sees_the_items_so_far_only() -> None:
    log = Log()
    for item in range(3):
        log.append(item)
    fork = log.fork()
    log.append("original")
    fork.append("fork")
    second = fork.fork()
    second.append("second")
    assert log.as_list() == [0, 1, 2, "original"]
    assert fork.since(2) == [2, "fork"] and len(fork) == 4
    assert list(second) == [0, 1, 2, "fork", "second"]
    assert fork.as_list() == [0, 1, 2, "fork"]


FOLLOW = "size(trick) == 0 or follows(card) or not any(follows(c) for c in hand)"


@pytest.mark.parametrize("rule", [
    "size(trick) == 0 or follows(card) or not any(follows(c) for c in mine)",  # a kept definition looped over
    f"{FOLLOW} or all(c != card for c in reverse(trick))",  # a builtin over game values looped over
])
def test_a_card_filter_may_loop_over_values_it_keeps(tmp_path: Path, rule: str) -> None:
    path = _variant(tmp_path, f"            - rule: {FOLLOW}", f"            - rule: {rule}")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  led: trick[0].suit", "  led: trick[0].suit\n  mine: hand"), encoding="utf-8")
    assert _play(load_ruleset(path).new_initial_state(seed=1, players=2), seed=0, actions=400).hand_results


def test_two_choices_of_one_name_bind_their_own_arguments(tmp_path: Path) -> None:
    path = _variant(tmp_path, "    - name: play\n      steps:\n", "    - name: play\n      steps:\n"
                    "        - decide: dealer\n          options:\n            - choose: bid\n"
                    "              args: {amount: 'numbers(0, 2)'}\n              do: [{log: 'amount {amount}'}]\n"
                    "        - decide: dealer\n          options:\n            - choose: bid\n"
                    "              args: {level: 'numbers(0, 2)'}\n              do: [{log: 'level {level}'}]\n")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    state.apply_chance()
    state.apply("p0 choose bid amount 1")
    assert [state.action_text(a) for a in state.legal_actions()] == [f"p0 choose bid level {n}" for n in range(3)]
    state.apply("p0 choose bid level 2")
    assert [e["text"] for e in state.events if e["type"] == "log"][-2:] == ["amount 1", "level 2"]


def test_a_transfer_finds_its_destination_after_the_source_is_debited(tmp_path: Path) -> None:
    # The destination is the richest seat once the five chips have left seat 0 (10 -> 5 against 9).
    path = _variant(tmp_path, "        - set: trump\n          to: last(hand[dealer]).suit",
                    "        - set: trump\n          to: last(hand[dealer]).suit\n"
                    "        - transfer: 5\n          from: chips[0]\n"
                    "          to: chips[highest(p in seats() by chips[p])]\n")
    chips = "  - {name: chips, type: int, per: seat, initial: 'if player == 0 then 10 else 9'}"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  - {name: trump, type: suit}", "  - {name: trump, type: suit}\n" + chips),
                    encoding="utf-8")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    state.apply_chance()
    assert state.values["chips"] == [5, 14]


def test_a_log_line_shows_the_cards_as_they_were_when_it_was_written(tmp_path: Path) -> None:
    path = _variant(tmp_path, "        - set: trump\n          to: last(hand[dealer]).suit",
                    "        - set: trump\n          to: last(hand[dealer]).suit\n"
                    "        - log: \"hands {[hand[p] for p in seats()]}\"")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    state.apply_chance()
    dealt = [state.card_text(card) for hand in state.values["hand"] for card in hand]
    state.apply(state.legal_actions()[0])
    assert next(e["text"] for e in state.events if e["type"] == "log") == "hands " + " ".join(dealt)


def test_an_empty_highest_in_a_generated_step_names_its_place(tmp_path: Path) -> None:
    path = _variant(tmp_path, "          to: last(hand[dealer]).suit",
                    "          to: highest(c in won[dealer] by c.rank).suit")
    with pytest.raises(RulesetRuntimeError) as raised:
        load_ruleset(path).new_initial_state(seed=1, players=2).apply_chance()
    assert "highest() over no items" in str(raised.value) and raised.value.where == "hand.phases[0].steps[2].to"


def test_a_long_chain_of_copies_reads_its_history() -> None:
    log = Log()
    for step in range(5000):  # each copy of a copy, as a search that keeps the latest copy makes
        log.append(step)
        log = log.fork()
    assert log.as_list() == list(range(5000)) and log.since(4998) == [4998, 4999]


def test_a_decision_with_no_legal_action_says_what_refuses_each_card(tmp_path: Path) -> None:
    path = _variant(tmp_path, "              reason: \"you must follow suit\"",
                    "              reason: \"you must follow suit\"\n"
                    "            - rule: size(trick) > 0\n"
                    "              reason: \"nobody may lead\"")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    with pytest.raises(RulesetRuntimeError) as raised:
        state.apply_chance()
        state.legal_actions()
    held = [state.card_text(card) for card in state.values["hand"][1]]
    assert str(raised.value).startswith("p1 has no legal action; " + "; ".join(f"{c}: nobody may lead" for c in held))
    assert raised.value.where == "hand.phases[1].steps[0]"


def test_a_failure_inside_a_definition_names_the_definition(tmp_path: Path) -> None:
    path = _variant(tmp_path, f"            - rule: {FOLLOW}",
                    "            - rule: follows(card) or not any(follows(c) for c in hand)")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    state.apply_chance()
    with pytest.raises(RulesetRuntimeError) as raised:
        state.legal_actions()  # the first lead reads `led` of an empty trick
    assert str(raised.value).startswith("index 0 of an empty list (in definition `led`)")
    assert raised.value.where == "hand.phases[1].steps[0].legal[0].rule"


@pytest.mark.parametrize(("rule", "failure"), [
    ("above_lead(card) or size(hand) > 5", "first() of an empty list (in definition `above_lead`)"),
    # Two definitions with one body: the one that ran is named, not the other (their code is the same text).
    ("(size(hand) > 5 and ratio(card) > 0) or share(card) > 0", "division by zero (in definition `share`)"),
    ("(size(hand) < 9 and share(card) > 0) or ratio(card) > 0", "division by zero (in definition `share`)"),
])
def test_a_failure_inside_a_definition_written_in_place_of_its_call_names_the_definition(
        tmp_path: Path, rule: str, failure: str) -> None:
    # The definitions are small and called with a plain argument, so their code is written into the rule's.
    path = _variant(tmp_path, "  follows(c): c.suit == led\n",
                    "  follows(c): c.suit == led\n  above_lead(c): c.rank > first(trick).rank\n"
                    "  ratio(c): order(c.rank) // (order(c.rank) - order(c.rank))\n"
                    "  share(c): order(c.rank) // (order(c.rank) - order(c.rank))\n")
    path.write_text(path.read_text(encoding="utf-8").replace(
        f"            - rule: {FOLLOW}", f"            - rule: {rule}"), encoding="utf-8")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    state.apply_chance()
    with pytest.raises(RulesetRuntimeError) as raised:
        state.legal_actions()  # the first lead reads the first card of an empty trick; the others divide by 0
    assert str(raised.value).startswith(failure)
    assert raised.value.where == "hand.phases[1].steps[0].legal[0].rule"


def test_a_failure_inside_a_definition_without_parameters_written_into_a_filter_names_it(tmp_path: Path) -> None:
    # `lead_rank` is small and depends on the decision only: a card filter writes its body where it is first
    # worked out, instead of calling its function.
    path = _variant(tmp_path, "  follows(c): c.suit == led\n",
                    "  follows(c): c.suit == led\n  lead_rank: first(trick).rank\n")
    path.write_text(path.read_text(encoding="utf-8").replace(
        f"            - rule: {FOLLOW}", "            - rule: size(hand) > 5 or card.rank > lead_rank"),
        encoding="utf-8")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    state.apply_chance()
    with pytest.raises(RulesetRuntimeError) as raised:
        state.legal_actions()  # the first lead reads the first card of an empty trick
    assert str(raised.value).startswith("first() of an empty list (in definition `lead_rank`)")
    assert raised.value.where == "hand.phases[1].steps[0].legal[0].rule"


def test_the_command_line_shows_a_runtime_failure_at_its_place_in_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.cli import main

    path = _variant(tmp_path, "              by: 1", "              by: 1 // (size(trick) - size(trick))")
    with pytest.raises(SystemExit) as exited:
        main(["play", str(path), "--bots", "random", "--seed", "1", "--players", "2"])
    assert exited.value.code == 1
    lines = capsys.readouterr().err.splitlines()
    line_number = next(number for number, text in enumerate(path.read_text().splitlines(), 1) if "by: 1 //" in text)
    assert lines[-3] == (f"{path}:{line_number}:19: runtime error: division by zero "
                         "(at hand.phases[1].steps[0].then[0].by)")
    assert lines[-1].strip().startswith("|") and "^" in lines[-1]


def test_a_failure_while_an_action_is_applied_is_located_in_the_file(tmp_path: Path) -> None:
    path = _variant(tmp_path, "          winning_card: winning", "          winning_card: trick[size(trick) + 1]")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    state.apply_chance()
    with pytest.raises(RulesetRuntimeError) as raised:
        for _ in range(2):
            state.apply(state.legal_actions()[0])
    # (trick[size(trick) + 1])
    assert str(raised.value).startswith("index 3 is past the end of a list of 2 items (0 to 1)")
    assert raised.value.where.endswith("winning_card")
    assert raised.value.location is not None and raised.value.location.path == str(path)


def _bidding(tmp_path: Path, amounts: str) -> Path:
    return _variant(tmp_path, "    - name: play\n      steps:\n", "    - name: play\n      steps:\n"
                    "        - decide: dealer\n          options:\n            - choose: bid\n"
                    f"              args: {{amount: '{amounts}'}}\n              do: [{{log: 'amount {{amount}}'}}]\n")


def test_a_builtin_of_constant_values_is_worked_out_once_and_offers_the_same_choices(tmp_path: Path) -> None:
    game = load_ruleset(_bidding(tmp_path, "numbers(min(1, 4), max(2, 3))"))
    assert "B_numbers(" not in game.code.source and "B_min(" not in game.code.source
    state = game.new_initial_state(seed=1, players=2)
    state.apply_chance()
    assert [state.action_text(a) for a in state.legal_actions()] == [f"p0 choose bid amount {n}" for n in (1, 2, 3)]
    state.apply("p0 choose bid amount 3")
    assert [e["text"] for e in state.events if e["type"] == "log"][-1] == "amount 3"


def test_a_builtin_that_fails_on_constant_values_fails_in_play_at_its_place(tmp_path: Path) -> None:
    state = load_ruleset(_bidding(tmp_path, "numbers(0, round_up(3, 0))")).new_initial_state(seed=1, players=2)
    with pytest.raises(RulesetRuntimeError) as raised:
        state.apply_chance()
        state.legal_actions()
    assert "round_up needs a positive multiple" in str(raised.value)
    assert raised.value.where == "hand.phases[1].steps[0].options[0].args.amount"


@pytest.mark.parametrize("rule", ["tricks == 0", "no_trick",
                                  # (a definition call that reads `player` through the definition: not kept
                                  # across the argument's values as a call that reads nothing of them is)
                                  "not more_than(size(trick) - size(trick))",
                                  "all(tricks == 0 for s in seats())", "size([s for s in seats() if tricks > 0]) == 0"])
def test_a_choice_argument_named_player_is_read_by_a_bare_per_seat_name(tmp_path: Path, rule: str) -> None:
    # A bare per-seat name is read at `player`: with a choice's argument named so, at each value of it, so the
    # clause is tested for every seat offered (not once for the seat deciding, nor kept across the values).
    path = _variant(tmp_path, "    - name: play\n      steps:\n", "    - name: play\n      steps:\n"
                    "        - change: tricks[dealer]\n          by: 1\n"
                    "        - decide: dealer\n          options:\n            - choose: pick\n"
                    f"              args: {{player: seats()}}\n              legal:\n                - rule: {rule}\n"
                    "                  reason: a seat with no trick\n              do: [{log: 'picked {player}'}]\n")
    path.write_text(path.read_text(encoding="utf-8").replace("  led: trick[0].suit",
                                                             "  led: trick[0].suit\n  no_trick: tricks == 0\n"
                                                             "  more_than(n): tricks > n"))
    state = load_ruleset(path).new_initial_state(seed=1, players=3)
    state.apply_chance()
    dealer = state.values["dealer"]
    assert state.values["tricks"][dealer] == 1
    assert [state.action_text(a) for a in state.legal_actions()] == \
        [f"p{dealer} choose pick player {seat}" for seat in range(3) if seat != dealer]


SHARES = "any(share(order(c.rank)) > 0 for c in hand)"  # (a quantifier that reads nothing of the card)
SHARED = "size([c for c in hand if share(order(c.rank)) > 0]) > 0"  # (a comprehension that reads nothing of it)


@pytest.mark.parametrize(("rule", "fails"), [
    ("order(card.rank) >= 0 and share(size(hand)) > 0", True),  # reached by the first card: fails there, at its place
    ("order(card.rank) < 0 and share(size(hand)) > 0", False),  # reached by no card: never worked out, never fails
    (f"order(card.rank) >= 0 and {SHARES}", True),
    (f"order(card.rank) < 0 and {SHARES}", False),
    (f"order(card.rank) >= 0 and {SHARED}", True),
    (f"order(card.rank) < 0 and {SHARED}", False),
    # (worked out by every card's test: before the loop over the cards, failing as the first card would)
    ("share(size(hand)) >= 0 and order(card.rank) >= 0", True),
    ("share(size(hand)) > order(card.rank) - 100", True),
    # (in a conditional's branch, or behind `and`, `or`: worked out only where a card reaches it)
    ("if order(card.rank) < 0 then share(size(hand)) > 0 else false", False),
    ("order(card.rank) < 0 and (order(card.rank) > 100 or share(size(hand)) > 0)", False),
])
def test_a_call_that_reads_nothing_of_the_card_is_worked_out_where_a_card_first_reaches_it(
        tmp_path: Path, rule: str, fails: bool) -> None:
    # `share(size(hand))` is the same for every card: it is worked out once, when the first card reaches it, and
    # kept for the others (see docs/engine.md); it must fail where the clause tested one card by one would.
    path = _variant(tmp_path, "  follows(c): c.suit == led\n",
                    "  follows(c): c.suit == led\n  share(n): n // (n - n)\n")
    path.write_text(path.read_text(encoding="utf-8").replace(
        "              reason: \"you must follow suit\"",
        f"              reason: \"you must follow suit\"\n            - rule: {rule}\n"
        "              reason: \"a share\""), encoding="utf-8")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    state.apply_chance()
    if not fails:
        with pytest.raises(RulesetRuntimeError) as raised:
            state.legal_actions()  # no card is legal: the decision says why, with the clause's reason
        assert "division by zero" not in str(raised.value)
        return
    with pytest.raises(RulesetRuntimeError) as raised:
        state.legal_actions()
    assert str(raised.value).startswith("division by zero (in definition `share`)")
    assert raised.value.where == "hand.phases[1].steps[0].legal[1].rule"



# (a builtin whose arguments read nothing of the card, though they read the seat's hand: kept for the cards too)
EMPTY_FIRST = "order(first([c for c in hand if order(c.rank) < 0]).rank) >= 0"


@pytest.mark.parametrize(("rule", "fails"), [(f"order(card.rank) >= 0 and {EMPTY_FIRST}", True),
                                             (f"order(card.rank) < 0 and {EMPTY_FIRST}", False)])
def test_a_builtin_that_reads_nothing_of_the_card_is_worked_out_where_a_card_first_reaches_it(
        tmp_path: Path, rule: str, fails: bool) -> None:
    path = _variant(tmp_path, "              reason: \"you must follow suit\"",
                    f"              reason: \"you must follow suit\"\n            - rule: {rule}\n"
                    "              reason: \"a first card\"")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    state.apply_chance()
    with pytest.raises(RulesetRuntimeError) as raised:
        state.legal_actions()
    if fails:  # (the first card reaches it: it fails there, at its place)
        assert str(raised.value).startswith("first() of an empty list")
        assert raised.value.where == "hand.phases[1].steps[0].legal[1].rule"
    else:  # (no card reaches it: never worked out; no card is legal, and the clause's reason says why)
        assert "first()" not in str(raised.value)
        assert "a first card" in str(raised.value)


def test_a_test_reading_no_card_that_no_card_reaches_never_fails_the_decision(tmp_path: Path) -> None:
    # `share(size(hand)) > 0` reads nothing of the card: the filter works it out once, before the cards, and it
    # fails there; no card reaches it clause by clause (every card's rank holds first), so the decision offers
    # every card the other clause allows, as the clauses tested one card by one do.
    path = _variant(tmp_path, "  follows(c): c.suit == led\n",
                    "  follows(c): c.suit == led\n  share(n): n // (n - n)\n")
    path.write_text(path.read_text(encoding="utf-8").replace(
        "              reason: \"you must follow suit\"",
        "              reason: \"you must follow suit\"\n"
        "            - rule: order(card.rank) >= 0 or share(size(hand)) > 0\n"
        "              reason: \"a share\""), encoding="utf-8")
    game = load_ruleset(path)
    state = game.new_initial_state(seed=1, players=2)
    state.apply_chance()
    seat = state.current_player
    hand = state.values["hand"][seat]
    assert sorted(action.card for action in state.legal_actions()) == sorted(set(hand))

@pytest.mark.parametrize("choice_first", [True, False])
def test_a_choice_argument_named_player_leaves_player_as_it_was_for_the_other_options(
        tmp_path: Path, choice_first: bool) -> None:
    # The dealer may name another seat or play one of their own cards but an ace. The choice's argument is named
    # `player`: while the choice's rule is tested for each seat, `player` is that seat; the play's rule must then
    # read the seat deciding again, whichever option comes first (it read the last seat named, and no card was
    # offered, when the choice came first).
    pick = ("            - choose: pick\n              args: {player: seats()}\n              legal:\n"
            "                - rule: player != dealer\n                  reason: not the dealer\n"
            "              do: [{log: 'picked {player}'}]\n")
    play = ("            - play: hand\n              to: trick\n              legal:\n"
            "                - rule: player == dealer and card.rank != A\n                  reason: an own card\n"
            "              do: []\n")
    path = _variant(tmp_path, "    - name: play\n      steps:\n", "    - name: play\n      steps:\n"
                    "        - decide: dealer\n          options:\n" + (pick + play if choice_first else play + pick))
    state = load_ruleset(path).new_initial_state(seed=1, players=3)
    state.apply_chance()
    dealer = state.values["dealer"]
    picks = [f"p{dealer} choose pick player {seat}" for seat in range(3) if seat != dealer]
    plays = [f"p{dealer} play {state.card_text(card)}" for card in state.values["hand"][dealer]
             if not state.card_text(card).startswith("A")]
    expected = picks + plays if choice_first else plays + picks
    assert plays and [state.action_text(a) for a in state.legal_actions()] == expected
    # The general search (the decision's own code stands for it) offers the same.
    assert state.pending is not None
    assert [state.action_text(a) for a in decisions.legal_actions(state, state.pending)[0]] == expected


def test_expressions_share_what_they_work_out_only_while_the_state_is_unchanged(tmp_path: Path) -> None:
    # `total` is a definition, kept in the bindings an expression is given: the steps after the deal read it
    # before and after each change of the scores, in both branches of an `if` and in a loop.
    path = _variant(tmp_path, "        - set: trump\n          to: last(hand[dealer]).suit",
                    "        - set: trump\n          to: last(hand[dealer]).suit\n"
                    "        - set: seen\n          to: '[total]'\n"
                    "        - change: score[dealer]\n          by: 5\n"
                    "        - set: seen\n          to: 'seen + [total]'\n"
                    "        - if: total > 100\n          then:\n            - set: seen\n              to: '[]'\n"
                    "          else:\n            - change: score[dealer]\n              by: total\n"
                    "            - set: seen\n              to: 'seen + [total]'\n"
                    "        - for_each: seats()\n          do:\n            - change: score[player]\n"
                    "              by: 1\n            - set: seen\n              to: 'seen + [total]'\n"
                    "        - set: seen\n          to: 'seen + [total]'\n"
                    "        - log: 'total {total}'\n"
                    "        - repeat: 2\n          do:\n            - set: seen\n              to: 'seen + [total]'\n"
                    "            - change: score[dealer]\n              by: 1")
    text = path.read_text(encoding="utf-8").replace(
        "define:\n", "define:\n  total: sum(score[p] for p in seats())\n").replace(
        "  - {name: trump, type: suit}\n", "  - {name: trump, type: suit}\n  - {name: seen, type: 'list[int]'}\n")
    path.write_text(text, encoding="utf-8")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    state.apply_chance()
    # 0; 5 after the change; 10 after adding the total; 11 and 12 as each seat gains one; 12 after the loop;
    # then 12 and 13 at each turn of the `repeat`, whose steps change the scores after reading them (a log
    # line, which changes nothing, reads it just before)
    assert state.values["seen"] == [0, 5, 10, 11, 12, 12, 12, 13]


def test_a_transfers_destination_is_found_after_its_source_is_debited(tmp_path: Path) -> None:
    # The amount reads `leader` (the dealer, with 5) before the debit; the destination reads it after (the other
    # seat, once the dealer is down to -5), as the step's definition says.
    path = _variant(tmp_path, "        - set: trump\n          to: last(hand[dealer]).suit",
                    "        - set: trump\n          to: last(hand[dealer]).suit\n"
                    "        - set: score[dealer]\n          to: 5\n"
                    "        - transfer: 10 * size([leader])\n          from: score[dealer]\n"
                    "          to: score[leader]")
    text = path.read_text(encoding="utf-8").replace(
        "define:\n", "define:\n  leader: first([p for p in seats() if score[p] == max(score[q] for q in seats())])\n")
    path.write_text(text, encoding="utf-8")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    state.apply_chance()
    dealer = state.values["dealer"]
    assert state.values["score"][dealer] == -5 and state.values["score"][1 - dealer] == 10


def _with_seat_seven(tmp_path: Path, steps: str) -> Path:
    """The tiny game with a seat variable `chosen` set to 7 after the deal (a seat not at a table of two), then
    `steps` (YAML, indented as the deal's steps)."""
    text = TINY.replace("  - {name: trump, type: suit}", "  - {name: trump, type: suit}\n"
                        "  - {name: chosen, type: seat, initial: 0}")
    text = text.replace("        - set: trump\n          to: last(hand[dealer]).suit",
                        "        - set: trump\n          to: last(hand[dealer]).suit\n"
                        "        - set: chosen\n          to: 7\n" + steps)
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("items", ["[chosen]", "[next_seat(dealer), chosen]"])
def test_a_decision_by_a_seat_bound_by_a_loop_over_any_values_is_checked_to_be_at_the_table(
        tmp_path: Path, items: str) -> None:
    # A round binds `player` to seats at the table, so a decision under it needs no check; a `for_each` may bind
    # any seat under the same name (a variable set to seat 7 at a table of two), and the decision it leads to must
    # still refuse a seat that is not there.
    path = _with_seat_seven(tmp_path, f"        - for_each: \"{items}\"\n          as: player\n          do:\n"
                                      "            - decide: player\n              options:\n"
                                      "                - choose: ready")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    if items.startswith("[next_seat"):  # the seat at the table decides first
        state.apply_chance()
        assert state.current_player == 1
        with pytest.raises(RulesetRuntimeError, match="p7 is not at the table: no seat decides") as raised:
            state.apply(state.legal_actions()[0])
    else:
        with pytest.raises(RulesetRuntimeError, match="p7 is not at the table: no seat decides") as raised:
            state.apply_chance()
    assert raised.value.where == "hand.phases[0].steps[4].do[0]"


def test_turns_from_a_seat_not_at_the_table_fail_at_the_first_turn(tmp_path: Path) -> None:
    # Each turn's `player` is a seat at the table, so the decisions under `turns` are not checked one by one: the
    # first seat, as given, is checked once, where the first turn is taken (the later ones go round the table).
    path = _with_seat_seven(tmp_path, "        - turns: chosen\n          until: tricks[0] > 0\n          do:\n"
                                      "            - decide: player\n              options:\n"
                                      "                - choose: ready")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    with pytest.raises(RulesetRuntimeError, match="p7 is not at the table: no seat takes the first turn") as raised:
        state.apply_chance()
    assert raised.value.where == "hand.phases[0].steps[4].turns"


def test_a_decision_under_a_round_is_made_by_each_seat_in_turn(tmp_path: Path) -> None:
    path = _variant(tmp_path, "        - set: trump\n          to: last(hand[dealer]).suit",
                    "        - set: trump\n          to: last(hand[dealer]).suit\n"
                    "        - round: next_seat(dealer)\n          do:\n"
                    "            - decide: player\n              options:\n                - choose: ready")
    state = load_ruleset(path).new_initial_state(seed=1, players=3)
    state.apply_chance()
    deciding = []
    while state.legal_actions() and state.legal_actions()[0].kind == "choose":
        deciding.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert deciding == [1, 2, 0]  # from the dealer's left (the first dealer is seat 0)


ALL_RULESETS = sorted((ROOT / "tests" / "games").glob("*.yaml")) + sorted((ROOT / "rulesets").glob("*.yaml"))


@pytest.mark.parametrize("path", ALL_RULESETS, ids=lambda path: path.stem)
def test_a_phase_s_own_scope_stays_empty_through_play(path: Path) -> None:
    # The generated code writes a phase's own scope (slot 0, an empty dict) as `{}` where it copies or extends
    # it: nothing may ever bind a name in it, whatever a game does.
    game = load_ruleset(path)
    rng = random.Random(5)
    for match in range(3):
        state = game.new_initial_state(seed=match)
        for _ in range(300):
            if state.is_terminal:
                break
            if state.current_player == CHANCE:
                state.apply_chance()
            else:
                state.apply(rng.choice(state.legal_actions()))
            assert state.locals[0] == {}


@pytest.mark.parametrize("path", ALL_RULESETS, ids=lambda path: path.stem)
def test_decisions_made_once_per_seat_are_shared_and_never_changed(path: Path) -> None:
    # A trick of a phase's own steps awaits each card with a decision made once per seat (and per number of
    # seats still to play), and so does a round of a phase's own steps with a `decide: player`, when the code is
    # built, shared by every state of the game (as are the rounds' scopes of one seat): no code may change their
    # bindings, and each such decision binds exactly the seat that decides.
    game = load_ruleset(path)
    namespace = game.code.segments[0].__globals__
    tables = {name: namespace[name] for name in namespace if name.startswith("AWAITED_")}
    assert bool(tables) == ("AWAITED_" in game.code.source)

    def entries() -> list[decisions.Pending]:
        return [entry for table in tables.values() for row in table
                for entry in (row if isinstance(row[0], tuple) else (row,))]

    scopes = namespace["SEAT_SCOPES"]
    assert scopes == tuple({"player": seat} for seat in range(len(scopes)))
    before = [dict(entry.bindings) for entry in entries()]
    shared = {id(entry) for entry in entries()}
    rng = random.Random(7)
    awaited = 0
    for match in range(3):
        state = game.new_initial_state(seed=match)
        for _ in range(400):
            if state.is_terminal:
                break
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            pending = state.pending
            assert pending is not None
            if id(pending) in shared:
                awaited += 1
                assert pending.bindings["player"] == pending.seat == state.current_player
            state.apply(rng.choice(state.legal_actions()))
    assert [dict(entry.bindings) for entry in entries()] == before
    assert scopes == tuple({"player": seat} for seat in range(len(scopes)))
    assert awaited > 0 or not tables


def test_rules_with_the_same_test_of_no_card_narrow_the_cards_together(tmp_path: Path) -> None:
    # Two rules that hold for every card on a lead, and otherwise each keep some cards: written as one pass over
    # the cards, they must keep exactly the cards that the rules, tested one by one, keep.
    path = _variant(tmp_path, f"            - rule: {FOLLOW}\n              reason: \"you must follow suit\"",
                    "            - rule: size(trick) == 0 or follows(card) or card.rank == A\n"
                    "              reason: \"follow suit, or play an ace\"\n"
                    "            - rule: size(trick) == 0 or card.rank > first(trick).rank or card.suit == S\n"
                    "              reason: \"beat the rank led, or play a spade\"")
    game = load_ruleset(path)
    rng = random.Random(2)
    compared = followed = 0
    for match in range(40):
        state = game.new_initial_state(seed=match, players=3)
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            pending = state.pending
            assert pending is not None and pending.finder is not None
            generated = pending.finder(state, pending)
            option = pending.options[0]
            kept = option.card_filter  # (without it, the general search tests the clauses one by one)
            object.__setattr__(option, "card_filter", None)
            try:
                searched = decisions.legal_actions(state, pending)
            finally:
                object.__setattr__(option, "card_filter", kept)
            assert list(decisions.as_dict(generated)) == list(decisions.as_dict(searched))
            compared += 1
            trick, hand = state.values["trick"], state.values["hand"][state.current_player]
            if trick and len(generated[0]) < len(hand):
                followed += 1
            if not generated[0]:  # (neither rule may leave a card: the match stops there)
                break
            state.apply(rng.choice(state.legal_actions()))
    assert compared > 100 and followed > 20  # (the rules kept fewer cards than the hand many times)


def test_a_decision_of_a_play_and_a_choice_moves_its_card_and_binds_the_choice_itself(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # (Scopa, SC-05 to SC-07: play a card to the table, or choose a capture; the card played is moved and the
    # capture's `with` and `taken` are bound by the decision's own code, never by the general movement)
    game = load_ruleset(ROOT / "tests" / "games" / "scopa.yaml")

    def general(*_: object) -> None:
        raise AssertionError("Cards.perform ran")

    monkeypatch.setattr(Cards, "perform", general)
    state = _play(game.new_initial_state(seed=4, players=2), seed=4)
    assert state.is_terminal
    taken = [event for event in state.events if event["type"] == "action"]
    assert any(" choose capture with " in event["action"] for event in taken)
    assert any(state.values["captured"][seat] for seat in range(2))


def test_a_choice_s_steps_read_the_deciding_seat_around_a_loop_that_binds_another(tmp_path: Path) -> None:
    # The choice's steps read `player` (the deciding seat) before and after a `for_each` that binds `player` to
    # each seat in turn: each reads its own.
    path = _variant(tmp_path, "    - name: play\n      steps:\n", "    - name: play\n      steps:\n"
                    "        - decide: dealer\n          options:\n            - choose: bump\n"
                    "              do:\n"
                    "                - {change: 'score[player]', by: 100}\n"
                    "                - for_each: seats()\n"
                    "                  do: [{change: 'score[player]', by: 1}]\n"
                    "                - {change: 'score[player]', by: 1000}\n"
                    "                - {log: '{player} bumped'}\n")
    state = load_ruleset(path).new_initial_state(seed=1, players=3)
    state.apply_chance()
    dealer = state.values["dealer"]
    state.apply(f"p{dealer} choose bump")
    assert state.values["score"] == [1101 if seat == dealer else 1 for seat in range(3)]
    assert [e["text"] for e in state.events if e["type"] == "log"][-1] == f"{dealer} bumped"


# Steps that read one value twice with nothing it reads changed between (a procedure putting chips in: `min(pay,
# ...)` for each of three steps) work it out once; a step that changes what it reads, or a transfer that debits
# it, makes the next read work it out again.
KNOWN = """        - set: first
          to: min(pay, score[dealer] + 10)
        - change: second
          by: min(pay, score[dealer] + 10)
        - if: size(trick) > 0
          then:
            - change: pay
              by: 100
        - change: third
          by: min(pay, score[dealer] + 10)
        - change: pay
          by: 1
        - change: fourth
          by: min(pay, score[dealer] + 10)
        - transfer: min(pay, score[dealer] + 10)
          from: score[dealer]
          to: fifth
        - change: sixth
          by: min(pay, score[dealer] + 10)"""


def test_a_value_read_again_is_worked_out_again_only_when_what_it_reads_changed(tmp_path: Path) -> None:
    path = _variant(tmp_path, "        - set: trump\n          to: last(hand[dealer]).suit",
                    "        - set: trump\n          to: last(hand[dealer]).suit\n" + KNOWN)
    path.write_text(path.read_text(encoding="utf-8").replace(
        "  - {name: trump, type: suit}", "  - {name: trump, type: suit}\n  - {name: pay, type: int, initial: 5}\n" +
        "".join(f"  - {{name: {name}, type: int, initial: 0}}\n" for name in
                ("first", "second", "third", "fourth", "fifth", "sixth"))), encoding="utf-8")
    game = load_ruleset(path)
    state = game.new_initial_state(seed=1, players=2)
    state.apply_chance()
    values = state.values
    # (pay 5: the first three read 5; pay 6: the fourth and the transfer 6, the dealer's score 0 - 6 = -6 after it,
    # so the sixth reads min(6, 4))
    assert [values[name] for name in ("first", "second", "third", "fourth", "fifth", "sixth")] == [5, 5, 5, 6, 6, 4]
    assert values["score"][values["dealer"]] == -6
    # (worked out where pay changed, where it may have, in the `if`, and after the debit: four times, not seven)
    assert game.code.source.count("(B_min(V['pay'], V['score'][V['dealer']] + 10))") == 4


def _with_steps(tmp_path: Path, variables: str, defines: str, steps: str) -> Path:
    """tiny.yaml with more variables (lines of the `variables` list), definitions and steps after its deal."""
    path = _variant(tmp_path, "        - set: trump\n          to: last(hand[dealer]).suit",
                    "        - set: trump\n          to: last(hand[dealer]).suit\n" + steps.rstrip("\n"))
    text = path.read_text(encoding="utf-8").replace(
        "  - {name: trump, type: suit}\n", "  - {name: trump, type: suit}\n" + variables).replace(
        "  follows(c): c.suit == led\n", "  follows(c): c.suit == led\n" + defines)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_count_worked_out_before_a_repeat_is_worked_out_again_in_its_passes(tmp_path: Path) -> None:
    # (the body reads the same code as the count, after a pass changed what it reads)
    path = _with_steps(tmp_path, "  - {name: k, type: int, initial: 0}\n  - {name: x, type: int, initial: 0}\n", "",
                       "        - repeat: k + 3\n          do:\n            - set: x\n              to: k + 3\n"
                       "            - change: k\n              by: 1\n")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    state.apply_chance()
    assert (state.values["k"], state.values["x"]) == (3, 5)  # (three passes: x is 3, 4, then 5)


NAMED = [
    # (a definition's code that another's code holds: the line's own expression is named)
    ("  g(p): tricks[p] + 1\n  f(p): 10 // tricks[p]\n",
     "        - for_each: seats()\n          do:\n            - set: x\n              to: g(player)\n"
     "            - set: x\n              to: f(player) + g(player)\n", "f", "hand.phases[0].steps[3].do[1].to"),
    ("  g(p): 1 + 20 // tricks[p]\n  f(p): 10 // tricks[p]\n",
     "        - for_each: seats()\n          do:\n            - if: size(trick) > 0\n              then:\n"
     "                - set: x\n                  to: g(player)\n            - set: x\n"
     "              to: f(player) + g(player)\n", "f", "hand.phases[0].steps[3].do[1].to"),
    # (two definitions with one body, in two steps: the one that ran)
    ("  ratio(p): 10 // tricks[p]\n  share(p): 10 // tricks[p]\n",
     "        - for_each: seats()\n          do:\n            - set: x\n              to: ratio(player) + 1\n"
     "            - set: x\n              to: share(player) + 1\n", "ratio", "hand.phases[0].steps[3].do[0].to"),
    # (a round's seat, which its steps read from the round's bindings)
    ("  f(p): 10 // tricks[p]\n", "        - round: dealer\n          do:\n            - set: x\n"
     "              to: f(player) + 1\n", "f", "hand.phases[0].steps[3].do[0].to"),
]


@pytest.mark.parametrize(("defines", "steps", "definition", "where"), NAMED)
def test_a_failing_definition_written_in_place_is_the_one_named(tmp_path: Path, defines: str, steps: str,
                                                                definition: str, where: str) -> None:
    path = _with_steps(tmp_path, "  - {name: x, type: int, initial: 0}\n", defines, steps)
    with pytest.raises(RulesetRuntimeError) as raised:
        load_ruleset(path).new_initial_state(seed=1, players=2).apply_chance()
    assert str(raised.value).startswith(f"division by zero (in definition `{definition}`)")
    assert raised.value.where == where


def test_a_list_not_set_yet_is_read_only_where_a_loop_reaches_it(tmp_path: Path) -> None:
    # (`mine` has no initial value; `g` goes over the trick, empty when it is asked: `mine` is never read)
    path = _with_steps(tmp_path, "  - {name: flag, type: bool, initial: false}\n  - {name: mine, type: 'list[card]'}\n",
                       "  same(h, c): any(x.suit == c.suit for x in h)\n  g(h): any(same(h, c) for c in trick)\n",
                       "        - set: flag\n          to: g(mine)\n")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    state.apply_chance()
    assert state.values["flag"] is False


def test_the_deal_goes_round_the_table_from_a_dealer_held_past_it(tmp_path: Path) -> None:
    # (a dealer set past the last seat: the deal starts from the seat after it round the table, as it always did)
    path = _variant(tmp_path, "        - shuffle: stock\n", "        - set: dealer\n          to: 3\n"
                    "        - shuffle: stock\n")
    state = load_ruleset(path).new_initial_state(seed=1, players=2)
    with pytest.raises(RulesetRuntimeError) as raised:
        state.apply_chance()
    assert raised.value.where == "hand.phases[0].steps[3].to"  # (the deal dealt; the trump's `hand[dealer]` fails)
