"""Rummy 500 in plain Python (benchmarks/plain/rummy500.py) is tests/games/rummy500.yaml exactly, decision by
decision: benchmarks/games_speed.py times the two side by side, and a plain game that drifted from its ruleset
would time other work. The sizes of the legal sets alone (tests/unit/test_plain_games.py) do not show it: a plain
game with at most one joker in a sequence, or without the low ace, makes legal sets of much the same sizes.

The engine plays the ruleset at random (fixed seeds; 2, 3, 5 and 8 players, so one deck and two; every other hand
dealt from a stacked deck that gives one player all the jokers and the next a long run of one suit). At every
decision the plain game's position is rebuilt from the engine's state (the hand, the discard pile, the size of the
stock, the card that must be used, every meld on the table as the plain game's own `Meld`) and the plain game's
legal-set code (`draw_options`, `turn_options`) gives its legal set, which must be the engine's, action by action
text, each action once. After each meld and lay-off, the plain game's points for it and the meld as it then lies
must be the engine's; after each hand, its score for every player (`hand_scores`) and whether the match is over
(`match_over`); at each deal, its deck and the number of cards dealt. The play always follows the engine, so that
one difference does not hide the next, and every difference is counted; a failure describes the first few. A
test makes sure that the play meets the rules that only some positions show, often enough.

These check the plain game's rules on positions taken from the engine; what benchmarks/games_speed.py times is its
own loop (`Table.play`), which keeps the position from decision to decision. So whole matches (2, 3, 5 and 8
players, the engine's own deals) are also played by that loop, its logic unchanged, beside the engine's
(`Lockstep`): the plain deal is laid out as the engine's, each plain decision is the engine's random choice, and
the loop must keep the engine's position at every decision (the player in turn, stock, discard pile, hands, melds
and points tabled) with the engine's legal set; after each hand, the same scores; for each deal, the same hand
number and dealer; the match's end after the same hand with the same totals, and the table's record of the
matches. A last test makes sure that the loop makes each kind of choice and ends hands each way often enough.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from interpreter import CHANCE, Action, Game, State, load_ruleset
from tests.plain_helpers import load_plain

ROOT = Path(__file__).resolve().parents[2]
PLAIN_FILE = ROOT / "benchmarks" / "plain" / "rummy500.py"
RULESET = ROOT / "tests" / "games" / "rummy500.yaml"
CASES = [(2, 1), (2, 2), (3, 1), (3, 2), (5, 1), (5, 2), (8, 1)]  # (players, seed)
DECISIONS = 4000  # per case
REPORTED = 3  # differences described in a failure message

# The plain game's cards, written out here rather than taken from it: suit * 13 + rank (suits S H D C, ranks 2 to
# ace), 52 a joker.
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "SHDC"
JOKER = 52

# What the walks must reach, at least this often over all the cases: the rules that only some legal sets and
# some plays show (counted among the actions both games offer, and the plays both make). The seeds are fixed, so
# the counts are too; each least is well below its count, for the walks to stay long enough when the ruleset or
# the engine's order of play changes.
SITUATIONS = {
    "take of two or more cards offered": 1000,
    "card taken deepest to be used": 1000,
    "group with a joker offered": 300,
    "sequence with two or more jokers offered": 200,
    "sequence with a low ace offered": 150,
    "sequence with a spare joker at either end offered": 300,
    "lay-off onto a group offered": 1000,
    "lay-off onto a sequence offered": 1000,
    "joker laid off offered": 300,
    "ace laid off low offered": 100,
    "meld points compared": 800,
    "lay-off points compared": 800,
    "low ace scored": 50,
    "hand ended by going out": 50,
    "hand ended on an empty stock": 20,
    "match over": 15,
    "equal best totals over the target compared": 30,
    "group with three jokers offered": 20,
    "sequence with four jokers offered": 20,
    "third joker laid off onto a group offered": 3,
    "fourth joker laid off onto a sequence offered": 3,
    "sequence of thirteen cards offered": 3,
    "thirteenth card laid off onto a sequence offered": 10,
    "ace laid off onto a sequence from 2 to K offered": 5,
}


@functools.cache
def _plain() -> ModuleType:
    """The plain game, loaded from its file (benchmarks/plain/ is no package)."""
    return load_plain(PLAIN_FILE, "plain_rummy500_in_step")


@functools.cache
def _game() -> Game:
    """The ruleset, loaded once for every case."""
    return load_ruleset(RULESET)


@functools.cache
def _card(card: int) -> int:
    """An engine's card as the plain game holds it, found from its text (`10H`, `JK`)."""
    text = _game().deck.card_text(card)
    return JOKER if text == "JK" else SUITS.index(text[-1]) * 13 + RANKS.index(text[:-1])


@dataclass
class Position:
    """The engine's position as the plain game holds it: cards as ints, the melds as its `Meld`s, each named as
    the engine names it (m<id>) for the action texts."""

    seat: int
    hand: list[int]
    discard: list[int]
    stock: int
    must: int
    melds: list[Any]
    names: dict[int, str]  # id(plain meld) -> its engine name
    by_id: dict[int, Any]  # engine meld id -> plain meld


@dataclass
class Walk:
    """One case's random play through the engine: the differences found, each described, and the situations
    met."""

    players: int
    seed: int
    decisions: int = 0  # made (the one being checked: its index)
    hand: int = 0  # the engine's number of the hand being played
    hand_size: int = 0  # the cards dealt to each player, as the engine deals them
    legal: list[str] = field(default_factory=list)  # legal sets
    tabled: list[str] = field(default_factory=list)  # points and the meld after a meld or lay-off
    scored: list[str] = field(default_factory=list)  # hand scores and match ends
    dealt: list[str] = field(default_factory=list)  # decks and deals
    seen: Counter[str] = field(default_factory=Counter)

    def where(self) -> str:
        return f"{self.players} players, seed {self.seed}, decision {self.decisions}, hand {self.hand}"


def _position(state: State) -> Position:
    """The plain game's position rebuilt from the engine's `state.values`, for the player in turn."""
    plain = _plain()
    values = state.values
    seat = state.current_player
    melds: list[Any] = []
    names: dict[int, str] = {}
    by_id: dict[int, Any] = {}
    for table in values["melds"]:
        for meld in table:
            naturals = [_card(c) for c, wild in zip(meld.cards, meld.wild, strict=True) if not wild]
            size, wilds = len(meld.cards), len(meld.cards) - len(naturals)
            if meld.kind == "group":
                suits = 0
                for natural in naturals:
                    suits |= 1 << natural // 13
                mine = plain.Meld(True, naturals[0] % 13, suits, plain.NONE, 0, 0, size, wilds)
            else:
                assert {natural // 13 for natural in naturals} == {meld.suit}, meld
                mine = plain.Meld(False, plain.NONE, 0, meld.suit, meld.low, meld.low + size - 1, size, wilds)
            melds.append(mine)
            names[id(mine)] = f"m{meld.id}"
            by_id[meld.id] = mine
    must = values["must_use"]
    return Position(seat, [_card(c) for c in values["hand"][seat]], [_card(c) for c in values["discard"]],
                    len(values["stock"]), plain.NONE if must is None else _card(must), melds, names, by_id)


def _described(state: State) -> str:
    """The position in words, for a failure message."""
    values = state.values
    text = state.card_text
    seat = state.current_player
    melds = "; ".join(f"m{meld.id} " + " ".join(text(c) for c in meld.cards)
                      for table in values["melds"] for meld in table) or "none"
    must = values["must_use"]
    return (f"p{seat} holds {' '.join(sorted(text(c) for c in values['hand'][seat]))}; must use "
            f"{'nothing' if must is None else text(must)}; discard pile (top last) "
            f"{' '.join(text(c) for c in values['discard'])}; stock {len(values['stock'])}; melds {melds}")


def _meld_fields(meld: Any) -> tuple[Any, ...]:
    """A plain meld's state, all of it (with the cards it takes, each with its place)."""
    return tuple(dict(getattr(meld, name)) if name == "takes" else getattr(meld, name)
                 for name in _plain().Meld.__slots__)


def _played(action: tuple[Any, ...] | None) -> tuple[int, Any]:
    """What the plain game's meld or lay-off scores, and the meld it makes or grows (None for other actions),
    played on the rebuilt position as the plain game plays it."""
    plain = _plain()
    if action is None or action[0] not in (plain.GROUP, plain.RUN, plain.ADD):
        return 0, None
    if action[0] == plain.ADD:
        _, card, meld, place = action
        points = plain.lay_off_points(meld, card, place)
        plain.lay_off(meld, card, place)
        return points, meld
    return plain.meld_points(action), plain.laid_meld(action)


def _note_offered(walk: Walk, position: Position, actions: list[tuple[Any, ...]]) -> None:
    """Count the situations met among the actions both games offer."""
    plain = _plain()
    seen = walk.seen
    if position.must != plain.NONE:
        seen["card taken deepest to be used"] += 1
    runs: Counter[tuple[Any, ...]] = Counter()
    for action in actions:
        kind = action[0]
        if kind == plain.TAKE and action[1] >= 2:
            seen["take of two or more cards offered"] += 1
        elif kind == plain.GROUP and action[3]:
            seen["group with a joker offered"] += 1
            if action[3] == 3:
                seen["group with three jokers offered"] += 1
        elif kind == plain.RUN:
            runs[action[1:4]] += 1
            if action[3] >= 2:
                seen["sequence with two or more jokers offered"] += 1
            if action[3] == 4:
                seen["sequence with four jokers offered"] += 1
            if action[4] == plain.LOW_ACE:
                seen["sequence with a low ace offered"] += 1
            if action[5] - action[4] == 12:
                seen["sequence of thirteen cards offered"] += 1
        elif kind == plain.ADD:
            seen["lay-off onto a group offered" if action[2].is_group else "lay-off onto a sequence offered"] += 1
            if action[1] == JOKER:
                seen["joker laid off offered"] += 1
                if action[2].wilds == (2 if action[2].is_group else 3):
                    seen["third joker laid off onto a group offered" if action[2].is_group else
                         "fourth joker laid off onto a sequence offered"] += 1
            elif action[3] == plain.LOW_ACE:
                seen["ace laid off low offered"] += 1
            if not action[2].is_group and action[2].size == 12:
                seen["thirteenth card laid off onto a sequence offered"] += 1
                if action[1] != JOKER and action[1] % 13 == 12:
                    seen["ace laid off onto a sequence from 2 to K offered"] += 1
    seen["sequence with a spare joker at either end offered"] += sum(count > 1 for count in runs.values())


def _check_legal(walk: Walk, state: State, legal: list[Action], position: Position) -> dict[str, tuple[Any, ...]]:
    """The plain game's legal set on the position against the engine's, by action text; the plain actions by
    their text."""
    plain = _plain()
    draw = any(action.kind in ("draw", "take", "choose") for action in legal)
    if draw:
        mine = plain.draw_options(position.stock, position.discard, position.hand, position.melds)
    else:
        mine = plain.turn_options(position.hand, position.must, position.melds)
    texts = [state.action_text(action) for action in legal]
    my_texts = [plain.action_text(position.seat, action, position.names) for action in mine]
    engine, plain_set = Counter(texts), Counter(my_texts)
    if engine != plain_set:
        twice = sorted(text for text, count in plain_set.items() if count > 1)
        walk.legal.append(
            f"{walk.where()}, {'draw' if draw else 'after the draw'}: {_described(state)}\n"
            f"    the engine only: {sorted(engine - plain_set)}\n    the plain game only: {sorted(plain_set - engine)}"
            + (f"\n    the plain game twice: {twice}" if twice else ""))
    actions = dict(zip(my_texts, mine, strict=True))
    _note_offered(walk, position, [actions[text] for text in texts if text in actions])
    return actions


def _check_tabled(walk: Walk, state: State, taken: Action, action: tuple[Any, ...], points: int, laid: Any,
                  tabled: int, ids: set[int]) -> None:
    """After a meld or lay-off that left the hand in play: the engine's points for it (the change of the
    player's `tabled`) and the meld as it then lies, rebuilt, against the plain game's (`points`, `laid`)."""
    plain = _plain()
    got = state.values["tabled"][taken.seat] - tabled
    after = _position(state)
    if action[0] == plain.ADD:
        meld = after.by_id[taken.target]
        walk.seen["lay-off points compared"] += 1
    else:
        (new,) = [meld.id for table in state.values["melds"] for meld in table if meld.id not in ids]
        meld = after.by_id[new]
        walk.seen["meld points compared"] += 1
    if (action[0] == plain.RUN and action[6] == plain.LOW_ACE) or \
            (action[0] == plain.ADD and action[1] != JOKER and action[3] == plain.LOW_ACE):
        walk.seen["low ace scored"] += 1
    text = state.action_text(taken)
    if got != points:
        walk.tabled.append(f"{walk.where()}: `{text}` scores {got} to the engine, {points} to the plain game")
    if _meld_fields(meld) != _meld_fields(laid):
        walk.tabled.append(f"{walk.where()}: after `{text}` the meld is {_meld_fields(meld)} to the engine, "
                           f"{_meld_fields(laid)} to the plain game (fields {plain.Meld.__slots__})")


def _check_hand_end(walk: Walk, state: State, taken: Action, points: int, tabled: list[int], score: list[int],
                    hands: list[list[int]]) -> None:
    """After the play that ended a hand: the plain game's score of the hand for every player (on the hands as
    they were left, and the points tabled with the last play's by the plain game) against the change of the
    engine's totals; whether the match is over, on the totals and on the totals with a tie for the best (the
    engine's `ends_when` on them)."""
    plain = _plain()
    seat = taken.seat
    gone = taken.cards if taken.kind == "meld" else (taken.card,) if taken.kind in ("add", "discard") else ()
    for card in gone:
        hands[seat].remove(card)
    tabled[seat] += points
    walk.seen["hand ended by going out" if not hands[seat] else "hand ended on an empty stock"] += 1
    totals = list(state.values["score"])
    engine = [after - before for after, before in zip(totals, score, strict=True)]
    mine = plain.hand_scores(tabled, [[_card(card) for card in hand] for hand in hands])
    if mine != engine:
        left = [" ".join(state.card_text(card) for card in hand) for hand in hands]
        walk.scored.append(f"{walk.where()}: after `{state.action_text(taken)}` the hand scores {engine} to "
                           f"the engine, {mine} to the plain game (tabled {tabled}, hands left {left})")
    if plain.match_over(totals) != state.is_terminal:
        walk.scored.append(f"{walk.where()}: with totals {totals} the match is {_over(state.is_terminal)} to the "
                           f"engine, {_over(not state.is_terminal)} to the plain game")
    if state.is_terminal:
        walk.seen["match over"] += 1
    # (the same with each other player's total made the best: equal best totals, rare in play)
    best = max(totals)
    values = dict(state.values)
    for raised in range(walk.players):
        if totals[raised] == best:
            continue
        values["score"] = tied = [best if seat == raised else total for seat, total in enumerate(totals)]
        over = state.evaluate(_game().program.ends_when, {}, values)
        if best >= plain.TARGET:
            walk.seen["equal best totals over the target compared"] += 1
        if plain.match_over(tied) != over:
            walk.scored.append(f"{walk.where()}: with totals {tied} the match is {_over(over)} to the engine, "
                               f"{_over(not over)} to the plain game")


def _over(over: bool) -> str:
    return "over" if over else "not over"


def _check_deal(walk: Walk, state: State) -> None:
    """At a hand's first decision: every card of the engine's (stock, discard pile, hands) against the plain
    game's deck, and the cards dealt to each player."""
    plain = _plain()
    values = state.values
    cards = [*values["stock"], *values["discard"], *(card for hand in values["hand"] for card in hand)]
    engine = Counter(_card(card) for card in cards)
    mine = Counter(plain.new_deck(walk.players))
    if engine != mine:
        walk.dealt.append(f"{walk.where()}: the deck differs, the engine only {sorted((engine - mine).elements())}"
                          f", the plain game only {sorted((mine - engine).elements())}")
    sizes = [len(hand) for hand in values["hand"]]
    walk.hand_size = sizes[0]
    if sizes != [plain.deal_size(walk.players)] * walk.players:
        walk.dealt.append(f"{walk.where()}: the engine deals {sizes} cards, the plain game "
                          f"{plain.deal_size(walk.players)} each")


def _decide(walk: Walk, state: State, rng: random.Random) -> None:
    """One decision: the legal sets compared, a random legal action applied, what it did compared."""
    legal = state.legal_actions()
    position = _position(state)
    actions = _check_legal(walk, state, legal, position)
    taken = legal[rng.randrange(len(legal))]
    action = actions.get(state.action_text(taken))
    values = state.values
    tabled, score = list(values["tabled"]), list(values["score"])
    hands = [list(hand) for hand in values["hand"]]
    ids = {meld.id for table in values["melds"] for meld in table}
    points, laid = _played(action)
    state.apply(taken)
    if action is None:
        pass  # (a legal set that differs: found above)
    elif state.is_terminal or state.values["hand_number"] != walk.hand:
        _check_hand_end(walk, state, taken, points, tabled, score, hands)
    elif laid is not None:
        _check_tabled(walk, state, taken, action, points, laid, tabled[taken.seat], ids)
    walk.decisions += 1


def _deal(walk: Walk, state: State, rng: random.Random) -> None:
    """The shuffle before a hand: the engine's own for odd hands; for even ones a deck stacked from `rng` that
    deals one player every joker and the next the lowest cards of a suit, up to the king (the deal goes one card
    at a time round the table), so that the rules of many jokers (three in a group, four in a sequence) and of long
    sequences (13 cards at most, the ace at one end only, low when it fits both) are met as well."""
    event = state.chance_event()
    assert event is not None and event["zone"] == "stock"
    if state.values["hand_number"] % 2:
        state.apply_chance()
        return
    assert walk.hand_size, "the first hand is dealt by the engine"
    players = walk.players
    jokers_to = rng.randrange(players)
    suit = rng.choice(SUITS)
    run = [rank + suit for rank in RANKS[:min(walk.hand_size, 12)]]
    order = list(event["contents"])
    for text in run:
        order.remove(text)
    jokers = order.count("JK")
    order = [text for text in order if text != "JK"]
    rng.shuffle(order)
    placed = {jokers_to + joker * players: "JK" for joker in range(jokers)}
    placed |= {(jokers_to + 1) % players + index * players: text for index, text in enumerate(run)}
    for place in sorted(placed):  # (each inserted at its place: those before it are in already)
        order.insert(place, placed[place])
    state.apply_chance(order)


@functools.cache
def _walk(players: int, seed: int) -> Walk:
    """Random play through the engine (matches from seeds seed * 1000 + 0, 1, ..., the choices and the stacked
    decks from `random.Random(seed)`) for DECISIONS decisions, each checked."""
    game = _game()
    rng = random.Random(seed)
    walk = Walk(players, seed)
    match = 0
    while walk.decisions < DECISIONS:
        state = game.new_initial_state(seed=seed * 1000 + match, players=players)
        match += 1
        walk.hand = 0
        while not state.is_terminal and walk.decisions < DECISIONS:
            if state.current_player == CHANCE:
                _deal(walk, state, rng)
                continue
            if state.values["hand_number"] != walk.hand:
                walk.hand = state.values["hand_number"]
                _check_deal(walk, state)
            _decide(walk, state, rng)
    return walk


def _report(differences: list[str], what: str) -> str:
    """A failure message: how many differ, and the first few described."""
    return f"{len(differences)} {what} differ; the first:\n" + "\n".join(differences[:REPORTED])


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_the_plain_legal_sets_are_the_engines(players: int, seed: int) -> None:
    """At every decision the plain game offers the engine's legal set: the draw (which depths of the discard
    pile may be taken), every new meld (jokers in groups and sequences, the low ace, a spare joker at either end),
    every lay-off and discard, and only what holds the card taken deepest while it must be used."""
    walk = _walk(players, seed)
    assert not walk.legal, _report(walk.legal, "legal sets")


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_the_plain_melds_and_lay_offs_score_and_lie_as_the_engines(players: int, seed: int) -> None:
    """After every meld and lay-off the plain game scores it as the engine does (the low ace 1, a joker 15) and
    the meld lies as the engine's: its ends, size and jokers, and so the cards it takes next."""
    walk = _walk(players, seed)
    assert not walk.tabled, _report(walk.tabled, "melds or lay-offs")


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_the_plain_hands_score_and_matches_end_as_the_engines(players: int, seed: int) -> None:
    """After every hand the plain game scores each player as the engine does (tabled less the cards left), and
    ends the match when the engine does."""
    walk = _walk(players, seed)
    assert not walk.scored, _report(walk.scored, "hand scores or match ends")


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_the_plain_deck_and_deal_are_the_engines(players: int, seed: int) -> None:
    """Each hand starts from the plain game's deck (one pack and two jokers, or two and four) and its deal."""
    walk = _walk(players, seed)
    assert not walk.dealt, _report(walk.dealt, "deals")


def test_the_walks_reach_the_rules_that_matter() -> None:
    """The random play checked above meets, often enough, the rules that only some positions show: without them
    the comparisons would pass on a plain game that lacks them."""
    seen: Counter[str] = Counter()
    for players, seed in CASES:
        seen += _walk(players, seed).seen
    short = {name: f"{seen[name]} < {least}" for name, least in SITUATIONS.items() if seen[name] < least}
    assert not short, f"the walks met too seldom: {short}"


# ---------------------------------------------------------------------------------------- the plain game's own loop
# (players, seed, matches): whole matches played by the plain game's own loop beside the engine's (seeds chosen
# so that some matches go on after a hand that leaves equal best totals over the target)
LOCKSTEP = [(2, 18, 3), (3, 13, 6), (5, 60, 4), (8, 5, 1)]

# What the plain game's own loop must meet, at least this often over the LOCKSTEP cases (its choices counted by
# kind, its hands by how they end): each least is well below its count, as in SITUATIONS.
LOOP_SITUATIONS = {
    "draw chosen": 2000,
    "take chosen": 600,
    "take of two or more cards chosen": 400,
    "stop chosen": 8,
    "group chosen": 200,
    "sequence chosen": 200,
    "meld with a joker chosen": 60,
    "lay-off chosen": 500,
    "discard chosen": 2000,
    "hand ended by going out": 30,
    "hand ended on an empty stock": 8,
    "deal passed round the table": 15,
    "equal best totals over the target, the match going on": 2,
}


class Lockstep:
    """The plain game's own loop (`Table.play`: the matches, each hand's deal, the turns, the scores, the dealer,
    the match's end), its logic unchanged, played beside the engine's random matches. It stands in for the table's
    random generator: `shuffle` lays the deck out so that the plain deal gives the engine's (the hands, the stock in
    order, the card turned up), and `randrange` picks the engine's random choice from the plain legal set. Before
    every decision the player in turn, the position (stock, discard pile, hands, melds, points tabled) and the legal
    set (by action text) must be the engine's; at each deal the hand's number, its dealer and the deck; at each
    hand's end each player's score for it, and whether the match goes on; at the match's end its totals."""

    def __init__(self, players: int, seed: int, matches: int) -> None:
        plain = _plain()
        self.players, self.seed, self.matches = players, seed, matches
        self.choices = random.Random(seed)
        self.table = table = plain.Table(0, players, 10**9, [])
        table.rng = self
        # the table's own methods, run from the checks that stand in for them
        self.pick, self.play_hand, self.play_match = table.pick, table.play_hand, table.play_match
        table.pick, table.play_hand, table.play_match = self.check_pick, self.check_hand, self.check_match
        self.state = _game().new_initial_state(seed=0, players=players)  # (each match's: see check_match)
        self.match = self.first_hand = self.decision = 0
        self.dealer = -1
        self.score_before: list[int] = []
        self.chosen = -1  # the engine's choice, as an index into the plain legal set
        self.finals: list[list[int]] = []  # the engine's totals at the end of each match
        self.engine_hands = 0  # the hands of the engine's matches
        self.seen: Counter[str] = Counter()

    def where(self) -> str:
        return (f"{self.players} players, seed {self.seed}, match {self.match}, hand "
                f"{self.table.hands - self.first_hand + 1}, decision {self.decision}")

    def run(self) -> Lockstep:
        self.table.play()
        return self

    # ------------------------------------------------------------------ the stand-in random generator
    def shuffle(self, deck: list[int]) -> None:
        """The engine deals its next hand; the plain deck is laid out so that the plain deal gives the same: each
        seat's hand in turn, the stock (its top last), the card turned up."""
        state = self.state
        assert not state.is_terminal, (f"{self.where()}: the engine's match is over (totals {state.values['score']}),"
                                       f" the plain game deals another hand")
        assert state.current_player == CHANCE, f"{self.where()}: the plain game deals, the engine plays on"
        values = state.values
        number = self.table.hands - self.first_hand + 1
        assert (values["hand_number"], values["dealer"]) == (number, self.dealer), (
            f"{self.where()}: the engine deals hand {values['hand_number']} (dealer p{values['dealer']}), the plain "
            f"game hand {number} (dealer p{self.dealer})")
        self.score_before = list(values["score"])
        while state.current_player == CHANCE:
            state.apply_chance()
        values = state.values
        dealt = [_card(card) for hand in values["hand"] for card in hand]
        dealt += [_card(card) for card in [*values["stock"], *values["discard"]]]
        mine, engine = Counter(deck), Counter(dealt)
        assert mine == engine, (f"{self.where()}: the deck differs, the engine only "
                                f"{sorted((engine - mine).elements())}, the plain game only "
                                f"{sorted((mine - engine).elements())}")
        deck[:] = dealt
        self.seen["deal passed round the table"] += number > self.players

    def randrange(self, count: int) -> int:
        """The engine's choice (found in `check_pick`) in the plain legal set."""
        chosen, self.chosen = self.chosen, -1
        assert 0 <= chosen < count, f"{self.where()}: no engine choice for a legal set of {count}"
        return chosen

    # ------------------------------------------------------------------ the checks around the table's own methods
    def check_match(self) -> list[int]:
        """A new engine match, played by the plain game's own `play_match`; the same totals at its end."""
        if self.match == self.matches:
            raise _plain().Done  # (Table.play's end)
        self.state = _game().new_initial_state(seed=self.seed * 1000 + self.match, players=self.players)
        self.match += 1
        self.first_hand = self.table.hands
        scores: list[int] = self.play_match()
        state = self.state
        assert state.is_terminal, (f"{self.where()}: the plain match ends with totals {scores}, the engine's goes on "
                                   f"(totals {state.values['score']})")
        totals = list(state.values["score"])
        assert scores == totals, \
            f"{self.where()}: the match ends with totals {totals} to the engine, {scores} to the plain game"
        self.finals.append(scores)
        self.engine_hands += state.values["hand_number"]
        return scores

    def check_hand(self, dealer: int) -> list[int]:
        """A hand played by the plain game's own `play_hand`; the same scores for it, and the engine's hand over."""
        self.dealer = dealer
        scores: list[int] = self.play_hand(dealer)
        state = self.state
        assert state.is_terminal or state.current_player == CHANCE, \
            f"{self.where()}: the plain hand is over, the engine's goes on: {_described(state)}"
        engine = [after - before for after, before in zip(state.values["score"], self.score_before, strict=True)]
        assert scores == engine, f"{self.where()}: the hand scores {engine} to the engine, {scores} to the plain game"
        went_out = any(not hand for hand in self.table.held)
        totals = list(state.values["score"])
        best = max(totals)
        if best >= _plain().TARGET and totals.count(best) > 1:
            self.seen["equal best totals over the target, the match going on"] += 1
        self.seen["hand ended by going out" if went_out else "hand ended on an empty stock"] += 1
        return scores

    def check_pick(self, seat: int, legal: list[tuple[Any, ...]]) -> tuple[Any, ...]:
        """A decision of the plain game's own turn: the engine's player, position and legal set; the engine's
        random choice made in both games."""
        plain, state, table = _plain(), self.state, self.table
        where = self.where()
        assert not state.is_terminal and state.current_player == seat, (
            f"{where}: p{seat} decides in the plain game, in the engine "
            f"{'no one (its match is over)' if state.is_terminal else f'p{state.current_player}'}")
        position = _position(state)
        values = state.values
        ids = sorted(position.by_id)
        engine_side = {"stock": [_card(card) for card in values["stock"]], "discard": position.discard,
                       "hands": [sorted(_card(card) for card in hand) for hand in values["hand"]],
                       "tabled": list(values["tabled"]), "melds": [_meld_fields(position.by_id[i]) for i in ids]}
        plain_side = {"stock": table.stock, "discard": table.discard, "hands": [sorted(hand) for hand in table.held],
                      "tabled": table.tabled, "melds": [_meld_fields(meld) for meld in table.melds]}
        differ = [name for name in engine_side if engine_side[name] != plain_side[name]]
        assert not differ, f"{where}: the positions differ in {differ}: {_described(state)}\n" + "\n".join(
            f"    {name}: engine {engine_side[name]}, plain {plain_side[name]}" for name in differ)
        names = {id(meld): f"m{meld_id}" for meld, meld_id in zip(table.melds, ids, strict=True)}
        texts = [plain.action_text(seat, action, names) for action in legal]
        actions = state.legal_actions()
        engine = [state.action_text(action) for action in actions]
        assert len(set(texts)) == len(texts) and Counter(texts) == Counter(engine), (
            f"{where}: {_described(state)}\n    the engine only: {sorted(Counter(engine) - Counter(texts))}\n"
            f"    the plain game only: {sorted(Counter(texts) - Counter(engine))}")
        index = self.choices.randrange(len(actions))
        state.apply(actions[index])
        self.chosen = texts.index(engine[index])
        action = legal[self.chosen]
        self.seen[f"{LOOP_KINDS[action[0]]} chosen"] += 1
        if action[0] == plain.TAKE and action[1] >= 2:
            self.seen["take of two or more cards chosen"] += 1
        elif action[0] in (plain.GROUP, plain.RUN) and action[3]:
            self.seen["meld with a joker chosen"] += 1
        self.decision += 1
        picked: tuple[Any, ...] = self.pick(seat, legal)
        return picked


LOOP_KINDS = ["draw", "take", "stop", "group", "sequence", "lay-off", "discard"]  # by the plain game's kinds


@functools.cache
def _lockstep(players: int, seed: int, matches: int) -> Lockstep:
    return Lockstep(players, seed, matches).run()


@pytest.mark.parametrize(("players", "seed", "matches"), LOCKSTEP)
def test_the_plain_play_loop_plays_the_engines_matches(players: int, seed: int, matches: int) -> None:
    """Whole matches of the engine's random play, played beside it by the plain game's own loop (see `Lockstep`):
    the same deals, player in turn, positions and legal sets at every decision, the same scores after every hand,
    the same dealer for each, the match's end after the same hand with the same totals; and the table's record of
    the matches (`Table.play`'s totals and wins) is the engine's."""
    lockstep = _lockstep(players, seed, matches)
    table = lockstep.table
    assert table.matches == matches, f"the plain game finished {table.matches} of {matches} matches"
    assert table.hands == lockstep.engine_hands
    assert table.totals == [sum(totals) for totals in zip(*lockstep.finals, strict=True)]
    wins = Counter(totals.index(max(totals)) for totals in lockstep.finals)
    assert table.wins == [wins[seat] for seat in range(players)]


def test_the_plain_play_loop_meets_the_rules_that_matter() -> None:
    """The plain game's own loop, played above, makes each kind of choice and ends hands each way often enough:
    without them the comparisons would pass on a loop that mishandles them."""
    seen: Counter[str] = Counter()
    for case in LOCKSTEP:
        seen += _lockstep(*case).seen
    short = {name: f"{seen[name]} < {least}" for name, least in LOOP_SITUATIONS.items() if seen[name] < least}
    assert not short, f"the plain game's loop met too seldom: {short} (all: {dict(seen)})"
