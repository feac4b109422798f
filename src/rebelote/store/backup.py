"""Backups and restores of a store, while the server runs (issue 36, item 2).

A backup is **one SQLite file** whatever the database: it holds every table of the store at its
schema revision (``alembic_version`` included), as they were at one moment.

- From SQLite: SQLite's online backup API (``sqlite3.Connection.backup``), in one step: the
  copy is the database as it was when the step's read transaction began; the server's writes
  go on meanwhile (WAL) and are not in it.
- From PostgreSQL: a logical dump through SQLAlchemy, every table read in **one
  ``REPEATABLE READ`` read-only transaction** (one snapshot: a write committed after its first
  query is in no table of the copy, one committed before is in all), written into a new SQLite
  file migrated to the same revision. No ``pg_dump`` needed, whose version must match the
  server's; the copy restores into SQLite as well as into PostgreSQL.

A restore copies the backup's rows into a database that has none (it refuses one that has
rows unless ``force``, which first drops the store's tables there), at the backup's revision,
in one transaction, then migrates it to the head: a backup taken by an older version restores
into a newer one.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from sqlalchemy import (
    Connection,
    DateTime,
    Engine,
    MetaData,
    Table,
    create_engine,
    inspect,
    select,
    text,
)
from sqlalchemy.engine import make_url

from rebelote.store.db import make_engine, migrate
from rebelote.store.models import Base

#: Rows read and written at a time while copying a table.
CHUNK: Final = 1000
#: The table alembic keeps the schema's revision in.
VERSION_TABLE: Final = "alembic_version"


class BackupError(Exception):
    """A backup or a restore refused: ``option`` names the command-line option or argument at
    fault (``--db``, ``FILE``), ``reason`` says why."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"{option}: {reason}")
        self.option = option
        self.reason = reason


@dataclass(frozen=True)
class Copied:
    """What a backup or a restore copied: the schema's revision and the rows of each table."""

    revision: str
    rows: dict[str, int]

    def describe(self) -> str:
        """``revision 0006: counter_games 12, play_tables 3, ...``."""
        counts = ", ".join(f"{name} {n}" for name, n in sorted(self.rows.items()))
        return f"schema {self.revision}: {counts or 'no rows'}"


def sqlite_path(url: str) -> str | None:
    """The file of an SQLite URL, ``None`` for another database (``BackupError`` for SQLite in
    memory: nothing outlives the process to back up or restore into)."""
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        raise BackupError("--db", f"{url!r} is not a database URL (like sqlite:///club.sqlite3 "
                                  "or postgresql+psycopg://host/db)") from None
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if database in ("", ":memory:") or database.startswith("file:"):
        raise BackupError("--db", f"{url!r} is an in-memory database: name a file "
                                  "(sqlite:///club.sqlite3)")
    return str(Path(database).expanduser())


def backup(url: str, file: Path, *, force: bool = False) -> Copied:
    """Copy the store at ``url`` into the new SQLite file ``file`` (replaced only if ``force``),
    consistent at one moment while the server writes. The file is written beside its final
    name, then renamed: a backup cut short leaves no half file under that name."""
    if file.exists() and not force:
        raise BackupError("FILE", f"{str(file)!r} exists: name a new file, or --force to "
                                  "replace it")
    if not file.parent.is_dir():
        raise BackupError("FILE", f"{str(file.parent)!r} is not a folder")
    partial = file.with_name(f".{file.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        path = sqlite_path(url)
        if path is not None:
            if not Path(path).is_file():
                raise BackupError("--db", f"{path!r}: no such database file")
            _sqlite_backup(path, partial)
        else:
            _logical_backup(url, partial)
        copied = read_backup(partial)
        os.replace(partial, file)
    finally:
        partial.unlink(missing_ok=True)
    return copied


def _sqlite_backup(path: str, partial: Path) -> None:
    """SQLite's online backup, all pages in one step (one read transaction: one moment)."""
    source = sqlite3.connect(path, timeout=30)  # it only reads
    try:
        if _sqlite_tables(source) is None:
            raise BackupError("--db", f"{path!r} is not a rebelote database (no "
                                      f"{VERSION_TABLE} table)")
        target = sqlite3.connect(partial)
        try:
            source.backup(target)
            # the copy keeps no journal of its own (WAL is a property of the file)
            target.execute("PRAGMA journal_mode=DELETE")
        finally:
            target.close()
    except sqlite3.DatabaseError as e:
        raise BackupError("--db", f"{path!r}: {e}") from None
    finally:
        source.close()


def _sqlite_tables(conn: sqlite3.Connection) -> list[str] | None:
    names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    return names if VERSION_TABLE in names else None


def _logical_backup(url: str, partial: Path) -> None:
    """Every table of the store at ``url``, read in one repeatable-read transaction."""
    source = _open(url)
    target = create_engine(f"sqlite:///{partial}")
    try:
        with source.connect() as conn:
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                if source.dialect.name == "postgresql":
                    conn.execute(text("SET TRANSACTION READ ONLY"))
                revision = _revision(conn)
                if revision is None:
                    raise BackupError("--db", "not a rebelote database (no "
                                              f"{VERSION_TABLE} table)")
                _migrate(target, revision, "--db")
                with target.begin() as out:
                    _copy_tables(conn, out)
    finally:
        source.dispose()
        target.dispose()


def _migrate(engine: Engine, revision: str, option: str) -> None:
    """The schema at ``revision`` (``BackupError`` naming ``option`` for a revision this
    version does not know: a database or a backup of a newer version)."""
    from alembic.util import CommandError

    try:
        migrate(engine, revision)
    except CommandError as e:
        raise BackupError(option, f"schema {revision} is unknown to this version of rebelote "
                                  f"(a newer one wrote it?): {e}") from None


def _open(url: str) -> Engine:
    """An engine on ``url`` that has answered (``BackupError`` naming ``--db`` otherwise)."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    try:
        engine = make_engine(url)
        engine.connect().close()
    except ArgumentError:
        raise BackupError("--db", f"{url!r} is not a database URL (like "
                                  "sqlite:///club.sqlite3 or postgresql+psycopg://host/db)"
                          ) from None
    except (SQLAlchemyError, OSError, ImportError) as e:
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise BackupError("--db", f"cannot open {shown(url)!r}: {reason}") from None
    return engine


def shown(url: str) -> str:
    """``url`` without its password."""
    return make_url(url).render_as_string(hide_password=True)


def _revision(conn: Connection) -> str | None:
    if VERSION_TABLE not in inspect(conn).get_table_names():
        return None
    found = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    return None if found is None else str(found)


#: The tables of the site's limits on PostgreSQL (``rebelote.web.limits.SqlLimitStore``:
#: ``rebelote_limit_rates``, ``rebelote_limit_holds``): counts of the last minutes and of the
#: sockets open now, made by the server at start, never data to back up.
TRANSIENT_PREFIX: Final = "rebelote_limit_"


def _store_tables(conn: Connection) -> list[Table]:
    """The store's tables as the database has them, the version table and the limits'
    counters aside."""
    meta = MetaData()
    meta.reflect(conn)
    return [t for name, t in sorted(meta.tables.items())
            if name != VERSION_TABLE and not name.startswith(TRANSIENT_PREFIX)]


def _copy_tables(source: Connection, target: Connection) -> dict[str, int]:
    """Every row of every table of ``source`` into the same tables of ``target``."""
    into = {t.name: t for t in _store_tables(target)}
    counts: dict[str, int] = {}
    for table in _store_tables(source):
        if table.name not in into:
            raise BackupError("FILE", f"table {table.name!r} is unknown to the schema "
                                      "it names")
        dest = into[table.name]
        times = [c.name for c in dest.columns if isinstance(c.type, DateTime)]
        order = list(table.primary_key.columns) or list(table.columns)
        counts[table.name] = 0
        for chunk in _chunks(source.execute(select(table).order_by(*order)).mappings()):
            rows = [_in_utc(dict(row), times) for row in chunk]
            target.execute(dest.insert(), rows)
            counts[table.name] += len(rows)
    return counts


def _chunks(rows: Any) -> Iterator[list[Any]]:
    while True:
        chunk = rows.fetchmany(CHUNK)
        if not chunk:
            return
        yield chunk


def _in_utc(row: dict[str, Any], times: list[str]) -> dict[str, Any]:
    """The store writes its times in UTC; SQLite gives them back without their zone."""
    for name in times:
        moment = row.get(name)
        if isinstance(moment, datetime):
            row[name] = (moment.replace(tzinfo=UTC) if moment.tzinfo is None
                         else moment.astimezone(UTC))
    return row


def read_backup(file: Path) -> Copied:
    """What the backup ``file`` holds (``BackupError`` naming ``FILE`` if it is none)."""
    if not file.is_file():
        raise BackupError("FILE", f"{str(file)!r}: no such file")
    try:
        conn = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
        try:
            names = _sqlite_tables(conn)
            if names is None:
                raise BackupError("FILE", f"{str(file)!r} is not a rebelote backup (an SQLite "
                                          f"file with an {VERSION_TABLE} table)")
            row = conn.execute(f"SELECT version_num FROM {VERSION_TABLE}").fetchone()
            rows = {n: int(conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0])
                    for n in names if n != VERSION_TABLE and not n.startswith("sqlite_")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise BackupError("FILE", f"{str(file)!r} is not a rebelote backup: {e}") from None
    if row is None:
        raise BackupError("FILE", f"{str(file)!r} is not a rebelote backup (no revision)")
    return Copied(str(row[0]), rows)


def restore(file: Path, url: str, *, force: bool = False) -> Copied:
    """The backup ``file`` into the database at ``url``, which must hold no rows of the store
    (``force``: its tables are dropped first), then migrated to the head."""
    held = read_backup(file)
    sqlite_path(url)  # refuses SQLite in memory
    target = _open(url)
    source = create_engine("sqlite://", creator=lambda: sqlite3.connect(
        f"file:{file}?mode=ro", uri=True, check_same_thread=False))
    # the store's tables only: another program's tables in the same database are neither
    # looked at nor dropped
    ours = set(held.rows) | set(Base.metadata.tables) | {VERSION_TABLE}
    try:
        with target.connect() as conn:
            existing = [t for t in _store_tables(conn) if t.name in ours]
            rows = {t.name: conn.execute(select(t).limit(1)).first() is not None
                    for t in existing}
            conn.rollback()
        full = sorted(name for name, some in rows.items() if some)
        if full and not force:
            raise BackupError("--db", f"{shown(url)!r} is not empty (rows in "
                                      f"{', '.join(full)}): restore into a new database, or "
                                      "--force to replace what it holds")
        with target.begin() as conn:
            meta = MetaData()
            meta.reflect(conn, only=lambda name, _meta: name in ours)
            meta.drop_all(conn)
        _migrate(target, held.revision, "FILE")
        with source.connect() as src, target.begin() as dest:
            counts = _copy_tables(src, dest)
        _migrate(target, "head", "--db")
    finally:
        source.dispose()
        target.dispose()
    return Copied(held.revision, counts)


__all__ = ["BackupError", "Copied", "backup", "read_backup", "restore", "shown", "sqlite_path"]
