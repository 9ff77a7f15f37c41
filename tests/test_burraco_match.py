"""BU-48: a match of Burraco between heuristic bots, which meld what they can, reaches the target well within
the hand cap, from the command line as from Python."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import cli

BURRACO = str(Path(__file__).resolve().parent.parent / "rulesets" / "burraco.yaml")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_heuristic_bots_play_a_whole_match_to_the_target(seed: int) -> None:
    result = CliRunner().invoke(cli, ["play", BURRACO, "--seed", str(seed), "--json"])
    assert result.exit_code == 0, result.output
    match = json.loads(result.stdout)
    assert match["hands"] < 20  # the hand cap is 50
    assert max(match["returns"]) >= 2000
    assert match["returns"][0] == match["returns"][2] and match["returns"][1] == match["returns"][3]


def test_the_transcript_shows_melds_pozzetti_and_the_score() -> None:
    result = CliRunner().invoke(cli, ["play", BURRACO, "--seed", "1"])
    assert result.exit_code == 0
    assert " meld " in result.stdout and " add " in result.stdout and "takes a pozzetto" in result.stdout
    assert "Team 0 scores" in result.stdout and "Match over after" in result.stdout
    # BU-45: each hand's score with its parts, which add up to it
    for line in re.findall(r"Team \d scores .*", result.stdout):
        found = re.fullmatch(r"Team \d scores (-?\d+), total -?\d+ \(melds (-?\d+), burracos (-?\d+), closing "
                             r"(-?\d+), pozzetto not taken (-?\d+), cards in hand (-?\d+)\)", line)
        assert found is not None, line
        total, *parts = map(int, found.groups())
        assert total == sum(parts)


def test_the_pile_taken_is_named_and_hidden_in_the_hand_as_the_rest_of_it() -> None:
    # BU-14: the whole pile goes into the hand. Every seat saw it: the transcript names its cards; in the hand
    # they are hidden like the others (the card turned up at the deal, BU-08, stayed face up there, seen by all
    # until played, while the cards taken with it were not), and the pozzetto picked up is told (BU-37).
    from interpreter import CHANCE, load_ruleset
    from tests.play_helpers import random_choices

    game = load_ruleset(BURRACO)
    choose = random_choices(3)
    takes = 0
    for seed in range(6):
        state = game.new_initial_state(seed=seed, players=4)
        while not state.is_terminal and state.values["hand_number"] == 1:
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            pile = [state.card_text(card) for card in state.values["discard"]]
            action = choose(state)
            state.apply(action)
            if action.kind == "take":
                takes += 1
                said = [event["text"] for event in state.events if event["type"] == "log"]
                assert f"p{action.seat} takes the discard pile: {' '.join(pile)}" in said
                other = state.observation((action.seat + 1) % 4)["zones"]["hand"][action.seat]
                assert not other.get("face_up"), other
    assert takes >= 5
    result = CliRunner().invoke(cli, ["play", BURRACO, "--seed", "1"])
    assert re.search(r"p\d picks up the pozzetto", result.stdout)
