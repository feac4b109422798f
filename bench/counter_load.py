"""Load on the counter: deal additions by concurrent clients, against a trivial route.

Starts ``rebelote serve`` on a free loopback port with a temporary SQLite file (or targets a
running server with ``--url``), then measures, with the same clients and the same bounds:

- **baseline**: ``GET /healthz`` (the server's floor: HTTP, routing, JSON);
- **deal additions**: ``POST /api/counter/games/{id}/deals``, each client playing its own games
  (the belote counting guide's five deals over and over; a new game every ``--game-deals``).

Each run is bounded in count (``--requests``) and time (``--seconds``). The load generator is a
minimal keep-alive HTTP/1.1 client on asyncio streams, so that it takes as little CPU as possible
from the server on a small machine. Prints throughput, p50/p99 latency and the ratio of deal
additions to the baseline.

    .venv/bin/python bench/counter_load.py --clients 50 --requests 20000 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

SEED = Path(__file__).resolve().parent.parent / "tests" / "vectors" / "seed-games.jsonl"
GOAL_RATE = 1000.0
GOAL_P99_MS = 100.0


def seed_deals() -> list[bytes]:
    """The belote counting guide's five deals, as request bodies."""
    with SEED.open(encoding="utf-8") as f:
        for line in f:
            vector = json.loads(line)
            if vector["id"] == "belote-five-deals":
                return [json.dumps(d).encode() for d in vector["input"]["deals"]]
    raise SystemExit("the seed game belote-five-deals is missing")


class Connection:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def request(self, method: str, path: str, body: bytes = b"", token: str = ""
                      ) -> tuple[int, bytes]:
        assert self.reader is not None and self.writer is not None
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n{auth}"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
        self.writer.write(head.encode() + body)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = 0
        for line in lines[1:]:
            if line.lower().startswith("content-length:"):
                length = int(line.split(":", 1)[1])
        payload = await self.reader.readexactly(length) if length else b""
        return status, payload

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()


@dataclass
class Run:
    """What one measured run saw."""

    name: str
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    elapsed: float = 0.0

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.elapsed if self.elapsed else 0.0

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000

    def line(self) -> str:
        return (f"{self.name:<16} {len(self.latencies):>7} req in {self.elapsed:6.2f} s  "
                f"{self.rate:9.0f} req/s  p50 {self.percentile(50):6.2f} ms  "
                f"p99 {self.percentile(99):6.2f} ms  errors {self.errors}")


async def _baseline_client(host: str, port: int, run: Run, budget: list[int], stop: float
                           ) -> None:
    conn = Connection(host, port)
    await conn.open()
    try:
        while budget[0] > 0 and time.perf_counter() < stop:
            budget[0] -= 1
            t0 = time.perf_counter()
            status, _ = await conn.request("GET", "/healthz")
            run.latencies.append(time.perf_counter() - t0)
            if status != 200:
                run.errors += 1
    finally:
        await conn.close()


async def _deal_client(host: str, port: int, run: Run, budget: list[int], stop: float,
                       deals: list[bytes], game_deals: int, games: list[str]) -> None:
    conn = Connection(host, port)
    await conn.open()
    create = json.dumps({"game": "belote", "target": 100_000}).encode()
    try:
        game_id = token = ""
        played = game_deals
        i = 0
        while budget[0] > 0 and time.perf_counter() < stop:
            if played >= game_deals:
                status, payload = await conn.request("POST", "/api/counter/games", create)
                if status != 201:
                    raise RuntimeError(f"creating a game answered {status}: {payload[:200]!r}")
                created = json.loads(payload)
                game_id, token = created["id"], created["token"]
                games.append(game_id)
                played = 0
                if budget[0] <= 0:
                    break
            budget[0] -= 1
            t0 = time.perf_counter()
            status, _ = await conn.request("POST", f"/api/counter/games/{game_id}/deals",
                                           deals[i % len(deals)], token)
            run.latencies.append(time.perf_counter() - t0)
            if status != 200:
                run.errors += 1
            played += 1
            i += 1
    finally:
        await conn.close()


async def measure(host: str, port: int, clients: int, requests: int, seconds: float,
                  game_deals: int) -> tuple[Run, Run, int]:
    """The baseline run, then the deal-addition run; and how many games were created."""
    deals = seed_deals()
    # warm up: connections, caches, the first import of everything
    await asyncio.gather(*(_baseline_client(host, port, Run("warm"), [20], time.perf_counter()
                                            + 5) for _ in range(min(clients, 8))))
    base = Run("GET /healthz")
    budget = [requests]
    t0 = time.perf_counter()
    await asyncio.gather(*(_baseline_client(host, port, base, budget, t0 + seconds)
                           for _ in range(clients)))
    base.elapsed = time.perf_counter() - t0

    adds = Run("POST deals")
    budget = [requests]
    games: list[str] = []
    t0 = time.perf_counter()
    await asyncio.gather(*(_deal_client(host, port, adds, budget, t0 + seconds, deals,
                                        game_deals, games) for _ in range(clients)))
    adds.elapsed = time.perf_counter() - t0
    return base, adds, len(games)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db_url: str, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    """``rebelote serve`` on a free loopback port; returns the process and its base URL."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "rebelote.cli", "serve", "--port", str(port), "--db", db_url,
         "--log-level", "warning", "--workers", str(workers)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, f"http://127.0.0.1:{port}"
        except OSError:
            if proc.poll() is not None:
                raise SystemExit(f"the server did not start: {proc.stderr.read().decode()}"
                                 if proc.stderr else "the server did not start") from None
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 30 s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running server (default: start one on SQLite)")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=20_000,
                        help="requests of each run (bound in count)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="length of each run at most (bound in time)")
    parser.add_argument("--game-deals", type=int, default=12,
                        help="deals of each game before its client starts a new one")
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    args = parser.parse_args()

    load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    proc = None
    tmp = None
    if args.url:
        base_url = args.url
        db = "(the server's)"
    else:
        tmp = tempfile.TemporaryDirectory(prefix="rebelote-bench-")
        db = f"sqlite:///{tmp.name}/counter.sqlite3"
        proc, base_url = start_server(db, args.workers)
    parts = urlsplit(base_url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    try:
        base, adds, games = asyncio.run(measure(host, port, args.clients, args.requests,
                                                args.seconds, args.game_deals))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=15)
        if tmp is not None:
            tmp.cleanup()

    try:
        import uvloop  # noqa: F401
        loop = "uvloop"
    except ImportError:
        loop = "asyncio"
    print(f"machine: {platform.machine()} {os.cpu_count()} cores, {platform.system()} "
          f"{platform.release()}, Python {platform.python_version()}, server loop {loop}, "
          f"{args.workers} worker(s)")
    print(f"load average before the runs: {load_before}; after: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} (other processes share the CPUs)")
    print(f"database: {db}")
    print(f"load: {args.clients} clients, at most {args.requests} requests or "
          f"{args.seconds:g} s a run; games of {args.game_deals} deals ({games} games)")
    print(base.line())
    print(adds.line())
    ratio = adds.rate / base.rate if base.rate else float("nan")
    print(f"ratio deal additions / baseline: {ratio:.2f} "
          f"(p50 {adds.percentile(50) / base.percentile(50):.2f}x the baseline's latency)")
    ok = adds.rate >= GOAL_RATE and adds.percentile(99) < GOAL_P99_MS and adds.errors == 0
    print(f"goal >= {GOAL_RATE:.0f} deal additions/s with p99 < {GOAL_P99_MS:.0f} ms: "
          f"{'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
