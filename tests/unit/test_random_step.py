"""The `random` step: a value picked at random (a pass direction, a first dealer), a chance event like a
shuffle: seeded, logged, replayed, stacked in scenarios, and given to `apply_chance` by callers; and the
dealer set by a step (docs/ruleset-format.md, random)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter import CHANCE, load_ruleset
from interpreter.cli import cli
from interpreter.engine.errors import IllegalActionError, RulesetRuntimeError
from interpreter.errors import RulesetError
from interpreter.runners.replay import replay
from interpreter.runners.scenarios import run_file
from tests.play_helpers import game_from_text

RULESET = """
format: 1
name: Passing at random
players: {min: 3, max: 4, default: 4}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], suits: [S, H, D, C]}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
define:
  weights: "[1, 1, 2]"
variables:
  - {name: direction, type: str, initial: "'none'"}
  - {name: points, type: int, per: seat, initial: 0, lasts: match}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - if: hand_number == 1
          then:
            - random: dealer
              from: seats()
            - log: "p{dealer} deals first"
        - random: direction
          from: "['left', 'right', 'across']"
          weights: weights
        - shuffle: stock
        - {deal: 1, from: stock, to: hand}
        - set: points[dealer]
          to: points[dealer] + 1
      next: end
match:
  hands: 2
  result: points[player]
"""


def _game(tmp_path: Path, weights: str = "[1, 1, 2]"):  # type: ignore[no-untyped-def]
    path = tmp_path / "passing.yaml"
    path.write_text(RULESET.replace('weights: "[1, 1, 2]"', f'weights: "{weights}"'), encoding="utf-8")
    return load_ruleset(path), path


def test_a_pick_is_a_chance_event_that_says_what_it_picks_from(tmp_path: Path) -> None:
    game, _ = _game(tmp_path)
    state = game.new_initial_state(seed=3, players=4)
    assert state.current_player == CHANCE
    assert state.chance_event() == {"type": "pick", "values": ["0", "1", "2", "3"], "chances": [0.25] * 4}
    state.apply_chance(2)  # the dealer, set by the step
    assert state.values["dealer"] == 2
    assert state.chance_event() == {"type": "pick", "values": ["left", "right", "across"],
                                    "chances": [0.25, 0.25, 0.5]}
    state.apply_chance("across")
    assert state.values["direction"] == "across"
    event = state.chance_event()
    assert event is not None and Counter(event.pop("contents")) == Counter(
        state.card_text(card) for card in state.game.deck.cards(state.player_count))
    assert event == {"type": "shuffle", "zone": "stock", "owner": -1, "cards": 52}
    order = sorted(event_contents := [state.card_text(card) for card in state.values["stock"]])
    assert len(event_contents) == 52
    state.apply_chance(order)  # the card dealt first, first: p3 (left of the dealer, p2) gets it
    shuffles = [event for event in state.events if event["type"] == "chance"]
    assert shuffles[-1]["order"] == order
    picks = [event for event in state.events if event["type"] == "pick"]
    assert picks == [{"type": "pick", "at": "hand.phases[0].steps[0].then[0]", "value": "2"},
                     {"type": "pick", "at": "hand.phases[0].steps[1]", "value": "across"}]
    assert {"type": "log", "text": "p2 deals first"} in state.events


def test_a_seat_is_picked_by_its_number_or_as_actions_name_it(tmp_path: Path) -> None:
    game, _ = _game(tmp_path)
    for given in (2, "2", "p2"):
        state = game.new_initial_state(seed=3, players=4)
        state.apply_chance(given)
        assert state.values["dealer"] == 2
    state = game.new_initial_state(seed=3, players=4)
    with pytest.raises(IllegalActionError, match="cannot be picked here; the values are: 0, 1, 2, 3"):
        state.apply_chance("p7")


def test_a_value_not_in_the_list_is_refused_with_the_values(tmp_path: Path) -> None:
    game, _ = _game(tmp_path, "[1, 0, 2]")
    state = game.new_initial_state(seed=3, players=4)
    state.apply_chance(0)
    for refused in ("up", "right"):  # (right has weight 0: it can never be picked)
        with pytest.raises(IllegalActionError, match="cannot be picked here; the values are: left, across"):
            state.apply_chance(refused)


def test_picks_follow_the_weights_and_the_seed(tmp_path: Path) -> None:
    game, _ = _game(tmp_path)
    directions: Counter[str] = Counter()
    for seed in range(2000):
        state = game.new_initial_state(seed=seed, players=3)
        state.apply_chance()
        state.apply_chance()
        directions[state.values["direction"]] += 1
    assert set(directions) == {"left", "right", "across"}
    assert 900 <= directions["across"] <= 1100  # weight 2 of 4: about half of 2000
    again = game.new_initial_state(seed=7, players=3)
    other = game.new_initial_state(seed=7, players=3)
    for state in (again, other):
        state.apply_chance()
        state.apply_chance()
    assert (again.values["dealer"], again.values["direction"]) == (other.values["dealer"], other.values["direction"])


def test_weights_that_cannot_pick_are_a_located_error(tmp_path: Path) -> None:
    game, _ = _game(tmp_path, "[0, 0, 0]")
    state = game.new_initial_state(seed=1, players=3)
    with pytest.raises(RulesetRuntimeError, match="the weights must be one whole number per value") as error:
        state.apply_chance(0)
    assert "hand.phases[0].steps[1].weights" in str(error.value)


def test_the_set_dealer_passes_on_to_the_next_hand(tmp_path: Path) -> None:
    game, _ = _game(tmp_path)
    state = game.new_initial_state(seed=1, players=4)
    state.apply_chance(3)
    while not state.is_terminal:
        state.apply_chance()
    assert [result["dealer"] for result in state.hand_results] == [3, 0]  # then the seat to the left
    assert state.returns() == [1, 0, 0, 1]


def test_a_logged_match_with_picks_replays(tmp_path: Path) -> None:
    _, path = _game(tmp_path)
    log = tmp_path / "match.jsonl"
    result = CliRunner().invoke(cli, ["play", str(path), "--seed", "5", "--log", str(log)])
    assert result.exit_code == 0, result.output
    logged = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [event["value"] for event in logged if event["type"] == "pick"][1:] != []
    replayed = replay(log)
    assert replayed.is_terminal
    assert [event for event in replayed.events if event["type"] == "pick"] == \
        [{key: value for key, value in event.items() if key in ("type", "at", "value")}
         for event in logged if event["type"] == "pick"]


def test_scenarios_stack_picks(tmp_path: Path) -> None:
    _, path = _game(tmp_path)
    cases = tmp_path / "cases.yaml"
    cases.write_text(f"""ruleset: {path}
players: 4
cases:
  - name: the dealer and the direction as stacked
    picks: [1, left, across]
    steps:
      - expect: {{terminal: true, variables: {{direction: across}}}}
  - name: a value that cannot be picked
    picks: [9]
    steps:
      - expect: {{terminal: true}}
""", encoding="utf-8")
    results = run_file(cases)
    assert (results[0].passed, results[0].message) == (True, "")
    assert not results[1].passed and "cannot be picked here" in results[1].message


def test_the_values_must_suit_the_variable(tmp_path: Path) -> None:
    with pytest.raises(RulesetError) as error:
        game_from_text(tmp_path, RULESET.replace("""from: "['left', 'right', 'across']\"""", "from: seats()"))
    assert "hand.phases[0].steps[1].from" in str(error.value)
    assert "list[str]" in str(error.value)


DRAWN = RULESET.replace("""        - if: hand_number == 1
          then:
            - random: dealer
              from: seats()
            - log: "p{dealer} deals first"
""", "").replace("match:\n  hands: 2", "match:\n  first_dealer: random\n  hands: 2").replace(
    "  - {name: direction, type: str, initial: \"'none'\"}",
    "  - {name: direction, type: str, initial: \"'none'\"}\n  - {name: dealt_by, type: seat, initial: dealer}")


def test_the_first_dealer_is_drawn_before_the_first_hand(tmp_path: Path) -> None:
    """`match.first_dealer: random`: a chance event before the first hand, whose header names the seat drawn;
    the hand's variables start with that dealer at the table."""
    game = game_from_text(tmp_path, DRAWN)
    state = game.new_initial_state(seed=3, players=4)
    assert state.chance_event() == {"type": "pick", "values": ["0", "1", "2", "3"], "chances": [0.25] * 4}
    assert [event["type"] for event in state.events] == []  # nothing has happened: no hand has begun
    state.apply_chance("p2")
    assert state.values["dealer"] == 2 and state.values["dealt_by"] == 2
    assert [(event["type"], event.get("dealer"), event.get("value")) for event in state.events[:2]] == [
        ("pick", None, "2"), ("hand", 2, None)]
    while not state.is_terminal:
        state.apply_chance()
    assert [result["dealer"] for result in state.hand_results] == [2, 3]
    counts: Counter[int] = Counter()
    for seed in range(400):
        drawn = game.new_initial_state(seed=seed, players=4)
        drawn.apply_chance()
        counts[drawn.values["dealer"]] += 1
    assert set(counts) == {0, 1, 2, 3} and min(counts.values()) > 60


def test_a_drawn_first_dealer_replays_and_stacks_in_scenarios(tmp_path: Path) -> None:
    path = tmp_path / "drawn.yaml"
    path.write_text(DRAWN, encoding="utf-8")
    log = tmp_path / "match.jsonl"
    result = CliRunner().invoke(cli, ["play", str(path), "--seed", "5", "--log", str(log)])
    assert result.exit_code == 0, result.output
    replayed = replay(log)
    assert replayed.is_terminal
    cases = tmp_path / "cases.yaml"
    cases.write_text(f"""ruleset: {path}
players: 4
cases:
  - name: the first dealer as stacked
    picks: [p3, left, right]
    steps:
      - expect: {{terminal: true, variables: {{direction: right, dealt_by: p0}}}}
""", encoding="utf-8")
    results = run_file(cases)
    assert (results[0].passed, results[0].message) == (True, "")
