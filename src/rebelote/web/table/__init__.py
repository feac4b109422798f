"""The play table on the web: its JSON API and WebSocket, and its pages, over the live table
server (:mod:`rebelote.tableserver`: tables played, bots driven, watchers woken)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Final

from sqlalchemy import Engine

from rebelote.store.play_tables import Tables, TableStore
from rebelote.tableserver import LocalTables, TableService

#: Seconds a PostgreSQL worker waits at start-up for its listener to ``LISTEN``.
LISTEN_WAIT: Final = 5.0


def table_server(engine: Engine, inline: bool) -> TableService:
    """The live table server on ``engine``: on PostgreSQL the tables are read and written
    through asynchronous connections of their own
    (:class:`~rebelote.store.play_tables_pg.PgTables`), elsewhere through ``engine``
    (``inline``: SQLite, called in the stores' one thread)."""
    db: Tables
    if engine.dialect.name == "postgresql":
        from rebelote.store.play_tables_pg import PgTables, connect_args

        db = PgTables(connect_args(engine))
    else:
        db = LocalTables(TableStore(engine, single_thread=inline))
    return TableService(db, shared=engine.dialect.name == "postgresql")


@asynccontextmanager
async def running(service: TableService, engine: Engine) -> AsyncIterator[None]:
    """The table server's background work while the app serves: the clocks and leave timers
    that ran when it stopped, the bots, and on PostgreSQL the listener of other workers'
    changes; all stopped at shut-down."""
    listener = None
    await service.start()  # the clocks and leave timers that ran when it stopped
    if service.shared:
        from rebelote.store.play_tables_pg import PgListener, connect_args

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
        await service.db.close()


__all__ = ["LISTEN_WAIT", "running", "table_server"]
