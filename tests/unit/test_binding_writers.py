"""Which generated functions may change the bindings they are given (interpreter/dsl/writers.py), and what it is
for: a decision's own legal-set code gives a card filter that changes none the decision's bindings themselves, not
a copy, so the bindings must come out of every legal set as they went in."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.actions import Action
from interpreter.dsl.writers import changing_bindings
from interpreter.engine.state import State
from tests.play_helpers import play_out

ROOT = Path(__file__).resolve().parents[2]

SOURCE = '''
def reads(V, B):
    return B['player'] + (1 if 'card' in B else 0) + B.get('n', 0)

def copies(V, B, items):
    return f_sets(V, dict(B), items)

def hands_on_to_a_reader(V, B):
    return reads(V, B)

def sets_an_entry(V, B):
    B['card'] = 1
    return True

def keeps_a_value(V, B):
    return B['d_x_1'] if 'd_x_1' in B else B.setdefault('d_x_1', 3)

def deletes(V, B):
    del B['card']

def adds_to_an_entry(V, B):
    B['n'] += 1

def hands_on_to_a_writer(V, B):
    return 1 + keeps_a_value(V, B)

def hands_on_twice_removed(V, B, items):
    return [hands_on_to_a_writer(V, B) for item in items]

def hands_on_elsewhere(V, B):
    return SOMETHING(V, B)

def pops_an_item(V, B, items):
    return items.pop()

def hands_on_out_of_place(V, B):
    return pops_an_item(V, {}, B)

def keeps_it(V, B):
    C = B
    return C

def f_sets(V, B, items):
    B['card'] = items[0]
    return items
'''


def test_the_functions_that_may_change_their_bindings() -> None:
    changing = changing_bindings(SOURCE)
    assert changing == {"sets_an_entry", "keeps_a_value", "deletes", "adds_to_an_entry", "hands_on_to_a_writer",
                        "hands_on_twice_removed", "hands_on_elsewhere", "hands_on_out_of_place", "keeps_it",
                        "f_sets"}
    # (`copies` hands a copy to a function that changes it; `hands_on_to_a_reader` hands it to one that reads it)


RULESETS = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "tests" / "games").glob("*.yaml"))


def _checking_choices(seed: int) -> Callable[[State], Action]:
    """Uniformly random legal actions, each legal set asked for checked to leave the decision's bindings as
    they were."""
    rng = random.Random(seed)

    def choose(state: State) -> Action:
        pending = state.pending
        assert pending is not None
        before = dict(pending.bindings)
        legal = state.legal_actions()
        assert pending.bindings == before, state.action_text(legal[0])
        return rng.choice(legal)
    return choose


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_a_legal_set_leaves_the_decisions_bindings_as_they_were(path: Path) -> None:
    game = load_ruleset(path)
    for match in range(3):
        play_out(game.new_initial_state(seed=match), _checking_choices(7 + match), 400)
