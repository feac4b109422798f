"""The web server's limits per client, in one place (issue 17, items 6 and 9).

A client is the address a request comes from (behind a proxy trusted with
``rebelote serve --forwarded-allow-ips``, the address the proxy names). The defaults are far above
what a club evening does from one address (a club's box behind one public address included), and
far below what a script does:

- **rates** (token buckets: a burst of ``burst_minutes`` minutes' worth, then ``N`` a minute):
  table creations, counter game creations and imports, and *failed* joins (an unknown code, a
  kept seat without its invitation, a full room). Past them: ``429`` with ``Retry-After``,
  nothing done;
- **live connections**: sockets of one table from one client, live sheets (server-sent events) of
  one game and of one client: past them, the new one is refused (``429``);
- **slow clients**: a request's headers must arrive within ``header_timeout`` seconds of the
  connection (or of the last answer on it), and its whole body within ``body_timeout`` seconds
  of its headers, however steadily it trickles (``408`` past that).

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

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Final

from rebelote.errors import InputError
from rebelote.numbers import whole_number

#: The environment variable ``rebelote serve`` hands its ``--limits`` to the workers in.
LIMITS_ENV: Final = "REBELOTE_LIMITS"
#: Clients remembered per bucket (the least recently seen are forgotten past it).
MAX_CLIENTS: Final = 50_000


@dataclass(frozen=True, slots=True)
class Limits:
    """Every limit of the web server (see the module's text)."""

    tables_per_minute: int = 120
    games_per_minute: int = 120
    failed_joins_per_minute: int = 30
    #: A rate's bucket holds this many minutes' worth (a burst, then the rate).
    burst_minutes: int = 5
    sockets_per_table: int = 16
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
            out = replace(out, **{name: whole_number(value, f"limits.{name}", low=0)})
        return out


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
                 now: Callable[[], float] = time.monotonic) -> None:
        self.capacity = float(per_minute * max(burst_minutes, 1))
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


class Counter:
    """Open things (sockets, streams) per key, refused past ``cap`` (0: no cap).

    >>> c = Counter(1)
    >>> c.open("k"), c.open("k"), c.close("k"), c.open("k")
    (True, False, None, True)
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.counts: dict[str, int] = {}

    def open(self, key: str) -> bool:
        n = self.counts.get(key, 0)
        if self.cap and n >= self.cap:
            return False
        self.counts[key] = n + 1
        return True

    def close(self, key: str) -> None:
        n = self.counts.get(key, 0) - 1
        if n > 0:
            self.counts[key] = n
        else:
            self.counts.pop(key, None)


__all__ = ["LIMITS_ENV", "Counter", "Limits", "RateLimiter"]
