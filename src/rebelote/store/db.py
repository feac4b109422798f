"""Engines and migrations: the database URL, SQLite tuning, and alembic run from the package."""

from __future__ import annotations

import asyncio
import functools
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final, TypeVar

from alembic import command
from alembic.config import Config
from platformdirs import user_data_dir
from sqlalchemy import Connection, Engine, create_engine, event, exc, text
from sqlalchemy.engine import make_url

MIGRATIONS = "rebelote.store:migrations"
DB_ENV = "REBELOTE_DB"
#: A pooled connection idle for longer than this (seconds) is checked before use.
PING_AFTER = 10.0
#: How long an SQLite call waits for a lock another process holds (a backup, the ``sqlite3``
#: shell) before it gives up and the request answers 503 (milliseconds; the environment
#: variable overrides it). The server's own writes hold it for well under a millisecond.
BUSY_ENV: Final = "REBELOTE_SQLITE_BUSY_MS"
BUSY_MS: Final = 1000

T = TypeVar("T")

#: The one thread that makes every call to an SQLite store of this process, one after the
#: other: the event loop never waits on the file (a lock held by another process, a slow disk),
#: and one connection serves every call (SQLite has one writer anyway).
_SQLITE_THREAD: Final = ThreadPoolExecutor(1, thread_name_prefix="rebelote-sqlite")


async def in_store_thread(fn: Callable[..., T], *args: Any, **kw: Any) -> T:
    """``fn(*args, **kw)`` in the SQLite stores' thread, awaited from the event loop."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_SQLITE_THREAD, functools.partial(fn, *args, **kw))


class KeptConnection:
    """A store's transactions on ``engine``. ``single_thread``: every call comes from one
    thread (the event loop, or the SQLite stores' thread), so one connection is kept open and
    reused instead of being taken from the pool at each call; each call is still its own
    transaction."""

    def __init__(self, engine: Engine, *, single_thread: bool = False) -> None:
        self.engine = engine
        self._conn: Connection | None = engine.connect() if single_thread else None

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        """A transaction, committed at the end (rolled back on an error)."""
        if self._conn is None:
            with self.engine.begin() as conn:
                yield conn
            return
        if self._conn.invalidated or self._conn.closed:
            self._conn = self.engine.connect()
        with self._conn.begin():
            yield self._conn

    def close(self) -> None:
        """Give back the kept connection, if any."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def busy_ms() -> int:
    """The SQLite busy timeout (:data:`BUSY_MS`, or ``$REBELOTE_SQLITE_BUSY_MS``)."""
    raw = os.environ.get(BUSY_ENV, "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 9 else BUSY_MS


def default_db_url() -> str:
    """``$REBELOTE_DB``, else an SQLite file in the user's data directory (created if needed)."""
    env = os.environ.get(DB_ENV)
    if env:
        return env
    folder = Path(user_data_dir("rebelote", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'counter.sqlite3'}"


def store_fault(exc: BaseException) -> str | None:
    """What a database error says of the store: ``"damaged"`` (the file does not read back: a
    damaged page, not a database), ``"locked"`` (another process holds its lock past the busy
    timeout), ``"down"`` (it cannot write: a full or read-only disk, or it cannot be reached),
    ``None`` for anything else."""
    text = str(getattr(exc, "orig", exc)).lower()
    if any(w in text for w in ("malformed", "not a database", "corrupt")):
        return "damaged"
    if "locked" in text or "busy" in text:
        return "locked"
    from sqlalchemy.exc import OperationalError

    if isinstance(exc, OperationalError) or any(
            w in text for w in ("readonly", "read-only", "disk", "full", "i/o")):
        return "down"
    return None


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL journal, relaxed fsync (safe with WAL), a short busy timeout (:func:`busy_ms`)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA busy_timeout={busy_ms()}")
    cursor.close()


_VERBS: Final = frozenset({"select", "insert", "update", "delete", "begin", "commit",
                           "rollback", "pragma"})


def instrument(engine: Engine) -> Engine:
    """Time every statement ``engine`` runs and count its failures
    (:data:`rebelote.metrics.STORE_SECONDS`, :data:`~rebelote.metrics.STORE_ERRORS`)."""
    from rebelote.metrics import STORE_ERRORS, STORE_SECONDS

    backend = engine.dialect.name

    @event.listens_for(engine, "before_cursor_execute")
    def _start(conn: Any, cursor: Any, statement: str, params: Any, context: Any,
               many: bool) -> None:
        conn.info.setdefault("rebelote_started", []).append(time.perf_counter())

    @event.listens_for(engine, "after_cursor_execute")
    def _end(conn: Any, cursor: Any, statement: str, params: Any, context: Any,
             many: bool) -> None:
        started = conn.info.get("rebelote_started")
        if started:
            verb = statement.lstrip().split(None, 1)[0].lower() if statement.strip() else ""
            STORE_SECONDS.labels(backend, verb if verb in _VERBS else "other").observe(
                time.perf_counter() - started.pop())

    @event.listens_for(engine, "handle_error")
    def _failed(context: Any) -> None:
        started = context.connection.info.get("rebelote_started") \
            if context.connection is not None else None
        if started:
            started.pop()
        STORE_ERRORS.labels(backend, store_fault(context.original_exception) or "other").inc()

    return engine


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
        return instrument(engine)
    engine = create_engine(url, pool_size=10, max_overflow=0)
    _ping_when_idle(engine)
    return instrument(engine)


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


#: The key of the PostgreSQL advisory lock held while the migrations run (any number that
#: no other program on the database uses: "rebelote" in ASCII, eight bytes).
MIGRATION_LOCK: Final = 0x726562656C6F7465
#: How long a second process waits for the first's migrations on SQLite (milliseconds).
MIGRATION_WAIT_MS: Final = 600_000


def migrate(engine: Engine, revision: str = "head") -> None:
    """Apply the migrations shipped in the package (``rebelote/store/migrations``) up to
    ``revision`` (every one by default), in one transaction that holds the database's write
    lock: several processes starting at once (``rebelote serve --workers N``, servers on
    several machines) migrate once, the others wait, then find the schema at its head and do
    nothing. PostgreSQL: a transaction-level advisory lock (:data:`MIGRATION_LOCK`), released
    at the commit, with the schema changes themselves (PostgreSQL's DDL is transactional: a
    migration that fails leaves the schema as it was). SQLite: ``BEGIN IMMEDIATE``, the file's
    write lock, waited for up to :data:`MIGRATION_WAIT_MS`."""
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    if engine.dialect.name == "sqlite":
        with engine.connect() as connection:
            # pysqlite opens no transaction before DDL: open one ourselves, taking the lock.
            connection.exec_driver_sql(f"PRAGMA busy_timeout={MIGRATION_WAIT_MS}")
            try:
                connection.exec_driver_sql("BEGIN IMMEDIATE")
                try:
                    config.attributes["connection"] = connection
                    command.upgrade(config, revision)
                except BaseException:
                    connection.connection.dbapi_connection.rollback()  # type: ignore[union-attr]
                    raise
                connection.connection.dbapi_connection.commit()  # type: ignore[union-attr]
            finally:
                connection.rollback()
                connection.exec_driver_sql(f"PRAGMA busy_timeout={busy_ms()}")
        return
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
