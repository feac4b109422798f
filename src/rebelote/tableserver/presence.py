"""Who is at each live table (lila's ``RoundSocket``): the live pages open per seat, and the
leave timer of a seat whose last page closed: after :data:`LEAVE_GRACE` seconds its player has
left and the seat's bot plays for them (``away``). The leave timers are kept with the table
(:class:`~rebelote.tableserver.clock.Timers`) and restored when the server starts again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Final

from rebelote.tableserver.clock import Timers

log = logging.getLogger("rebelote.table")

#: Seconds after a player's last live page closed before the seat's bot plays for them.
LEAVE_GRACE: Final = 30.0


class Presence:
    """The live pages of each seat, and the leave timers: ``leave(table_id, seat)`` when a
    seat's player has gone."""

    def __init__(self, timers: Timers, leave: Callable[[str, int], Awaitable[None]],
                 grace: float = LEAVE_GRACE) -> None:
        self.timers = timers
        self.grace = grace
        self._leave = leave
        self._sockets: dict[tuple[str, int], int] = {}
        self._leaving: dict[tuple[str, int], asyncio.Task[None]] = {}

    def here(self, table_id: str, seat: int) -> bool:
        return bool(self._sockets.get((table_id, seat)))

    def connected(self, table_id: str, seat: int) -> None:
        """A live page of ``seat`` opened (its player is here)."""
        key = (table_id, seat)
        self._sockets[key] = self._sockets.get(key, 0) + 1
        task = self._leaving.pop(key, None)
        if task is not None:
            task.cancel()
            self.timers.set_leave(table_id, seat, None)

    def disconnected(self, table_id: str, seat: int) -> None:
        """A live page of ``seat`` closed: when none is left for :attr:`grace` seconds, the
        player has left."""
        key = (table_id, seat)
        left = self._sockets.get(key, 1) - 1
        if left > 0:
            self._sockets[key] = left
            return
        self._sockets.pop(key, None)
        if key not in self._leaving:
            self._start(table_id, seat, time.time() + self.grace)

    def restore(self, table_id: str, seat: int, ends: float) -> None:
        if (table_id, seat) not in self._leaving and not self.here(table_id, seat):
            self._start(table_id, seat, ends)

    def _start(self, table_id: str, seat: int, ends: float) -> None:
        self.timers.set_leave(table_id, seat, ends)
        self._leaving[(table_id, seat)] = asyncio.get_running_loop().create_task(
            self._wait(table_id, seat, ends))

    async def _wait(self, table_id: str, seat: int, ends: float) -> None:
        try:
            await asyncio.sleep(max(0.0, ends - time.time()))
            self._leaving.pop((table_id, seat), None)
            self.timers.set_leave(table_id, seat, None)
            if not self.here(table_id, seat):
                await self._leave(table_id, seat)
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("leaving table %s", table_id)

    async def close(self) -> None:
        tasks = list(self._leaving.values())
        self._leaving.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task


__all__ = ["LEAVE_GRACE", "Presence"]
