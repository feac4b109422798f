"""The play table on the web: its service (tables played, bots driven, watchers woken), its
JSON API and WebSocket, and its pages."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from sqlalchemy import Engine

from rebelote.store.tables import TableStore
from rebelote.web.table.api import make_table_router
from rebelote.web.table.service import PgListener, TableService


def install_table(app: FastAPI, engine: Engine, inline: bool, url: str) -> TableService:
    """Add the table's routes to ``app``; ``app.state.table_lifespan`` starts and stops its
    background work (bots, clocks, the PostgreSQL listener)."""
    store = TableStore(engine, single_thread=inline)
    service = TableService(store, inline, engine)
    app.state.tables = service
    app.include_router(make_table_router(service))
    from rebelote.web.table.pages import make_table_pages

    app.include_router(make_table_pages(service))

    @asynccontextmanager
    async def lifespan() -> AsyncIterator[None]:
        listener = None
        if service.notify_pg:
            listener = PgListener(url, service, asyncio.get_running_loop())
            listener.start()
        try:
            yield
        finally:
            await service.close()
            if listener is not None:
                listener.stop()
            store.close()

    app.state.table_lifespan = lifespan
    return service
