"""The bot runner: every bot decision of the live tables, bounded (lila's ``Player``, which
plays the bots' and engines' moves of a round).

- Bots that do not search (:data:`QUICK_BOTS`: microseconds a move) play on the event loop.
- The others think in a **bounded pool**: at most one worker thread per core
  (:attr:`BotRunner.workers`); decisions beyond wait their turn, so the bots of every table
  together never use more than the machine's cores.
- Each decision has **its own budget**: the level's worlds, counted, with a time cap
  (:data:`DECISION_SECONDS`, counted from when the move is asked for: waiting for a worker
  included, so that it bounds what a player waits), of which it thinks at most
  :data:`THINK_SHARE` once a worker takes it. The search checks
  :data:`rebelote.bots.base.STOP` between two worlds (a world's solve is the longest thing it
  cannot interrupt) and starts no world it expects to end after its time
  (:data:`rebelote.bots.base.DEADLINE`): when its time is up it **answers from the worlds it
  solved** (the decision is *cut short*: :attr:`Decided.cut`); when the table moves on
  (another move was written meanwhile) or the server stops, it stops and its answer is
  dropped.
- A decision that could not start within its cap (every worker busy all along), that does not
  answer within :data:`GRACE` after it, or whose bot fails, plays the **heuristic's move**
  (never the random bot's) and the log says so; only a heuristic that fails too is replaced by
  the random bot.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from rebelote.bots import Bot, make_bot
from rebelote.bots.base import DEADLINE, STOP, Deadline
from rebelote.bots.explain import Explanation
from rebelote.table import Table
from rebelote.tableserver.explained import explained_action

log = logging.getLogger("rebelote.table")

T = TypeVar("T")

#: Seconds one decision may take from when it is asked for (waiting for a worker included):
#: then its search answers from the worlds it solved; ``$REBELOTE_BOT_SECONDS`` overrides it.
#: The strongest level's slowest decisions take a few seconds on a busy 2-core machine.
DECISION_SECONDS: Final = 15.0
SECONDS_ENV: Final = "REBELOTE_BOT_SECONDS"
#: Seconds past the cap that a decision's answer is waited for (the world being solved when the
#: cap came, or a bot that does not watch :data:`~rebelote.bots.base.STOP`) before the
#: heuristic's move is played instead.
GRACE: Final = 1.0
#: The share of its cap a decision may think once a worker takes it: one waiting for a worker
#: behind it then still has the rest. With at most two decisions a worker (four tables at pace
#: 0 on two cores: one decision each), each starts within half its cap of being asked, and
#: answers from its own search, never the heuristic's move for want of a worker.
THINK_SHARE: Final = 0.5
#: Bots that do not search (a few hundredths of a millisecond a move, bounded): their moves
#: are played on the event loop, with no thread hop.
QUICK_BOTS: Final = frozenset({"random", "heuristic"})
#: Quick bots' moves played in a row before the event loop serves others (a table of bots only).
QUICK_CHUNK: Final = 12
#: The bot that plays a decision out of time, or the move of a bot that failed.
FALLBACK: Final = "heuristic"


@dataclass(frozen=True, slots=True)
class Decided:
    """One bot move as the runner made it, told to its :attr:`BotRunner.listeners` (the
    benches time the levels with it): the table as the bot saw it, the bot's spec, the seconds
    from when the move was asked for to its answer (waiting for a worker included: what a
    player waits) and of these the seconds waited for a worker, ``fell_back``: why the
    heuristic played it instead (``"time"``: out of time, ``"failed"``), ``None`` when the bot
    answered, and ``cut``: the bot answered after being told its time was up (a search, from
    the worlds it had solved by then)."""

    table_id: str
    table: Table
    spec: str
    seconds: float
    waited: float = 0.0
    fell_back: str | None = None
    cut: bool = False
    #: Why the bot chose its move, as it recorded it deciding (None: the heuristic's move).
    why: Explanation | None = None


class Superseded(Exception):
    """The table moved on while its bot was thinking: the decision is dropped."""


@dataclass(eq=False)
class Decision:
    """One bot decision in the pool: its table's version, its time, and what stops it."""

    version: int
    #: Set when the server stops (the runner's, when the decision was made).
    closing: threading.Event
    #: When the move was asked for, and when its time is up (``time.monotonic()``); once a
    #: worker takes it, when its thinking is: :data:`THINK_SHARE` of the cap at most.
    asked: float
    deadline: float
    think_until: float = 0.0
    #: Set when the decision is dropped: the table moved on, the server stops, or its answer is
    #: no longer waited for.
    stop: threading.Event = field(default_factory=threading.Event)
    started: float | None = None
    #: The table moved on from :attr:`version` (the decision is dropped, not replaced).
    superseded: bool = False
    #: The bot answered after its time was up (a search: from the worlds it had solved).
    cut: bool = False
    why: Explanation | None = None

    def dropped(self) -> bool:
        return self.stop.is_set() or self.closing.is_set()

    def time_is_up(self) -> bool:
        """What :data:`~rebelote.bots.base.STOP` answers the decision's bot."""
        return self.dropped() or time.monotonic() > (
            self.deadline if self.started is None else self.think_until)


def decision_seconds() -> float:
    raw = os.environ.get(SECONDS_ENV, "")
    try:
        value = float(raw)
    except ValueError:
        return DECISION_SECONDS
    return value if 0.0 < value <= 600.0 else DECISION_SECONDS


class BotRunner:
    """The bots of every table of this worker: a bounded pool, a budget per decision."""

    def __init__(self, workers: int | None = None, seconds: float | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.seconds = seconds if seconds is not None else decision_seconds()
        self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="rebelote-bot")
        self._bots: dict[str, Bot] = {}
        self._live: dict[str, set[Decision]] = {}
        self._rng = random.Random(secrets.randbits(64))
        self._closing = threading.Event()
        #: Decisions that ran out of time and played the heuristic's move (since start).
        self.fell_back = 0
        #: Told of each bot move made (:class:`Decided`), on the event loop.
        self.listeners: list[Callable[[Decided], None]] = []

    def rng(self) -> random.Random:
        return random.Random(self._rng.getrandbits(64))

    def bot(self, spec: str) -> Bot:
        bot = self._bots.get(spec)
        if bot is None:
            bot = self._bots[spec] = make_bot(spec)
        return bot

    @staticmethod
    def is_quick(table: Table) -> bool:
        """The seat to act is played by a bot that does not search (:data:`QUICK_BOTS`)."""
        return table.bot_to_play and \
            table.seats[table.turn].bot.partition(":")[0] in QUICK_BOTS

    # -- the event loop's moves ---------------------------------------------------------------
    def fallback_move(self, table: Table, rng: random.Random, why: str) -> str:
        """The heuristic's move for the seat to act (the random bot's if the heuristic fails
        too), logged with ``why``."""
        spec = table.seats[table.turn].bot
        try:
            action = table.bot_action(self.bot(FALLBACK), rng)
            log.warning("bot %s at a table: %s; the heuristic plays this move", spec, why)
        except Exception as e:
            log.warning("bot %s at a table: %s, and the heuristic failed (%s); the random bot "
                        "plays this move", spec, why, type(e).__name__)
            action = table.bot_action(self.bot("random"), rng)
        return action

    def quick_move(self, table: Table, rng: random.Random, table_id: str = "") -> str:
        seat = table.seats[table.turn]
        start = time.perf_counter()
        fell_back = None
        why = None
        try:
            action, why = explained_action(table, self.bot(seat.bot), rng)
        except Exception as e:  # a broken bot never blocks the table
            fell_back = "failed"
            if seat.bot.partition(":")[0] == FALLBACK:
                log.warning("bot %s failed at a table (%s): the random bot plays instead",
                            seat.bot, type(e).__name__)
                action = table.bot_action(self.bot("random"), rng)
            else:
                action = self.fallback_move(table, rng, f"it failed ({type(e).__name__})")
        if self.listeners:
            self._tell(Decided(table_id, table, seat.bot, time.perf_counter() - start,
                               fell_back=fell_back, why=why if fell_back is None else None))
        return action

    def _tell(self, decided: Decided) -> None:
        for listener in self.listeners:
            listener(decided)

    def quick_moves(self, table: Table, rng: random.Random,
                    halt: Callable[[Table], bool] | None = None, table_id: str = "") -> Table:
        """At most :data:`QUICK_CHUNK` moves of quick bots in a row, on the event loop (none
        once ``halt(table)``: the table pauses)."""
        for _ in range(QUICK_CHUNK):
            if not self.is_quick(table) or (halt is not None and halt(table)):
                break
            table = table.act(table.turn, self.quick_move(table, rng, table_id))
        return table

    # -- the pool's decisions -----------------------------------------------------------------
    async def decide(self, table_id: str, version: int, table: Table) -> str:
        """The move of the bot to act at ``table`` (at ``version``): on the event loop for a
        quick bot, else in the pool within its budget. :class:`Superseded` when the table
        moved on meanwhile (:meth:`moved_on`)."""
        rng = self.rng()
        if self.is_quick(table):
            return self.quick_move(table, rng, table_id)
        spec = table.seats[table.turn].bot
        try:
            bot = self.bot(spec)
        except Exception as e:
            return self.fallback_move(table, rng, f"it cannot be made ({e})")
        asked = time.monotonic()
        decision = Decision(version, self._closing, asked, asked + self.seconds)
        self._live.setdefault(table_id, set()).add(decision)
        try:
            future = self._pool.submit(self._think, decision, table, bot, rng)
            got = await self._wait(decision, future)
        except RuntimeError as e:  # the pool is shut down: the server stops
            raise Superseded(str(e)) from None
        finally:
            live = self._live.get(table_id)
            if live is not None:
                live.discard(decision)
                if not live:
                    del self._live[table_id]
        if decision.closing.is_set():
            raise Superseded("the server stops")
        if decision.superseded:
            raise Superseded(f"table {table_id} moved on from version {version}")
        fell_back = None
        if isinstance(got, BaseException):
            fell_back = "failed"
            action = self.fallback_move(table, rng, f"it failed ({type(got).__name__})")
        elif got is None:
            self.fell_back += 1
            fell_back = "time"
            action = self.fallback_move(table, rng, f"its decision ran out of time "
                                                    f"({self.seconds:g} s)")
        else:
            action = str(got)
            if decision.cut:
                log.info("bot %s at a table: its decision was cut short at its time cap "
                         "(%g s): it answered from the worlds it had solved", spec,
                         self.seconds)
        if self.listeners:
            now = time.monotonic()
            waited = (now if decision.started is None else decision.started) - asked
            self._tell(Decided(table_id, table, spec, now - asked, waited, fell_back,
                               decision.cut and fell_back is None,
                               decision.why if fell_back is None else None))
        return action

    async def _wait(self, decision: Decision, future: Future[Any]) -> Any:
        """The decision's answer: its action, ``None`` when it ran out of time or was stopped,
        or the exception its bot raised. Cancelled from outside, it stops the thinking."""
        wrapped = asyncio.wrap_future(future)
        try:
            while True:
                # waiting for a worker: until its time is up; thinking: a grace more, for the
                # world being solved at the cap (or a bot deaf to STOP) to answer
                limit = decision.deadline + (0.0 if decision.started is None else GRACE) \
                    - time.monotonic()
                if limit <= 0:
                    decision.stop.set()  # its answer is no longer waited for
                    future.cancel()
                    return None
                done, _ = await asyncio.wait({wrapped}, timeout=min(limit, 0.25))
                if done:
                    return wrapped.result()
                if decision.stop.is_set() and decision.started is None:
                    future.cancel()  # never started: dropped from the queue
                    return None
        except asyncio.CancelledError:
            decision.stop.set()
            future.cancel()
            raise

    def _think(self, decision: Decision, table: Table, bot: Bot, rng: random.Random
               ) -> str | BaseException | None:
        """In a worker thread: the bot's move (told by STOP when its time is up, a search
        answers from the worlds it solved), or ``None`` when the decision was dropped, or its
        time was up before a worker took it."""
        if decision.time_is_up():
            return None
        now = time.monotonic()
        decision.think_until = min(decision.deadline, now + THINK_SHARE * self.seconds)
        decision.started = now
        token = STOP.set(decision.time_is_up)
        deadline = Deadline(decision.think_until)  # a search starts no world it cannot end
        due = DEADLINE.set(deadline)
        try:
            action, decision.why = explained_action(table, bot, rng)
        except Exception as e:
            return e
        finally:
            DEADLINE.reset(due)
            STOP.reset(token)
        if decision.dropped():
            return None
        decision.cut = deadline.cut or time.monotonic() > decision.think_until
        return action

    def moved_on(self, table_id: str, version: int) -> None:
        """``table_id`` is at ``version`` now: the decisions made for an older one stop."""
        for decision in self._live.get(table_id, ()):
            if decision.version < version:
                decision.superseded = True
                decision.stop.set()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the pool (other bounded work of the tables: an analysis)."""
        return await asyncio.wrap_future(self._pool.submit(fn, *args))

    def close(self) -> None:
        """Stop every decision now (each ends within one world's solve) and the pool's
        threads; a later decision gets a fresh pool (an app started again)."""
        self._closing.set()
        for decisions in self._live.values():
            for decision in decisions:
                decision.stop.set()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="rebelote-bot")
        self._closing = threading.Event()


__all__ = ["DECISION_SECONDS", "GRACE", "QUICK_BOTS", "THINK_SHARE", "BotRunner", "Decided",
           "Superseded"]
