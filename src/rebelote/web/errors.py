"""Errors answered as ``{"error": "<a sentence naming the field>"}`` (the JSON API) or as a
short HTML page (the pages' forms), never a traceback.

A database that cannot write (a full or read-only disk), whose lock another process holds (a
backup, the ``sqlite3`` shell) or whose file is damaged answers ``503`` saying which;
``/healthz`` says so too.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from html import escape
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from rebelote.errors import IllegalActionError, RebeloteError
from rebelote.store import GameConflictError, GameNotFoundError
from rebelote.store.db import store_fault
from rebelote.store.play_tables import StoreDamagedError, StoreDownError
from rebelote.web.security import (
    BodyTimeoutError,
    BodyTooLargeError,
    UnsupportedMediaError,
    wants_html,
)

log = logging.getLogger("rebelote.web")


class ForbiddenError(PermissionError):
    """The caller does not hold the game's secret."""

    def __init__(self, game_id: str, secret: str | None) -> None:
        self.game_id = game_id
        reason = "this needs the game's secret" if not secret else "this is not the game's secret"
        super().__init__(f"Authorization: {reason} (Authorization: Bearer <token>, as answered "
                         "when the game was created)")


class GameBusyError(RuntimeError):
    """Other processes kept changing the game while this write was being made."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"id: game {game_id} is being changed by other writers at this very "
                         "moment; nothing was changed, try again")


class DealNotFoundError(LookupError):
    """A deal number outside the game."""

    def __init__(self, n: int, count: int) -> None:
        self.n = n
        super().__init__(f"n: there is no deal {n} (the game has {count})")


STORE_DOWN = ("store: the games cannot be saved right now (the server's disk is full or "
              "read-only); nothing was changed, try again later")
STORE_UNREACHABLE = ("store: the database cannot be reached right now; reload the page and "
                     "try again in a moment")
STORE_LOCKED = ("store: the database is locked by another program right now (a backup?); "
                "nothing was changed, try again in a moment")
STORE_DAMAGED = ("store: the store is damaged (its database file does not read back); "
                 "nothing was changed; the server's operator must restore it from a backup")
#: What ``/healthz`` says of the store in each state (:func:`rebelote.store.db.store_fault`).
STORE_HEALTH: Final = {"writable": "writable", "down": "cannot write (disk full or read-only)",
                       "locked": "locked by another program", "damaged": "the store is damaged"}


def error_response(status: int, message: str, headers: Mapping[str, str] | None = None
                   ) -> JSONResponse:
    """``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def error_page(status: int, message: str, headers: Mapping[str, str] | None = None
               ) -> HTMLResponse:
    """A short HTML page for an error met by a page's form or link."""
    html = (f'<!doctype html><html lang="fr"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<link rel="stylesheet" href="/static/style.css"><title>{status} · Rebelote'
            f'</title></head><body><main class="page"><section class="card">'
            f'<h1>{status}</h1><p class="error" role="alert">{escape(message)}</p>'
            f'<p><a href="/">Rebelote</a></p></section></main></body></html>')
    return HTMLResponse(html, status_code=status, headers=headers)


def answer(request: Request, status: int, message: str,
           headers: Mapping[str, str] | None = None) -> Response:
    """The error as JSON for the API, as a page for the pages."""
    if wants_html(request.scope):
        return error_page(status, message, headers)
    return error_response(status, message, headers)


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


def is_store_down(exc: BaseException) -> bool:
    """A database error meaning it cannot write (full, read-only, locked, gone, damaged)."""
    return store_fault(exc) is not None


#: The refusals whose message is the answer (it names the field or the move, and the rule),
#: with their status. A handler serves the most specific class of an error: an illegal move
#: (a :class:`RebeloteError` too) is a conflict with the state, not a malformed request.
REFUSALS: Final[tuple[tuple[type[Exception], int], ...]] = (
    (RebeloteError, 422),        # InputError, RulesError, CardError: the field and the rule
    (IllegalActionError, 409),   # a move the state of the deal does not allow
    (ForbiddenError, 403),       # a write without the game's secret
    (DealNotFoundError, 404),
    (GameBusyError, 409),
    (UnsupportedMediaError, 415),
)


def refusal_status(exc: BaseException) -> int | None:
    """The status of a refusal of :data:`REFUSALS` (its most specific class), else ``None``.

    >>> refusal_status(IllegalActionError("card", "S must follow")), refusal_status(KeyError())
    (409, None)
    """
    statuses = dict(REFUSALS)
    return next((statuses[k] for k in type(exc).__mro__ if k in statuses), None)


def _refusal(status: int) -> Callable[[Request, Exception], Awaitable[Response]]:
    async def handler(request: Request, exc: Exception) -> Response:
        return answer(request, status, str(exc))
    return handler


def install_error_handlers(app: FastAPI) -> None:
    """Replace FastAPI's default error bodies by ``{"error": ...}`` (or a page) everywhere."""

    for kind, status in REFUSALS:
        app.add_exception_handler(kind, _refusal(status))

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        return answer(request, 422, validation_message(exc))

    @app.exception_handler(GameNotFoundError)
    async def _not_found(request: Request, exc: GameNotFoundError) -> Response:
        shown = str(exc.args[0])[:40] if exc.args else ""
        return answer(request, 404, f"id: there is no saved game {shown!r}")

    @app.exception_handler(GameConflictError)
    async def _conflict(request: Request, exc: GameConflictError) -> Response:
        return answer(request, 409, str(exc), {"ETag": f'"{exc.current}"'})

    @app.exception_handler(BodyTooLargeError)
    async def _too_large(request: Request, exc: BodyTooLargeError) -> Response:
        return answer(request, 413, str(exc), {"Connection": "close"})

    @app.exception_handler(BodyTimeoutError)
    async def _slow(request: Request, exc: BodyTimeoutError) -> Response:
        return answer(request, 408, str(exc), {"Connection": "close"})

    @app.exception_handler(ClientDisconnect)
    async def _gone(request: Request, exc: ClientDisconnect) -> Response:
        # the client went away in the middle of its body (an aborted upload): nobody reads
        # the answer, and nothing was changed; no traceback in the log
        log.info("%s %s: the client left before sending its whole body", request.method,
                 request.url.path)
        return Response(status_code=400)

    @app.exception_handler(StoreDownError)
    async def _unreachable(request: Request, exc: StoreDownError) -> Response:
        log.error("the store cannot be reached: %s", exc)
        return answer(request, 503, STORE_UNREACHABLE, {"Retry-After": "5"})

    @app.exception_handler(StoreDamagedError)
    async def _damaged_table(request: Request, exc: StoreDamagedError) -> Response:
        log.error("the store is damaged: %s", exc)
        return answer(request, 503, STORE_DAMAGED, {"Retry-After": "300"})

    @app.exception_handler(DBAPIError)
    async def _store(request: Request, exc: DBAPIError) -> Response:
        fault = store_fault(exc)
        if fault == "damaged":
            app.state.store_damaged = True  # /healthz says so from now on
            log.error("the store is damaged: %s", exc.orig)
            return answer(request, 503, STORE_DAMAGED, {"Retry-After": "300"})
        if fault == "locked":
            log.error("the store is locked: %s", exc.orig)
            return answer(request, 503, STORE_LOCKED, {"Retry-After": "5"})
        if fault is not None:
            log.error("the store cannot write: %s", exc.orig)
            return answer(request, 503, STORE_DOWN, {"Retry-After": "30"})
        log.exception("database error", exc_info=exc)
        return answer(request, 500, "server: an unexpected error happened; nothing was "
                                    "changed")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        detail = exc.detail if isinstance(exc.detail, str) else "request not understood"
        if exc.status_code == 404 and detail == "Not Found":
            detail = "path: no such page or route"
        elif exc.status_code == 405:
            detail = "method: this route does not take that method"
        return answer(request, exc.status_code, detail, exc.headers)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error", exc_info=exc)
        return answer(request, 500, "server: an unexpected error happened; nothing was "
                                    "changed")
