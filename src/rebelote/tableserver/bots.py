"""The bot runner: every bot decision of the live tables, bounded (lila's ``Player``, which
plays the bots' and engines' moves of a round).

- Bots that do not search (:data:`QUICK_BOTS`: microseconds a move) play on the event loop.
- The others think in a **bounded pool**: at most one worker thread per core
  (:attr:`BotRunner.workers`); decisions beyond wait their turn, so the bots of every table
  together never use more than the machine's cores.
- The turns are **shared fairly** (:class:`FairPool`): a free worker takes the next decision
  of the client with the fewest decisions thinking, the one served longest ago among equals,
  and of that client's tables the one served longest ago. A client is the address whose
  request made the bots play (:data:`CLIENT`, set by the web; an IPv6 address counts by its
  /64); one client's many tables wait behind each other, never in front of another player's
  bots (table-attack F7: six ``expert`` tables of one client took another player's answers
  from 0.6 s to 4.4 s at the median).
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
- A paced table's bot move is **released at one moment**, whatever the position
  (:func:`release_seconds`): its pace, or its level's decision time if longer, after it was
  asked for; the search thinks until then and the answer of a forced move is held until
  then too, so that a move with a choice never comes later than a forced one (table-attack
  F10).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import random
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from rebelote.bots import Bot, level_of_spec, make_bot
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
#: Seconds after it is asked for that a paced table's bot move is released, at the least, by
#: the level's key (the table's pace when longer): each level's searches mostly end within it
#: (``fort`` thinks a quarter second a card, ``expert`` a few hundred ms at the median, docs/
#: table.md), and a search still going then answers from the worlds it solved. A forced move
#: waits as long: both leave at the same moment.
RELEASE_SECONDS: Final = {"club": 0.3, "fort": 0.3, "expert": 0.8}
#: ... for a searching bot that is no level for people (``pimc:strong``).
RELEASE_DEFAULT: Final = 0.8
#: Seconds a decision that a worker took only after its release moment (every worker busy)
#: still thinks: its move is released that long after it started, forced or not.
LATE_THINK: Final = 0.05
#: Seconds before its release that a paced move's search is told to stop (a quarter of its
#: time at most): the world being solved then ends before the release, not after it.
RELEASE_MARGIN: Final = 0.1
#: Who asked for the bots' moves being made in this context: the client's address, set by
#: the web for each request (the background tasks a request starts inherit it). Decisions are
#: shared fairly between clients (:class:`FairPool`); ``None``: each table counts as its own.
#: The client of the work done after a deal (*le robot à votre place*), served last.
LOW_CLIENT: Final = "(after the deal)"
#: ... and of the same work started ahead, during the deal (served after it).
AHEAD_CLIENT: Final = "(during the deal)"
CLIENT: Final[ContextVar[str | None]] = ContextVar("rebelote_bot_client", default=None)


def client_key(address: str | None) -> str | None:
    """The client an address counts as: itself, an IPv6 address by its /64 (one subscriber's
    network), ``None`` for none.

    >>> client_key("2001:db8:1:2:3:4:5:6"), client_key("127.0.0.9")
    ('2001:db8:1:2::/64', '127.0.0.9')
    """
    if not address:
        return None
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def release_seconds(spec: str) -> float:
    """Seconds after it is asked for that a paced table's move by ``spec`` is released at the
    least: 0 for a bot that does not search (:data:`QUICK_BOTS`), else its level's
    (:data:`RELEASE_SECONDS`)."""
    if spec.partition(":")[0] in QUICK_BOTS:
        return 0.0
    level = level_of_spec(spec)
    return RELEASE_SECONDS.get(level.key, RELEASE_DEFAULT) if level else RELEASE_DEFAULT


@dataclass(eq=False)
class _Job:
    future: Future[Any]
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    #: :attr:`FairPool.started` when it was queued.
    queued_at: int


@dataclass(eq=False)
class _Parked:
    """A job that gave up its turn to think between two units of work (:meth:`FairPool.
    checkpoint`), waiting in its client's turn to go on."""

    go: bool = False


#: Threads a pool may hold beyond its workers: the jobs parked at a checkpoint, each in its own
#: thread, waiting for their turn (a worker thinks, a parked one only waits).
PARKED_PER_WORKER: Final = 2


class FairPool:
    """At most ``workers`` jobs thinking at once, taken **client by client**: when a worker
    frees, the client with the fewest jobs thinking goes next (the one served longest ago
    among equals); of its queues (a table each), the one served longest ago; of that queue,
    the oldest job. A client's many tables then wait behind each other, never in front of
    another client's: a first-come-first-served pool served them in the order they came.

    A job that thinks long can be made to share: a search calls :meth:`checkpoint` between two
    worlds (through :data:`~rebelote.bots.base.STOP`), and when another client's job waits for
    a worker while this job's client holds more workers than that one would, it gives up its
    worker there and waits for its client's next turn (in a thread of its own: at most
    :data:`PARKED_PER_WORKER` a worker). So one client's searches cannot hold every core
    while another player's bot waits for one. :attr:`started` counts the jobs started, so that
    a job knows how many started between its queueing and its start (:func:`ahead`)."""

    def __init__(self, workers: int, name: str = "rebelote-bot") -> None:
        self.workers = workers
        self._name = name
        self._cond = threading.Condition()
        #: client -> its queues (key -> jobs), each in the order to serve them
        self._queues: dict[str, dict[str, deque[_Job]]] = {}
        #: client -> its parked jobs, oldest first
        self._parked: dict[str, deque[_Parked]] = {}
        #: every client with work, and its place in turn: ``(0, n)`` for a client with no
        #: turn yet (new, or back with work since its last was done: served longest ago,
        #: in the order they asked), ``(1, n)`` for one served at the ``n``-th pick; the
        #: smallest goes first among clients of as many jobs thinking
        self._turns: dict[str, tuple[int, int]] = {}
        self._seq = 0
        self._running: dict[str, int] = {}
        self._active = 0
        self._queued = 0
        self._threads: list[threading.Thread] = []
        self._idle = 0
        self._shut = False
        self.started = 0
        #: Jobs that gave up their worker to another client's at a checkpoint (since start).
        self.yielded = 0
        #: Clients served last (:meth:`submit` ``low``), by rank: only when no client of a
        #: lower rank waits (every other client's is 0).
        self._low: dict[str, int] = {}

    def submit(self, client: str, key: str, fn: Callable[..., T], *args: Any,
               low: bool | int = False) -> Future[T]:
        """``fn(*args)`` queued for ``client``'s queue ``key``; :class:`RuntimeError` once the
        pool is shut down. ``low``: ``client`` is served last, only when no other client's job
        waits (work after the fact that must never take a worker from a live decision); a
        number, its rank among such clients (``True``: 1; 2 waits for 1's jobs too)."""
        future: Future[T] = Future()
        with self._cond:
            if self._shut:
                raise RuntimeError("cannot schedule new futures after shutdown")
            if low:
                self._low[client] = int(low)
            job = _Job(future, fn, args, self.started)
            future.queued_at = self.started  # type: ignore[attr-defined]
            self._queues.setdefault(client, {}).setdefault(key, deque()).append(job)
            if client not in self._turns:
                # a client without work until now (new, or forgotten once its work was done)
                # was served longest ago: before any client served since, not behind one
                # served a moment ago
                self._turns[client] = (0, self._next())
            self._queued += 1
            self._wake()
        return future

    def rerank(self, client: str, rank: int) -> None:
        """``client``, served last (:meth:`submit` ``low``), takes ``rank`` for its jobs
        waiting and running (a running job of a higher rank then gives its worker up to it at
        its next checkpoint); nothing when it has no work."""
        with self._cond:
            if client in self._low:
                self._low[client] = rank
                self._cond.notify_all()

    def waiting(self) -> int:
        """Jobs queued, not started."""
        with self._cond:
            return self._queued

    def _wake(self) -> None:
        """(Under the lock.) A thread to take the work waiting: an idle one, or a new one while
        the pool holds fewer than its workers (more when jobs are parked)."""
        if self._idle:
            self._cond.notify_all()
        elif len(self._threads) < self.workers + sum(map(len, self._parked.values())):
            thread = threading.Thread(target=self._work, daemon=True,
                                      name=f"{self._name}_{len(self._threads)}")
            self._threads.append(thread)
            thread.start()
        else:
            self._cond.notify_all()

    def _pick(self) -> tuple[str, _Job | _Parked] | None:
        """(Under the lock, a worker free.) The next job to start or parked job to go on, and
        its client: the waiting client with the fewest jobs thinking, the one served longest
        ago among equals; its parked jobs first (they started earlier)."""
        while True:
            waiting = [c for c in self._turns if c in self._queues or c in self._parked]
            if not waiting:
                return None
            rank = min(self._low.get(c, 0) for c in waiting)
            # the low clients only when nobody of a lower rank waits
            waiting = [c for c in waiting if self._low.get(c, 0) == rank]
            client = min(waiting, key=lambda c: (self._running.get(c, 0), self._turns[c]))
            self._turns[client] = (1, self._next())  # served now: last in turn
            parked = self._parked.get(client)
            if parked:
                entry = parked.popleft()
                if not parked:
                    del self._parked[client]
                return client, entry
            queues = self._queues.pop(client)
            key = next(iter(queues))
            jobs = queues.pop(key)
            job = jobs.popleft()
            self._queued -= 1
            if jobs:
                queues[key] = jobs  # this table goes last among the client's
            if queues:
                self._queues[client] = queues
            if job.future.set_running_or_notify_cancel():
                return client, job
            # cancelled while it waited: the next

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    def _forget(self, client: str) -> None:
        if client not in self._queues and client not in self._parked \
                and not self._running.get(client):
            self._turns.pop(client, None)
            self._running.pop(client, None)
            self._low.pop(client, None)

    def _work(self) -> None:
        while True:
            with self._cond:
                while True:
                    if self._shut:
                        return
                    picked = self._pick() if self._active < self.workers else None
                    if picked is None:
                        self._idle += 1
                        self._cond.wait()
                        self._idle -= 1
                        continue
                    client, got = picked
                    self._active += 1
                    self._running[client] = self._running.get(client, 0) + 1
                    if isinstance(got, _Parked):  # its own thread goes on
                        got.go = True
                        self._cond.notify_all()
                        continue
                    job = got
                    self.started += 1
                    job.future.started_at = self.started  # type: ignore[attr-defined]
                    break
            error: BaseException | None = None
            try:
                result = job.fn(*job.args)
            except BaseException as e:
                error = e
            # the worker is given back before the answer is out: the client's next job, asked
            # as soon as it is, must not find this one still thinking (its client then counted
            # one job too many, and another client's jobs started ahead of it until this
            # thread ran again: five at once on a loaded machine)
            with self._cond:
                self._release(client)
            if error is None:
                job.future.set_result(result)
            else:
                job.future.set_exception(error)

    def _release(self, client: str) -> None:
        """(Under the lock.) ``client``'s job gives its worker back."""
        self._active -= 1
        left = self._running[client] - 1
        if left:
            self._running[client] = left
        else:
            del self._running[client]
        self._forget(client)
        self._cond.notify_all()

    def checkpoint(self, client: str) -> None:
        """Called by ``client``'s job between two units of its work, in its thread: when no
        worker is free and another client's job waits for one, that client holding at least
        two workers fewer than ``client`` (and none parked: no back and forth), this job gives
        its worker up and waits for ``client``'s next turn. Clients of one decision each never
        trade workers: each waits for a whole decision, as before. A client served last
        (:meth:`submit` ``low``) gives its worker up as soon as another client's job waits."""
        if not self._queued:  # the usual case, without the lock
            return
        with self._cond:
            if self._shut or self._active < self.workers or (
                    not self._idle
                    and len(self._threads) >= self.workers * (1 + PARKED_PER_WORKER)):
                return
            mine = self._running.get(client, 0)
            if client in self._low:  # work after the fact gives way to any lower rank's job
                rank = self._low[client]
                if not any(self._low.get(other, 0) < rank for other in self._queues):
                    return
            elif not any(other != client and other not in self._parked
                         and other not in self._low
                         and self._running.get(other, 0) + 1 < mine for other in self._queues):
                return
            entry = _Parked()
            self._parked.setdefault(client, deque()).append(entry)
            self._turns[client] = (1, self._next())  # it had its turn: last among equals
            self.yielded += 1
            self._release(client)
            self._wake()
            while not entry.go and not self._shut:
                self._cond.wait()
            if not entry.go:  # shut down while parked: it ends its work (told to stop)
                self._active += 1
                self._running[client] = self._running.get(client, 0) + 1

    def shutdown(self) -> None:
        """Cancel every queued job and let the threads end after their current one (parked
        jobs go on at once: their decisions are told to stop)."""
        with self._cond:
            self._shut = True
            for queues in self._queues.values():
                for jobs in queues.values():
                    for job in jobs:
                        job.future.cancel()
            self._queues.clear()
            self._queued = 0
            self._cond.notify_all()


def ahead(future: Future[Any]) -> int | None:
    """How many jobs of the pool started between ``future``'s queueing and its start
    (``None``: it never started)."""
    started = getattr(future, "started_at", None)
    return None if started is None else started - 1 - future.queued_at  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class Decided:
    """One bot move as the runner made it, told to its :attr:`BotRunner.listeners` (the
    benches time the levels with it): the table as the bot saw it, the bot's spec, the seconds
    from when the move was asked for to its answer (waiting for a worker included: what a
    player waits) and of these the seconds waited for a worker, ``fell_back``: why the
    heuristic played it instead (``"time"``: out of time, ``"failed"``), ``None`` when the bot
    answered, ``cut``: the bot answered after being told its time was up (a search, from
    the worlds it had solved by then), ``client``: who the decision was made for
    (:data:`CLIENT`), and ``ahead``: how many decisions started in the pool between its being
    asked and its start (``None`` when it never started; 0 for a quick bot's)."""

    table_id: str
    table: Table
    spec: str
    seconds: float
    waited: float = 0.0
    fell_back: str | None = None
    cut: bool = False
    client: str = ""
    ahead: int | None = 0
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
    #: When a paced table's move is released (``time.monotonic()``): it thinks until then and
    #: its answer is held until then (:func:`release_seconds`); ``None``: as soon as it answers.
    release: float | None = None
    #: When its answer leaves, once a worker took it: its release, or :data:`LATE_THINK` after
    #: it started when that was later.
    leave_at: float = 0.0
    #: Whose turn it thinks in (:class:`FairPool`).
    client: str = ""
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


#: The number of processes of their own the bots' decisions run in
#: (``$REBELOTE_BOT_PROCESSES``): 0, the default, in threads of the web worker (a small club);
#: N, in N processes beside each web worker, so that the searches never take the event loop's
#: interpreter lock (a site: docs/ops-sizing.md).
PROCESSES_ENV: Final = "REBELOTE_BOT_PROCESSES"
#: The bots a bot process has made (each level's once: their models loaded at its start).
_MADE: dict[str, Bot] = {}


def bot_processes() -> int:
    """``$REBELOTE_BOT_PROCESSES`` (0 to 64), 0 when unset or unreadable."""
    raw = os.environ.get(PROCESSES_ENV, "").strip()
    try:
        value = int(raw) if raw else 0
    except ValueError:
        return 0
    return value if 0 <= value <= 64 else 0


#: How much lower a bot process's priority is than its web worker's (``nice``): on cores the
#: web shares with the bots, the searches wait for the event loop, not the other way round.
PROCESS_NICE: Final = 5


def _start_bot_process() -> None:
    """A bot process starts: it lowers its priority (:data:`PROCESS_NICE`) and makes the
    levels' bots once (their models loaded)."""
    from rebelote.bots import player_levels

    with contextlib.suppress(OSError):
        os.nice(PROCESS_NICE)

    for level in player_levels():
        try:
            _MADE[level.spec] = make_bot(level.spec)
        except Exception as e:  # a level that cannot be made fails at its first decision
            log.warning("bot %s cannot be made in a bot process (%s)", level.spec, e)


def decide_elsewhere(spec: str, table: Table, rng: random.Random, think_until: float
                     ) -> tuple[str | BaseException, bool]:
    """In a bot process: the move of ``spec`` at ``table``, told by STOP at ``think_until``
    (``time.monotonic()``, the same clock in every process of the machine), and whether its
    search was cut short there."""
    bot = _MADE.get(spec)
    if bot is None:
        bot = _MADE[spec] = make_bot(spec)
    deadline = Deadline(think_until)
    token = STOP.set(lambda: time.monotonic() > think_until)
    due = DEADLINE.set(deadline)
    try:
        action = str(table.bot_action(bot, rng))
    except Exception as e:
        return e, False
    finally:
        DEADLINE.reset(due)
        STOP.reset(token)
    return action, deadline.cut or time.monotonic() > think_until


def decision_seconds() -> float:
    raw = os.environ.get(SECONDS_ENV, "")
    try:
        value = float(raw)
    except ValueError:
        return DECISION_SECONDS
    return value if 0.0 < value <= 600.0 else DECISION_SECONDS


class BotRunner:
    """The bots of every table of this worker: a bounded pool, a budget per decision."""

    def __init__(self, workers: int | None = None, seconds: float | None = None,
                 processes: int | None = None) -> None:
        #: Processes of their own the decisions run in (0: threads of this one), and as many
        #: decisions at once as there are (:data:`PROCESSES_ENV`).
        self.processes = bot_processes() if processes is None else max(0, processes)
        self.workers = self.processes or max(1, workers or os.cpu_count() or 1)
        self.seconds = seconds if seconds is not None else decision_seconds()
        self._pool = FairPool(self.workers)
        self._procs: ProcessPoolExecutor | None = None
        self._bots: dict[str, Bot] = {}
        #: the searching bots being made, off the event loop (:meth:`made`)
        self._making: dict[str, asyncio.Future[Bot]] = {}
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
        """The bot ``spec``, made once (a quick bot's making is quick; a searching bot is made
        off the event loop: :meth:`made`)."""
        bot = self._bots.get(spec)
        if bot is None:
            bot = self._bots[spec] = make_bot(spec)
        return bot

    async def made(self, spec: str) -> Bot:
        """:meth:`bot`, its first making in a thread: ``expert``'s loads its model from disk
        (0.3 s), which held the event loop, every table of the worker, at the first
        decision. Two tables asking at once wait for the same making."""
        bot = self._bots.get(spec)
        if bot is not None:
            return bot
        making = self._making.get(spec)
        if making is None:
            making = self._making[spec] = asyncio.ensure_future(
                asyncio.to_thread(make_bot, spec))
        try:
            bot = await asyncio.shield(making)
        finally:
            if making.done():
                self._making.pop(spec, None)
        self._bots.setdefault(spec, bot)
        return self._bots[spec]

    @staticmethod
    def is_quick(table: Table) -> bool:
        """The seat to act is played by a bot that does not search (:data:`QUICK_BOTS`)."""
        return table.bot_to_play and \
            table.seats[table.turn].bot.partition(":")[0] in QUICK_BOTS

    # -- the event loop's moves ---------------------------------------------------------------
    def fallback_move(self, table: Table, rng: random.Random, why: str,
                      table_id: str = "") -> str:
        """The heuristic's move for the seat to act (the random bot's if the heuristic fails
        too), logged with ``why`` and the table's id."""
        spec = table.seats[table.turn].bot
        where = f"table {table_id}" if table_id else "a table"
        try:
            action = table.bot_action(self.bot(FALLBACK), rng)
            log.warning("bot %s at %s: %s; the heuristic plays this move", spec, where, why)
        except Exception as e:
            log.warning("bot %s at %s: %s, and the heuristic failed (%s); the random bot "
                        "plays this move", spec, where, why, type(e).__name__)
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
                action = self.fallback_move(table, rng, f"it failed ({type(e).__name__})",
                                            table_id)
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
    async def decide(self, table_id: str, version: int, table: Table,
                     release: float | None = None) -> str:
        """The move of the bot to act at ``table`` (at ``version``): on the event loop for a
        quick bot, else in the pool within its budget, in the turn of the client who asked
        (:data:`CLIENT`, else the table's own). ``release``: when a paced table's move leaves
        (``time.monotonic()``): a search thinks until then, and every answer is held until
        then. :class:`Superseded` when the table moved on meanwhile (:meth:`moved_on`)."""
        rng = self.rng()
        if self.is_quick(table):
            return self.quick_move(table, rng, table_id)
        spec = table.seats[table.turn].bot
        try:
            bot = await self.made(spec)
        except Exception as e:
            return self.fallback_move(table, rng, f"it cannot be made ({e})", table_id)
        asked = time.monotonic()
        client = client_key(CLIENT.get()) or f"table:{table_id}"
        decision = Decision(version, self._closing, asked, asked + self.seconds, client=client)
        if release is not None:
            decision.release = min(release, decision.deadline)
        self._live.setdefault(table_id, set()).add(decision)
        future: Future[Any] | None = None
        try:
            future = self._pool.submit(client, table_id, self._think, decision, table, bot, rng)
            got = await self._wait(decision, future)
            if decision.release is not None and decision.started is not None \
                    and not decision.dropped():
                # a forced move (or a quick search) is held until its release: no move
                # leaves earlier than another
                await asyncio.sleep(max(0.0, decision.leave_at - time.monotonic()))
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
            action = self.fallback_move(table, rng, f"it failed ({type(got).__name__})",
                                        table_id)
        elif got is None:
            self.fell_back += 1
            fell_back = "time"
            action = self.fallback_move(table, rng, f"its decision ran out of time "
                                                    f"({self.seconds:g} s)", table_id)
        else:
            action = str(got)
            if decision.cut and decision.release is None:
                log.info("bot %s at a table: its decision was cut short at its time cap "
                         "(%g s): it answered from the worlds it had solved", spec,
                         self.seconds)
        now = time.monotonic()
        waited = (now if decision.started is None else decision.started) - asked
        before = None if future is None else ahead(future)
        if self.listeners:
            self._tell(Decided(table_id, table, spec, now - asked, waited, fell_back,
                               decision.cut and fell_back is None, client, before,
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
        if decision.release is None:
            decision.think_until = min(decision.deadline, now + THINK_SHARE * self.seconds)
        else:  # a paced move leaves at its release (a little later when it started late);
            # its search stops a margin before, so that the world it is solving ends in time
            leave = min(decision.deadline, max(decision.release, now + LATE_THINK))
            decision.leave_at = leave
            decision.think_until = leave - min(RELEASE_MARGIN, 0.25 * (leave - now))
        decision.started = now
        if self.processes:
            return self._think_elsewhere(decision, table, rng)
        client = decision.client

        def stop() -> bool:  # between two worlds: give the worker up to another client's turn
            self._pool.checkpoint(client)
            return decision.time_is_up()

        token = STOP.set(stop)
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

    def _bot_processes(self) -> ProcessPoolExecutor:
        if self._procs is None:
            import multiprocessing

            self._procs = ProcessPoolExecutor(
                self.processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_bot_process)
        return self._procs

    def _think_elsewhere(self, decision: Decision, table: Table, rng: random.Random
                         ) -> str | BaseException | None:
        """(In a worker thread, :attr:`processes` set.) The decision made in a bot process,
        within the same time: its answer dropped if the table moved on or the server stops
        meanwhile (the process ends that search at its time, a world later at most)."""
        try:
            future = self._bot_processes().submit(
                decide_elsewhere, table.seats[table.turn].bot, table, rng,
                decision.think_until)
        except RuntimeError:  # shut down: the server stops
            return None
        while True:
            try:
                got, cut = future.result(timeout=0.05)
                break
            except TimeoutError:
                if decision.dropped():
                    future.cancel()
                    return None
            except Exception as e:  # a bot process that died: the heuristic plays it
                return e
        if decision.dropped():
            return None
        decision.cut = cut
        return got

    def moved_on(self, table_id: str, version: int) -> None:
        """``table_id`` is at ``version`` now: the decisions made for an older one stop."""
        for decision in self._live.get(table_id, ()):
            if decision.version < version:
                decision.superseded = True
                decision.stop.set()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the pool (other bounded work of the tables: an analysis), in the
        turn of the client who asked (:data:`CLIENT`)."""
        client = client_key(CLIENT.get()) or "run"
        return await asyncio.wrap_future(self._pool.submit(client, "run", fn, *args))

    async def run_last(self, key: str, fn: Callable[..., T], *args: Any,
                       ahead: bool = False, client: str | None = None) -> T:
        """``fn(*args)`` in the pool, served last (:meth:`FairPool.submit` ``low``): only when
        no live decision or other work waits for a worker; a search it runs gives its worker
        up between two worlds as soon as another job waits (:meth:`FairPool.checkpoint`), and
        goes on later with every world it was to solve (it is never cut short: the same
        answer whatever the load). ``ahead``: work started before it is needed (a deal's
        replay while the deal goes on), served after the rest of this work too, until
        promoted (:meth:`promote`). ``client``: whose turn it takes (by default :data:`LOW_CLIENT`,
        or :data:`AHEAD_CLIENT`)."""
        pool = self._pool
        client = client or (AHEAD_CLIENT if ahead else LOW_CLIENT)

        def low() -> T:
            def stop() -> bool:
                pool.checkpoint(client)
                return False

            token = STOP.set(stop)
            try:
                return fn(*args)
            finally:
                STOP.reset(token)

        return await asyncio.wrap_future(pool.submit(client, key, low, low=2 if ahead else 1))

    def promote(self, client: str) -> None:
        """``client``'s work :meth:`run_last` ``ahead`` is needed now: it takes the rank of
        the rest of that work (its job waiting, or running, goes before the work ahead)."""
        self._pool.rerank(client, 1)

    def close(self) -> None:
        """Stop every decision now (each ends within one world's solve) and the pool's
        threads; a later decision gets a fresh pool (an app started again)."""
        self._closing.set()
        for decisions in self._live.values():
            for decision in decisions:
                decision.stop.set()
        self._pool.shutdown()
        self._pool = FairPool(self.workers)
        if self._procs is not None:
            self._procs.shutdown(wait=False, cancel_futures=True)
            self._procs = None
        self._closing = threading.Event()


__all__ = ["CLIENT", "DECISION_SECONDS", "GRACE", "PROCESSES_ENV", "QUICK_BOTS",
           "RELEASE_SECONDS",
           "THINK_SHARE", "BotRunner", "Decided", "FairPool", "Superseded", "client_key",
           "release_seconds"]
