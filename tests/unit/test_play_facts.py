"""What play shows a seat of the hands it cannot see (`State.resample`, engine/resample.py): a card played in
sight whose rules would have forbidden it, had its hand held some card beside it, shows that the hand does not
hold that card; the deals a bot imagines keep that, and nothing the rules do not show."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from interpreter import CHANCE, Game, State, load_ruleset
from interpreter.engine import resample as resampling
from interpreter.engine.resample import follower_of

ROOT = Path(__file__).resolve().parent.parent.parent
BOURRE = ROOT / "rulesets" / "bourre.yaml"


@cache
def game(path: Path, **params: str) -> Game:
    return load_ruleset(path, params, params_as_text=True)


def held(state: State, key: tuple[str, int]) -> list[int]:
    name, owner = key
    return state.values[name] if owner < 0 else state.values[name][owner]


def first_renounce(state: State, rng: random.Random) -> tuple[State, int, int, int]:
    """Bourré played at random until a seat that is not leading plays a card of neither the suit led nor trumps,
    then on to the next decision: the state, that seat, the suit led and the trump suit."""
    deck = state.game.deck
    while True:
        if state.current_player == CHANCE:
            state.apply_chance()
            continue
        legal = state.legal_actions()
        action = rng.choice(legal)
        trick = state.values["trick"]
        if action.kind == "play" and trick:
            led, trump = deck.suit_of[trick[0]], state.values["trump"]
            if deck.suit_of[action.card] not in (led, trump):
                seat = action.seat
                state.apply(action)
                while state.current_player == CHANCE:
                    state.apply_chance()
                return state, seat, led, trump
        state.apply(action)


def unseen_by(state: State, seat: int) -> set[int]:
    """The cards `seat` cannot see: every card of every other seat's hand and of the stock."""
    others = {card for owner, cards in enumerate(state.values["hand"]) if owner != seat for card in cards}
    return others | set(state.values["stock"])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_that_neither_follows_nor_trumps_is_dealt_neither_suit_again(seed: int) -> None:
    """BR-21 (follow) and BR-22 (trump when void): a seat that plays a card of another suit to a trick holds no
    card of the suit led and no trump, which every seat at the table knows: the deals a bot of another seat
    imagines give it none of them, for the rest of the hand."""
    state, renouncer, led, trump = first_renounce(game(BOURRE, hands="1").new_initial_state(seed=seed, players=5),
                                                  random.Random(seed))
    suit_of = state.game.deck.suit_of
    observer = next(seat for seat in range(5) if seat not in (renouncer, state.current_player))
    hidden = unseen_by(state, observer)
    barred = follower_of(state, observer).resolved().absent[("hand", renouncer)]
    assert {card for card in hidden if suit_of[card] in (led, trump)} <= barred
    for draw in range(40):
        trial = state.resample(observer, random.Random(draw))
        assert not [card for card in trial.values["hand"][renouncer] if suit_of[card] in (led, trump)]
        assert trial.observation(observer) == state.observation(observer)


def test_without_what_play_shows_the_deals_would_give_that_seat_those_suits(monkeypatch: pytest.MonkeyPatch) -> None:
    """(The test above can fail: with the plays left unasked, some deal gives the seat a card it cannot hold.)"""
    monkeypatch.setattr(resampling.Knowledge, "_shown_by_play", lambda *arguments: None)
    resampling._FOLLOWERS.clear()
    state, renouncer, led, trump = first_renounce(game(BOURRE, hands="1").new_initial_state(seed=1, players=5),
                                                  random.Random(1))
    suit_of = state.game.deck.suit_of
    observer = next(seat for seat in range(5) if seat not in (renouncer, state.current_player))
    dealt = [card for draw in range(40)
             for card in state.resample(observer, random.Random(draw)).values["hand"][renouncer]]
    assert any(suit_of[card] in (led, trump) for card in dealt)
    resampling._FOLLOWERS.clear()


@pytest.mark.parametrize(("path", "players"), [(BOURRE, 5), (ROOT / "tests" / "games" / "hearts.yaml", 4),
                                               (ROOT / "tests" / "games" / "whist.yaml", 4),
                                               (ROOT / "tests" / "games" / "euchre.yaml", 4),
                                               (ROOT / "tests" / "games" / "crazy_eights.yaml", 3),
                                               (ROOT / "tests" / "games" / "president.yaml", 4)])
def test_what_play_shows_is_always_true(path: Path, players: int) -> None:
    """Over random matches, whatever play has shown a seat a hand does not hold, it does not hold."""
    learnt = 0
    for seed in range(3):
        state = load_ruleset(path).new_initial_state(seed=seed, players=players)
        rng = random.Random(seed)
        for _ in range(120):
            if state.is_terminal:
                break
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            state.apply(rng.choice(state.legal_actions()))
            if state.current_player == CHANCE or state.is_terminal:
                continue
            for seat in range(players):
                for key, cards in follower_of(state, seat).resolved().absent.items():
                    learnt += len(cards)
                    assert not set(held(state, key)) & cards, (seed, seat, key)
    if path.stem in ("bourre", "hearts", "whist", "euchre"):  # (trick games: a renounce shows something)
        assert learnt > 0


@pytest.mark.parametrize("guarded", [True, False])
def test_a_rule_that_reads_a_zone_the_seat_cannot_see_shows_it_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, guarded: bool) -> None:
    """A card's rule that reads another zone its seat's opponents cannot see (a side's face-down tricks) would
    tell them about that zone: they learn nothing from such a play. (Unguarded, they would learn the suits not
    followed, as from the plain rule.)"""
    if not guarded:
        monkeypatch.setattr(resampling, "_reads_what_all_see", lambda *arguments: True)
    resampling._FOLLOWERS.clear()
    source = (ROOT / "tests" / "games" / "whist.yaml").read_text(encoding="utf-8")
    rule = "rule: size(trick) == 0 or follows(card) or not any(follows(c) for c in hand)"
    assert rule in source
    variant = source.replace(rule, rule + " or size(won[team_of(player)]) > 100")
    path = tmp_path / "whist.yaml"
    path.write_text(variant, encoding="utf-8")
    whist = load_ruleset(path)
    assert whist.ruleset.zones["won"].visibility != "public"
    state = whist.new_initial_state(seed=1, players=4)
    rng = random.Random(1)
    suit_of = whist.deck.suit_of
    renounced = False
    while not renounced:  # (on to a card played off the suit led)
        if state.current_player == CHANCE:
            state.apply_chance()
            continue
        action = rng.choice(state.legal_actions())
        trick = state.values["trick"]
        renounced = action.kind == "play" and bool(trick) and suit_of[action.card] != suit_of[trick[0]]
        state.apply(action)
    while state.current_player == CHANCE:
        state.apply_chance()
    learnt = [follower_of(state, seat).resolved().absent for seat in range(4)]
    assert (not any(learnt)) is guarded
    resampling._FOLLOWERS.clear()
