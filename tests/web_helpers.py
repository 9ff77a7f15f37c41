"""A web table for tests: built from a ruleset with bots at the seats no person plays, a recorder of every
response the server sends (each checked at once for cards of other seats the seat was never shown), and a
live server in a thread for the tests that need real streaming or a browser."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from interpreter import load_ruleset
from interpreter.engine.state import State
from interpreter.runners.play import agents_for
from interpreter.web.table import Table
from tests.unit.test_seat_logs import card_texts, cards_named

ROOT = Path(__file__).resolve().parent.parent
BOURRE = ROOT / "rulesets" / "bourre.yaml"
BURRACO = ROOT / "rulesets" / "burraco.yaml"
HEARTS = ROOT / "tests" / "games" / "hearts.yaml"
_TOKEN = re.compile(r"/seat/([^/]+)")
_DECK_JOKERS = re.compile(r'"jokers":\s*\[[^\]]*\]')  # the list of the deck's jokers in a view's `deck`


def make_table(path: Path, *, players: int, seed: int, humans: Sequence[int], params: dict[str, Any] | None = None,
               bot_delay: float = 0.0, **options: Any) -> Table:
    game = load_ruleset(path, params or {})
    state = game.new_initial_state(seed=seed, players=players)
    agents = agents_for(["heuristic"], players, seed)
    bots = [None if seat in humans else agents[seat].choose for seat in range(players)]
    return Table(state, humans=humans, bots=bots, bot_delay=bot_delay, **options)


class Secrecy:
    """What each seat has been shown (its views and the public events, as the engine says), and the check of
    a message sent to it: no card of another seat's hidden zones unless the seat was shown that card."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.cards = card_texts(state)
        self.seen: list[set[str]] = [set() for _ in range(state.player_count)]
        self.events_seen = [0] * state.player_count
        self.checked = 0

    def update(self, seat: int) -> None:
        state = self.state
        self.seen[seat] |= cards_named(state.observation(seat), self.cards)
        for event in state.events[self.events_seen[seat]:]:
            public = event["type"] == "reveal" or (
                event["type"] == "action" and seat not in event.get("secret_from", ()))
            if public:
                self.seen[seat] |= cards_named(event["action"], self.cards)
            elif event["type"] == "log":  # a ruleset's own line tells every seat (docs/logs.md)
                self.seen[seat] |= cards_named(event["text"], self.cards)
        self.events_seen[seat] = len(state.events)

    def hidden_from(self, seat: int) -> set[str]:
        """The cards the other seats see now that `seat` does not."""
        own = cards_named(self.state.observation(seat), self.cards)
        found: set[str] = set()
        for other in range(self.state.player_count):
            if other != seat:
                found |= cards_named(self.state.observation(other), self.cards)
        return found - own

    def check(self, seat: int, body: str, where: str) -> None:
        self.update(seat)
        body = _DECK_JOKERS.sub('"jokers": []', body)  # (the deck's jokers, by name: every seat knows the deck)
        leaked = (cards_named(body, self.cards) & self.hidden_from(seat)) - self.seen[seat]
        assert not leaked, f"{where}: p{seat} was sent {sorted(leaked)}, hidden from it: {body[:300]}"
        self.checked += 1


class Recorder:
    """ASGI middleware: every body sent on a seat's address is kept, and checked as it is sent."""

    def __init__(self, app: Any, table: Table, secrecy: Secrecy | None = None) -> None:
        self.app = app
        self.table = table
        self.secrecy = secrecy
        self.sent: list[tuple[int | None, str, str]] = []  # (seat, path, body)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        found = _TOKEN.match(path)
        seat = self.table.seat_of(found.group(1)) if found else None

        async def recording_send(message: Any) -> None:
            if message["type"] == "http.response.body" and message.get("body"):
                body = message["body"].decode("utf-8")
                self.sent.append((seat, path, body))
                if self.secrecy is not None and seat is not None:
                    self.secrecy.check(seat, body, path)
            await send(message)

        await self.app(scope, receive, recording_send)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def live_server(app: Any) -> Iterator[str]:
    """`app` served by uvicorn in a thread on a free local port; its base address."""
    import uvicorn
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def sse_views(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The views an event stream carries, as they come."""
    event = ""
    for line in lines:
        if line.startswith("event:"):
            event = line.removeprefix("event:").strip()
        elif line.startswith("data:") and event == "view":
            yield json.loads(line.removeprefix("data:"))
