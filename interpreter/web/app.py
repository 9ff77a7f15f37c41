"""The web table's HTTP side (Starlette): a page per seat, reached through the seat's secret token; its view as
JSON; moves; and server-sent events that push the view whenever the table changes. A request without a valid
token is answered 404 and sees nothing of the match."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from interpreter.web.table import RefusedMove, Table

KEEP_ALIVE = 15.0  # seconds between comments on a quiet event stream, so that proxies and browsers keep it open
STOP_CHECK = 0.5  # seconds between an event stream's looks at whether the server is stopping
MOST_BODY_BYTES = 16_384  # a move's request is a few words
NO_SEAT = "No seat here. Open the link printed when the table was started: each seat has its own."


def create_app(table: Table, stopping: Callable[[], bool] = lambda: False) -> Starlette:
    """The application serving `table`; `stopping` tells when the server is stopping (its event streams end
    then, so that Ctrl-C does not wait on the pages left open)."""

    def seat_of(request: Request) -> int | None:
        return table.seat_of(request.path_params["token"])

    def nothing() -> Response:
        return PlainTextResponse(NO_SEAT, status_code=404)

    async def home(request: Request) -> Response:
        return nothing()

    async def page(request: Request) -> Response:
        if seat_of(request) is None:
            return nothing()
        html = resources.files("interpreter.web").joinpath("static/table.html").read_text(encoding="utf-8")
        return HTMLResponse(html, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    async def view(request: Request) -> Response:
        seat = seat_of(request)
        if seat is None:
            return nothing()
        return JSONResponse(table.message(seat), headers={"Cache-Control": "no-store"})

    async def move(request: Request) -> Response:
        seat = seat_of(request)
        if seat is None:
            return nothing()
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MOST_BODY_BYTES:
                return JSONResponse({"error": "a move is a few words, not this much"}, status_code=413)
        try:
            body: Any = json.loads(raw)
        except (ValueError, RecursionError):  # (not JSON; JSON nested past what Python reads)
            body = None
        if not isinstance(body, dict) or not isinstance(body.get("action"), str):
            return JSONResponse({"error": 'send {"action": "play AH"}'}, status_code=400)
        made = body.get("moves_made")
        if made is not None and (not isinstance(made, int) or isinstance(made, bool)):
            return JSONResponse({"error": "moves_made is the count of your moves your page showed"}, status_code=400)
        try:
            await table.move(seat, body["action"], made)
        except RefusedMove as error:
            return JSONResponse({"error": str(error), "view": table.message(seat)}, status_code=409)
        return JSONResponse({"view": table.message(seat)})

    async def events(request: Request) -> Response:
        seat = seat_of(request)
        if seat is None:
            return nothing()
        return StreamingResponse(_stream(table, seat, request, stopping), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    routes = [
        Route("/", home),
        Route("/seat/{token}", page),
        Route("/seat/{token}/view", view),
        Route("/seat/{token}/move", move, methods=["POST"]),
        Route("/seat/{token}/events", events),
        Mount("/static", StaticFiles(packages=[("interpreter.web", "static")]), name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await table.start()  # the bots play up to the first person's turn
        try:
            yield
        finally:
            table.close()

    return Starlette(routes=routes, lifespan=lifespan)


async def _stream(table: Table, seat: int, request: Request, stopping: Callable[[], bool]) -> AsyncIterator[str]:
    """The seat's view now, then again each time the table changes (a comment when it is quiet for a while);
    it ends when the page goes or the server stops."""
    sent = -1
    quiet = 0.0
    while not stopping() and not await request.is_disconnected():
        if table.version != sent:
            sent, quiet = table.version, 0.0
            yield f"event: view\ndata: {json.dumps(table.message(seat), ensure_ascii=False)}\n\n"
            continue
        await table.wait_for_change(sent, STOP_CHECK)
        quiet += STOP_CHECK
        if table.version == sent and quiet >= KEEP_ALIVE:
            quiet = 0.0
            yield ": still here\n\n"
