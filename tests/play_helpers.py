"""Playing a state on to its end in tests: one loop for every test that needs it; and the game of a ruleset a
test writes as text."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping
from pathlib import Path

from interpreter import CHANCE, load_ruleset
from interpreter.actions import Action
from interpreter.engine.game import Game
from interpreter.engine.state import State


def game_from_text(tmp_path: Path, text: str, *, name: str = "game.yaml",
                   params: Mapping[str, object] | None = None) -> Game:
    """The game of a ruleset written as text: the text saved (utf-8) as the file `name` in the folder `tmp_path`
    (a test's own), then loaded with these parameters. Give the name a test reads back (a scenario's `ruleset:`,
    a message quoting the file)."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_ruleset(path, params)


def play_out(state: State, choose: Callable[[State], Action], actions: int) -> State:
    """Chance events shuffled by the state, decisions by `choose`, until the match ends or `actions` steps."""
    for _ in range(actions):
        if state.is_terminal:
            break
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(choose(state))
    return state


def play_until(state: State, condition: Callable[[State], bool], choose: Callable[[State], Action], *,
               limit: int | None = None) -> State | None:
    """Chance events shuffled by the state, decisions by `choose`, until `condition` holds: asked of the state
    before every step, at a chance node too (a condition on a decision starts `s.current_player != CHANCE`). The
    state then; None if the match ends or `limit` steps are taken first. To share one generator between calls,
    pass the same chooser."""
    for _ in range(limit) if limit is not None else itertools.count():
        if condition(state):
            return state
        if state.is_terminal:
            return None
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(choose(state))
    return None


def random_choices(seed: int) -> Callable[[State], Action]:
    """A chooser of uniformly random legal actions, seeded."""
    rng = random.Random(seed)
    return lambda state: rng.choice(state.legal_actions())


def play_alike(first: State, second: State, seed: int) -> None:
    """Two states that should play alike (one game written two ways), played to the end side by side with the
    same random choices: the same legal actions, by their texts, at every decision; each chance event by both."""
    rng = random.Random(seed)
    while not first.is_terminal:
        if first.current_player == CHANCE:
            first.apply_chance()
            second.apply_chance()
            continue
        legal = first.legal_actions()
        assert [first.action_text(a) for a in legal] == [second.action_text(a) for a in second.legal_actions()]
        action = rng.choice(legal)
        first.apply(action)
        second.apply(second.action_text(action))
    assert second.is_terminal


def hold(state: State, text: str) -> None:
    """The seat in turn holds these cards (`3S 3H 3D`), each taken from wherever it is (the other hands go to the
    stock first: no other seat acts in the tests that use this); the legal set and meld search start again."""
    hands, stock = state.values["hand"], state.values["stock"]
    for other in hands:
        stock.extend(other)
        other.clear()
    wanted = [state.game.deck.parse_card(word) for word in text.split()]
    for card in wanted:
        stock.remove(card)
    hands[state.current_player][:] = wanted
    state._legal = None
    state.meld_search = None
