"""The public API given what it does not take: each is refused with the documented exceptions (ActionSyntaxError,
IllegalActionError, or a ValueError or TypeError naming the argument), never a bare error from inside the engine,
and the state is left as it was."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from interpreter import CHANCE, Action, State, load_ruleset
from interpreter.actions import ActionSyntaxError
from interpreter.engine.errors import IllegalActionError
from interpreter.errors import ParameterError

ROOT = Path(__file__).resolve().parents[2]
BOURRE = ROOT / "rulesets" / "bourre.yaml"


def _at_first_decision() -> State:
    state = load_ruleset(BOURRE).new_initial_state(seed=0, players=4)
    while state.current_player == CHANCE:
        state.apply_chance()
    return state


@pytest.mark.parametrize("given", [None, 0, 1.5, b"p1 choose pass", ["p1", "choose", "pass"], {"seat": 1}])
def test_an_action_that_is_neither_an_action_nor_its_text_is_refused(given: Any) -> None:
    state = _at_first_decision()
    before = state.observation(0)
    with pytest.raises(ActionSyntaxError, match="an action is an Action or its text"):
        state.apply(given)
    with pytest.raises(ActionSyntaxError):
        state.check(given)
    assert state.is_legal(given) is False and state.observation(0) == before


@pytest.mark.parametrize(("ruleset", "text", "message"), [
    ("bourre.yaml", "p1 plya 5H", "unknown action kind 'plya' (did you mean `play`?); this game has play, choose, "
                                  "discard"),
    ("burraco.yaml", "p1 plya 5H", "unknown action kind 'plya'; this game has discard, draw, take, meld, add"),
    ("burraco.yaml", "p1 dicsard 5H", "unknown action kind 'dicsard' (did you mean `discard`?); this game has "),
])
def test_a_misspelt_kind_of_action_is_told_the_kinds_of_the_game(ruleset: str, text: str, message: str) -> None:
    state = load_ruleset(ROOT / "rulesets" / ruleset).new_initial_state(seed=0, players=4)
    while state.current_player == CHANCE:
        state.apply_chance()
    with pytest.raises(ActionSyntaxError) as raised:
        state.apply(text)
    assert message in str(raised.value)


def test_an_action_naming_a_card_the_deck_does_not_have_is_refused() -> None:
    state = _at_first_decision()
    for given in (Action(state.current_player, "play", card=99), Action(state.current_player, "play", card=-5),
                  Action(state.current_player, "meld", cards=(1, 2, 300))):
        with pytest.raises(ActionSyntaxError, match="names a card this deck does not have"):
            state.apply(given)
        assert state.is_legal(given) is False


def _burraco_after_the_take() -> tuple[State, Action]:
    """p1 at the melds after taking the discard pile (seed 3), with a meld of a wild offered: `6D 6C 2S=6`."""
    state = load_ruleset(ROOT / "rulesets" / "burraco.yaml").new_initial_state(seed=3, players=4)
    while state.current_player == CHANCE:
        state.apply_chance()
    state.apply("p1 take discard")
    meld = next(action for action in state.legal_actions() if action.kind == "meld" and any(action.roles))
    return state, meld


@pytest.mark.parametrize(("change", "message"), [
    ({"roles": ()}, "its roles are not one text per card"),  # (a meld made by hand without what its wild stands for)
    ({"arguments": (("melds", (5,)),)}, r"its melds' sizes \(5,\) do not share out its 3 cards"),
    ({"seat": "1"}, "its seat is '1', not a seat's number"),
    ({"kind": None}, "its kind is None, not one of play, choose"),
    ({"cards": None}, "names a card this deck does not have"),
    ({"arguments": None}, "its arguments are None, not"),
    ({"target": "m0"}, "its target is 'm0', not a meld's number"),
])
def test_an_action_made_by_hand_with_fields_of_another_shape_is_no_action(change: dict[str, Any],
                                                                         message: str) -> None:
    state, meld = _burraco_after_the_take()
    given = meld._replace(**change)
    before = state.observation(1)
    for attempt in (state.apply, state.check):
        with pytest.raises(ActionSyntaxError, match=message):
            attempt(given)
    assert state.is_legal(given) is False and state.observation(1) == before
    assert state.is_legal(meld)  # (the action as the engine made it)


def test_the_text_of_an_action_of_another_deck_or_shape_is_refused_by_name() -> None:
    state, meld = _burraco_after_the_take()
    with pytest.raises(ActionSyntaxError, match="its roles are not one text per card"):
        state.action_text(meld._replace(roles=()))
    tiny = load_ruleset(ROOT / "tests" / "games" / "tiny.yaml").new_initial_state(seed=1)
    tiny.apply_chance()
    for card in (100, 1.0):  # (a card of Burraco's 108, a number that is no card)
        with pytest.raises(ActionSyntaxError, match="names a card this deck does not have"):
            tiny.action_text(Action(tiny.current_player, "play", card=card))  # type: ignore[arg-type]
    legal = tiny.legal_actions()[0]
    for change, message in (({"seat": "1"}, "its seat is '1', not a seat's number"),
                            ({"seat": True}, "its seat is True, not a seat's number"),
                            ({"kind": b"play"}, "its kind is b'play', not one of")):
        with pytest.raises(ActionSyntaxError, match=message):  # (not written out as `p1 play ...` or `p1 b'play'`)
            tiny.action_text(legal._replace(**change))


@pytest.mark.parametrize("params", [{1: 2}, {None: 1}, "hands=3", [("hands", 3)], 5])
def test_parameters_that_are_no_mapping_of_names_are_refused(params: Any) -> None:
    with pytest.raises(ParameterError, match="the parameters are a mapping of their names to values"):
        load_ruleset(BOURRE, params)


@pytest.mark.parametrize("path", [None, 5, b"bourre"])
def test_a_ruleset_that_is_neither_a_path_nor_a_name_is_refused(path: Any) -> None:
    with pytest.raises(TypeError, match="a ruleset is a file's path or a bundled ruleset's name"):
        load_ruleset(path)


def test_an_argument_given_twice_is_no_action() -> None:
    """`discard 9 discard 0` was taken as `discard 0` and logged as written, naming a discard of 9."""
    state = _at_first_decision()
    seat = state.current_player
    with pytest.raises(ActionSyntaxError, match="the argument `discard` is given twice"):
        state.apply(f"p{seat} choose play discard 9 discard 0")
    assert state.is_legal(f"p{seat} choose play discard 0")


@pytest.mark.parametrize("order", ["ZZ", 3, True, "AS", "False", "1.0", "p0"])
def test_a_stacked_order_of_other_than_cards_is_refused(order: Any) -> None:
    state = load_ruleset(BOURRE).new_initial_state(seed=0, players=4)
    cards = list(state.chance_event()["contents"])  # type: ignore[index]
    given: Any = {"ZZ": [*cards[:-1], "ZZ"], "False": [False, *range(1, 52)], "1.0": [1.0, 0, *range(2, 52)],
                  "p0": ["p0", *cards[1:]]}.get(str(order), order)
    with pytest.raises(IllegalActionError):
        state.apply_chance(given)
    assert state.current_player == CHANCE and state.chance_event()["contents"] == cards  # type: ignore[index]
    state.apply_chance(cards)
    assert state.current_player != CHANCE


@pytest.mark.parametrize("seat", [-1, 4, 99, None, "0", 1.0, True])
def test_a_seat_that_is_not_at_the_table_is_refused(seat: Any) -> None:
    state = _at_first_decision()
    with pytest.raises(ValueError, match="the seats are 0 to 3"):
        state.observation(seat)
    with pytest.raises(ValueError, match="the seats are 0 to 3"):
        state.resample(seat, random.Random(1))


def test_a_deal_needs_a_generator_and_a_table_a_whole_number_of_seats() -> None:
    state = _at_first_decision()
    with pytest.raises(TypeError, match=r"random\.Random"):
        state.resample(0, None)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match=r"for 2 to 8 players, not 4\.0"):
        load_ruleset(BOURRE).new_initial_state(players=4.0)  # type: ignore[arg-type]


def test_an_action_is_recorded_as_the_legal_set_writes_it_or_refused() -> None:
    """Arguments in another order name the legal choice (and it is recorded as written there); an Action with a
    field its kind does not have (a name on a card played) is no action of the legal set, and is refused."""
    bridge = load_ruleset(ROOT / "tests" / "games" / "bridge.yaml").new_initial_state(seed=1)
    while bridge.current_player == CHANCE:
        bridge.apply_chance()
    bid = next(action for action in bridge.legal_actions() if len(action.arguments) == 2)
    (first, first_value), (second, second_value) = bid.arguments
    reordered = Action(bid.seat, "choose", name=bid.name, arguments=((second, second_value), (first, first_value)))
    for given in (reordered, bridge.action_text(reordered)):
        trial = bridge.clone()
        trial.apply(given)
        assert trial.history[-1] == bid and trial.events[-1]["action"] == bridge.action_text(bid)
    state = _at_first_decision()
    while state.legal_actions()[0].kind != "play":
        state.apply(state.legal_actions()[-1])
        while state.current_player == CHANCE:
            state.apply_chance()
    card = state.legal_actions()[0]
    stray = Action(card.seat, "play", card=card.card, name="anything")
    with pytest.raises(IllegalActionError, match="is not an action of the legal set"):
        state.apply(stray)
    assert state.is_legal(stray) is False and state.is_legal(card)


CHOICES = """\
format: 1
name: Choices forbidden now
players: {min: 2, max: 2}
deck: {ranks: [2, 3, 4], suits: [S, H]}
zones:
  - {name: stock}
  - {name: hand, owner: seat}
variables:
  - {name: x, type: int, initial: 0}
hand:
  start: main
  phases:
    - name: main
      steps:
        - shuffle: stock
        - deal: 2
          from: stock
          to: hand
        - decide: dealer
          options:
            - choose: close
              legal:
                - rule: size(stock) == 0
                  reason: the stock must be empty to close
            - choose: go_on
      next: end
match:
  hands: 1
  result: x
"""


def test_an_action_of_a_kind_not_offered_is_told_the_choices_allowed_now(tmp_path: Path) -> None:
    # (a choice the rules forbid now is not offered: `choose close` was listed with the stock still full)
    path = tmp_path / "choices.yaml"
    path.write_text(CHOICES, encoding="utf-8")
    state = load_ruleset(path).new_initial_state(seed=1)
    state.apply_chance()
    with pytest.raises(IllegalActionError) as raised:
        state.apply("p0 play 2S")
    assert str(raised.value) == "p0 cannot play now; the choices are: choose go_on"


def test_a_state_or_game_is_not_pickled_and_the_error_says_what_to_send_instead() -> None:
    import pickle

    state = _at_first_decision()
    with pytest.raises(TypeError, match=r"a State cannot be pickled .*the seed and `state.history`"):
        pickle.dumps(state)
    with pytest.raises(TypeError, match=r"a Game cannot be pickled .*send the ruleset's path and its parameters"):
        pickle.dumps(state.game)


def test_copy_and_deepcopy_of_a_state_are_clones_that_leave_it_unchanged() -> None:
    import copy

    for made in (copy.copy, copy.deepcopy):
        state = _at_first_decision()
        before = (state.current_player, list(state.history), state.events)
        other = made(state)
        assert other is not state and other.game is state.game
        other.apply(other.legal_actions()[0])
        assert (state.current_player, list(state.history), state.events) == before


def test_the_names_the_readme_uses_are_at_the_packages_top() -> None:
    import interpreter

    assert interpreter.ActionSyntaxError is ActionSyntaxError
    bot = interpreter.make_agent("heuristic")  # (no seed: seeded from the system)
    state = _at_first_decision()
    assert bot.choose(state) in state.legal_actions()


def test_a_number_of_players_that_is_no_number_is_named_so() -> None:
    game = load_ruleset(BOURRE)
    with pytest.raises(IllegalActionError, match=r"players is a number of seats, an int: not '4' \(Bourré is for"):
        game.new_initial_state(seed=1, players="4")  # type: ignore[arg-type]


def test_a_state_is_made_again_elsewhere_from_its_seed_and_history_as_the_readme_says() -> None:
    state = load_ruleset(BOURRE).new_initial_state(seed=9, players=4)
    chooser = random.Random(9)
    for _ in range(40):
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(chooser.choice(state.legal_actions()))
    sent = (str(BOURRE), {}, 4, 9, [state.action_text(action) for action in state.history])
    path, params, players, seed, texts = sent
    again = load_ruleset(path, params).new_initial_state(seed=seed, players=players)
    for text in texts:
        while again.current_player == CHANCE:
            again.apply_chance()
        again.apply(text)
    while again.current_player == CHANCE and again.event_count < state.event_count:
        again.apply_chance()
    assert again.events == state.events and again.observation(0) == state.observation(0)


@pytest.mark.parametrize("seed", ["abc", 1.5, True])
def test_a_seed_that_is_no_whole_number_is_refused(seed: Any) -> None:
    # (a match is played again from its seed: "abc" and 1.5 were taken, and hashed, without a word)
    game = load_ruleset(ROOT / "tests" / "games" / "tiny.yaml")
    with pytest.raises(TypeError, match=r"seed is an int, or None for one drawn at random, not "):
        game.new_initial_state(seed=seed)


def test_a_seed_of_another_integer_type_is_that_number() -> None:
    class Whole:  # (numpy's integers are such: an __index__, no int)
        def __index__(self) -> int:
            return 7

    game = load_ruleset(ROOT / "tests" / "games" / "tiny.yaml")
    assert game.new_initial_state(seed=Whole()).seed == 7  # type: ignore[arg-type]


def test_the_text_of_what_is_no_action_is_a_type_error_saying_so() -> None:
    state = load_ruleset(ROOT / "tests" / "games" / "tiny.yaml").new_initial_state(seed=1)
    for given in (None, "p1 choose pass"):
        with pytest.raises(TypeError, match=r"action_text takes an Action \(from legal_actions\(\) or parse_action"):
            state.action_text(given)  # type: ignore[arg-type]
