"""Watching a table (issue 34, item 5): the watch link and the teacher's view, over HTTP, a
read-only WebSocket and a page (docs/table.md, "Watching a table").

A seat makes (or revokes) the table's watch link and teacher's link; a watcher presents the
link's secret (``?key=``, ``Authorization: Bearer``, or the socket's first message
``{"token": ...}``) and gets :func:`rebelote.table.watching.watch_view`: only what is public,
behind the play, never a hand (the teacher's view: every hand, while every human at the table
said yes). Watchers' sockets count against the table's socket caps (``sockets_per_table`` per
client, in the security middleware) and against ``watchers_per_table``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any, Final

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, RedirectResponse, Response

from rebelote.errors import InputError
from rebelote.store.play_tables import TableDamagedError, TableNotFoundError
from rebelote.table.watching import delay_of, watch_view
from rebelote.tableserver import Loaded, TableService
from rebelote.tableserver.watching import (
    Link,
    WatchForbiddenError,
    consent_change,
    link_change,
    watcher_kind,
)
from rebelote.web.limits import Limits
from rebelote.web.openapi import route_doc
from rebelote.web.security import bearer, is_https, read_json
from rebelote.web.table.api import until_closed
from rebelote.web.table.deps import SeatTokenDep, TableServiceDep
from rebelote.web.table.pages import templates
from rebelote.web.table.sockets import REFUSED, cross_site, first_token, refusal, refuse

#: Seconds a watcher's socket waits for a change before it checks the table again.
WATCH_POLL: Final = 20.0
#: The cookie a watcher's browser keeps the link's secret in, for that page only.
WATCH_COOKIE: Final = "rebelote_watch"
WATCH_COOKIE_DAYS: Final = 30
#: The keys of the watch views in the views' cache (a seat's are 0 to 3).
_VIEW_KEYS: Final = {"watch": -1, "teach": -2}
_LINK: Final[dict[str, Any]] = {
    "type": "object", "properties": {
        "delay": {"description": "the watch link: how far behind watchers follow the deal "
                  "in play: 1 (one trick, the default), 0 (live) or \"deal\" (its end only); "
                  "the table's creator only"}}}
_CONSENT: Final[dict[str, Any]] = {
    "type": "object", "properties": {"yes": {"type": "boolean"}}, "required": ["yes"]}
_WATCH_VIEW: Final[dict[str, Any]] = {
    "type": "object", "required": ["watch", "deal", "seats", "auction", "tricks", "scores"]}

router = APIRouter()


def watch_text(tables: TableService, loaded: Loaded, kind: Link) -> str:
    """The watch view (``teach``: the teacher's) as JSON text, built once per version."""
    def make() -> dict[str, Any]:
        out = watch_view(loaded.table, teacher=kind == "teach")
        out["id"] = loaded.id
        out["version"] = loaded.version
        return out

    return tables.repo.view_text(loaded, _VIEW_KEYS[kind], make)


def _limits(conn: Request | WebSocket) -> Limits:
    found = getattr(conn.app.state, "limits", None)
    return found if isinstance(found, Limits) else Limits()


async def _seat(tables: TableService, table_id: str, token: str | None) -> tuple[Loaded, int]:
    loaded = await tables.load(table_id)
    return loaded, tables.seat_of(loaded, token)


async def _link(tables: TableService, table_id: str, token: str | None, link: Link,
                make: bool, body: Any = None) -> Loaded:
    _, seat = await _seat(tables, table_id, token)
    delay = None
    if isinstance(body, dict) and "delay" in body:
        try:
            delay = delay_of(body["delay"])
        except ValueError as e:
            raise InputError("delay", str(e)) from None
    return await tables.write(table_id, link_change(seat, link, make, delay))


def _answer(tables: TableService, loaded: Loaded, seat: int) -> Response:
    return JSONResponse(tables.view(loaded, seat)["watch"])


@router.post("/api/tables/{table_id}/watch", tags=["table"],
             summary="Make the table's watch link (a seat; the delay: its creator only)",
             openapi_extra=route_doc(_LINK, 200, {"type": "object"}, "The links",
                                     403, 404, 413, 415, 422, 503))
async def make_watch(request: Request, table_id: str, tables: TableServiceDep,
                     token: SeatTokenDep) -> Response:
    body = await read_json(request) if await request.body() else None
    loaded = await _link(tables, table_id, token, "watch", True, body)
    return _answer(tables, loaded, tables.seat_of(loaded, token))


@router.delete("/api/tables/{table_id}/watch", tags=["table"],
               summary="Revoke the watch link (a seat): its watchers are shown out",
               openapi_extra=route_doc(None, 200, {"type": "object"}, "The links", 403, 404))
async def revoke_watch(table_id: str, tables: TableServiceDep, token: SeatTokenDep) -> Response:
    loaded = await _link(tables, table_id, token, "watch", False)
    return _answer(tables, loaded, tables.seat_of(loaded, token))


@router.post("/api/tables/{table_id}/teach", tags=["table"],
             summary="Make the table's teacher's link (a seat)",
             openapi_extra=route_doc(None, 200, {"type": "object"}, "The links", 403, 404))
async def make_teach(table_id: str, tables: TableServiceDep, token: SeatTokenDep) -> Response:
    loaded = await _link(tables, table_id, token, "teach", True)
    return _answer(tables, loaded, tables.seat_of(loaded, token))


@router.delete("/api/tables/{table_id}/teach", tags=["table"],
               summary="Revoke the teacher's link (a seat)",
               openapi_extra=route_doc(None, 200, {"type": "object"}, "The links", 403, 404))
async def revoke_teach(table_id: str, tables: TableServiceDep, token: SeatTokenDep
                       ) -> Response:
    loaded = await _link(tables, table_id, token, "teach", False)
    return _answer(tables, loaded, tables.seat_of(loaded, token))


@router.post("/api/tables/{table_id}/consent", tags=["table"],
             summary="Say yes or no to the teacher's view (a seat)",
             openapi_extra=route_doc(_CONSENT, 200, {"type": "object"}, "The links",
                                     403, 404, 409, 413, 415, 422, 503))
async def consent(request: Request, table_id: str, tables: TableServiceDep,
                  token: SeatTokenDep) -> Response:
    body = await read_json(request)
    yes = body.get("yes") if isinstance(body, dict) else None
    if not isinstance(yes, bool):
        raise InputError("yes", "true (the teacher may see every hand) or false")
    _, seat = await _seat(tables, table_id, token)
    loaded = await tables.write(table_id, consent_change(seat, yes))
    return _answer(tables, loaded, seat)


def _key(request: Request | WebSocket) -> str | None:
    return request.query_params.get("key") or bearer(request)


@router.get("/api/tables/{table_id}/watch", tags=["table"],
            summary="The table as a watcher sees it (the watch link's secret: ?key=)",
            openapi_extra=route_doc(None, 200, _WATCH_VIEW, "The watch view", 403, 404))
async def get_watch(request: Request, table_id: str, tables: TableServiceDep) -> Response:
    loaded = await tables.load_latest(table_id)
    kind = watcher_kind(loaded.table, _key(request))
    return Response(watch_text(tables, loaded, kind), media_type="application/json",
                    headers={"ETag": f'"{loaded.version}"'})


@router.websocket("/api/tables/{table_id}/watch/ws")
async def watch_socket(websocket: WebSocket, table_id: str, tables: TableServiceDep) -> None:
    """The watch view at once, then after every change; the link's secret as ``?key=`` or the
    first message ``{"token": ...}``. A link revoked, or a teacher's view whose consent ends,
    is told at the next change."""
    if cross_site(websocket):
        await websocket.close(code=REFUSED)
        return
    cap = _limits(websocket).watchers_per_table
    if cap and tables.watchers(table_id) >= cap:
        await websocket.close(code=4429)
        return
    await websocket.accept()
    try:
        key = await first_token(websocket, websocket.query_params.get("key") or None)
        loaded = await tables.load_latest(table_id)
        kind = watcher_kind(loaded.table, key)
    except WebSocketDisconnect:
        return
    except (WatchForbiddenError, TableNotFoundError, TableDamagedError, TimeoutError) as e:
        await refuse(websocket, refusal(e, table_id, "open the link with its ?key="))
        return
    wake = tables.watch(table_id)
    closed = asyncio.create_task(until_closed(websocket))
    closed.add_done_callback(lambda _: wake.set())
    tables.watcher_moved(table_id, 1)
    try:
        await websocket.send_text(watch_text(tables, loaded, kind))
        version = loaded.version
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(WATCH_POLL):
                    await wake.wait()
            wake.clear()
            if closed.done():
                break
            loaded = await tables.load_latest(table_id)
            if loaded.version == version:
                continue
            version = loaded.version
            try:
                if watcher_kind(loaded.table, key) != kind:
                    raise WatchForbiddenError("key: this link changed")
            except WatchForbiddenError:
                await websocket.send_json({"error": "key: this watch link was revoked"})
                break
            await websocket.send_text(watch_text(tables, loaded, kind))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        closed.cancel()
        tables.unwatch(table_id, wake)
        tables.watcher_moved(table_id, -1)
        with contextlib.suppress(Exception):
            await websocket.close()


# -- pages ------------------------------------------------------------------------------------
@router.get("/w/{table_id}", include_in_schema=False)
async def watch_page(request: Request, table_id: str, tables: TableServiceDep) -> Response:
    """The watcher's page: the table behind the play, followed live by its socket."""
    # the link's secret: in the link, else kept by this browser for this page (a change of
    # language comes back without the query)
    key = request.query_params.get("key") or request.cookies.get(WATCH_COOKIE)
    try:
        loaded = await tables.load_latest(table_id)
        kind = watcher_kind(loaded.table, key)
    except TableNotFoundError:
        return templates.render(request, "watch/missing.html", 404, missing=True)
    except WatchForbiddenError:
        return templates.render(request, "watch/missing.html", 403, missing=False)
    view = json.loads(watch_text(tables, loaded, kind))
    name = "watch/_view.html" if request.query_params.get("fragment") else "watch/page.html"
    page = templates.render(request, name, v=view, key=key)
    page.set_cookie(WATCH_COOKIE, str(key), path=f"/w/{table_id}", httponly=True,
                    samesite="lax", secure=is_https(request), max_age=WATCH_COOKIE_DAYS * 86400)
    return page


@router.get("/tables/{table_id}/watchers", include_in_schema=False)
async def watchers_line(request: Request, table_id: str, tables: TableServiceDep,
                        token: SeatTokenDep) -> Response:
    """The players' "N regardent" line (a seat), fetched when a watcher comes or goes."""
    await _seat(tables, table_id, token)
    return templates.render(request, "watch/_count.html", n=tables.watchers(table_id))


@router.post("/tables/{table_id}/watch", include_in_schema=False)
async def watch_form(request: Request, table_id: str, tables: TableServiceDep,
                     token: SeatTokenDep) -> Response:
    """The table page's watch forms: make or revoke a link, say yes or no."""
    form = await request.form()
    what = str(form.get("do") or "")
    if what in ("watch", "teach"):
        await _link(tables, table_id, token, "watch" if what == "watch" else "teach", True)
    elif what in ("no-watch", "no-teach"):
        await _link(tables, table_id, token, "watch" if what == "no-watch" else "teach", False)
    elif what == "delay":
        raw = str(form.get("delay") or "")
        await _link(tables, table_id, token, "watch", True,
                    {"delay": int(raw) if raw in ("0", "1") else raw})
    elif what in ("yes", "no"):
        _, seat = await _seat(tables, table_id, token)
        await tables.write(table_id, consent_change(seat, what == "yes"))
    else:
        raise InputError("do", "watch, teach, no-watch, no-teach, delay, yes or no")
    return RedirectResponse(f"/tables/{table_id}#watchers", status_code=303)


__all__ = ["router", "watch_text"]
