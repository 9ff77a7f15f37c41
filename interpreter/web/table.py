"""A match at a web table: the seats people play (each reached through its own secret token), bots at the
others, the log written as the match goes, and each seat's view of it (interpreter/view.py) as a message.

It imports no web framework: `app` serves it. Everything runs on one event loop, except a bot's thinking, which
runs in a worker thread so that the pages are served meanwhile (a search bot may think for seconds); the state
changes only under the table's lock, which a bot holds while it thinks, so a move and the bots' answers to it are
never interleaved with another move."""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import threading
from collections.abc import Callable, Sequence
from typing import IO, Any

from interpreter.actions import Action, ActionSyntaxError
from interpreter.engine.errors import IllegalActionError, RulesetRuntimeError
from interpreter.engine.state import CHANCE, State
from interpreter.errors import MAX_MESSAGE, shorten
from interpreter.numbers import plain_numbers
from interpreter.runners.logfile import MatchLog
from interpreter.runners.replay import match_result
from interpreter.view import in_hand_order, table_view

Chooser = Callable[[State], Action]
RECENT_MOVES = 12  # the fewest of the hand's last lines a page shows (and every one since the seat's own move)
MOST_RECENT_MOVES = 200
MOST_ACTION_CHARACTERS = 1_000  # an action's text is a few words
STALE = "that move was made on a page that no longer shows the table (a second tab, or a click sent twice): " \
        "the page now shows the table as it is"
_SEAT_WORD = re.compile(r"[pP](\d+)\s+(.*)", re.DOTALL)  # `p2 play AH`, `P2\tplay AH`


FRENCH_SUITS = {"S": ("♠", "black"), "H": ("♥", "red"), "D": ("♦", "red"), "C": ("♣", "black")}


def card_faces(deck: Any) -> dict[str, Any]:
    """How the page draws this deck's cards: each suit's sign and colour (the French signs only for a deck whose
    suits are exactly S, H, D and C: in another deck a C may be cups, not clubs; other suits are written as they
    are), and
    the jokers' names."""
    french = set(deck.suits) == set(FRENCH_SUITS)
    suits = {suit: (FRENCH_SUITS[suit] if french else (suit, "")) for suit in deck.suits}
    return {"suits": {suit: {"sign": sign, "colour": colour} for suit, (sign, colour) in suits.items()},
            "jokers": list(deck.joker_ranks) if deck.has_joker else []}


def _thought(chooser: Chooser, state: State) -> asyncio.Future[Action]:
    """A bot's choice, made in a thread of its own (a daemon: a server stopped while a search bot thinks ends at
    once, where a worker of the loop's pool would be waited for)."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[Action] = loop.create_future()

    def settle(choice: Action | None, failure: BaseException | None) -> None:
        if answer.done():
            return
        if failure is not None:
            answer.set_exception(failure)
        else:
            answer.set_result(choice)  # type: ignore[arg-type]

    def think() -> None:
        try:
            choice, failure = chooser(state), None
        except BaseException as error:  # (handed to the loop, which raises it where the choice is awaited)
            choice, failure = None, error
        with contextlib.suppress(RuntimeError):  # (the loop is closed: the server has stopped)
            loop.call_soon_threadsafe(settle, choice, failure)

    threading.Thread(target=think, name="ruledeck-bot", daemon=True).start()
    return answer


class RefusedMove(Exception):
    """A move a seat may not make now; the message says why (the rule that forbids it, quoted)."""


class Table:
    """One match served to the seats in `humans`; `bots[seat]` chooses for every other seat."""

    def __init__(self, state: State, *, humans: Sequence[int], bots: Sequence[Chooser | None],
                 log: MatchLog | None = None, log_file: IO[str] | None = None, logged: int = 0,
                 bot_delay: float = 0.0, on_over: Callable[[State], None] | None = None,
                 on_failure: Callable[[BaseException], None] | None = None) -> None:
        self.state = state
        self.humans = tuple(sorted(set(humans)))
        self.tokens = {secrets.token_urlsafe(18): seat for seat in self.humans}
        self.bots = list(bots)
        self.log = log
        self.log_file = log_file
        self.written = logged  # the events of the match the log already holds
        self.bot_delay = bot_delay
        self.version = 0
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.on_over = on_over  # told once, when the match ends
        self.on_failure = on_failure  # told once, when the table stops on a failure (a ruleset's, a bot's)
        self.failure: str | None = None  # what stopped the table, shown on every page
        self.lock = asyncio.Lock()  # held while the state changes, and while a bot thinks about changing it
        self._faces = card_faces(state.game.deck)

    # --- seats ---------------------------------------------------------------------------------------------

    def seat_of(self, token: str) -> int | None:
        """The seat a token opens, or None (compared in constant time, token by token)."""
        found = None
        for known, seat in self.tokens.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                found = seat
        return found

    def token_of(self, seat: int) -> str:
        return next(token for token, known in self.tokens.items() if known == seat)

    def message(self, seat: int) -> dict[str, Any]:
        """What the page of `seat` is sent: its view of the table, who sits where, and the result at the end."""
        seen = table_view(self.state, seat, recent=RECENT_MOVES, since_own=MOST_RECENT_MOVES)
        view = seen.to_dict()
        view["legal_actions"] = [seen.legal_actions[index] for index in in_hand_order(seen)]  # (as the hand reads)
        view["version"] = self.version
        view["moves_made"] = self.moves_made(seat)  # (sent back with a move: one made on an older page is refused)
        view["seats"] = [{"seat": other, "name": f"p{other}",
                          "kind": "you" if other == seat else "person" if other in self.humans else "bot"}
                         for other in range(self.state.player_count)]
        view["waiting_for"] = self._waiting_for()
        view["deck"] = self._faces
        view["returns"] = plain_numbers(self.state.returns()) if self.state.is_terminal else None
        view["stopped"] = self.failure
        return view

    def moves_made(self, seat: int) -> int:
        """How many moves `seat` has made in the match."""
        return sum(action.seat == seat for action in self.state.history)

    def _waiting_for(self) -> str | None:
        current = self.state.current_player
        if self.state.is_terminal or current < 0:
            return None
        return "person" if current in self.humans else "bot"

    # --- moves ---------------------------------------------------------------------------------------------

    async def move(self, seat: int, text: str, moves_made: int | None = None) -> None:
        """Make a move for `seat` (its text, with or without the seat), then let the bots answer; RefusedMove
        when the move cannot be made now. `moves_made`: the count of the seat's moves its page showed (see
        `message`), so that a move sent twice, or from a page left behind, is not made at the next turn."""
        async with self.lock:
            self._make(seat, text, moves_made)
        await self.start()

    def _make(self, seat: int, text: str, moves_made: int | None) -> None:
        state = self.state
        if state.is_terminal:
            raise RefusedMove("the match is over")
        if self.failure is not None:
            raise RefusedMove(f"the table has stopped: {self.failure}")
        if moves_made is not None and moves_made != self.moves_made(seat):
            raise RefusedMove(STALE)
        if len(text) > MOST_ACTION_CHARACTERS:
            raise RefusedMove("that is no move of this game (a move is a few words: pick one of the buttons)")
        words = text.strip()
        named = _SEAT_WORD.fullmatch(words)
        if named is not None:
            if int(named.group(1)) != seat:
                raise RefusedMove(f"you are p{seat}: a move for p{named.group(1)} is theirs to make")
            words = named.group(2).strip()
        if state.current_player == CHANCE:
            raise RefusedMove("the cards are being dealt: wait for your turn")
        try:
            action = state.parse_action(f"p{seat} {words}")
            state.check(action)
        except (ActionSyntaxError, IllegalActionError, RulesetRuntimeError) as error:
            raise RefusedMove(str(error)) from None
        try:
            state.apply(action)
            self._changed()
        except Exception as error:  # (the rules failed after the move, or the log: the table stops, and says so)
            self._stop(error)
            raise RefusedMove(f"the table has stopped: {self.failure}") from None

    async def start(self) -> None:
        """Play the chance events and the bots' turns up to a person's turn or the end: at once without a
        delay between bot moves, else in a task of its own, so that each bot move reaches the pages."""
        if self.bot_delay <= 0:
            while await self._advance_one():
                pass
        elif self.task is None or self.task.done():
            self.task = asyncio.create_task(self._advance_slowly())

    async def _advance_slowly(self) -> None:
        while await self._advance_one():
            await asyncio.sleep(self.bot_delay)

    async def _advance_one(self) -> bool:
        """One chance event or bot move; False at a person's turn or the end. A bot thinks in a worker thread,
        on a copy of the state, the lock held: the pages are answered while it does, and no move changes the
        state meanwhile."""
        async with self.lock:
            state = self.state
            if state.is_terminal or self.failure is not None:
                return False
            try:
                if state.current_player == CHANCE:
                    state.apply_chance()
                elif state.current_player in self.humans:
                    return False
                else:
                    chooser = self.bots[state.current_player]
                    assert chooser is not None, f"no bot at p{state.current_player}"
                    # (on a copy: a bot may try moves in the values it reads, which the pages must never see)
                    state.apply(await _thought(chooser, state.clone()))
                self._changed()
            except Exception as error:  # (the rules failed, or a bot, or the log: the table stops, and says so)
                self._stop(error)
                return False
            return True

    def _stop(self, error: Exception) -> None:
        """Stop the table on a failure: every page says so, no move is taken, the log keeps the match so far."""
        self.failure = shorten(str(error) or type(error).__name__, MAX_MESSAGE)
        with contextlib.suppress(Exception):  # (the log may be what failed)
            self.write_log()
        self.version += 1
        self.changed.set()
        self.changed = asyncio.Event()
        if self.on_failure is not None:
            self.on_failure(error)

    # --- the log and the pages ----------------------------------------------------------------------------

    def _changed(self) -> None:
        self.write_log()
        self.version += 1
        self.changed.set()
        self.changed = asyncio.Event()

    async def wait_for_change(self, version: int, timeout: float) -> None:
        """Return when the table is past `version`, or after `timeout` seconds."""
        if self.version != version:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), timeout)

    def write_log(self) -> None:
        """Write the events not yet in the log (flushed line by line), and the result once the match is over."""
        if self.log is None:
            return
        for event in self.state.events_since(self.written):
            self.log.write(event)
        self.written = self.state.event_count
        if self.state.is_terminal:
            self.log.write({"type": "result", **match_result(self.state)})
            self.close()
            if self.on_over is not None:
                self.on_over(self.state)

    def close(self) -> None:
        if self.log_file is not None:
            self.log_file.close()
        self.log, self.log_file = None, None

