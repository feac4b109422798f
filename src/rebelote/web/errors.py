"""Errors answered as ``{"error": "<a sentence naming the field>"}``, never a traceback."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from rebelote.errors import InputError
from rebelote.rules import RulesError
from rebelote.store import GameConflictError, GameNotFoundError
from rebelote.web.service import DealNotFoundError, GameBusyError

log = logging.getLogger("rebelote.web")


def error_response(status: int, message: str, headers: Mapping[str, str] | None = None
                   ) -> JSONResponse:
    """``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _field(loc: Sequence[Any]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


def validation_message(exc: RequestValidationError) -> str:
    """FastAPI's validation errors as one sentence naming the field."""
    errors = exc.errors()
    if not errors:
        return "body: not understood"
    first = errors[0]
    msg = str(first.get("msg", "not valid"))
    return f"{_field(first.get('loc', ()))}: {msg[0].lower() + msg[1:] if msg else msg}"


def install_error_handlers(app: FastAPI) -> None:
    """Replace FastAPI's default error bodies by ``{"error": ...}`` everywhere."""

    @app.exception_handler(InputError)
    async def _input(_: Request, exc: InputError) -> JSONResponse:
        return error_response(422, str(exc))

    @app.exception_handler(RulesError)
    async def _rules(_: Request, exc: RulesError) -> JSONResponse:
        return error_response(422, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, validation_message(exc))

    @app.exception_handler(GameNotFoundError)
    async def _not_found(_: Request, exc: GameNotFoundError) -> JSONResponse:
        return error_response(404, f"id: there is no saved game {exc.args[0]!r}")

    @app.exception_handler(DealNotFoundError)
    async def _no_deal(_: Request, exc: DealNotFoundError) -> JSONResponse:
        return error_response(404, str(exc))

    @app.exception_handler(GameConflictError)
    async def _conflict(_: Request, exc: GameConflictError) -> JSONResponse:
        return error_response(409, str(exc), {"ETag": f'"{exc.current}"'})

    @app.exception_handler(GameBusyError)
    async def _busy(_: Request, exc: GameBusyError) -> JSONResponse:
        return error_response(409, str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else "request not understood"
        if exc.status_code == 404 and detail == "Not Found":
            detail = "path: no such page or route"
        elif exc.status_code == 405:
            detail = "method: this route does not take that method"
        return error_response(exc.status_code, detail, exc.headers)

    @app.exception_handler(Exception)
    async def _crash(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        return error_response(500, "server: an unexpected error happened; nothing was changed")
