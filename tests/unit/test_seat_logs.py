"""A per-seat log (`ruledeck play --log-seat SEAT FILE`) holds only what its seat saw. Over seeded random matches
of every shipped ruleset and variant and every test game, for every seat: each line of the seat's log names
only cards the seat had been shown by then (in its view of the table, `state.observation(seat)`, in an action
or reveal not hidden from it, or in a line the ruleset logs for every seat), so no card hidden from it and
never shown to it appears in it, and the shuffles' orders and the seed are nowhere in it."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from interpreter import CHANCE, load_ruleset
from interpreter.cli import cli
from interpreter.engine.state import State
from interpreter.runners.logfile import SeatLog
from interpreter.runners.play import log_header
from tests.log_helpers import events_of
from tests.playthroughs_golden import ROOT, ruleset_files

STEPS = 400  # a match, or its first steps (a long match is cut: a prefix is a per-seat log too)
_WORDS = re.compile(r"[^\s=+,;:()\[\]{}\"'.!?]+")


def card_texts(state: State) -> frozenset[str]:
    deck = state.game.deck
    return frozenset(deck.card_text(card) for card in deck.distinct_cards())


def cards_named(value: Any, cards: frozenset[str]) -> set[str]:
    """The cards named anywhere in a JSON value or line of text (in its strings and its mappings' keys)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return {word for word in _WORDS.findall(text) if word in cards}


class Shown:
    """What each seat has been shown so far: the engine's own notion (its view, and the events' `secret_from`)."""

    def __init__(self, state: State) -> None:
        self.cards = card_texts(state)
        self.seen: list[set[str]] = [set() for _ in range(state.player_count)]

    def step(self, state: State, events: list[dict[str, Any]], views: list[Any] | None = None) -> None:
        """After a step of the match: its events, and each seat's view now (worked out when not given)."""
        for seat, seen in enumerate(self.seen):
            seen |= cards_named(state.observation(seat) if views is None else views[seat], self.cards)
            for event in events:
                public = event["type"] == "reveal" or (
                    event["type"] == "action" and seat not in event.get("secret_from", ()))
                if public:
                    seen |= cards_named(event["action"], self.cards)
                elif event["type"] == "log":  # a ruleset's own line tells every seat (docs/logs.md): a card
                    seen |= cards_named(event["text"], self.cards)  # drawn face up for the deal, a hand shown


class Lines(io.StringIO):
    """A log kept as its lines."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def write(self, text: str) -> int:
        self.lines.extend(text.splitlines())
        return len(text)


def check_lines(lines: list[str], shown: Shown, seat: int, start: int, where: str) -> int:
    """Each line of a seat's log from `start` names only cards the seat has been shown; the number of lines."""
    for number, line in enumerate(lines[start:], start + 1):
        leaked = cards_named(line, shown.cards) - shown.seen[seat]
        assert not leaked, f"{where}, p{seat}'s log, line {number}: {sorted(leaked)} never shown to p{seat}: {line}"
    return len(lines)


def play_with_seat_logs(path: Path, players: int, seed: int) -> State:
    """A seeded random match with a log for every seat, each line checked as it is written."""
    game = load_ruleset(path)
    state = game.new_initial_state(seed=seed, players=players)
    files = [Lines() for _ in range(players)]
    logs = [SeatLog(file, seat) for seat, file in enumerate(files)]
    header = log_header(game, {"ruleset": str(path)}, players, seed)
    for log in logs:
        log.start(header)
    shown, written, choices = Shown(state), [1] * players, random.Random(seed)
    where = f"{path.name}, {players} players, seed {seed}"
    for _ in range(STEPS):
        if state.is_terminal:
            break
        before = len(state.events)
        if state.current_player == CHANCE:
            state.apply_chance()
        else:
            state.apply(choices.choice(state.legal_actions()))
        new = state.events[before:]
        for log in logs:
            log.follow(state, new)
        shown.step(state, new, [log.last_view for log in logs])  # (the view each log has just compared)
        for seat, file in enumerate(files):
            written[seat] = check_lines(file.lines, shown, seat, written[seat], where)
    for file in files:
        events = [json.loads(line) for line in file.lines]
        assert "seed" not in events[0] and not any("order" in event for event in events if event["type"] == "chance")
    return state


@pytest.mark.parametrize("path", ruleset_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_seat_log_names_a_card_its_seat_was_not_shown(path: Path) -> None:
    game = load_ruleset(path)
    allowed = game.ruleset.players
    for seed, players in enumerate(sorted({allowed.minimum, allowed.default}), 1):
        play_with_seat_logs(path, players, seed)


def test_the_check_finds_a_leak() -> None:
    """A seat log that named the shuffle's order would be caught (the check is not vacuous)."""
    state = load_ruleset(ROOT / "tests" / "games" / "tiny.yaml").new_initial_state(seed=1, players=3)
    state.apply_chance()
    shown = Shown(state)
    shown.step(state, state.events)
    order = next(event for event in state.events if event["type"] == "chance")
    with pytest.raises(AssertionError, match="never shown to p0"):
        check_lines([json.dumps(order)], shown, 0, 0, "tiny")


def test_the_command_line_writes_seat_logs_that_keep_the_others_secrets(tmp_path: Path) -> None:
    full, seat_1 = tmp_path / "full.jsonl", tmp_path / "p1.jsonl"
    result = CliRunner().invoke(cli, ["play", str(ROOT / "rulesets" / "bourre.yaml"), "--players", "4", "--seed", "3",
                                      "--set", "hands=2", "--bots", "random", "--log", str(full), "--log-seat", "1",
                                      str(seat_1), "--log-seat", "2", str(tmp_path / "p2.jsonl"), "--json"])
    assert result.exit_code == 0, result.output
    mine = events_of(seat_1)
    assert mine[0]["seat"] == 1 and "seed" not in mine[0] and mine[0]["chained"] is True
    assert all("order" not in event for event in mine)
    assert any(event.get("hidden") and event["action"].endswith("discard (hidden)") for event in mine)
    assert any(event["type"] == "view" and event["zones"]["hand"][1].get("cards") for event in mine)
    assert mine[-1]["type"] == "result" and "seed" not in mine[-1]
    # the full log played again, step by step: what p1 was shown, against each line of its log
    record = events_of(full)
    game = load_ruleset(ROOT / "rulesets" / "bourre.yaml", record[0]["params"])
    state = game.new_initial_state(seed=3, players=4)
    shown = Shown(state)
    for event in record[1:]:
        before = len(state.events)
        if event["type"] == "chance":
            state.apply_chance()
        elif event["type"] == "action":
            state.apply(event["action"])
        shown.step(state, state.events[before:])
    check_lines(seat_1.read_text(encoding="utf-8").splitlines(), shown, 1, 1, "bourre")
    assert len(shown.cards - shown.seen[1]) > 0
