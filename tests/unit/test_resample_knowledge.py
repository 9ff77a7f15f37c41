"""What a seat knows of the cards it cannot see (engine/resample.py): the shortcut for events that teach it nothing
gives what the general reckoning gives, and the zones' differences are the cards each lost and gained."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter import CHANCE, load_ruleset
from interpreter.engine import resample
from tests.play_helpers import game_from_text

ROOT = Path(__file__).resolve().parent.parent.parent
RULESETS = [ROOT / "rulesets" / "bourre.yaml", ROOT / "rulesets" / "burraco.yaml",
            ROOT / "tests" / "games" / "hearts.yaml", ROOT / "tests" / "games" / "canasta.yaml",
            ROOT / "tests" / "games" / "skat.yaml"]


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_an_event_that_teaches_nothing_is_reckoned_alike_in_full(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every event the shortcut answers (`_nothing_learned`: forget the zones it changed) is also reckoned in
    full, on a copy of what the seat knew: the two agree. Random play, every seat following the match."""
    shortcut = resample._nothing_learned
    answered, differing = [], []

    def checked(changed: Any, lost: Any, gained: Any, before: Any, after: Any, known: Any, named: Any) -> bool:
        if not shortcut(changed, lost, gained, before, after, known, named):
            return False
        reckoned = {key: Counter(cards) for key, cards in known.items()}
        resample._reckon(reckoned, changed, lost, gained, before, after, Counter(named))
        expected = {key: cards for key, cards in known.items() if key not in changed}
        if reckoned != expected:  # (kept, not raised here: the follower takes a failure for a match it cannot follow)
            differing.append((changed, reckoned, expected))
        answered.append(changed)
        return True

    monkeypatch.setattr(resample, "_nothing_learned", checked)
    game = load_ruleset(path)
    knowing = 0
    for seed in range(2):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        for step in range(240):
            if state.is_terminal:
                break
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            if step % 4 == 0:
                knowing += sum(bool(resample.knowledge(state, seat)) for seat in range(state.player_count))
            state.apply(rng.choice(state.legal_actions()))
    assert not differing
    assert len(answered) > 50  # (the shortcut is taken)
    assert knowing > 0  # (and the seats know something of the cards they cannot see)


cards = st.lists(st.integers(0, 6), max_size=8)


@given(cards, cards, st.integers(0, 3))
def test_a_zones_difference_is_the_cards_it_lost_and_gained(before: list[int], after: list[int], shape: int) -> None:
    if shape == 1:
        after = before + after  # cards put on top
    elif shape == 2:
        after = before[:len(after)]  # cards taken off the top
    elif shape == 3 and before:
        after = before[:]
        del after[len(after) // 2]  # one card taken from the middle
    lost, gained = resample._difference(before, after)
    assert (lost, gained) == (Counter(before) - Counter(after), Counter(after) - Counter(before))


def test_the_zones_a_seat_sees_are_worked_out_again_when_the_teams_change(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hands seen by a seat's team, and a team formed after the deal (as `form_team` forms Burraco's BU-52 pair):
    what p0 sees of p1's hand changes, so the snapshot kept per follower (`sight`) must be the snapshot made
    afresh after every event."""
    snapshot = resample._snapshot
    made, differing, sights = [0], [], set()

    def checked(state: Any, seat: int, sight: list[Any]) -> Any:
        kept, fresh = snapshot(state, seat, sight), snapshot(state, seat, [None, {}])
        made[0] += 1
        sights.add((seat, tuple(sorted(fresh[1].items()))))
        if kept != fresh:
            differing.append((seat, kept[1], fresh[1]))
        return kept

    monkeypatch.setattr(resample, "_snapshot", checked)
    text = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
    text = text.replace("{name: hand, owner: seat, visibility: owner}", "{name: hand, owner: seat, visibility: team}")
    text = text.replace("        - set: trump\n", "        - form_team: \"[0, 1]\"\n        - set: trump\n", 1)
    game = game_from_text(tmp_path, text)
    state = game.new_initial_state(seed=1, players=3)
    rng = random.Random(1)
    for _ in range(6):
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(rng.choice(state.legal_actions()))
        for seat in range(3):
            resample.knowledge(state, seat)
    assert not differing and made[0] > 10
    assert len({entry for entry in sights if entry[0] == 0}) > 1  # (p0 saw p1's hand only once the team formed)
