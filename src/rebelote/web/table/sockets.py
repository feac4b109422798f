"""What the table's two sockets (the players', :mod:`rebelote.web.table.api`, and the
watchers', :mod:`rebelote.web.table.watch`) do alike before their first view: refuse another
site's page, read the secret (the request's, else the first message's), and refuse with a
sentence that says why."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Final
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect

from rebelote.store.play_tables import TableNotFoundError
from rebelote.web.security import first_socket_token

#: Seconds a socket waits for its first message (the secret) when the request carried none.
FIRST_WAIT: Final = 10.0
#: The close code of a refused socket.
REFUSED: Final = 4403


def cross_site(websocket: WebSocket) -> bool:
    """The socket is opened by another site's page (its ``Origin`` is not this host): it may
    not use the cookie."""
    origin = websocket.headers.get("origin")
    return origin is not None and urlsplit(origin).netloc != websocket.headers.get("host")


async def first_token(websocket: WebSocket, token: str | None) -> str | None:
    """The secret of an accepted socket: ``token`` when its request carried one, else the
    first message's ``{"token": ...}`` (``None`` for a message that holds none: small, read
    without a traceback). :class:`TimeoutError` when nothing came within
    :data:`FIRST_WAIT`; :class:`WebSocketDisconnect` when the client went first."""
    if token is not None:
        return token
    first = await asyncio.wait_for(websocket.receive(), FIRST_WAIT)
    if first.get("type") == "websocket.disconnect":
        raise WebSocketDisconnect(int(first.get("code") or 1000))
    return first_socket_token(first)


def refusal(e: Exception, table_id: str, other_way: str) -> str:
    """Why a socket is refused: an unknown table named, no secret in time (``other_way``: how
    else the secret may come), else the error's own sentence."""
    if isinstance(e, TableNotFoundError):
        return f"id: there is no table {table_id!r}"
    if isinstance(e, TimeoutError | ValueError):
        return f"token: send {{\"token\": ...}} first, or {other_way}"
    return str(e)


async def refuse(websocket: WebSocket, reason: str) -> None:
    """Say ``reason`` (``{"error": ...}``) and close the socket (:data:`REFUSED`); a client
    gone meanwhile is no error."""
    with contextlib.suppress(Exception):
        await websocket.send_json({"error": reason})
        await websocket.close(code=REFUSED)


__all__ = ["FIRST_WAIT", "REFUSED", "cross_site", "first_token", "refusal", "refuse"]
