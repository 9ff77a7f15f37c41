"""Several melds laid as one action (`meld` with `at_once`): the groups offered, their action texts, how they
are laid, refused and bounded."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import CHANCE
from interpreter.actions import Action, ActionSyntaxError
from interpreter.engine import meldsearch
from interpreter.engine.decisions import why_none
from interpreter.engine.errors import IllegalActionError, RulesetRuntimeError
from interpreter.engine.state import State
from tests.play_helpers import game_from_text, hold

RUMMY = """
format: 1
name: Rummy laying two melds at once
players: {min: 2, max: 2}
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K], suits: [S, H, D, C], packs: PACKS}
zones:
  - {name: stock}
  - {name: discard_pile, visibility: public}
  - {name: hand, owner: seat, visibility: owner}
  - {name: melds, owner: seat, visibility: public, kind: melds}
variables:
  - {name: score, type: int, per: seat, initial: 0, lasts: match}
  - {name: laid_at_once, type: int, initial: 0}
melds:
  kinds:
    - {name: set, shape: set, min: 3, one_per_owner: true}
    - {name: run, shape: run, min: 3}
hand:
  start: play
  phases:
    - name: play
      steps:
        - shuffle: stock
        - deal: 7
          from: stock
          to: hand
        - turns: next_seat(dealer)
          until: size(stock) == 0
          do:
            - decide: player
              options:
                - draw: stock
                  to: hand
            - decide: player
              repeat: true
              options:
                - meld: hand
                  to: melds
                  at_once: 2
                  legal:
                    - rule: size(cards) < size(hand)
                      reason: "keep a card to discard"
                    - rule: all(m.kind != 'set' or size(m.cards) == 3 for m in laid)
                      reason: "a set is laid with three cards"
                  do:
                    - set: laid_at_once
                      to: size(laid)
                - discard: hand
                  to: discard_pile
                  ends: true
      next: end
match:
  hands: 1
  result: score[player]
"""


def _rummy(tmp_path: Path, packs: int = 1) -> State:
    state = game_from_text(tmp_path, RUMMY.replace("PACKS", str(packs))).new_initial_state(seed=1, players=2)
    while state.current_player == CHANCE:
        state.apply_chance()
    state.apply(next(action for action in state.legal_actions() if action.kind == "draw"))
    return state


def _melds(state: State) -> list[str]:
    return [state.action_text(action) for action in state.legal_actions() if action.kind == "meld"]


def test_one_meld_or_two_together_are_offered_each_once(tmp_path: Path) -> None:
    state = _rummy(tmp_path)
    seat = state.current_player
    hold(state, "3S 3H 3D 5C 6C 7C 9H")
    assert _melds(state) == [f"p{seat} meld 3S 3H 3D", f"p{seat} meld 5C 6C 7C",
                             f"p{seat} meld 3S 3H 3D + 5C 6C 7C"]


def test_a_clause_reads_every_meld_laid_together(tmp_path: Path) -> None:
    state = _rummy(tmp_path)
    seat = state.current_player
    hold(state, "3S 3H 3D 3C 5C 6C 7C 9H")  # a set of four is refused, alone or with the run
    assert not [text for text in _melds(state) if "3C" in text and "3S" in text and "3H" in text and "3D" in text]
    assert f"p{seat} meld 3S 3H 3C + 5C 6C 7C" in _melds(state)


def test_the_action_text_of_a_group_parses_back(tmp_path: Path) -> None:
    state = _rummy(tmp_path)
    hold(state, "3S 3H 3D 5C 6C 7C 9H")
    for action in state.legal_actions():
        assert state.parse_action(state.action_text(action)) == action
    group = Action.parse("p1 meld 7H 7S 7D + KH KS 2C=K", state.game.deck)
    assert group.text(state.game.deck) == "p1 meld 7H 7S 7D + KH KS 2C=K"
    with pytest.raises(ActionSyntaxError, match="goes between two melds"):
        Action.parse("p1 meld 7H 7S 7D +", state.game.deck)


def test_a_group_laid_puts_each_meld_on_the_table_in_order(tmp_path: Path) -> None:
    state = _rummy(tmp_path)
    seat = state.current_player
    hold(state, "3S 3H 3D 5C 6C 7C 9H")
    state.apply(f"p{seat} meld 7C 5C 6C + 3D 3S 3H")  # typed in another order: the legal group it names
    table = state.values["melds"][seat]
    assert [(meld.id, meld.kind) for meld in table] == [(0, "set"), (1, "run")]
    assert [state.card_text(card) for card in state.values["hand"][seat]] == ["9H"]
    assert state.values["laid_at_once"] == 2


def test_the_same_run_twice_is_offered_when_the_cards_are_held_twice(tmp_path: Path) -> None:
    state = _rummy(tmp_path, packs=2)
    seat = state.current_player
    hold(state, "5C 6C 7C 5C 6C 7C 9H")
    assert f"p{seat} meld 5C 6C 7C + 5C 6C 7C" in _melds(state)


def test_two_sets_of_one_rank_are_never_laid_together_when_an_owner_has_one_set_per_rank(tmp_path: Path) -> None:
    state = _rummy(tmp_path, packs=2)
    hold(state, "3S 3H 3D 3S 3H 3D 9H")
    assert all("+" not in text for text in _melds(state))


def test_a_group_is_refused_with_the_meld_that_is_not_one_or_the_clause_that_fails(tmp_path: Path) -> None:
    state = _rummy(tmp_path)
    seat = state.current_player
    hold(state, "3S 3H 3D 3C 5C 6C 7C 9H 10H")
    with pytest.raises(IllegalActionError, match=r"meld 3S 3H 3D \+ 9H 10H 5C: p\d meld 9H 10H 5C is not a meld"):
        state.apply(f"p{seat} meld 3S 3H 3D + 9H 10H 5C")
    with pytest.raises(IllegalActionError, match="a set is laid with three cards"):
        state.apply(f"p{seat} meld 3S 3H 3D 3C + 5C 6C 7C")
    with pytest.raises(IllegalActionError, match="at most 2 melds may be laid at once"):
        state.apply(f"p{seat} meld 3S 3H 3D + 5C 6C 7C + 8H 9H 10H")


def test_more_groups_than_the_bound_is_an_error_at_the_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _rummy(tmp_path)
    hold(state, "3S 3H 3D 5C 6C 7C 9H")
    monkeypatch.setattr(meldsearch, "MOST_GROUPS", 2)
    with pytest.raises(RulesetRuntimeError, match="more than 2 ways to lay up to 2 melds at once"):
        state.legal_actions()


def test_an_action_the_rules_allow_where_the_legal_set_fails_is_refused_with_that_failure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A discard the rules allow, where the legal set cannot be made (too many groups of melds): the failure is
    the answer (it was `Action(seat=1, ...) is not an action of the legal set`, the action shown as Python)."""
    state = _rummy(tmp_path)
    hold(state, "3S 3H 3D 5C 6C 7C 9H")
    monkeypatch.setattr(meldsearch, "MOST_GROUPS", 2)
    seat = state.current_player
    with pytest.raises(RulesetRuntimeError, match="more than 2 ways to lay up to 2 melds at once"):
        state.apply(f"p{seat} discard 9H")
    assert state.is_legal(f"p{seat} discard 9H") is False  # (a question with a yes or no: no legal set to be in)


def test_why_no_group_is_allowed_names_each_group_with_its_clause(tmp_path: Path) -> None:
    state = _rummy(tmp_path)
    hold(state, "3S 3H 3D 5C 6C 7C")
    assert state.pending is not None
    reasons = why_none(state, state.pending)
    assert "meld 3S 3H 3D + 5C 6C 7C: keep a card to discard" in reasons
    assert "meld 3S 3H 3D:" not in reasons  # (a single meld that keeps a card is allowed)


def test_a_meld_two_options_offer_is_the_first_options(tmp_path: Path) -> None:
    text = RUMMY.replace("PACKS", "1").replace("""                - discard: hand
                  to: discard_pile
                  ends: true""", """                - meld: hand
                  to: melds
                  do:
                    - set: laid_at_once
                      to: 99
                - discard: hand
                  to: discard_pile
                  ends: true""")
    state = game_from_text(tmp_path, text).new_initial_state(seed=1, players=2)
    while state.current_player == CHANCE:
        state.apply_chance()
    state.apply(next(action for action in state.legal_actions() if action.kind == "draw"))
    seat = state.current_player
    hold(state, "3S 3H 3D 5C 6C 7C 9H")
    state.apply(f"p{seat} meld 3S 3H 3D")  # (offered by both: the group option, listed first, takes it)
    assert state.values["laid_at_once"] == 1
