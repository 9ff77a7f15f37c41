"""benchmarks/plain/scopa.py stays tests/games/scopa.yaml exactly, decision by decision and hand by hand.

benchmarks/games_speed.py times the plain game beside the engine's run of the ruleset, so the two must make the
same decisions with the same legal sets and score the same hands. Comparing the distributions of legal-set sizes
(tests/unit/test_plain_games.py) misses a rule dropped on one side when it changes few legal sets or only the
scores: a sum offered beside a single card of the same value (SC-05), a primiera counted for a seat lacking a
suit (SC-12), a scopa on the last play (SC-08). So here the engine plays matches and, at every decision:
  * the plain game's position is rebuilt from the engine's state (`state.values`: the hands, the table, the
    stock, the captured piles; `state.current_player`), its cards mapped through their texts;
  * the plain game's own legal-set code (`legal_moves`) must give the engine's legal set, action for action;
  * the move the engine makes is made on the rebuilt position, and the plain game's scopa rule (`is_scopa`)
    must give the engine's change of `scope` (the rebuilt table and captured piles must be the engine's too);
  * after the last play of a hand, the plain game's end of the hand (`finish_hand`: the last capturer's take,
    then the scope, cards, coins, settebello and primiera points) must give the engine's change of `score`,
    and the match must end after that hand exactly when the plain game's target says so (SC-13).
The play is random, from fixed seeds, as benchmarks/games_speed.py plays, and each run is checked to have reached
the rules that change few decisions, so that a change of the engine's dealing cannot leave them untested.

Random play almost never gives both seats a pile lacking a suit, where the primiera's "0 for a seat lacking a
suit" decides the point: so random ends of hands, most with a seat or both lacking a suit, are also scored by
the plain game's `finish_hand` and by the ruleset, started at its phase `finish` as a scenario case
(docs/scenarios.md) that expects the plain game's scores.

Not checked here: the plain game's dealing and turn order (`Run.deal`, `Run.play_hand`: SC-02 to SC-04, SC-09),
which draw on its own random numbers; tests/unit/test_plain_games.py compares their effect by its statistics.
"""

from __future__ import annotations

import importlib.util
import json
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from interpreter import CHANCE, load_ruleset
from interpreter.runners.scenarios import run_file

ROOT = Path(__file__).resolve().parents[2]
PLAIN_SCOPA = ROOT / "benchmarks" / "plain" / "scopa.py"
RULESET = ROOT / "tests" / "games" / "scopa.yaml"
SEEDS = (1, 2, 3)  # random play
DECISIONS = 12000  # per seed: about 70 matches, 330 hands
ENDS_SEED = 5  # random ends of hands
ENDS = 200

# an action as both sides can name it: ("play", card) or ("capture", card, the cards taken in text order)
Key = tuple[str, ...]


def load_plain(path: Path = PLAIN_SCOPA) -> ModuleType:
    """The plain game's module, loaded from its file (benchmarks/ is no package)."""
    spec = importlib.util.spec_from_file_location(f"plain_scopa_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Reached:
    """What one run's play met: its decisions and hands, and the rules that change few of them."""

    decisions: int = 0
    hands: int = 0
    scope: int = 0  # captures before the last play that emptied the table (SC-08)
    sums_refused: int = 0  # decisions where a card's single match hid a sum of the same value (SC-05)
    last_sweeps: int = 0  # last plays of a hand that captured all the table: no scopa (SC-08)


class Match:
    """One match of the engine and the plain game's view of it: the cards mapped through their texts, the keys
    of the actions, and where a difference was found."""

    def __init__(self, plain: ModuleType, seed: int, match: int, state: Any) -> None:
        self.plain = plain
        self.seed = seed
        self.match = match
        self.state = state
        texts = [state.card_text(card) for card in range(len(plain.NAMES))]
        assert sorted(texts) == sorted(plain.NAMES), "the plain game's cards are not the ruleset's deck"
        self.to_plain = [plain.NAMES.index(text) for text in texts]  # engine card -> plain card, by text

    def cards(self, engine_cards: list[int] | tuple[int, ...]) -> list[int]:
        return [self.to_plain[card] for card in engine_cards]

    def texts(self, plain_cards: list[int] | tuple[int, ...]) -> list[str]:
        return [self.plain.NAMES[card] for card in plain_cards]

    def key(self, card: int, taken: tuple[int, ...]) -> Key:
        """A plain move's key: its cards named by their texts, the cards taken as a set."""
        if not taken:
            return ("play", self.plain.NAMES[card])
        return ("capture", self.plain.NAMES[card], *sorted(self.texts(taken)))

    def move(self, action: Any) -> tuple[int, tuple[int, ...]] | None:
        """The engine's action as a plain move (card played, table cards taken), or None if it is neither a play
        nor a capture."""
        if action.kind == "play":
            return self.to_plain[action.card], ()
        if action.kind == "choose" and action.name == "capture":
            arguments = dict(action.arguments)
            return self.to_plain[arguments["with"]], tuple(self.cards(arguments["taken"]))
        return None

    def engine_key(self, action: Any) -> Key:
        move = self.move(action)
        return ("other", self.state.action_text(action)) if move is None else self.key(*move)

    def where(self, made: int, hand_number: int) -> str:
        """Where a difference was found: the run, the match in it, the hand and the decision (from 0)."""
        return f"seed {self.seed}, match {self.match}, hand {hand_number}, decision {made}"


@dataclass
class Position:
    """The plain game's view of the engine's position at a decision, in plain cards."""

    player: int
    hands: list[list[int]]
    table: list[int]
    stock: list[int]
    captured: list[list[int]]
    scope: list[int]
    score: list[int]
    last_capturer: int  # -1: nobody has captured this hand
    hand_number: int

    @classmethod
    def of(cls, match: Match) -> Position:
        values = match.state.values
        return cls(match.state.current_player, [match.cards(hand) for hand in values["hand"]],
                   match.cards(values["table"]), match.cards(values["stock"]),
                   [match.cards(pile) for pile in values["captured"]], list(values["scope"]), list(values["score"]),
                   -1 if values["last_capturer"] is None else values["last_capturer"], values["hand_number"])

    def play(self, plain: ModuleType, card: int, taken: tuple[int, ...]) -> bool:
        """Make the move on this position, the scope counted by the plain game's rule; True if it was the last
        play of the hand."""
        self.hands[self.player].remove(card)
        if taken:
            self.last_capturer = self.player
            self.captured[self.player] += [card, *taken]
            for t in taken:
                self.table.remove(t)
            self.scope[self.player] += plain.is_scopa(self.table, self.stock, self.hands)
        else:
            self.table.append(card)
        return not self.stock and not self.hands[0] and not self.hands[1]


def check_in_step(plain: ModuleType, seed: int, decisions: int = DECISIONS) -> Reached:
    """Play the ruleset at random from `seed` (matches seeded seed * 1000 + n, as benchmarks/games_speed.py
    plays) for `decisions` decisions, every decision and every hand checked against `plain` (see the module's
    docstring); AssertionError at the first difference. What the play reached, for the caller to require."""
    game = load_ruleset(RULESET)
    rng = random.Random(seed)
    reached = Reached()
    number = 0
    while reached.decisions < decisions:
        match = Match(plain, seed, number, game.new_initial_state(seed=seed * 1000 + number))
        number += 1
        state = match.state
        while not state.is_terminal and reached.decisions < decisions:
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            position = Position.of(match)
            where = match.where(reached.decisions, position.hand_number)
            assert state.phase == "play", f"{where}: a decision in phase {state.phase}"
            legal = state.legal_actions()
            _check_legal_set(match, position, legal, where)
            _count_refused_sums(plain, position, reached)
            action = legal[rng.randrange(len(legal))]
            move = match.move(action)
            assert move is not None
            last_play = position.play(plain, *move)
            state.apply(action)
            reached.decisions += 1
            if last_play:
                _check_hand_end(match, position, reached, where, bool(move[1]))
            else:
                _check_move(match, position, reached, where, bool(move[1]))
    return reached


def _check_legal_set(match: Match, position: Position, legal: list[Any], where: str) -> None:
    """The plain game's legal set on the rebuilt position is the engine's, action for action (SC-05 to SC-07)."""
    hand = position.hands[position.player]
    engine = sorted(match.engine_key(action) for action in legal)
    plain = sorted(match.key(card, taken) for card, taken in match.plain.legal_moves(hand, position.table))
    assert plain == engine, (
        f"{where}: p{position.player} holds {match.texts(hand)}, table {match.texts(position.table)}\n"
        f"  legal in the ruleset only: {sorted((Counter(engine) - Counter(plain)).elements())}\n"
        f"  legal in the plain game only: {sorted((Counter(plain) - Counter(engine)).elements())}")


def _check_move(match: Match, position: Position, reached: Reached, where: str, capture: bool) -> None:
    """After a move that is not the hand's last: the same hand, the plain game's scope, the same table and piles."""
    after = match.state.values
    assert after["hand_number"] == position.hand_number, f"{where}: the hand ended before its last play"
    assert list(after["scope"]) == position.scope, (
        f"{where}: p{position.player} captured ({capture}), the table is now {match.texts(position.table)}, "
        f"the stock has {len(position.stock)} cards: scope, ruleset {list(after['scope'])}, plain game "
        f"{position.scope} (SC-08)")
    assert Counter(match.cards(after["table"])) == Counter(position.table), f"{where}: the table"
    assert [Counter(match.cards(pile)) for pile in after["captured"]] == \
        [Counter(pile) for pile in position.captured], f"{where}: the captured piles"
    reached.scope += capture and not position.table


def _check_hand_end(match: Match, position: Position, reached: Reached, where: str, capture: bool) -> None:
    """After the hand's last play: the plain game's points for the hand are the engine's change of score (the
    last play's scopa or not, SC-08; the last capturer's take, SC-10; SC-11, SC-12), and the match is over
    exactly when the plain game's target says so (SC-13)."""
    plain, state = match.plain, match.state
    reached.hands += 1
    reached.last_sweeps += capture and not position.table
    engine_points = [after - before for before, after in zip(position.score, state.values["score"], strict=True)]
    points = plain.finish_hand(position.captured, position.table, position.last_capturer, position.scope)
    assert points == engine_points, _hand_message(match, position, points, engine_points, where)
    total = [a + b for a, b in zip(position.score, points, strict=True)]
    over = max(total) >= plain.TARGET and total[0] != total[1]
    assert state.is_terminal == over, f"{where}: scores {total}: match over in the ruleset {state.is_terminal}, " \
                                      f"in the plain game {over} (SC-13)"


def _hand_message(match: Match, position: Position, points: list[int], engine_points: list[int],
                  where: str) -> str:
    """The plain game's count of each scoring item (its piles after the last capturer's take), beside the
    ruleset's log of the end of the hand."""
    seats = []
    for seat, pile in enumerate(position.captured):
        texts = match.texts(pile)
        seats.append(f"p{seat}: {len(pile)} cards, {sum(text.endswith('D') for text in texts)} coins, settebello "
                     f"{'7D' in texts}, primiera {match.plain.primiera(pile)}, scope {position.scope[seat]}")
    events = match.state.events
    end = max(i for i, event in enumerate(events) if event["type"] == "hand_end")
    start = max(i for i, event in enumerate(events[:end]) if event["type"] == "action")
    logs = [event["text"] for event in events[start:end] if event["type"] == "log"]
    return (f"{where} (the hand's last): points for the hand, ruleset {engine_points}, plain game {points}\n"
            f"  plain game: {'; '.join(seats)}\n  ruleset's log:\n    " + "\n    ".join(logs))


def _count_refused_sums(plain: ModuleType, position: Position, reached: Reached) -> None:
    """Count the decision if a card in hand matches a table card and a set of other table cards adds up to its
    value too: only the single card may be taken there (SC-05)."""
    values = [plain.VALUE[t] for t in position.table]
    matched = {plain.VALUE[c] for c in position.hands[position.player]} & set(values)
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


@pytest.mark.parametrize("seed", SEEDS)
def test_the_plain_scopa_decides_and_scores_as_the_ruleset(seed: int) -> None:
    """Every legal set, every scopa and every hand's points of `DECISIONS` random decisions are the ruleset's,
    and the play reached the rare cases: sums refused for a single card, last plays that clear the table."""
    reached = check_in_step(load_plain(), seed)
    assert reached.decisions == DECISIONS
    assert reached.hands >= 300
    assert reached.scope >= 150
    assert reached.sums_refused >= 600
    assert reached.last_sweeps >= 10


def test_the_plain_scopa_scores_ends_of_hands_as_the_ruleset(tmp_path: Path) -> None:
    """Random ends of hands, many with seats lacking a suit, score the same in the plain game and the ruleset;
    both seats lacking a suit (no primiera point for either) come up often."""
    cases = check_ends_of_hands(load_plain(), tmp_path)
    lacking = [sum(len({text[-1] for text in _cards_of(case["start"]["zones"]["captured"][seat])}) < 4
                   for seat in ("p0", "p1")) for case in cases]
    assert lacking.count(2) >= 50 and lacking.count(1) >= 50
