"""benchmarks/plain/cribbage.py is tests/games/cribbage.yaml written by hand, step by step, not only on average.

benchmarks/games_speed.py times the engine against the plain game, which is a fair measure only while the two
play the same game: the same decisions, with the same legal sets, and the same points. Comparing the sizes of
legal sets over many decisions (tests/unit/test_plain_games.py) does not see a rule changed on one side only,
such as a count limit of 30, a count that goes on past 31, or a show that counts a double run once. So random
matches of the ruleset are played through the engine (fixed seeds), and the plain game is held to each of them:

* at every decision, the plain game's own legal-set code, asked on the position the engine's state holds (the
  deciding seat's hand, the count and the pile), gives the engine's legal set, in the same order;
* every score change the engine makes that the plain game has a function for is that function's value on the
  engine's position: the points of each card played (the count's cards and the count), each hand's and crib's
  show (the four cards and the starter), and his heels (the starter), starters and cards that score nothing
  included. The engine's changes are read from its log, each line checked against its `score` variable;
* the plain `Match`, dealt the engine's shuffled decks and given the engine's choices, asks the same decisions
  with the same legal sets, in the same hands, with the same dealer and scores, and scores the same points in
  the same order (the go, the last card and the end at the target included), ending the match where the
  engine does: what no function of a position shows (a new count at 31, who leads the next count, the go);
* the plain `result` of final scores is the ruleset's `match.result` of the same scores, at the lurch line too.

The last test shows the seeds reach the rules a change would show in (a count of 31, a card refused over 31, a
pair royal and runs in the play, double runs, five-card runs and flushes in the show, his heels and nobs, a match
won in the play, a lurched loser), so that a change of the engine's shuffles cannot leave them unchecked.
Cards are compared by their texts (`7S`, a pair `7S+8H`): the plain game's numbers are mapped through its
`NAMES`, the engine's through its deck.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from interpreter import CHANCE, load_ruleset
from tests.plain_helpers import load_plain

ROOT = Path(__file__).resolve().parents[2]
PLAIN = ROOT / "benchmarks" / "plain" / "cribbage.py"
RULESET = ROOT / "tests" / "games" / "cribbage.yaml"
SEEDS = range(100)  # whole matches of random play: about 12,000 decisions in 1,200 hands

# The ruleset's log lines that report points (each with the seat's new score), and the others.
STARTER = re.compile(r"the starter is (\S+)")
HEELS = re.compile(r"p(\d) two for his heels, (\d+)")
PEGS = re.compile(r"p(\d) pegs (\d+) at (\d+), (\d+)")
GO = re.compile(r"p(\d) one for the go, (\d+)")
LAST_CARD = re.compile(r"p(\d) one for last card, (\d+)")
SHOW = re.compile(r"p(\d) (shows|crib) ((?:\S+ )*\S+): (\d+), (\d+)")
SAYS_GO = re.compile(r"p\d says go")


@dataclass(frozen=True)
class Position:
    """One decision of an engine match: what the state held (cards as texts) and what was decided."""

    number: int                 # decisions of the match before this one
    hand_number: int
    dealer: int
    phase: str                  # "deal" (the lay-away) or "play"
    seat: int
    hand: tuple[str, ...]       # the deciding seat's hand, in the engine's order
    running: int
    pile: tuple[str, ...]       # the current count's cards, in the order played
    score: tuple[int, ...]
    legal: tuple[str, ...]      # the engine's legal set: a card's text, or a pair's `7S+8H`
    chosen: str

    def describe(self, seed: int) -> str:
        return (f"seed {seed}, hand {self.hand_number}, decision {self.number}: p{self.seat} in {self.phase}, "
                f"dealer p{self.dealer}, hand {' '.join(self.hand)}, count {self.running}, pile "
                f"{' '.join(self.pile) or '-'}, score {list(self.score)}")


@dataclass(frozen=True)
class Scoring:
    """One score change of the engine (zero points included where a card or a starter scores nothing)."""

    kind: str                   # "heels", "peg", "go", "last card", "show" or "crib"
    seat: int
    points: int
    decisions_before: int       # decisions of the match made before it
    hand_number: int
    cards: tuple[str, ...] = ()  # peg: the count's cards, the one just played last; show, crib: the four cards
    starter: str = ""
    running: int = 0            # peg: the count with the card

    def describe(self, seed: int) -> str:
        where = {"peg": f" for {' '.join(self.cards)} at {self.running}",
                 "show": f" for {' '.join(self.cards)} with {self.starter}",
                 "crib": f" for {' '.join(self.cards)} with {self.starter}",
                 "heels": f" for the starter {self.starter}"}.get(self.kind, "")
        return f"seed {seed}, hand {self.hand_number}: p{self.seat} {self.kind} {self.points}{where}"


@dataclass
class EngineMatch:
    """A whole match of random play through the engine, as the plain game is checked against it."""

    seed: int
    decks: list[list[str]] = field(default_factory=list)  # each hand's shuffled stock, the top card first
    positions: list[Position] = field(default_factory=list)
    scorings: list[Scoring] = field(default_factory=list)
    final: tuple[int, ...] = ()
    results: tuple[int, ...] = ()  # the ruleset's `match.result` of each seat
    end: Any = None  # the engine's state at the end of the match


@cache
def _game() -> Any:
    """The ruleset, loaded once."""
    return load_ruleset(RULESET)


def _plain(path: Path = PLAIN) -> ModuleType:
    """The plain game, loaded by path (benchmarks/ is no package)."""
    return load_plain(path, "plain_cribbage_stepwise")


class _EngineReader:
    """Reads an engine match's events as they come: the decks shuffled, and every score change from the log,
    each checked against the seat's new score the log line quotes (so that no change goes unread)."""

    def __init__(self, record: EngineMatch, deck: Any) -> None:
        self.record = record
        self.deck = deck
        self.totals = [0, 0]
        self.hand_number = 0
        self.dealer = 0
        self.starter = ""
        self.pending: Scoring | None = None  # a card played or a starter turned: its points may follow

    def add(self, scoring: Scoring, total: int | None = None) -> None:
        self.totals[scoring.seat] += scoring.points
        if total is not None:
            assert total == self.totals[scoring.seat], (scoring.describe(self.record.seed), total, self.totals)
        self.record.scorings.append(scoring)

    def read(self, events: list[dict[str, Any]], last: Position | None) -> None:
        made = len(self.record.positions)
        for event in events:
            pending, self.pending = self.pending, None
            text = event.get("text", "")
            if pending is not None:
                found = (PEGS if pending.kind == "peg" else HEELS).fullmatch(text)
                if found is None:
                    self.add(pending)  # no points for it
                else:
                    if pending.kind == "peg":
                        assert int(found[3]) == pending.running, (pending.describe(self.record.seed), text)
                    assert int(found[1]) == pending.seat, (pending.describe(self.record.seed), text)
                    points = int(found[2]) if pending.kind == "peg" else 2  # ("two for his heels")
                    self.add(replace(pending, points=points), int(found[found.re.groups]))
                    continue
            kind = event["type"]
            if kind == "hand":
                self.hand_number, self.dealer = event["hand"], event["dealer"]
            elif kind == "chance":
                self.record.decks.append(list(event["order"]))
            elif kind == "action" and event["action"].split()[1] == "play":
                assert last is not None
                card = event["action"].rsplit(" ", 1)[1]
                value = self.deck.value_of[self.deck.parse_card(card)]
                self.pending = Scoring("peg", last.seat, 0, made, self.hand_number, (*last.pile, card),
                                       running=last.running + value)
            elif kind == "log":
                self.read_log(text, made)
        if self.pending is not None:
            self.add(self.pending)
            self.pending = None

    def read_log(self, text: str, made: int) -> None:
        hand = self.hand_number
        if found := STARTER.fullmatch(text):
            self.starter = found[1]
            self.pending = Scoring("heels", self.dealer, 0, made, hand, starter=self.starter)
        elif found := GO.fullmatch(text):
            self.add(Scoring("go", int(found[1]), 1, made, hand), int(found[2]))
        elif found := LAST_CARD.fullmatch(text):
            self.add(Scoring("last card", int(found[1]), 1, made, hand), int(found[2]))
        elif found := SHOW.fullmatch(text):
            self.add(Scoring("show" if found[2] == "shows" else "crib", int(found[1]), int(found[4]), made, hand,
                             tuple(found[3].split()), self.starter), int(found[5]))
        else:
            assert SAYS_GO.fullmatch(text), f"seed {self.record.seed}: a log line this test does not know: {text!r}"


def _engine_key(state: Any, action: Any) -> str:
    """An engine action as the test compares it: the card played, or the pair laid away (`7S+8H`)."""
    if action.kind == "play":
        return str(state.card_text(action.card))
    assert action.kind == "choose" and action.name == "lay_away", state.action_text(action)
    return "+".join(state.card_text(card) for card in dict(action.arguments)["pair"])


def _play_engine(seed: int) -> EngineMatch:
    """A match of the ruleset through the engine, seat choices uniformly random from `random.Random(seed)`."""
    state = _game().new_initial_state(seed=seed)
    rng = random.Random(seed)
    record = EngineMatch(seed)
    reader = _EngineReader(record, state.game.deck)
    read = 0
    last: Position | None = None
    while True:
        reader.read(state.events_since(read), last)
        read = state.event_count
        # the log accounts for every score change
        assert list(state.values["score"]) == reader.totals, (seed, state.values["score"], reader.totals)
        if state.is_terminal:
            break
        if state.current_player == CHANCE:
            state.apply_chance()
            continue
        values = state.values
        seat = state.current_player
        legal = state.legal_actions()
        chosen = legal[rng.randrange(len(legal))]
        last = Position(len(record.positions), values["hand_number"], values["dealer"], state.phase, seat,
                        tuple(state.card_text(card) for card in values["hand"][seat]), values["running"],
                        tuple(state.card_text(card) for card in values["pile"]), tuple(values["score"]),
                        tuple(_engine_key(state, action) for action in legal), _engine_key(state, chosen))
        record.positions.append(last)
        state.apply(chosen)
    record.final = tuple(state.values["score"])
    record.results = tuple(state.returns())
    record.end = state
    return record


@cache
def _engine_matches() -> tuple[EngineMatch, ...]:
    """The engine's match for each seed, played once for every test."""
    return tuple(_play_engine(seed) for seed in SEEDS)


def _plain_key(module: ModuleType, option: int | tuple[int, ...]) -> str:
    """A plain legal option as the test compares it: the card's text, or the pair's (`7S+8H`)."""
    if isinstance(option, tuple):
        return "+".join(module.NAMES[card] for card in option)
    return str(module.NAMES[option])


def _cards(module: ModuleType, texts: tuple[str, ...] | list[str]) -> list[int]:
    """Cards named by their texts, as the plain game numbers them."""
    return [module.NAMES.index(text) for text in texts]


# ---------------------------------------------------------------------------------------------- the checks


def check_legal_sets(module: ModuleType, matches: tuple[EngineMatch, ...]) -> Counter[str]:
    """At each engine decision, the plain game's legal-set function on the engine's position gives the engine's
    legal set, in its order (and at each play `can_play` says the seat can play: a seat that cannot is never
    asked). Returns how many of each kind of decision were checked: a lay-away, a play leading a count, a play
    following in one, and (also counted as one of those two) a play where a card is refused because it would
    take the count over 31."""
    checked: Counter[str] = Counter()
    for match in matches:
        for position in match.positions:
            hand = _cards(module, position.hand)
            if position.phase == "deal":
                options = module.lay_away_options(hand)
                checked["lay-away"] += 1
            else:
                assert position.phase == "play", position.describe(match.seed)
                options = module.play_options(hand, position.running)
                assert module.can_play(hand, position.running), position.describe(match.seed)
                checked["play, following" if position.pile else "play, leading"] += 1
                checked["play, a card refused"] += len(position.legal) < len(position.hand)
            mine = tuple(_plain_key(module, option) for option in options)
            assert mine == position.legal, (
                f"{position.describe(match.seed)}:\n  plain legal set  {' '.join(mine)}\n"
                f"  engine legal set {' '.join(position.legal)}")
    return checked


def check_points(module: ModuleType, matches: tuple[EngineMatch, ...]) -> Counter[str]:
    """Each card played, each show and crib, each starter: the plain game's points on the engine's position are
    the engine's score change. Returns how many of each kind were checked."""
    checked: Counter[str] = Counter()
    for match in matches:
        for scoring in match.scorings:
            if scoring.kind == "peg":
                mine = module.peg_points(_cards(module, scoring.cards), scoring.running)
            elif scoring.kind in ("show", "crib"):
                starter = module.NAMES.index(scoring.starter)
                mine = module.show_points(_cards(module, scoring.cards), starter, scoring.kind == "crib")
            elif scoring.kind == "heels":
                mine = module.heels_points(module.NAMES.index(scoring.starter))
            else:
                continue  # the go and the last card: one point, checked by the replay
            assert mine == scoring.points, f"{scoring.describe(match.seed)}: the plain game scores {mine}"
            checked[scoring.kind] += 1
    return checked


def replay(module: ModuleType, match: EngineMatch) -> int:
    """The plain `Match` dealt the engine's decks and given the engine's choices: at each decision the same hand
    number, dealer, score, points scored so far (seat and points, in order) and legal set (as a set: the plain
    game keeps its hands sorted, the engine in the order dealt); at the end, the same decisions and points, and
    a match over at the same moment. Returns the number of decisions replayed."""
    seed = match.seed
    decks = iter(match.decks)
    engine_points = [(s.seat, s.points, s.kind) for s in match.scorings if s.points]

    def scored_before(made: int) -> list[tuple[int, int]]:
        return [(s.seat, s.points) for s in match.scorings if s.points and s.decisions_before <= made]

    def differ(mine: list[tuple[int, int]], made: int) -> str:
        theirs = [(s.seat, s.points, s.kind, s.hand_number) for s in match.scorings
                  if s.points and s.decisions_before <= made]
        at = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b[:2]),
                  min(len(mine), len(theirs)))
        return (f"seed {seed}: the points differ from score change number {at + 1} on:\n"
                f"  plain  (seat, points) {mine[at:at + 6]}\n  engine (seat, points, kind, hand) {theirs[at:at + 6]}")

    class Deals:
        """The random generator the plain match is given: the engine's shuffles, and no choices of its own."""

        def shuffle(self, deck: list[int]) -> None:
            order = next(decks, None)
            assert order is not None, f"seed {seed}: the plain game deals a hand the engine's match never had"
            deck[:] = _cards(module, order)

        def randrange(self, _: int) -> int:
            raise AssertionError("the replay makes every choice")

    class Replay(module.Match):
        def __init__(self) -> None:
            super().__init__(Deals(), [], 10**9)
            self.points: list[tuple[int, int]] = []

        def peg(self, seat: int, points: int) -> None:
            if points:
                self.points.append((seat, points))
            super().peg(seat, points)

        def choose(self, legal: list[Any]) -> Any:
            assert self.made < len(match.positions), f"seed {seed}: the plain game asks a decision more"
            position = match.positions[self.made]
            where = position.describe(seed)
            assert (self.hands + 1, self.dealer) == (position.hand_number, position.dealer), (
                f"{where}: the plain game is at hand {self.hands + 1}, dealer p{self.dealer}")
            assert self.points == scored_before(self.made), differ(self.points, self.made)
            assert tuple(self.score) == position.score, f"{where}: the plain score is {self.score}"
            mine = [_plain_key(module, option) for option in legal]
            assert sorted(mine) == sorted(position.legal), (
                f"{where}:\n  plain legal set  {' '.join(mine)}\n  engine legal set {' '.join(position.legal)}")
            self.made += 1
            self.sizes.append(len(legal))
            return legal[mine.index(position.chosen)]

    plain = Replay()
    with pytest.raises(module.MatchOver):
        plain.play()
    assert plain.made == len(match.positions), (
        f"seed {seed}: the plain match ends after {plain.made} decisions, the engine's after {len(match.positions)}")
    assert plain.points == [p[:2] for p in engine_points], differ(plain.points, len(match.positions))
    assert tuple(plain.score) == match.final, (seed, plain.score, match.final)
    results = tuple(module.result(plain.score, seat) for seat in (0, 1))
    assert results == match.results, f"seed {seed}: plain results {results}, engine results {match.results}"
    assert next(decks, None) is None, f"seed {seed}: the engine dealt a hand the plain game did not"
    return int(plain.made)


def check_results(module: ModuleType, matches: tuple[EngineMatch, ...]) -> Counter[int]:
    """The plain `result` of final scores is the ruleset's `match.result` on the same scores, the lines of the
    rule included (a win at the target or past it; a loser lurched under 91, or not at 91). Returns how often
    the ruleset gave each result."""
    ended = matches[0].end.clone()
    checked: Counter[int] = Counter()
    for winner in (121, 122, 127):
        for loser in (0, 89, 90, 91, 92, 120):
            for score in ((winner, loser), (loser, winner)):
                ended.values["score"] = list(score)
                mine = [module.result(score, seat) for seat in (0, 1)]
                assert mine == list(ended.returns()), f"scores {score}: plain results {mine}, " \
                    f"engine results {ended.returns()}"
                checked.update(ended.returns())
    return checked


def features(matches: tuple[EngineMatch, ...]) -> Counter[str]:
    """How often the engine matches reach each rule a checked change would show in (from the engine alone)."""
    deck = _game().deck

    def rank(text: str) -> int:
        return int(deck.rank_of[deck.parse_card(text)])

    def suit(text: str) -> int:
        return int(deck.suit_of[deck.parse_card(text)])

    def has_run(ranks: list[int]) -> bool:
        return len(set(ranks)) == len(ranks) and max(ranks) - min(ranks) == len(ranks) - 1

    found: Counter[str] = Counter()
    for match in matches:
        for position in match.positions:
            if position.phase == "play" and len(position.legal) < len(position.hand):
                found["a card refused: over 31"] += 1
        for s in match.scorings:
            ranks = [rank(card) for card in s.cards]
            if s.kind == "peg":
                found["a count of 31"] += s.running == 31
                found["a count of 15"] += s.running == 15
                found["a pair royal in the play"] += len(ranks) >= 3 and len(set(ranks[-3:])) == 1
                found["a run of four in the play"] += len(ranks) >= 4 and has_run(ranks[-4:])
                found["a run in the play"] += len(ranks) >= 3 and has_run(ranks[-3:])
            elif s.kind in ("go", "last card"):
                found[f"one for the {s.kind}"] += 1
            elif s.kind == "heels":
                found["his heels"] += s.points > 0
            else:
                every = [*ranks, rank(s.starter)]
                distinct = sorted(set(every))
                found["a double run in a show"] += len(distinct) < 5 and any(
                    has_run(distinct[i:i + 3]) and any(every.count(r) > 1 for r in distinct[i:i + 3])
                    for i in range(len(distinct) - 2))
                one_suit = len({suit(card) for card in s.cards}) == 1
                found[f"a four-card flush in a {s.kind}"] += one_suit and suit(s.starter) != suit(s.cards[0])
                found[f"a five-card flush in a {s.kind}"] += one_suit and suit(s.starter) == suit(s.cards[0])
                found["a five-card run in a show"] += has_run(every)
                found["his nobs"] += any(card[:-1] == "J" and suit(card) == suit(s.starter) for card in s.cards)
        last = next(s.kind for s in reversed(match.scorings) if s.points)
        found["a lurched loser"] += 2 in match.results
        found[f"a match won in the {'play' if last in ('peg', 'go', 'last card') else 'show'}"] += 1
    return found


# ---------------------------------------------------------------------------------------------- the tests


@pytest.fixture(scope="module")
def plain() -> ModuleType:
    return _plain()


@pytest.fixture(scope="module")
def matches() -> tuple[EngineMatch, ...]:
    return _engine_matches()


def test_the_plain_legal_sets_are_the_engines_at_every_decision(plain: ModuleType,
                                                                 matches: tuple[EngineMatch, ...]) -> None:
    """`lay_away_options` and `play_options` on each engine position: the engine's legal set (`check_legal_sets`).
    The seeds check many decisions of each kind (about 2,500 lay-aways, 2,700 leads, 7,300 follows and 900 plays
    with a card refused): the floors fail if random play stopped reaching one of them."""
    checked = check_legal_sets(plain, matches)
    floors = {"lay-away": 2000, "play, leading": 2000, "play, following": 5000, "play, a card refused": 500}
    short = {kind: checked[kind] for kind, floor in floors.items() if checked[kind] < floor}
    assert not short, (short, checked)


def test_the_plain_points_are_the_engines_on_the_same_cards(plain: ModuleType,
                                                            matches: tuple[EngineMatch, ...]) -> None:
    """`peg_points`, `show_points` and `heels_points` on the engine's cards: its points (`check_points`)."""
    checked = check_points(plain, matches)
    assert min(checked[kind] for kind in ("peg", "show", "crib", "heels")) > 0, checked


@pytest.mark.parametrize("seed", SEEDS)
def test_the_plain_match_replays_the_engines(plain: ModuleType, matches: tuple[EngineMatch, ...], seed: int) -> None:
    """The plain match, fed the engine's deals and choices, plays the engine's match (`replay`)."""
    match = matches[SEEDS.index(seed)]
    assert replay(plain, match) == len(match.positions) > 0


def test_the_plain_results_are_the_engines_on_the_same_scores(plain: ModuleType,
                                                              matches: tuple[EngineMatch, ...]) -> None:
    """`result` of final scores around the target and the lurch line: the ruleset's (`check_results`). The scores
    tried give each of the ruleset's results (a win, a win over a lurched loser, a loss, a lurched loss), so that
    the check cannot pass on scores that never reach one of them."""
    assert set(check_results(plain, matches)) == {2, 1, -1, -2}


def test_the_seeds_reach_the_rules_that_matter(matches: tuple[EngineMatch, ...]) -> None:
    """Each rule the checks above hold the plain game to is reached at least twice by the seeds' matches:
    without that they could pass on a plain game that breaks it (the seeds are fixed, but the engine's shuffles
    or the ruleset may change)."""
    found = features(matches)
    wanted = ["a card refused: over 31", "a count of 31", "a count of 15", "a pair royal in the play",
              "a run in the play", "a run of four in the play", "one for the go", "one for the last card",
              "his heels", "a double run in a show", "a five-card run in a show", "a four-card flush in a show",
              "a five-card flush in a show", "a four-card flush in a crib", "a five-card flush in a crib",
              "his nobs", "a match won in the play", "a match won in the show", "a lurched loser"]
    missing = [name for name in wanted if found[name] < 2]
    assert not missing, (missing, found)
