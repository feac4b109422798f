"""What the table's routes take from a request or a socket, as FastAPI dependencies named by
``Annotated`` types: the live table server (built by the app, on ``app.state.tables``) and the
seat's secret.

A route names them in its signature::

    @router.post("/{table_id}/release")
    async def release(table_id: str, tables: TableServiceDep, token: SeatTokenDep) -> ...
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from rebelote.tableserver import TableService
from rebelote.tableserver.bots import CLIENT
from rebelote.web.security import bearer, client_of


async def table_service(conn: HTTPConnection) -> TableService:
    """The app's live table server. The bots' moves this request makes (and the background
    tasks it starts: a paced table's bots) are made in its client's turn
    (:data:`~rebelote.tableserver.bots.CLIENT`: bot time shared fairly between clients)."""
    CLIENT.set(client_of(conn.scope))
    service: TableService = conn.app.state.tables
    return service


async def seat_token(conn: HTTPConnection, table_id: str) -> str | None:
    """The secret of a seat of table ``table_id`` that the request presents
    (``Authorization: Bearer``, else this browser's key ring), if any."""
    return bearer(conn, table_id)


TableServiceDep = Annotated[TableService, Depends(table_service)]
SeatTokenDep = Annotated[str | None, Depends(seat_token)]

__all__ = ["SeatTokenDep", "TableServiceDep", "seat_token", "table_service"]
