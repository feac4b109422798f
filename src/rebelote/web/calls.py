"""The one way the web layer calls a store: in the SQLite stores' thread or in the thread pool.

SQLite answers in microseconds from a local file, but a lock held by another process (a
backup, the ``sqlite3`` shell) or a slow disk must never stop the event loop: its calls run
one after the other in one thread of their own (:func:`rebelote.store.db.in_store_thread`).
Other databases (PostgreSQL) answer over a socket: their calls run in the thread pool. The
counter's service calls its store through a :class:`StoreCalls`.

>>> import asyncio
>>> asyncio.run(StoreCalls(inline=True)(max, 2, 7))
7
>>> asyncio.run(StoreCalls(inline=False)(sorted, [3, 1], reverse=True))
[3, 1]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from rebelote.store.db import in_store_thread

T = TypeVar("T")


class StoreCalls:
    """``await calls(fn, *args, **kw)``: ``fn`` in the SQLite stores' one thread
    (``inline=True``: one connection, calls in turn) or in the thread pool."""

    __slots__ = ("inline",)

    def __init__(self, inline: bool) -> None:
        self.inline = inline

    async def __call__(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        if self.inline:
            return await in_store_thread(fn, *args, **kw)
        return await run_in_threadpool(fn, *args, **kw)


__all__ = ["StoreCalls"]
