"""The engine's shuffle is `random.Random.shuffle`, written out: seeded matches must deal exactly as before."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from interpreter.engine.shuffling import shuffle


@given(seed=st.integers(min_value=0, max_value=2**64), size=st.integers(min_value=0, max_value=300))
def test_the_same_order_and_generator_state_as_the_standard_shuffle(seed: int, size: int) -> None:
    standard, written_out = random.Random(seed), random.Random(seed)
    expected, shuffled = list(range(size)), list(range(size))
    standard.shuffle(expected)
    shuffle(written_out, shuffled)
    assert shuffled == expected
    assert written_out.getstate() == standard.getstate()  # (what is drawn next is the same too)


def test_a_deck_of_a_double_pack_with_repeated_cards() -> None:
    deck = [card for card in range(54) for _ in range(2)]
    for seed in range(50):
        standard, written_out = random.Random(seed), random.Random(seed)
        expected, shuffled = list(deck), list(deck)
        standard.shuffle(expected)
        shuffle(written_out, shuffled)
        assert shuffled == expected


class _Counting(random.Random):
    """A generator of its own kind: it may draw differently, so it shuffles by its own method."""

    calls = 0

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        self.calls += 1
        super().shuffle(x)


def test_another_kind_of_generator_shuffles_by_its_own_method() -> None:
    generator = _Counting(3)
    items = list(range(10))
    shuffle(generator, items)
    assert generator.calls == 1
    assert sorted(items) == list(range(10))
