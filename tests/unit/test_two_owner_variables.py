"""Variables with a second index (`by:`): one value per owner and key (a side and a denomination), or per key on
the table; read and set as `name[owner][key]` (`name[key]` on the table), seen as one-owner variables are, shown
in observations, the table view and interop vectors, copied by clone, given and expected by scenarios
(docs/ruleset-format.md, variables)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.cards import missing_key
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.errors import RulesetError
from interpreter.interop.features import ObservationEncoder
from interpreter.runners.scenarios import run_file
from interpreter.view import table_view

ROOT = Path(__file__).resolve().parents[2]
RULESET = """
format: 1
name: Keyed
players: {min: 4, max: 4}
teams: {count: 2}
deck: {ranks: [2, 3, 4], suits: [S, H], packs: 2}
zones:
  - {name: stock}
  - {name: hand, owner: seat, visibility: owner}
variables:
  - {name: held, type: int, per: seat, by: suit, initial: 0, visibility: owner}
  - {name: bids, type: int, per: team, by: [low, high, NT], initial: 0}
  - {name: caller, type: seat, per: team, by: [low, high, NT], initial: null, visibility: team}
  - {name: tally, type: num, by: seat, initial: "1 / 2"}
  - {name: word, type: str, initial: "'high'"}
hand:
  start: deal
  phases:
    - name: deal
      steps:
        - shuffle: stock
        - deal: 3
          from: stock
          to: hand
        - for_each: seats()
          do:
            - for_each: "[S, H]"
              as: s
              do:
                - set: held[player][s]
                  to: count(c.suit == s for c in hand)
            - change: bids[team_of(player)]['NT']
              by: 1
            - if: caller[team_of(player)][word] == null
              then:
                - set: caller[team_of(player)][word]
                  to: player
            - transfer: 1
              from: bids[team_of(player)]['NT']
              to: bids[team_of(player)]['low']
            - change: tally[player]
              by: held[player][S]
      next: end
match:
  hands: 1
  result: "bids[team_of(player)]['low'] + count(caller[team_of(player)][k] == player for k in ['low', 'high'])"
"""


def _path(tmp_path: Path, text: str = RULESET) -> Path:
    path = tmp_path / "keyed.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _dealt(tmp_path: Path):  # type: ignore[no-untyped-def]
    game = load_ruleset(str(_path(tmp_path)))
    state = game.new_initial_state(seed=1, players=4)
    deck = game.deck
    # one at a time from the dealer's left (p1 first): p1 2S 3S 4S ... p0 4H and the rest
    state.apply_chance([deck.parse_card(text) for text in
                        ("2S", "2H", "3S", "3H", "4S", "4H", "2S", "2H", "3S", "3H", "4S", "4H")[:6]] * 2)
    return game, state


def test_values_are_read_and_set_per_owner_and_key(tmp_path: Path) -> None:
    game, state = _dealt(tmp_path)
    hands = state.values["hand"]
    suits = {index: name for index, name in enumerate(game.deck.suits)}
    for seat in range(4):
        counted = {suit: sum(1 for card in hands[seat] if game.deck.suit_of[card] == suit) for suit in suits}
        assert state.values["held"][seat] == counted
    assert state.values["bids"] == [{"low": 2, "high": 0, "NT": 0}, {"low": 2, "high": 0, "NT": 0}]
    assert state.values["caller"] == [{"low": None, "high": 0, "NT": None}, {"low": None, "high": 1, "NT": None}]
    assert state.returns() == [3, 3, 2, 2]  # 2 low bids, and a denomination called first by seats 0 and 1


def test_an_observation_shows_each_key_by_its_text_as_visibility_allows(tmp_path: Path) -> None:
    _, state = _dealt(tmp_path)
    seen = state.observation(1)["variables"]
    assert seen["held"][0] is None and seen["held"][1] == {"S": state.values["held"][1][0],
                                                           "H": state.values["held"][1][1]}
    assert seen["caller"] == [None, {"low": None, "high": 1, "NT": None}]  # its own team's only
    assert seen["bids"][0] == {"low": 2, "high": 0, "NT": 0}
    assert set(seen["tally"]) == {"p0", "p1", "p2", "p3"}
    assert seen["tally"]["p1"] == "3.5"  # 1/2 and p1's three spades, a fraction as its exact text


def test_a_copy_has_its_own_values(tmp_path: Path) -> None:
    game = load_ruleset(str(_path(tmp_path)))
    state = game.new_initial_state(seed=1, players=4)
    copy = state.clone()
    copy.apply_chance()
    assert state.values["bids"] == [{"low": 0, "high": 0, "NT": 0}, {"low": 0, "high": 0, "NT": 0}]
    assert copy.values["bids"][0]["low"] == 2


def test_the_table_view_and_the_interop_vector_show_every_key(tmp_path: Path) -> None:
    game, state = _dealt(tmp_path)
    view = {variable.name: variable for variable in table_view(state, 0).variables}
    assert view["bids"].text == ["low 2, high 0, NT 0", "low 2, high 0, NT 0"]
    assert view["caller"].text == ["low -, high p0, NT -", None]
    encoder = ObservationEncoder(game, 4)
    names = [part.name for part in encoder.parts]
    assert "variable bids[1][NT]" in names and "variable held[3][H]" in names and "variable tally[p2]" in names
    vector = encoder.encode(state.observation(0))
    start = encoder.starts["variable bids[0][low]"]
    assert vector[start] == 2.0
    assert vector[encoder.starts["variable caller[0][high]"]] == 1.0  # seat 0, one-hot
    assert vector[encoder.starts["variable caller[1][high]"]:encoder.starts["variable caller[1][high]"] + 4] == \
        [0.0] * 4  # not seen by seat 0


@pytest.mark.parametrize(("change", "message"), [
    ("if: caller[team_of(player)][word] == null", "if: caller[team_of(player)]['ace'] == null"),
    ("- set: caller[team_of(player)][word]", "- set: caller[team_of(player)]"),
    ("- set: held[player][s]", "- set: held[player][2]"),
    ("by: suit, initial: 0", "by: colour, initial: 0"),
])
def test_bad_uses_are_refused(tmp_path: Path, change: str, message: str) -> None:
    expected = {
        "if: caller[team_of(player)][word] == null": "`caller` has no key 'ace'",
        "- set: caller[team_of(player)][word]": "error[not-assignable]: `caller` has one value per key",
        "- set: held[player][s]": "error[type]: the key of a value per key must be suit, not int",
        "by: suit, initial: 0": "error[invalid-value]: `by: colour` is no second index",
    }[change]
    with pytest.raises(RulesetError) as raised:
        load_ruleset(str(_path(tmp_path, RULESET.replace(change, message, 1))))
    assert expected in str(raised.value)


def test_a_word_that_is_no_key_stops_the_game_at_its_step(tmp_path: Path) -> None:
    game = load_ruleset(str(_path(tmp_path, RULESET.replace("initial: \"'high'\"", "initial: \"'middle'\""))))
    state = game.new_initial_state(seed=1, players=4)
    with pytest.raises(RulesetRuntimeError, match="no key 'middle' among 'low', 'high', 'NT'"):
        state.apply_chance()


def test_a_step_that_sets_a_key_the_variable_does_not_have_stops_the_game_at_its_step(tmp_path: Path) -> None:
    text = RULESET.replace("initial: \"'high'\"", "initial: \"'middle'\"").replace(
        "- change: bids[team_of(player)]['NT']", "- change: bids[team_of(player)][word]")
    state = load_ruleset(str(_path(tmp_path, text))).new_initial_state(seed=1, players=4)
    with pytest.raises(RulesetRuntimeError, match="`bids` has no key 'middle' among 'low', 'high', 'NT'") as raised:
        state.apply_chance()
    assert raised.value.where.endswith(".do[1].change")


def test_keys_are_named_as_the_ruleset_writes_them() -> None:
    deck = load_ruleset(str(ROOT / "tests" / "games" / "president_jokers.yaml")).deck
    suits = dict.fromkeys(range(len(deck.suits)), 0)
    assert missing_key(deck, "suit", suits, -1) == f"no key no suit (a joker's) among {', '.join(deck.suits)}"
    assert missing_key(deck, "seat", {0: 1, 1: 1}, 5) == "no key p5 among p0, p1"
    assert missing_key(deck, "str", {"low": 0}, None) == "no key null among 'low'"


def test_scenarios_give_and_expect_some_keys(tmp_path: Path) -> None:
    _path(tmp_path)
    scenario = tmp_path / "keyed_cases.yaml"
    scenario.write_text("""
ruleset: keyed.yaml
players: 4
cases:
  - name: given keys over the initial values
    start:
      phase: deal
      variables:
        tally: {p1: 3}
    deals:
      - [2S, 2H, 3S, 3H, 4S, 4H, 2S, 2H, 3S, 3H, 4S, 4H]
    steps:
      - expect:
          variables:
            tally: {p1: 6, p0: 0.5, p2: 0.5}
            held: {p1: {S: 3, H: 0}, p0: {H: 3}}
            bids: {t0: {low: 2, NT: 0}, t1: {high: 0}}
            caller: {t0: {high: p0}, t1: {high: p1, low: null}}
  - name: a wrong expectation names the owner and the key
    steps:
      - expect: {variables: {bids: {t1: {low: 5}}}}
  - name: an unknown key is named with the keys
    steps:
      - expect: {variables: {bids: {t1: {middle: 5}}}}
""", encoding="utf-8")
    results = run_file(scenario)
    assert [result.passed for result in results] == [True, False, False], results[0].message
    assert "bids[t1][low] is 2, not 5" in results[1].message
    assert "bids has no key 'middle' (its keys: low, high, NT)" in results[2].message
