"""The play tables' store on PostgreSQL, called from the event loop.

A move at a table is small and frequent: the web server makes it with no thread and one round
trip. :class:`PgTables` keeps a few of psycopg's asynchronous connections per worker, in
autocommit, and makes each call one statement:

- a read is one ``SELECT``;
- a write is one ``UPDATE ... WHERE id = ? AND version = ?`` whose ``NOTIFY`` to the other
  workers is part of the same statement (``WITH u AS (UPDATE ... RETURNING id) SELECT
  pg_notify(...) FROM u``): it is sent, at the statement's commit, only if the row was written.

The version check is what keeps two workers from applying two moves at once; no transaction
spans a read and a write. :class:`PgListener` is the other half: a connection per worker that
``LISTEN``s and wakes that worker's watchers of a table.

The tables' writes are made with ``synchronous_commit = off``: a write is not waited for on the
disk, as SQLite's ``synchronous = NORMAL`` in WAL mode does not (the counter's setting). A crash
of the machine (not of the server) may lose the last fraction of a second of moves; the database
stays consistent. See docs/table.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from rebelote.metrics import STORE_ERRORS, STORE_SECONDS
from rebelote.numbers import is_digits
from rebelote.store.db import store_fault
from rebelote.store.play_tables import (
    KEEP,
    CodeTakenError,
    Keep,
    StoreDownError,
    StoredTable,
    StoredText,
    TableConflictError,
    TableDamagedError,
    TableExistsError,
    TableNotFoundError,
    TimersChange,
    moves_missing,
    new_table_id,
    normal_code,
    table_text,
    text_digest,
)

if TYPE_CHECKING:
    from psycopg import AsyncConnection
    from sqlalchemy import Engine

log = logging.getLogger("rebelote.store")

#: The channel a write's ``NOTIFY`` is sent on; its payload is ``'<table id> <version>'``, then,
#: for a write that only made moves of the deal in play, ``' <digest of the text written> <the
#: moves as JSON>'`` (:meth:`rebelote.table.Table.moves_after`): a worker that holds the
#: version before plays them and checks the digest, instead of reading the table. Any role of
#: the database may ``LISTEN``, so the payload holds nothing hidden: a write that deals a new
#: deal tells only its id and version (the seed stays in the table, which only the server's
#: role may read), and the other workers read the table.
CHANNEL: Final = "rebelote_tables"
#: The longest payload sent (PostgreSQL takes 8000 bytes); longer moves are left out.
MAX_PAYLOAD: Final = 7900
#: Connections a worker keeps for its tables' reads and writes.
POOL_SIZE: Final = 4
#: A connection idle for longer than this (seconds) is checked before use (the server may
#: have closed it meanwhile: a restart, an idle timeout).
PING_AFTER: Final = 10.0

#: A table and its moves since its snapshot, in one statement (one snapshot of the database:
#: a snapshot written meanwhile by another worker is seen whole or not at all).
_GET: Final = ("SELECT t.version, t.base, t.data, ARRAY(SELECT m.moves FROM play_moves m "
               "WHERE m.table_id = t.id AND m.version > t.base AND m.version <= t.version "
               "ORDER BY m.version) FROM play_tables t WHERE t.id = %s")
_BY_CODE: Final = "SELECT id FROM play_tables WHERE code = %s AND NOT over"
_EXISTS: Final = "SELECT 1 FROM play_tables WHERE id = %s"
_CREATE: Final = ("INSERT INTO play_tables (id, code, version, base, game, over, data, "
                  "created_at, updated_at, timers) VALUES (%s, %s, 1, 1, %s, false, %s, %s, %s, "
                  "%s)")
_PUT: Final = ("WITH u AS (UPDATE play_tables SET version = %(new)s, base = %(new)s, "
               "data = %(data)s, over = %(over)s, updated_at = %(at)s WHERE id = %(tid)s AND "
               "version = %(expected)s RETURNING id), "
               "d AS (DELETE FROM play_moves WHERE table_id IN (SELECT id FROM u)) "
               "SELECT pg_notify(%(channel)s, %(payload)s) FROM u")
_APPEND: Final = ("WITH u AS (UPDATE play_tables SET version = %(new)s, over = %(over)s, "
                  "updated_at = %(at)s WHERE id = %(tid)s AND version = %(expected)s "
                  "RETURNING id), "
                  "m AS (INSERT INTO play_moves (table_id, version, moves) "
                  "SELECT id, %(new)s, %(moves)s FROM u) "
                  "SELECT pg_notify(%(channel)s, %(payload)s) FROM u")
#: The stored timers with one worker's change made (:class:`TimersChange`: ``turn_set``,
#: ``turn``, ``turn_of``, ``leave`` the seats started and ``gone`` the seats stopped),
#: computed in the statement that writes them on the row it locks: another worker's leave
#: timers stay, and its clock of a later version than ``turn_of``.
_CHANGED: Final = (
    "(SELECT nullif((CASE WHEN l = '{}'::jsonb THEN b - 'leave' "
    "ELSE b || jsonb_build_object('leave', l) END)::text, '{}') FROM ("
    "SELECT CASE WHEN NOT %(turn_set)s THEN t "
    "WHEN %(turn_of)s::bigint IS NOT NULL AND CASE WHEN jsonb_typeof(t -> 'turn' -> 0) = "
    "'number' THEN (t -> 'turn' ->> 0)::numeric > %(turn_of)s::bigint ELSE false END THEN t "
    "WHEN %(turn)s::jsonb IS NULL THEN t - 'turn' "
    "ELSE t || jsonb_build_object('turn', %(turn)s::jsonb) END AS b, "
    "(CASE WHEN jsonb_typeof(t -> 'leave') = 'object' THEN t -> 'leave' ELSE '{}'::jsonb END "
    "|| %(leave)s::jsonb) - %(gone)s::text[] AS l "
    "FROM (SELECT coalesce(play_tables.timers::jsonb, '{}'::jsonb) AS t) s0) s1)")
_TIMERS: Final = f"UPDATE play_tables SET timers = {_CHANGED} WHERE id = %(tid)s"
#: The writes with the change of the table's timers, stored with the version they were set
#: for.
_PUT_TIMED: Final = _PUT.replace("SET version", f"SET timers = {_CHANGED}, version", 1)
_APPEND_TIMED: Final = _APPEND.replace("SET version", f"SET timers = {_CHANGED}, version", 1)
_PUT_EXPLAINED: Final = ("INSERT INTO table_explanations (table_id, deal, idx, data) "
                         "VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING")
_EXPLAINED: Final = ("SELECT idx, data FROM table_explanations WHERE table_id = %s AND deal = %s "
                     "ORDER BY idx")
_PUT_REPLAY: Final = ("INSERT INTO table_replays (table_id, deal, seat, data) "
                      "VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING")
_REPLAYS: Final = ("SELECT deal, seat, data FROM table_replays WHERE table_id = %s "
                   "ORDER BY deal, seat")
_TIMED: Final = "SELECT id, timers FROM play_tables WHERE timers IS NOT NULL AND NOT over"


def _change_args(change: TimersChange | Keep) -> dict[str, Any]:
    """The parameters of :data:`_CHANGED` for ``change`` (:data:`KEEP`: none written)."""
    if isinstance(change, Keep):
        return {}
    turn = change.turn
    return {"turn_set": not isinstance(turn, Keep),
            "turn": None if isinstance(turn, Keep) or turn is None else json.dumps(turn),
            "turn_of": change.turn_of,
            "leave": json.dumps({k: v for k, v in change.leave.items() if v is not None}),
            "gone": [k for k, v in change.leave.items() if v is None]}


def connect_args(engine: Engine) -> dict[str, Any]:
    """psycopg's connection arguments for the database of ``engine`` (host, port, user,
    password, database and options as the URL gives them)."""
    _, kwargs = engine.dialect.create_connect_args(engine.url)
    return {k: v for k, v in kwargs.items() if k != "context"}


class PgTables:
    """Play tables in PostgreSQL, called from the event loop (see the module's text). Every
    method is a coroutine; the connections belong to the loop that opened them."""

    def __init__(self, connect: Mapping[str, Any], size: int = POOL_SIZE) -> None:
        self._connect = dict(connect)
        options = str(self._connect.get("options") or "")
        self._connect["options"] = f"{options} -c synchronous_commit=off".strip()
        self._size = size
        self._idle: list[tuple[AsyncConnection[Any], float]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._slots = asyncio.Semaphore(size)

    def _own_loop(self) -> None:
        """Connections opened on another (finished) event loop are dropped."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            for conn, _ in self._idle:
                with contextlib.suppress(Exception):
                    conn.pgconn.finish()
            self._idle = []
            self._slots = asyncio.Semaphore(self._size)
            self._loop = loop

    @contextlib.asynccontextmanager
    async def _conn(self) -> AsyncIterator[AsyncConnection[Any]]:
        import psycopg

        self._own_loop()
        async with self._slots:
            conn = None
            while self._idle and conn is None:
                conn, used = self._idle.pop()
                if conn.closed or conn.broken:
                    conn = None
                elif time.monotonic() - used > PING_AFTER:
                    try:
                        await conn.execute("SELECT 1")
                    except psycopg.Error:
                        await _close(conn)
                        conn = None
            if conn is None:
                try:
                    conn = await psycopg.AsyncConnection.connect(**self._connect,
                                                                 autocommit=True)
                except psycopg.Error as e:
                    raise StoreDownError(str(e)) from e
            started = time.perf_counter()
            try:
                yield conn
            except BaseException as e:
                _timed(started, e if isinstance(e, psycopg.Error) else None)
                if conn.broken:
                    # lost: the server restarted, or dropped this worker's connections (an
                    # administrator, a failover), so the idle ones are most likely lost too:
                    # the next call (a read's second try) connects anew instead of finding
                    # them dead one by one
                    await _close(conn)
                    idle, self._idle = self._idle, []
                    for other, _ in idle:
                        await _close(other)
                elif conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    await _close(conn)  # cut in the middle of a statement
                else:
                    self._idle.append((conn, time.monotonic()))
                raise
            _timed(started, None)
            self._idle.append((conn, time.monotonic()))

    async def _read(self, query: str, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """One row of a read; tried a second time on a fresh connection if the first one was
        lost (a read changes nothing)."""
        rows = await self._rows(query, args, one=True)
        return rows[0] if rows else None

    async def _rows(self, query: str, args: tuple[Any, ...], one: bool = False
                    ) -> list[tuple[Any, ...]]:
        import psycopg

        for attempt in (1, 2):
            try:
                async with self._conn() as conn:
                    cur = await conn.execute(query, args)
                    if one:
                        row = await cur.fetchone()
                        return [] if row is None else [row]
                    return list(await cur.fetchall())
            except psycopg.OperationalError as e:
                if attempt == 2:
                    raise StoreDownError(str(e)) from e
        return []  # pragma: no cover  (the loop returns or raises)

    async def read(self, table_id: str) -> StoredText:
        """The table's version, its snapshot and the moves since (see
        :class:`~rebelote.store.play_tables.StoredText`), read in one statement;
        :class:`~rebelote.store.play_tables.TableDamagedError` when they are not all stored
        (it read again until the stack ran out)."""
        row = await self._read(_GET, (table_id,))
        if row is None:
            raise TableNotFoundError(table_id)
        version, base, data = int(row[0]), int(row[1]), str(row[2])
        moves = tuple(str(m) for m in row[3] or ())
        if len(moves) != version - base:
            raise TableDamagedError(table_id, moves_missing(base, version, len(moves)))
        return StoredText(version, base, data, moves)

    async def id_of_code(self, code: str) -> str:
        """The id of the table whose join code is ``code``."""
        row = await self._read(_BY_CODE, (normal_code(code),))
        if row is None:
            raise TableNotFoundError(code)
        return str(row[0])

    async def create(self, data: Mapping[str, Any], *, game: str, code: str,
                     timers: str | None = None, table_id: str | None = None) -> StoredTable:
        """Store a new table at version 1, with its ``timers``, under ``table_id`` if given
        (else a new id); :class:`TableExistsError` if a table has that id,
        :class:`CodeTakenError` if ``code`` is taken."""
        import psycopg

        chosen = table_id is not None
        table_id = table_id or new_table_id()
        now = datetime.now(UTC)
        try:
            async with self._conn() as conn:
                await conn.execute(_CREATE, (table_id, code, game, table_text(data), now,
                                             now, timers))
        except psycopg.errors.UniqueViolation as e:
            if chosen and await self._read(_EXISTS, (table_id,)) is not None:
                raise TableExistsError(table_id) from e
            raise CodeTakenError(code) from e
        except psycopg.OperationalError as e:
            raise StoreDownError(str(e)) from e
        return StoredTable(table_id, 1, data)

    async def append(self, table_id: str, expected: int, moves: str, *, over: bool,
                     digest: str | None = None, told: str | None = None,
                     timers: TimersChange | Keep = KEEP) -> int:
        """Add the moves that take the table from version ``expected`` to the next, and tell
        the other workers (``NOTIFY``, in the same statement, with the moves when ``digest``,
        the written table's, is given: see :data:`CHANNEL`). ``told``: the moves the
        ``NOTIFY`` carries, when not all of them may travel (a hidden choice: the other
        workers then find the digest differs and read the table)."""
        payload = f"{table_id} {expected + 1}"
        if digest is not None:
            full = f"{payload} {digest} {moves if told is None else told}"
            if len(full.encode()) <= MAX_PAYLOAD:
                payload = full
        return await self._write(_APPEND if timers is KEEP else _APPEND_TIMED, table_id,
                                 expected, {
            "new": expected + 1, "moves": moves, "over": over, "at": datetime.now(UTC),
            "tid": table_id, "expected": expected, "channel": CHANNEL, "payload": payload,
            **_change_args(timers)})

    async def change_timers(self, table_id: str, change: TimersChange) -> None:
        """Make ``change`` to the table's stored timers (what this worker changed), in one
        statement on the locked row: the rest of them is left as stored (another worker's
        leave timers)."""
        import psycopg

        try:
            async with self._conn() as conn:
                await conn.execute(_TIMERS, {"tid": table_id, **_change_args(change)})
        except psycopg.OperationalError as e:
            raise StoreDownError(str(e)) from e

    async def put_explanations(self, table_id: str, deal: int,
                               rows: Sequence[tuple[int, str]]) -> None:
        """Keep the explanations of the finished deal ``deal`` (see
        :meth:`~rebelote.store.play_tables.TableStore.put_explanations`): one statement per
        row, an index already stored left as it is."""
        import psycopg

        try:
            async with self._conn() as conn, conn.cursor() as cur:
                await cur.executemany(_PUT_EXPLAINED,
                                      [(table_id, deal, i, text) for i, text in rows])
        except psycopg.OperationalError as e:
            raise StoreDownError(str(e)) from e

    async def explanations(self, table_id: str, deal: int) -> list[tuple[int, str]]:
        """The stored explanations of deal ``deal``, in the order of its actions."""
        return [(int(r[0]), str(r[1])) for r in await self._rows(_EXPLAINED, (table_id, deal))]

    async def put_replay(self, table_id: str, deal: int, seat: int, data: str) -> None:
        """Keep *le robot à votre place* of the finished deal ``deal`` at ``seat`` (see
        :meth:`~rebelote.store.play_tables.TableStore.put_replay`): one already stored left as
        it is."""
        import psycopg

        try:
            async with self._conn() as conn:
                await conn.execute(_PUT_REPLAY, (table_id, deal, seat, data))
        except psycopg.OperationalError as e:
            raise StoreDownError(str(e)) from e

    async def replays(self, table_id: str) -> list[tuple[int, int, str]]:
        """The stored replays of the table's finished deals, by deal and seat."""
        return [(int(r[0]), int(r[1]), str(r[2]))
                for r in await self._rows(_REPLAYS, (table_id,))]

    async def timed(self) -> list[tuple[str, str]]:
        """The tables not over whose timers run."""
        return [(str(r[0]), str(r[1])) for r in await self._rows(_TIMED, ())]

    async def _write(self, query: str, table_id: str, expected: int, args: Mapping[str, Any]
                     ) -> int:
        import psycopg

        try:
            async with self._conn() as conn:
                cur = await conn.execute(query, args)
                done = cur.rowcount
        except psycopg.OperationalError as e:
            raise StoreDownError(str(e)) from e
        if done != 1:
            if await self._read(_EXISTS, (table_id,)) is None:
                raise TableNotFoundError(table_id)
            raise TableConflictError(table_id, expected)
        return expected + 1

    async def put(self, table_id: str, expected: int, data: Mapping[str, Any], *, over: bool,
                  moves: str | None = None, timers: TimersChange | Keep = KEEP) -> int:
        """Replace the table if still at version ``expected``, and tell the other workers
        (``NOTIFY``, in the same statement, with ``moves`` if given: see :data:`CHANNEL`):
        answers the new version, ``expected + 1``. :class:`TableConflictError` if another
        write came first."""
        text = table_text(data)
        payload = f"{table_id} {expected + 1}"
        if moves is not None:
            full = f"{payload} {text_digest(text)} {moves}"
            if len(full.encode()) <= MAX_PAYLOAD:
                payload = full
        args = {"new": expected + 1, "data": text, "over": over,
                "at": datetime.now(UTC), "tid": table_id, "expected": expected,
                "channel": CHANNEL, "payload": payload, **_change_args(timers)}
        return await self._write(_PUT if timers is KEEP else _PUT_TIMED, table_id, expected,
                                 args)

    async def close(self) -> None:
        """Close the idle connections (the server stops)."""
        idle, self._idle = self._idle, []
        if self._loop is asyncio.get_running_loop():
            for conn, _ in idle:
                await _close(conn)
        else:
            for conn, _ in idle:
                with contextlib.suppress(Exception):
                    conn.pgconn.finish()


def _timed(started: float, error: BaseException | None) -> None:
    """A call of the tables' connections in the store's metrics (docs/ops-metrics.md)."""
    STORE_SECONDS.labels("postgresql", "tables_pg").observe(time.perf_counter() - started)
    if error is not None:
        STORE_ERRORS.labels("postgresql", store_fault(error) or "other").inc()


class PgListener:
    """A task of the event loop that ``LISTEN``s on PostgreSQL and calls ``changed(table_id,
    version, digest, moves)`` for every table a worker writes (its own writes included; the
    last two ``None`` when the payload has no moves, see :data:`CHANNEL`), connecting again
    after a lost connection. A ``NOTIFY`` sent while it was not listening is lost: each time it
    listens again it awaits ``caught_up()``, which learns what it missed."""

    def __init__(self, connect: Mapping[str, Any],
                 changed: Callable[[str, int, str | None, str | None], None],
                 caught_up: Callable[[], Awaitable[None]] | None = None) -> None:
        self._connect = dict(connect)
        self._changed = changed
        self._caught_up = caught_up
        self._task: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="pg-listen")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None

    async def _run(self) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(**self._connect,
                                                                 autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if self._caught_up is not None:
                        await self._caught_up()
                    async for note in conn.notifies():
                        parts = note.payload.split(" ", 3)
                        if len(parts) >= 2 and is_digits(parts[1]):
                            digest, moves = (parts[2], parts[3]) if len(parts) == 4 \
                                else (None, None)
                            self._changed(parts[0], int(parts[1]), digest, moves)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the server went away: listen again in a moment
                self.listening.clear()
                log.warning("LISTEN %s: %s; trying again", CHANNEL, e)
                await asyncio.sleep(1)


async def _close(conn: AsyncConnection[Any]) -> None:
    with contextlib.suppress(Exception):
        await conn.close()


__all__ = ["CHANNEL", "PgListener", "PgTables", "connect_args"]
