"""Bot capacity of the play table: how many human-paced tables a core serves at each level of
the bots, while the bots answer within their level's goal and the other pages keep their p99.

Starts ``rebelote serve`` (``--db``, ``--workers``) on a free loopback port for each level, its
log at ``info`` (one JSON line a bot decision, ``"event": "bot_decision"``, with its client),
then for each count of tables, ascending, one step of ``--seconds``:

- **the tables**: each has one simulated player (its own address, ``X-Forwarded-For``, as on
  a site) and three bots of the level, at pace 0 (the bots answer inside the player's request);
  the player reads its view, thinks ``--think`` seconds (uniform between the two bounds), and
  plays a legal action (``pass`` four times in five in the auction, then any card);
- **the other pages**, polled every 100 ms beside them: ``GET /healthz``, a counter game
  (``GET /api/counter/games/{id}``) and a table's view (``GET /api/tables/{id}``).

A step **holds** when the bots' decisions of that step (the server's lines) meet the level's
goal (:data:`GOALS`: median and p95 of a decision, from when it is asked for to its answer,
and none played by the heuristic for want of time) and the pages' p99 stays under
``--page-p99`` ms. The capacity of a level is the most tables of a step that held (the steps
stop at the first that does not) over ``os.cpu_count()``; and, for each step, the server's CPU
a bot decision and **tables a core by CPU** (one core over the server's CPU a table-second at
the players' think time: the step's CPU a player's action over the mean think time, which the
machine's other work disturbs much less than the wall times). Compare the pages'
p99 with that of the same count of ``debutant`` tables (whose bots do not search), and with
``--env REBELOTE_BOT_PROCESSES=N``: pages slower at the same CPU show the search threads
slowing the event loop. Each level's server first plays one table for 8 s, not
counted (its bots made, their models loaded).

    nice .venv/bin/python bench/table_capacity.py --levels fort,expert --tables 2,4 --seconds 20
    .venv/bin/python bench/table_capacity.py --db postgresql+psycopg://u@127.0.0.1/throwaway \\
        --workers 2 --levels expert --tables 2,4,6,8
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

#: A level's goal: (median, p95) seconds of a bot decision, from when it is asked for to its
#: answer (waiting for a worker included). ``fort``'s is the table's default goal (it answers
#: a person in 300 ms at the median, 1 s at worst, docs/table.md); ``expert``, slower by
#: design, is held to its release time at the median (``RELEASE_SECONDS``).
GOALS: Final = {"debutant": (0.05, 0.2), "club": (0.3, 1.0), "fort": (0.3, 1.0),
                "expert": (0.8, 2.5)}
#: Levels whose bots do not search: their moves are played on the event loop, no decision
#: line (their cost is in the server's CPU and the pages' p99).
QUICK: Final = frozenset({"debutant"})


def decisions(log: str, clients: set[str]) -> list[tuple[float, bool]]:
    """The bot decisions of ``log`` (the server's JSON lines, ``"event": "bot_decision"``:
    rebelote.tableserver.observe) made for ``clients``: their seconds, and whether the
    heuristic played them for want of time or after a failure.

    >>> line = ('{"time":"t","level":"info","logger":"rebelote.bots","event":"bot_decision",'
    ...         '"ms":12.5,"outcome":"fallback_time","client":"10.0.1.7"}')
    >>> decisions(line + "\\nplain text\\n" + line.replace("10.0.1.7", "10.0.2.9"), {"10.0.1.7"})
    [(0.0125, True)]
    """
    out = []
    for line in log.splitlines():
        if not line.startswith("{"):
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("event") == "bot_decision" and event.get("client") in clients:
            out.append((float(event["ms"]) / 1000,
                        str(event.get("outcome", "")).startswith("fallback")))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_cpu(pid: int) -> float:
    """CPU seconds used so far by ``pid`` and its children (the workers), from ``/proc``."""
    ticks = os.sysconf("SC_CLK_TCK")
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
                stats[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    family, grew = {pid}, True
    while grew:
        grew = False
        for child, (parent, _) in stats.items():
            if parent in family and child not in family:
                family.add(child)
                grew = True
    return sum(stats.get(p, (0, 0))[1] for p in family) / ticks


class Server:
    def __init__(self, db: str, workers: int, log: Path, env: dict[str, str]) -> None:
        self.port = free_port()
        self.log_path = log
        self._log = log.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rebelote.cli", "serve", "--port", str(self.port), "--db",
             db, "--workers", str(workers), "--log-level", "info",
             "--forwarded-allow-ips", "127.0.0.1"],
            stdout=self._log, stderr=subprocess.STDOUT, env={**os.environ, **env})
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.port), timeout=0.2):
                return
            if self.proc.poll() is not None:
                raise SystemExit(f"the server did not start: {log.read_text()[-2000:]}")
            time.sleep(0.2)
        raise SystemExit("the server did not start within 90 s")

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self._log.close()


async def request(port: int, method: str, path: str, body: Any = None, token: str = "",
                  client: str = "") -> tuple[int, Any, float]:
    """One request on a connection of its own: (status, JSON, seconds)."""
    start = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
                + (f"Authorization: Bearer {token}\r\n" if token else "")
                + (f"X-Forwarded-For: {client}\r\n" if client else "") + "\r\n")
        writer.write(head.encode() + data)
        raw = await reader.read()
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    head_text, _, payload = raw.partition(b"\r\n\r\n")
    status = int(head_text.split(b" ", 2)[1])
    with contextlib.suppress(ValueError):
        return status, json.loads(payload or b"null"), time.monotonic() - start
    return status, None, time.monotonic() - start


def choose(view: dict[str, Any], rng: random.Random) -> str | None:
    """The player's move: ``next`` between deals, a pass four times in five in the auction,
    else any legal action (``no-declaration`` alone is refused: a card declares, or not)."""
    legal: list[str] = [a for a in view.get("legal") or [] if a != "no-declaration"]
    if not legal:
        return None
    if "next" in legal:
        return "next"
    if view.get("phase") == "auction" and "pass" in legal:
        calls = [a for a in legal if a != "pass"]
        return "pass" if not calls or rng.random() < 0.8 else calls[0]
    return rng.choice(legal)


@dataclass
class Step:
    level: str
    tables: int
    actions: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    errors: int = 0
    decisions: list[float] = field(default_factory=list)
    fell_back: int = 0
    cpu: float = 0.0
    seconds: float = 0.0

    def quantile(self, values: list[float], q: float) -> float:
        if not values:
            return float("nan")
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def holds(self, page_p99: float) -> bool:
        p50, p95 = GOALS.get(self.level, (0.3, 1.0))
        pages_hold = self.quantile(self.pages, 0.99) * 1000 <= page_p99 and bool(self.actions)
        if self.level in QUICK:  # no decision of the pool: the moves are played on the loop
            return not self.errors and pages_hold
        return (not self.errors and self.fell_back == 0 and len(self.decisions) > 0
                and statistics.median(self.decisions) <= p50
                and self.quantile(self.decisions, 0.95) <= p95 and pages_hold)

    def cpu_tables(self, think: float) -> float:
        """Tables a core serves by CPU alone, at players who think ``think`` seconds a move
        on average: one core over the server's CPU a table-second, counted as the step's CPU
        a player's action (the bots' answers to it and the web's work) times the actions a
        table makes a second when the bots answer at once (``1 / think``). On a machine
        shared with other work the wall times say more of the others than of the server; the
        CPU an action does not (but for a level capped by time, ``fort``, whose search does
        less when it gets less of a core)."""
        if not self.actions or not self.cpu:
            return float("inf")
        return 1.0 / (self.cpu / len(self.actions) / think)

    def line(self, page_p99: float, think: float) -> str:
        d = self.decisions
        per = self.cpu / len(d) * 1000 if d else float("nan")
        per_action = len(d) / len(self.actions) if self.actions else float("nan")
        return (f"{self.level:<9} {self.tables:>3} tables  {len(self.actions):>4} actions  "
                f"bot decisions {len(d):>5}: p50 {self.quantile(d, 0.5) * 1000:6.0f} ms  "
                f"p95 {self.quantile(d, 0.95) * 1000:6.0f} ms  fell back {self.fell_back:>3}  "
                f"pages p99 {self.quantile(self.pages, 0.99) * 1000:6.0f} ms  "
                f"server CPU {self.cpu / self.seconds:4.2f} cores, {per:5.0f} ms a decision, "
                f"{per_action:3.1f} a player's action: {self.cpu_tables(think):5.1f} tables a "
                f"core by CPU  errors {self.errors}  "
                f"{'holds' if self.holds(page_p99) else 'DOES NOT HOLD'}")


async def player(port: int, level: str, n: int, step: Step, until: float,
                 think: tuple[float, float], clients: list[str]) -> None:
    """One table's player, from an address of its own (added to ``clients`` once its table
    is made: the server's lines of its bots' decisions name it)."""
    rng = random.Random(n)
    client = f"10.{n // 250}.{n % 250}.{random.randrange(1, 250)}"
    status, view, _ = await request(port, "POST", "/api/tables",
                                    {"game": "coinche", "bots": level, "target": 10_000},
                                    client=client)
    if status != 201:
        step.errors += 1
        return
    table_id, token = view["id"], view["token"]
    clients.append(client)
    while time.monotonic() < until:
        action = choose(view, rng)
        if action is None:
            await asyncio.sleep(0.2)
            status, view, _ = await request(port, "GET", f"/api/tables/{table_id}",
                                            token=token, client=client)
            if status != 200:
                step.errors += 1
                return
            continue
        await asyncio.sleep(rng.uniform(*think))
        if time.monotonic() >= until:
            return
        status, got, seconds = await request(port, "POST", f"/api/tables/{table_id}/actions",
                                             {"action": action}, token, client)
        if status != 200:
            step.errors += 1
            status, view, _ = await request(port, "GET", f"/api/tables/{table_id}",
                                            token=token, client=client)
            continue
        step.actions.append(seconds)
        view = got


async def pages(port: int, step: Step, until: float, game: tuple[str, str],
                table: tuple[str, str]) -> None:
    """The other pages, every 100 ms."""
    paths = [("/healthz", ""), (f"/api/counter/games/{game[0]}", game[1]),
             (f"/api/tables/{table[0]}", table[1])]
    i = 0
    while time.monotonic() < until:
        path, token = paths[i % len(paths)]
        i += 1
        status, _, seconds = await request(port, "GET", path, token=token,
                                           client="10.255.0.1")
        if status != 200:
            step.errors += 1
        step.pages.append(seconds)
        await asyncio.sleep(0.1)


async def run_step(server: Server, level: str, tables: int, seconds: float,
                   think: tuple[float, float]) -> Step:
    step = Step(level, tables)
    port = server.port
    _, game, _ = await request(port, "POST", "/api/counter/games",
                               {"game": "belote", "target": 100_000}, client="10.255.0.1")
    _, probe, _ = await request(port, "POST", "/api/tables",
                                {"game": "coinche", "bots": "debutant", "target": 10_000},
                                client="10.255.0.1")
    since = len(server.log())
    cpu0 = server_cpu(server.proc.pid)
    start = time.monotonic()
    until = start + seconds
    clients: list[str] = []
    await asyncio.gather(pages(port, step, until, (game["id"], game["token"]),
                               (probe["id"], probe["token"])),
                         *(player(port, level, n, step, until, think, clients)
                           for n in range(tables)))
    step.seconds = time.monotonic() - start
    step.cpu = server_cpu(server.proc.pid) - cpu0
    mine = set(clients)
    for seconds, fell_back in decisions(server.log()[since:], mine):
        step.decisions.append(seconds)
        step.fell_back += fell_back
    return step


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="the server's database (default: a new SQLite file)")
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--levels", default="debutant,club,fort,expert")
    parser.add_argument("--tables", default="2,4,8,16",
                        help="counts of tables, ascending: one step each, until one fails")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of a step")
    parser.add_argument("--think", default="1.5:4.0",
                        help="a player's think time, seconds, uniform between the two")
    parser.add_argument("--page-p99", type=float, default=250.0,
                        help="the other pages' p99 goal, ms")
    parser.add_argument("--env", action="append", default=[],
                        help="NAME=VALUE for the server (e.g. REBELOTE_BOT_PROCESSES=2)")
    args = parser.parse_args()
    low, _, high = args.think.partition(":")
    think = (float(low), float(high or low))
    counts = [int(x) for x in args.tables.split(",")]
    env = dict(e.split("=", 1) for e in args.env)
    cores = os.cpu_count() or 1
    print(f"# {platform.node()} {cores} cores, load {os.getloadavg()[0]:.2f}; db "
          f"{'sqlite' if not args.db else args.db.split('@')[-1]}, {args.workers} worker(s); "
          f"think {think[0]}-{think[1]} s, {args.seconds:g} s a step; {' '.join(args.env)}")
    summary: list[tuple[str, int, float]] = []
    with tempfile.TemporaryDirectory(prefix="rebelote-capacity-") as tmp:
        for level in args.levels.split(","):
            db = args.db or f"sqlite:///{tmp}/{level}.sqlite3"
            server = Server(db, args.workers, Path(tmp) / f"{level}.log", env)
            best, by_cpu = 0, []
            try:
                # warm-up, not counted: the level's bots made and their models loaded
                asyncio.run(run_step(server, level, 1, 8.0, (0.2, 0.5)))
                for n in counts:
                    step = asyncio.run(run_step(server, level, n, args.seconds, think))
                    print(step.line(args.page_p99, sum(think) / 2), flush=True)
                    by_cpu.append(step.cpu_tables(sum(think) / 2))
                    if not step.holds(args.page_p99):
                        break
                    best = n
            finally:
                server.stop()
            summary.append((level, best, min(by_cpu, default=float("nan"))))
    for level, best, cpu_tables in summary:
        print(f"capacity {level}: {best} tables held ({best / cores:.1f} a core)"
              + (" (the largest step tried)" if best == counts[-1] else "")
              + f"; by CPU {cpu_tables:.1f} tables a core (the busiest step's figure)")
    print(f"# load at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
