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
from rebelote.web.limits import Limits, LimitStore, client_key
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


class TablesTooFastError(Exception):
    """A table about to be started past the client's rate (``Limits.tables_per_minute``):
    ``wait`` seconds before the next one."""

    def __init__(self, wait: float) -> None:
        self.wait = wait
        super().__init__(f"rate: too many tables started from your address: try again in "
                         f"{wait:g} s")


class TableStart:
    """What a route that may start a table awaits just before it does (the room's next game,
    which only the first call starts): one table taken from the client's bucket, the one the
    middleware takes ``POST /api/tables`` from (``tables_per_minute``, ``tables_burst``,
    shared by the workers), else :class:`TablesTooFastError` (nothing taken);
    :meth:`give_back` when the table was not started after all (another worker's call
    started the same next game first)."""

    def __init__(self, store: LimitStore, client: str) -> None:
        self.store = store
        self.client = client

    async def __call__(self) -> None:
        wait = await self.store.take("tables", self.client)
        if wait:
            raise TablesTooFastError(wait)

    async def give_back(self) -> None:
        await self.store.give_back("tables", self.client)


async def table_start(conn: HTTPConnection) -> TableStart:
    """The client's :class:`TableStart`."""
    limits: Limits = conn.app.state.limits
    store: LimitStore = conn.app.state.limit_counts
    return TableStart(store, client_key(client_of(conn.scope), limits.ipv6_prefix))


TableServiceDep = Annotated[TableService, Depends(table_service)]
SeatTokenDep = Annotated[str | None, Depends(seat_token)]
TableStartDep = Annotated[TableStart, Depends(table_start)]

__all__ = ["SeatTokenDep", "TableServiceDep", "TableStart", "TableStartDep", "TablesTooFastError",
           "seat_token", "table_service", "table_start"]
