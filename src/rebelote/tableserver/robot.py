"""Le robot à votre place at the play table: after each finished deal, the deal played again
with the table's level in each human's seat (:class:`rebelote.table.robot.RobotReplay`), in
the bots' pool, served last (:meth:`~rebelote.tableserver.bots.BotRunner.run_last`: one
decision a job, taken only when no live decision waits for a worker), never delaying the next
deal; the comparison is given out on the deal's analysis page and API, which serve finished
deals only (it holds the deal's hidden cards).

Kept in the memory of the worker that saved the deal's end, for the last :data:`KEPT_DEALS`
deals of the last :func:`kept_tables` tables: a deal not kept (a worker started again,
another worker wrote its end) shows no comparison, and the game's running sum counts the deals
kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections import OrderedDict
from typing import Any, Final

from rebelote.table.model import Table
from rebelote.table.robot import RobotReplay
from rebelote.tableserver.bots import BotRunner

__all__ = ["KEPT_DEALS", "KEPT_TABLES", "KEPT_TABLES_ENV", "PENDING", "PENDING_ENV", "Robots",
           "kept_tables"]

log = logging.getLogger("rebelote.table")

#: The tables whose replays a worker keeps (the most recent), by default, and the environment
#: variable that changes it (1 to 100,000).
KEPT_TABLES: Final = 500
KEPT_TABLES_ENV: Final = "REBELOTE_ROBOT_TABLES"
#: The deals kept a table (the last ones): more than a game's deals at every target offered.
KEPT_DEALS: Final = 64
#: Replays waiting for the bots to be free, at most (more: a deal's end is not replayed, and
#: the log says so), and the environment variable that changes it (1 to 100,000).
PENDING: Final = 256
PENDING_ENV: Final = "REBELOTE_ROBOT_PENDING"


def _env(name: str, default: int, least: int = 1) -> int:
    try:
        value = int(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if least <= value <= 100_000 else default


def kept_tables() -> int:
    return _env(KEPT_TABLES_ENV, KEPT_TABLES)


class Robots:
    """This worker's replays: table id -> deal number -> seat -> the comparison
    (:meth:`RobotReplay.result`)."""

    def __init__(self, runner: BotRunner, tables: int | None = None) -> None:
        self.runner = runner
        self.tables = tables or kept_tables()
        self._kept: OrderedDict[str, dict[int, dict[int, dict[str, Any]]]] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        #: the replays under way (the deal in play, or finished and not replayed yet), by
        #: (table, deal, seat), the one saved longest ago first: at most ``tables``
        self._replays: OrderedDict[tuple[str, int, int], RobotReplay] = OrderedDict()
        #: ... of them, those whose deal is over (at most ``pending``), and the task stepping
        #: each one (one at a time)
        self._ended: set[tuple[str, int, int]] = set()
        self._running: dict[tuple[str, int, int], asyncio.Task[None]] = {}
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
            if len(self._ended) >= self.pending:
                self.skipped += 1
                log.warning("le robot à votre place: %d replays wait already; deal %d of "
                            "table %s is not replayed", len(self._ended), n, table_id)
                self._replays.pop(key, None)
                return
            self._ended.add(key)
        if replay is None:
            try:
                replay = RobotReplay(table, n, seat, table.seats[seat].bot)
            except Exception:
                log.exception("le robot à votre place: deal %d of table %s", n, table_id)
                self._ended.discard(key)
                return
            self._replays[key] = replay
            while len(self._replays) > self.tables:
                gone, _ = self._replays.popitem(last=False)
                self._ended.discard(gone)
        self._replays.move_to_end(key)
        if key not in self._running:
            task = asyncio.get_running_loop().create_task(self._run(key, replay))
            self._running[key] = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, key: tuple[str, int, int], replay: RobotReplay) -> None:
        """Steps ``replay`` as far as it can go, and gives its result once its deal is over;
        (no wait between the last look at it and the end of this task: a save meanwhile
        starts another one)."""
        table_id, n, seat = key
        try:
            while self._replays.get(key) is replay and replay.can_step():
                await self.runner.run_last(table_id, replay.step, ahead=not replay.finished)
            if self._replays.get(key) is not replay or not (replay.finished and replay.done):
                return
            got = await self.runner.run_last(table_id, replay.result)
        except RuntimeError:  # the pool is shut down: the server stops
            return
        except Exception:
            log.exception("le robot à votre place: deal %d of table %s", n, table_id)
            self._replays.pop(key, None)
            self._ended.discard(key)
            return
        finally:
            if self._running.get(key) is asyncio.current_task():
                del self._running[key]
        self._replays.pop(key, None)
        self._ended.discard(key)
        self.add(table_id, n, seat, got)

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
        ``{"gain", "deals", "level"}`` (the real marks minus the replays'), ``None`` for none."""
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
