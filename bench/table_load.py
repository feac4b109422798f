"""Load on the play table: many tables played at once by scripted clients through the API (and
their WebSockets), side by side with the counter's deal additions and a trivial route, in the
same run against the same server.

Starts ``rebelote serve`` on a free loopback port with a temporary SQLite file (or targets a
running server with ``--url``), then measures, each run bounded in count and in time:

- **baseline**: ``GET /healthz``;
- **counter**: ``POST /api/counter/games/{id}/deals`` (the counter's bench, same clients);
- **table actions**: each client plays its own table (``pace`` 0, random bots by default so
  that the bots' thinking stays out of the figure): ``POST /api/tables/{id}/actions`` with a
  legal action of its view, a new table when a game is won; with ``--sockets`` (default) each
  table also has a WebSocket open whose pushed views are counted.

Prints actions per second, p50/p99 latency of an action's answer, the ratios to the baseline
and to the counter, and whether the goal (50 tables, p99 < 100 ms on SQLite) is met.

    .venv/bin/python bench/table_load.py --clients 50 --requests 5000 --seconds 20
    .venv/bin/python bench/table_load.py --db postgresql+psycopg://.../db --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from counter_load import Connection, Run, measure, start_server

GOAL_TABLES = 50
GOAL_P99_MS = 100.0


class AuthConnection(Connection):
    """A keep-alive connection that sends a bearer token."""

    token = ""

    async def request(self, method: str, path: str, body: bytes = b"", token: str = ""
                      ) -> tuple[int, bytes]:
        return await super().request(method, path, body, token or self.token)


_VERSION = re.compile(rb'"version":(\d+)')


async def _drain(url: str, token: str, pushed: list[int], opened: asyncio.Event,
                 answered: dict[int, float], delays: list[float]) -> None:
    """The table's socket: counts the views pushed and, for each action answered (its version
    and when), how long after the answer a view of that version (or a later one) arrived."""
    import websockets

    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"token": token}))
        async for message in ws:
            now = time.perf_counter()
            opened.set()
            pushed[0] += 1
            found = _VERSION.search(message if isinstance(message, bytes) else message.encode())
            if found:
                version = int(found.group(1))
                for v in [v for v in answered if v <= version]:
                    delays.append(now - answered.pop(v))


async def _table_client(host: str, port: int, run: Run, budget: list[int], stop: float,
                        game: str, bots: str, sockets: bool, pushed: list[int], tables: list[str],
                        seed: int, socket_waits: list[float], delays: list[float]) -> None:
    conn = AuthConnection(host, port)
    await conn.open()
    rng = random.Random(seed)
    create = json.dumps({"game": game, "bots": bots, "target": 501}).encode()
    watcher: asyncio.Task[None] | None = None
    answered: dict[int, float] = {}  # the versions answered, not yet seen on the socket
    try:
        view: dict[str, object] = {"over": True}
        while budget[0] > 0 and time.perf_counter() < stop:
            if view.get("over"):
                if watcher is not None:
                    watcher.cancel()
                conn.token = ""
                status, payload = await conn.request("POST", "/api/tables", create)
                if status != 201:
                    raise RuntimeError(f"creating a table answered {status}: {payload[:200]!r}")
                view = json.loads(payload)
                conn.token = str(view["token"])
                tables.append(str(view["id"]))
                if sockets:  # the table's page is open (its first view came) before play
                    opened = asyncio.Event()
                    answered = {}
                    t0 = time.perf_counter()
                    watcher = asyncio.create_task(_drain(
                        f"ws://{host}:{port}/api/tables/{view['id']}/ws", conn.token, pushed,
                        opened, answered, delays))
                    try:
                        await asyncio.wait_for(opened.wait(), 30)
                        socket_waits.append(time.perf_counter() - t0)
                    except TimeoutError:
                        socket_waits.append(float("inf"))  # counted: no view in 30 s
                continue
            legal = [a for a in view["legal"] if a != "no-declaration"]  # type: ignore[union-attr]
            if view["phase"] == "auction" and "pass" in legal and rng.random() < 0.7:
                action = "pass"
            else:
                action = rng.choice(legal)
            budget[0] -= 1
            t0 = time.perf_counter()
            status, payload = await conn.request(
                "POST", f"/api/tables/{view['id']}/actions",
                json.dumps({"action": action}).encode())
            now = time.perf_counter()
            run.latencies.append(now - t0)
            if status != 200:
                run.errors += 1
                status, payload = await conn.request("GET", f"/api/tables/{view['id']}")
            view = json.loads(payload)
            if sockets:
                answered[int(view["version"])] = now  # type: ignore[call-overload]
    finally:
        if watcher is not None:
            watcher.cancel()
            with contextlib.suppress(BaseException):
                await watcher
        await conn.close()


@dataclass
class TableRun:
    """What the table run saw: the actions' answers, the tables played, the views pushed on
    the sockets and how long each table's socket took to bring its first view."""

    run: Run
    tables: list[str] = field(default_factory=list)
    pushed: list[int] = field(default_factory=lambda: [0])
    socket_waits: list[float] = field(default_factory=list)
    push_delays: list[float] = field(default_factory=list)

    def pushes_line(self) -> str:
        """How long after an action's answer the table's socket showed that version."""
        if not self.push_delays:
            return "socket pushes: none measured"
        ordered = sorted(self.push_delays)

        def ms(p: float) -> float:
            return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000
        return (f"socket pushes: {len(ordered)} actions seen on their table's socket, "
                f"after the action's answer p50 {ms(50):.1f} ms, p99 {ms(99):.1f} ms")

    def sockets_line(self) -> str:
        if not self.socket_waits:
            return "sockets: none"
        waits = sorted(self.socket_waits)
        late = sum(1 for w in waits if w == float("inf"))
        return (f"sockets: {len(waits)} opened ({late} with no view within 30 s), first "
                f"view after p50 "
                f"{waits[len(waits) // 2] * 1000:.0f} ms, p99 "
                f"{waits[min(len(waits) - 1, int(0.99 * len(waits)))] * 1000:.0f} ms")


async def measure_tables(host: str, port: int, clients: int, requests: int, seconds: float,
                         game: str, bots: str, sockets: bool) -> TableRun:
    out = TableRun(Run("POST actions"))
    budget = [requests]
    t0 = time.perf_counter()
    await asyncio.gather(*(_table_client(host, port, out.run, budget, t0 + seconds, game, bots,
                                         sockets, out.pushed, out.tables, i, out.socket_waits,
                                         out.push_delays)
                           for i in range(clients)))
    out.run.elapsed = time.perf_counter() - t0
    await asyncio.sleep(0.2)
    return out


def server_cpu(pid: int) -> float | None:
    """CPU seconds (user and system) used so far by process ``pid`` and its children (the
    workers), from ``/proc``; ``None`` where there is no ``/proc``."""
    try:
        ticks = os.sysconf("SC_CLK_TCK")
        stats = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                    stats[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    except (OSError, ValueError):
        return None
    family, total, grew = {pid}, 0, True
    while grew:
        grew = False
        for child, (parent, _) in stats.items():
            if parent in family and child not in family:
                family.add(child)
                grew = True
    for member in family:
        total += stats.get(member, (0, 0))[1]
    return total / ticks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running server (default: start one on SQLite)")
    parser.add_argument("--clients", type=int, default=GOAL_TABLES, help="tables at once")
    parser.add_argument("--requests", type=int, default=5000, help="requests of each run")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each run at most")
    parser.add_argument("--game", default="coinche", choices=["belote", "coinche"])
    parser.add_argument("--bots", default="random", help="the tables' bots")
    parser.add_argument("--no-sockets", dest="sockets", action="store_false",
                        help="no WebSocket per table")
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--db", help="the started server's database URL (default: a temporary "
                                     "SQLite file; PostgreSQL for --workers 2 and more)")
    args = parser.parse_args()
    if args.workers > 1 and not (args.db or "").startswith("postgresql"):
        parser.error("--workers: several workers share tables through PostgreSQL only "
                     "(--db postgresql+psycopg://...)")

    load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    proc = None
    tmp = None
    if args.url:
        base_url, db = args.url, "(the server's)"
    else:
        if args.db:
            db = args.db
        else:
            tmp = tempfile.TemporaryDirectory(prefix="rebelote-bench-")
            db = f"sqlite:///{tmp.name}/tables.sqlite3"
        proc, base_url = start_server(db, args.workers)
    parts = urlsplit(base_url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    try:
        base, adds, _ = asyncio.run(measure(host, port, args.clients, args.requests,
                                            args.seconds, 12))
        cpu0 = server_cpu(proc.pid) if proc is not None else None
        own0 = time.process_time()
        played = asyncio.run(measure_tables(
            host, port, args.clients, args.requests, args.seconds, args.game, args.bots,
            args.sockets))
        cpu1 = server_cpu(proc.pid) if proc is not None else None
        own = time.process_time() - own0
        acts = played.run
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=15)
        if tmp is not None:
            tmp.cleanup()

    print(f"machine: {platform.machine()} {os.cpu_count()} cores, {platform.system()} "
          f"{platform.release()}, Python {platform.python_version()}, {args.workers} worker(s)")
    print(f"load average before the runs: {load_before}; after: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} (other processes share the CPUs)")
    print(f"database: {db}")
    print(f"load: {args.clients} clients, at most {args.requests} requests or "
          f"{args.seconds:g} s a run; {args.game} tables, bots {args.bots}, "
          f"{len(played.tables)} tables played, {played.pushed[0]} views pushed on "
          f"WebSockets; {played.sockets_line()}")
    print(base.line())
    print(adds.line().replace("POST deals      ", "counter deals   "))
    print(acts.line().replace("POST actions    ", "table actions   "))
    if args.sockets:
        print(played.pushes_line())
    if cpu0 is not None and cpu1 is not None and acts.latencies:
        print(f"server CPU during the table run: {cpu1 - cpu0:.2f} s, "
              f"{(cpu1 - cpu0) / len(acts.latencies) * 1000:.2f} ms an action (its bots' "
              "moves, its socket push and the tables' creation included; less sensitive "
              "to the machine's other load than the latencies)")
    print(f"the clients' own CPU during the table run: {own:.2f} s in {acts.elapsed:.2f} s "
          f"(the load generator shares the machine's cores with the server)")
    print(f"ratio table actions / baseline: {acts.rate / base.rate:.2f}; "
          f"/ counter deal additions: {acts.rate / adds.rate:.2f}")
    ok = args.clients >= GOAL_TABLES and acts.percentile(99) < GOAL_P99_MS and acts.errors == 0
    print(f"goal {GOAL_TABLES} tables at once with an action's p99 < {GOAL_P99_MS:.0f} ms: "
          f"{'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
