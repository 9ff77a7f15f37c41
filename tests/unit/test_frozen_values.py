"""A choice's argument values as actions hold them: lists as tuples, at every depth, so that actions hash; and
back as lists for the ruleset's expressions."""

from __future__ import annotations

import pytest

from interpreter.actions import frozen, thawed


@pytest.mark.parametrize(("value", "held"), [
    (7, 7),
    ("pass", "pass"),
    (None, None),
    ([], ()),
    ([3, 1, 2], (3, 1, 2)),
    ([[1, 2], [3]], ((1, 2), (3,))),  # subsets of a hand
    ([[], [4]], ((), (4,))),  # the empty subset first: the next list says nothing deeper than values
    ([[[1]], [[2, 3], []]], (((1,),), ((2, 3), ()))),
    ([[[]], []], (((),), ())),
    (((1, 2), [3]), ((1, 2), (3,))),
])
def test_lists_are_held_as_tuples_at_every_depth(value: object, held: object) -> None:
    assert frozen(value) == held
    assert hash(frozen(value)) == hash(held)
    assert thawed(frozen(value)) == (thawed(held) if isinstance(held, tuple) else value)
