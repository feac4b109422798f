"""The play table's JSON API and WebSocket (docs/interfaces.md, "Play table").

Every answer to a player is that seat's view (:func:`rebelote.table.table_view`): the seat's
hand and what is public, turned so that the player sits South. A request proves its seat with
``Authorization: Bearer <token>`` (or the pages' key ring cookie). Refusals change nothing:
``403`` a wrong or missing secret, ``409`` an action out of turn, illegal, repeated or on an
old version (``If-Match``), ``404`` an unknown table, ``422`` a malformed body; each
``{"error": ...}`` says why.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Final

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response

from rebelote.errors import InputError
from rebelote.store.play_tables import TableDamagedError, TableNotFoundError
from rebelote.table import verify_record
from rebelote.tableserver import Loaded, SeatForbiddenError, TableService
from rebelote.web.errors import NotFoundError, too_fast
from rebelote.web.openapi import answer_doc, route_doc
from rebelote.web.security import parse_if_match, read_json
from rebelote.web.table.deps import (
    SeatTokenDep,
    TableServiceDep,
    TableStartDep,
    TablesTooFastError,
)
from rebelote.web.table.sockets import REFUSED, cross_site, first_token, refusal, refuse

#: Seconds a socket waits for a change before it checks the table again.
WATCH_POLL: Final = 20.0

_CREATE_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "game": {"type": "string", "enum": ["belote", "coinche", "contree"]},
        "rules": {"type": "string", "example": "official"},
        "options": {"type": "object"},
        "target": {"type": "integer", "example": 1000},
        "bots": {"description": "a bot name for N, E and W, or {\"N\": name, ...}",
                 "example": "heuristic"},
        "friends": {"type": "array", "items": {"type": "string"}, "example": ["N"],
                    "description": "seats kept for friends (bots play them until taken)"},
        "name": {"type": "string"},
        "pace": {"type": "integer", "description": "ms between two bots' moves (0: at once, "
                 "the answer comes after the bots)"},
        "clock": {"type": "integer", "description": "seconds a player has to act before "
                  "the seat's bot plays (0: no clock)"},
        "between": {"type": "integer", "description": "after a deal, while a player sits at "
                    "the table: 0 deal on at once (the default), -1 wait for a player's "
                    "action next, N ms: the same wait, the pages sending next after N ms"},
    },
    "required": ["game"],
}
_ACTION_SCHEMA: Final[dict[str, Any]] = {
    "type": "object", "properties": {"action": {"type": "string", "example": "90 hearts"}},
    "required": ["action"]}
_JOIN_SCHEMA: Final[dict[str, Any]] = {
    "type": "object", "properties": {
        "code": {"type": "string", "example": "K7XP3QAB"},
        "name": {"type": "string"},
        "seat": {"type": "string", "enum": ["N", "E", "W"]},
        "invite": {"type": "string", "description": "a seat kept for a friend: the secret of "
                   "its invitation link (the seat is then yours at once); without it, a bot's "
                   "seat is yours from the next deal"}},
    "required": ["code"]}


_CARDS: Final[dict[str, Any]] = {"type": "array", "items": {"type": "string"}}
#: A seat's view (docs/table.md lists every field); more fields are welcome.
VIEW: Final[dict[str, Any]] = {
    "type": "object",
    "required": ["seat", "game", "deal", "commitment", "phase", "turn", "hand", "legal",
                 "scores", "over", "version"],
    "properties": {
        "seat": {"type": "string", "enum": ["N", "E", "S", "W"]},
        "game": {"type": "string"}, "deal": {"type": "integer"},
        "commitment": {"type": "string"}, "phase": {"type": "string"},
        "turn": {"type": ["string", "null"]}, "hand": _CARDS, "legal": _CARDS,
        "scores": {"type": "object"}, "over": {"type": "boolean"},
        "version": {"type": "integer"}, "token": {"type": "string"},
        "id": {"type": "string"},
        "next_game": {"type": "string", "description": "once the game is over and a player "
                      "of the room started its next game (POST /api/tables/{id}/again): its "
                      "id, where your seat and secret are kept"},
    },
}
RECORD: Final[dict[str, Any]] = {
    "type": "object", "required": ["hands", "auction", "tricks", "commitment", "seed", "salt"]}
CHECK: Final[dict[str, Any]] = {
    "type": "object", "required": ["deal", "commitment", "verified"],
    "properties": {"deal": {"type": "integer"}, "commitment": {"type": "string"},
                   "verified": {"type": "boolean"}, "error": {"type": "string"}}}
ANALYSIS: Final[dict[str, Any]] = {
    "type": "object", "required": ["deal", "cards"],
    "properties": {"deal": {"type": "integer"}, "cards": {"type": "array"},
                   "explanations": {"type": "array"}}}
HINT: Final[dict[str, Any]] = {
    "type": "object", "required": ["action", "level", "why", "candidates", "knew"],
    "properties": {"action": {"type": "string"}, "level": {"type": "string"},
                   "why": {"type": "string"}, "candidates": {"type": "array"},
                   "knew": {"type": "array"}}}
_WRITE: Final = (403, 404, 409, 413, 415, 422, 503)
_READ: Final = (403, 404, 422, 503)

router = APIRouter(prefix="/api/tables", tags=["table"])


def seat_view(tables: TableService, loaded: Loaded, seat: int, status: int = 200,
              **more: Any) -> Response:
    """The view of ``seat``, with the table's version as ``ETag`` (and ``more`` fields)."""
    headers = {"ETag": f'"{loaded.version}"'}
    if not more:  # the view as the socket pushes it, encoded once
        return Response(tables.view_text(loaded, seat), status_code=status, headers=headers,
                        media_type="application/json")
    out = tables.view(loaded, seat)
    out.update(more)
    return JSONResponse(out, status_code=status, headers=headers)


async def finished_record(tables: TableService, table_id: str, token: str | None, n: int
                          ) -> dict[str, Any]:
    """The record of the table's finished deal ``n``, for a seat of the table (403 for anyone
    else, 404 when deal ``n`` is not finished)."""
    loaded = await tables.load(table_id)
    tables.seat_of(loaded, token)
    if not 1 <= n <= len(loaded.table.replay.finished):
        raise NotFoundError(f"n: deal {n} of this table is not finished")
    return loaded.table.record(n)


@router.post("", status_code=201, summary="Start a table (you sit South)",
             openapi_extra=route_doc(_CREATE_SCHEMA, 201, VIEW, "Your view and your secret",
                                     413, 415, 422, 503, secret=False))
async def create(request: Request, tables: TableServiceDep) -> Response:
    loaded, token = await tables.create(await read_json(request))
    return seat_view(tables, loaded, 2, 201, token=token)


@router.post("/join", status_code=201, summary="Take a free seat of a room by its code",
             openapi_extra=route_doc(_JOIN_SCHEMA, 201, VIEW, "Your view and your secret",
                                     404, 409, 413, 415, 422, 503, secret=False))
async def join(request: Request, tables: TableServiceDep) -> Response:
    body = await read_json(request)
    if not isinstance(body, dict) or not isinstance(body.get("code"), str):
        raise InputError("code", "missing: the room's join code")
    loaded, token, seat = await tables.join(body["code"], body.get("name"),
                                            body.get("seat") or None, body.get("invite") or None)
    return seat_view(tables, loaded, seat, 201, token=token)


@router.get("/{table_id}", summary="What your seat may see of the table",
            openapi_extra=route_doc(None, 200, VIEW, "Your view", *_READ))
async def get(table_id: str, tables: TableServiceDep, token: SeatTokenDep) -> Response:
    loaded = await tables.load(table_id)
    seat = tables.seat_of(loaded, token)
    if loaded.table.bot_to_play and loaded.table.pace:
        tables.start_driver(table_id)  # after a restart, the bots go on
    return seat_view(tables, loaded, seat)


@router.post("/{table_id}/actions", summary="Bid or play a card",
             openapi_extra=route_doc(_ACTION_SCHEMA, 200, VIEW, "Your view after the bots",
                                     *_WRITE))
async def act(request: Request, table_id: str, tables: TableServiceDep, token: SeatTokenDep
              ) -> Response:
    body = await read_json(request)
    action = body.get("action") if isinstance(body, dict) else None
    expected = parse_if_match(request.headers.get("if-match"))
    loaded, seat = await tables.act(table_id, token, action, expected)
    return seat_view(tables, loaded, seat)


@router.post("/{table_id}/hint", summary="Un conseil: what the table's level would play at "
             "your turn, and why",
             openapi_extra=route_doc(None, 200, HINT, "The hint", *_WRITE))
async def hint(table_id: str, tables: TableServiceDep, token: SeatTokenDep, lang: str = "fr"
               ) -> Response:
    """The move the table's level would make at your turn, from your seat's observation alone,
    with its sentence (``lang``: ``fr`` or ``en``); counted once a decision on the table's
    sheet. ``422`` at a table whose creator did not allow hints, ``409`` out of your turn."""
    _, _, why = await tables.hint(table_id, token)
    out = why.to_json(lang)
    return JSONResponse({"action": out["action"], "level": out["level"], "why": out["why"],
                         "candidates": out["candidates"], "knew": out["knew"]})


#: ``POST /api/tables/{id}/again``'s answers: 201 (this call started the next game), 200 (it
#: was started before), the refusals.
_AGAIN_DOC: Final[dict[str, Any]] = route_doc(
    None, 201, VIEW, "Your view of the next game, which this call started, and your secret "
    "(the same)", *_WRITE, 429)
_AGAIN_DOC["responses"] |= answer_doc(200, VIEW, "Your view of the next game, which another "
                                      "call started, and your secret (the same)")


@router.post("/{table_id}/again", status_code=201, summary="Nouvelle partie: the room's next "
             "game, every player at the same seat", openapi_extra=_AGAIN_DOC)
async def again(table_id: str, tables: TableServiceDep, token: SeatTokenDep,
                starting: TableStartDep) -> Response:
    """The page's *Nouvelle partie* for a player of the finished table (docs/table.md, "The
    room's next game"): the first call starts the room's next game (``201``) with the same
    seats, names, secrets and settings; any later one, by anyone of the room, answers the same
    game (``200``). The answer is the caller's view of it (their seat, turned to South), with
    ``token``: their secret, the same at the next game. ``403`` for a stranger or a player who
    handed their seat back, ``409`` while the game goes on. Counted as a table started
    (``tables_per_minute``, ``429`` past it) only by the call that starts it."""
    try:
        new, seat, started = await tables.start_next_game(table_id, token, starting)
    except TablesTooFastError as e:
        return too_fast(str(e), e.wait)
    assert token is not None  # a seat's secret: the same at the next game
    return seat_view(tables, new, seat, 201 if started else 200, token=token)


@router.post("/{table_id}/release", summary="Hand your seat back to its bot",
             openapi_extra=route_doc(None, 200, {"type": "object", "required": ["released"]},
                                     "Released", *_WRITE))
async def release(table_id: str, tables: TableServiceDep, token: SeatTokenDep) -> Response:
    await tables.release(table_id, token)
    return JSONResponse({"released": True})


@router.post("/{table_id}/seats/{seat}/bot", summary="Hand a seat back to its bot (the "
             "table's host only)", openapi_extra=route_doc(None, 200, VIEW, "Your view",
                                                           *_WRITE))
async def hand_back(table_id: str, seat: str, tables: TableServiceDep, token: SeatTokenDep
                    ) -> Response:
    loaded = await tables.hand_back(table_id, token, seat)
    return seat_view(tables, loaded, tables.seat_of(loaded, token))


@router.post("/{table_id}/fill", summary="Let bots play the seats kept for friends",
             openapi_extra=route_doc(None, 200, VIEW, "Your view", *_WRITE))
async def fill(table_id: str, tables: TableServiceDep, token: SeatTokenDep) -> Response:
    loaded = await tables.fill(table_id, token)
    return seat_view(tables, loaded, tables.seat_of(loaded, token))


@router.post("/{table_id}/back", summary="Take your seat back from its bot (after the "
             "clock ran out)", openapi_extra=route_doc(None, 200, VIEW, "Your view", *_WRITE))
async def back(table_id: str, tables: TableServiceDep, token: SeatTokenDep) -> Response:
    loaded = await tables.back(table_id, token)
    return seat_view(tables, loaded, tables.seat_of(loaded, token))


@router.get("/{table_id}/deals/{n}.json", summary="A finished deal's record (with its "
            "commitment, seed and salt)",
            openapi_extra=route_doc(None, 200, RECORD, "The deal record", *_READ))
async def record(table_id: str, n: int, tables: TableServiceDep, token: SeatTokenDep
                 ) -> Response:
    out = await finished_record(tables, table_id, token, n)
    kept = await tables.explanations(table_id, n)  # its bots' explanations, if stored
    if kept:
        out["explanations"] = kept
    return JSONResponse(out, headers={
        "Content-Disposition": f'attachment; filename="table-{table_id}-deal-{n}.json"'})


@router.get("/{table_id}/deals/{n}/verify", summary="The shuffle of a finished deal checked: "
            "the commitment shown before the deal recomputed from the revealed seed and salt, "
            "the seed's deck dealt again, every call and card replayed",
            openapi_extra=route_doc(None, 200, CHECK, "The check", *_READ))
async def verify(table_id: str, n: int, tables: TableServiceDep, token: SeatTokenDep
                 ) -> Response:
    found = await finished_record(tables, table_id, token, n)
    out: dict[str, Any] = {"deal": n, "commitment": found["commitment"]}
    try:
        out |= verify_record(found)
    except InputError as e:
        out |= {"verified": False, "error": str(e)}
    return JSONResponse(out)


@router.get("/{table_id}/deals/{n}/analysis", summary="What each card of a finished deal "
            "cost against the best card (double-dummy solver)",
            openapi_extra=route_doc(None, 200, ANALYSIS, "Each card's cost", *_READ))
async def analysis(table_id: str, n: int, tables: TableServiceDep, token: SeatTokenDep,
                   lang: str = "fr") -> Response:
    """Each card's cost, and each bot move's explanation (``explanations``, its sentences in
    ``lang``: ``fr`` or ``en``) as its bot recorded it deciding."""
    try:
        loaded, seat, cards = await tables.analysis(table_id, token, n)
    except InputError as e:  # a deal not finished, or no solver in this build
        raise NotFoundError(str(e)) from None
    upto = len(loaded.table.replay.finished)
    robot = await tables.robots.stored(table_id, n, seat)
    await tables.robots.load(table_id, upto)
    return JSONResponse({"deal": n, "cards": cards,
                         "explanations": await tables.explanations_in(table_id, n, lang),
                         "robot": robot,
                         "robot_sum": tables.robots.running(table_id, seat, upto)})


@router.websocket("/{table_id}/ws")
async def watch(websocket: WebSocket, table_id: str, tables: TableServiceDep,
                token: SeatTokenDep) -> None:
    """Live views: one at once, then one after every change of the table. The secret
    comes from the cookie, or as the first message ``{"token": ...}``."""
    if cross_site(websocket):
        await websocket.close(code=REFUSED)  # another site's page may not use the cookie
        return
    await websocket.accept()
    try:
        token = await first_token(websocket, token)
        loaded = await tables.load(table_id)
        seat = tables.seat_of(loaded, token)
    except WebSocketDisconnect:
        return
    except (SeatForbiddenError, TableNotFoundError, TableDamagedError, ValueError,
            TimeoutError) as e:
        await refuse(websocket, refusal(e, table_id, "the seat's cookie"))
        return
    if loaded.table.bot_to_play and loaded.table.pace:
        tables.start_driver(table_id)
    wake = tables.watch(table_id)  # set by every change, and when the socket closes
    if tables.known_version(table_id) > loaded.version:
        wake.set()  # a change came while the socket was opening
    closed = asyncio.create_task(until_closed(websocket))
    closed.add_done_callback(lambda _: wake.set())
    tables.connected(table_id, seat)
    try:
        await websocket.send_text(tables.view_text(loaded, seat))
        version, watching = loaded.version, tables.watchers(table_id)
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(WATCH_POLL):
                    await wake.wait()
            wake.clear()  # a change from here on sets it again
            if closed.done():
                break
            loaded = await tables.load_latest(table_id)
            if loaded.version == version and tables.watchers(table_id) == watching:
                continue
            version, watching = loaded.version, tables.watchers(table_id)
            if loaded.table.seat_of(token) != seat:
                await websocket.send_json({"error": "token: this seat was handed back"})
                break
            await websocket.send_text(tables.view_text(loaded, seat))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        closed.cancel()
        tables.unwatch(table_id, wake)
        tables.disconnected(table_id, seat)
        with contextlib.suppress(Exception):
            await websocket.close()


async def until_closed(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends until it goes away."""
    with contextlib.suppress(Exception):
        while True:
            message = await websocket.receive()
            if message.get("type") == "websocket.disconnect":
                return
