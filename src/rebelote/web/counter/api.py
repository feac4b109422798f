"""The counter's JSON API (docs/interfaces.md, "The web API").

Creating a game answers its secret ``token`` and the id of its read-only ``view``; every other
route on ``/api/counter/games/{id}`` needs the secret as ``Authorization: Bearer <token>`` (or
the pages' cookie): ``403`` without it, ``404`` for an unknown game. ``GET /api/counter/games``
lists only the games whose secrets the caller presents. ``GET /api/counter/views/{view}``
reads a game without the secret.

Every write answers the game with an ``ETag`` of its version; a write with an ``If-Match`` of
an old version answers ``409`` and changes nothing. Bad input answers ``422``
``{"error": ...}`` naming the field; bodies must be ``application/json`` (``415``).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import JSONResponse, Response

from rebelote.errors import InputError
from rebelote.web import openapi
from rebelote.web.counter import schemas
from rebelote.web.counter.deps import CounterDep, GameSecretDep
from rebelote.web.counter.service import GameView
from rebelote.web.openapi import route_doc
from rebelote.web.security import parse_if_match, presented_secrets, read_json

IfMatch = Annotated[str | None, Header(alias="If-Match", description="The version the client "
                                       "read; an older one answers 409")]
Explain = Annotated[bool, Query(description="Add each deal's result-card lines")]
#: The parameters the hot path (adding a deal) reads by hand, as its OpenAPI entry shows them.
_READ_BY_HAND: Final[tuple[dict[str, Any], ...]] = (
    {"name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"},
     "description": "The version the client read; an older one answers 409"},
    {"name": "explain", "in": "query", "required": False,
     "schema": {"type": "boolean", "default": False},
     "description": "Add each deal's result-card lines"},
)
_WRITE_ERRORS: Final = (403, 404, 409, 413, 415, 422, 503)

router = APIRouter(prefix="/api/counter", tags=["counter"])


def explain_of(request: Request) -> bool:
    """``?explain=true`` (or 1, yes, on)."""
    value = request.query_params.get("explain", "")
    return value.lower() in ("1", "true", "yes", "on")


def game_response(view: GameView, status: int = 200, explain: bool = False,
                  token: str | None = None) -> JSONResponse:
    """The game answer with its version as ``ETag`` (and its secret when just created)."""
    body = view.to_json(explain)
    if token is not None:
        body["token"] = token
    return JSONResponse(body, status_code=status, headers={"ETag": f'"{view.version}"'})


@router.post("/games", status_code=201, summary="Start a game",
             openapi_extra=route_doc(schemas.NEW_GAME, 201, schemas.GAME,
                                     "The new game, with its secret token",
                                     413, 415, 422, 503, secret=False))
async def create_game(request: Request, counter: CounterDep) -> JSONResponse:
    obj = await read_json(request)
    view, token = await counter.call(counter.create, obj)
    return game_response(view, 201, token=token)


@router.get("/games", summary="The games whose secrets the caller presents, latest first",
            openapi_extra={"responses": openapi.answer_doc(
                200, schemas.GAME_LIST, "The games", 422)})
async def list_games(
    request: Request,
    counter: CounterDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    archived: Annotated[Literal["false", "true", "all"], Query(
        description="The games not archived (false), the archived ones (true) or all"
    )] = "false",
) -> JSONResponse:
    which = {"false": False, "true": True, "all": None}[archived]
    rows = await counter.call(counter.list, presented_secrets(request), limit, offset, which)
    return JSONResponse({"games": [
        {"id": r.id, "version": r.version, "game": r.summary.game,
         "teams": {"NS": r.summary.teams[0], "EW": r.summary.teams[1]},
         "target": r.summary.target, "deals": r.summary.deal_count,
         "totals": {"NS": r.summary.totals[0], "EW": r.summary.totals[1]},
         "winner": r.summary.winner, "archived": r.archived,
         "created": r.created_at.isoformat(), "updated": r.updated_at.isoformat()}
        for r in rows
    ]})


@router.get("/games/{game_id}", summary="A game: every deal's score, totals, winner",
            openapi_extra=route_doc(None, 200, schemas.GAME, "The game", 403, 404, 422))
async def get_game(game_id: str, counter: CounterDep, secret: GameSecretDep,
                   explain: Explain = False) -> JSONResponse:
    view = await counter.call(counter.get, game_id, secret)
    return game_response(view, explain=explain)


@router.get("/views/{view_id}", summary="A game read through its view link (no secret)",
            openapi_extra={"responses": openapi.answer_doc(
                200, schemas.GAME, "The game, without its id", 404, 422)})
async def get_view(view_id: str, counter: CounterDep, explain: Explain = False
                   ) -> JSONResponse:
    view = await counter.call(counter.get_view, view_id)
    return JSONResponse(view.to_view_json(explain), headers={"ETag": f'"{view.version}"'})


@router.patch("/games/{game_id}", summary="Rename the teams, change the target, name the "
              "players and the first dealer, archive the game",
              openapi_extra=route_doc(schemas.SETTINGS, 200, schemas.GAME, "The game",
                                      *_WRITE_ERRORS))
async def patch_game(request: Request, game_id: str, counter: CounterDep,
                     secret: GameSecretDep, if_match: IfMatch = None) -> JSONResponse:
    obj = await read_json(request)
    version = parse_if_match(if_match)
    archived = None
    if isinstance(obj, dict) and "archived" in obj:
        archived = obj.pop("archived")
        if not isinstance(archived, bool):
            raise InputError("archived", f"must be true or false, not {archived!r}"[:80])
    if archived is None or obj:
        view = await counter.call(counter.update_settings, game_id, secret, obj, version)
    if archived is not None:
        await counter.call(counter.archive, game_id, secret, archived)
        view = await counter.call(counter.get, game_id, secret)
    return game_response(view)


@router.delete("/games/{game_id}", status_code=204, summary="Forget a saved game",
               openapi_extra={"security": openapi.SECURITY, "responses": {
                   "204": {"description": "Forgotten"},
                   **openapi.error_doc(403, 404, 409, 422, 503)}})
async def delete_game(game_id: str, counter: CounterDep, secret: GameSecretDep,
                      if_match: IfMatch = None) -> Response:
    version = parse_if_match(if_match)
    await counter.call(counter.delete, game_id, secret, version)
    return Response(status_code=204)


@router.post("/games/{game_id}/deals", summary="Add a deal",
             openapi_extra=route_doc(schemas.DEAL, 200, schemas.GAME, "The game",
                                     *_WRITE_ERRORS, parameters=_READ_BY_HAND))
async def add_deal(request: Request, game_id: str, counter: CounterDep,
                   secret: GameSecretDep) -> JSONResponse:
    # The hot path of the counter: headers and query read directly, without validation
    # machinery (documented in openapi_extra).
    obj = await read_json(request)
    version = parse_if_match(request.headers.get("if-match"))
    view = await counter.call(counter.add_deal, game_id, secret, obj, version)
    return game_response(view, explain=explain_of(request))


@router.put("/games/{game_id}/deals/{n}", summary="Replace deal n (from 1)",
            openapi_extra=route_doc(schemas.DEAL, 200, schemas.GAME, "The game",
                                    *_WRITE_ERRORS))
async def replace_deal(request: Request, game_id: str,
                       n: Annotated[int, Path(ge=-10**9, le=10**9)], counter: CounterDep,
                       secret: GameSecretDep, if_match: IfMatch = None,
                       explain: Explain = False) -> JSONResponse:
    obj = await read_json(request)
    version = parse_if_match(if_match)
    view = await counter.call(counter.replace_deal, game_id, secret, n, obj, version)
    return game_response(view, explain=explain)


@router.delete("/games/{game_id}/deals/last", summary="Undo the last deal",
               openapi_extra=route_doc(None, 200, schemas.GAME, "The game",
                                       403, 404, 409, 422, 503))
async def undo_deal(game_id: str, counter: CounterDep, secret: GameSecretDep,
                    if_match: IfMatch = None, explain: Explain = False) -> JSONResponse:
    version = parse_if_match(if_match)
    view = await counter.call(counter.undo, game_id, secret, version)
    return game_response(view, explain=explain)
