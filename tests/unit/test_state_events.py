"""`state.events` is a new list at each call: a caller that changes it (appends a note, cuts it, sorts it) does
not change what the state has recorded, which the log, the transcript and the table read."""

from __future__ import annotations

import random
from pathlib import Path

from interpreter import CHANCE, load_ruleset

BOURRE = Path(__file__).resolve().parents[2] / "rulesets" / "bourre.yaml"


def _played(meddle: bool) -> list[dict[str, object]]:
    state = load_ruleset(BOURRE).new_initial_state(seed=4, players=4)
    chooser = random.Random(4)
    for step in range(60):
        if meddle and step == 30:
            state.events.append({"type": "log", "text": "my note"})
            del state.events[:-5]
            state.events.sort(key=lambda event: str(event["type"]))
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(chooser.choice(state.legal_actions()))
    return state.events


def test_changing_the_list_of_events_changes_nothing_the_state_recorded() -> None:
    assert _played(meddle=True) == _played(meddle=False)


def test_the_events_since_a_place_and_their_count_agree_with_the_whole_list() -> None:
    state = load_ruleset(BOURRE).new_initial_state(seed=2, players=3)
    state.apply_chance()
    everything = state.events
    assert state.event_count == len(everything) > 2
    assert state.events_since(2) == everything[2:] and state.events_since(len(everything)) == []
    assert state.events is not state.events
