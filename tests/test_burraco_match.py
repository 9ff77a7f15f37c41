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
