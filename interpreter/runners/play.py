"""Play one match with bots (and people at the terminal), with a transcript, a JSON result and a log that is
flushed as it is written, so an interrupted match leaves a valid, replayable prefix."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from interpreter.agents import Agent, make_agent
from interpreter.engine.errors import RulesetRuntimeError
from interpreter.engine.game import Game
from interpreter.engine.state import CHANCE, State
from interpreter.numbers import plain_numbers
from interpreter.runners.integrity import rules_fingerprint
from interpreter.runners.logfile import MatchLog, SeatLog
from interpreter.runners.transcript import Transcript


@dataclass
class MatchResult:
    ruleset: str
    players: int
    seed: int | None
    hands: int
    returns: list[Any]  # int, or Fraction (see interpreter/numbers.py)
    hand_results: list[dict[str, Any]] = field(default_factory=list)
    actions: int = 0
    ended_by: str = ""  # `ends_when`, `end` (a step), `hands`, or `hand_cap` (the match was stopped before its end)

    def as_json(self) -> dict[str, Any]:
        winners = [seat for seat, value in enumerate(self.returns) if value == max(self.returns)]
        return {"ruleset": self.ruleset, "players": self.players, "seed": self.seed, "hands": self.hands,
                "actions": self.actions, "returns": plain_numbers(self.returns), "winners": winners,
                "ended_by": self.ended_by,
                "hand_results": [{**hand, "result": plain_numbers(hand["result"])} for hand in self.hand_results]}


Chooser = Callable[[State], Any]


def agents_for(kinds: Sequence[str], players: int, seed: int | None) -> list[Agent]:
    """One bot per seat; a single kind serves every seat, a list gives one kind per seat."""
    chosen = list(kinds) if len(kinds) > 1 else list(kinds) * players
    base = 0 if seed is None else seed
    return [make_agent(kind, None if seed is None else base * 1000 + seat) for seat, kind in enumerate(chosen)]


def play_match(game: Game, *, players: int, seed: int | None, choosers: Sequence[Chooser],
               on_line: Callable[[str], None] | None = None, log: IO[str] | MatchLog | None = None,
               header: dict[str, Any] | None = None, viewer: int | None = None,
               state: State | None = None, shown: int | None = None,
               seat_logs: Sequence[SeatLog] = ()) -> MatchResult:
    """Play to the end. `choosers[seat]` picks an action for a seat; `on_line` receives transcript lines;
    `log` receives one JSON event per line, flushed as written, chained (a file is started with a header; a
    `MatchLog` is written on); each of `seat_logs` receives what its seat sees. A `state` given is played on
    (the caller keeps it, to save the match if it is stopped). For a match resumed from its log, `shown` is the
    number of its events the log already holds: they are neither shown nor written again."""
    if state is None:
        state = game.new_initial_state(seed=seed, players=players)
    if (log is not None and not isinstance(log, MatchLog)) or seat_logs:  # (a header costs a hash of the rules)
        full = log_header(game, header, players, seed)
        if log is not None and not isinstance(log, MatchLog):
            log = MatchLog.start(log, full)
        for seat_log in seat_logs:
            seat_log.start(full)
    written = shown or 0  # (the events shown and written so far)
    actions = len(state.history)
    transcript = Transcript(viewer)

    def flush_events(settled: bool = True) -> None:
        nonlocal written
        new = state.events_since(written)
        if log is not None:
            for event in new:
                log.write(event)
        if on_line is not None:
            for line in transcript.lines(new, settled=settled):
                on_line(line)
        for seat_log in seat_logs:
            seat_log.follow(state, new)
        written += len(new)

    # (with nothing to write to or show, the events are not made into dicts at all: a run of `simulate` reads
    # only the results)
    watched = log is not None or on_line is not None or bool(seat_logs)
    values = state.values
    hand, in_hand = values["hand_number"], 0
    if state.history:  # (a match resumed: the actions of its hand so far count too)
        for event in reversed(state.events):
            if event["type"] == "hand":
                break
            in_hand += event["type"] == "action"
    while True:
        if watched:  # (at a chance node, a hand's header waits: the shuffles and draws after it may pick its dealer)
            flush_events(settled=state.current_player != CHANCE or state.is_terminal)
        if state.is_terminal:
            break
        try:
            if state.current_player == CHANCE:
                state.apply_chance()
                continue
            if values["hand_number"] != hand:
                hand, in_hand = values["hand_number"], 0
            action = choosers[state.current_player](state)
            state.apply(action)
        except RulesetRuntimeError:  # (the transcript and the log show the action the rules failed after)
            if watched:
                flush_events()
            raise
        actions += 1
        in_hand += 1
        if in_hand > MOST_HAND_ACTIONS and values["hand_number"] == hand:
            if watched:
                flush_events()
            last = ", ".join(state.action_text(taken) for taken in state.history[-4:])
            raise state.located(RulesetRuntimeError(
                f"hand {hand} ran past {MOST_HAND_ACTIONS:,} actions without ending: does it ever end? (the last "
                f"actions: {last})", "hand"))
    result = MatchResult(game.name, players, seed, len(state.hand_results), state.returns(),
                         state.hand_results, actions, state.ended_by)
    ending = {"type": "result", **result.as_json()}
    if log is not None:
        log.write(ending)
    for seat_log in seat_logs:
        seat_log.follow(state, [ending])
    return result


MOST_HAND_ACTIONS = 100_000  # a hand past this many actions is taken to be a loop (bots taking and giving back)


def log_header(game: Game, header: dict[str, Any] | None, players: int, seed: int | None) -> dict[str, Any]:
    """The first line of a match log, before it is signed: the ruleset, its parameters, the players and the
    seed, and a fingerprint of the rules (so that an edit or another ruleset is seen when the match goes on)."""
    fields = {key: value for key, value in (header or {}).items() if key not in ("digest", "chained")}
    return {"type": "match", **fields, "players": players, "seed": seed, "rules": rules_fingerprint(game)}


def save_log(path: str | Path, header: dict[str, Any], state: State) -> None:
    """A log of the match so far, as `--log` would have written it (for a match stopped without one)."""
    with open(path, "w", encoding="utf-8") as file:
        log = MatchLog.start(file, log_header(state.game, header, state.player_count, state.seed))
        for event in state.events:
            log.write(event)
