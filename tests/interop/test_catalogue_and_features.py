"""The action ids and observation vectors the adapters share (no extra needed): fixed ids per card, pile and
choice; numbered slots for the rest; vectors of one length that hold only what a seat may see; and the core
package importing neither numpy, gymnasium nor pyspiel."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from interpreter import Action, load_ruleset
from interpreter.interop.catalogue import ActionCatalogue, TooManyActionsError
from interpreter.interop.features import ObservationEncoder


def test_cards_piles_and_choices_have_fixed_ids() -> None:
    game = load_ruleset("rulesets/bourre.yaml")
    catalogue = ActionCatalogue(game)
    deck = game.deck
    assert catalogue.fixed_id(Action(2, "play", card=deck.parse_card("AH"))) == deck.parse_card("AH")
    assert catalogue.fixed_id(Action(0, "discard", card=0)) == catalogue.card_count
    stock = catalogue.zones.index("stock")
    assert catalogue.fixed_id(Action(1, "draw", name="stock")) == 2 * catalogue.card_count + stock
    three = catalogue.fixed_id(Action(1, "choose", name="play", arguments=(("discard", 3),)))
    assert three is not None and catalogue.describe(three) == "choose play discard 3"
    assert catalogue.describe(catalogue.fixed_id(Action(0, "choose", name="pass")) or 0) == "choose pass"


def test_ids_depend_on_the_ruleset_not_on_the_match() -> None:
    first = ActionCatalogue(load_ruleset("rulesets/bourre.yaml"))
    second = ActionCatalogue(load_ruleset("rulesets/bourre.yaml", params={"pot_limit": 20}))
    assert (first.size, first.choices) == (second.size, second.choices)


def test_booleans_and_suits_are_enumerated_and_distinguished_from_numbers() -> None:
    game = load_ruleset("tests/games/euchre.yaml")
    catalogue = ActionCatalogue(game)
    hearts = game.deck.suits.index("H")
    named = catalogue.fixed_id(Action(0, "choose", name="name", arguments=(("suit", hearts), ("solo", True))))
    assert named is not None and catalogue.describe(named) == "choose name suit H solo true"  # (as its text)
    assert catalogue.fixed_id(Action(0, "choose", name="order", arguments=(("solo", 1),))) is None


def test_actions_without_a_fixed_id_take_numbered_slots_in_the_engine_order() -> None:
    game = load_ruleset("tests/games/scopa.yaml")
    catalogue = ActionCatalogue(game, slots=2)
    captures = [Action(0, "choose", name="capture", arguments=(("with", card), ("taken", (card + 1,))))
                for card in range(3)]
    assert catalogue.legal_by_id(captures[:2]) == {catalogue.slots_start: captures[0],
                                                   catalogue.slots_start + 1: captures[1]}
    assert catalogue.describe(catalogue.slots_start + 1) == "slot 1"
    with pytest.raises(TooManyActionsError, match="more than 2 legal actions"):
        catalogue.legal_by_id(captures)


@pytest.mark.parametrize("path", ["rulesets/bourre.yaml", "rulesets/burraco.yaml", "tests/games/euchre.yaml",
                                  "tests/games/crazy_eights.yaml"])
def test_every_legal_action_gets_one_id_through_a_match(path: str) -> None:
    game = load_ruleset(path)
    catalogue = ActionCatalogue(game)
    state = game.new_initial_state(seed=4)
    rng = random.Random(4)
    for _ in range(300):
        if state.is_terminal:
            break
        if state.is_chance_node:
            state.apply_chance()
            continue
        legal = state.legal_actions()
        by_id = catalogue.legal_by_id(legal)
        assert sorted(by_id.values(), key=legal.index) == legal
        assert all(0 <= action_id < catalogue.size for action_id in by_id)
        for action_id, action in by_id.items():  # (a fixed id is described as the action's own text says it)
            if action_id < catalogue.slots_start:
                assert state.action_text(action).endswith(catalogue.describe(action_id))
        state.apply(rng.choice(legal))


def test_vectors_keep_their_length_and_show_only_what_the_seat_sees() -> None:
    game = load_ruleset("rulesets/bourre.yaml")
    state = game.new_initial_state(seed=2, players=4)
    while state.is_chance_node or state.current_player != 0:
        state.apply_chance() if state.is_chance_node else state.apply(state.legal_actions()[0])
    encoder = ObservationEncoder(game, 4)
    mine, theirs = encoder.encode(state.observation(0)), encoder.encode(state.observation(1))
    assert len(mine) == len(theirs) == encoder.size
    hand = encoder.starts["zone hand[0]"]
    cards = mine[hand:hand + encoder.card_count]
    assert sum(cards) == len(state.observation(0)["zones"]["hand"][0]["cards"]) > 0
    face_up = [game.deck.parse_card(text) for text in state.observation(1)["zones"]["hand"][0].get("face_up", [])]
    seen = theirs[hand:hand + encoder.card_count]
    assert [card for card, count in enumerate(seen) if count] == sorted(face_up)  # (a turned-up card is public)
    assert theirs[hand + encoder.card_count] == len(state.observation(0)["zones"]["hand"][0]["cards"])
    assert mine[encoder.starts["current_player"]] == 1.0
    status = encoder.starts["variable status[0]"]
    assert sum(mine[status:status + len(encoder.words)]) <= 1


def test_a_game_whose_seats_move_shows_who_sits_at_each_place() -> None:
    game = load_ruleset("rulesets/burraco.yaml", {"draw_for_partners": True})
    state = game.new_initial_state(seed=1)
    while state.is_chance_node:
        state.apply_chance()
    encoder = ObservationEncoder(game, 4)
    vector = encoder.encode(state.observation(2))
    seating = state.observation(2)["seating"]
    for place, seat in enumerate(seating):
        start = encoder.starts[f"seating {place}"]
        assert vector[start:start + 4] == [1.0 if other == seat else 0.0 for other in range(4)]
    assert seating != [0, 1, 2, 3] and len(vector) == encoder.size
    assert "seating 0" not in ObservationEncoder(load_ruleset("rulesets/bourre.yaml"), 4).starts


def test_the_core_package_imports_no_numerical_or_game_library() -> None:
    code = ("import sys, interpreter.cli, interpreter.loader, interpreter.engine.game, interpreter.agents.heuristic, "
            "interpreter.interop, interpreter.interop.catalogue, interpreter.interop.features; "
            "print(sorted(name for name in ('numpy', 'gymnasium', 'pyspiel', 'pettingzoo') if sys.modules.get(name)))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert found.strip() == "[]"


def test_a_seat_variable_is_one_hot_and_an_unset_one_is_zeros() -> None:
    game = load_ruleset("tests/games/euchre.yaml")
    encoder = ObservationEncoder(game, 4)
    start = encoder.starts["variable maker"]
    state = game.new_initial_state(seed=1)
    rng = random.Random(1)
    while not state.is_terminal:
        if state.is_chance_node:
            state.apply_chance()
            continue
        maker = state.observation(0)["variables"]["maker"]
        part = encoder.encode(state.observation(0))[start:start + 4]
        assert part == ([0.0] * 4 if maker is None else [float(seat == maker) for seat in range(4)])
        if maker is not None:
            return
        state.apply(rng.choice(state.legal_actions()))
    pytest.fail("no maker in a whole match")
