"""The one way the web layer calls a store: on the event loop or in the thread pool.

SQLite answers in microseconds from a local file: its calls run inline on the event loop
(one writer, no thread hops). Other databases (PostgreSQL) answer over a socket: their calls
run in the thread pool so that the loop keeps serving. The counter's and the table's services
both call their stores through a :class:`StoreCalls`.

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

T = TypeVar("T")


class StoreCalls:
    """``await calls(fn, *args, **kw)``: ``fn`` inline (``inline=True``) or in the thread
    pool."""

    __slots__ = ("inline",)

    def __init__(self, inline: bool) -> None:
        self.inline = inline

    async def __call__(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        if self.inline:
            return fn(*args, **kw)
        return await run_in_threadpool(fn, *args, **kw)


__all__ = ["StoreCalls"]
