"""The app factory: :func:`create_app` builds the services of the counter, the play table and
the concours, puts them on ``app.state`` and includes each product's routers (module-level
``router`` objects whose routes take the services through ``Annotated`` dependencies), behind
the one error map (:mod:`rebelote.web.errors`) and the security middleware.

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
from typing import Any, Final

from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.pool import StaticPool

from rebelote import __version__
from rebelote.store import GameStore, default_db_url, make_engine, migrate
from rebelote.store.concours import ConcoursStore
from rebelote.store.db import instrument
from rebelote.web import metrics, openapi
from rebelote.web.concours import api as concours_api
from rebelote.web.concours import pages as concours_pages
from rebelote.web.concours import printables as concours_printables
from rebelote.web.concours.service import ConcoursService
from rebelote.web.counter import api as counter_api
from rebelote.web.counter import live as counter_live
from rebelote.web.counter import pages as counter_pages
from rebelote.web.counter import printables as counter_printables
from rebelote.web.counter.deps import CounterDep
from rebelote.web.counter.service import CounterService
from rebelote.web.errors import STORE_HEALTH, install_error_handlers
from rebelote.web.limits import LIMITS_ENV, Limits, limit_store
from rebelote.web.metrics import MetricsAccess, ObserveMiddleware
from rebelote.web.problems import pages as problems_pages
from rebelote.web.security import CSP, SecurityMiddleware, inline_script_hashes
from rebelote.web.server import install_access_log_filter
from rebelote.web.table import api as table_api
from rebelote.web.table import pages as table_pages
from rebelote.web.table import running as tables_running
from rebelote.web.table import table_server
from rebelote.web.table import watch as table_watch

STATIC = files("rebelote.web") / "static"
#: Seconds a thread holds the GIL before another may take it (Python's default: 5 ms). The SQLite
#: stores' thread answers in microseconds; with the default it waits up to 5 ms for the event
#: loop to hand the GIL over, at every store call.
SWITCH_INTERVAL = 0.0005

#: The environment variable naming the hosts ``rebelote serve`` answers for (comma-separated).
HOSTS_ENV = "REBELOTE_ALLOWED_HOSTS"

#: The API's documentation page (Swagger UI, its files served from /static).
DOCS_HTML: Final = bytes(get_swagger_ui_html(
    openapi_url="/openapi.json",
    title="rebelote counter API",
    swagger_js_url="/static/swagger/swagger-ui-bundle.js",
    swagger_css_url="/static/swagger/swagger-ui.css",
    swagger_favicon_url="/static/favicon.svg",
).body).decode()
#: Its Content-Security-Policy: its inline scripts allowed by hash, its inline styles.
DOCS_CSP: Final = (CSP.replace("script-src 'self'",
                               "script-src 'self' " + inline_script_hashes(DOCS_HTML))
                   .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"))

#: The server's own routes: the API's documentation and the health check.
router = APIRouter(include_in_schema=False)


@router.get("/docs")
async def docs() -> HTMLResponse:
    return HTMLResponse(DOCS_HTML)


@router.get("/healthz")
async def health(request: Request, counter: CounterDep) -> JSONResponse:
    # The store is tried at most once a second: /healthz stays cheap under load. The try runs
    # in the store's thread: a locked or slow file never stops the event loop.
    state = request.app.state
    checked_at, store = state.store_checked
    now = time.monotonic()
    if now - checked_at > 1.0:
        state.store_checked = (now, store)  # one try a second, even while it runs
        store = await counter.call(counter.health)
        state.store_checked = (now, store)
    if getattr(state, "store_damaged", False):
        store = "damaged"
    writable = store == "writable"
    body: dict[str, Any] = {"ok": writable, "version": __version__,
                            "store": STORE_HEALTH.get(store, store)}
    return JSONResponse(body, status_code=200 if writable else 503)


def create_app(db_url: str | None = None, *, allowed_hosts: Iterable[str] = ("*",),
               limits: Limits | None = None, metrics_access: MetricsAccess | None = None
               ) -> FastAPI:
    """The app on the database ``db_url`` (default: :func:`default_db_url`): the counter, the
    play table and the concours.

    The store's migrations are applied first. The services are built here and put on
    ``app.state`` (``counter``, ``tables``, ``concours``), where the routes' dependencies find
    them; the products' routers are included in the order the OpenAPI document lists them.
    SQLite is called in the stores' one thread (a local file answers in microseconds), other
    databases from the thread pool. ``allowed_hosts``: the names the ``Host`` header may
    carry (:class:`~rebelote.web.security.SecurityMiddleware` guards every route and socket);
    ``limits``: the rates, caps and timeouts per client (:class:`~rebelote.web.limits.Limits`,
    its defaults if ``None``); ``metrics_access``: who may read ``/metrics``
    (:class:`~rebelote.web.metrics.MetricsAccess`; ``$REBELOTE_METRICS_ALLOW``, else loopback,
    if ``None``).
    """
    url = db_url or default_db_url()
    if url in ("sqlite://", "sqlite:///:memory:"):
        from sqlalchemy import create_engine

        engine = instrument(create_engine(url, poolclass=StaticPool,
                                          connect_args={"check_same_thread": False}))
    else:
        engine = make_engine(url)
    migrate(engine)
    inline = engine.dialect.name == "sqlite"
    store = GameStore(engine, single_thread=inline)
    tables = table_server(engine, inline)
    # the counts of the limits: in the database on PostgreSQL (every worker shares them)
    counts = limit_store(limits or Limits(), url if engine.dialect.name == "postgresql" else None)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with tables_running(tables, engine):
            yield
        await counts.aclose()
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
    app.state.counter = CounterService(store, inline=inline)
    app.state.tables = tables
    app.state.limits = limits or Limits()
    app.state.concours = ConcoursService(ConcoursStore(engine), GameStore(engine), inline=inline,
                                         limits=limits)
    # A concours table's counter game tells the concours of its writes (the products never
    # import each other: the app wires them).
    app.state.counter.checks.append(app.state.concours.phone_check)
    app.state.counter.written.append(app.state.concours.phone_written)
    app.state.counter.notes.append(app.state.concours.phone_note)
    app.state.store_checked = (-1.0, "writable")  # when /healthz last tried the store
    app.state.metrics_access = metrics_access or MetricsAccess.from_env()
    install_error_handlers(app)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    for product in (counter_api.router, counter_printables.router, counter_live.router,
                    counter_pages.router, table_api.router, table_pages.router,
                    table_watch.router,
                    concours_api.router, concours_printables.router, concours_pages.router,
                    problems_pages.router, router, metrics.router):
        app.include_router(product)
    app.add_middleware(SecurityMiddleware, allowed_hosts=allowed_hosts, store=counts,
                       extra_csp={"/docs": DOCS_CSP})
    app.state.limit_counts = counts
    app.add_middleware(ObserveMiddleware)  # outermost: the security's refusals counted too
    openapi.install(app)
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
