"""A variable seen by nobody (`visibility: nobody`), as a `nobody` zone hides cards: the cards a rule counts at
the end that no player may see before (Skat's matadors, SK-15, counted with a skat the declarer of a hand game
has not seen). No seat's observation, table view, observation vector or log holds it; a copy dealt again for
one seat holds the cards dealt in place of its own; scenarios still set and expect it."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from interpreter.errors import RulesetError
from interpreter.interop.features import ObservationEncoder
from interpreter.loader import Game
from interpreter.runners.logfile import SeatLog
from interpreter.runners.scenarios import run_file
from interpreter.view import table_view
from tests.play_helpers import game_from_text

RULESET = """
format: 1
name: Cards kept out of sight
players: {min: 3, max: 3}
deck: {ranks: [7, 8, 9, 10, J, Q, K, A], suits: [S, H, D, C]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
  - {name: widow, visibility: nobody}
variables:
  - {name: kept, type: "list[card]", visibility: nobody, initial: "[]"}
  - {name: own_first, type: card, per: seat, visibility: nobody, initial: null}
  - {name: widow_size, type: int, initial: 0}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - {deal: 3, from: stock, to: hand}
        - {move: 2, from: stock, to: widow}
        - set: kept
          to: hand[0] + widow
        - for_each: seats()
          do:
            - set: own_first[player]
              to: first(hand[player])
        - set: widow_size
          to: size(widow)
        - decide: 0
          options:
            - choose: done
      next: end
match:
  hands: 1
  result: 0
"""


def _cards(game: Game, cards: list[int]) -> list[str]:
    return [game.deck.card_text(card) for card in cards]


def test_no_seat_sees_the_value_in_its_observation_view_or_vector(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = game.new_initial_state(seed=4)
    state.apply_chance()
    assert len(state.values["kept"]) == 5 and None not in state.values["own_first"]  # (the value is there)
    encoder = ObservationEncoder(game, 3)
    for seat in range(3):
        observation = state.observation(seat)
        assert observation["variables"]["kept"] is None
        assert observation["variables"]["own_first"] == [None, None, None]  # not even its owner's
        assert observation["variables"]["widow_size"] == 2
        names = [variable.name for variable in table_view(state, seat).variables]
        assert names == ["widow_size"]  # left out of the view by default
        vector = encoder.encode(observation)
        for owner in range(3):
            part = next(p for p in encoder.parts if p.name == f"variable own_first[{owner}]")
            assert vector[part.start:part.start + part.width] == [0.0] * part.width


def test_a_seats_log_holds_none_of_its_cards(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = game.new_initial_state(seed=4)
    file = io.StringIO()
    log = SeatLog(file, 1)
    log.start({"type": "match"})
    state.apply_chance()
    log.follow(state, state.events)
    widow = set(_cards(game, state.values["widow"]))
    assert widow and not widow & set(file.getvalue().replace('"', " ").replace(",", " ").split())
    views = [json.loads(line) for line in file.getvalue().splitlines() if '"view"' in line]
    assert views and views[-1]["variables"]["kept"] is None


def test_a_copy_dealt_again_holds_the_cards_dealt_in_place_of_its_own(tmp_path: Path) -> None:
    game = game_from_text(tmp_path, RULESET)
    state = game.new_initial_state(seed=4)
    state.apply_chance()
    real_widow = list(state.values["widow"])
    assert state.values["kept"] == state.values["hand"][0] + real_widow
    rng = random.Random(9)
    widows = set()
    for seat in (0, 1):
        for _ in range(20):
            trial = state.resample(seat, rng)
            # The cards kept are the cards the copy holds in their places: p0's hand (as dealt again for p1),
            # then the widow dealt again.
            assert trial.values["kept"] == trial.values["hand"][0] + trial.values["widow"]
            assert trial.values["own_first"] == [first[0] for first in trial.values["hand"]]
            widows.add(tuple(trial.values["widow"]))
    assert len(widows) > 1 and any(list(widow) != real_widow for widow in widows)
    assert state.values["widow"] == real_widow  # (the state itself is left as it was)


def test_a_variable_of_cards_its_owner_alone_sees_follows_the_cards_dealt_again_for_the_others(
        tmp_path: Path) -> None:
    # (`visibility: owner`: a bot's redeal for another seat must not keep the owner's real cards in it, which
    # would tell the bot what it cannot see, and name cards that are now elsewhere)
    game = game_from_text(tmp_path, RULESET.replace(
        "{name: own_first, type: card, per: seat, visibility: nobody, initial: null}",
        "{name: own_first, type: card, per: seat, visibility: owner, initial: null}"))
    state = game.new_initial_state(seed=4)
    state.apply_chance()
    real = list(state.values["own_first"])
    rng = random.Random(9)
    others_moved = False
    for _ in range(20):
        trial = state.resample(1, rng)
        assert trial.values["own_first"][1] == real[1]  # its own value, which it sees, as it is
        assert trial.values["own_first"] == [first[0] for first in trial.values["hand"]]
        others_moved = others_moved or trial.values["own_first"][0] != real[0]
    assert others_moved
    assert state.values["own_first"] == real


def test_a_variable_of_cards_by_suit_its_owner_alone_sees_follows_the_cards_dealt_again(tmp_path: Path) -> None:
    # (a value per key, `by: suit`: each seat's lowest card of each suit it holds, null for a suit it lacks)
    text = RULESET.replace(
        "  - {name: widow_size, type: int, initial: 0}\n",
        "  - {name: widow_size, type: int, initial: 0}\n"
        "  - {name: low, type: card, per: seat, by: suit, visibility: owner, initial: null}\n").replace(
        "        - set: widow_size\n",
        "        - for_each: seats()\n"
        "          do:\n"
        "            - for_each: \"[S, H, D, C]\"\n"
        "              as: s\n"
        "              do:\n"
        "                - if: any(c.suit == s for c in hand[player])\n"
        "                  then:\n"
        "                    - set: low[player][s]\n"
        "                      to: \"first([c for c in hand[player] if c.suit == s])\"\n"
        "        - set: widow_size\n")
    game = game_from_text(tmp_path, text)
    state = game.new_initial_state(seed=4)
    state.apply_chance()
    real = [dict(value) for value in state.values["low"]]
    assert sum(card is not None for card in real[0].values()) >= 1
    suit_of = game.deck.suit_of

    def firsts(hand: list[int]) -> dict[int, int | None]:
        return {suit: next((card for card in hand if suit_of[card] == suit), None) for suit in real[0]}

    rng = random.Random(9)
    moved = False
    for _ in range(20):
        trial = state.resample(1, rng)
        assert trial.values["low"][1] == real[1]  # its own, as it is
        for owner in (0, 2):  # the others': the cards dealt in the places of the real ones
            for suit, card in trial.values["low"][owner].items():
                if real[owner][suit] is None:
                    assert card is None
                else:
                    assert card == trial.values["hand"][owner][state.values["hand"][owner].index(real[owner][suit])]
        moved = moved or trial.values["low"][0] != real[0]
    assert moved and state.values["low"] == real
    assert all(firsts(state.values["hand"][owner]) == real[owner] for owner in range(3))


def test_validate_wants_cards_and_no_random_pick(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"`widow_size` is seen by nobody, so it holds cards \(`card` or "
                                           r"`list\[card\]`\), not `int`"):
        game_from_text(tmp_path, RULESET.replace("{name: widow_size, type: int, initial: 0}",
                                                 "{name: widow_size, type: int, initial: 0, visibility: nobody}"))
    with pytest.raises(RulesetError, match="`kept` is seen by nobody, but every seat is told what a `random` step "
                                           "picks"):
        game_from_text(tmp_path, RULESET.replace("        - set: kept\n          to: hand[0] + widow\n",
                                                 "        - random: kept\n          from: '[hand[0], widow]'\n"))
    with pytest.raises(RulesetError, match=r"`show\.variables` shows the variable `kept`, which nobody sees"):
        game_from_text(tmp_path, RULESET + "show:\n  variables:\n    - {name: kept}\n")


def test_scenarios_set_and_expect_it(tmp_path: Path) -> None:
    game_from_text(tmp_path, RULESET, name="hidden.yaml")
    (tmp_path / "cases.yaml").write_text("""
ruleset: hidden.yaml
cases:
  - name: the cards kept are p0's hand and the widow
    deals: [[7S, 8S, 9S, 10S, JS, QS, KS, AS, 7H, 8H, 9H]]
    steps:
      # dealt from the dealer p0's left, one at a time: p0 holds 9S QS 7H; the next two cards go to the widow
      - expect: {variables: {kept: [9S, QS, 7H, 8H, 9H], own_first: {p0: 9S, p1: 7S, p2: 8S}}}
""", encoding="utf-8")
    results = run_file(tmp_path / "cases.yaml")
    assert [(result.passed, result.message) for result in results] == [(True, "")]
