"""Engines and migrations: the database URL, SQLite tuning, and alembic run from the package."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from platformdirs import user_data_dir
from sqlalchemy import Engine, create_engine, event, exc
from sqlalchemy.engine import make_url

MIGRATIONS = "rebelote.store:migrations"
DB_ENV = "REBELOTE_DB"
#: A pooled connection idle for longer than this (seconds) is checked before use.
PING_AFTER = 10.0


def default_db_url() -> str:
    """``$REBELOTE_DB``, else an SQLite file in the user's data directory (created if needed)."""
    env = os.environ.get(DB_ENV)
    if env:
        return env
    folder = Path(user_data_dir("rebelote", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'counter.sqlite3'}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL journal, relaxed fsync (safe with WAL), a busy timeout for concurrent writers."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``: SQLite files get WAL and a small pool; others a small pool too."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url, pool_size=4, max_overflow=4, connect_args={"check_same_thread": False}
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    engine = create_engine(url, pool_size=10, max_overflow=0)
    _ping_when_idle(engine)
    return engine


def _ping_when_idle(engine: Engine) -> None:
    """Check a pooled connection before use only when it was idle for :data:`PING_AFTER`
    seconds (the server may have closed it: a restart, an idle timeout), instead of before
    every use (``pool_pre_ping``: a round trip per request). A connection found closed is
    replaced: the pool tries another (SQLAlchemy's pessimistic disconnect handling)."""

    @event.listens_for(engine, "checkin")
    def _idle_since(dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _check(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        since = record.info.get("idle_since")
        if since is None or time.monotonic() - since < PING_AFTER:
            return
        try:
            cursor = dbapi_connection.cursor()
            cursor.execute("SELECT 1")
            cursor.close()
            dbapi_connection.rollback()
        except Exception as e:
            raise exc.DisconnectionError(str(e)) from e


def migrate(engine: Engine) -> None:
    """Apply every migration shipped in the package (``rebelote/store/migrations``)."""
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
