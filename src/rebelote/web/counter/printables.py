"""Printables and exchange: PDF sheets (:mod:`rebelote.sheets`), CSV and JSON export, import.

- ``GET /api/counter/games/{id}/sheet.pdf``: the game's score sheet, filled in.
- ``GET /sheets/blank.pdf?game=coinche&rows=18&NS=..&EW=..``: a blank sheet to print.
- ``GET /sheets/points-table.pdf?rules=contree:ffb``: the table of points; with a rule set's
  text form, it ends with that rule set's ways of counting and their worked example.
- ``GET /rules/qr.svg?rules=contree:ffb``: the QR code of the link that opens a new game with
  that rule set (``/?rules=...``).
- ``GET /api/counter/games/{id}/export.json``: ``Match.to_json()``, the input of
  ``rebelote score``; ``.../export.csv``: :func:`rebelote.export.match_to_csv`.
- ``POST /api/counter/games/import``: a game as JSON (the export above) or CSV; a new game.
"""

from __future__ import annotations

import json
from typing import Annotated, Final

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from rebelote.errors import InputError, RulesError
from rebelote.export import match_from_csv, match_to_csv
from rebelote.match import DEFAULT_TEAMS, Match
from rebelote.rules import GAMES, Rules, parse_rules
from rebelote.web import openapi
from rebelote.web.counter import schemas
from rebelote.web.counter.api import game_response
from rebelote.web.counter.deps import CounterDep, GameSecretDep
from rebelote.web.counter.service import MAX_DEALS
from rebelote.web.i18n import request_lang
from rebelote.web.security import UnsupportedMediaError, parse_json
from rebelote.web.share import qr_svg, rules_path

Lang = Annotated[str | None, Query(
    description="Language of the sheet: fr or en (default: the page's language)")]


RulesText = Annotated[str | None, Query(
    max_length=600, description="A rule set's text form, like contree:ffb,rounding=none")]


def _rules(text: str) -> Rules:
    """A rule set from a query's text form; a bad one is an input error naming ``rules``."""
    try:
        return parse_rules(text)
    except RulesError as e:
        raise InputError("rules", str(e)) from None


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
        obj = parse_json(text.encode("utf-8"))
        deals = obj.get("deals") if isinstance(obj, dict) else None
        if isinstance(deals, list) and len(deals) > MAX_DEALS:
            raise InputError("deals", f"{len(deals)} deals is more than a counter game holds "
                                      f"({MAX_DEALS}; a real game has a few dozen)")
        return Match.from_json(obj)
    if text.count("\n") > MAX_DEALS + 40:
        raise InputError("body", f"more lines than a counter game holds ({MAX_DEALS} deals; a "
                                 "real game has a few dozen)")
    return match_from_csv(text)


router = APIRouter(tags=["printables"])
_PDF: Final = {"responses": {"200": {"description": "A PDF", "content": {
    "application/pdf": {"schema": {"type": "string", "format": "binary"}}}},
    **openapi.error_doc(403, 404, 422)}}


@router.get("/api/counter/games/{game_id}/sheet.pdf", summary="The game's score sheet",
            openapi_extra=_PDF)
async def game_sheet(request: Request, game_id: str, counter: CounterDep,
                     secret: GameSecretDep, lang: Lang = None) -> Response:
    from rebelote.sheets import score_sheet_pdf

    view = await counter.call(counter.get, game_id, secret)
    pdf = await run_in_threadpool(score_sheet_pdf, view.match.rules.game, view.match.teams, 18,
                                  view.match, _lang(request, lang))
    return _download(pdf, "application/pdf", f"rebelote-{game_id}.pdf")


@router.get("/sheets/blank.pdf", summary="A blank score sheet to print", openapi_extra=_PDF)
async def blank_sheet(
    request: Request,
    game: Annotated[str, Query(description="The game: " + ", ".join(GAMES))] = "belote",
    rows: Annotated[int, Query(description="Deal lines a page", ge=1, le=60)] = 18,
    ns: Annotated[str, Query(alias="NS", max_length=40)] = DEFAULT_TEAMS[0],
    ew: Annotated[str, Query(alias="EW", max_length=40)] = DEFAULT_TEAMS[1],
    lang: Lang = None,
) -> Response:
    from rebelote.sheets import score_sheet_pdf

    if game not in GAMES:
        raise InputError("game", f"{game!r} is not a game: {', '.join(GAMES)}")
    pdf = await run_in_threadpool(score_sheet_pdf, game, (ns, ew), rows, None,
                                  _lang(request, lang))
    return _download(pdf, "application/pdf", f"rebelote-{game}-sheet.pdf")


@router.get("/sheets/points-table.pdf", summary="The table of points", openapi_extra=_PDF)
async def points_table(request: Request, lang: Lang = None, rules: RulesText = None
                       ) -> Response:
    from rebelote.sheets import points_table_pdf

    chosen = _rules(rules) if rules else None
    pdf = await run_in_threadpool(points_table_pdf, _lang(request, lang), chosen)
    return _download(pdf, "application/pdf", "rebelote-points.pdf")


@router.get("/rules/qr.svg", include_in_schema=False)
async def rules_qr(request: Request, rules: RulesText = None) -> Response:
    """The QR code of the new-game link that carries a rule set."""
    chosen = _rules(rules or "")
    url = str(request.base_url).rstrip("/") + rules_path(chosen)
    return Response(qr_svg(url, "rebelote"), media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})


@router.get("/api/counter/games/{game_id}/export.json",
            summary="The game as the input of `rebelote score`",
            openapi_extra={"responses": {"200": {"description": "The game input", "content": {
                "application/json": {"schema": schemas.NEW_GAME}}},
                **openapi.error_doc(403, 404)}})
async def export_json(game_id: str, counter: CounterDep, secret: GameSecretDep) -> Response:
    view = await counter.call(counter.get, game_id, secret)
    body = json.dumps(view.match.to_json(), ensure_ascii=False, indent=1)
    return _download(body, "application/json", f"rebelote-{game_id}.json", inline=False)


@router.get("/api/counter/games/{game_id}/export.csv", summary="The game as CSV",
            openapi_extra={"responses": {"200": {"description": "CSV", "content": {
                "text/csv": {"schema": {"type": "string"}}}},
                **openapi.error_doc(403, 404, 422)}})
async def export_csv(request: Request, game_id: str, counter: CounterDep,
                     secret: GameSecretDep, lang: Lang = None) -> Response:
    view = await counter.call(counter.get, game_id, secret)
    body = match_to_csv(view.match, lang=_lang(request, lang))
    return _download(body, "text/csv; charset=utf-8", f"rebelote-{game_id}.csv", inline=False)


@router.post("/api/counter/games/import", status_code=201,
             summary="Import a game exported as JSON or CSV",
             openapi_extra={
                 "requestBody": {"required": True, "content": {
                     "application/json": {"schema": schemas.NEW_GAME},
                     "text/csv": {"schema": {"type": "string"}}}},
                 "responses": openapi.answer_doc(
                     201, schemas.GAME, "The new game, with its secret token",
                     413, 415, 422, 503)})
async def import_game(request: Request, counter: CounterDep) -> JSONResponse:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind not in ("application/json", "text/csv"):
        raise UnsupportedMediaError(kind)
    raw = await request.body()
    match = import_match(raw, kind)
    view, token = await counter.call(counter.create_match, match)
    return game_response(view, 201, token=token)
