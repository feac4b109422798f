"""Printables and exchange: PDF sheets (:mod:`rebelote.sheets`), CSV and JSON export, import.

- ``GET /api/counter/games/{id}/sheet.pdf``: the game's score sheet, filled in.
- ``GET /sheets/blank.pdf?game=coinche&rows=18&NS=..&EW=..``: a blank sheet to print.
- ``GET /sheets/points-table.pdf``: the table of points.
- ``GET /api/counter/games/{id}/export.json``: ``Match.to_json()``, the input of
  ``rebelote score``; ``.../export.csv``: :func:`rebelote.export.match_to_csv`.
- ``POST /api/counter/games/import``: a game as JSON (the export above) or CSV; a new game.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from rebelote.errors import InputError
from rebelote.export import match_from_csv, match_to_csv
from rebelote.match import Match
from rebelote.web.api import MAX_BODY, game_response
from rebelote.web.i18n import request_lang
from rebelote.web.service import CounterService

T = TypeVar("T")

Lang = Annotated[str | None, Query(
    description="Language of the sheet: fr or en (default: the page's language)")]


def _download(content: bytes | str, media: str, filename: str, inline: bool = True) -> Response:
    how = "inline" if inline else "attachment"
    return Response(content, media_type=media,
                    headers={"Content-Disposition": f'{how}; filename="{filename}"'})


def _lang(request: Request, lang: str | None) -> str:
    if lang is None:
        return request_lang(request)
    if lang not in ("fr", "en"):
        raise InputError("lang", f"{lang!r} is not a language: fr or en")
    return lang


def import_match(raw: bytes, content_type: str) -> Match:
    """A game from an exported JSON (``Match.to_json()``) or CSV text."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError("body", "not UTF-8 text: send the JSON or CSV export") from None
    if not text.strip():
        raise InputError("body", "missing: send a game exported as JSON or CSV")
    if "json" in content_type or text.lstrip().startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError("body", f"not valid JSON: {e.msg} at line {e.lineno} "
                                     f"column {e.colno}") from None
        return Match.from_json(obj)
    return match_from_csv(text)


def make_printables(service: CounterService, inline: bool) -> APIRouter:
    """The printable and exchange routes over ``service``."""
    router = APIRouter(tags=["printables"])

    async def call(fn: Callable[..., T], *args: Any) -> T:
        if inline:
            return fn(*args)
        return await run_in_threadpool(fn, *args)

    @router.get("/api/counter/games/{game_id}/sheet.pdf", summary="The game's score sheet")
    async def game_sheet(request: Request, game_id: str, lang: Lang = None) -> Response:
        from rebelote.sheets import score_sheet_pdf

        view = await call(service.get, game_id)
        pdf = await run_in_threadpool(
            score_sheet_pdf, view.match.rules.game, view.match.teams, 18, view.match,
            _lang(request, lang),
        )
        return _download(pdf, "application/pdf", f"rebelote-{game_id}.pdf")

    @router.get("/sheets/blank.pdf", summary="A blank score sheet to print")
    async def blank_sheet(
        request: Request,
        game: Annotated[str, Query(description="belote or coinche")] = "belote",
        rows: Annotated[int, Query(description="Deal lines a page")] = 18,
        ns: Annotated[str, Query(alias="NS", max_length=40)] = "Nous",
        ew: Annotated[str, Query(alias="EW", max_length=40)] = "Eux",
        lang: Lang = None,
    ) -> Response:
        from rebelote.sheets import score_sheet_pdf

        if game not in ("belote", "coinche"):
            raise InputError("game", f"{game!r} is not a game: belote or coinche")
        pdf = await run_in_threadpool(
            score_sheet_pdf, game, (ns, ew), rows, None, _lang(request, lang)
        )
        return _download(pdf, "application/pdf", f"rebelote-{game}-sheet.pdf")

    @router.get("/sheets/points-table.pdf", summary="The table of points")
    async def points_table(request: Request, lang: Lang = None) -> Response:
        from rebelote.sheets import points_table_pdf

        pdf = await run_in_threadpool(points_table_pdf, _lang(request, lang))
        return _download(pdf, "application/pdf", "rebelote-points.pdf")

    @router.get("/api/counter/games/{game_id}/export.json",
                summary="The game as the input of `rebelote score`")
    async def export_json(game_id: str) -> Response:
        view = await call(service.get, game_id)
        body = json.dumps(view.match.to_json(), ensure_ascii=False, indent=1)
        return _download(body, "application/json", f"rebelote-{game_id}.json", inline=False)

    @router.get("/api/counter/games/{game_id}/export.csv", summary="The game as CSV")
    async def export_csv(request: Request, game_id: str, lang: Lang = None) -> Response:
        view = await call(service.get, game_id)
        body = match_to_csv(view.match, lang=_lang(request, lang))
        return _download(body, "text/csv; charset=utf-8", f"rebelote-{game_id}.csv",
                         inline=False)

    @router.post("/api/counter/games/import", status_code=201,
                 summary="Import a game exported as JSON or CSV")
    async def import_game(request: Request) -> JSONResponse:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise InputError("body", f"too large ({len(raw)} bytes, at most {MAX_BODY})")
        match = import_match(raw, request.headers.get("content-type", ""))
        return game_response(await call(service.create_match, match), 201)

    return router
