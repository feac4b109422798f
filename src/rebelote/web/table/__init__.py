"""The play table on the web: its JSON API and WebSocket, and its pages, over the live table
server (:mod:`rebelote.tableserver`: tables played, bots driven, watchers woken)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Final

from fastapi import FastAPI
from sqlalchemy import Engine

from rebelote.store.play_tables import Tables, TableStore
from rebelote.tableserver import LocalTables, TableService
from rebelote.web.table.api import make_table_router

#: Seconds a PostgreSQL worker waits at start-up for its listener to ``LISTEN``.
LISTEN_WAIT: Final = 5.0


def install_table(app: FastAPI, engine: Engine, inline: bool) -> TableService:
    """Add the table's routes to ``app``; ``app.state.table_lifespan`` starts and stops its
    background work (bots, clocks, the PostgreSQL listener). On PostgreSQL the tables are
    read and written through asynchronous connections of their own
    (:class:`~rebelote.store.play_tables_pg.PgTables`), elsewhere through ``engine``."""
    db: Tables
    pg = engine.dialect.name == "postgresql"
    if pg:
        from rebelote.store.play_tables_pg import PgListener, PgTables, connect_args

        db = PgTables(connect_args(engine))
    else:
        db = LocalTables(TableStore(engine, single_thread=inline))
    service = TableService(db, shared=pg)
    app.state.tables = service
    app.include_router(make_table_router(service))
    from rebelote.web.table.pages import make_table_pages

    app.include_router(make_table_pages(service))

    @asynccontextmanager
    async def lifespan() -> AsyncIterator[None]:
        listener = None
        await service.start()  # the clocks and leave timers that ran when it stopped
        if pg:
            listener = PgListener(connect_args(engine), service.changed, service.catch_up)
            listener.start()
            # Serve once it listens (a few ms), so that no socket watches a table before this
            # worker hears of its changes; a database out of reach delays start-up by at most
            # LISTEN_WAIT, and the listener keeps trying while the worker serves.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(listener.listening.wait(), LISTEN_WAIT)
        try:
            yield
        finally:
            await service.close()
            if listener is not None:
                await listener.stop()
            await db.close()

    app.state.table_lifespan = lifespan
    return service
