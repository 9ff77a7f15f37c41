"""A meld's fields in expressions (docs/ruleset-format.md, melds): `m.cards` is a list like every list of cards,
so it joins with another list and compares with one (it was a tuple: `m.cards + [card]` failed at run time)."""

from __future__ import annotations

import random
from pathlib import Path

from interpreter import CHANCE, load_ruleset
from tests.play_helpers import game_from_text

RUMMY_500 = Path(__file__).resolve().parents[2] / "tests" / "games" / "rummy500.yaml"
CLAUSE = """                        - rule: >-
                            size(meld.cards + cards) == size(after.cards)
                            and sort(after.cards) == sort(meld.cards + cards)
                          reason: "an addition keeps the meld's cards and adds the card"
"""


def test_a_melds_cards_join_and_compare_as_a_list(tmp_path: Path) -> None:
    text = RUMMY_500.read_text(encoding="utf-8")
    anchor = "                    - add: hand\n                      to: melds\n                      legal:\n"
    assert text.count(anchor) == 1
    plain, joined = load_ruleset(RUMMY_500), game_from_text(tmp_path, text.replace(anchor, anchor + CLAUSE))
    additions = 0
    for seed in range(6):
        states = [game.new_initial_state(seed=seed, players=2) for game in (plain, joined)]
        rng = random.Random(seed)
        while not states[0].is_terminal and additions < 8:
            if states[0].current_player == CHANCE:
                for state in states:
                    state.apply_chance()
                continue
            legal = [state.legal_actions() for state in states]
            assert legal[0] == legal[1]  # (the clause holds for every addition: the meld and the card, joined)
            additions += sum(1 for action in legal[0] if action.kind == "add")
            action = rng.choice(legal[0])
            for state in states:
                state.apply(action)
    assert additions >= 8  # (the clause was evaluated on real additions)
