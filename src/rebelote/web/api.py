"""The counter's JSON API (INTERFACES.md, "The web API").

Every write answers the game (the game answer of ``rebelote score`` plus ``id``, ``teams``,
``target``, ``version``) with an ``ETag`` of its version; a write with an ``If-Match`` of an old
version answers ``409`` and changes nothing. Bad input answers ``422`` ``{"error": ...}``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Annotated, Any, Final, TypeVar

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from rebelote.errors import InputError
from rebelote.web.service import CounterService, GameView

T = TypeVar("T")

_VERSION: Final = re.compile(r'^\s*(?:W/)?"?(\d+)"?\s*$')
MAX_BODY: Final = 1_000_000

_GAME_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "game": {"type": "string", "enum": ["belote", "coinche"]},
        "rules": {"type": "string", "enum": ["official", "house"]},
        "options": {"type": "object"},
        "target": {"type": "integer", "example": 1000},
        "teams": {"type": "object", "example": {"NS": "Nous", "EW": "Eux"}},
    },
    "required": ["game"],
}
_DEAL_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "description": "A deal summary of INTERFACES.md, without game",
    "example": {"trump": "hearts", "taker": "NS", "points": {"NS": 98}, "belote": "NS"},
}


IfMatch = Annotated[str | None, Header(alias="If-Match", description="The version the client "
                                     "read; an older one answers 409")]
Explain = Annotated[bool, Query(description="Add each deal's result-card lines")]


def _body_doc(schema: dict[str, Any], *, if_match: bool = False, explain: bool = False
              ) -> dict[str, Any]:
    doc: dict[str, Any] = {"requestBody": {
        "required": True, "content": {"application/json": {"schema": schema}}}}
    params = []
    if if_match:
        params.append({"name": "If-Match", "in": "header", "required": False,
                       "schema": {"type": "string"},
                       "description": "The version the client read; an older one answers 409"})
    if explain:
        params.append({"name": "explain", "in": "query", "required": False,
                       "schema": {"type": "boolean", "default": False},
                       "description": "Add each deal's result-card lines"})
    if params:
        doc["parameters"] = params
    return doc


def explain_of(request: Request) -> bool:
    """``?explain=true`` (or 1, yes, on)."""
    value = request.query_params.get("explain", "")
    return value.lower() in ("1", "true", "yes", "on")


def parse_if_match(value: str | None) -> int | None:
    """The version named by an ``If-Match`` header (``3``, ``"3"``, ``W/"3"``; ``*`` is any)."""
    if value is None or value.strip() in ("", "*"):
        return None
    found = _VERSION.match(value)
    if not found:
        raise InputError("If-Match", f"{value!r} is not a game version: a whole number like \"3\"")
    return int(found.group(1))


async def read_json(request: Request) -> Any:
    """The request body as JSON; an :class:`InputError` naming ``body`` otherwise."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise InputError("body", f"too large ({len(raw)} bytes, at most {MAX_BODY})")
    if not raw.strip():
        raise InputError("body", "missing: send a JSON object")
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        where = f" at line {e.lineno} column {e.colno}" if isinstance(e, json.JSONDecodeError) \
            else ""
        reason = e.msg if isinstance(e, json.JSONDecodeError) else "not UTF-8"
        raise InputError("body", f"not valid JSON: {reason}{where}") from None


def game_response(view: GameView, status: int = 200, explain: bool = False) -> JSONResponse:
    """The game answer with its version as ``ETag``."""
    return JSONResponse(view.to_json(explain), status_code=status,
                        headers={"ETag": f'"{view.version}"'})


def make_router(service: CounterService, inline: bool) -> APIRouter:
    """The ``/api/counter`` routes over ``service``.

    ``inline``: call the store on the event loop (a local SQLite file answers in microseconds);
    otherwise in the thread pool (a database across a network).
    """
    router = APIRouter(prefix="/api/counter", tags=["counter"])

    async def call(fn: Callable[..., T], *args: Any) -> T:
        if inline:
            return fn(*args)
        return await run_in_threadpool(fn, *args)

    @router.post("/games", status_code=201, openapi_extra=_body_doc(_GAME_SCHEMA),
                 summary="Start a game")
    async def create_game(request: Request) -> JSONResponse:
        obj = await read_json(request)
        view = await call(service.create, obj)
        return game_response(view, 201)

    @router.get("/games", summary="List saved games, the latest first")
    async def list_games(
        limit: Annotated[int, Query(ge=1, le=500)] = 100,
        offset: Annotated[int, Query(ge=0)] = 0,
    ) -> JSONResponse:
        rows = await call(service.store.list, limit, offset)
        return JSONResponse({"games": [
            {"id": r.id, "version": r.version, "game": r.summary.game,
             "teams": {"NS": r.summary.teams[0], "EW": r.summary.teams[1]},
             "target": r.summary.target, "deals": r.summary.deal_count,
             "totals": {"NS": r.summary.totals[0], "EW": r.summary.totals[1]},
             "winner": r.summary.winner, "created": r.created_at.isoformat(),
             "updated": r.updated_at.isoformat()}
            for r in rows
        ]})

    @router.get("/games/{game_id}", summary="A game: every deal's score, totals, winner")
    async def get_game(game_id: str, explain: Explain = False) -> JSONResponse:
        return game_response(await call(service.get, game_id), explain=explain)

    @router.patch("/games/{game_id}", summary="Rename the teams or change the target",
                  openapi_extra=_body_doc({"type": "object", "example": {
                      "teams": {"NS": "Les bleus"}, "target": 1500}}))
    async def patch_game(request: Request, game_id: str, if_match: IfMatch = None
                         ) -> JSONResponse:
        obj = await read_json(request)
        version = parse_if_match(if_match)
        return game_response(await call(service.update_settings, game_id, obj, version))

    @router.delete("/games/{game_id}", status_code=204, summary="Forget a saved game")
    async def delete_game(game_id: str) -> Response:
        await call(service.delete, game_id)
        return Response(status_code=204)

    @router.post("/games/{game_id}/deals", summary="Add a deal",
                 openapi_extra=_body_doc(_DEAL_SCHEMA, if_match=True, explain=True))
    async def add_deal(request: Request, game_id: str) -> JSONResponse:
        # The hot path of the counter: headers and query read directly, without validation
        # machinery (documented in openapi_extra).
        obj = await read_json(request)
        version = parse_if_match(request.headers.get("if-match"))
        return game_response(await call(service.add_deal, game_id, obj, version),
                             explain=explain_of(request))

    @router.put("/games/{game_id}/deals/{n}", summary="Replace deal n (from 1)",
                openapi_extra=_body_doc(_DEAL_SCHEMA))
    async def replace_deal(request: Request, game_id: str, n: int, if_match: IfMatch = None,
                           explain: Explain = False) -> JSONResponse:
        obj = await read_json(request)
        version = parse_if_match(if_match)
        return game_response(await call(service.replace_deal, game_id, n, obj, version),
                             explain=explain)

    @router.delete("/games/{game_id}/deals/last", summary="Undo the last deal")
    async def undo_deal(game_id: str, if_match: IfMatch = None, explain: Explain = False
                        ) -> JSONResponse:
        version = parse_if_match(if_match)
        return game_response(await call(service.undo, game_id, version), explain=explain)

    return router
