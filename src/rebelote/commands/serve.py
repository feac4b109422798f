"""``rebelote serve``: the web app, the point counter and the play table (FastAPI, served by
uvicorn).

Games are kept in an SQLite file in the user's data directory unless ``--db`` names another
SQLAlchemy URL (PostgreSQL: ``postgresql+psycopg://user@host/db``). Migrations are applied
before the server starts; SIGTERM and Ctrl-C stop it cleanly.
"""

from __future__ import annotations

import os
import signal
from types import FrameType
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the command line."""

    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
        db: Annotated[str | None, typer.Option(
            help="SQLAlchemy URL of the database (default: an SQLite file in the user's data "
                 "directory, or $REBELOTE_DB).")] = None,
        workers: Annotated[int, typer.Option(help="Server processes.", min=1, max=64)] = 1,
        log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
        allowed_hosts: Annotated[str | None, typer.Option(
            help="Comma-separated names the Host header may carry (like "
                 "counter.example.org,*.example.org; * for any). Default: the loopback "
                 "names when listening on loopback, any name otherwise.")] = None,
        forwarded_allow_ips: Annotated[str | None, typer.Option(
            help="Comma-separated addresses of the HTTPS proxy in front of the server (like "
                 "127.0.0.1): their X-Forwarded-Proto and X-Forwarded-For headers are trusted "
                 "(cookies are then Secure and HSTS is sent over HTTPS, and limits count the "
                 "real client). Default: none trusted.")] = None,
        limits: Annotated[str | None, typer.Option(
            help="Limits per client over the defaults, like tables_per_minute=300,"
                 "sockets_per_table=32 (see docs/web.md).")] = None,
        metrics_allow: Annotated[str | None, typer.Option(
            help="Comma-separated addresses or networks that may read /metrics (like "
                 "127.0.0.1,10.0.0.0/8; none: nobody). Default: $REBELOTE_METRICS_ALLOW, "
                 "else this machine only (127.0.0.0/8,::1). See docs/ops-metrics.md.")] = None,
    ) -> None:
        """Serve the point counter and the play table: open http://HOST:PORT/ in a browser.
        Several workers need PostgreSQL (--db postgresql+psycopg://...)."""
        import uvicorn
        from sqlalchemy.exc import ArgumentError, SQLAlchemyError

        from rebelote.errors import InputError
        from rebelote.store import make_engine, migrate
        from rebelote.store.db import DB_ENV, default_db_url
        from rebelote.web.app import HOSTS_ENV
        from rebelote.web.limits import LIMITS_ENV, Limits
        from rebelote.web.metrics import ALLOW_ENV, MetricsAccess
        from rebelote.web.server import log_config

        try:
            chosen = Limits.parse(limits)
        except InputError as e:
            typer.echo(f"rebelote serve: --limits: {e}", err=True)
            raise typer.Exit(2) from None
        try:
            MetricsAccess.parse(metrics_allow or os.environ.get(ALLOW_ENV))
        except InputError as e:
            typer.echo(f"rebelote serve: --metrics-allow: {e.reason}", err=True)
            raise typer.Exit(2) from None
        if metrics_allow is not None:
            os.environ[ALLOW_ENV] = metrics_allow
        proxies = [a.strip() for a in (forwarded_allow_ips or "").split(",") if a.strip()]

        url = db or default_db_url()
        if workers > 1 and url.startswith("sqlite"):
            # one process: its SQLite store runs in one thread, its tables' sockets are woken
            # by its own writes, and its limits are counted in its memory
            typer.echo("rebelote serve: --workers: several workers need PostgreSQL (--db "
                       "postgresql+psycopg://...); on SQLite one process serves", err=True)
            raise typer.Exit(2)
        try:
            engine = make_engine(url)
            migrate(engine)
            engine.dispose()
        except ArgumentError:
            typer.echo(f"rebelote serve: --db: {url!r} is not a database URL "
                       "(like sqlite:///games.db or postgresql+psycopg://host/db)", err=True)
            raise typer.Exit(2) from None
        except (SQLAlchemyError, OSError, ImportError) as e:
            reason = str(e).splitlines()[0] if str(e) else type(e).__name__
            typer.echo(f"rebelote serve: --db: cannot open {url!r}: {reason}", err=True)
            raise typer.Exit(2) from None
        os.environ[DB_ENV] = url
        hosts = allowed_hosts if allowed_hosts is not None else (
            ",".join(LOOPBACK_NAMES) if is_loopback(host) else "*")
        os.environ[HOSTS_ENV] = hosts
        os.environ[LIMITS_ENV] = limits or ""
        if not is_loopback(host):
            typer.echo(
                f"rebelote serve: warning: listening on {host}, the counter is reachable from "
                "the network: anyone who can reach this port can create games (each game "
                "stays private to the holders of its secret). Serve it behind HTTPS and name "
                "the site with --allowed-hosts.", err=True)
        # uvicorn shuts down gracefully on SIGTERM / Ctrl-C, then raises the signal again with
        # the handlers found at start: these make that a plain exit with status 0.
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, _exit_cleanly)
        shared_metrics = _metrics_folder(workers)
        typer.echo(f"rebelote (counter and play table) on http://{host}:{port}/ "
                   f"(games and tables in {_shown(url)})",
                   err=True)
        try:
            uvicorn.run(
                "rebelote.web.app:app_from_env", factory=True, host=host, port=port,
                workers=workers, log_level=log_level, server_header=False,
                # one JSON line per request from the app (docs/ops-metrics.md) instead of
                # uvicorn's access line
                log_config=log_config(log_level), access_log=False,
                timeout_graceful_shutdown=1,
                # forwarded headers only from the proxies named (none by default)
                proxy_headers=bool(proxies), forwarded_allow_ips=",".join(proxies) or None,
                # a request's head within header_timeout, WebSocket messages small
                http="rebelote.web.server:HeaderDeadlineProtocol",
                ws_max_size=chosen.ws_max_size,
            )
        finally:
            if shared_metrics is not None:
                import shutil

                shutil.rmtree(shared_metrics, ignore_errors=True)



LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def _metrics_folder(workers: int) -> str | None:
    """With several workers, a fresh folder for prometheus-client's multiprocess mode (each
    worker writes its metrics there, ``/metrics`` adds them up), unless
    ``$PROMETHEUS_MULTIPROC_DIR`` names one already: answers the folder made (removed when
    the server stops), ``None`` otherwise."""
    import tempfile

    from rebelote.metrics import MULTIPROC_ENV

    if workers < 2 or os.environ.get(MULTIPROC_ENV):
        return None
    folder = tempfile.mkdtemp(prefix="rebelote-metrics-")
    os.environ[MULTIPROC_ENV] = folder
    return folder


def is_loopback(host: str) -> bool:
    """``host`` is a loopback address or name (the server is then reachable from this machine
    only)."""
    import ipaddress

    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _exit_cleanly(signum: int, _frame: FrameType | None) -> None:
    """After uvicorn's graceful shutdown: exit with status 0."""
    raise SystemExit(0)


def _shown(url: str) -> str:
    """The URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
