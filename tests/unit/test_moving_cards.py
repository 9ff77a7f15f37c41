"""Cards moved from the top of a zone, several at once (`move: N`, a draw of replacements), land as if taken
one at a time: the top card first, each keeping its face unless the step says, under the target's cards with
`at: bottom`. The engine moves face-down cards between two zones in C; this checks it against the one-at-a-time
rule for zones with and without face-up cards, and a zone moved onto itself."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from interpreter.engine.cardmoves import Cards
from interpreter.engine.zones import FaceUp, ZoneKey


class _State:
    def __init__(self, face_up: dict[ZoneKey, list[int]]) -> None:
        self.face_up = FaceUp({key: list(cards) for key, cards in face_up.items()})


def _one_at_a_time(state: Any, source_key: ZoneKey, source: list[int], target_key: ZoneKey, target: list[int],
                   face: str | None, at_bottom: bool, count: int) -> int:
    moved = 0
    while moved < count and source:
        card = source.pop()
        was_up = state.face_up.take(source_key, card)
        if at_bottom:
            target.insert(0, card)
        else:
            target.append(card)
        if face == "up" or (was_up and face != "down"):
            state.face_up.add(target_key, card)
        moved += 1
    return moved


@given(source=st.lists(st.integers(0, 9), max_size=6), target=st.lists(st.integers(0, 9), max_size=4),
       up_in_source=st.lists(st.integers(0, 5), max_size=2), up_in_target=st.booleans(), same_zone=st.booleans(),
       face=st.sampled_from([None, "up", "down"]), at_bottom=st.booleans(), count=st.integers(-1, 7))
def test_cards_from_the_top_land_as_if_moved_one_at_a_time(
        source: list[int], target: list[int], up_in_source: list[int], up_in_target: bool, same_zone: bool,
        face: str | None, at_bottom: bool, count: int) -> None:
    source_key: ZoneKey = ("stock", -1)
    target_key: ZoneKey = source_key if same_zone else ("hand", 0)
    face_up: dict[ZoneKey, list[int]] = {}
    if source and up_in_source:  # (some of the source's cards face up, by their places)
        face_up[source_key] = [source[index % len(source)] for index in up_in_source]
    if target and up_in_target and not same_zone:
        face_up[target_key] = [target[0]]
    expected_state, state = _State(face_up), _State(face_up)
    expected_source = list(source)
    expected_target = expected_source if same_zone else list(target)
    moved_source = list(source)
    moved_target = moved_source if same_zone else list(target)
    expected = _one_at_a_time(expected_state, source_key, expected_source, target_key, expected_target, face,
                              at_bottom, count)
    moved = Cards().move_from_top(state, source_key, moved_source, target_key, moved_target, face, at_bottom, count)
    assert moved == expected
    assert (moved_source, moved_target) == (expected_source, expected_target)
    assert state.face_up.cards == expected_state.face_up.cards
