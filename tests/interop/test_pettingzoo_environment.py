"""The PettingZoo environment: PettingZoo's own API and seed tests for every ruleset, the action mask, the stable
ids, rewards that add up to the match results, and the end of a match."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install 'ruledeck[pettingzoo]'")

import numpy as np
from pettingzoo.test import api_test, seed_test

from interpreter.interop.pettingzoo import RuledeckEnvironment, env
from tests.interop.quick_matches import quick_game, relative_name, ruleset_files, smallest_table

BOURRE = "rulesets/bourre.yaml"


def quick_environment(path: Path) -> RuledeckEnvironment:
    game = quick_game(path)
    return RuledeckEnvironment(game, players=smallest_table(game))


# (api_test warns that an observation is a dict rather than an array: a dict with an action mask is PettingZoo's
# own convention for card games)
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
@pytest.mark.parametrize("path", ruleset_files(), ids=relative_name)
def test_every_ruleset_passes_the_api_and_seed_tests(path: Path) -> None:
    api_test(quick_environment(path), num_cycles=20)
    seed_test(lambda: quick_environment(path), num_cycles=20)


def play_match(table: RuledeckEnvironment, seed: int) -> dict[str, float]:
    """A whole match with random legal actions; each agent's rewards added up."""
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, _info = table.last()
        totals[agent] += reward
        if termination or truncation:
            table.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        table.step(int(rng.choice(legal)))
    return totals


def test_rewards_add_up_to_the_match_results() -> None:
    table = env(BOURRE, params={"hands": 2}, players=4)
    totals = play_match(table, seed=3)
    assert table.state is not None and table.state.is_terminal
    assert [totals[agent] for agent in table.possible_agents] == [float(r) for r in table.state.returns()]
    assert any(total != 0 for total in totals.values())
    assert table.agents == []


def test_the_mask_marks_exactly_the_legal_actions_of_the_seat_to_act() -> None:
    table = env(BOURRE, params={"hands": 1}, players=4)
    table.reset(seed=5)
    state = table.state
    assert state is not None
    acting = table.agent_selection
    mask = table.observe(acting)["action_mask"]
    legal = {table.catalogue.fixed_id(action) for action in state.legal_actions()}
    assert set(np.flatnonzero(mask).tolist()) == legal
    others = [agent for agent in table.possible_agents if agent != acting]
    assert all(not table.observe(agent)["action_mask"].any() for agent in others)


def test_card_ids_are_the_same_in_every_match_and_name_their_action() -> None:
    first = env(BOURRE, params={"hands": 1}, players=3)
    second = env(BOURRE, params={"hands": 1}, players=5)
    ace_of_hearts = first.game.deck.parse_card("AH")
    assert first.catalogue.describe(ace_of_hearts) == "play AH"
    assert second.catalogue.describe(ace_of_hearts) == "play AH"
    block = first.catalogue.choices[("play", ("discard",))]
    assert first.catalogue.describe(block.start + 3) == "choose play discard 3"
    first.reset(seed=1)
    for action_id in first.legal:
        assert first.action_text(action_id).removeprefix(f"{first.agent_selection.replace('player_', 'p')} ") == \
            first.catalogue.describe(action_id)


def test_an_illegal_id_is_refused_naming_the_legal_ones() -> None:
    table = env(BOURRE, params={"hands": 1}, players=4)
    table.reset(seed=2)
    illegal = next(action_id for action_id in range(table.catalogue.size) if action_id not in table.legal)
    with pytest.raises(ValueError, match="is not legal now"):
        table.step(illegal)


def test_the_observation_shows_the_own_hand_but_not_the_others() -> None:
    table = env(BOURRE, params={"hands": 1}, players=4)
    table.reset(seed=4)
    state = table.state
    assert state is not None
    encoder = table.encoder
    hands = state.observation(0)["zones"]["hand"]
    own = table.observe("player_0")["observation"]
    start = encoder.starts["zone hand[0]"]
    held = [table.game.deck.parse_card(text) for text in hands[0]["cards"]]
    assert sorted(np.flatnonzero(own[start:start + encoder.card_count]).tolist()) == sorted(held)
    other = encoder.starts["zone hand[1]"]
    assert not own[other:other + encoder.card_count].any()
    assert own[other + encoder.card_count] == len(state.observation(1)["zones"]["hand"][1]["cards"])


def test_the_same_seed_gives_the_same_match() -> None:
    first = play_match(env(BOURRE, params={"hands": 2}, players=3), seed=11)
    second = play_match(env(BOURRE, params={"hands": 2}, players=3), seed=11)
    assert first == second


def test_render_as_text() -> None:
    table = env(BOURRE, params={"hands": 1}, players=3, render_mode="ansi")
    table.reset(seed=1)
    table.step(next(iter(table.legal)))
    text = table.render()
    assert text is not None and "to play: player_" in text
