"""The tables' repository: the last tables used kept replayed in memory, each checked against
its stored version, read and written through the store, and the watchers of a table woken at
every change (lila's ``GameProxy`` over ``GameRepo``).

A write is what it adds: the moves of the deal in play are appended to the table's stored
moves (:meth:`~rebelote.store.play_tables.TableStore.append`, a few bytes); a new deal, a change of
seats or settings writes the whole table again as a new snapshot. A table is read as its
snapshot and the moves since, parsed and replayed off the event loop (a long game takes
seconds to replay; the loop serves everyone else meanwhile) and only when this version is not
the one held (a version is written once: its table never changes).

Watchers (the WebSockets) wait on an in-process event per table; with PostgreSQL every write
also sends ``NOTIFY rebelote_tables, '<id> <version>'`` so the other workers wake theirs
(:class:`~rebelote.store.play_tables_pg.PgListener`); for appended moves the payload also carries
them and the written table's digest, and a worker that holds the version before plays them
instead of reading the table. A new deal's seed never travels in a ``NOTIFY``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rebelote.errors import RebeloteError
from rebelote.store.db import in_store_thread
from rebelote.store.play_tables import (
    KEEP,
    Keep,
    StoreDamagedError,
    StoreDownError,
    StoredTable,
    StoredText,
    TableDamagedError,
    TableNotFoundError,
    Tables,
    TableStore,
    TimersChange,
    table_text,
    text_digest,
)
from rebelote.table import Table
from rebelote.table.model import DECLINE
from rebelote.tableserver.clock import Timers

log = logging.getLogger("rebelote.table")

#: Tables kept replayed in memory (the ones used last).
CACHE_SIZE: Final = 512
#: Seat views kept encoded, by table, version and seat (the action's answer and the socket's
#: push of the same seat are then built and encoded once).
VIEW_CACHE_SIZE: Final = 1024


@dataclass(frozen=True, slots=True)
class Loaded:
    """A table at a stored version."""

    id: str
    version: int
    table: Table
    code: str


class LocalTables:
    """A :class:`TableStore` (SQLAlchemy; SQLite) called in the SQLite stores' one thread: the
    event loop never waits on the file (a lock another process holds, a slow disk)."""

    def __init__(self, store: TableStore) -> None:
        self.store = store

    async def read(self, table_id: str) -> StoredText:
        return await in_store_thread(self.store.read, table_id)

    async def id_of_code(self, code: str) -> str:
        return await in_store_thread(self.store.id_of_code, code)

    async def create(self, data: Mapping[str, Any], *, game: str, code: str,
                     timers: str | None = None, table_id: str | None = None) -> StoredTable:
        return await in_store_thread(self.store.create, data, game=game, code=code,
                                     timers=timers, table_id=table_id)

    async def put(self, table_id: str, expected: int, data: Mapping[str, Any], *, over: bool,
                  moves: str | None = None, timers: TimersChange | Keep = KEEP) -> int:
        return await in_store_thread(self.store.put, table_id, expected, data, over=over,
                                     timers=timers)

    async def append(self, table_id: str, expected: int, moves: str, *, over: bool,
                     digest: str | None = None, told: str | None = None,
                     timers: TimersChange | Keep = KEEP) -> int:
        return await in_store_thread(self.store.append, table_id, expected, moves, over=over,
                                     timers=timers)

    async def change_timers(self, table_id: str, change: TimersChange) -> None:
        await in_store_thread(self.store.change_timers, table_id, change)

    async def put_explanations(self, table_id: str, deal: int,
                               rows: Sequence[tuple[int, str]]) -> None:
        await in_store_thread(self.store.put_explanations, table_id, deal, rows)

    async def explanations(self, table_id: str, deal: int) -> list[tuple[int, str]]:
        return await in_store_thread(self.store.explanations, table_id, deal)

    async def put_replay(self, table_id: str, deal: int, seat: int, data: str) -> None:
        await in_store_thread(self.store.put_replay, table_id, deal, seat, data)

    async def replays(self, table_id: str) -> list[tuple[int, int, str]]:
        return await in_store_thread(self.store.replays, table_id)

    async def timed(self) -> list[tuple[str, str]]:
        return await in_store_thread(self.store.timed)

    async def close(self) -> None:
        await in_store_thread(self.store.close)


def replay(text: StoredText, known: Table | None, known_version: int | None) -> Table:
    """The table ``text`` holds: its snapshot (replayed after ``known``, an earlier version of
    the same table held in memory, when it goes on from it), then each stored move. When
    ``known`` is at or after the snapshot only the moves after it are played.
    :class:`StoreDamagedError` when the stored text does not replay."""
    try:
        if known is not None and known_version is not None and text.base <= known_version:
            table = known
            moves = text.moves[known_version - text.base:]
        else:
            table = Table.from_json(json.loads(text.data), known=known)
            table.replay  # noqa: B018  (replayed here, off the event loop, not when first read)
            moves = text.moves
        for m in moves:
            after = table.with_moves(json.loads(m))
            if after is None:
                raise StoreDamagedError("the stored moves do not replay on the table")
            table = after
    except (RebeloteError, ValueError, KeyError, TypeError) as e:
        raise StoreDamagedError(f"a stored table does not replay: {e}") from e
    return table


class TableRepo:
    """Tables in a store, the last ones kept replayed in memory (checked against the stored
    version), watchers woken on every change. ``shared``: other workers write the same tables
    (PostgreSQL) and tell of their writes (:meth:`changed`)."""

    def __init__(self, db: Tables, *, shared: bool = False) -> None:
        self.db = db
        self.shared = shared
        self._cache: OrderedDict[str, tuple[int, Table]] = OrderedDict()
        self._views: OrderedDict[tuple[str, int, int, int], str] = OrderedDict()
        self._versions: dict[str, int] = {}
        self._watchers: dict[str, set[asyncio.Event]] = {}
        #: Called with (table id, version) after every change this worker learns of (the bot
        #: runner stops the decisions the table moved on from).
        self.on_change: list[Callable[[str, int], None]] = []
        #: Told of each table this worker saved: its id, the table before and after.
        self.on_saved: list[Callable[[str, Table, Table], None]] = []
        #: The tables' timers, written with each write of a table (the turn clock it starts
        #: stored with its version); ``None``: the writes leave the stored timers alone.
        self.timers: Timers | None = None

    # -- reading ------------------------------------------------------------------------------
    async def id_of_code(self, code: str) -> str:
        return await self.db.id_of_code(code)

    async def load(self, table_id: str) -> Loaded:
        """The table as stored now: from memory if this version is held, else replayed off the
        event loop (after the version held, when there is one)."""
        text = await self.db.read(table_id)
        return await self._loaded(table_id, text)

    async def _loaded(self, table_id: str, text: StoredText) -> Loaded:
        table = self.cached(table_id, text.version)
        if table is None:
            hit = self._cache.get(table_id)
            known, known_version = (hit[1], hit[0]) if hit is not None and \
                hit[0] < text.version else (None, None)
            try:
                table = await asyncio.to_thread(replay, text, known, known_version)
            except StoreDamagedError as e:  # this table's rows, not the store: named
                raise TableDamagedError(table_id, str(e)) from e
            self._put_cache(table_id, text.version, table)
        return Loaded(table_id, text.version, table, table.code)

    def cached(self, table_id: str, version: int) -> Table | None:
        """The table at ``version`` if it is the one this worker holds."""
        hit = self._cache.get(table_id)
        if hit is None or hit[0] != version:
            return None
        self._cache.move_to_end(table_id)
        return hit[1]

    def latest_cached(self, table_id: str) -> Loaded | None:
        """The table at the latest version this worker knows of, if it holds it."""
        version = self._versions.get(table_id)
        table = self.cached(table_id, version) if version is not None else None
        return None if table is None or version is None else \
            Loaded(table_id, version, table, table.code)

    async def load_latest(self, table_id: str) -> Loaded:
        """The table at the latest version this worker knows of (its own writes, and the
        others' through NOTIFY) from memory when it is there, else as stored."""
        return self.latest_cached(table_id) or await self.load(table_id)

    def known_version(self, table_id: str) -> int:
        """The newest version of ``table_id`` this worker knows of (0: none)."""
        return self._versions.get(table_id, 0)

    def _put_cache(self, table_id: str, version: int, table: Table) -> None:
        hit = self._cache.get(table_id)
        if hit is None or hit[0] <= version:
            self._cache[table_id] = (version, table)
            self._cache.move_to_end(table_id)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        if self._versions.get(table_id, 0) < version:
            self._versions[table_id] = version

    # -- writing ------------------------------------------------------------------------------
    async def create(self, table: Table, table_id: str | None = None) -> Loaded:
        """Store the new ``table`` (under ``table_id`` if given: a room's next game, named by
        its finished table before it is made)."""
        turn, timers = self.timers.for_write(None, 1, table) if self.timers else (None, KEEP)
        stored = await self.db.create(table.to_json(), game=table.rules.game, code=table.code,
                                      timers=None if isinstance(timers, Keep)
                                      else timers.applied(None),
                                      table_id=table_id)
        if self.timers:
            self.timers.written(stored.id, turn)
        self._put_cache(stored.id, stored.version, table)
        return Loaded(stored.id, stored.version, table, table.code)

    async def save(self, loaded: Loaded, table: Table) -> Loaded:
        """Write ``table`` over ``loaded`` if the table is still at ``loaded.version``
        (:class:`~rebelote.store.play_tables.TableConflictError` otherwise): the moves of the deal
        in play appended, anything else as a new snapshot; the table's timers with it, the
        turn clock this version starts included (:meth:`Timers.for_write`)."""
        turn, timers = (self.timers.for_write(loaded.id, loaded.version + 1, table)
                        if self.timers else (None, KEEP))
        moves = table.moves_after(loaded.table)
        if moves is not None and not moves.get("d"):
            text = json.dumps(moves, separators=(",", ":"))
            digest = text_digest(table_text(table.to_json())) if self.shared else None
            # a hidden choice (declining one's declarations) never travels in a NOTIFY, which
            # any database role may LISTEN to: the card that came with it does, and the other
            # workers, finding the digest differs, read the table
            public = [a for a in moves["a"] if a != DECLINE]
            told = None if len(public) == len(moves["a"]) else json.dumps(
                {"a": public}, separators=(",", ":"))
            version = await self.db.append(loaded.id, loaded.version, text,
                                           over=table.is_over, digest=digest, told=told,
                                           timers=timers)
        else:
            version = await self.db.put(loaded.id, loaded.version, table.to_json(),
                                        over=table.is_over, timers=timers)
        if self.timers:
            self.timers.written(loaded.id, turn)
        self._put_cache(loaded.id, version, table)
        self.changed(loaded.id, version)
        for call in self.on_saved:
            call(loaded.id, loaded.table, table)
        return Loaded(loaded.id, version, table, loaded.code)

    # -- watchers -----------------------------------------------------------------------------
    def changed(self, table_id: str, version: int, digest: str | None = None,
                moves: str | None = None) -> None:
        """Wake whoever watches ``table_id`` (this worker's sockets). ``digest`` and ``moves``
        (another worker's ``NOTIFY``): when this worker holds the version before and watches
        the table, it plays the moves and keeps the table if its text has that digest."""
        if digest is not None and moves is not None and table_id in self._watchers:
            self._play_moves(table_id, version, digest, moves)
        if self._versions.get(table_id, 0) < version:
            self._versions[table_id] = version
        for wake in self._watchers.get(table_id, ()):
            wake.set()
        for call in self.on_change:
            call(table_id, version)

    def _play_moves(self, table_id: str, version: int, digest: str, moves: str) -> None:
        hit = self._cache.get(table_id)
        if hit is None or hit[0] != version - 1:
            return
        try:
            told = json.loads(moves)
            actions = list(told["a"])
        except Exception:  # moves that cannot be read: the table is read instead
            actions = None
        # the moves as told, else with a decline (never told: a hidden choice) before one of
        # them; the digest says which is the table written
        tries = [] if actions is None else [actions] + [
            [*actions[:i], DECLINE, *actions[i:]] for i in range(len(actions))]
        for attempt in tries:
            try:
                table = hit[1].with_moves({"a": attempt})
            except Exception:  # moves that cannot be played
                table = None
            if table is not None and text_digest(table_text(table.to_json())) == digest:
                self._put_cache(table_id, version, table)
                return
        log.info("table %s: the moves told for version %d do not give the table written; it "
                 "is read instead", table_id, version)

    def watch(self, table_id: str) -> asyncio.Event:
        """An event set at every change of ``table_id`` (:meth:`unwatch` when done)."""
        wake = asyncio.Event()
        self._watchers.setdefault(table_id, set()).add(wake)
        return wake

    def unwatch(self, table_id: str, wake: asyncio.Event) -> None:
        watchers = self._watchers.get(table_id)
        if watchers is not None:
            watchers.discard(wake)
            if not watchers:
                del self._watchers[table_id]

    def wake(self, table_id: str) -> None:
        """Wake the sockets of ``table_id`` with no change of the table (they check what
        else they show: how many watch)."""
        for wake in self._watchers.get(table_id, ()):
            wake.set()

    def watched(self) -> list[str]:
        return list(self._watchers)

    async def catch_up(self) -> None:
        """Read the version of every table watched on this worker and wake the watchers of
        those that moved on: what the other workers' ``NOTIFY`` would have said while this
        worker was not listening (PostgreSQL's listener calls it each time it listens again)."""
        for table_id in self.watched():
            try:
                text = await self.db.read(table_id)
                if text.version > self._versions.get(table_id, 0):
                    await self._loaded(table_id, text)
                    self.changed(table_id, text.version)
            except (TableNotFoundError, StoreDownError):
                continue
            except Exception:  # one table that cannot be read holds up none of the others
                log.exception("catching up with table %s", table_id)

    # -- views --------------------------------------------------------------------------------
    def view_text(self, loaded: Loaded, seat: int, make: Callable[[], dict[str, Any]],
                  extra: int = 0) -> str:
        """``make()`` as JSON text, built and encoded once per table version, seat and
        ``extra`` (what else it shows: how many watch)."""
        key = (loaded.id, loaded.version, seat, extra)
        out = self._views.get(key)
        if out is None:
            out = json.dumps(make(), ensure_ascii=False, allow_nan=False,
                             separators=(",", ":"))
            self._views[key] = out
            while len(self._views) > VIEW_CACHE_SIZE:
                self._views.popitem(last=False)
        return out


__all__ = ["CACHE_SIZE", "Loaded", "LocalTables", "TableRepo", "replay"]
