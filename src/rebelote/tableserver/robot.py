"""Le robot à votre place at the play table: after each finished deal, the deal played again
with the table's level in each human's seat (:class:`rebelote.table.robot.RobotReplay`), in
the bots' pool, served last (:meth:`~rebelote.tableserver.bots.BotRunner.run_last`: as far
as a replay can go a job, taken only when no live decision waits for a worker, and giving its
worker up between two worlds to one that comes), never delaying the next
deal; the comparison is given out on the deal's analysis page and API, which serve finished
deals only (it holds the deal's hidden cards).

The replay of the deal in play starts *ahead*, at each save of the table (:meth:`Robots.saved`):
the level's choice at the human's turn is made while the human thinks, and once the human's
move differs from it the rest of the replay is played, work served after the deals' ends'
replays; it is kept in this worker's memory, never given out, until the deal is over.

Once done, a deal's comparison is stored with the table (``table_replays``, one row per deal
and human seat, :meth:`Robots.stored`), and read back there after a restart or by another
worker; the memory of the worker stays its cache, for the last :data:`KEPT_DEALS` deals of the
last :func:`kept_tables` tables. A deal never replayed (the worker stopped before its replay
was done, or too many waited) shows no comparison, and the game's running sum counts the deals
replayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections import OrderedDict
from typing import Any, Final

from rebelote.store.play_tables import Tables
from rebelote.table.model import Table
from rebelote.table.robot import RobotReplay
from rebelote.tableserver.bots import CLIENT, BotRunner, client_key

__all__ = ["KEPT_DEALS", "KEPT_TABLES", "KEPT_TABLES_ENV", "PENDING", "PENDING_ENV",
           "PER_CLIENT", "PER_CLIENT_ENV",
           "REPLAY_BYTES", "REPLAY_BYTES_ENV", "Robots", "kept_tables"]

log = logging.getLogger("rebelote.table")

#: The tables whose replays a worker keeps (the most recent), by default, and the environment
#: variable that changes it (1 to 100,000).
KEPT_TABLES: Final = 500
KEPT_TABLES_ENV: Final = "REBELOTE_ROBOT_TABLES"
#: The deals kept a table (the last ones): more than a game's deals at every target offered.
KEPT_DEALS: Final = 64
#: Replays of finished deals waiting for the bots to be free, at most (more: a deal's end is
#: not replayed, and the log says so), and the environment variable that changes it (0 to
#: 100,000; 0: no replays at all).
PENDING: Final = 256
PENDING_ENV: Final = "REBELOTE_ROBOT_PENDING"
#: ... of them, at most, whose deal's end one client's move made (its address: a player who ends
#: many deals at once, or a script, takes no more of the bots' free time after it; a club's
#: tables behind one address end far fewer deals at once), and the variable (1 to 100,000).
PER_CLIENT: Final = 32
PER_CLIENT_ENV: Final = "REBELOTE_ROBOT_PER_CLIENT"
#: The longest comparison (JSON bytes) stored with a deal, by default, and the environment
#: variable that changes it (1,024 to 100,000): one is about 400 bytes (two marks, two
#: actions, four costs, the level's spec); a longer one stays in memory only.
REPLAY_BYTES: Final = 4_096
REPLAY_BYTES_ENV: Final = "REBELOTE_ROBOT_BYTES"
#: Seconds between two reads of a table's stored replays for its running sum (a replay another
#: worker stored meanwhile), at the most often.
REREAD_SECONDS: Final = 10.0
#: ... for a deal's comparison not held (its analysis page asked again and again while it is
#: not ready).
AGAIN_SECONDS: Final = 1.0


def _env(name: str, default: int, least: int = 1) -> int:
    try:
        value = int(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if least <= value <= 100_000 else default


def kept_tables() -> int:
    return _env(KEPT_TABLES_ENV, KEPT_TABLES)


def _client(key: tuple[str, int, int]) -> str:
    """The bots' pool's client of the replay ``key`` (each its own: its job ahead can be
    promoted when its deal ends: :meth:`~rebelote.tableserver.bots.BotRunner.promote`)."""
    table_id, n, seat = key
    return f"(replay {table_id} {n} {seat})"


class Robots:
    """This worker's replays: table id -> deal number -> seat -> the comparison
    (:meth:`RobotReplay.result`)."""

    def __init__(self, runner: BotRunner, db: Tables | None = None,
                 tables: int | None = None) -> None:
        self.runner = runner
        #: the store the replays are written to and read from (None: memory only)
        self.db = db
        self.bytes = _env(REPLAY_BYTES_ENV, REPLAY_BYTES, least=1_024)
        #: table id -> (its finished deals, the moment) when its stored replays were last read
        self._read: OrderedDict[str, tuple[int, float]] = OrderedDict()
        self.tables = tables or kept_tables()
        self._kept: OrderedDict[str, dict[int, dict[int, dict[str, Any]]]] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        #: the replays under way (the deal in play, or finished and not replayed yet), by
        #: (table, deal, seat), the one saved longest ago first: at most ``tables``
        self._replays: OrderedDict[tuple[str, int, int], RobotReplay] = OrderedDict()
        #: ... of them, those whose deal is over (at most ``pending``), and the task stepping
        #: each one (one at a time)
        self._ended: dict[tuple[str, int, int], str] = {}
        #: ... counted by the client whose move ended their deal (:data:`CLIENT`; its table
        #: when none): at most ``per_client`` each
        self._by_client: dict[str, int] = {}
        self.per_client = _env(PER_CLIENT_ENV, PER_CLIENT)
        self._running: dict[tuple[str, int, int], tuple[asyncio.Task[None], RobotReplay]] = {}
        self.pending = _env(PENDING_ENV, PENDING, least=0)  # 0: no replays
        #: Deals' ends not replayed for want of room (since start).
        self.skipped = 0

    def saved(self, table_id: str, before: Table, after: Table) -> None:
        """(On the event loop.) ``after`` was saved over ``before``: each deal finished between
        the two is replayed to its end in each seat a human held in it, in the background
        (from where its replay started ahead got, if it did); the deal in play is replayed
        *ahead* in each human's seat, as far as its moves allow (the level's choice at the
        human's turn while the human thinks; once the human's move differs, the rest of the
        replay), nothing of it given out before the deal's end."""
        if not self.pending:
            return
        old, new = len(before.replay.finished), len(after.replay.finished)
        for n in range(old + 1, new + 1):
            for seat, s in enumerate(after.seats):
                if s.kind == "human" and n >= s.from_deal:
                    self._go(table_id, after, n, seat, ended=True)
        n = len(after.deals)
        if n > new and not after.is_over:  # the deal in play
            for seat, s in enumerate(after.seats):
                if s.kind == "human" and n >= s.from_deal:
                    self._go(table_id, after, n, seat, ended=False)

    def _go(self, table_id: str, table: Table, n: int, seat: int, ended: bool) -> None:
        key = (table_id, n, seat)
        replay = self._replays.get(key)
        if replay is not None and not replay.follow(table):
            replay = None  # another deal than the one followed: started again
        if ended and key not in self._ended:
            client = client_key(CLIENT.get()) or table_id
            mine = self._by_client.get(client, 0)
            if len(self._ended) >= self.pending or mine >= self.per_client:
                self.skipped += 1
                log.warning("le robot à votre place: %d replays wait already (%d of this "
                            "client's); deal %d of table %s is not replayed",
                            len(self._ended), mine, n, table_id)
                self._replays.pop(key, None)
                return
            self._ended[key] = client
            self._by_client[client] = mine + 1
        if replay is None:
            try:
                replay = RobotReplay(table, n, seat, table.seats[seat].bot)
            except Exception:
                log.exception("le robot à votre place: deal %d of table %s", n, table_id)
                self._unwait(key)
                return
            self._replays[key] = replay
            if not ended:  # an earlier deal's replay started ahead, whose end another worker
                # saved: it is not this worker's to finish
                for old in [k for k in self._replays if k[0] == table_id and k[1] < n
                            and k[2] == seat and k not in self._ended]:
                    del self._replays[old]
            while len(self._replays) > self.tables:
                gone, _ = self._replays.popitem(last=False)
                self._unwait(gone)
        self._replays.move_to_end(key)
        running = self._running.get(key)
        if ended and running is not None and running[1] is replay:
            self.runner.promote(_client(key))  # its job ahead, waiting or running: needed now
        if running is None or running[1] is not replay:  # (a replay started again: its own)
            task = asyncio.get_running_loop().create_task(self._run(key, replay))
            self._running[key] = (task, replay)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, key: tuple[str, int, int], replay: RobotReplay) -> None:
        """Steps ``replay`` as far as it can go, and gives its result once its deal is over;
        (no wait between the last look at it and the end of this task: a save meanwhile
        starts another one)."""
        table_id, n, seat = key
        try:
            while self._replays.get(key) is replay and replay.can_step():
                await self.runner.run_last(table_id, replay.advance, ahead=not replay.finished,
                                           client=_client(key))
            if self._replays.get(key) is not replay or not (replay.finished and replay.done):
                return
            got = await self.runner.run_last(table_id, replay.result)
        except RuntimeError:  # the pool is shut down: the server stops
            return
        except Exception:
            log.exception("le robot à votre place: deal %d of table %s", n, table_id)
            self._replays.pop(key, None)
            self._unwait(key)
            return
        finally:
            if self._running.get(key, (None,))[0] is asyncio.current_task():
                del self._running[key]
        self._replays.pop(key, None)
        self._unwait(key)
        self.add(table_id, n, seat, got)
        await self._store(table_id, n, seat, got)

    async def _store(self, table_id: str, n: int, seat: int, got: dict[str, Any]) -> None:
        """Write the comparison of deal ``n`` at ``seat`` (over :attr:`bytes`: not stored, the
        log says so; the store down: the log says so, the memory keeps it)."""
        if self.db is None:
            return
        text = json.dumps(got, ensure_ascii=False, separators=(",", ":"))
        if len(text.encode()) > self.bytes:
            log.warning("le robot à votre place: deal %d of table %s not stored (%d bytes "
                        "over %d)", n, table_id, len(text.encode()), self.bytes)
            return
        try:
            await self.db.put_replay(table_id, n, seat, text)
        except Exception as e:
            log.warning("le robot à votre place: deal %d of table %s not stored: %s", n,
                        table_id, e)

    async def load(self, table_id: str, upto: int, again: bool = False) -> None:
        """Read the table's stored replays into the memory (the deals ``1..upto`` finished):
        once its finished deals grew since the last read, or :data:`REREAD_SECONDS` after it
        (another worker's replay stored meanwhile), or :data:`AGAIN_SECONDS` after it when
        ``again`` (a comparison asked for and not held)."""
        if self._due(table_id, upto, again):
            await self._fetch(table_id)

    def _due(self, table_id: str, upto: int, again: bool = False) -> bool:
        """The table's stored replays are to be read now (see :meth:`load`): marked read."""
        if self.db is None:
            return False
        was, at = self._read.get(table_id, (0, 0.0))
        now = time.monotonic()
        if was >= upto and now - at < (AGAIN_SECONDS if again else REREAD_SECONDS):
            return False
        self._read[table_id] = (max(was, upto), now)
        self._read.move_to_end(table_id)
        while len(self._read) > self.tables:
            self._read.popitem(last=False)
        return True

    async def _fetch(self, table_id: str) -> None:
        """Every stored replay of the table this worker does not hold, into the memory (each
        of a finished deal: none is stored before its deal's end)."""
        if self.db is None:
            return
        try:
            rows = await self.db.replays(table_id)
        except Exception as e:
            log.warning("le robot à votre place: table %s's replays not read: %s", table_id, e)
            return
        have = self._kept.get(table_id, {})
        for n, seat, text in rows:
            if seat not in have.get(n, {}):
                try:
                    self.add(table_id, n, seat, json.loads(text))
                except ValueError:
                    log.warning("le robot à votre place: deal %d of table %s unreadable", n,
                                table_id)
            have = self._kept.get(table_id, {})

    async def stored(self, table_id: str, n: int, seat: int) -> dict[str, Any] | None:
        """:meth:`of`, read from the store when this worker holds none (after a restart, or
        another worker's)."""
        got = self.of(table_id, n, seat)
        if got is None and self.db is not None:
            await self.load(table_id, n, again=True)
            got = self.of(table_id, n, seat)
        return got

    def _unwait(self, key: tuple[str, int, int]) -> None:
        """``key``'s deal is no longer waiting for its replay (done, dropped or failed)."""
        client = self._ended.pop(key, None)
        if client is not None:
            left = self._by_client[client] - 1
            if left:
                self._by_client[client] = left
            else:
                del self._by_client[client]

    def add(self, table_id: str, n: int, seat: int, got: dict[str, Any]) -> None:
        deals = self._kept.get(table_id)
        if deals is None:
            deals = self._kept[table_id] = {}
            while len(self._kept) > self.tables:
                self._kept.popitem(last=False)
        else:
            self._kept.move_to_end(table_id)
        deals.setdefault(n, {})[seat] = got
        for old in [d for d in deals if d <= n - KEPT_DEALS]:
            del deals[old]

    def of(self, table_id: str, n: int, seat: int) -> dict[str, Any] | None:
        """The comparison of finished deal ``n`` at ``seat`` (``None``: not ready, or not
        kept). The caller knows deal ``n`` finished."""
        return self._kept.get(table_id, {}).get(n, {}).get(seat)

    def running(self, table_id: str, seat: int, upto: int) -> dict[str, Any] | None:
        """The game's running sum at ``seat`` over its finished deals ``1..upto`` kept:
        ``{"gain", "deals", "level"}`` (the real marks minus the replays'), ``None`` for none.
        (Its stored replays are read for the next time in the background when due:
        :meth:`load`; await it first to have them now.)"""
        if self._due(table_id, upto):
            with contextlib.suppress(RuntimeError):  # no loop: not read
                task = asyncio.get_running_loop().create_task(self._fetch(table_id))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        got = [d[seat] for n, d in self._kept.get(table_id, {}).items()
               if n <= upto and seat in d]
        if not got:
            return None
        return {"gain": sum(g["gain"] for g in got), "deals": len(got),
                "level": got[-1]["level"]}

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):  # stopping: nothing more to do with it
                await task
