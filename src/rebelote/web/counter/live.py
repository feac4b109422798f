"""The live shared sheet: a game's read-only view, its QR code, and server-sent events.

- ``GET /views/{view}``: the sheet, read-only (no secret needed: the view id is the link).
- ``GET /views/{view}/events``: ``text/event-stream``; an ``update`` event carries the game's
  new version each time it changes (writes made by this process are pushed at once; writes of
  other processes sharing the database are found by a version check every
  :data:`POLL_SECONDS`). A stream ends after :data:`STREAM_SECONDS` (the browser reconnects).
  The streams open per game and per client are capped by the security middleware
  (:class:`~rebelote.web.limits.Limits`: ``429`` past them), so that no client can shut the
  others' sheets (there was one cap of 1,000 per process).
- ``GET /views/{view}/qr.svg``: the QR code of the view link, drawn on the server (segno).
- ``GET /games/{id}/edit-link``: the edit link (``/join/{id}?key=<secret>``) and its QR code,
  for the holder of the secret, to hand a second scorer.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse

from rebelote.store import GameNotFoundError
from rebelote.web import i18n
from rebelote.web.counter.deps import CounterDep, GameSecretDep
from rebelote.web.counter.pages import game_context, is_htmx, missing, templates
from rebelote.web.counter.service import GameView
from rebelote.web.errors import ForbiddenError
from rebelote.web.share import qr_svg

POLL_SECONDS: Final = 10.0
STREAM_SECONDS: Final = 300.0


router = APIRouter(include_in_schema=False)


@router.get("/views/{view_id}")
async def view_page(request: Request, view_id: str, counter: CounterDep) -> Response:
    try:
        view = await counter.call(counter.get_view, view_id)
    except GameNotFoundError:
        return templates.render(request, "missing.html", 404, game_id=view_id, forbidden=False)
    name = "_game.html" if is_htmx(request) else "game.html"
    return templates.render(request, name, readonly=True,
                            **game_context(view, i18n.request_lang(request)))


@router.get("/views/{view_id}/qr.svg")
async def view_qr(request: Request, view_id: str, counter: CounterDep) -> Response:
    await counter.call(counter.get_view, view_id)
    url = str(request.url_for("view_page", view_id=view_id))
    return Response(qr_svg(url, "rebelote"), media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})


@router.get("/games/{game_id}/edit-link")
async def edit_link(request: Request, game_id: str, counter: CounterDep,
                    secret: GameSecretDep) -> Response:
    try:
        view = await counter.call(counter.get, game_id, secret)
    except (GameNotFoundError, ForbiddenError) as e:
        return missing(request, game_id, e)
    url = f"{request.url_for('join', game_id=game_id)}?key={secret}"
    svg = qr_svg(url, "rebelote").decode()
    return templates.render(request, "edit_link.html", view=view, teams=view.match.teams,
                            url=url, svg=svg)


@router.get("/views/{view_id}/events")
async def events(view_id: str, counter: CounterDep) -> Response:
    view = await counter.call(counter.get_view, view_id)
    loop = asyncio.get_running_loop()
    changed: asyncio.Queue[int] = asyncio.Queue(maxsize=1)

    def listener(fresh: GameView) -> None:
        def put() -> None:
            with contextlib.suppress(asyncio.QueueFull):
                changed.put_nowait(fresh.version)

        loop.call_soon_threadsafe(put)

    async def stream() -> AsyncIterator[str]:
        counter.subscribe(view.id, listener)
        version = view.version
        try:
            yield f"retry: 3000\nevent: update\ndata: {version}\n\n"
            end = time.monotonic() + STREAM_SECONDS
            while time.monotonic() < end:
                try:
                    fresh = await asyncio.wait_for(changed.get(), POLL_SECONDS)
                except TimeoutError:
                    try:
                        fresh = await counter.call(counter.version, view.id)
                    except GameNotFoundError:
                        yield "event: gone\ndata: 0\n\n"
                        return
                if fresh != version:
                    version = fresh
                    yield f"event: update\ndata: {version}\n\n"
                else:
                    yield ": still here\n\n"
        finally:
            counter.unsubscribe(view.id, listener)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
