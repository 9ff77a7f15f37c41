"""The heuristic bot plays every test game to its end: trick games, a rummy, a shedding game (where it once drew
for ever, since a player may draw instead of playing)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import CHANCE, State, load_ruleset
from interpreter.actions import Action
from interpreter.agents.heuristic import HeuristicAgent, redeal_unseen
from tests.play_helpers import play_out

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "tests" / "games").glob("*.yaml"))
MAX_ACTIONS = 20_000


@pytest.mark.parametrize("path", GAMES, ids=[path.stem for path in GAMES])
def test_heuristic_bots_finish_a_match(path: Path) -> None:
    game = load_ruleset(path)
    state = play_out(game.new_initial_state(seed=3), HeuristicAgent(3).choose, MAX_ACTIONS)
    assert state.is_terminal, f"no end after {MAX_ACTIONS} actions"
    assert state.ended_by != "hand_cap"


def test_a_redeal_leaves_secret_choices_naming_cards_their_seat_holds() -> None:
    """In a simultaneous round (Cribbage's lay-away, where each seat puts two cards in the crib unseen), a copy
    dealt again for one seat's playouts must not keep the other seat's secret choice of cards it no longer
    holds: the choice names cards drawn from its new hand, and the copy plays on."""
    game = load_ruleset(ROOT / "tests" / "games" / "cribbage.yaml")
    state = game.new_initial_state(seed=3)
    while state.current_player == CHANCE:
        state.apply_chance()
    first = state.current_player
    state.apply(state.legal_actions()[0])  # the first seat lays away in secret
    seat = state.current_player
    assert seat != first and state.open_rounds
    for draw in range(30):
        trial = redeal_unseen(state, seat, random.Random(draw))
        (_option, secret, bindings, _decision), = trial.locals[trial.open_rounds[-1]]
        (_, pair), = secret.arguments
        assert all(pair.count(card) <= trial.values["hand"][first].count(card) for card in pair)
        assert bindings["pair"] == list(pair)
        trial.apply(trial.legal_actions()[0])  # the round's effects happen: both pairs go to the crib
        assert len(trial.values["crib"]) == 4


def test_in_a_rummy_the_bot_draws_the_open_discard_that_makes_a_meld() -> None:
    # Gin Rummy (pagat: Play): draw the top of the stock or of the discard pile. The bot takes the discard when it
    # makes a new meld with its hand, and draws from the stock, unseen, otherwise.
    game = load_ruleset(ROOT / "tests" / "games" / "gin_rummy.yaml")
    rules = game.meld_rules
    assert rules is not None
    bot, seen = HeuristicAgent(5), {True: 0, False: 0}

    def checked(state: State) -> Action:
        chosen = bot.choose(state)
        names = {action.name for action in state.legal_actions() if action.kind == "draw"}
        if names == {"stock", "discard"}:
            hand = list(state.values["hand"][state.current_player])
            helps = rules.can_meld([*hand, state.values["discard"][-1]], []) and not rules.can_meld(hand, [])
            assert chosen.name == ("discard" if helps else "stock"), (hand, state.values["discard"][-1])
            seen[helps] += 1
        return chosen

    play_out(game.new_initial_state(seed=5), checked, 3_000)
    assert seen[True] > 0 and seen[False] > 0, seen
