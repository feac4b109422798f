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
import os
import sys
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.pool import StaticPool

from rebelote import __version__
from rebelote.store import GameStore, default_db_url, make_engine, migrate
from rebelote.web.concours import install_concours
from rebelote.web.counter.api import make_router
from rebelote.web.counter.live import make_live
from rebelote.web.counter.pages import make_pages
from rebelote.web.counter.printables import make_printables
from rebelote.web.counter.service import CounterService
from rebelote.web.errors import STORE_HEALTH, install_error_handlers
from rebelote.web.limits import LIMITS_ENV, Limits
from rebelote.web.security import CSP, SecurityMiddleware, inline_script_hashes
from rebelote.web.server import install_access_log_filter
from rebelote.web.table import api as table_api
from rebelote.web.table import pages as table_pages
from rebelote.web.table import running as tables_running
from rebelote.web.table import table_server

STATIC = files("rebelote.web") / "static"
#: Seconds a thread holds the GIL before another may take it (Python's default: 5 ms). The SQLite
#: stores' thread answers in microseconds; with the default it waits up to 5 ms for the event
#: loop to hand the GIL over, at every store call.
SWITCH_INTERVAL = 0.0005

#: The environment variable naming the hosts ``rebelote serve`` answers for (comma-separated).
HOSTS_ENV = "REBELOTE_ALLOWED_HOSTS"


def create_app(db_url: str | None = None, *, allowed_hosts: Iterable[str] = ("*",),
               limits: Limits | None = None) -> FastAPI:
    """The counter app on the database ``db_url`` (default: :func:`default_db_url`).

    The store's migrations are applied first. SQLite is called from the event loop (a local
    file answers in microseconds); other databases from the thread pool. ``allowed_hosts``:
    the names the ``Host`` header may carry (:class:`~rebelote.web.security.SecurityMiddleware`
    guards every route and socket); ``limits``: the rates, caps and timeouts per client
    (:class:`~rebelote.web.limits.Limits`, its defaults if ``None``).
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
    service = CounterService(store, inline=inline)
    tables = table_server(engine, inline)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with tables_running(tables, engine):
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
    app.state.tables = tables
    install_error_handlers(app)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.include_router(make_router(service))
    app.include_router(make_printables(service))
    app.include_router(make_live(service))
    app.include_router(make_pages(service))
    app.include_router(table_api.router)
    app.include_router(table_pages.router)
    install_concours(app, engine, inline)
    docs_html = bytes(get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="rebelote counter API",
        swagger_js_url="/static/swagger/swagger-ui-bundle.js",
        swagger_css_url="/static/swagger/swagger-ui.css",
        swagger_favicon_url="/static/favicon.svg",
    ).body).decode()
    app.add_middleware(
        SecurityMiddleware,
        allowed_hosts=allowed_hosts,
        limits=limits,
        extra_csp={"/docs": CSP.replace("script-src 'self'", "script-src 'self' "
                                        + inline_script_hashes(docs_html))
                            .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")},
    )

    build_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build_openapi()
            schema.setdefault("components", {})["securitySchemes"] = {"bearer": {
                "type": "http", "scheme": "bearer",
                "description": "The game's secret, answered as `token` when it was created"}}
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(docs_html)

    checked: list[Any] = [-1.0, "writable"]  # when the store was last tried, and its health

    @app.get("/healthz", include_in_schema=False)
    async def health() -> JSONResponse:
        # The store is tried at most once a second: /healthz stays cheap under load. The try
        # runs in the store's thread: a locked or slow file never stops the event loop.
        if time.monotonic() - checked[0] > 1.0:
            checked[0] = time.monotonic()
            checked[1] = await service.call(service.health)
        state = "damaged" if getattr(app.state, "store_damaged", False) else str(checked[1])
        writable = state == "writable"
        body: dict[str, Any] = {"ok": writable, "version": __version__,
                                "store": STORE_HEALTH.get(state, state)}
        return JSONResponse(body, status_code=200 if writable else 503)

    return app


def app_from_env() -> FastAPI:
    """The app on ``$REBELOTE_DB`` (or the default database): uvicorn's factory for
    ``rebelote serve``, one per worker process.

    The server process is tuned for many small requests: what was loaded at start is moved
    out of the garbage collector's sight, and young collections run less often.
    """
    hosts = [h for h in os.environ.get(HOSTS_ENV, "*").split(",") if h.strip()]
    app = create_app(default_db_url(), allowed_hosts=hosts or ["*"],
                     limits=Limits.parse(os.environ.get(LIMITS_ENV)))
    install_access_log_filter()
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)
    sys.setswitchinterval(SWITCH_INTERVAL)
    return app
