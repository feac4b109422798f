"""The app factory: :func:`create_app` builds the counter (JSON API, pages, printables).

>>> app = create_app("sqlite://")  # an in-memory database, for a quick look
>>> for path in sorted(app.openapi()["paths"]):
...     if path.startswith("/api/counter/games/{game_id}/deals"):
...         print(path)
/api/counter/games/{game_id}/deals
/api/counter/games/{game_id}/deals/last
/api/counter/games/{game_id}/deals/{n}
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.pool import StaticPool

from rebelote import __version__
from rebelote.store import GameStore, default_db_url, make_engine, migrate
from rebelote.web.api import make_router
from rebelote.web.errors import install_error_handlers
from rebelote.web.pages import make_pages
from rebelote.web.printables import make_printables
from rebelote.web.service import CounterService

STATIC = files("rebelote.web") / "static"


def create_app(db_url: str | None = None) -> FastAPI:
    """The counter app on the database ``db_url`` (default: :func:`default_db_url`).

    The store's migrations are applied first. SQLite is called from the event loop (a local
    file answers in microseconds); other databases from the thread pool.
    """
    url = db_url or default_db_url()
    if url in ("sqlite://", "sqlite:///:memory:"):
        from sqlalchemy import create_engine

        engine = create_engine(url, poolclass=StaticPool,
                               connect_args={"check_same_thread": False})
    else:
        engine = make_engine(url)
    migrate(engine)
    inline = engine.dialect.name == "sqlite"
    store = GameStore(engine, single_thread=inline)
    service = CounterService(store)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()
        engine.dispose()

    app = FastAPI(
        lifespan=lifespan,
        title="rebelote counter",
        version=__version__,
        description="The point counter of Belote and Coinche: games saved on the server, "
                    "scored by the rebelote core.",
        docs_url=None,
        redoc_url=None,
    )
    app.state.service = service
    app.state.engine = engine
    install_error_handlers(app)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.include_router(make_router(service, inline))
    app.include_router(make_printables(service, inline))
    app.include_router(make_pages(service, inline))

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="rebelote counter API",
            swagger_js_url="/static/swagger/swagger-ui-bundle.js",
            swagger_css_url="/static/swagger/swagger-ui.css",
            swagger_favicon_url="/static/favicon.svg",
        )

    @app.get("/healthz", include_in_schema=False)
    async def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__}

    return app


def app_from_env() -> FastAPI:
    """The app on ``$REBELOTE_DB`` (or the default database): uvicorn's factory for
    ``rebelote serve``, one per worker process.

    The server process is tuned for many small requests: what was loaded at start is moved
    out of the garbage collector's sight, and young collections run less often.
    """
    app = create_app(default_db_url())
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)
    return app
