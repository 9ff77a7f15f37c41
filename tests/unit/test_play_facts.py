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
    learnt = sum(learnt_truly(load_ruleset(path), seed, players, 120) for seed in range(3))
    if path.stem in ("bourre", "hearts", "whist", "euchre"):  # (trick games: a renounce shows something)
        assert learnt > 0


def learnt_truly(played: Game, seed: int, players: int, actions: int) -> int:
    """A random match of `actions` actions, every seat's knowledge checked after each: whatever play has shown
    a hand lacks, it lacks. The cards learnt, counted at every check."""
    state = played.new_initial_state(seed=seed, players=players)
    rng = random.Random(seed)
    learnt = 0
    for _ in range(actions):
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
    return learnt


WHIST = ROOT / "tests" / "games" / "whist.yaml"
FOLLOW = "rule: size(trick) == 0 or follows(card) or not any(follows(c) for c in hand)"


def whist_variant(tmp_path: Path, old: str, new: str) -> Game:
    source = WHIST.read_text(encoding="utf-8")
    assert old in source
    path = tmp_path / "whist.yaml"
    path.write_text(source.replace(old, new), encoding="utf-8")
    return load_ruleset(path)


def at_a_renounce(whist: Game, seed: int) -> State:
    """Random play on to the next decision after a card played off the suit led."""
    state = whist.new_initial_state(seed=seed, players=4)
    rng = random.Random(seed)
    suit_of = whist.deck.suit_of
    renounced = False
    while not renounced:
        if state.current_player == CHANCE:
            state.apply_chance()
            continue
        action = rng.choice(state.legal_actions())
        trick = state.values["trick"]
        renounced = action.kind == "play" and bool(trick) and suit_of[action.card] != suit_of[trick[0]]
        state.apply(action)
    while state.current_player == CHANCE:
        state.apply_chance()
    return state


@pytest.mark.parametrize("guarded", [True, False])
@pytest.mark.parametrize("reading", [" or size(won[team_of(player)]) > 100",  # a side's face-down tricks
                                     " or AS in hand[next_seat(player)]"])  # the next player's hand
def test_a_rule_that_reads_what_the_seat_cannot_see_shows_it_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, guarded: bool, reading: str) -> None:
    """A card's rule that reads a zone its seat's opponents cannot see, besides its own hand, would tell them
    about that zone: they learn nothing from such a play. (Unguarded, they would learn the suits not followed,
    as from the plain rule.)"""
    if not guarded:
        monkeypatch.setattr(resampling, "_names_read", lambda *arguments: frozenset())
    resampling._FOLLOWERS.clear()
    whist = whist_variant(tmp_path, FOLLOW, FOLLOW + reading)
    assert whist.ruleset.zones["won"].visibility != "public" and whist.ruleset.zones["hand"].visibility != "public"
    states = [at_a_renounce(whist, seed) for seed in range(1, 7)]
    learnt = [follower_of(state, seat).resolved().absent for state in states for seat in range(4)]
    assert (not any(learnt)) is guarded
    resampling._FOLLOWERS.clear()


def test_a_rule_that_reads_a_name_bound_around_the_decision_shows_nothing(tmp_path: Path) -> None:
    """The names a step binds around a trick may hold what the seat cannot see (here the last card of the hand
    after the dealer's): a rule that reads one shows nothing."""
    source = WHIST.read_text(encoding="utf-8")
    start, end = source.index("        - trick: trick\n"), source.index("      next: score\n")
    block = "".join("    " + line if line.strip() else line for line in source[start:end].splitlines(True))
    block = block.replace(FOLLOW, FOLLOW + " or mark.suit == card.suit")
    path = tmp_path / "whist.yaml"
    path.write_text(source[:start] + '        - for_each: "[last(hand[next_seat(dealer)])]"\n          as: mark\n'
                    "          do:\n" + block + source[end:], encoding="utf-8")
    resampling._FOLLOWERS.clear()
    state = at_a_renounce(load_ruleset(path), 2)
    assert "mark" in state.pending.bindings  # type: ignore[union-attr]
    assert all(not follower_of(state, seat).resolved().absent for seat in range(4))
    resampling._FOLLOWERS.clear()


def test_a_rule_that_frees_a_play_when_the_hand_holds_more_shows_nothing_false(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule that allows a play with more cards that it forbids with fewer (holding the ace of spades frees a
    player from following suit) breaks the test's ground: a card that forbids the play beside the one played
    may be held with the ace. Found so on fuller hands, the plays of such a rule show nothing, and nothing they
    seemed to show is kept."""
    whist = whist_variant(tmp_path, FOLLOW, FOLLOW + " or AS in hand")
    resampling._FOLLOWERS.clear()
    checked = resampling._stricter_with_more
    refused: list[bool] = []
    monkeypatch.setattr(resampling, "_stricter_with_more",
                        lambda *arguments: refused.append(not checked(*arguments)) or not refused[-1])
    for seed in range(1, 6):
        learnt_truly(whist, seed, 4, 52)
    assert any(refused)
    resampling._FOLLOWERS.clear()


def test_a_deal_keeps_every_hand_from_what_it_lacks_when_a_deal_can() -> None:
    """Several hands each lacking some suits, as play may show them: every deal drawn keeps each hand from the
    cards it lacks (the real deal shows that one can), where dealing the hands one after the other, each taking
    what it may from what is left, often could not."""
    whist = load_ruleset(WHIST)
    suit_of = whist.deck.suit_of
    deals = tried = 0
    for seed in range(1, 30):
        state = whist.new_initial_state(seed=seed, players=4)
        rng = random.Random(seed)
        for _ in range(35):
            if state.current_player == CHANCE:
                state.apply_chance()
            else:
                state.apply(rng.choice(state.legal_actions()))
        while state.current_player == CHANCE:
            state.apply_chance()
        hands = state.values["hand"]
        unseen = {card for owner in (1, 2, 3) for card in hands[owner]}
        absent = {}
        for owner in (1, 2, 3):
            void = {suit_of[card] for card in unseen} - {suit_of[card] for card in hands[owner]}
            if void:
                absent[("hand", owner)] = {card for card in unseen if suit_of[card] in void}
        if len(absent) < 2:
            continue
        tried += 1
        known = follower_of(state, 0).known
        for draw in range(20):
            trial = resampling._dealt_again(state, 0, random.Random(draw), known, absent)
            deals += 1
            for (_, owner), cards in absent.items():
                assert not set(trial.values["hand"][owner]) & cards
                assert len(trial.values["hand"][owner]) == len(hands[owner])
    assert tried >= 10
