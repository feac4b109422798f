"""``rebelote serve``: the point counter web app (FastAPI, served by uvicorn).

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
    ) -> None:
        """Serve the point counter: open http://HOST:PORT/ in a browser."""
        import uvicorn
        from sqlalchemy.exc import ArgumentError, SQLAlchemyError

        from rebelote.store import make_engine, migrate
        from rebelote.store.db import DB_ENV, default_db_url

        url = db or default_db_url()
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
        # uvicorn shuts down gracefully on SIGTERM / Ctrl-C, then raises the signal again with
        # the handlers found at start: these make that a plain exit with status 0.
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, _exit_cleanly)
        typer.echo(f"rebelote counter on http://{host}:{port}/ (games in {_shown(url)})",
                   err=True)
        uvicorn.run(
            "rebelote.web.app:app_from_env", factory=True, host=host, port=port,
            workers=workers, log_level=log_level, proxy_headers=False, server_header=False,
        )


def _exit_cleanly(signum: int, _frame: FrameType | None) -> None:
    """After uvicorn's graceful shutdown: exit with status 0."""
    raise SystemExit(0)


def _shown(url: str) -> str:
    """The URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
