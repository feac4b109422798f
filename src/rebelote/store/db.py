"""Engines and migrations: the database URL, SQLite tuning, and alembic run from the package."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from platformdirs import user_data_dir
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url

MIGRATIONS = "rebelote.store:migrations"
DB_ENV = "REBELOTE_DB"


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
    return create_engine(url, pool_size=5, max_overflow=5, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Apply every migration shipped in the package (``rebelote/store/migrations``)."""
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
