"""The web's one error map: every error answered as ``{"error": "<a sentence naming the
field>"}`` (the JSON API) or as a short HTML page (the pages' forms and links), never a
traceback.

A route raises; :func:`install_error_handlers` answers. :data:`REFUSALS` maps each refusal of
a request (bad input, a missing secret, an unknown game, table or concours, a write that came
second, an illegal move) to its status and its sentence; the handlers below it answer the
store's faults and FastAPI's own errors. A database that cannot write (a full or read-only
disk), whose lock another process holds (a backup, the ``sqlite3`` shell) or whose file is
damaged answers ``503`` saying which; ``/healthz`` says so too.

>>> refusal = refusal_of(TableNotFoundError("K7XP3QAB"))
>>> refusal.status, refusal.say(TableNotFoundError("K7XP3QAB"))
(404, "id: there is no table 'K7XP3QAB'")
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, NamedTuple

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from rebelote.errors import IllegalActionError, RebeloteError
from rebelote.store import GameConflictError, GameNotFoundError
from rebelote.store.concours import ConcoursNotFoundError
from rebelote.store.db import store_fault
from rebelote.store.play_tables import (
    StoreDamagedError,
    StoreDownError,
    TableConflictError,
    TableDamagedError,
    TableNotFoundError,
)
from rebelote.table.model import InviteError
from rebelote.tableserver import SeatForbiddenError, TableFullError
from rebelote.tableserver.watching import WatchForbiddenError
from rebelote.web.error_page import error_page
from rebelote.web.i18n import request_lang
from rebelote.web.security import (
    BodyTimeoutError,
    BodyTooLargeError,
    UnsupportedMediaError,
    wants_html,
)

log = logging.getLogger("rebelote.web")


class ForbiddenError(PermissionError):
    """The caller does not hold the secret of the game (or of the concours: ``what``)."""

    def __init__(self, game_id: str, secret: str | None, what: str = "game") -> None:
        self.game_id = game_id
        reason = f"this needs the {what}'s secret" if not secret else \
            f"this is not the {what}'s secret"
        super().__init__(f"Authorization: {reason} (Authorization: Bearer <token>, as answered "
                         f"when the {what} was created)")


class BusyError(RuntimeError):
    """Other writers kept changing a game (or a concours) while this write was being made:
    nothing was changed (answered 409)."""


class GameBusyError(BusyError):
    """Other processes kept changing the game while this write was being made."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"id: game {game_id} is being changed by other writers at this very "
                         "moment; nothing was changed, try again")


class NotFoundError(LookupError):
    """A part of what the path names is not there (a deal of a game, a finished deal of a
    table): its message is the answer (404)."""


class DealNotFoundError(NotFoundError):
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


def too_fast(message: str, wait: float) -> JSONResponse:
    """The JSON ``429`` of a write past its rate: ``message`` names the rule, ``Retry-After``
    the whole seconds to wait."""
    return JSONResponse({"error": message}, status_code=429,
                        headers={"Retry-After": str(math.ceil(wait))})


def too_fast_page(request: Request, message: str, wait: float) -> Response:
    """:func:`too_fast` for a page's form: the error page in the request's language (the
    sentence in French when the catalogs know it), with ``Retry-After``."""
    return error_page(429, message, {"Retry-After": str(math.ceil(wait))},
                      request_lang(request))


def answer(request: Request, status: int, message: str,
           headers: Mapping[str, str] | None = None) -> Response:
    """The error as JSON for the API, as a page for the pages."""
    if wants_html(request.scope):
        return error_page(status, message, headers, request_lang(request))
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


class Refusal(NamedTuple):
    """How a refusal is answered: its ``status``, its sentence (``say``: the error's own
    message unless told) and the headers it adds."""

    status: int
    say: Callable[[Any], str] = str
    headers: Callable[[Any], Mapping[str, str]] | None = None


def _no_such(what: str, limit: int | None = 40) -> Callable[[LookupError], str]:
    """The sentence of an id that names nothing: ``id: there is no <what> '<id>'``."""
    def say(exc: LookupError) -> str:
        shown = str(exc.args[0]) if exc.args else ""
        return f"id: there is no {what} {(shown[:limit] if limit else shown)!r}"
    return say


def _close(_: Exception) -> Mapping[str, str]:
    return {"Connection": "close"}


#: The web's one map of refusals: each error a request may meet, with its answer. A refusal
#: changes nothing. The most specific class of an error is answered: an illegal move (a
#: :class:`RebeloteError` too) is a conflict with the state, not a malformed request.
REFUSALS: Final[Mapping[type[Exception], Refusal]] = {
    RebeloteError: Refusal(422),         # InputError, RulesError, CardError: the field, the rule
    IllegalActionError: Refusal(409),    # a move the state of the deal does not allow
    ForbiddenError: Refusal(403),        # without the game's (or the concours's) secret
    SeatForbiddenError: Refusal(403),    # without the secret of a seat of the table
    InviteError: Refusal(403),           # a seat kept for a friend, without its invitation
    WatchForbiddenError: Refusal(403),   # a watch link not (or no longer) the table's
    GameNotFoundError: Refusal(404, _no_such("saved game")),
    TableNotFoundError: Refusal(404, _no_such("table", None)),
    ConcoursNotFoundError: Refusal(404, _no_such("concours")),
    NotFoundError: Refusal(404),         # a deal outside the game, a deal not finished
    GameConflictError: Refusal(409, headers=lambda e: {"ETag": f'"{e.current}"'}),
    TableConflictError: Refusal(409),    # If-Match of an old version, or a move came first
    TableFullError: Refusal(409),
    BusyError: Refusal(409),
    UnsupportedMediaError: Refusal(415),
    BodyTooLargeError: Refusal(413, headers=_close),
    BodyTimeoutError: Refusal(408, headers=_close),
}


def refusal_of(exc: BaseException) -> Refusal | None:
    """The answer of :data:`REFUSALS` to ``exc`` (its most specific class), else ``None``.

    >>> refusal_of(IllegalActionError("card", "S must follow")).status, refusal_of(KeyError())
    (409, None)
    """
    return next((REFUSALS[k] for k in type(exc).__mro__ if k in REFUSALS), None)


async def _refused(request: Request, exc: Exception) -> Response:
    refusal = refusal_of(exc)
    assert refusal is not None  # registered for the classes of REFUSALS only
    headers = refusal.headers(exc) if refusal.headers is not None else None
    return answer(request, refusal.status, refusal.say(exc), headers)


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error of ``app`` by :data:`REFUSALS` and the handlers of the store's
    faults, as ``{"error": ...}`` (or a page) everywhere."""

    for kind in REFUSALS:
        app.add_exception_handler(kind, _refused)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        return answer(request, 422, validation_message(exc))

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

    @app.exception_handler(TableDamagedError)
    async def _damaged_one(request: Request, exc: TableDamagedError) -> Response:
        # one table's rows, not the store: that table is refused by name, the rest is served
        log.error("a table is damaged: %s", exc)
        return answer(request, 409, str(exc))

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
