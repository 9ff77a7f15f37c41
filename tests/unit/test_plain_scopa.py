"""benchmarks/plain/scopa.py stays tests/games/scopa.yaml exactly, decision by decision and hand by hand.

benchmarks/games_speed.py times the plain game beside the engine's run of the ruleset, so the two must make the
same decisions with the same legal sets and score the same hands. Comparing the distributions of legal-set sizes
(tests/unit/test_plain_games.py) misses a rule dropped on one side when it changes few legal sets or only the
scores: a sum offered beside a single card of the same value (SC-05), a primiera counted for a seat lacking a
suit (SC-12), a scopa on the last play (SC-08), the wrong seat to play first (SC-04), a card left out of a pile,
a match ended on a tie (SC-13). So the engine plays matches at random, from fixed seeds as
benchmarks/games_speed.py plays, and the plain game's own loop (`Run.run`, `play_match`, `play_hand`, `deal`,
unchanged) plays the same matches beside it (see `Lockstep`): its generator is a stand-in whose `shuffle` lays
the deck the engine dealt (the order of the engine's shuffle, read from its `chance` event) and whose
`randrange` gives the place of the engine's random choice in the plain game's own legal set. Then:
  * at every decision, the plain game's own hand (of the seat in turn) and table are the engine's, and its own
    legal set is the engine's, action for action;
  * at every deal, the engine deals too (a redeal on three or four kings included), the same hand of the match
    with the same dealer;
  * at the end of every hand, the plain game's points are the engine's change of `score`, its scope and
    redeals the engine's;
  * at the end of every match, the engine's is over too (and the plain game goes on exactly while the engine
    does), with the same hands played, final scores and winner.
Checks on the engine's own position add where a difference lies: the plain `legal_moves` is the legal set the
engine's position gives, `is_scopa` is the engine's scopa on each capture, `hand_points` is the engine's points
on its piles at the end of each hand. Each run is checked to have reached the rules that change few decisions,
so that a change of the engine's dealing cannot leave them untested; stacked decks deal the kings that void a
deal, which random play seldom does.

Random play almost never gives both seats a pile lacking a suit, where the primiera's "0 for a seat lacking a
suit" decides the point: so random ends of hands, most with a seat or both lacking a suit, are also scored by
the plain game's `finish_hand` and by the ruleset, started at its phase `finish` as a scenario case
(docs/scenarios.md) that expects the plain game's scores.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from interpreter import CHANCE, State, load_ruleset
from interpreter.runners.scenarios import run_file
from tests import plain_helpers

ROOT = Path(__file__).resolve().parents[2]
PLAIN_SCOPA = ROOT / "benchmarks" / "plain" / "scopa.py"
RULESET = ROOT / "tests" / "games" / "scopa.yaml"
SEEDS = (1, 2, 3)  # random play
DECISIONS = 12000  # per seed: about 70 matches, 330 hands
ENDS_SEED = 5  # random ends of hands
ENDS = 200

# an action as both sides can name it: ("play", card) or ("capture", card, the cards taken in text order)
Key = tuple[str, ...]
Move = tuple[int, tuple[int, ...]]  # a plain move: (card played, table cards taken)


def load_plain(path: Path = PLAIN_SCOPA) -> ModuleType:
    """The plain game's module, loaded from its file (benchmarks/ is no package): a new module at each call."""
    return plain_helpers.load_plain(path, f"plain_scopa_{path.stem}")


@dataclass
class Reached:
    """What one run's play met: its decisions, hands and matches, and the rules that change few of them."""

    decisions: int = 0
    hands: int = 0
    matches: int = 0  # matches played to their end (the last one of a run is cut off)
    scope: int = 0  # captures before the last play that emptied the table (SC-08)
    sums_refused: int = 0  # decisions where a card's single match hid a sum of the same value (SC-05)
    last_sweeps: int = 0  # last plays of a hand that captured all the table: no scopa (SC-08)
    redeals: int = 0  # deals voided by three or four kings on the table (SC-03)
    ties: int = 0  # hands after which the scores were equal at the target or past it: the match goes on (SC-13)


class Lockstep:
    """The plain game's own `Run` playing the engine's matches beside it (see the module's docstring). It stands
    in for the run's generator (`shuffle`, `randrange`), records the legal sets the run's `play_hand` makes (its
    module's `legal_moves`, wrapped), and wraps the run's `play_hand` and `play_match` to check each hand's end
    and each match's end; the run's own code does everything else. `stacked`: decks (cards' texts, the card
    dealt first, first) the engine deals at the first shuffles of the run instead of shuffling."""

    def __init__(self, path: Path, seed: int, decisions: int, stacked: tuple[list[str], ...] = ()) -> None:
        plain: Any = load_plain(path)  # (its own module: its `legal_moves` is wrapped here)
        self.plain = plain
        self.seed = seed
        self.game = load_ruleset(RULESET)
        self.choices = random.Random(seed)  # the engine's random choices, as benchmarks/games_speed.py makes them
        self.stacked = list(stacked)
        self.reached = Reached()
        self.number = 0  # matches started
        self.state: State = self.game.new_initial_state(seed=seed * 1000)  # (each match's own, from its start)
        self.plain_card = {text: card for card, text in enumerate(plain.NAMES)}
        texts = [self.state.card_text(card) for card in range(len(plain.NAMES))]
        assert sorted(texts) == sorted(plain.NAMES), "the plain game's cards are not the ruleset's deck"
        self.to_plain = [self.plain_card[text] for text in texts]  # engine card -> plain card, by text
        self.legal_moves = plain.legal_moves
        plain.legal_moves = self.record_legal  # (read by `Run.play_hand` at each decision)
        self.asked: tuple[list[int], list[int], list[Move]] | None = None  # the plain run's hand, table, legal set
        self.ended: dict[str, Any] | None = None  # the engine's values at the end of its hand
        self.hand_number = 0  # in the plain match: the hands it dealt
        self.dealer = 0  # the plain run's dealer of the hand
        self.shuffles = 0  # in the hand: the plain run's shuffles
        self.sizes: list[int] = []
        self.run = run = plain.Run(decisions, seed, self.sizes)
        run.rng = self
        self.play_hand, self.play_match = run.play_hand, run.play_match
        run.play_hand, run.play_match = self.checked_hand, self.checked_match

    # ------------------------------------------------------------------ mapping cards and actions
    def cards(self, engine_cards: list[int] | tuple[int, ...]) -> list[int]:
        return [self.to_plain[card] for card in engine_cards]

    def texts(self, plain_cards: list[int] | tuple[int, ...]) -> list[str]:
        return [self.plain.NAMES[card] for card in plain_cards]

    def key(self, card: int, taken: tuple[int, ...]) -> Key:
        """A plain move's key: its cards named by their texts, the cards taken as a set."""
        if not taken:
            return ("play", self.plain.NAMES[card])
        return ("capture", self.plain.NAMES[card], *sorted(self.texts(taken)))

    def move(self, action: Any) -> Move | None:
        """The engine's action as a plain move, or None if it is neither a play nor a capture."""
        if action.kind == "play":
            return self.cards([action.card])[0], ()
        if action.kind == "choose" and action.name == "capture":
            arguments = dict(action.arguments)
            return self.cards([arguments["with"]])[0], tuple(self.cards(arguments["taken"]))
        return None

    def engine_key(self, action: Any) -> Key:
        move = self.move(action)
        return ("other", self.state.action_text(action)) if move is None else self.key(*move)

    def where(self, end: str = "") -> str:
        """Where a difference was found: the run, the match in it (from 0), the hand (from 1) and the decision (from
        0), or the end of the hand or match after so many decisions."""
        made = self.reached.decisions
        at = f"decision {made}" if not end else f"the {end}'s end, after {made} decisions"
        return f"seed {self.seed}, match {self.number - 1}, hand {self.hand_number}, {at}"

    # ------------------------------------------------------------------ the plain run's generator and legal sets
    def record_legal(self, hand: list[int], table: list[int]) -> list[Move]:
        """The plain `legal_moves`, its arguments and its legal set kept for the decision that follows."""
        legal: list[Move] = self.legal_moves(hand, table)
        self.asked = (list(hand), list(table), legal)
        return legal

    def shuffle(self, deck: list[int]) -> None:
        """The plain run deals: the engine must deal too, the same hand of its match with the same dealer; it
        shuffles (or deals the next stacked deck), and `deck` is laid in its order (the plain deal pops from the
        end: the engine's first card dealt, last)."""
        state, values = self.state, self.state.values
        assert not state.is_terminal, (
            f"{self.where()}: the plain game deals again, the engine's match is over, scores {values['score']}")
        event = state.chance_event()
        assert state.current_player == CHANCE and event is not None, (
            f"{self.where()}: the plain game deals, the engine is in phase {state.phase}")
        assert (event["type"], event["zone"], event["cards"]) == ("shuffle", "stock", 40), event
        assert (values["hand_number"], values["dealer"]) == (self.hand_number, self.dealer), (
            f"{self.where()}: the engine deals hand {values['hand_number']} (dealer p{values['dealer']}), the "
            f"plain game hand {self.hand_number} (dealer p{self.dealer})")
        start = state.event_count
        state.apply_chance(self.stacked.pop(0) if self.stacked else None)
        order = next(event["order"] for event in state.events_since(start) if event["type"] == "chance")
        deck[:] = [self.plain_card[text] for text in reversed(order)]
        self.shuffles += 1

    def randrange(self, size: int) -> int:
        """The plain run decides: the engine must decide too, with the same seat's hand, the same table and the
        same legal set; the engine's random choice is made in both."""
        state, plain, reached = self.state, self.plain, self.reached
        where = self.where()
        assert self.asked is not None and len(self.asked[2]) == size, f"{where}: a random number not for a move"
        hand, table, legal = self.asked
        self.asked = None
        assert not state.is_terminal and state.current_player != CHANCE, (
            f"{where}: the plain game decides, the engine does not (phase {state.phase})")
        assert state.phase == "play", f"{where}: a decision in phase {state.phase}"
        values = state.values
        player = state.current_player
        engine_hand, engine_table = self.cards(values["hand"][player]), self.cards(values["table"])
        assert Counter(hand) == Counter(engine_hand) and Counter(table) == Counter(engine_table), (
            f"{where}: p{player} to play; the plain game's hand {self.texts(hand)} and table {self.texts(table)}, "
            f"the engine's p{player} hand {self.texts(engine_hand)} and table {self.texts(engine_table)}")
        actions = state.legal_actions()
        engine = [self.engine_key(action) for action in actions]
        own = [self.key(*move) for move in legal]
        rebuilt = [self.key(*move) for move in self.legal_moves(engine_hand, engine_table)]
        for found, whose in ((rebuilt, "at the engine's position"), (own, "of the plain run")):
            only_engine = sorted((Counter(engine) - Counter(found)).elements())
            only_plain = sorted((Counter(found) - Counter(engine)).elements())
            assert not only_engine and not only_plain, (
                f"{where}: p{player} holds {self.texts(engine_hand)}, table {self.texts(engine_table)}; the plain "
                f"legal set {whose}:\n  legal in the ruleset only: {only_engine}\n  legal in the plain game only: "
                f"{only_plain}")
        _count_refused_sums(plain, engine_hand, engine_table, reached)
        index = self.choices.randrange(len(actions))
        card, taken = legal[own.index(engine[index])]
        scope, stock = list(values["scope"]), len(values["stock"])
        state.apply(actions[index])
        reached.decisions += 1
        if taken:
            self.check_scopa(player, card, taken, engine_table, scope, stock, where)
        return own.index(engine[index])

    def check_scopa(self, player: int, card: int, taken: tuple[int, ...], table: list[int], scope: list[int],
                    stock: int, where: str) -> None:
        """The plain `is_scopa` on the engine's position after p`player`'s capture is the engine's change of its
        `scope` from `scope` (SC-08). `table` and `stock` (a number of cards) are the engine's before the capture:
        after the hand's last play, the engine is at its next hand, its scope kept at the hand's end."""
        plain, reached = self.plain, self.reached
        if self.ended is None:  # the hand goes on
            values = self.state.values
            after, left = list(values["scope"]), self.cards(values["table"])
            hands, stock_after = [self.cards(hand) for hand in values["hand"]], self.cards(values["stock"])
        else:  # the hand's last play: its table before the last capturer's take
            after, hands, stock_after = self.ended["scope"], [[], []], []
            assert stock == 0, f"{where}: the engine's hand ended with {stock} cards in the stock"
            left = list((Counter(table) - Counter(taken)).elements())
            reached.last_sweeps += not left
        scopa = plain.is_scopa(left, stock_after, hands)
        reached.scope += scopa
        assert [after[p] - scope[p] for p in (0, 1)] == [int(scopa and p == player) for p in (0, 1)], (
            f"{where}: p{player} played {plain.NAMES[card]} taking {self.texts(taken)}, the table is now "
            f"{self.texts(left)}, the stock has {len(stock_after)} cards: scope, ruleset {scope} -> {after}, plain "
            f"is_scopa {scopa} (SC-08)")

    # ------------------------------------------------------------------ the ends of hands and matches
    def hand_end(self, state: State) -> None:
        """The engine's hand is over (its `hand_end_hook`): its values then, kept for the plain game's end."""
        values = state.values
        self.ended = {"score": list(values["score"]), "scope": list(values["scope"]),
                      "captured": [self.cards(pile) for pile in values["captured"]],
                      "hand_number": values["hand_number"]}

    def checked_hand(self, dealer: int) -> list[int] | None:
        """The plain run's `play_hand`, then its end checked against the engine's."""
        run = self.run
        self.hand_number += 1
        self.dealer = dealer
        self.shuffles = 0
        score, scope, redeals = list(self.state.values["score"]), list(run.scope), run.redeals
        points: list[int] | None = self.play_hand(dealer)
        if points is None:
            assert run.left == 0, f"{self.where()}: the plain hand stopped with {run.left} decisions left"
            return None
        where, ended = self.where("hand"), self.ended
        assert ended is not None, f"{where}: the plain game's hand is over, the engine's goes on"
        assert ended["hand_number"] == self.hand_number, f"{where}: the engine ended its hand {ended['hand_number']}"
        self.ended = None
        engine_points = [ended["score"][p] - score[p] for p in (0, 1)]
        on_engine_piles = self.plain.hand_points(ended["captured"], ended["scope"])
        assert on_engine_piles == engine_points, self.hand_message(ended, engine_points, on_engine_piles, where)
        assert points == engine_points, (
            f"{where}: points for the hand, ruleset {engine_points}, plain run {points} (the plain scoring of the "
            f"engine's piles agrees: the plain play of the hand differs)")
        assert [run.scope[p] - scope[p] for p in (0, 1)] == ended["scope"], (
            f"{where}: scope, ruleset {ended['scope']}, plain run {[run.scope[p] - scope[p] for p in (0, 1)]}")
        assert run.redeals - redeals == self.shuffles - 1, f"{where}: the plain run's count of redeals"
        self.reached.hands += 1
        self.reached.redeals += self.shuffles - 1
        total = ended["score"]
        self.reached.ties += max(total) >= self.plain.TARGET and total[0] == total[1]
        return points

    def checked_match(self) -> bool:
        """The plain run's `play_match` on the engine's next match; at its end, the engine's is over too, after
        as many hands, with the same scores and winner."""
        run = self.run
        self.state = state = self.game.new_initial_state(seed=self.seed * 1000 + self.number)
        state.hand_end_hook = self.hand_end
        self.number += 1
        self.hand_number = 0
        hands, score, wins, matches = run.hands, list(run.score), list(run.wins), run.matches
        if not self.play_match():
            assert run.left == 0, f"{self.where()}: the plain match stopped with {run.left} decisions left"
            return False
        values = state.values
        where = self.where("match")
        mine = [run.score[p] - score[p] for p in (0, 1)]
        assert state.is_terminal, (
            f"{where}: the plain match is over at scores {mine}, the engine's goes on at {values['score']} (SC-13)")
        assert (run.hands - hands, run.matches - matches) == (values["hand_number"], 1), (
            f"{where}: the plain match played {run.hands - hands} hands, the engine's {values['hand_number']}")
        assert mine == list(values["score"]), f"{where}: final scores, ruleset {values['score']}, plain {mine}"
        results = state.returns()
        assert [run.wins[p] - wins[p] for p in (0, 1)] == [int(results[p] > results[1 - p]) for p in (0, 1)], \
            f"{where}: the winner, ruleset's results {results}, plain wins {run.wins} (from {wins})"
        self.reached.matches += 1
        return True

    def hand_message(self, ended: dict[str, Any], engine_points: list[int], points: list[int], where: str) -> str:
        """The plain game's count of each scoring item on the engine's piles, beside the ruleset's log of the
        end of the hand."""
        plain = self.plain
        seats = []
        for seat, pile in enumerate(ended["captured"]):
            texts = self.texts(pile)
            seats.append(f"p{seat}: {len(pile)} cards, {sum(text.endswith('D') for text in texts)} coins, "
                         f"settebello {'7D' in texts}, primiera {plain.primiera(pile)}, scope {ended['scope'][seat]}")
        events = self.state.events
        end = max(i for i, event in enumerate(events) if event["type"] == "hand_end")
        start = max(i for i, event in enumerate(events[:end]) if event["type"] == "action")
        logs = [event["text"] for event in events[start:end] if event["type"] == "log"]
        return (f"{where}: points for the hand, ruleset {engine_points}, plain hand_points on the ruleset's piles "
                f"{points}\n  {'; '.join(seats)}\n  ruleset's log:\n    " + "\n    ".join(logs))


def check_in_step(seed: int, decisions: int = DECISIONS, path: Path = PLAIN_SCOPA,
                  stacked: tuple[list[str], ...] = ()) -> Reached:
    """The plain game at `path` plays `decisions` decisions of the engine's random matches from `seed` (seeded
    seed * 1000 + n, as benchmarks/games_speed.py plays) through its own `Run.run`, in step with the engine (see
    `Lockstep`); AssertionError at the first difference. What the play reached, for the caller to require."""
    lockstep = Lockstep(path, seed, decisions, stacked)
    lockstep.run.run()
    return lockstep.reached


def _count_refused_sums(plain: ModuleType, hand: list[int], table: list[int], reached: Reached) -> None:
    """Count the decision if a card in hand matches a table card and a set of other table cards adds up to its
    value too: only the single card may be taken there (SC-05)."""
    values = [plain.VALUE[t] for t in table]
    matched = {plain.VALUE[c] for c in hand} & set(values)
    if not matched:
        return
    reach = {(0, 0)}  # (total, number of cards, counted up to 2) of the sets of table cards
    for v in values:
        reach |= {(total + v, min(count + 1, 2)) for total, count in reach if total + v <= max(matched)}
    if matched & {total for total, count in reach if count == 2}:
        reached.sums_refused += 1


def end_of_hand_cases(plain: ModuleType, count: int = ENDS, seed: int = ENDS_SEED) -> list[dict[str, Any]]:
    """Scenario cases (docs/scenarios.md) of random ends of hands, each expecting the match's scores after the
    hand, and whether it is over, as the plain game's `finish_hand` and target make them. Each seat lacks a suit
    in most (both in about half): its cards of that suit are the other's or left on the table; the table is
    often empty, the last capturer sometimes nobody; scope and the scores so far are random."""
    rng = random.Random(seed)
    cases = []
    for number in range(count):
        cards = list(plain.NAMES)
        rng.shuffle(cards)
        lacking = [rng.choice("DCSB") if rng.random() < 0.7 else "" for _ in (0, 1)]
        table = cards[:rng.choice((0, 0, 0, 1, 2, 4))]
        piles: list[list[str]] = [[], []]
        for text in cards[len(table):]:
            seats = [seat for seat in (0, 1) if text[-1] != lacking[seat]]
            if seats:
                piles[rng.choice(seats)].append(text)
            else:
                table.append(text)
        last_capturer = rng.choice((0, 0, 1, 1, None))
        scope = [rng.choice((0, 0, 1, 2)) for _ in (0, 1)]
        score = [rng.randrange(12) for _ in (0, 1)]
        points = plain.finish_hand([[plain.NAMES.index(text) for text in pile] for pile in piles],
                                   [plain.NAMES.index(text) for text in table],
                                   -1 if last_capturer is None else last_capturer, list(scope))
        total = [a + b for a, b in zip(score, points, strict=True)]
        cases.append({
            "name": f"end of hand {number}: plain game's points {points}",
            "start": {"phase": "finish",
                      "zones": {"stock": [], "hand": {"p0": [], "p1": []}, "table": _cards_text(table),
                                "captured": {"p0": _cards_text(piles[0]), "p1": _cards_text(piles[1])}},
                      "variables": {"last_capturer": None if last_capturer is None else f"p{last_capturer}",
                                    "scope": {"p0": scope[0], "p1": scope[1]},
                                    "score": {"p0": score[0], "p1": score[1]}}},
            "steps": [{"expect": {"terminal": max(total) >= plain.TARGET and total[0] != total[1],
                                  "variables": {"score": {"p0": total[0], "p1": total[1]}}}}],
        })
    return cases


def _cards_text(cards: list[str]) -> str | list[str]:
    """A zone's cards as one text, `AD 7C` (a list only when empty): much less for the scenario file's YAML."""
    return " ".join(cards) if cards else []


def _cards_of(given: str | list[str]) -> list[str]:
    """The cards of a zone as `_cards_text` gives them."""
    return given.split() if isinstance(given, str) else given


def check_ends_of_hands(plain: ModuleType, directory: Path) -> list[dict[str, Any]]:
    """Run `end_of_hand_cases` through the ruleset (a scenario file written in `directory`); AssertionError
    naming the cases whose scores differ, with the plain game's count of each scoring item. The cases."""
    cases = end_of_hand_cases(plain)
    path = directory / "scopa_ends_of_hands.yaml"
    path.write_text(json.dumps({"ruleset": str(RULESET), "cases": cases}), encoding="utf-8")  # (JSON is YAML)
    results = run_file(path)
    assert len(results) == len(cases)
    failed = [(case, result.message) for case, result in zip(cases, results, strict=True) if not result.passed]
    assert not failed, f"{len(failed)} of {len(cases)} ends of hands scored otherwise by the ruleset, first:\n" + \
        "\n".join(_end_message(plain, case, message) for case, message in failed[:3])
    return cases


def _end_message(plain: ModuleType, case: dict[str, Any], message: str) -> str:
    """A case the ruleset scored otherwise: what it says, the position, each seat's pile and plain primiera."""
    start = case["start"]
    piles = [_cards_of(start["zones"]["captured"][f"p{seat}"]) for seat in (0, 1)]
    seats = [f"p{seat}: {sorted(pile)}, primiera {plain.primiera([plain.NAMES.index(t) for t in pile])}"
             for seat, pile in enumerate(piles)]
    return (f"  {case['name']}: ruleset {message}\n    table {start['zones']['table']}, "
            f"{start['variables']}\n    " + "\n    ".join(seats))


def test_the_plain_scopa_has_the_rulesets_cards() -> None:
    """The 40 cards by the same texts: what every other check here maps cards through."""
    plain = load_plain()
    state = load_ruleset(RULESET).new_initial_state(seed=1)
    assert plain.CARDS == len(plain.NAMES) == 40
    assert sorted(plain.NAMES) == sorted(state.card_text(card) for card in range(40))


@cache
def _played(seed: int) -> Reached:
    """`DECISIONS` decisions of random play from `seed`, all checked in step (made once per seed, for both tests
    that read what they reached)."""
    return check_in_step(seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_plain_scopa_plays_the_rulesets_matches(seed: int) -> None:
    """`DECISIONS` random decisions of the ruleset's matches, played by the plain game's own loop in step: every
    deal, legal set, scopa, hand's points and match's end the same; and the play reached enough hands and whole
    matches, and what few decisions meet: sums refused for a single card, last plays that clear the table."""
    reached = _played(seed)
    assert reached.hands >= 300
    assert reached.matches >= 60
    assert reached.scope >= 150
    assert reached.sums_refused >= 600
    assert reached.last_sweeps >= 10


def test_the_seeds_reach_ties_at_the_target() -> None:
    """Over all the seeds, hands after which the scores are equal at the target or past it, where the match must
    go on in both games (SC-13): random play meets a few (the seeds are fixed: always the same ones)."""
    assert sum(_played(seed).ties for seed in SEEDS) >= 3


def _kings_on_the_table(kings: int) -> list[str]:
    """A deck (the card dealt first, first) whose deal puts `kings` kings on the table: the 7th to 10th cards."""
    names = load_plain().NAMES
    table = [f"K{suit}" for suit in "DCSB"[:kings]]
    rest = [text for text in names if text not in table]
    table += rest[6:10 - kings]
    rest = rest[:6] + rest[10 - kings:]
    return rest[:6] + table + rest[6:]


@pytest.mark.parametrize("kings", [2, 3, 4])
def test_the_plain_scopa_redeals_as_the_ruleset(kings: int) -> None:
    """A match whose first deal puts `kings` kings on the table, played in step as above: the deal stands with
    two, and with three or four the same dealer deals again (SC-03), in both games."""
    reached = check_in_step(7, 300, stacked=(_kings_on_the_table(kings),))
    assert reached.matches >= 1
    assert reached.redeals == (kings >= 3)


def test_the_plain_scopa_scores_ends_of_hands_as_the_ruleset(tmp_path: Path) -> None:
    """Random ends of hands, many with seats lacking a suit, score the same in the plain game and the ruleset;
    both seats lacking a suit (no primiera point for either) come up often."""
    cases = check_ends_of_hands(load_plain(), tmp_path)
    lacking = [sum(len({text[-1] for text in _cards_of(case["start"]["zones"]["captured"][seat])}) < 4
                   for seat in ("p0", "p1")) for case in cases]
    assert lacking.count(2) >= 50 and lacking.count(1) >= 50
