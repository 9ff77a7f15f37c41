"""The OpenSpiel game: OpenSpiel's own random-simulation test for every ruleset, shuffles as chance nodes, the
action ids shared with the PettingZoo environment, information states, and IS-MCTS playing a hand of Bourré."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install 'ruledeck[openspiel]'")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from interpreter.interop.catalogue import ActionCatalogue
from interpreter.interop.openspiel import RuledeckGame, RuledeckState, load_game, resample
from tests.interop.quick_matches import quick_game, relative_name, ruleset_files, smallest_table

BOURRE = "rulesets/bourre.yaml"


def quick_openspiel_game(path: Path) -> RuledeckGame:
    game = quick_game(path)
    params = {name: value for name, value in game.ruleset.parameter_values.items()
              if value != game.ruleset.parameters[name].default}
    return load_game(str(path), params, smallest_table(game))


@pytest.mark.parametrize("path", ruleset_files(), ids=relative_name)
def test_every_ruleset_passes_the_random_simulation_test(path: Path) -> None:
    pyspiel.random_sim_test(quick_openspiel_game(path), num_sims=1, serialize=False, verbose=False)


def test_a_shuffle_is_one_chance_node_per_card_with_the_odds_of_the_cards_left() -> None:
    game = load_game(BOURRE, {"hands": 1}, 3)
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52 and all(probability == pytest.approx(1 / 52) for _, probability in outcomes)
    chosen = []
    while state.is_chance_node():
        card = state.chance_outcomes()[-1][0]
        chosen.append(card)
        state.apply_action(card)
    assert len(chosen) == 52 and len(set(chosen)) == 52
    (shuffle,) = [event for event in state.engine_state.events if event["type"] == "chance"]  # (after the antes)
    deck = state.engine_state.game.deck
    assert shuffle["order"] == [deck.card_text(card) for card in chosen]


def test_action_ids_are_the_catalogue_ids() -> None:
    game = load_game(BOURRE, {"hands": 1}, 3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    catalogue = ActionCatalogue(state.engine_state.game)
    assert game.num_distinct_actions() == catalogue.size
    legal = state.legal_actions()
    assert legal == sorted(catalogue.fixed_id(action) for action in state.engine_state.legal_actions())
    for action_id in legal:
        assert state.action_to_string(state.current_player(), action_id).endswith(catalogue.describe(action_id))


def test_the_slots_of_actions_without_a_fixed_id_are_the_caller_s_to_set() -> None:
    """As PettingZoo's `env(..., slots=N)`: a rummy's decision may offer more melds than the default slots."""
    default, wider = load_game(BOURRE), load_game(BOURRE, slots=4096)
    assert wider.num_distinct_actions() == default.num_distinct_actions() + 4096 - 2048
    assert ActionCatalogue(wider.shared.engine, slots=4096).size == wider.num_distinct_actions()
    with pytest.raises(ValueError, match="`slots` is a number of ids, at least 1"):
        load_game(BOURRE, slots=0)


def test_the_information_state_shows_what_the_seat_may_see() -> None:
    game = load_game(BOURRE, {"hands": 1}, 3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    text = state.information_state_string(seat)
    view = json.loads(text.splitlines()[0])
    assert view == state.engine_state.observation(seat)
    other = (seat + 1) % 3
    assert "cards" not in view["zones"]["hand"][other]
    tensor = np.asarray(state.information_state_tensor(seat))
    assert tensor.shape == (game.information_state_tensor_size(),) and tensor.any()


def test_a_resampled_state_looks_the_same_to_the_seat() -> None:
    game = load_game(BOURRE, {"hands": 1}, 4)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    other = resample(state, seat, random.Random(3))
    assert isinstance(other, RuledeckState)
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert other.legal_actions() == state.legal_actions()
    hands = [state.engine_state.observation(s)["zones"]["hand"][s]["cards"] for s in range(4)]
    redealt = [other.engine_state.observation(s)["zones"]["hand"][s]["cards"] for s in range(4)]
    assert redealt[seat] == hands[seat] and redealt != hands
    with pytest.raises(ValueError, match="not in the middle of a shuffle"):
        resample(game.new_initial_state(), 0, random.Random(3))


def test_ismcts_plays_a_hand_of_bourre() -> None:
    game = load_game(BOURRE, {"hands": 1}, 3)
    rng = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=20,
                           random_state=rng)
    bot.set_resampler(lambda state, player: resample(state, player, random.Random(int(rng.randint(2**31)))))
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(cards, p=probabilities)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert searched >= 2
    assert len(state.returns()) == 3 and state.engine_state.hand_results
