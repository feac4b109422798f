"""The web server's limits per client, in one place (issue 17, items 6 and 9).

A client is the address a request comes from (behind a proxy trusted with
``rebelote serve --forwarded-allow-ips``, the address the proxy names). The defaults are far above
what a club evening does from one address (a club's box behind one public address included), and
far below what a script does:

- **rates** (token buckets: a burst of ``burst_minutes`` minutes' worth, then ``N`` a minute;
  tables: a burst of ``tables_burst``): table creations, counter game creations and imports,
  and *failed* joins (an unknown code, a kept seat without its invitation, a full room). Past
  them: ``429`` with ``Retry-After``, nothing done;
- **live connections**: sockets of one table from one client, sockets of one client across
  every table, live sheets (server-sent events) of one game and of one client: past them, the
  new one is refused (``429``, a socket closed with ``4429``); a socket on which nothing passed
  either way for ``socket_idle_timeout`` seconds is closed (the page opens another);
- **concours**: creations per address (a rate, as above), entries per concours, counter games a
  concours opens for its tables' phones, the bytes of a creation's body (``422``/``413`` past
  them);
- **slow clients**: a request's headers must arrive within ``header_timeout`` seconds of the
  connection (or of the last answer on it), and its whole body within ``body_timeout`` seconds
  of its headers, however steadily it trickles (``408`` past that).

A **client** is an IPv4 address, or an IPv6 network of ``ipv6_prefix`` bits (a /64: what one
home or one host is given, so that a client cannot take a new address for each request)
(:func:`client_key`). The counts are kept where every worker sees them: in memory for one
process (SQLite), in the database on PostgreSQL (:class:`SqlLimitStore`), so that two workers
enforce one limit, not two.

``rebelote serve --limits tables_per_minute=300,sockets_per_table=32`` changes them
(:meth:`Limits.parse`).

>>> Limits.parse("tables_per_minute=300, body_timeout=5").tables_per_minute
300
>>> Limits.parse("nothing=1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
rebelote.errors.InputError: limits: 'nothing' is not a limit (known: body_timeout, ...)
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import math
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Final

from sqlalchemy.exc import SQLAlchemyError

from rebelote.errors import InputError
from rebelote.numbers import whole_number

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

#: The environment variable ``rebelote serve`` hands its ``--limits`` to the workers in.
LIMITS_ENV: Final = "REBELOTE_LIMITS"
#: Clients remembered per bucket (the least recently seen are forgotten past it).
MAX_CLIENTS: Final = 50_000


@dataclass(frozen=True, slots=True)
class Limits:
    """Every limit of the web server (see the module's text)."""

    #: Tables a client may start: a burst of ``tables_burst`` (a club's evening from one
    #: address is a few dozen), then ``tables_per_minute``.
    tables_per_minute: int = 10
    tables_burst: int = 60
    games_per_minute: int = 120
    failed_joins_per_minute: int = 30
    #: A rate's bucket holds this many minutes' worth (a burst, then the rate).
    burst_minutes: int = 5
    sockets_per_table: int = 16
    #: Sockets one client holds across every table (a club's room behind one address: a few
    #: dozen players, one or two tabs each).
    sockets_per_client: int = 200
    #: Seconds a socket may stay with nothing passing either way (the page reconnects).
    socket_idle_timeout: int = 900
    #: Watchers' sockets of one table, all clients together (a watch link handed round a
    #: club is a few dozen).
    watchers_per_table: int = 200
    streams_per_game: int = 300
    streams_per_client: int = 40
    header_timeout: int = 20
    body_timeout: int = 30
    #: The largest WebSocket message, in bytes (a view is pushed by the server; a client only
    #: sends its secret).
    ws_max_size: int = 65_536
    #: ``Strict-Transport-Security: max-age`` sent on HTTPS (0: none).
    hsts_seconds: int = 31_536_000
    #: Concours created from one address: a burst of ``burst_minutes`` minutes' worth, then
    #: this many a minute (a club creates one an evening).
    concours_per_minute: int = 6
    #: Entries (teams, or players à la mêlée) of one concours (the largest concours found
    #: have 148 teams).
    concours_teams: int = 400
    #: Counter games one concours opens for its tables' phones in its life (a draw redone or
    #: cancelled removes its games, but they count): 150 teams over 6 parties open 450.
    concours_games: int = 3000
    #: The largest body of a concours's creation, in bytes (400 teams with long names and
    #: four players each: about 120 kB).
    concours_body: int = 262_144
    #: The bits of an IPv6 address that name one client (64: a /64).
    ipv6_prefix: int = 64

    @classmethod
    def parse(cls, text: str | None) -> Limits:
        """``name=value,name=value`` over the defaults; an :class:`InputError` on
        ``limits`` naming a wrong name or value."""
        out = cls()
        known = {f.name for f in fields(cls)}
        for part in (text or "").split(","):
            if not part.strip():
                continue
            name, eq, value = part.partition("=")
            name = name.strip()
            if name not in known:
                raise InputError("limits", f"{name!r} is not a limit (known: "
                                           f"{', '.join(sorted(known))})")
            if not eq:
                raise InputError("limits", f"{name}: give a value, like {name}=10")
            high = 128 if name == "ipv6_prefix" else None
            out = replace(out, **{name: whole_number(value, f"limits.{name}", low=0,
                                                     high=high)})
        return out

    def capacity(self, kind: str) -> float:
        """The burst of the rate ``kind`` (``tables``, ``games``, ``joins``, ``concours``)."""
        if kind == "tables":
            return float(self.tables_burst or self.tables_per_minute * max(self.burst_minutes, 1))
        return float(self.per_minute(kind) * max(self.burst_minutes, 1))

    def per_minute(self, kind: str) -> int:
        """The rate ``kind`` a minute (0: no limit)."""
        return {"tables": self.tables_per_minute, "games": self.games_per_minute,
                "joins": self.failed_joins_per_minute,
                "concours": self.concours_per_minute}[kind]


def client_key(address: str, ipv6_prefix: int = 64) -> str:
    """The client an address counts as: an IPv4 address itself, an IPv6 address's network of
    ``ipv6_prefix`` bits (an IPv4 address mapped into IPv6 is that IPv4 address), anything else
    (a test client's name) as it is.

    >>> client_key("203.0.113.7"), client_key("2001:db8:1:2:aaaa::1")
    ('203.0.113.7', '2001:db8:1:2::/64')
    >>> client_key("2001:db8:1:2:ffff:1:2:3") == client_key("2001:db8:1:2::9")
    True
    >>> client_key("::ffff:198.51.100.4"), client_key("testclient")
    ('198.51.100.4', 'testclient')
    """
    try:
        ip = ipaddress.ip_address(address.strip("[]").split("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, min(ipv6_prefix, 128)), strict=False))
    return str(ip)


class RateLimiter:
    """Token buckets per client: a burst of ``burst_minutes`` times ``per_minute``, refilled
    at ``per_minute`` a minute. ``0``: no limit.

    >>> clock = [0.0]
    >>> rate = RateLimiter(2, now=lambda: clock[0])
    >>> rate.take("a"), rate.take("a"), rate.take("a"), rate.take("b")
    (0.0, 0.0, 30.0, 0.0)
    >>> clock[0] = 30.0
    >>> rate.take("a")
    0.0
    """

    def __init__(self, per_minute: int, burst_minutes: int = 1,
                 now: Callable[[], float] = time.monotonic, *, burst: float = 0.0) -> None:
        self.capacity = float(burst or per_minute * max(burst_minutes, 1)) if per_minute else 0.0
        self.rate = per_minute / 60.0
        self._now = now
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def _level(self, client: str) -> float:
        now = self._now()
        level, at = self._buckets.get(client, (self.capacity, now))
        return min(self.capacity, level + (now - at) * self.rate)

    def wait(self, client: str) -> float:
        """Seconds before ``client`` may act again (0: now), taking nothing."""
        if not self.capacity:
            return 0.0
        level = self._level(client)
        return 0.0 if level >= 1.0 else float(math.ceil((1.0 - level) / self.rate))

    def take(self, client: str) -> float:
        """Take one from ``client``'s bucket: 0 if it could, else the seconds to wait (and
        nothing taken)."""
        if not self.capacity:
            return 0.0
        wait = self.wait(client)
        if wait:
            return wait
        self.charge(client)
        return 0.0

    def charge(self, client: str) -> None:
        """Take one from ``client``'s bucket, whatever it holds (an attempt that failed)."""
        if not self.capacity:
            return
        level = self._level(client)
        self._buckets[client] = (max(level - 1.0, -1.0), self._now())
        self._buckets.move_to_end(client)
        while len(self._buckets) > MAX_CLIENTS:
            self._buckets.popitem(last=False)

    def give_back(self, client: str) -> None:
        """Put one back in ``client``'s bucket (taken for an attempt that did not count)."""
        if not self.capacity or client not in self._buckets:
            return
        level = self._level(client)
        self._buckets[client] = (min(level + 1.0, self.capacity), self._now())


class Counter:
    """Open things (sockets, streams) per key, refused past ``cap`` (0: no cap; ``open``
    may name another cap).

    >>> c = Counter(1)
    >>> c.open("k"), c.open("k"), c.close("k"), c.open("k")
    (True, False, None, True)
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.counts: dict[str, int] = {}

    def open(self, key: str, cap: int | None = None) -> bool:
        n = self.counts.get(key, 0)
        cap = self.cap if cap is None else cap
        if cap and n >= cap:
            return False
        self.counts[key] = n + 1
        return True

    def close(self, key: str) -> None:
        n = self.counts.get(key, 0) - 1
        if n > 0:
            self.counts[key] = n
        else:
            self.counts.pop(key, None)


RATES: Final = ("tables", "games", "joins", "concours")


class LimitStore:
    """Where the counts of every limit are kept: the rates' buckets (per kind and client) and
    the open things (sockets, live sheets) per key. This one keeps them in this process's
    memory (one worker: SQLite, or tests); :class:`SqlLimitStore` in the database, for every
    worker at once."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.rates = {kind: RateLimiter(limits.per_minute(kind), limits.burst_minutes,
                                        burst=limits.capacity(kind)) for kind in RATES}
        self.counts = Counter(0)

    async def take(self, kind: str, client: str) -> float:
        """Take one from ``client``'s bucket of ``kind``: 0 if it could, else the seconds to
        wait (nothing taken)."""
        return self.rates[kind].take(client)

    async def give_back(self, kind: str, client: str) -> None:
        """Put back one taken by :meth:`take` (the attempt did not count: a join that
        worked)."""
        self.rates[kind].give_back(client)

    async def open(self, key: str, cap: int) -> bool:
        """One more open thing under ``key``, unless ``cap`` (0: none) are open already."""
        return self.counts.open(key, cap)

    async def close(self, key: str) -> None:
        """One open thing under ``key`` closed."""
        self.counts.close(key)

    def held(self) -> int:
        """Keys with something open (0 once everything closed: nothing kept after close)."""
        return len(self.counts.counts)

    async def aclose(self) -> None:
        """Let go of what this worker holds (at shutdown)."""


#: Seconds after which a worker that stopped refreshing its counts (killed) is not counted.
STALE_SECONDS: Final = 90.0
#: Seconds between two refreshes of a worker's counts.
REFRESH_SECONDS: Final = 20.0

_log = logging.getLogger(__name__)


class SqlLimitStore(LimitStore):
    """The counts in PostgreSQL, shared by every worker on the database (two workers enforce
    one limit). Two unlogged tables, made when first needed (they hold counts of a few minutes,
    not data: a restart of the database may empty them):

    - ``rebelote_limit_rates (key, level, at)``: a token bucket per kind and client, taken in
      one transaction under the row's lock (workers never both take the last token); ``at``
      is the database's clock, the same for every worker and machine;
    - ``rebelote_limit_holds (worker, key, n, seen)``: what each worker holds open per key,
      refreshed by the worker every :data:`REFRESH_SECONDS`; a worker that stopped refreshing
      (killed) is not counted after :data:`STALE_SECONDS`. Opening checks the sum of every
      worker under an advisory lock on the key.

    Each call runs in a thread (the event loop never waits on the database). While the
    database is away, the worker counts alone, in its memory (a warning is logged): the
    limits hold per worker until it is back, and no request fails for them.
    """

    def __init__(self, limits: Limits, url: str) -> None:
        super().__init__(limits)
        from sqlalchemy import create_engine

        self.engine: Engine = create_engine(url, pool_size=3, max_overflow=3,
                                            pool_pre_ping=True)
        self.worker = f"{os.getpid()}-{secrets.token_hex(6)}"
        self._ready = False
        self._refresher: asyncio.Task[None] | None = None
        self._calls = 0
        #: what this worker opened while the database was away (counted here alone)
        self._alone = Counter(0)

    def _setup(self) -> None:
        from sqlalchemy import text

        if self._ready:
            return
        with self.engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('rebelote_limits'))"))
            conn.execute(text(
                "CREATE UNLOGGED TABLE IF NOT EXISTS rebelote_limit_rates ("
                "key text PRIMARY KEY, level double precision NOT NULL, "
                "at double precision NOT NULL)"))
            conn.execute(text(
                "CREATE UNLOGGED TABLE IF NOT EXISTS rebelote_limit_holds ("
                "worker text NOT NULL, key text NOT NULL, n integer NOT NULL, "
                "seen double precision NOT NULL, PRIMARY KEY (worker, key))"))
        self._ready = True

    def _take(self, kind: str, client: str, force: bool) -> float:
        from sqlalchemy import text

        self._setup()
        capacity, rate = self.rates[kind].capacity, self.rates[kind].rate
        key = f"{kind} {client}"
        with self.engine.begin() as conn:
            now = float(conn.execute(text(
                "SELECT extract(epoch from clock_timestamp())")).scalar_one())
            conn.execute(text(
                "INSERT INTO rebelote_limit_rates (key, level, at) VALUES (:k, :c, :t) "
                "ON CONFLICT (key) DO NOTHING"), {"k": key, "c": capacity, "t": now})
            level, at = conn.execute(text(
                "SELECT level, at FROM rebelote_limit_rates WHERE key = :k FOR UPDATE"),
                {"k": key}).one()
            level = min(capacity, level + max(now - at, 0.0) * rate)
            wait = 0.0
            if force:
                level = min(level + 1.0, capacity)
            elif level >= 1.0:
                level -= 1.0
            else:
                wait = float(math.ceil((1.0 - level) / rate))
            conn.execute(text("UPDATE rebelote_limit_rates SET level = :l, at = :t "
                              "WHERE key = :k"), {"k": key, "l": level, "t": now})
            self._calls += 1
            if self._calls % 500 == 0:  # full buckets are as good as none: forgotten
                conn.execute(text("DELETE FROM rebelote_limit_rates WHERE at < :old"),
                             {"old": now - max(self._full_after(), 3600.0)})
        return wait

    def _full_after(self) -> float:
        return max((r.capacity / r.rate for r in self.rates.values() if r.capacity), default=0)

    async def take(self, kind: str, client: str) -> float:
        if not self.rates[kind].capacity:
            return 0.0
        try:
            return await asyncio.to_thread(self._take, kind, client, False)
        except SQLAlchemyError as e:  # the database away: this worker counts alone meanwhile
            _down(e)
            return self.rates[kind].take(client)

    async def give_back(self, kind: str, client: str) -> None:
        if self.rates[kind].capacity:
            try:
                await asyncio.to_thread(self._take, kind, client, True)
            except SQLAlchemyError as e:
                _down(e)
                self.rates[kind].give_back(client)

    def _open(self, key: str, cap: int) -> bool:
        from sqlalchemy import text

        self._setup()
        with self.engine.begin() as conn:
            now = float(conn.execute(text(
                "SELECT extract(epoch from clock_timestamp()) "
                "FROM (SELECT pg_advisory_xact_lock(hashtext(:k))) AS locked"),
                {"k": key}).scalar_one())
            if cap:
                total = conn.execute(text(
                    "SELECT coalesce(sum(n), 0) FROM rebelote_limit_holds "
                    "WHERE key = :k AND seen > :fresh"),
                    {"k": key, "fresh": now - STALE_SECONDS}).scalar_one()
                if total >= cap:
                    return False
            conn.execute(text(
                "INSERT INTO rebelote_limit_holds AS h (worker, key, n, seen) "
                "VALUES (:w, :k, 1, :t) ON CONFLICT (worker, key) "
                "DO UPDATE SET n = h.n + 1, seen = :t"),
                {"w": self.worker, "k": key, "t": now})
        return True

    def _close(self, key: str) -> None:
        from sqlalchemy import text

        with self.engine.begin() as conn:
            conn.execute(text("UPDATE rebelote_limit_holds SET n = n - 1 "
                              "WHERE worker = :w AND key = :k"), {"w": self.worker, "k": key})
            conn.execute(text("DELETE FROM rebelote_limit_holds "
                              "WHERE worker = :w AND key = :k AND n <= 0"),
                         {"w": self.worker, "k": key})

    def _refresh(self) -> None:
        from sqlalchemy import text

        with self.engine.begin() as conn:
            now = float(conn.execute(text(
                "SELECT extract(epoch from clock_timestamp())")).scalar_one())
            conn.execute(text("UPDATE rebelote_limit_holds SET seen = :t WHERE worker = :w"),
                         {"w": self.worker, "t": now})
            conn.execute(text("DELETE FROM rebelote_limit_holds WHERE seen < :old"),
                         {"old": now - 10 * STALE_SECONDS})  # killed workers' rows

    async def _refreshing(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            try:
                await asyncio.to_thread(self._refresh)
            except Exception as e:
                _log.warning("limits: could not refresh this worker's counts: %s", e)

    async def open(self, key: str, cap: int) -> bool:
        if self._refresher is None or self._refresher.done():
            self._refresher = asyncio.get_running_loop().create_task(self._refreshing())
        try:
            opened = await asyncio.to_thread(self._open, key, cap)
        except SQLAlchemyError as e:  # the database away: this worker counts alone meanwhile
            _down(e)
            return self._alone.open(key, cap)
        if opened:
            self.counts.open(key, 0)  # this worker's own, for held() and close
        return opened

    async def close(self, key: str) -> None:
        if key in self._alone.counts:
            self._alone.close(key)
            return
        self.counts.close(key)
        try:
            await asyncio.to_thread(self._close, key)
        except SQLAlchemyError as e:  # the row stops counting once this worker's go stale
            _down(e)

    def held(self) -> int:
        return len(self.counts.counts) + len(self._alone.counts)

    async def aclose(self) -> None:
        from sqlalchemy import text

        if self._refresher is not None:
            self._refresher.cancel()
        if self._ready:
            def drop() -> None:
                with self.engine.begin() as conn:
                    conn.execute(text("DELETE FROM rebelote_limit_holds WHERE worker = :w"),
                                 {"w": self.worker})

            try:
                await asyncio.to_thread(drop)
            except Exception as e:
                _log.warning("limits: could not let go of this worker's counts: %s", e)
        self.engine.dispose()


def _down(e: Exception) -> None:
    _log.warning("limits: the database is away, this worker counts alone meanwhile: %s",
                 str(e).splitlines()[0] if str(e) else type(e).__name__)


def limit_store(limits: Limits, db_url: str | None) -> LimitStore:
    """The store of the counts for a server on ``db_url``: the database's on PostgreSQL
    (several workers share it), this process's memory otherwise."""
    if db_url and db_url.startswith("postgresql"):
        return SqlLimitStore(limits, db_url)
    return LimitStore(limits)


__all__ = ["LIMITS_ENV", "Counter", "LimitStore", "Limits", "RateLimiter", "SqlLimitStore",
           "client_key", "limit_store"]
