"""A decision's own generated legal-set code (see docs/engine.md) gives exactly the general search's legal set, in
the same order, and never hands a decision over to the general search in play that raises no error (the hand
over is for naming a failure; a generated function that always failed would cost every decision twice)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from interpreter import CHANCE, load_ruleset
from interpreter.engine import decisions
from tests.play_helpers import game_from_text

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "tests" / "games").glob("*.yaml")) + sorted((ROOT / "rulesets").glob("*.yaml"))


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_generated_legal_sets_are_the_general_search_s(path: Path) -> None:
    game = load_ruleset(path)
    namespace = game.code.segments[0].__globals__
    handed_over: list[str] = []
    general = namespace["GENERIC_LEGAL"]

    def hand_over(state: Any, pending: Any) -> Any:
        handed_over.append(pending.where)
        return general(state, pending)

    namespace["GENERIC_LEGAL"] = hand_over
    try:
        rng = random.Random(7)
        compared = decided = 0
        for match in range(40):
            state = game.new_initial_state(seed=match)
            while not state.is_terminal and compared < 150 and decided < 1500:
                if state.current_player == CHANCE:
                    state.apply_chance()
                    continue
                pending = state.pending
                assert pending is not None
                if pending.finder is not None:
                    generated = pending.finder(state, pending)
                    searched = decisions.legal_actions(state, pending)
                    assert generated[0] == list(decisions.as_dict(generated)), pending.where  # each action once
                    assert list(decisions.as_dict(generated).items()) == \
                        list(decisions.as_dict(searched).items()), pending.where
                    compared += 1
                state.apply(rng.choice(state.legal_actions()))
                decided += 1
            if compared >= 150 or decided >= 1500:
                break
    finally:
        namespace["GENERIC_LEGAL"] = general
    assert not handed_over, f"generated legal-set code handed over to the general search at {set(handed_over)}"


def _needs_the_general_search(option: Any) -> bool:
    """An option whose actions only the general search finds (see docs/engine.md)."""
    return option.breakable or option.any_depth or option.meld_top is not None or \
        (option.kind in ("play", "discard") and option.clauses and option.card_filter is None) or \
        (option.kind == "choose" and option.arguments and option.clauses and option.choice_filter is None)


def _decisions(game: Any, seed: int, rng: random.Random, most: int) -> Iterator[Any]:
    """The states of a match at each decision (at most `most` steps), each played on with a random legal action
    once the caller has looked at it."""
    state = game.new_initial_state(seed=seed)
    for _ in range(most):
        if state.is_terminal:
            return
        if state.current_player == CHANCE:
            state.apply_chance()
            continue
        yield state
        state.apply(rng.choice(state.legal_actions()))


@contextmanager
def _without_filters(options: tuple[Any, ...]) -> Iterator[None]:
    """The options with no compiled filter, for as long as the block lasts: the general search then tests their
    clauses one by one."""
    names = ("card_filter", "meld_filter", "choice_filter")
    saved = [(option, [getattr(option, name) for name in names]) for option in options]
    try:
        for option, _ in saved:
            for name in names:
                object.__setattr__(option, name, None)
        yield
    finally:
        for option, filters in saved:
            for name, kept in zip(names, filters, strict=True):
                object.__setattr__(option, name, kept)


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_every_decision_has_its_own_legal_set_code_unless_an_option_needs_the_general_search(path: Path) -> None:
    game = load_ruleset(path)
    for state in _decisions(game, 3, random.Random(3), 400):
        pending = state.pending
        if pending.finder is None:
            assert any(_needs_the_general_search(option) for option in pending.options), pending.where


@pytest.mark.parametrize("path", RULESETS, ids=lambda path: path.stem)
def test_the_compiled_filters_allow_what_the_clauses_one_by_one_allow(path: Path) -> None:
    """A card's, a meld's or a choice's clauses compiled into one filter over every candidate (with what reads no
    candidate tested once, and builtins of constants folded) allow exactly the candidates that the clauses,
    evaluated one by one for each, allow."""
    game = load_ruleset(path)
    rng = random.Random(11)
    filtered = 0
    for match in range(6):
        for state in _decisions(game, match, rng, 250):
            pending = state.pending
            found = pending.finder or decisions.legal_actions
            compiled = [(action, option.where)
                        for action, option in decisions.as_dict(found(state, pending)).items()]
            with _without_filters(pending.options):
                searched = decisions.legal_actions(state, pending)
                one_by_one = [(action, option.where) for action, option in decisions.as_dict(searched).items()]
            assert compiled == one_by_one, pending.where
            filtered += any(option.card_filter or option.meld_filter or option.choice_filter
                            for option in pending.options)
    assert filtered > 0


TINY = (ROOT / "tests" / "games" / "tiny.yaml").read_text(encoding="utf-8")
# The dealer chooses six times: `bet` (its rule reads no argument, and fails with nothing to divide by, when there
# is no size to offer), `grow`, or `raise` (its rule reads its argument). (BR-36's pot limit stands in for a
# count: `params.pot_limit` is null, so `grown` counts the growths.)
CHOICES = """        - repeat: 6
          do:
            - decide: dealer
              options:
                - choose: bet
                  args:
                    by: numbers(1, grown)
                  legal:
                    - rule: 10 / grown > 3
                      reason: too big
                - choose: grow
                  do:
                    - change: grown
                      by: 1
                - choose: raise
                  args:
                    by: numbers(1, 3)
                  legal:
                    - rule: by < grown
                      reason: not yet
"""


def _first_hands(game: Any, seeds: range) -> Iterator[tuple[Any, Any, random.Random]]:
    """Each decision of the first hand of a two-seat match for each seed, with the decision's own legal set checked
    against the general search's (the same actions and options in order, each once; the own code never handing
    over): the state, that legal set and the seed's generator, for the caller to apply an action."""
    namespace = game.code.segments[0].__globals__
    general = namespace["GENERIC_LEGAL"]

    def refuse(state: Any, pending: Any) -> Any:
        pytest.fail(f"handed over at {pending.where}")

    namespace["GENERIC_LEGAL"] = refuse
    try:
        for seed in seeds:
            rng = random.Random(seed)
            state = game.new_initial_state(seed=seed, players=2)
            while not state.is_terminal and state.values["hand_number"] == 1:
                if state.current_player == CHANCE:
                    state.apply_chance()
                    continue
                pending = state.pending
                assert pending is not None and pending.finder is not None
                generated = pending.finder(state, pending)
                namespace["GENERIC_LEGAL"] = general
                searched = decisions.legal_actions(state, pending)
                namespace["GENERIC_LEGAL"] = refuse
                assert generated[0] == list(decisions.as_dict(generated))  # each action once
                assert list(decisions.as_dict(generated).items()) == list(decisions.as_dict(searched).items())
                yield state, generated, rng
    finally:
        namespace["GENERIC_LEGAL"] = general


def test_a_choice_whose_rules_read_no_argument_is_tested_once_when_it_has_values(tmp_path: Path) -> None:
    old = "        - set: trump\n          to: last(hand[dealer]).suit\n"
    text = TINY.replace(old, old + CHOICES).replace(
        "  - {name: trump, type: suit}", "  - {name: trump, type: suit}\n  - {name: grown, type: int, initial: 0}")
    game = game_from_text(tmp_path, text)
    assert "if _values_1[0] and " in game.code.source  # (`bet`: its rule after its values, no filter)
    seen = set()
    for state, generated, rng in _first_hands(game, range(12)):
        texts = [state.action_text(action) for action in generated[0]]
        if generated[0][0].kind == "choose":
            seen.add((state.values["grown"], tuple(texts)))
        grow = [action for action in state.legal_actions() if action.name == "grow"]
        state.apply(grow[0] if grow and rng.random() < 0.8 else rng.choice(state.legal_actions()))
    offered = {grown: texts for grown, texts in seen}
    assert len(offered) == len(seen)  # (one legal set for each count)
    assert offered[0] == ("p0 choose grow",)  # (no size to bet: the rule, which would divide by zero, is not tested)
    assert offered[3] == ("p0 choose bet by 1", "p0 choose bet by 2", "p0 choose bet by 3", "p0 choose grow",
                          "p0 choose raise by 1", "p0 choose raise by 2")
    assert offered[4] == ("p0 choose grow", "p0 choose raise by 1", "p0 choose raise by 2", "p0 choose raise by 3")
    # (10 / 4 is not more than 3: no bet)


def test_a_card_filter_runs_in_place_in_the_decisions_own_code() -> None:
    # (tiny's trick: its follow-suit clause compiled into one filter, whose code its legal-set function runs in
    # place, each of the filter's returns a legal set, rather than calling it)
    game = load_ruleset(ROOT / "tests" / "games" / "tiny.yaml")
    source = game.code.source
    finder = source[source.index("def legal_"):]
    finder = finder[:finder.index("\ndef ", 1)] if "\ndef " in finder[1:] else finder
    assert "items = V['hand']" in finder and "list(map(_action_of, " in finder
    assert not re.search(r"\bF\d+\(", finder)
    state = game.new_initial_state(seed=4)
    state.apply_chance()
    for _ in range(8):  # (leads and follows: the legal set is the general search's)
        pending = state.pending
        assert pending is not None and pending.finder is not None
        assert list(decisions.as_dict(pending.finder(state, pending))) == \
            list(decisions.as_dict(decisions.legal_actions(state, pending)))
        state.apply(state.legal_actions()[-1])


SUBSETS = """        - round: next_seat(dealer)
          do:
            - decide: player
              options:
                - choose: keep
                - choose: give
                  args:
                    given: subsets(hand, 1, 2)
                  do:
                    - log: "p{player} would give {given}"
            - decide: player
              options:
                - choose: show
                  args:
                    shown: subsets(sort(hand), 0, 2)
            - decide: player
              options:
                - choose: swap
                  args:
                    given: subsets(hand, 1, 1)
                    times: numbers(1, 2)
                - choose: name
                  args:
                    named: subsets(hand, 2, 3)
                  legal:
                    - rule: size(named) == 2 or all(c.suit != trump for c in named)
                      reason: "three cards named hold no trump"
"""


@pytest.mark.parametrize("packs", [1, 2])
def test_a_choice_among_subsets_is_made_in_place_as_the_general_search_makes_it(tmp_path: Path, packs: int) -> None:
    # (a choice whose values are `subsets(...)` has its choices made as tuples in the decision's own code, each
    # once, alone and beside another option; with two packs a hand may hold a card twice, and each choice of
    # cards is still offered once, as the general search offers it)
    old = "        - set: trump\n          to: last(hand[dealer]).suit\n"
    text = TINY.replace(old, old + SUBSETS).replace("suits: [S, H, D, C]}", f"suits: [S, H, D, C], packs: {packs}}}")
    game = game_from_text(tmp_path, text)
    assert game.code.source.count("SUBSET_ACTIONS(") == 2  # (`give` and `show`; `swap` and `name` as tuples)
    assert game.code.source.count("tuple(SUBSET_CHOICES(") == 2
    repeated = 0
    for state, generated, rng in _first_hands(game, range(30)):
        hand = state.values["hand"][state.current_player]
        repeated += bool(generated[0]) and generated[0][0].kind == "choose" and len(set(hand)) < len(hand)
        state.apply(rng.choice(state.legal_actions()))
    assert packs == 1 or repeated > 0  # (with two packs, hands holding a card twice were offered their choices)
