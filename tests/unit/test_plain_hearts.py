"""benchmarks/plain/hearts.py is tests/games/hearts.yaml written by hand, and benchmarks/games_speed.py times the
engine against it: if the two games drifted apart, the timing would compare different work. A comparison of
legal-set sizes alone misses real rule changes (hearts led before they are broken, point cards on the first
trick, another scoring), so these tests hold the plain game to the ruleset step by step.

The engine plays whole matches at random from fixed seeds, and the plain game plays the same matches beside it
(the engine's deals, the engine's choices). At every decision:
  * the plain game's legal-set functions, asked at the engine's own position (the seat's hand, the trick, the
    tricks played, hearts broken, rebuilt from `state.values`), give exactly the engine's legal set, in its order;
  * the legal set the plain game made from its own position (what it times) is that same set too, for the same
    seat in the same phase.
At the end of every hand, the points each seat took, the scores and whether the moon was shot are the engine's,
as the plain game reached them and as its scoring function makes them from the engine's points taken (read from
its `taken` variable by the state's `hand_end_hook`, before the next hand sets it back to 0).

Random play from these seeds reaches the rules that matter (each is counted and the counts asserted); hands
dealt from a stacked deck reach what it seldom or never does: a seat void on the first trick holding only point
cards, a seat with only hearts left to lead before hearts are broken, and a moon shot whatever the choices.
Cards are compared through their texts (`QS`).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from interpreter import CHANCE, State, load_ruleset
from tests.plain_helpers import load_plain

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "tests" / "games" / "hearts.yaml"
PLAIN_FILE = ROOT / "benchmarks" / "plain" / "hearts.py"

SEEDS = (1, 2, 3, 4, 5)  # the engine's and the choices' seeds: each plays MATCHES whole matches
MATCHES = 8


def _load_plain() -> ModuleType:
    """benchmarks/plain/hearts.py by path, as benchmarks/games_speed.py loads it (it is no package)."""
    return load_plain(PLAIN_FILE, "plain_hearts")


PLAIN = _load_plain()
PLAIN_CARD = {text: card for card, text in enumerate(PLAIN.NAMES)}  # a card's text -> the plain game's card
SUIT = {"S": PLAIN.SPADES, "H": PLAIN.HEARTS, "D": PLAIN.DIAMONDS, "C": PLAIN.CLUBS}


def _is_point(text: str) -> bool:
    return text.endswith("H") or text == "QS"


def _texts(state: State, cards: list[int]) -> list[str]:
    return [state.card_text(card) for card in cards]


def _plain_cards(state: State, cards: list[int]) -> list[int]:
    """The engine's cards as the plain game's, through their texts (in the same order)."""
    return [PLAIN_CARD[state.card_text(card)] for card in cards]


def _plain_legal(state: State) -> list[int]:
    """The plain game's legal set at the engine's position: its own legal-set functions, asked with the hand of
    the seat to play, the trick so far, whether it is the first trick and whether hearts are broken, all read
    from the engine's state."""
    values = state.values
    hand = _plain_cards(state, values["hand"][state.current_player])
    if state.phase == "pass":
        return PLAIN.pass_legal(hand)
    assert state.phase == "play", state.phase
    trick = values["trick"]
    first_trick = values["tricks_played"] == 0
    if not trick:
        return PLAIN.lead_legal(hand, first_trick, values["hearts_broken"])
    return PLAIN.follow_legal(hand, SUIT[state.card_text(trick[0])[-1]], first_trick)


def _position(state: State) -> str:
    """The engine's position, for a failure's message."""
    values = state.values
    return (f"hand {values['hand_number']} (dealer p{values['dealer']}), phase {state.phase}, "
            f"{values['tricks_played']} tricks played, hearts broken: {values['hearts_broken']}, "
            f"p{state.current_player} to play holding {_texts(state, values['hand'][state.current_player])}, "
            f"trick {_texts(state, values['trick'])}")


def _differences(engine: list[str], plain: list[str]) -> str:
    return (f"engine {engine}, plain {plain} (only the engine's: {sorted(set(engine) - set(plain))}, only the "
            f"plain game's: {sorted(set(plain) - set(engine))})")


def _kinds(state: State) -> list[str]:
    """The kinds of position the decision at `state` is, of those where a rule that matters decides (counted, so
    that the test can assert that its seeds reach them)."""
    values = state.values
    if state.phase == "pass":
        return ["pass"]
    hand = _texts(state, values["hand"][state.current_player])
    trick = _texts(state, values["trick"])
    hearts = sum(text.endswith("H") for text in hand)
    first_trick = values["tricks_played"] == 0
    kinds = []
    if not trick and not first_trick and not values["hearts_broken"]:
        if hearts == len(hand):
            kinds.append("lead: only hearts left, hearts not broken")
        elif hearts:
            kinds.append("lead: hearts held back, not broken")
    if not trick and values["hearts_broken"] and 0 < hearts < len(hand) and not any(
            text.endswith("H") for won in values["won"] for text in _texts(state, won)):
        kinds.append("lead: hearts broken by the queen of spades alone")
    if trick and not any(text[-1] == trick[0][-1] for text in hand):
        points = sum(_is_point(text) for text in hand)
        if first_trick and points == len(hand):
            kinds.append("void on the first trick: only point cards")
        elif first_trick and points:
            kinds.append("void on the first trick: point cards held back")
        elif not first_trick and points:
            kinds.append("void after the first trick, holding point cards")
    return kinds


class Lockstep(PLAIN.Hearts):
    """The plain game playing the engine's matches beside it: each of its deals is the engine's deal, each of its
    decisions is checked against the engine's legal set and made as the engine's random choice, and each hand's
    scoring is checked against the engine's."""

    def __init__(self, seed: int, stacked: dict[int, list[str]] | None = None) -> None:
        super().__init__(10**9, seed, [])
        self.game = load_ruleset(RULESET)
        self.seed = seed
        self.choices = random.Random(seed)
        self.rng = _EngineDeal(self)  # the plain game's one other use of its generator: the shuffle at each deal
        self.stacked = stacked or {}  # hand number -> the deck's order (cards' texts, the first dealt first)
        self.state: State
        self.seen: Counter[str] = Counter()  # the kinds of position (see `_kinds`) and of hand seen
        self.seen_in: set[tuple[int, str]] = set()  # (hand number, kind) of each one seen
        self.checked = 0
        self.hand_number = self.dealer = 0
        self.hand_start = 0  # the engine's events before the hand
        self.score_before: list[int] = []
        self.taken: list[int] = []
        # each hand's (number, points taken) as the engine's hand left them, read at its end (`engine_hand_end`):
        # the next hand starts its variables again at 0 within the same action
        self.engine_ended: list[tuple[int, list[int]]] = []

    def play_matches(self, matches: int) -> None:
        for number in range(matches):
            self.state = self.game.new_initial_state(seed=self.seed * 1000 + number)
            self.state.hand_end_hook = self.engine_hand_end
            self.play_match()
            assert self.state.is_terminal, (f"the plain match ends after hand {self.hand_number}, the engine's "
                                            f"goes on (scores {self.state.values['score']})")

    # ------------------------------------------------------------------ the plain game's hooks
    def play_hand(self, hand_number: int, dealer: int, score: list[int]) -> None:
        self.hand_number, self.dealer = hand_number, dealer
        super().play_hand(hand_number, dealer, score)
        self.check_scoring(score)

    def deal(self, deck: list[int]) -> None:
        """The engine deals this hand (stacked if asked); the plain deck is ordered so that the plain game's deal
        gives each seat the engine's hand, in the engine's order."""
        state = self.state
        values = state.values
        assert state.current_player == CHANCE and not state.is_terminal, (
            f"the plain game deals hand {self.hand_number}, the engine does not: "
            f"{'its match is over, scores ' + str(values['score']) if state.is_terminal else _position(state)}")
        assert (values["hand_number"], values["dealer"]) == (self.hand_number, self.dealer), \
            f"the engine deals hand {values['hand_number']} (dealer p{values['dealer']}), the plain game hand " \
            f"{self.hand_number} (dealer p{self.dealer})"
        self.score_before = list(values["score"])
        self.hand_start = state.event_count
        self.engine_ended = []
        state.apply_chance(self.stacked.get(self.hand_number))
        hands = state.values["hand"]
        for i in range(PLAIN.SEATS):  # (the plain deal: the i-th seat from the dealer's left gets deck[i::4])
            deck[i::PLAIN.SEATS] = _plain_cards(state, hands[(self.dealer + 1 + i) % PLAIN.SEATS])
        self.seen[f"hand passing {('none', 'left', 'right', 'across')[self.hand_number % 4]}"] += 1

    def decide(self, legal: list[int]) -> int:
        state = self.state
        assert state.current_player != CHANCE and not state.is_terminal, \
            f"the plain game decides in hand {self.hand_number} ({self.phase}), the engine does not"
        assert state.phase == self.phase, f"the plain game is in phase {self.phase}: {_position(state)}"
        actions = state.legal_actions()
        engine = [state.action_text(action) for action in actions]
        verb = "discard" if state.phase == "pass" else "play"
        seat = state.current_player
        rebuilt = [f"p{seat} {verb} {PLAIN.NAMES[card]}" for card in _plain_legal(state)]
        assert rebuilt == engine, (f"the plain legal-set functions at the engine's position differ from the "
                                   f"engine's legal set: {_position(state)}; {_differences(engine, rebuilt)}")
        own = [f"p{seat} {verb} {PLAIN.NAMES[card]}" for card in legal]
        assert own == engine, (f"the plain game's own legal set (from the position it kept) differs from the "
                               f"engine's: {_position(state)}; {_differences(engine, own)}")
        self.checked += 1
        for kind in _kinds(state):
            self.seen[kind] += 1
            self.seen_in.add((self.hand_number, kind))
        index = self.choices.randrange(len(actions))
        state.apply(actions[index])
        return legal[index]

    def engine_hand_end(self, state: State) -> None:
        """The engine's hook at the end of each hand, before the next one starts."""
        self.engine_ended.append((state.values["hand_number"], list(state.values["taken"])))

    def play_tricks(self, hands: list[list[int]]) -> list[int]:
        self.taken = super().play_tricks(hands)
        return self.taken

    # ------------------------------------------------------------------ the checks of a hand's scoring
    def check_scoring(self, score: list[int]) -> None:
        """The hand is over in both games: the engine is at the next deal, or the match's end."""
        state = self.state
        assert state.current_player == CHANCE or state.is_terminal, \
            f"the plain hand {self.hand_number} is over, the engine's is not: {_position(state)}"
        ended = [number for number, _ in self.engine_ended]
        assert ended == [self.hand_number], \
            f"the plain hand {self.hand_number} is over, the engine ended the hands {ended} since its deal"
        taken = self.engine_ended[0][1]
        # the moon is the engine's own word for it (its log), not worked out here from the points taken
        logs = [event["text"] for event in state.events_since(self.hand_start) if event["type"] == "log"]
        moon = any(text.endswith("shoots the moon") for text in logs)
        after = list(state.values["score"])
        where = (f"hand {self.hand_number}: engine points taken {taken}, scores {self.score_before} -> {after}"
                 f"{' (moon)' if moon else ''}")
        assert self.taken == taken, f"{where}; the plain game's points taken {self.taken}"
        assert score == after, f"{where}; the plain game's scores after the hand {score}"
        scored = list(self.score_before)
        shot = PLAIN.score_hand(taken, scored)
        assert (scored, shot) == (after, moon), \
            f"{where}; the plain scoring of the engine's points taken: {scored}, moon {shot}"
        self.seen["hand"] += 1
        if moon:
            self.seen["moon"] += 1
            self.seen_in.add((self.hand_number, "moon"))


class _EngineDeal:
    """Stands in for the plain game's random generator, whose only other use (its choices are the engine's) is
    the shuffle at each deal: the shuffle becomes the engine's deal."""

    def __init__(self, lockstep: Lockstep) -> None:
        self.lockstep = lockstep

    def shuffle(self, deck: list[int]) -> None:
        self.lockstep.deal(deck)


def test_the_decks_are_the_same_cards() -> None:
    """The plain game's 52 cards are the ruleset's, by text: positions are rebuilt through the cards' texts."""
    state = load_ruleset(RULESET).new_initial_state(seed=1)
    assert sorted(state.card_text(card) for card in range(52)) == sorted(PLAIN.NAMES)


@cache
def _played(seed: int) -> tuple[int, Counter[str]]:
    """MATCHES whole matches of random play from `seed`, all checked: the decisions checked and the kinds of
    position seen (made once per seed, for both tests that read them)."""
    lockstep = Lockstep(seed)
    lockstep.play_matches(MATCHES)
    return lockstep.checked, lockstep.seen


@pytest.mark.parametrize("seed", SEEDS)
def test_the_plain_game_plays_the_engine_s_matches(seed: int) -> None:
    """Whole matches of random play: every legal set and every hand's scoring the same (see the module's
    docstring)."""
    checked, seen = _played(seed)
    assert checked >= MATCHES * 300
    assert all(seen[f"hand passing {way}"] for way in ("none", "left", "right", "across")), seen


def test_the_seeds_reach_the_rules_that_matter() -> None:
    """Over all the seeds, random play reaches each rule that decides a legal set or a score (the seeds are
    fixed: these counts are always the same); the stacked hands below reach the rarer ones."""
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        seen += _played(seed)[1]
    for kind in ("lead: hearts held back, not broken", "lead: hearts broken by the queen of spades alone",
                 "void on the first trick: point cards held back", "void after the first trick, holding point cards",
                 "moon"):
        assert seen[kind] >= 1, (kind, seen)


def _stacked_deck(seat_one: list[str]) -> list[str]:
    """The order of a deck dealt from seat 0 on (as hand 4's, dealt by seat 3) that gives seat 1 the cards
    `seat_one` and the other cards round seats 0, 2 and 3, the 2 of clubs to seat 0 unless seat 1 holds it."""
    rest = sorted(set(PLAIN.NAMES) - set(seat_one), key=lambda text: (text != "2C", PLAIN.NAMES.index(text)))
    hands = [rest[0::3], seat_one, rest[1::3], rest[2::3]]
    assert [len(hand) for hand in hands] == [13] * 4
    return [hands[seat][i] for i in range(13) for seat in range(4)]


HEARTS = [f"{rank}H" for rank in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
CLUBS = [f"{rank}C" for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


@pytest.mark.parametrize(("seat_one", "kind"), [
    ([*HEARTS, "QS"], "void on the first trick: only point cards"),
    ([*HEARTS, "AC"], "lead: only hearts left, hearts not broken"),
    (CLUBS, "moon"),
], ids=["only-points-on-the-first-trick", "only-hearts-to-lead", "moon"])
def test_stacked_hands_reach_the_rare_rules(seat_one: list[str], kind: str) -> None:
    """Hand 4 (no passing) dealt from a stacked deck, the rest of the match at random, all checked as above,
    whatever the choices. Seat 1 holds:
      * 12 hearts and the queen of spades: void in clubs on the first trick with only point cards, it may play
        any card;
      * 12 hearts and the ace of clubs: it takes the first trick (which holds no point card: no one else may
        play one there) and leads the second with only hearts left, hearts not broken, so it may lead any;
      * the 13 clubs: it leads the 2 of clubs, then wins every trick (no one else can follow), so it takes all
        26 points and shoots the moon."""
    lockstep = Lockstep(7, stacked={4: _stacked_deck(seat_one)})
    lockstep.play_matches(1)
    assert (4, kind) in lockstep.seen_in, sorted(lockstep.seen_in)
