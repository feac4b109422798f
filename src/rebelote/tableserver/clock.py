"""The timers of the live tables, kept with each table in the store (lila's ``Moretimer`` and
the round's clock): the **turn clock** of a human to act (when it runs out, the seat's bot plays
for them, ``away``) and, in :mod:`rebelote.tableserver.presence`, the **leave timers** of
players whose last page closed.

Each running timer is written beside its table (the wall-clock time it ends) and read back
when the server starts again (:meth:`Timers.stored`): a ``kill -9`` then a restart resumes
every clock with the time it had left. A turn clock is written by the very write that starts
it (:meth:`Timers.for_write`, the table's version and its clock in one statement), so that a
stored clock always belongs to its stored version; a leave timer, which starts between two
writes, is written alone as soon as it starts
(:meth:`~rebelote.store.play_tables.TableStore.change_timers`).

With several workers (PostgreSQL) each keeps its own book of a table's timers: a worker writes
only what it changed since it last wrote (a
:class:`~rebelote.store.play_tables.TimersChange`: the turn clock, each seat's leave timer),
merged into the stored timers on the locked row, never its whole book: one worker's write
never erases a leave timer another stored, nor brings back a clock it stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from rebelote.store.play_tables import KEEP, Keep, Tables, TimersChange
from rebelote.table import Table

log = logging.getLogger("rebelote.table")


def clock_runs(table: Table) -> bool:
    """A turn clock runs at ``table``: it has one, and a human (not their bot) is to act."""
    return bool(table.clock) and table.turn >= 0 and not table.bot_to_play


class Timers:
    """The running timers of each table, as stored: ``{"turn": [version, ends], "leave":
    {seat: ends}}`` (``ends``: seconds since the epoch). Each change is written at once (in
    the background, one write in flight per table), as what changed (``"turn"`` and the seats
    of ``"leave"``, :attr:`_changed`) merged into the stored timers."""

    def __init__(self, db: Tables) -> None:
        self.db = db
        self._book: dict[str, dict[str, Any]] = {}
        self._changed: dict[str, set[str]] = {}  # "turn" and leave seats, not yet written
        self._turn_of: dict[str, int] = {}  # the version whose clock was set or stopped last
        self._flushing: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()

    def get(self, table_id: str) -> dict[str, Any]:
        return self._book.get(table_id, {})

    def for_write(self, table_id: str | None, version: int, table: Table
                  ) -> tuple[list[Any] | None, TimersChange | Keep]:
        """The turn clock of ``table`` about to be written as ``version`` (``[version,
        ends]``, or ``None`` when none runs there) and the change of the stored timers that
        write makes with it (that clock; ``table_id`` ``None``: a new table). The leave
        timers are left as stored (another worker's among them);
        :data:`~rebelote.store.play_tables.KEEP` when this worker runs no turn clock of the
        table and none starts: the stored timers are left as they are. Nothing changes here
        until the write is done (:meth:`written`)."""
        turn = [version, round(time.time() + table.clock, 3)] if clock_runs(table) else None
        if turn is None and table_id is not None and "turn" not in self.get(table_id):
            return None, KEEP
        return turn, TimersChange(turn=turn)

    def written(self, table_id: str, turn: list[Any] | None) -> None:
        """The turn clock :meth:`for_write` gave was stored with its write: kept as stored
        (the clock that starts for that version runs to its end), nothing written again; a
        write of the timers under way writes them once more after (it may have read them
        before)."""
        book = self._book.setdefault(table_id, {})
        self._stopped_or_started(table_id, book.get("turn"), turn)
        if turn is None:
            book.pop("turn", None)
        else:
            book["turn"] = turn
        if not book:
            self._book.pop(table_id, None)
        if table_id in self._flushing:  # it may carry an older clock: write this one after
            self._changed.setdefault(table_id, set()).add("turn")
            self._again.add(table_id)

    def set_turn(self, table_id: str, version: int | None, ends: float | None) -> None:
        book = self._book.setdefault(table_id, {})
        new = None if version is None or ends is None else [version, round(ends, 3)]
        if book.get("turn") == new:
            return
        self._stopped_or_started(table_id, book.get("turn"), new)
        if new is None:
            book.pop("turn", None)
        else:
            book["turn"] = new
        self._dirty(table_id, "turn")

    def _stopped_or_started(self, table_id: str, old: list[Any] | None,
                            new: list[Any] | None) -> None:
        clock = new if new is not None else old
        if clock is not None:
            self._turn_of[table_id] = int(clock[0])

    def set_leave(self, table_id: str, seat: int, ends: float | None) -> None:
        book = self._book.setdefault(table_id, {})
        leave = book.setdefault("leave", {})
        key = str(seat)
        if leave.get(key) == (None if ends is None else round(ends, 3)):
            return
        if ends is None:
            leave.pop(key, None)
        else:
            leave[key] = round(ends, 3)
        if not leave:
            book.pop("leave", None)
        self._dirty(table_id, key)

    def _dirty(self, table_id: str, key: str) -> None:
        self._changed.setdefault(table_id, set()).add(key)
        if not self._book.get(table_id):
            self._book.pop(table_id, None)
        if table_id in self._flushing:
            self._again.add(table_id)
            return
        self._flushing[table_id] = asyncio.get_running_loop().create_task(
            self._flush(table_id))

    async def _flush(self, table_id: str) -> None:
        try:
            while True:
                self._again.discard(table_id)
                keys = self._changed.pop(table_id, set())
                if keys:
                    try:
                        await self.db.change_timers(table_id, self._change(table_id, keys))
                    except Exception as e:  # the timer still runs in memory
                        log.warning("table %s: its timers could not be stored (%s)",
                                    table_id, e)
                        # written with the next change of the table's timers
                        self._changed.setdefault(table_id, set()).update(keys)
                if table_id not in self._again:
                    return
        finally:
            self._flushing.pop(table_id, None)

    def _change(self, table_id: str, keys: set[str]) -> TimersChange:
        """The change of the stored timers that writes ``keys`` as this worker has them."""
        book = self.get(table_id)
        leave = book.get("leave", {})
        return TimersChange(
            turn=book.get("turn") if "turn" in keys else KEEP,
            leave={key: leave.get(key) for key in sorted(keys - {"turn"})},
            turn_of=self._turn_of.get(table_id))

    async def stored(self) -> list[tuple[str, dict[str, Any]]]:
        """Every table's timers as stored (at start-up)."""
        out = []
        for table_id, text in await self.db.timed():
            try:
                book = json.loads(text)
            except ValueError:
                continue
            if isinstance(book, dict):
                self._book[table_id] = book
                out.append((table_id, book))
        return out

    async def close(self) -> None:
        for task in list(self._flushing.values()):
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, 1.0)


class TurnClock:
    """The turn clock of each table: ``fire(table_id, version)`` when the human to act at that
    version let it run out."""

    def __init__(self, timers: Timers, fire: Callable[[str, int], Awaitable[None]]) -> None:
        self.timers = timers
        self._fire = fire
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def start(self, table_id: str, version: int, seconds: float) -> None:
        """The human to act at ``version`` has ``seconds`` (from when the write of that
        version stored its clock, when it did)."""
        turn = self.timers.get(table_id).get("turn")
        if turn is not None and turn[0] == version:
            if table_id in self._tasks:
                return  # already running for this very turn
            self._run_until(table_id, version, float(turn[1]))  # as its write stored it
            return
        self._run_until(table_id, version, time.time() + seconds)

    def restore(self, table_id: str, version: int, ends: float) -> None:
        self._run_until(table_id, version, ends)

    def stop(self, table_id: str) -> None:
        task = self._tasks.pop(table_id, None)
        if task is not None:
            task.cancel()
        self.timers.set_turn(table_id, None, None)

    def _run_until(self, table_id: str, version: int, ends: float) -> None:
        old = self._tasks.pop(table_id, None)
        if old is not None:
            old.cancel()
        self.timers.set_turn(table_id, version, ends)
        self._tasks[table_id] = asyncio.get_running_loop().create_task(
            self._run(table_id, version, ends))

    async def _run(self, table_id: str, version: int, ends: float) -> None:
        try:
            await asyncio.sleep(max(0.0, ends - time.time()))
            if self._tasks.get(table_id) is asyncio.current_task():
                del self._tasks[table_id]
            self.timers.set_turn(table_id, None, None)
            await self._fire(table_id, version)
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("the clock of table %s stopped", table_id)

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task


__all__ = ["Timers", "TurnClock"]
