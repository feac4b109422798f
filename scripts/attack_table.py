"""The attackers' checks of the play table, replayed against a real ``rebelote serve``
(from 80 on, issue 37's checks of the concours).

Issue 17's attacker probed the play table and the counter with 64 checks (hidden information,
access, bounded work, faults; docs/table.md, "Under attack"); issue 37's (table-attack-4)
added checks 65-72: sockets across many tables and idle ones, an IPv6 /64 as one client, failed
joins all at once, the default burst of tables, two workers sharing one limit, no-store on the
answers that carry a secret, the arena's outside bot, a decline in a NOTIFY (and made checks 4,
5, 13, 45 and 55 reach the holes they name). This program replays every one of them, each as
the exact requests of the report scaled down to what proves the defence: a rate limit is met
after a few requests under a small ``--limits``, a socket cap at its fifth socket, a slowloris
connection is closed by a 2 s header deadline. Every server it starts listens on 127.0.0.1
only, on a temporary SQLite file (the PostgreSQL checks 9, 59, 60, 69 and 72 run when a server
is given); every loop is bounded in count and in time. Each check prints its
number, what it did, the defended result expected, what it saw and PASS or FAIL; the program
exits 1 if any check fails.

    .venv/bin/python scripts/attack_table.py                    # every check on SQLite
    .venv/bin/python scripts/attack_table.py --pg postgresql+psycopg://u@127.0.0.1/throwaway
    .venv/bin/python scripts/attack_table.py --only 20,44,49    # some checks

``--pg`` (or ``$REBELOTE_TEST_PG_URL``) names a **throwaway** database: checks 59 and 60 cut
the connections of the server they start and kill one of its workers. Run it before deploying
a new version (a minute or two on two busy cores); ``tests/test_table_attack.py`` runs every
check in CI.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import http.client
import itertools
import json
import logging
import os
import random
import re
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Any, Final
from urllib.parse import quote, urlencode, urlsplit

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect
from websockets.typing import Origin

#: The limits of the main server: small enough that a check meets each in a few requests.
#: Every check speaks from an address of its own (``X-Forwarded-For``, the server trusting
#: loopback as its proxy), so that one check's requests never count against another's.
MAIN_LIMITS: Final = ("tables_per_minute=20,tables_burst=20,games_per_minute=20,"
                      "failed_joins_per_minute=10,burst_minutes=1,sockets_per_table=4,"
                      "sockets_per_client=24,streams_per_game=6,"
                      "streams_per_client=3,header_timeout=2,body_timeout=2")
#: The application_name of the PostgreSQL server's connections.
PG_APP_NAME: Final = f"rebelote-attack-{os.getpid()}"
#: Seconds a server may take to start on a busy machine.
START_SECONDS: Final = 90.0
#: Seconds of a request before it is a failure.
REQUEST_SECONDS: Final = 30.0
CARD: Final = re.compile(r"\b[789TJQKA][SHDC]\b")
CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
EVIL: Final = "http://evil.example"
#: The sockets' own log: a server that closes a socket in the middle of a message is what
#: the checks look for, not an error to print.
QUIET: Final = logging.getLogger("attack_table.sockets")
QUIET.setLevel(logging.CRITICAL)
QUIET.propagate = False
#: What a record route answers for a deal in play, and with no secret.
RECORD_ROUTES: Final = ("deals/{n}.json", "deals/{n}/verify", "deals/{n}/analysis")


class CheckFailed(Exception):
    """What a check saw, when it is not the defended result."""


def expect(condition: object, seen: str) -> None:
    """Fail the check with ``seen`` unless ``condition``."""
    if not condition:
        raise CheckFailed(seen)


# -- HTTP ------------------------------------------------------------------------------------
@dataclass
class Answer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    seconds: float

    def header(self, name: str) -> str | None:
        name = name.lower()
        return next((v for k, v in self.headers if k.lower() == name), None)

    def all(self, name: str) -> list[str]:
        name = name.lower()
        return [v for k, v in self.headers if k.lower() == name]

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.body)

    def short(self) -> str:
        return f"{self.status} {self.text[:160]!r}"


class Client:
    """One client of a server: its own address (``X-Forwarded-For``, when the server trusts
    loopback as its proxy), its cookies."""

    def __init__(self, server: Server, who: str | None, source: str = "127.0.0.1") -> None:
        self.server = server
        self.who = who
        #: The loopback address the client connects from (the main server trusts 127.0.0.1
        #: only as its proxy: 127.0.0.2 is a client that is not).
        self.source = source
        self.cookies: dict[str, str] = {}

    def headers(self, token: str | None = None, extra: dict[str, str] | None = None
                ) -> dict[str, str]:
        out: dict[str, str] = {}
        if self.who:
            out["X-Forwarded-For"] = self.who
        if token:
            out["Authorization"] = f"Bearer {token}"
        if self.cookies:
            out["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        out.update(extra or {})
        return out

    def request(self, method: str, path: str, *, json_body: Any = None, body: bytes | None = None,
                form: dict[str, str] | None = None, token: str | None = None,
                headers: dict[str, str] | None = None, timeout: float = REQUEST_SECONDS
                ) -> Answer:
        extra = dict(headers or {})
        if json_body is not None:
            body = json.dumps(json_body).encode()
            extra.setdefault("Content-Type", "application/json")
        elif form is not None:
            body = urlencode(form).encode()
            extra.setdefault("Content-Type", "application/x-www-form-urlencoded")
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=timeout,
                                          source_address=(self.source, 0))
        began = time.monotonic()
        try:
            conn.request(method, path, body=body, headers=self.headers(token, extra))
            r = conn.getresponse()
            data = r.read()
            heads = list(r.getheaders())
        finally:
            conn.close()
        for value in (v for k, v in heads if k.lower() == "set-cookie"):
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";")[0]
        return Answer(r.status, heads, data, time.monotonic() - began)

    def get(self, path: str, **kw: Any) -> Answer:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> Answer:
        return self.request("POST", path, **kw)

    def socket(self, path: str, *, origin: str | None = None, cookie: bool = False,
               timeout: float = 10.0) -> ClientConnection:
        """A WebSocket on ``path`` (the cookies sent only with ``cookie``)."""
        extra: dict[str, str] = {}
        if self.who:
            extra["X-Forwarded-For"] = self.who
        if cookie and self.cookies:
            extra["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return ws_connect(f"ws://127.0.0.1:{self.server.port}{path}", logger=QUIET,
                          origin=None if origin is None else Origin(origin),
                          additional_headers=extra, open_timeout=timeout, close_timeout=2,
                          max_size=2**25, compression=None, legacy=True)

    # -- the table ----------------------------------------------------------------------------
    def new_table(self, **body: Any) -> dict[str, Any]:
        body.setdefault("game", "coinche")
        body.setdefault("bots", "heuristic")
        # a game that does not end by chance within the deals a check plays (a coinched
        # capot can pass 1,000 in one deal); a check about a game's end says its target
        body.setdefault("target", 10000)
        r = self.post("/api/tables", json_body=body)
        expect(r.status == 201, f"POST /api/tables {body}: {r.short()}")
        out: dict[str, Any] = r.json()
        return out

    def view(self, tid: str, token: str) -> dict[str, Any]:
        r = self.get(f"/api/tables/{tid}", token=token)
        expect(r.status == 200, f"GET /api/tables/{tid}: {r.short()}")
        out: dict[str, Any] = r.json()
        return out

    def act(self, tid: str, token: str, action: str, **kw: Any) -> Answer:
        return self.post(f"/api/tables/{tid}/actions", json_body={"action": action},
                         token=token, **kw)

    def join(self, code: str, **body: Any) -> Answer:
        return self.post("/api/tables/join", json_body={"code": code, **body})

    def play(self, view: dict[str, Any], token: str, until: Callable[[dict[str, Any]], bool],
             rng: random.Random, steps: int = 400, seen: list[dict[str, Any]] | None = None
             ) -> dict[str, Any]:
        """Play ``view``'s seat (its legal actions, passing often) until ``until(view)``, at
        most ``steps`` actions; every view answered is added to ``seen``."""
        tid = view["id"]
        for _ in range(steps):
            if until(view) or view["over"]:
                return view
            action = choose(view, rng)
            if action is None:  # not our turn: the bots play at a pace
                time.sleep(0.05)
                view = self.view(tid, token)
            else:
                r = self.act(tid, token, action)
                expect(r.status == 200, f"{action!r} at table {tid}: {r.short()}")
                view = r.json()
            if seen is not None:
                seen.append(view)
        raise CheckFailed(f"table {tid} did not get there in {steps} actions: deal "
                          f"{view['deal']}, phase {view['phase']}")


def choose(view: dict[str, Any], rng: random.Random) -> str | None:
    """A legal action of the view: ``next`` between deals; in the auction ``pass`` four times
    in five (the bots take), else the lowest call; in play any card (a decline goes only with
    a card, never alone: check 13 tries it)."""
    legal: list[str] = [a for a in view["legal"] if a != "no-declaration"]
    if not legal:
        return None
    if "next" in legal:
        return "next"
    if view["phase"] == "auction" and "pass" in legal:
        calls = [a for a in legal if a != "pass"]
        return "pass" if not calls or rng.random() < 0.8 else calls[0]
    return rng.choice(legal)


def deal_over(n: int) -> Callable[[dict[str, Any]], bool]:
    """``until``: deal ``n`` is over (deal ``n + 1`` in play, or the game over)."""
    return lambda v: v["deal"] > n or v["over"]


# -- a server --------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``rebelote serve`` in a subprocess on 127.0.0.1, its output in a log file."""

    def __init__(self, name: str, workdir: Path, db: str, options: tuple[str, ...] = (),
                 env: dict[str, str] | None = None) -> None:
        self.name = name
        self.workdir = workdir
        self.db = db
        self.options = options
        self.env = env or {}
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.logfile = workdir / f"{name}.log"
        self._addresses = iter(range(1, 10**6))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def sqlite_path(self) -> Path:
        return Path(self.db.removeprefix("sqlite:///"))

    def client(self, who: str | None = None, source: str = "127.0.0.1") -> Client:
        return Client(self, who, source)

    def start(self) -> Server:
        """Start the server and wait for its ``/healthz`` (on another free port if another
        program took the one chosen meanwhile)."""
        for _ in range(3):
            since = len(self.log())
            try:
                return self._start()
            except CheckFailed:
                if "address already in use" not in self.log()[since:].lower():  # uvicorn: lower
                    raise
                self.port = free_port()
        return self._start()

    def _start(self) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        with self.logfile.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "rebelote.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--db", self.db, "--log-level", "info",
                 *self.options], env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise CheckFailed(f"server {self.name} exited with {self.proc.returncode}: "
                                  f"{self.log()[-600:]}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                if self.client().get("/healthz", timeout=2).status in (200, 503):
                    return self
            time.sleep(0.1)
        self.kill()
        raise CheckFailed(f"server {self.name} did not answer within {START_SECONDS:g} s")

    def stop(self, timeout: float = 15.0) -> tuple[float, int | None]:
        """SIGTERM; the seconds it took to exit and its status (``None``: killed after
        ``timeout``)."""
        if self.proc is None or self.proc.poll() is not None:
            return 0.0, None if self.proc is None else self.proc.returncode
        began = time.monotonic()
        self.proc.terminate()
        try:
            code: int | None = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            code = None
        return time.monotonic() - began, code

    def kill(self) -> None:
        """SIGKILL (the whole process group of workers is the server's own)."""
        if self.proc is not None and self.proc.poll() is None:
            for pid in self.children():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.proc.kill()
            self.proc.wait(10)

    def restart(self) -> Server:
        self.port = free_port()
        return self.start()

    def log(self) -> str:
        try:
            return self.logfile.read_text("utf-8", "replace")
        except OSError:
            return ""

    def children(self) -> list[int]:
        """The server's worker processes (``--workers``)."""
        out = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, IndexError):
                    if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == \
                            self.pid:
                        out.append(int(entry.name))
        return out

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def threads(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/task"))

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def db_timers(self, tid: str) -> str:
        """The stored timers of table ``tid`` (JSON text, ``""`` when none runs), read from the
        SQLite file beside the server."""
        conn = sqlite3.connect(f"file:{self.sqlite_path}?mode=ro", uri=True, timeout=5)
        try:
            row = conn.execute("SELECT timers FROM play_tables WHERE id = ?", (tid,)).fetchone()
        finally:
            conn.close()
        return str(row[0] or "") if row else ""

    def db_version(self, tid: str) -> int:
        """The stored version of table ``tid`` (read from the SQLite file beside the server,
        as another program would)."""
        conn = sqlite3.connect(f"file:{self.sqlite_path}?mode=ro", uri=True, timeout=5)
        try:
            row = conn.execute("SELECT version FROM play_tables WHERE id = ?", (tid,)).fetchone()
        finally:
            conn.close()
        return int(row[0]) if row else -1


# -- the run ---------------------------------------------------------------------------------
@dataclass
class Check:
    number: int
    title: str
    expected: str
    run: Callable[[Context], str]
    #: ``main``: on the shared main server; ``own``: starts servers of its own; ``pg``: needs
    #: PostgreSQL.
    needs: str = "main"


CHECKS: dict[int, Check] = {}


def check(number: int, title: str, expected: str, needs: str = "main"
          ) -> Callable[[Callable[[Context], str]], Callable[[Context], str]]:
    def register(fn: Callable[[Context], str]) -> Callable[[Context], str]:
        CHECKS[number] = Check(number, title, expected, fn, needs)
        return fn
    return register


@dataclass
class Outcome:
    number: int
    title: str
    expected: str
    ok: bool | None  # None: skipped
    seen: str
    seconds: float

    @property
    def verdict(self) -> str:
        return "SKIP" if self.ok is None else ("PASS" if self.ok else "FAIL")

    def lines(self) -> str:
        return (f"#{self.number:02d} {self.verdict}  {self.title} ({self.seconds:.1f} s)\n"
                f"    expected: {self.expected}\n    seen:     {self.seen}")


class Context:
    """The servers of a run (started when a check first needs them), its temporary folder and
    the PostgreSQL URL, if any."""

    def __init__(self, pg: str | None = None, workdir: Path | None = None) -> None:
        self._own_dir = workdir is None
        self.workdir = workdir or Path(tempfile.mkdtemp(prefix="rebelote-attack-"))
        #: The PostgreSQL database given, and the schema of this run in it (dropped at the
        #: end): the servers' tables never meet another program's.
        self.pg_given = pg
        self.schema = f"rebelote_attack_{secrets.token_hex(4)}"
        self.pg = None if pg is None else with_query(pg, options=f"-csearch_path={self.schema}")
        self._schema_made = False
        self.servers: dict[str, Server] = {}
        self._clients = iter(range(1, 10**6))
        self.lock = threading.Lock()

    def server(self, name: str, *, db: str | None = None, options: tuple[str, ...] = (),
               env: dict[str, str] | None = None) -> Server:
        """The running server ``name`` (started now with these settings if it is not)."""
        with self.lock:
            found = self.servers.get(name)
            if found is not None and found.proc is not None and found.proc.poll() is None:
                return found
            url = db or f"sqlite:///{self.workdir / name}.sqlite3"
            server = Server(name, self.workdir, url, options, env)
            self.servers[name] = server
        return server.start()

    def main(self) -> Server:
        """The main server: default settings but small limits and bot decisions of at most
        1 s, 127.0.0.1 trusted as the proxy (each check is a client of its own:
        ``X-Forwarded-For``)."""
        return self.server("main", options=("--forwarded-allow-ips", "127.0.0.1",
                                            "--limits", MAIN_LIMITS),
                           env={"REBELOTE_BOT_SECONDS": "1"})

    def plain(self) -> Server:
        """A server with the default settings, for the checks that kill or restart it."""
        return self.server("plain")

    def postgres(self, workers: int = 1) -> Server:
        """A server on the PostgreSQL database given (``workers`` processes), in this run's
        schema, its connections named (so that a check can cut them)."""
        assert self.pg is not None and self.pg_given is not None
        if not self._schema_made:
            import psycopg

            with psycopg.connect(pg_conninfo(self.pg_given), autocommit=True) as admin:
                admin.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
            self._schema_made = True
        name = "pg" if workers == 1 else f"pg{workers}"
        return self.server(name, db=with_query(self.pg, application_name=f"{PG_APP_NAME}-{name}"),
                           options=("--workers", str(workers)))

    def client(self, server: Server | None = None) -> Client:
        """A client of ``server`` (the main one by default) with an address of its own."""
        server = server or self.main()
        n = next(self._clients)
        return server.client(f"10.77.{n // 250}.{n % 250 + 1}")

    def close(self) -> None:
        for server in self.servers.values():
            if server.proc is not None and server.proc.poll() is None:
                server.stop(10)
        if self._schema_made and self.pg_given is not None:
            import psycopg

            with psycopg.connect(pg_conninfo(self.pg_given), autocommit=True) as admin:
                admin.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
        if self._own_dir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> Context:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_check(ctx: Context, number: int) -> Outcome:
    c = CHECKS[number]
    began = time.monotonic()
    if c.needs == "pg" and not ctx.pg:
        return Outcome(number, c.title, c.expected, None,
                       "no PostgreSQL server given (--pg URL or $REBELOTE_TEST_PG_URL)", 0.0)
    try:
        seen = c.run(ctx)
        ok = True
    except CheckFailed as e:
        seen, ok = str(e), False
    except Exception as e:  # an error of the check is a failure, with where it happened
        where = traceback.extract_tb(e.__traceback__)[-1]
        seen, ok = f"{type(e).__name__}: {e} (line {where.lineno})", False
    return Outcome(number, c.title, c.expected, ok, seen, time.monotonic() - began)


# -- helpers of the checks -------------------------------------------------------------------
def cards_in(obj: Any) -> set[str]:
    """Every card named anywhere in a JSON value."""
    if isinstance(obj, str):
        return set(CARD.findall(obj))
    if isinstance(obj, dict):
        return set().union(*(cards_in(k) | cards_in(v) for k, v in obj.items())) if obj \
            else set()
    if isinstance(obj, list):
        return set().union(*(cards_in(v) for v in obj)) if obj else set()
    return set()


def public_cards(view: dict[str, Any]) -> set[str]:
    """The cards of the deal in play a view may name: the cards played, the turned card, the
    declarations shown and the belote cards."""
    out: set[str] = set()
    if view.get("turned"):
        out.add(view["turned"])
    out.update(card for _, card in view["trick"])
    for trick in view["tricks"]:
        out.update(c for _, c in trick["cards"])
    for shown in view["shown"]:
        out.update(shown["cards"])
    out.update(item[1] for item in view["belote"])
    return out


def leaks(view: dict[str, Any], held: set[str]) -> set[str]:
    """Cards a view names (its finished deals apart) that its seat could not see: neither in
    ``held`` (the seat's cards this deal) nor public."""
    rest = {k: v for k, v in view.items() if k not in ("last_result", "token")}
    return cards_in(rest) - held - public_cards(view)


def record_hands(c: Client, tid: str, token: str, n: int) -> dict[str, set[str]]:
    r = c.get(f"/api/tables/{tid}/deals/{n}.json", token=token)
    expect(r.status == 200, f"record of deal {n}: {r.short()}")
    return {seat: set(cards) for seat, cards in r.json()["hands"].items()}


def collect(ws: ClientConnection, frames: list[tuple[float, dict[str, Any]]],
            stop: threading.Event) -> threading.Thread:
    """A thread adding each frame of ``ws`` (with its arrival time) to ``frames``."""
    def run() -> None:
        while not stop.is_set():
            try:
                text = ws.recv(timeout=0.2)
            except TimeoutError:
                continue
            except ConnectionClosed:
                return
            frames.append((time.monotonic(), json.loads(text)))
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def authed_socket(c: Client, tid: str, token: str) -> tuple[ClientConnection, dict[str, Any]]:
    """A socket of the table that proved its seat with its first message; its first view."""
    ws = c.socket(f"/api/tables/{tid}/ws")
    ws.send(json.dumps({"token": token}))
    first = json.loads(ws.recv(timeout=10))
    expect("hand" in first, f"the socket's first frame: {str(first)[:160]}")
    return ws, first


def refused_socket(c: Client, path: str, **kw: Any) -> str | None:
    """``None`` if the socket opened, else how it was refused (an HTTP status at the
    handshake)."""
    try:
        ws = c.socket(path, **kw)
    except InvalidStatus as e:
        return f"HTTP {e.response.status_code}"
    ws.close()
    return None


def closed_code(ws: ClientConnection, seconds: float) -> int | None:
    """The close code the server sends within ``seconds`` (``None``: still open)."""
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                ws.recv(timeout=max(0.05, deadline - time.monotonic()))
    except ConnectionClosed as e:
        return e.rcvd.code if e.rcvd is not None else 1006
    return None


def finished_table(c: Client, deals: int, rng: random.Random, **body: Any
                   ) -> tuple[dict[str, Any], str]:
    """A table whose first ``deals`` deals are over (played by S, the bots taking); its view
    and S's secret."""
    view = c.new_table(**body)
    token = view["token"]
    return c.play(view, token, deal_over(deals), rng), token


def played_table(c: Client, deals: int, rng: random.Random) -> tuple[dict[str, Any], str]:
    """A coinche table with ``deals`` finished deals whose cards were played (none passed
    out by all four)."""
    view = c.new_table(game="coinche", target=10000)
    token = view["token"]
    played = 0
    for _ in range(deals * 6):
        n = view["deal"]
        view = c.play(view, token, deal_over(n), rng)
        expect(not view["over"], "the game ended")
        last = view["last_result"] or {}
        if (last.get("record") or {}).get("tricks"):
            played += 1
            if played == deals:
                return view, token
    raise CheckFailed(f"no {deals} played deals in {deals * 6} deals")


def healthz_while(c: Client, work: Callable[[], Any], seconds: float = 60.0
                  ) -> tuple[Any, list[float]]:
    """``work()``'s result, and the times of ``GET /healthz`` made every 50 ms meanwhile."""
    times: list[float] = []
    done = threading.Event()

    def poll() -> None:
        end = time.monotonic() + seconds
        while not done.is_set() and time.monotonic() < end:
            with contextlib.suppress(OSError, http.client.HTTPException):
                times.append(c.get("/healthz", timeout=15).seconds)
            time.sleep(0.05)

    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    try:
        out = work()
    finally:
        done.set()
        thread.join(20)
    return out, times


def tracebacks(server: Server, since: int) -> list[str]:
    """The tracebacks the server logged after byte ``since`` of its log."""
    text = server.log()[since:]
    return [m.group(0)[-200:] for m in re.finditer(r"Traceback[\s\S]*?\n(?=\S)", text)] or \
        (["Traceback"] if "Traceback" in text else [])


def raw_request(port: int, data: bytes, timeout: float = 10.0) -> tuple[int, bytes]:
    """Send raw bytes, read the answer's status line; (status, head)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 65536:
            chunk = s.recv(4096)
            if not chunk:
                break
            head += chunk
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    return status, head


def read_now(s: socket.socket) -> bytes | None:
    """What a non-blocking socket holds now: ``None`` nothing yet, ``b""`` closed."""
    try:
        return s.recv(4096)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def open_stream(port: int, path: str, who: str) -> tuple[int, socket.socket]:
    """A server-sent event stream opened and left open: its status and its socket."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Forwarded-For: {who}\r\n"
              f"Accept: text/event-stream\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head and len(head) < 65536:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    return status, s


def new_game(c: Client, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "coinche")
    r = c.post("/api/counter/games", json_body=body)
    expect(r.status == 201, f"POST /api/counter/games: {r.short()}")
    out: dict[str, Any] = r.json()
    return out


def keys_cookie(*pairs: tuple[str, str]) -> str:
    return "~".join(f"{i}.{s}" for i, s in pairs)


# == Hidden information ======================================================================
@check(1, "views never hold another seat's cards",
       "no card of another seat's hand in any action answer or socket frame (3 deals of "
       "coinche and 3 of belote, heuristic bots, pace 0, S's socket open)")
def c01(ctx: Context) -> str:
    c = ctx.client()
    rng = random.Random(1)
    scanned = frames_seen = 0
    for game in ("coinche", "belote"):
        view = c.new_table(game=game)
        token, tid = view["token"], view["id"]
        ws, first = authed_socket(c, tid, token)
        frames: list[tuple[float, dict[str, Any]]] = []
        stop = threading.Event()
        thread = collect(ws, frames, stop)
        answers: list[dict[str, Any]] = [view, first]
        end = c.play(view, token, deal_over(3), rng, seen=answers)
        time.sleep(0.3)
        stop.set()
        thread.join(5)
        ws.close()
        # the deals played: three, or fewer when the game ended first (a coinched capot can
        # pass the target in one deal: seen once on CI)
        played = range(1, (end["deal"] if end["over"] else 3) + 1)
        hands = {n: record_hands(c, tid, token, n)["S"] for n in played}
        for v in answers + [f for _, f in frames]:
            if "hand" not in v or v["deal"] not in hands:
                continue
            expect(set(v["hand"]) <= hands[v["deal"]],
                   f"{game}: a view's hand {v['hand']} is not S's hand of deal {v['deal']}")
            bad = leaks(v, hands[v["deal"]])
            expect(not bad, f"{game}: deal {v['deal']} version {v['version']} names {bad}, "
                            "cards S could not see")
            scanned += 1
        frames_seen += len(frames)
    return f"{scanned} views scanned ({frames_seen} socket frames), no hidden card"


@check(2, "record, verify and analysis of the deal in play",
       "404 'deal 1 of this table is not finished' for deals/1.json, /verify, /analysis and "
       "the analysis page during deal 1, and for n = 0, -1, 10^23")
def c02(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    tid, token = view["id"], view["token"]
    seen = []
    for n in (1, 0, -1, 10**23):
        for route in RECORD_ROUTES:
            r = c.get(f"/api/tables/{tid}/{route.format(n=n)}", token=token)
            expect(r.status == 404 or (n > 10**6 and r.status == 422),
                   f"{route.format(n=n)} during deal 1: {r.short()}")
            seen.append(r.status)
    r = c.get(f"/api/tables/{tid}/deals/1.json", token=token)
    expect("not finished" in r.text, f"deals/1.json: {r.short()}")
    c.cookies["rebelote_keys"] = keys_cookie((tid, token))
    page = c.get(f"/tables/{tid}/deals/1/analysis")
    expect(page.status == 404, f"the analysis page of deal 1 in play: {page.status}")
    return f"answers {sorted(set(seen))}, the page {page.status}"


@check(3, "records for a stranger and for a released secret",
       "403 for deals/1.json, /verify and /analysis of a finished deal with no secret and "
       "with the secret of a seat after its release")
def c03(ctx: Context) -> str:
    c = ctx.client()
    view, token = finished_table(c, 1, random.Random(3))
    tid = view["id"]
    r = c.get(f"/api/tables/{tid}/deals/1.json", token=token)
    expect(r.status == 200, f"the seat's own record: {r.short()}")
    joined = c.join(view["code"], seat="N")
    expect(joined.status == 201, f"join N: {joined.short()}")
    other = joined.json()["token"]
    r = c.post(f"/api/tables/{tid}/release", token=other)
    expect(r.status == 200, f"release: {r.short()}")
    seen = []
    for who, secret in (("no secret", None), ("a released secret", other)):
        for route in RECORD_ROUTES:
            r = c.get(f"/api/tables/{tid}/{route.format(n=1)}", token=secret)
            expect(r.status == 403, f"{route.format(n=1)} with {who}: {r.short()}")
            seen.append(r.status)
    return f"{len(seen)} answers, all 403"


@check(4, "a seat reads every hand mid-deal (join N, E, W; release S and join E)",
       "each join over a bot's seat answers 201 with no hand (the seat is the newcomer's "
       "from the next deal): no card of N, E or W is ever shown during deal 1")
def c04(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    own = set(view["hand"])
    shown: set[str] = set()
    # each join must be let in (201): a refusal would pass without reaching the hole
    for seat in ("N", "E", "W"):
        r = c.join(view["code"], seat=seat)
        expect(r.status == 201, f"join {seat}: {r.short()} (the hole is not reached)")
        v = r.json()
        expect(v["deal"] == 1 and not v["hand"], f"join {seat} during deal 1: hand "
                                                 f"{v['hand']}")
        expect(v["from_deal"] >= 2, f"join {seat}: from_deal {v['from_deal']}")
        expect(not leaks(v, set()), f"join {seat} names {leaks(v, set())}")
        shown |= set(v["hand"])
    view2 = c.new_table(friends=["N"])  # a human stays (N kept): the room stays open
    r = c.post(f"/api/tables/{view2['id']}/release", token=view2["token"])
    expect(r.status == 200, f"release S: {r.short()}")
    r = c.join(view2["code"], seat="E")
    expect(r.status == 201, f"join E after releasing S: {r.short()} (the hole is not "
                            "reached)")
    v = r.json()
    expect(not v["hand"] or v["deal"] > view2["deal"],
           f"released S then joined E: hand {v['hand']} in deal {v['deal']}")
    return (f"N, E, W joined with no hand ({len(own | shown)} cards known: S's own 8); "
            f"release S then join E: {r.status}, no hand")


@check(5, "in a room, a player reads a bot seat's hand; the host reads a kept seat's",
       "Alice, with Bob at E (his invitation), joins W mid-deal by the code: 201 with no hand "
       "(from the next deal). With E and W kept, Alice takes W with W's invitation (the host "
       "holds them all: its hand is shown) and hands W to its bot: W stays hers, away and "
       "leaving, in Bob's sight, to the deal's end (never a plain bot holding a hand she saw)")
def c05(ctx: Context) -> str:
    c = ctx.client()
    alice = c.new_table(friends=["E"])
    invite = alice["invites"]["E"]
    bob = c.join(alice["code"], invite=invite)
    expect(bob.status == 201 and bob.json()["hand"], f"Bob joins E: {bob.short()}")
    r = c.join(alice["code"], seat="W")
    expect(r.status == 201, f"Alice joins W: {r.short()} (the hole is not reached)")
    v = r.json()
    expect(not v["hand"], f"Alice at W holds {v['hand']} in deal {v['deal']}")
    expect(not leaks(v, set()), f"Alice at W sees {leaks(v, set())}")
    # the host's own invitation (table-attack-4, F3)
    alice = c.new_table(friends=["E", "W"], clock=0)
    bob = c.join(alice["code"], invite=alice["invites"]["E"])
    expect(bob.status == 201, f"Bob joins E: {bob.short()}")
    west = c.join(alice["code"], invite=alice["invites"]["W"])
    expect(west.status == 201, f"Alice takes W with its invitation: {west.short()} (the hole "
                               "is not reached)")
    expect(len(west.json()["hand"]) == 8, f"W's hand: {west.json()['hand']}")
    handed = c.post(f"/api/tables/{alice['id']}/seats/W/bot", token=alice["token"])
    expect(handed.status == 200, f"the host hands W to its bot: {handed.short()} (the hole "
                                 "is not reached)")
    seats = c.view(alice["id"], bob.json()["token"])["seats"]
    partner = seats["N"]  # Bob, at E, sees W across the table
    expect(partner["kind"] == "human" and partner["away"] and partner.get("leaving"),
           f"Bob's partner after the host's hand-back: {partner}")
    gone = c.get(f"/api/tables/{alice['id']}", token=west.json()["token"])
    expect(gone.status == 403, f"W's secret after the hand-back: {gone.status}")
    return ("Alice's join of W by the code: 201, no hand; W by its invitation then handed "
            "back: W shows to Bob as its player's, away, to the deal's end")


@check(6, "join by table id instead of code", "404: the table id is not a join code")
def c06(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    r = c.join(view["id"], seat="N")
    expect(r.status == 404, f"join with the id: {r.short()}")
    return f"{r.status}"


@check(7, "a stranger's view of the table page",
       "GET /tables/{id} with no cookie: 403, the page shows neither the join code nor the "
       "free seats")
def c07(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    r = c.get(f"/tables/{view['id']}")
    expect(r.status == 403, f"the page: {r.status}")
    expect(view["code"] not in r.text, "the page shows the join code")
    expect(f"/t/{view['code']}" not in r.text and 'name="seat"' not in r.text,
           "the page offers seats")
    return f"{r.status}, no code, no seat offered"


@check(8, "is the commitment hiding?",
       "each deal's seed and salt are 128 random bits or more, the commitment is "
       "sha256(seed:salt) as shown before the deal, and each deal has a fresh seed")
def c08(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    tid, token = view["id"], view["token"]
    shown = {1: view["commitment"]}
    rng = random.Random(8)
    view = c.play(view, token, deal_over(1), rng)
    shown[2] = view["commitment"]
    view = c.play(view, token, deal_over(2), rng)
    seeds = []
    for n in (1, 2):
        rec = c.get(f"/api/tables/{tid}/deals/{n}.json", token=token).json()
        seed, salt = rec["seed"], rec["salt"]
        expect(len(seed) >= 32 and len(salt) >= 32 and re.fullmatch(r"[0-9a-f]+", seed + salt),
               f"deal {n}: seed {seed!r}, salt {salt!r}")
        digest = hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()
        expect(digest == rec["commitment"] == shown[n],
               f"deal {n}: sha256(seed:salt) {digest[:12]}, record {rec['commitment'][:12]}, "
               f"shown {shown[n][:12]}")
        seeds.append(seed)
    expect(len(set(seeds)) == 2 and view["commitment"] not in shown.values(),
           "a seed or a commitment came twice")
    return "2 deals: 128-bit seeds and salts, commitments match, fresh each deal"


@check(9, "the seed in PostgreSQL's NOTIFY",
       "a role that LISTENs on rebelote_tables while deals end reads no seed or salt (the "
       "NOTIFY of a new deal tells only its id and version)", needs="pg")
def c09(ctx: Context) -> str:
    import psycopg

    assert ctx.pg is not None
    server = ctx.postgres()
    c = ctx.client(server)
    payloads: list[str] = []
    with psycopg.connect(pg_conninfo(ctx.pg), autocommit=True) as spy:
        spy.execute("LISTEN rebelote_tables")
        view = c.new_table()
        tid, token = view["id"], view["token"]
        view = c.play(view, token, deal_over(2), random.Random(9))
        for note in spy.notifies(timeout=1.0, stop_after=10_000):
            payloads.append(note.payload)
    secrets_seen = []
    for n in (1, 2):
        rec = c.get(f"/api/tables/{tid}/deals/{n}.json", token=token).json()
        secrets_seen += [rec["seed"], rec["salt"]]
    mine = [p for p in payloads if p.startswith(tid)]
    expect(mine, "no NOTIFY of the table was heard")
    found = [s for s in secrets_seen if any(s in p for p in payloads)]
    expect(not found and not any('"seed"' in p or '"salt"' in p for p in payloads),
           f"the NOTIFY payloads hold {found or 'a seed field'}")
    return f"{len(mine)} NOTIFY of the table heard, none holds a seed or a salt"


def pg_conninfo(url: str) -> str:
    """A psycopg connection string from an SQLAlchemy URL."""
    from sqlalchemy.engine import make_url

    u = make_url(url).set(drivername="postgresql")
    return u.render_as_string(hide_password=False)


@check(10, "error messages",
       "an illegal card, a move out of turn, 'ZZ', odd unicode and a 900 kB action are "
       "refused (409/422) naming only the seat's own hand and public facts; the 900 kB "
       "action is not echoed back (answer under 2 kB)")
def c10(ctx: Context) -> str:
    c = ctx.client()
    rng = random.Random(10)
    view = c.new_table()
    tid, token = view["id"], view["token"]
    view = c.play(view, token, lambda v: v["phase"] == "play" and bool(v["legal"]), rng)
    deal = view["deal"]
    illegal = [card for card in view["hand"] if card not in view["legal"]]
    tries = [*(illegal[:1] or []), "ZZ", "\u202eJH\u0000", "7" * 40, "x" * 900_000]
    named: set[str] = set()
    sizes = []
    for action in tries:
        r = c.act(tid, token, action)
        expect(r.status in (409, 422), f"{action[:20]!r}: {r.short()}")
        named |= cards_in(r.json()) - public_cards(view)
        sizes.append(len(r.body))
    expect(sizes[-1] < 2048, f"the 900 kB action's answer is {sizes[-1]:,} bytes")
    c.play(view, token, deal_over(deal), rng)
    hands = record_hands(c, tid, token, deal)
    hidden = hands["N"] | hands["E"] | hands["W"]
    expect(not (named & hidden), f"the errors name {named & hidden}, cards of other hands")
    paced = c.new_table(pace=5000)
    if paced["turn"] != "S":
        r = c.act(paced["id"], paced["token"], paced["hand"][0])
        expect(r.status == 409 and not (cards_in(r.json()) - set(paced["hand"])),
               f"out of turn: {r.short()}")
    return (f"{len(tries) + 1} refusals, no card of another hand named (the deal's record "
            f"read after it); the 900 kB one {sizes[-1]} bytes")


@check(11, "ETag / version",
       "the ETag is the table's version (a count of writes, the same for every seat): no "
       "hidden fact in it")
def c11(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    r = c.get(f"/api/tables/{view['id']}", token=view["token"])
    etag = r.header("etag")
    expect(etag == f'"{r.json()["version"]}"', f"ETag {etag} for version {r.json()['version']}")
    joined = c.join(view["code"], seat="N").json()
    r1 = c.get(f"/api/tables/{view['id']}", token=view["token"])
    r2 = c.get(f"/api/tables/{view['id']}", token=joined["token"])
    expect(r1.header("etag") == r2.header("etag"), "two seats see different ETags")
    r3 = c.get(f"/api/tables/{view['id']}", token=view["token"],
               headers={"If-None-Match": r1.header("etag") or ""})
    expect(r3.status in (200, 304), f"If-None-Match: {r3.status}")
    return f"ETag {r1.header('etag')} = version, the same for S and N"


def legal_counts(record: dict[str, Any]) -> list[tuple[str, int]]:
    """For each card of a finished coinche deal's record, in the order played, its player and
    how many cards that player could legally play (the engine replays the record)."""
    from rebelote.actions import NO_DECLARATION, PLAYS, Declare, Play
    from rebelote.auction import Bid
    from rebelote.cards import SEATS, parse_card
    from rebelote.deal import DealState
    from rebelote.declarations import combo_from_json
    from rebelote.rules import Rules

    rules = Rules.from_options(record["rules"], record["game"], record.get("options") or {})
    hands = [sum(1 << parse_card(c) for c in record["hands"][s]) for s in SEATS]
    state = DealState.from_hands(rules, SEATS.index(record["dealer"]), hands)
    for _, bid in record["auction"]:
        state = state.apply(Bid.parse(bid))
    declared = {SEATS.index(s): tuple(combo_from_json(d, state.trump) for d in items)
                for s, items in (record.get("declarations") or {}).items() if items}
    out: list[tuple[str, int]] = []
    for trick in record["tricks"]:
        for text in trick[1:]:
            p = state.current_player
            if state.declared[p] is None:
                if p in declared:
                    state = state.apply(Declare(declared[p]))
                elif state.best[p]:
                    state = state.apply(NO_DECLARATION)
            out.append((SEATS[p], sum(isinstance(a, Play) for a in state.legal_actions())))
            state = state.apply(PLAYS[parse_card(text)])
    return out


@check(12, "timing of bot moves",
       "at the fast pace (300 ms) with the strongest bots (expert), whose searches outlast "
       "the pace: the socket pushes of bot cards with a choice come no later than those of "
       "forced ones, in the tail (at most one in 20, rounded up, later than every forced one "
       "by 60 ms; a deal's cards, two deals when it has too few)")
def c12(ctx: Context) -> str:
    c = ctx.client()
    pace = 300
    rng = random.Random(12)
    forced: list[float] = []
    chosen: list[float] = []
    view = c.new_table(game="coinche", bots="expert", pace=pace)
    tid, token = view["id"], view["token"]
    ws, _ = authed_socket(c, tid, token)
    frames: list[tuple[float, dict[str, Any]]] = []
    stop = threading.Event()
    thread = collect(ws, frames, stop)
    deadline = time.monotonic() + 150
    deal = 1
    try:
        # a deal gives about 20 cards with a choice and a few forced (the leak showed in 20
        # of 49): the check stops as soon as it has enough to decide
        while time.monotonic() < deadline and (len(forced) < 3 or len(chosen) < 10) \
                and deal <= 5:
            frames.clear()
            # a bot card every 0.8 s at this level: a deal is about 25 s of reading the view
            view = c.play(view, token, deal_over(deal), rng, steps=2000)
            r = c.get(f"/api/tables/{tid}/deals/{deal}.json", token=token).json()
            if r["tricks"]:
                counts = legal_counts(r)
                pushes = [(t, 4 * len(f["tricks"]) + len(f["trick"]) if f["deal"] == deal
                           else 32) for t, f in frames if "tricks" in f]
                for (t0, k0), (t1, k1) in itertools.pairwise(pushes):
                    # one card more, played by a bot, after a push of a card (a bot's, or
                    # S's: the bot to follow is asked for as S's card is written)
                    if k1 == k0 + 1 and k0 >= 1 and k1 <= 31 and counts[k1 - 1][0] != "S":
                        (forced if counts[k1 - 1][1] == 1 else chosen).append(t1 - t0)
            deal += 1
    finally:
        stop.set()
        thread.join(5)
        ws.close()
    expect(len(forced) >= 3 and len(chosen) >= 10,
           f"too few bot cards timed: {len(forced)} forced, {len(chosen)} with a choice")
    # the leak is in the tail (table-attack F10: medians equal, 20 of 49 searched cards later
    # than every forced one): count the cards with a choice that come later than all forced
    late = [t for t in chosen if t > max(forced) + 0.060]
    seen = (f"forced n={len(forced)} {min(forced) * 1000:.0f}-{max(forced) * 1000:.0f} ms; "
            f"with a choice n={len(chosen)} median {median(chosen) * 1000:.0f} ms, max "
            f"{max(chosen) * 1000:.0f} ms; later than every forced one: {len(late)}/"
            f"{len(chosen)}")
    expect(len(late) <= -(-len(chosen) // 20), seen)
    expect(min(chosen) >= pace / 1000 - 0.01, seen)
    return seen


def declining_table(ctx: Context, server: Server
                    ) -> tuple[Client, dict[str, Any], str, str]:
    """A belote table of ``server`` with Bob at E (his invitation) where S, at its first card,
    holds a declaration (``no-declaration`` in its legal actions): the client, S's view, S's
    and Bob's secrets."""
    c = ctx.client(server)
    for attempt in range(40):
        if attempt % 10 == 9:
            c = ctx.client(server)  # a table burst of 20 a client
        view = c.new_table(game="belote", bots="random", friends=["E"], pace=0, clock=0)
        tid, token = view["id"], view["token"]
        bob = c.join(view["code"], invite=view["invites"]["E"])
        expect(bob.status == 201, f"Bob joins E: {bob.short()}")
        btoken = bob.json()["token"]
        for _ in range(60):  # S and Bob pass, a bot takes; up to S's first card
            view = c.view(tid, token)
            if view["phase"] == "play" and (view["turn"] == "S" or view["tricks"]):
                break
            who = {"S": token, "E": btoken}.get(view["turn"])
            if who is None:
                time.sleep(0.05)
                continue
            legal = [a for a in c.view(tid, who)["legal"] if a != "no-declaration"]
            c.act(tid, who, "pass" if "pass" in legal else legal[0])
        if view["turn"] == "S" and not view["tricks"] and "no-declaration" in view["legal"]:
            return c, view, token, btoken
    raise CheckFailed("S never held a declaration at its first card in 40 tables")


@check(13, "declarations shown too early? declining one shown?",
       "no view shows a declaration's cards before the first trick is complete; "
       "'no-declaration' alone is refused (409, nothing written: no frame to the other seats, "
       "no version), and declining with the card gives the others one frame, the card's")
def c13(ctx: Context) -> str:
    c = ctx.client()
    rng = random.Random(13)
    seen: list[dict[str, Any]] = []
    view = c.new_table(game="belote")
    c.play(view, view["token"], deal_over(4), rng, seen=seen)
    early = [v for v in seen if v["phase"] == "play" and not v["tricks"] and v["shown"]]
    expect(not early, f"deal {early[0]['deal'] if early else 0}: cards shown before the first "
                      "trick is complete")
    later = sum(1 for v in seen if v["shown"])
    # table-attack-4, F4: a belote table, Bob at E with his socket open; S holds a
    # declaration at its first card and declines it
    c, view, token, btoken = declining_table(ctx, ctx.main())
    tid = view["id"]
    ws, before = authed_socket(c, tid, btoken)
    try:
        alone = c.act(tid, token, "no-declaration")
        expect(alone.status == 409, f"'no-declaration' alone: {alone.short()}")
        with contextlib.suppress(TimeoutError):
            frame = json.loads(ws.recv(timeout=1.5))
            raise CheckFailed(f"Bob got a frame (version {before['version']} → "
                              f"{frame['version']}) after S's refused decline")
        card = next(a for a in view["legal"] if a != "no-declaration")
        played = c.act(tid, token, f"no-declaration {card}")
        expect(played.status == 200, f"'no-declaration {card}': {played.short()}")
        frame = json.loads(ws.recv(timeout=10))
    finally:
        ws.close()
    changed = sorted(k for k in frame if frame[k] != before.get(k))
    expect(set(changed) - {"version"}, f"Bob's frame after the decline changed only {changed}")
    return (f"{len(seen)} views of 4 deals: none shows declared cards before trick 1 ends "
            f"({later} show them after); a decline alone: 409, no frame; with its card: one "
            f"frame ({', '.join(changed[:4])}...)")


@check(14, "bots' answers",
       "a bot decides from its seat's observation only (the engine's Observation): no seed, "
       "no salt, no other seat's hand")
def c14(ctx: Context) -> str:
    from rebelote.observation import Observation
    from rebelote.rules import Rules
    from rebelote.table.model import Seat, Table

    got: list[Observation] = []

    class Spy:
        name = "spy"

        def act(self, obs: Observation, rng: random.Random) -> Any:
            got.append(obs)
            return obs.legal[0]

    seed, salt = "5eed" * 8, "5a17" * 8
    table = Table.new(Rules.preset("official", "coinche"),
                      seats=[Seat.bot_seat("heuristic")] * 4, entropy=lambda: (seed, salt))
    table.bot_action(Spy(), random.Random(14))
    expect(got, "the spy bot was not asked")
    obs, seat = got[0], table.turn
    expect(isinstance(obs, Observation) and obs.seat == seat,
           f"the bot got a {type(obs).__name__} of seat {getattr(obs, 'seat', '?')}")
    expect(obs.hand == table.deal.hands[seat], "the observation's hand is not the seat's")
    hidden = {f for f in Observation._fields if f in ("hands", "seed", "salt", "deck", "stock")}
    expect(not hidden, f"the observation has fields {hidden}")
    expect(seed not in repr(obs) and salt not in repr(obs), "the observation holds the seed")
    return f"an Observation of seat {seat} ({len(Observation._fields)} fields): its own hand, " \
           "no seed, no other hand"


# == Access ==================================================================================
@check(15, "reading a view without the seat's secret",
       "403 for no token, a made-up token, another table's token, a cookie with another "
       "table's key, 'Bearer tok,tok2' and the counter's token")
def c15(ctx: Context) -> str:
    c = ctx.client()
    a = c.new_table()
    b = c.new_table()
    game = new_game(c)
    path = f"/api/tables/{a['id']}"
    tries: list[tuple[str, dict[str, str]]] = [
        ("no token", {}),
        ("a made-up token", {"Authorization": f"Bearer {secrets.token_urlsafe(24)}"}),
        ("another table's token", {"Authorization": f"Bearer {b['token']}"}),
        ("a cookie of another table", {"Cookie": f"rebelote_keys="
                                                 f"{keys_cookie((b['id'], b['token']))}"}),
        ("another table's secret under this id", {
            "Cookie": f"rebelote_keys={keys_cookie((a['id'], b['token']))}"}),
        ("Bearer tok,tok2", {"Authorization": f"Bearer {a['token']},{b['token']}"}),
        ("the counter's token", {"Authorization": f"Bearer {game['token']}"}),
    ]
    for what, headers in tries:
        r = c.get(path, headers=headers)
        expect(r.status == 403, f"{what}: {r.short()}")
    return f"{len(tries)} tries, all 403"


@check(16, "acting for another seat",
       "403 with another table's token and with none; the seat always comes from the "
       "secret ('seat': 'N' in the body changes nothing); out of turn 409")
def c16(ctx: Context) -> str:
    c = ctx.client()
    a = c.new_table(pace=5000)
    b = c.new_table()
    tid = a["id"]
    for what, token in (("another table's token", b["token"]), ("no token", None)):
        r = c.post(f"/api/tables/{tid}/actions", json_body={"action": "pass", "seat": "N"},
                   token=token)
        expect(r.status == 403, f"{what}: {r.short()}")
    seen = "403, 403"
    if a["turn"] != "S":
        r = c.post(f"/api/tables/{tid}/actions", json_body={"action": "pass", "seat": a["turn"]},
                   token=a["token"])
        expect(r.status == 409, f"S acting for {a['turn']} (its turn): {r.short()}")
        seen += f", S for {a['turn']}: {r.status}"
    return seen


@check(17, "replaying an action", "the same action twice with If-Match: the second is 409 "
                                  "'changed since version'")
def c17(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    tid, token = view["id"], view["token"]
    version = view["version"]
    first = c.act(tid, token, "pass", headers={"If-Match": f'"{version}"'})
    second = c.act(tid, token, "pass", headers={"If-Match": f'"{version}"'})
    expect(first.status == 200, f"first: {first.short()}")
    expect(second.status == 409, f"second: {second.short()}")
    return f"{first.status}, then {second.status} {second.json()['error'][:50]!r}"


@check(18, "fill, release, back without a secret", "403 each")
def c18(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table(friends=["N"])
    out = []
    for step in ("fill", "release", "back", "seats/N/bot"):
        r = c.post(f"/api/tables/{view['id']}/{step}")
        expect(r.status == 403, f"{step}: {r.short()}")
        out.append(r.status)
    return f"fill, release, back, seats/N/bot: {out}"


@check(19, "token entropy",
       "seat secrets of 192 bits (32 URL-safe characters), table ids of 64 bits, join codes "
       "of 8 characters of 31, all distinct")
def c19(ctx: Context) -> str:
    c = ctx.client()
    views = [c.new_table() for _ in range(6)]
    tokens = [v["token"] for v in views]
    ids = [v["id"] for v in views]
    codes = [v["code"] for v in views]
    expect(all(len(t) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in tokens),
           f"tokens {tokens[:2]}")
    expect(all(re.fullmatch(r"[0-9a-f]{16,}", i) for i in ids), f"ids {ids[:2]}")
    expect(all(len(k) >= 8 and set(k) <= set(CODE_ALPHABET) for k in codes), f"codes {codes}")
    expect(len(set(tokens)) == len(set(ids)) == len(set(codes)) == 6, "a repeated secret")
    return f"tokens {len(tokens[0])} chars, ids {len(ids[0])} hex, codes {len(codes[0])} of 31"


@check(20, "guessing join codes",
       "failed joins are limited per client: POST /api/tables/join and GET /t/{code} with "
       "random codes answer 404 then 429 with Retry-After within the burst (10 here); "
       "codes have 8 characters (39.6 bits) and end with their table (404 once it is over)")
def c20(ctx: Context) -> str:
    c = ctx.client()
    rng = random.Random(20)

    def guess() -> str:
        return "".join(rng.choice(CODE_ALPHABET) for _ in range(8))

    statuses = []
    for _ in range(14):
        r = c.join(guess(), seat="N")
        statuses.append(r.status)
        if r.status == 429:
            expect(r.header("retry-after"), "429 with no Retry-After")
            break
    expect(statuses[-1] == 429 and set(statuses[:-1]) == {404},
           f"POST /api/tables/join: {statuses}")
    page = c.get(f"/t/{guess()}")
    expect(page.status == 429, f"GET /t/<random> once limited: {page.status}")
    d = ctx.client()
    view = d.new_table(target=1)
    over = d.play(view, view["token"], lambda v: v["over"], rng, steps=300)
    r = d.join(over["code"], seat="N")
    expect(r.status == 404, f"the code of a finished table: {r.short()}")
    return (f"{len(statuses) - 1} failed joins then 429 (Retry-After "
            f"{r.header('retry-after') or page.header('retry-after')}); the /t/ page 429; "
            "a finished table's code 404")


@check(21, "a seat in a full room", "a fifth join answers 409 'every seat of this table is "
                                    "taken'")
def c21(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table(friends=["N", "E", "W"])
    for seat, invite in view["invites"].items():
        r = c.join(view["code"], invite=invite)
        expect(r.status == 201, f"the friend at {seat}: {r.short()}")
    r = c.join(view["code"])
    expect(r.status == 409, f"a fifth join: {r.short()}")
    return f"3 friends joined, a fifth: {r.status} {r.json()['error'][:50]!r}"


@check(22, "squatting a room, and kicking",
       "a stranger with the code cannot take the seat kept for a friend (403; the friend "
       "takes it with the invitation: 201); the room has a turn clock by default; the host "
       "hands the stranger's seat back to its bot (the stranger's secret then 403)")
def c22(ctx: Context) -> str:
    c = ctx.client()
    alice = c.new_table(friends=["N"])
    code, tid = alice["code"], alice["id"]
    expect(alice["clock"] > 0, f"the room's clock is {alice['clock']}")
    stranger = []
    statuses = []
    for _ in range(3):
        r = c.join(code)
        statuses.append(r.status)
        if r.status == 201:
            stranger.append(r.json())
    r = c.join(code, seat="N")
    expect(r.status in (403, 409), f"the stranger asks for N: {r.short()}")
    expect(all(s["seat"] != "N" for s in stranger), "the stranger took the kept seat")
    friend = c.join(code, invite=alice["invites"]["N"])
    expect(friend.status == 201, f"the friend with the invitation: {friend.short()}")
    expect(stranger, f"the stranger's joins: {statuses}")
    seat = stranger[0]["seat"]
    r = c.post(f"/api/tables/{tid}/seats/{seat}/bot", token=alice["token"])
    expect(r.status == 200, f"the host hands {seat} back: {r.short()}")
    r = c.get(f"/api/tables/{tid}", token=stranger[0]["token"])
    expect(r.status == 403, f"the stranger's secret afterwards: {r.short()}")
    return (f"stranger's joins {statuses}, N refused; the friend 201; clock {alice['clock']} s; "
            f"host handed {seat} back, the stranger 403")


@check(23, "counter games without the secret",
       "403 for GET/PATCH/DELETE of the game, a deal added, export.json, sheet.pdf, the edit "
       "link page, /join/{id}?key=wrong and the view id used as the secret")
def c23(ctx: Context) -> str:
    c = ctx.client()
    game = new_game(c)
    gid, view_id = game["id"], game["view"]
    tries: list[tuple[str, str, dict[str, Any]]] = [
        ("GET", f"/api/counter/games/{gid}", {}),
        ("PATCH", f"/api/counter/games/{gid}", {"json_body": {"target": 500}}),
        ("DELETE", f"/api/counter/games/{gid}", {}),
        ("POST", f"/api/counter/games/{gid}/deals", {"json_body": {"void": True}}),
        ("GET", f"/api/counter/games/{gid}/export.json", {}),
        ("GET", f"/api/counter/games/{gid}/sheet.pdf", {}),
        ("GET", f"/games/{gid}/edit-link", {}),
        ("GET", f"/join/{gid}?key=wrong", {}),
        ("GET", f"/api/counter/games/{gid}", {"token": view_id}),
        ("POST", f"/api/counter/games/{gid}/deals", {"json_body": {"void": True},
                                                     "token": view_id}),
    ]
    for method, path, kw in tries:
        r = c.request(method, path, **kw)
        expect(r.status == 403, f"{method} {path}: {r.short()}")
    r = c.get(f"/api/counter/games/{gid}", token=game["token"])
    expect(r.status == 200 and r.json()["version"] == game["version"],
           f"the game changed: {r.short()}")
    return f"{len(tries)} tries, all 403, the game unchanged"


@check(24, "listing other people's games",
       "GET /api/counter/games with 200 random secrets as 'Bearer s1,s2,...': no game")
def c24(ctx: Context) -> str:
    c = ctx.client()
    new_game(c)
    guesses = ",".join(secrets.token_urlsafe(24) for _ in range(200))
    r = c.get("/api/counter/games", token=guesses)
    expect(r.status in (200, 422) and (r.status == 422 or r.json()["games"] == []),
           f"{r.short()}")
    return f"{r.status} {r.text[:40]}"


@check(25, "cross-site writes",
       "POST actions with the seat's cookie and Origin: http://evil.example, Sec-Fetch-Site: "
       "cross-site or same-site: 403 each (same-origin works)")
def c25(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    c.cookies["rebelote_keys"] = keys_cookie((view["id"], view["token"]))
    path = f"/api/tables/{view['id']}/actions"
    for headers in ({"Origin": EVIL}, {"Sec-Fetch-Site": "cross-site"},
                    {"Sec-Fetch-Site": "same-site"}):
        r = c.post(path, json_body={"action": "pass"}, headers=headers)
        expect(r.status == 403, f"{headers}: {r.short()}")
    r = c.post(path, json_body={"action": "pass"}, headers={"Sec-Fetch-Site": "same-origin"})
    expect(r.status == 200, f"same-origin with the cookie: {r.short()}")
    return "403, 403, 403; same-origin 200"


@check(26, "cross-site forms",
       "form posts to /tables/{id}/act, /t/{code} and /tables/{id}/release with Origin: "
       "http://evil.example or Origin: null: 403 each")
def c26(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    c.cookies["rebelote_keys"] = keys_cookie((view["id"], view["token"]))
    n = 0
    for origin in (EVIL, "null"):
        for path, form in ((f"/tables/{view['id']}/act", {"action": "pass"}),
                           (f"/t/{view['code']}", {"seat": "N"}),
                           (f"/tables/{view['id']}/release", {})):
            r = c.post(path, form=form, headers={"Origin": origin})
            expect(r.status == 403, f"{path} from {origin}: {r.status}")
            n += 1
    r = c.get(f"/api/tables/{view['id']}", token=view["token"])
    expect(r.status == 200 and r.json()["version"] == view["version"], "the table changed")
    return f"{n} forms, all 403, the table unchanged"


@check(27, "text/plain fetch (a no-cors simple request)",
       "POST actions and /api/tables/join as text/plain: 415")
def c27(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    for path, body in ((f"/api/tables/{view['id']}/actions", {"action": "pass"}),
                       ("/api/tables/join", {"code": view["code"]})):
        r = c.post(path, body=json.dumps(body).encode(), token=view["token"],
                   headers={"Content-Type": "text/plain"})
        expect(r.status == 415, f"{path}: {r.short()}")
    return "415, 415"


@check(28, "cross-site WebSocket hijacking",
       "a socket with the seat's cookie and Origin http://evil.example, "
       "http://127.0.0.1:9999 or null is refused at the handshake; the same origin, or no "
       "Origin, opens")
def c28(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    c.cookies["rebelote_keys"] = keys_cookie((view["id"], view["token"]))
    path = f"/api/tables/{view['id']}/ws"
    out = []
    for origin in (EVIL, "http://127.0.0.1:9999", "null"):
        how = refused_socket(c, path, origin=origin, cookie=True)
        expect(how is not None, f"Origin {origin}: the socket opened")
        out.append(how)
    ours: tuple[str | None, ...] = (c.server.url, None)
    for mine in ours:
        ws = c.socket(path, origin=mine, cookie=True)
        first = json.loads(ws.recv(timeout=10))
        ws.close()
        expect("hand" in first, f"Origin {mine}: {str(first)[:100]}")
    return f"refused: {out}; same origin and none open"


@check(29, "Host allow-list on the WebSocket",
       "a raw handshake with Host: evil.example is not switched (no 101); a GET with that "
       "Host answers 400")
def c29(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    port = c.server.port
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    status, _ = raw_request(port, (
        f"GET /api/tables/{view['id']}/ws HTTP/1.1\r\nHost: evil.example:{port}\r\n"
        f"Origin: http://evil.example:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"X-Forwarded-For: {c.who}\r\n\r\n").encode())
    expect(status != 101, "101 Switching Protocols for Host: evil.example")
    plain, _ = raw_request(port, f"GET /healthz HTTP/1.1\r\nHost: evil.example:{port}\r\n"
                                 f"Connection: close\r\n\r\n".encode())
    expect(plain == 400, f"GET with Host: evil.example: {plain}")
    return f"socket {status}, GET {plain}"


@check(30, "cookie flags",
       "the Set-Cookie of POST /tables and POST /games: HttpOnly, SameSite=lax, Path=/, and no "
       "Secure over plain http")
def c30(ctx: Context) -> str:
    c = ctx.client()
    out = []
    for path, form in (("/tables", {"game": "coinche", "bots": "heuristic"}),
                       ("/games", {"game": "belote"})):
        r = c.post(path, form=form)
        cookie = next((v for v in r.all("set-cookie") if v.startswith("rebelote_keys=")), "")
        flags = {f.strip().lower() for f in cookie.split(";")[1:]}
        expect(r.status == 303 and cookie, f"{path}: {r.status}, no key ring cookie")
        expect({"httponly", "samesite=lax", "path=/"} <= flags and "secure" not in flags,
               f"{path}: {sorted(flags)}")
        out.append(path)
    return f"{', '.join(out)}: HttpOnly; SameSite=lax; Path=/; no Secure over http"


@check(31, "Secure behind an HTTPS proxy",
       "from the proxy named by --forwarded-allow-ips (127.0.0.1 here), X-Forwarded-Proto: "
       "https gives a Secure cookie and HSTS; from another address (127.0.0.2) the headers "
       "change nothing")
def c31(ctx: Context) -> str:
    trusted = ctx.client()
    r = trusted.post("/tables", form={"game": "coinche", "bots": "heuristic"},
                     headers={"X-Forwarded-Proto": "https"})
    cookie = next((v for v in r.all("set-cookie") if v.startswith("rebelote_keys=")), "")
    expect("secure" in cookie.lower(), f"behind the proxy: {cookie[-80:]!r}")
    expect((r.header("strict-transport-security") or "").startswith("max-age="),
           "behind the proxy: no HSTS")
    other = ctx.main().client(source="127.0.0.2")
    r2 = other.post("/tables", form={"game": "coinche", "bots": "heuristic"},
                    headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "10.1.2.3",
                             "Forwarded": "proto=https"})
    cookie2 = next((v for v in r2.all("set-cookie") if v.startswith("rebelote_keys=")), "")
    expect(r2.status == 303 and "secure" not in cookie2.lower() and
           r2.header("strict-transport-security") is None,
           f"from 127.0.0.2: {r2.status} {cookie2[-60:]!r}, HSTS "
           f"{r2.header('strict-transport-security')}")
    return (f"from the proxy: Secure, HSTS {r.header('strict-transport-security')}; "
            "from 127.0.0.2: neither")


@check(32, "CORS",
       "an OPTIONS preflight from another site and a GET with Origin: http://evil.example "
       "carry no Access-Control-* header")
def c32(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    pre = c.request("OPTIONS", "/api/tables", headers={
        "Origin": EVIL, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,authorization"})
    get = c.get(f"/api/tables/{view['id']}", token=view["token"], headers={"Origin": EVIL})
    for r in (pre, get):
        cors = [k for k, _ in r.headers if k.lower().startswith("access-control-")]
        expect(not cors, f"{r.status} with {cors}")
    return f"preflight {pre.status}, GET {get.status}, no Access-Control-* header"


@check(33, "security headers on the table pages",
       "CSP, X-Frame-Options: DENY, nosniff and Referrer-Policy: same-origin on the table page, "
       "/t/{code}, /tables/new, /docs, the QR code and a record; Cache-Control: no-store on "
       "the views and pages that hold a hand")
def c33(ctx: Context) -> str:
    c = ctx.client()
    view, token = finished_table(c, 1, random.Random(33))
    tid = view["id"]
    c.cookies["rebelote_keys"] = keys_cookie((tid, token))
    paths = [f"/tables/{tid}", f"/t/{view['code']}", "/tables/new", "/docs",
             f"/tables/{tid}/qr.svg", f"/api/tables/{tid}/deals/1.json", f"/api/tables/{tid}",
             f"/tables/{tid}/fragment"]
    stranger = ctx.client()
    for path in paths:
        r = (stranger if path.startswith("/t/") else c).get(path)
        expect(r.status == 200, f"{path}: {r.status}")
        expect(r.header("content-security-policy") and r.header("x-frame-options") == "DENY"
               and r.header("x-content-type-options") == "nosniff"
               and r.header("referrer-policy") == "same-origin", f"{path}: headers missing")
        if path in (f"/tables/{tid}", f"/api/tables/{tid}", f"/tables/{tid}/fragment"):
            expect("no-store" in (r.header("cache-control") or ""),
                   f"{path}: Cache-Control {r.header('cache-control')}")
    return f"{len(paths)} answers with every header; views no-store"


@check(34, "XSS", "a seat named <img src=x onerror=a()> and teams named <script>a()</script> "
                  "and \"><svg onload=a()> are escaped on the table, counter and view pages")
def c34(ctx: Context) -> str:
    c = ctx.client()
    bad_seat = "<img src=x onerror=a()>"
    view = c.new_table(name=bad_seat)
    c.cookies["rebelote_keys"] = keys_cookie((view["id"], view["token"]))
    page = c.get(f"/tables/{view['id']}")
    expect(page.status == 200 and bad_seat not in page.text, "the table page holds the name raw")
    teams = {"NS": "<script>a()</script>", "EW": '"><svg onload=a()>'}
    game = new_game(c, teams=teams)
    pages = [c.get(f"/games/{game['id']}", token=game["token"]), c.get(f"/views/{game['view']}")]
    for p in pages:
        expect(p.status == 200, f"a counter page: {p.status}")
        expect(not any(t in p.text for t in teams.values()), "a team name raw in a page")
    return "escaped on the table page, the counter's page and its view"


@check(35, "open redirect", "GET /lang/en?next= with //evil.example/, /\\evil.example, "
                            "https://evil.example/, /%2F%2Fevil.example, \\\\evil.example and "
                            "/\\t/evil.example always redirects to a local path")
def c35(ctx: Context) -> str:
    c = ctx.client()
    out = []
    for nxt in ("//evil.example/", "/\\evil.example", "https://evil.example/",
                "/%2F%2Fevil.example", "\\\\evil.example", "/\t/evil.example"):
        r = c.get(f"/lang/en?{urlencode({'next': nxt})}")
        loc = r.header("location") or ""
        parts = urlsplit(loc)
        expect(r.status in (302, 303, 307) and loc.startswith("/") and not parts.netloc
               and not loc.startswith(("//", "/\\")), f"next={nxt!r}: {r.status} {loc!r}")
        out.append(loc)
    return f"locations {out}"


@check(36, "login CSRF through the edit link",
       "a cross-site GET /join/{id}?key=<secret> asks first (no cookie set); the request's log "
       "line names its route and never the game's id nor its secret")
def c36(ctx: Context) -> str:
    c = ctx.client()
    game = new_game(c)
    since = len(c.server.log())
    r = c.get(f"/join/{game['id']}?key={game['token']}",
              headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})
    expect(r.status == 200, f"the edit link: {r.status}")
    expect(not any(v.startswith("rebelote_keys=") for v in r.all("set-cookie")),
           "the edit link set the key ring cookie at once")
    time.sleep(0.3)
    log = c.server.log()[since:]
    lines = [line for line in log.splitlines() if '"event":"request"' in line
             and '"route":"/join/{' in line]
    expect(lines, "the request is not in the log (one JSON line a request)")
    expect(game["token"] not in log, "the log shows the secret")
    expect(game["id"] not in log, "the log shows the game's id")
    return "200, a page that asks; no cookie; the log names the route, not the id or key"


@check(37, "open redirect in the join pages",
       "/t/{code} redirects only to /tables/{id} (a seat held, or a seat taken)")
def c37(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    c.cookies["rebelote_keys"] = keys_cookie((view["id"], view["token"]))
    r = c.get(f"/t/{view['code']}")
    expect(r.status == 303 and r.header("location") == f"/tables/{view['id']}",
           f"a held seat: {r.status} {r.header('location')}")
    d = ctx.client()
    r2 = d.post(f"/t/{view['code']}", form={"seat": "N", "next": "//evil.example"})
    loc = r2.header("location") or ""
    expect(r2.status == 303 and loc == f"/tables/{view['id']}", f"a join: {r2.status} {loc}")
    return f"{r.header('location')}, {loc}"


# == Bounded work ============================================================================
@check(38, "bot level that burns CPU",
       "a budget of the caller's choosing (pimc:10000, pimc:10001, {\"N\": \"pimc:99999\"}) is "
       "422; the strongest level answers and its searches stop with the answer (server CPU "
       "under 0.35 of a core in the 2 s after)", needs="own")
def c38(ctx: Context) -> str:
    # the live bots' searches alone: le robot à votre place chooses for the person's seat
    # ahead, while they think, at the table's level (low priority work of its own budget,
    # bounded by REBELOTE_ROBOT_PENDING and _PER_CLIENT): an expert table's first call costs
    # it a second of CPU after the answer, which is not the live search going on
    server = ctx.server("searches", env={"REBELOTE_ROBOT_PENDING": "0"})
    c = ctx.client(server)
    for bots in ("pimc:10000", "pimc:10001", {"N": "pimc:99999"}):
        r = c.post("/api/tables", json_body={"game": "coinche", "bots": bots})
        expect(r.status == 422, f"bots {bots}: {r.short()}")
    began = time.monotonic()
    r = c.post("/api/tables", json_body={"game": "coinche", "bots": "expert"}, timeout=60)
    took = time.monotonic() - began
    expect(r.status == 201, f"the strongest level: {r.short()}")
    cpu0 = server.cpu_seconds()
    time.sleep(2.0)
    used = (server.cpu_seconds() - cpu0) / 2.0
    expect(used < 0.35, f"{used:.2f} of a core used in the 2 s after the answer")
    return f"budgets 422; expert answered in {took:.1f} s, then {used:.2f} of a core"


def timed_actions(c: Client, view: dict[str, Any], token: str, n: int, rng: random.Random,
                  stop: threading.Event | None = None, within: float = 90.0
                  ) -> tuple[dict[str, Any], list[float]]:
    """``n`` actions of ``view``'s seat at a pace-0 table (``next`` between deals), as fast as
    its turns come (or until ``stop``); the view after them and each answer's seconds."""
    times: list[float] = []
    end = time.monotonic() + within
    while len(times) < n and time.monotonic() < end and not (stop and stop.is_set()):
        action = choose(view, rng)
        if action is None:  # the game is over, or waiting: read it again
            if view["over"]:
                break
            time.sleep(0.05)
            view = c.view(view["id"], token)
            continue
        r = c.act(view["id"], token, action, timeout=90)
        expect(r.status == 200, f"{action!r} at table {view['id']}: {r.short()}")
        times.append(r.seconds)
        view = r.json()
    return view, times


def bot_decisions(log: str, client: str) -> list[dict[str, Any]]:
    """The server's JSON line for each bot decision made for ``client`` (``{"event":
    "bot_decision", "client": ..., "ahead": ..., "outcome": ..., "ms": ...}``,
    docs/ops-metrics.md)."""
    out = []
    for line in log.splitlines():
        start = line.find('{"')
        if '"bot_decision"' not in line or start < 0:
            continue
        try:
            fields = json.loads(line[start:])
        except ValueError:
            continue
        if fields.get("event") == "bot_decision" and fields.get("client") == client:
            out.append(fields)
    return out


@check(39, "one client's bots starving another player's?",
       "one client drives 6 tables of searching bots (fort: the pool's order is the same at "
       "every level, and expert's searches would take three times longer) as fast as their "
       "turns come, with the default time of a decision (15 s), while another client plays "
       "one: no "
       "decision of the first client's starts while one of the other's waits for a worker "
       "(first come, first served, several did, and its answers went from 0.6 s to 4.4 s at "
       "the median, table-attack F7), and none of its decisions is played by the heuristic "
       "for want of time; threads bounded, /healthz under 1 s, the CPU idle after",
       needs="own")
def c39(ctx: Context) -> str:
    # the live bots' time alone: no replay of the finished deals (le robot à votre place, low
    # priority work that goes on after the attack, bounded by REBELOTE_ROBOT_PENDING)
    server = ctx.server("fair", options=("--forwarded-allow-ips", "127.0.0.1"),
                        env={"REBELOTE_ROBOT_PENDING": "0"})
    level = "fort"
    victim, attacker = server.client("10.39.0.1"), server.client("10.39.0.2")
    rng = random.Random(39)
    before = server.threads()
    peak = [before]
    mine = victim.new_table(game="coinche", bots=level)
    view, alone = timed_actions(victim, mine, mine["token"], 3, rng)  # its answers alone
    stop = threading.Event()
    tables = [attacker.new_table(game="coinche", bots=level) for _ in range(6)]
    since = len(server.log())

    def hog(v: dict[str, Any]) -> int:
        return len(timed_actions(attacker, v, v["token"], 10**6, random.Random(v["id"]),
                                 stop, 120)[1])

    def work() -> tuple[list[float], list[int]]:
        with ThreadPoolExecutor(6) as pool:
            hogs = [pool.submit(hog, v) for v in tables]
            time.sleep(2.0)  # the six tables fill the pool
            try:
                _, under = timed_actions(victim, view, mine["token"], 6, rng, within=90)
            finally:
                stop.set()
            while not all(f.done() for f in hogs):
                peak[0] = max(peak[0], server.threads())
                time.sleep(0.1)
            return under, [f.result() for f in hogs]

    (under, hogged), times = healthz_while(c=victim, work=work, seconds=150)
    log = server.log()[since:]
    theirs = bot_decisions(log, "10.39.0.1")
    hogs_made = bot_decisions(log, "10.39.0.2")
    ahead = [int(d["ahead"]) for d in theirs if d.get("ahead") is not None]
    fell = [d for d in theirs if str(d.get("outcome", "")).startswith("fallback")]
    took = [round(d["ms"]) for d in theirs]
    waited = [round(d["waited_ms"]) for d in theirs]
    seen = (f"the other player: {len(theirs)} bot decisions (p50 {median(took or [0]):.0f} ms, "
            f"of which waiting for a worker p50 {median(waited or [0]):.0f} ms, max "
            f"{max(waited or [0])} ms), decisions started ahead of each "
            f"{sorted(ahead)[-5:]} at most, {len(fell)} played by the heuristic, answers "
            f"p50 {median(alone) * 1000:.0f} ms alone, {median(under or [0]) * 1000:.0f} ms "
            f"beside 6 {level} tables of one client ({sum(hogged)} actions, "
            f"{len(hogs_made)} decisions, "
            f"{sum(1 for d in hogs_made if str(d.get('outcome')).startswith('fallback'))} "
            "fell back)")
    expect(len(under) >= 4 and len(theirs) >= 4 and len(hogs_made) >= 12, seen)
    expect(len(ahead) == len(theirs) and max(ahead) <= 1, seen)
    expect(not fell, seen)
    cores = os.cpu_count() or 1
    expect(peak[0] <= before + cores + 8, f"threads {before} -> {peak[0]}")
    expect(times and max(times) < 1.0, f"/healthz up to {max(times or [0]):.2f} s; {seen}")
    cpu0 = server.cpu_seconds()
    time.sleep(2.0)
    used = (server.cpu_seconds() - cpu0) / 2.0
    expect(used < 0.35, f"{used:.2f} of a core in the 2 s after")
    return f"{seen}; threads {before} -> {peak[0]}; /healthz max {max(times) * 1000:.0f} ms"


@check(40, "a 100,000-point game of bots on the event loop",
       "target 100000 is 422; a released table of bots (target 10000) pauses at the end of "
       "the deal: 4 releases at once answer at once and their tables stop writing")
def c40(ctx: Context) -> str:
    c = ctx.client()
    r = c.post("/api/tables", json_body={"game": "coinche", "target": 100000,
                                         "bots": "heuristic"})
    expect(r.status == 422 and "target" in r.text, f"target 100000: {r.short()}")
    views = [c.new_table(target=10000) for _ in range(4)]

    def release(v: dict[str, Any]) -> Answer:
        return c.post(f"/api/tables/{v['id']}/release", token=v["token"])

    def work() -> list[Answer]:
        with ThreadPoolExecutor(4) as pool:
            return list(pool.map(release, views))

    answers, times = healthz_while(c, work)
    expect(all(a.status == 200 and a.seconds < 3 for a in answers),
           f"releases: {[(a.status, round(a.seconds, 2)) for a in answers]}")
    versions = stable_versions(c.server, [v["id"] for v in views], 10.0)
    expect(versions is not None, "the released tables still write after 10 s")
    return (f"100000 refused; 4 releases in {max(a.seconds for a in answers):.2f} s at most, "
            f"/healthz max {max(times or [0]) * 1000:.0f} ms; tables stopped at versions "
            f"{versions}")


def stable_versions(server: Server, ids: list[str], within: float, hold: float = 1.5
                    ) -> list[int] | None:
    """The tables' stored versions once none has changed for ``hold`` seconds, waiting at
    most ``within`` seconds (``None``: they still change)."""
    deadline = time.monotonic() + within
    last = [server.db_version(t) for t in ids]
    since = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.25)
        now = [server.db_version(t) for t in ids]
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= hold:
            return now
    return None


@check(41, "a cold load of a long table",
       "a table is stored as a snapshot at each deal plus that deal's moves, so a cold load "
       "after a restart replays one deal: the GET answers in under 1 s and /healthz stays "
       "under 0.5 s meanwhile", needs="own")
def c41(ctx: Context) -> str:
    server = ctx.plain()
    c = server.client()
    view = c.new_table(target=10000, game="coinche", bots="random")
    tid, token = view["id"], view["token"]
    rng = random.Random(41)
    view = c.play(view, token, deal_over(5), rng, steps=800)
    deals = view["deal"] - 1
    for _ in range(4):  # a few moves into the next deal
        action = choose(view, rng)
        if action is not None:
            view = c.act(tid, token, action).json()
    conn = sqlite3.connect(f"file:{server.sqlite_path}?mode=ro", uri=True)
    try:
        moves = conn.execute("SELECT count(*) FROM play_moves WHERE table_id = ?",
                             (tid,)).fetchone()[0]
        base, version = conn.execute("SELECT base, version FROM play_tables WHERE id = ?",
                                     (tid,)).fetchone()
    finally:
        conn.close()
    expect(moves <= 60, f"{moves} stored moves after {deals} deals")
    server.stop()
    server.restart()
    c = server.client()
    r, times = healthz_while(c, lambda: c.get(f"/api/tables/{tid}", token=token))
    expect(r.status == 200 and r.json()["version"] == view["version"], f"cold GET: {r.short()}")
    expect(r.seconds < 1.0, f"the cold GET took {r.seconds:.2f} s")
    expect(not times or max(times) < 0.5, f"/healthz up to {max(times):.2f} s")
    return (f"{deals} deals: snapshot at version {base} of {version}, {moves} moves stored; "
            f"cold GET {r.seconds * 1000:.0f} ms after a restart")


@check(42, "background writes with no client at all",
       "target 100000 with clock 1 is 422; 3 tables with clock 1 left alone: S is away, its "
       "bot plays to the end of the deal, then the tables pause (no write for good, 'paused' "
       "in the view)")
def c42(ctx: Context) -> str:
    c = ctx.client()
    r = c.post("/api/tables", json_body={"game": "coinche", "target": 100000, "clock": 1})
    expect(r.status == 422, f"target 100000: {r.short()}")
    views = [c.new_table(target=10000, clock=1) for _ in range(3)]
    versions = stable_versions(c.server, [v["id"] for v in views], 30.0, hold=2.0)
    expect(versions is not None, "the tables still write after 30 s")
    out = [c.view(v["id"], v["token"]) for v in views]
    expect(all(v["paused"] and v["deal"] <= 2 for v in out),
           f"paused {[v['paused'] for v in out]}, deals {[v['deal'] for v in out]}")
    return f"3 tables paused at versions {versions} (deal {[v['deal'] for v in out]})"


@check(43, "a bots-only table at pace 1",
       "a table of bots at pace 1 (its player released) plays its deal and pauses: a few "
       "dozen writes, not thousands")
def c43(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table(target=10000, pace=1, bots="random")
    tid, token = view["id"], view["token"]
    deadline = time.monotonic() + 10
    while not view["legal"] and time.monotonic() < deadline:  # the bots before S, at pace 1
        time.sleep(0.05)
        view = c.view(tid, token)
    r = c.act(tid, token, "pass")
    expect(r.status == 200, f"S passes: {r.short()}")
    r = c.post(f"/api/tables/{tid}/release", token=token)
    expect(r.status == 200, f"release: {r.short()}")
    versions = stable_versions(c.server, [tid], 15.0)
    expect(versions is not None, "the table still writes after 15 s")
    assert versions is not None
    expect(versions[0] < 120, f"{versions[0]} writes")
    return f"paused after {versions[0]} writes"


@check(44, "creating many tables and games",
       "table creations, counter game creations and imports are limited per client: 429 "
       "with Retry-After within the burst (20 here)")
def c44(ctx: Context) -> str:
    out = []
    sample = json.dumps({"game": "belote", "deals": []}).encode()
    for what, path, kw in (
            ("tables", "/api/tables", {"json_body": {"game": "coinche", "bots": "random"}}),
            ("games", "/api/counter/games", {"json_body": {"game": "belote"}}),
            ("imports", "/api/counter/games/import",
             {"body": sample, "headers": {"Content-Type": "application/json"}}),
            ("table forms", "/tables", {"form": {"game": "coinche", "bots": "random"}}),
            ("game forms", "/games", {"form": {"game": "belote"}})):
        c = ctx.client()
        statuses = []
        for _ in range(24):
            r = c.post(path, **kw)
            statuses.append(r.status)
            if r.status == 429:
                expect(r.header("retry-after"), f"{what}: 429 with no Retry-After")
                break
        expect(statuses[-1] == 429, f"{what}: {len(statuses)} creations, no 429 "
                                    f"({sorted(set(statuses))})")
        out.append(f"{what} 429 after {len(statuses) - 1}")
    return ", ".join(out)


@check(45, "many WebSockets on one table, and across many tables",
       "a client opens at most sockets_per_table (4 here) sockets on a table: the fifth is "
       "refused; another client still opens; each open socket gets the push of an action. "
       "Across 7 tables (4 sockets each, as the attacker's 600 × 16), the client's socket "
       "cap (sockets_per_client, 24 here) refuses the 25th; closed, they count out")
def c45(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    tid, token = view["id"], view["token"]
    c.cookies["rebelote_keys"] = keys_cookie((tid, token))
    path = f"/api/tables/{tid}/ws"
    socks = []
    try:
        for _ in range(4):
            ws = c.socket(path, cookie=True)
            json.loads(ws.recv(timeout=10))
            socks.append(ws)
        fifth = refused_socket(c, path, cookie=True)
        expect(fifth is not None, "a fifth socket opened")
        d = ctx.client()
        d.cookies = dict(c.cookies)
        other = refused_socket(d, path, cookie=True)
        expect(other is None, f"another client refused: {other}")
        r = c.act(tid, token, "pass")
        expect(r.status == 200, f"action: {r.short()}")
        got = 0
        for ws in socks:
            with contextlib.suppress(TimeoutError):
                if json.loads(ws.recv(timeout=5))["version"] >= r.json()["version"]:
                    got += 1
        expect(got == 4, f"{got} of 4 sockets got the push")
    finally:
        for ws in socks:
            ws.close()
    # table-attack-4, F2: sockets across many tables from one client
    c = ctx.client()
    tables = [c.new_table(bots="random") for _ in range(7)]
    many: list[ClientConnection] = []
    refused: list[str] = []
    try:
        for t in tables:
            for _ in range(4):
                try:
                    ws, _ = authed_socket(c, t["id"], t["token"])
                    many.append(ws)
                except InvalidStatus as e:
                    refused.append(f"HTTP {e.response.status_code}")
        expect(len(many) == 24 and len(refused) == 4,
               f"across 7 tables: {len(many)} sockets open, {len(refused)} refused")
        d = ctx.client()
        other = refused_socket(d, f"/api/tables/{tables[0]['id']}/ws")
        expect(other is None, f"another client refused: {other}")
    finally:
        for ws in many:
            ws.close()
    time.sleep(0.5)
    again, _ = authed_socket(c, tables[-1]["id"], tables[-1]["token"])  # counted out
    again.close()
    return (f"4 open, the fifth refused ({fifth}), another client opens, 4 pushes; across 7 "
            f"tables 24 open, 4 refused ({refused[0]}), closed ones counted out")


@check(46, "sockets with no secret", "20 sockets that send nothing are closed by the server "
                                     "within 10 s (and a few more)")
def c46(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    path = f"/api/tables/{view['id']}/ws"
    socks = [ctx.client().socket(path) for _ in range(20)]
    began = time.monotonic()
    codes = [closed_code(ws, max(0.1, 14 - (time.monotonic() - began))) for ws in socks]
    for ws in socks:
        ws.close()
    expect(all(code is not None for code in codes),
           f"{sum(code is None for code in codes)} still open after 14 s")
    seen = sorted({code for code in codes if code is not None})
    return f"20 closed in {time.monotonic() - began:.1f} s (codes {seen})"


@check(47, "huge messages before authentication",
       "a first message of 15 MB is refused unread (closed 1009, over the 64 KiB limit) and one "
       "of 2 KB is not parsed (closed 4403): the server's memory grows by less than 40 MB and "
       "/healthz stays under 0.5 s")
def c47(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    path = f"/api/tables/{view['id']}/ws"
    rss0 = c.server.rss_mb()
    codes = []

    def flood() -> None:
        for size in (15_000_000,) * 5 + (2_000,):
            ws = ctx.client().socket(path)
            with contextlib.suppress(ConnectionClosed, OSError):
                ws.send(json.dumps({"token": view["token"], "pad": "x" * size}))
            codes.append(closed_code(ws, 10))
            ws.close()

    _, times = healthz_while(c, flood)
    grown = c.server.rss_mb() - rss0
    expect(all(code in (1009, 4403, 1006) for code in codes[:-1]) and codes[-1] == 4403,
           f"close codes {codes}")
    expect(grown < 40, f"the server grew by {grown:.0f} MB")
    expect(not times or max(times) < 0.5, f"/healthz up to {max(times):.2f} s")
    return f"codes {codes}, memory +{grown:.0f} MB, /healthz max {max(times or [0]) * 1000:.0f} ms"


@check(48, "huge or fast messages after authentication",
       "after the secret, a 17 MB message closes the socket (1009); 5,000 one-byte messages "
       "change nothing and the server keeps answering (/healthz under 0.5 s)")
def c48(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    ws, _ = authed_socket(c, view["id"], view["token"])
    with contextlib.suppress(ConnectionClosed, OSError):
        ws.send("x" * 17_000_000)
    code = closed_code(ws, 10)
    ws.close()
    expect(code == 1009 or code == 1006, f"the 17 MB message: close code {code}")
    ws, _ = authed_socket(ctx.client(), view["id"], view["token"])

    def flood() -> None:
        for _ in range(5000):
            ws.send("x")

    _, times = healthz_while(c, flood)
    r = c.act(view["id"], view["token"], "pass")
    push = json.loads(ws.recv(timeout=10))
    ws.close()
    expect(r.status == 200 and push["version"] >= 1, "no push after the flood")
    expect(not times or max(times) < 0.5, f"/healthz up to {max(times):.2f} s")
    return f"17 MB: closed {code}; 5,000 small ones: /healthz max " \
           f"{max(times or [0]) * 1000:.0f} ms, the socket still pushes"


@check(49, "slowloris",
       "connections that trickle their headers are closed by the header deadline "
       "(header_timeout 2 s here), and ones that trickle a body get 408 by the body deadline "
       "(body_timeout 2 s here) however steadily they trickle; an aborted body logs no "
       "traceback")
def c49(ctx: Context) -> str:
    c = ctx.client()
    port = c.server.port
    since = len(c.server.log())
    heads = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(5)]
    bodies = []
    for _ in range(5):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Forwarded-For: "
                  f"{c.who}\r\nContent-Type: application/json\r\nContent-Length: 900000\r\n\r\n"
                  "{".encode())
        bodies.append(s)
    for s in heads:
        s.sendall(b"GET /healthz HTTP/1.1\r\n")
    began = time.monotonic()
    closed_heads: dict[int, float] = {}
    answered: dict[int, float] = {}
    statuses: dict[int, int] = {}
    for s in heads + bodies:
        s.setblocking(False)
    while time.monotonic() - began < 8 and (len(closed_heads) < 5 or len(answered) < 5):
        for i, s in enumerate(heads):
            if i in closed_heads:
                continue
            with contextlib.suppress(OSError):
                s.sendall(b"X-a: b\r\n")
            if read_now(s) == b"":
                closed_heads[i] = time.monotonic() - began
        for i, s in enumerate(bodies):
            if i in answered:
                continue
            with contextlib.suppress(OSError):
                s.sendall(b" ")
            data = read_now(s)
            if data is not None:
                answered[i] = time.monotonic() - began
                statuses[i] = int(data[9:12]) if data[:5] == b"HTTP/" else 0
        time.sleep(0.5)
    for s in heads + bodies:
        s.close()
    expect(len(closed_heads) == 5, f"{5 - len(closed_heads)} slow-header connections still "
                                   "open after 8 s")
    expect(len(answered) == 5, f"{5 - len(answered)} slow-body connections still open after "
                               "8 s (a byte every 0.5 s)")
    expect(set(statuses.values()) <= {408, 0}, f"slow bodies answered {statuses}")
    # bodies aborted halfway
    for _ in range(3):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Forwarded-For: "
                  f"{c.who}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n"
                  '{"game"'.encode())
        time.sleep(0.1)
        s.close()
    time.sleep(0.5)
    found = tracebacks(c.server, since)
    expect(not found, f"tracebacks in the log: {found[:1]}")
    return (f"slow headers closed at {max(closed_heads.values()):.1f} s, slow bodies answered "
            f"{sorted(set(statuses.values()))} at {max(answered.values()):.1f} s; no traceback")


@check(50, "the cap on live sheets (server-sent events)",
       "one client holding its own game's streams meets streams_per_client (3 here: the "
       "fourth 429) and a game meets streams_per_game (6 here); everyone else's live sheets "
       "still open (200)")
def c50(ctx: Context) -> str:
    server = ctx.main()
    c = ctx.client()
    mine = new_game(c)
    theirs = new_game(ctx.client())
    opened: list[socket.socket] = []
    try:
        statuses = []
        for _ in range(4):
            status, s = open_stream(server.port, f"/views/{mine['view']}/events", c.who or "")
            statuses.append(status)
            opened.append(s)
        expect(statuses[:3] == [200] * 3 and statuses[3] == 429,
               f"one client's streams: {statuses}")
        other = ctx.client()
        status, s = open_stream(server.port, f"/views/{theirs['view']}/events", other.who or "")
        opened.append(s)
        expect(status == 200, f"another viewer's sheet: {status}")
        per_game = []
        for _ in range(6):
            status, s = open_stream(server.port, f"/views/{theirs['view']}/events",
                                    ctx.client().who or "")
            per_game.append(status)
            opened.append(s)
        expect(per_game[-1] == 429 and set(per_game[:-1]) == {200},
               f"one game's streams from many clients: {per_game}")
    finally:
        for s in opened:
            s.close()
    return f"one client: {statuses}; another viewer 200; one game: {per_game}"


@check(51, "analysis cost",
       "the analysis of a finished deal answers, then from its cache; 3 uncached analyses in "
       "parallel keep /healthz under 1 s")
def c51(ctx: Context) -> str:
    c = ctx.client()
    view, token = played_table(c, 4, random.Random(51))
    tid = view["id"]
    played = [n for n in range(1, view["deal"])
              if c.get(f"/api/tables/{tid}/deals/{n}.json", token=token).json()["tricks"]]
    first = c.get(f"/api/tables/{tid}/deals/{played[0]}/analysis", token=token, timeout=120)
    again = c.get(f"/api/tables/{tid}/deals/{played[0]}/analysis", token=token)
    expect(first.status == 200 and again.status == 200, f"analysis: {first.short()}")

    def work() -> list[Answer]:
        with ThreadPoolExecutor(3) as pool:
            return list(pool.map(
                lambda n: c.get(f"/api/tables/{tid}/deals/{n}/analysis", token=token,
                                timeout=120), played[1:4]))

    answers, times = healthz_while(c, work, 120)
    expect(all(a.status == 200 for a in answers), f"{[a.status for a in answers]}")
    expect(not times or max(times) < 1.0, f"/healthz up to {max(times):.2f} s")
    return (f"first {first.seconds:.2f} s, cached {again.seconds * 1000:.0f} ms; "
            f"{len(answers)} in parallel in {max(a.seconds for a in answers):.2f} s, "
            f"/healthz max {max(times or [0]) * 1000:.0f} ms")


@check(52, "deep JSON, big numbers, surrogates",
       "bodies nested 40 and 100,000 levels deep, 1e999, 2^53, a lone surrogate, -5 and "
       "1000.5 answer 422 naming the field")
def c52(ctx: Context) -> str:
    c = ctx.client()
    tries: list[tuple[str, bytes, str]] = [
        ("nested 40", b'{"game": "coinche", "options": ' + b"[" * 40 + b"]" * 40 + b"}", "body"),
        ("nested 100,000", b"[" * 100_000 + b"]" * 100_000, "body"),
        ("1e999", b'{"game": "coinche", "target": 1e999}', "target"),
        ("2^53", b'{"game": "coinche", "target": 9007199254740992}', "target"),
        ("lone surrogate", b'{"game": "coinche", "name": "\\ud800"}', "name"),
        ("-5", b'{"game": "coinche", "target": -5}', "target"),
        ("1000.5", b'{"game": "coinche", "target": 1000.5}', "target"),
    ]
    for what, body, field_name in tries:
        r = c.post("/api/tables", body=body, headers={"Content-Type": "application/json"})
        expect(r.status == 422, f"{what}: {r.short()}")
        error = r.json().get("error", "")
        expect(error.startswith(field_name) or f"{field_name}:" in error,
               f"{what}: {error[:80]!r} does not name {field_name}")
    return f"{len(tries)} bodies, all 422 naming the field"


@check(53, "names and odd unicode",
       "a 25-character name is 422; names with RLO, NUL, emoji, U+10FFFF, combining marks and "
       "﷽×40 never give a 500, and a game so named still shows its page, PDF and CSV; a "
       "formula in a team name is written '=... in the CSV")
def c53(ctx: Context) -> str:
    c = ctx.client()
    r = c.post("/api/tables", json_body={"game": "coinche", "name": "x" * 25})
    expect(r.status == 422 and "name" in r.text, f"a 25-character name: {r.short()}")
    r = c.post("/api/tables", json_body={"game": "coinche", "name": "\u202e\u0000abc"})
    expect(r.status in (201, 422), f"RLO + NUL: {r.short()}")
    statuses = []
    for name in ("\u202eabc", "a\u0000b", "🂡🂱", "\U0010ffff", "e\u0301\u0301\u0301",
                 "\ufdfd" * 40, "=cmd|' /C calc'!A0"):
        r = c.post("/api/counter/games", json_body={"game": "belote",
                                                    "teams": {"NS": name, "EW": "b"}})
        statuses.append(r.status)
        expect(r.status in (201, 422), f"team {name[:10]!r}: {r.short()}")
        if r.status != 201:
            continue
        g = r.json()
        for path in (f"/games/{g['id']}", f"/api/counter/games/{g['id']}/sheet.pdf",
                     f"/api/counter/games/{g['id']}/export.csv"):
            p = c.get(path, token=g["token"])
            expect(p.status == 200, f"team {name[:10]!r}: {path} {p.status}")
            if name.startswith("=") and path.endswith(".csv"):
                expect("'=cmd" in p.text and ",=cmd" not in p.text, "the CSV holds a formula")
    return f"25 characters 422; odd names {statuses}; pages, PDF and CSV 200; CSV '=cmd"


@check(54, "numbers in paths and queries",
       "rows=-1, rows=10^21, limit=0, offset=10^7, deals/1e3.json, deals/%C2%B2.json, "
       "since=-1 and rules= of 600 characters answer 200, 204, 404 or 422, never 500")
def c54(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    tid, token = view["id"], view["token"]
    c.cookies["rebelote_keys"] = keys_cookie((tid, token))
    paths = ["/sheets/blank.pdf?rows=-1", f"/sheets/blank.pdf?rows={10**21}",
             "/api/counter/games?limit=0", f"/api/counter/games?offset={10**7}",
             f"/api/tables/{tid}/deals/1e3.json", f"/api/tables/{tid}/deals/%C2%B2.json",
             f"/tables/{tid}/fragment?since=-1", f"/tables/new?rules={'x' * 600}",
             f"/sheets/points-table.pdf?rules={'x' * 600}"]
    out = []
    for path in paths:
        r = c.get(path, token=token if path.startswith("/api/tables") else None)
        expect(r.status in (200, 204, 404, 422), f"{path[:50]}: {r.status}")
        out.append(r.status)
    return f"{out}"


@check(55, "500s from str.isdigit() + int()",
       "'²', '①' and 4,301 digits in an action, a counter deal's contract, a CSV import, the "
       "form fields target, pace, points, contract and version, the fragment's since, and "
       "the concours forms (its creation's parties and deals, the organiser's result and "
       "settings): never a 500, and nothing changed")
def c55(ctx: Context) -> str:
    c = ctx.client()
    table = c.new_table()
    tid, ttoken = table["id"], table["token"]
    game = new_game(c, game="coinche")
    gid, gtoken = game["id"], game["token"]
    r = c.post(f"/api/counter/games/{gid}/deals", token=gtoken, json_body={
        "taker": "NS", "trump": "hearts", "contract": 80, "points": {"NS": 90}})
    expect(r.status == 200, f"a deal: {r.short()}")
    gversion = r.json()["version"]
    csv = c.get(f"/api/counter/games/{gid}/export.csv", token=gtoken).text
    spare = new_game(c, game="coinche")
    # a concours of 4 teams, its first partie drawn (table-attack-4, F6: its forms)
    r = c.post("/api/concours", json_body={"name": "Club", "game": "belote", "parties": 2,
                                           "deals": 2, "teams": ["A", "B", "C", "D"]})
    expect(r.status == 201, f"a concours: {r.short()}")
    cid, ctoken = r.json()["id"], r.json()["token"]
    r = c.post(f"/api/concours/{cid}/parties", token=ctoken)
    expect(r.status in (200, 201), f"the first partie: {r.short()}")
    before = c.get(f"/api/concours/{cid}", token=ctoken).text
    c.cookies["rebelote_keys"] = keys_cookie((tid, ttoken), (gid, gtoken),
                                             (spare["id"], spare["token"]), (cid, ctoken))
    tried = 0
    for bad in ("²", "①", "9" * 4301):
        cases: list[tuple[str, str, dict[str, Any]]] = [
            ("POST", f"/api/tables/{tid}/actions", {"json_body": {"action": f"{bad} hearts"}}),
            ("POST", f"/api/counter/games/{gid}/deals", {"json_body": {
                "taker": "NS", "trump": "hearts", "contract": bad, "points": {"NS": 90}}}),
            ("POST", "/api/counter/games/import", {
                "body": csv.replace(",80,", f",{bad},").encode(),
                "headers": {"Content-Type": "text/csv"}}),
            ("POST", "/games", {"form": {"game": "belote", "target": bad}}),
            ("POST", f"/games/{gid}/deals", {"form": {"kind": "deal", "taker": "NS",
                                                      "trump": "hearts", "contract": bad,
                                                      "points": bad}}),
            # a page's version is a hint (a wrong one is no version): undo on another game
            ("POST", f"/games/{spare['id']}/undo", {"form": {"version": bad}}),
            ("POST", f"/games/{gid}/settings", {"form": {"target": bad}}),
            ("POST", "/tables", {"form": {"game": "coinche", "target": bad, "pace": bad}}),
            ("POST", f"/tables/{tid}/act", {"form": {"action": f"{bad} hearts",
                                                     "version": bad}}),
            ("GET", f"/tables/{tid}/fragment?since={quote(bad)}", {}),
            ("POST", "/concours", {"form": {"name": "x", "game": "belote", "parties": bad,
                                            "teams": "A\nB"}}),
            ("POST", "/concours", {"form": {"name": "x", "game": "belote", "parties": "2",
                                            "deals": bad, "teams": "A\nB"}}),
            ("POST", f"/concours/{cid}/parties/1/tables/1", {"form": {"a": bad, "b": "10"}}),
            ("POST", f"/concours/{cid}/parties/1/tables/1", {"form": {
                "a": "100", "b": "10", "deals": bad, "belotes": bad}}),
            ("POST", f"/concours/{cid}/settings", {"form": {"parties": bad}}),
        ]
        for method, path, kw in cases:
            r = c.request(method, path, **kw)
            expect(r.status < 500, f"{method} {path[:40]} with {bad[:8]!r}: {r.status}")
            tried += 1
    expect(c.view(tid, ttoken)["version"] == table["version"], "the table changed")
    g = c.get(f"/api/counter/games/{gid}", token=gtoken).json()
    expect(g["version"] == gversion, f"the game changed: version {g['version']}")
    after = c.get(f"/api/concours/{cid}", token=ctoken).text
    expect(after == before, "the concours changed")
    return f"{tried} requests on 15 routes (5 of the concours), none 500, nothing changed"


@check(56, "tracebacks from WebSocket first messages",
       "first messages {\"token\": 5}, {\"token\": [\"a\"]}, '[' x 1,000 and x 100,000, and a "
       "binary frame close the socket, and the log gets no traceback")
def c56(ctx: Context) -> str:
    c = ctx.client()
    view = c.new_table()
    path = f"/api/tables/{view['id']}/ws"
    since = len(c.server.log())
    codes = []
    for message in ('{"token": 5}', '{"token": ["a"]}', "[" * 1000, "[" * 100_000,
                    b"\x00\x01binary"):
        ws = ctx.client().socket(path)
        with contextlib.suppress(ConnectionClosed):
            ws.send(message)
        codes.append(closed_code(ws, 10))
        ws.close()
    expect(all(code is not None for code in codes), f"close codes {codes}")
    time.sleep(0.3)
    found = tracebacks(c.server, since)
    expect(not found, f"tracebacks: {found[:1]}")
    return f"closed with {codes}, no traceback"


# == Faults ==================================================================================
def burst(c: Client, views: list[dict[str, Any]], seconds: float, stop: threading.Event,
          acked: dict[str, dict[str, Any]], errors: list[str], retry: bool = False) -> None:
    """Play the tables as fast as possible (one thread each) for ``seconds`` or until
    ``stop``; ``acked`` holds each table's last acknowledged view."""
    def play(v: dict[str, Any]) -> None:
        rng = random.Random(v["id"])
        tid, token = v["id"], v["token"]
        acked[tid] = v
        end = time.monotonic() + seconds
        while not stop.is_set() and time.monotonic() < end:
            current = acked[tid]
            action = choose(current, rng)
            if action is None or current["over"]:
                return
            try:
                r = c.act(tid, token, action, headers={"If-Match": f'"{current["version"]}"'},
                          timeout=10)
            except (OSError, http.client.HTTPException) as e:
                if not retry:
                    return
                errors.append(type(e).__name__)
                time.sleep(0.2)
                with contextlib.suppress(OSError, http.client.HTTPException, CheckFailed):
                    acked[tid] = c.view(tid, token)
                continue
            if r.status == 200:
                acked[tid] = r.json()
            elif r.status in (409, 503) and retry:
                errors.append(str(r.status))
                time.sleep(0.1)
                with contextlib.suppress(OSError, http.client.HTTPException, CheckFailed):
                    acked[tid] = c.view(tid, token)
            else:
                errors.append(r.short())
                return

    threads = [threading.Thread(target=play, args=(v,), daemon=True) for v in views]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 20)


def runner_was_playing(acked: dict[str, dict[str, Any]]) -> bool:
    """A table of the burst had not ended its game (the burst was still playing it)."""
    return not all(v["over"] for v in acked.values())


def check_acked(c: Client, acked: dict[str, dict[str, Any]], rng: random.Random) -> list[str]:
    """Every table holds at least its last acknowledged version (at most one more: a move
    written but not yet answered), the same hand, and plays on; the problems found."""
    problems = []
    for tid, last in acked.items():
        v = c.view(tid, last.get("token", ""))
        if not last["version"] <= v["version"] <= last["version"] + 1:
            problems.append(f"{tid}: acknowledged {last['version']}, stored {v['version']}")
        elif v["version"] == last["version"] and v["hand"] != last["hand"]:
            problems.append(f"{tid}: another hand")
        action = choose(v, rng)
        if action is not None and not v["over"]:
            r = c.act(tid, last["token"], action)
            if r.status != 200:
                problems.append(f"{tid}: not playable: {r.short()}")
    return problems


@check(57, "kill -9 during a burst (SQLite)",
       "3 tables played as fast as possible, SIGKILL at 1.5 s, restart: each table holds its "
       "last acknowledged version (or the one move after), the same hand, and plays on",
       needs="own")
def c57(ctx: Context) -> str:
    server = ctx.plain()
    c = server.client()
    views = [c.new_table(bots="debutant", target=10000) for _ in range(3)]
    tokens = {v["id"]: v["token"] for v in views}
    acked: dict[str, dict[str, Any]] = {}
    errors: list[str] = []
    stop = threading.Event()
    runner = threading.Thread(target=burst, args=(c, views, 10.0, stop, acked, errors))
    runner.start()
    time.sleep(1.5)
    at_kill = [v["version"] for v in acked.values()]
    server.kill()
    stop.set()
    runner.join(30)
    expect(len(at_kill) == 3 and runner_was_playing(acked),
           f"the burst had stopped: versions {at_kill}, over "
           f"{[v['over'] for v in acked.values()]}, errors {errors}")
    server.restart()
    c = server.client()
    for tid, v in acked.items():
        v["token"] = tokens[tid]
    problems = check_acked(c, acked, random.Random(57))
    expect(not problems, "; ".join(problems))
    return f"3 tables at versions {[v['version'] for v in acked.values()]} kept, playable"


@check(58, "kill -9 while a turn clock runs",
       "a room (Bob at E, clock 3 s), SIGKILL at Bob's turn, restart: within the clock and a "
       "few seconds Bob is away and his bot plays (the clock was stored and restored)",
       needs="own")
def c58(ctx: Context) -> str:
    server = ctx.plain()
    c = server.client()
    alice = c.new_table(friends=["E"], clock=3, bots="random")
    bob = c.join(alice["code"], invite=alice["invites"]["E"])
    expect(bob.status == 201, f"Bob joins: {bob.short()}")
    b = bob.json()
    expect(b["turn"] == "S" and b["legal"], f"not Bob's turn: turn {b['turn']} in his view")
    version = b["version"]
    # the turn's clock is written beside the table just after the answer (in the background):
    # the kill comes once it is stored (killed before, the server would restart with no clock
    # to restore; on a loaded machine the write can come a second later)
    stored_by = time.monotonic() + 10
    while '"turn"' not in server.db_timers(alice["id"]) and time.monotonic() < stored_by:
        time.sleep(0.05)
    expect('"turn"' in server.db_timers(alice["id"]), "Bob's clock not stored within 10 s")
    server.kill()
    killed = time.monotonic()
    server.restart()
    restarted = time.monotonic()
    c = server.client()
    # the clock (3 s) and some slack, counted from the restart: under load a restart alone
    # can take most of a fixed window from the kill
    deadline = restarted + 3 + 15
    v = c.view(alice["id"], alice["token"])
    while time.monotonic() < deadline and not (v["seats"]["E"]["away"] or
                                                v["version"] > version + 1):
        time.sleep(0.3)
        v = c.view(alice["id"], alice["token"])
    expect(v["seats"]["E"]["away"] or v["version"] > version + 1,
           f"{time.monotonic() - restarted:.0f} s after the restart (which took "
           f"{restarted - killed:.0f} s): Bob not away, version {v['version']}")
    return (f"Bob away {time.monotonic() - killed:.1f} s after the kill (the restart took "
            f"{restarted - killed:.1f} s), version {version} -> {v['version']}")


@check(59, "PostgreSQL drops every connection",
       "3 tables played fast while every connection of the server is terminated: no "
       "acknowledged move is lost, the tables play on, and a socket gets its pushes after "
       "the cut", needs="pg")
def c59(ctx: Context) -> str:
    import psycopg

    assert ctx.pg is not None
    name = f"{PG_APP_NAME}-pg"
    server = ctx.postgres()
    c = server.client()
    views = [c.new_table(bots="debutant", target=10000) for _ in range(3)]
    tokens = {v["id"]: v["token"] for v in views}
    watched = c.new_table(bots="random")
    ws, _ = authed_socket(c, watched["id"], watched["token"])
    acked: dict[str, dict[str, Any]] = {}
    errors: list[str] = []
    stop = threading.Event()
    runner = threading.Thread(target=burst, args=(c, views, 4.0, stop, acked, errors, True))
    runner.start()
    time.sleep(1.5)
    with psycopg.connect(pg_conninfo(ctx.pg), autocommit=True) as admin:
        cut = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            "WHERE application_name = %s", (name,)).fetchone()
    at_cut = sum(v["version"] for v in acked.values())
    runner.join(30)
    expect(sum(v["version"] for v in acked.values()) > at_cut,
           f"no move acknowledged after the cut: {errors}")
    for tid, v in acked.items():
        v["token"] = tokens[tid]
    problems = check_acked(c, acked, random.Random(59))
    expect(not problems, "; ".join(problems))
    time.sleep(1.0)
    r = c.act(watched["id"], watched["token"], "pass")
    pushed = None
    with contextlib.suppress(TimeoutError):
        while pushed is None or pushed["version"] < r.json()["version"]:
            pushed = json.loads(ws.recv(timeout=10))
    ws.close()
    expect(pushed is not None and pushed["version"] >= r.json()["version"],
           "no push after the cut")
    return (f"{cut[0] if cut else 0} connections cut; answers during the cut "
            f"{sorted(set(errors))}; versions kept; the socket pushed after")


def with_query(url: str, **query: str) -> str:
    """``url`` with these connection parameters added to its query."""
    from sqlalchemy.engine import make_url

    return make_url(url).update_query_dict(query).render_as_string(hide_password=False)


@check(60, "kill -9 of one worker (PostgreSQL, 2 workers)",
       "SIGKILL of a worker during a burst on 2 tables: uvicorn starts another, no "
       "acknowledged move is lost, the tables play on", needs="pg")
def c60(ctx: Context) -> str:
    assert ctx.pg is not None
    server = ctx.postgres(workers=2)
    c = server.client()
    deadline = time.monotonic() + 30
    while len(server.children()) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    workers = server.children()
    expect(len(workers) >= 2, f"{len(workers)} workers")
    views = [c.new_table(bots="debutant", target=10000) for _ in range(2)]
    tokens = {v["id"]: v["token"] for v in views}
    acked: dict[str, dict[str, Any]] = {}
    errors: list[str] = []
    stop = threading.Event()
    runner = threading.Thread(target=burst, args=(c, views, 4.0, stop, acked, errors, True))
    runner.start()
    time.sleep(1.5)
    at_kill = sum(v["version"] for v in acked.values())
    os.kill(workers[0], signal.SIGKILL)
    runner.join(30)
    expect(sum(v["version"] for v in acked.values()) > at_kill,
           f"no move acknowledged after the kill: {errors}")
    while time.monotonic() < deadline + 10 and len(
            [p for p in server.children() if p != workers[0]]) < 2:
        time.sleep(0.2)
    now = [p for p in server.children() if p != workers[0]]
    for tid, v in acked.items():
        v["token"] = tokens[tid]
    problems = check_acked(c, acked, random.Random(60))
    expect(not problems, "; ".join(problems))
    expect(len(now) >= 2, f"{len(now)} workers after the kill")
    return f"worker {workers[0]} killed, {len(now)} workers again; versions kept; " \
           f"client errors {sorted(set(errors))}"


@check(61, "a locked SQLite file",
       "while another process holds BEGIN EXCLUSIVE for 8 s, /healthz answers in under "
       "1.5 s and an action answers 503 'locked' (or succeeds) within 5 s, each of its store "
       "calls giving up after the 1 s busy timeout, not after the lock; once the lock is gone "
       "the action succeeds")
def c61(ctx: Context) -> str:
    c = ctx.client()
    server = c.server
    view = c.new_table()
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sqlite3, sys, time\n"
         "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
         "c.execute('BEGIN EXCLUSIVE')\nprint('locked', flush=True)\ntime.sleep(8)\n"
         "c.execute('COMMIT')\n", str(server.sqlite_path)], stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None
        expect(holder.stdout.readline().strip() == b"locked", "the lock was not taken")
        health = c.get("/healthz", timeout=20)
        r = c.act(view["id"], view["token"], "pass", timeout=20)
    finally:
        holder.wait(20)
    expect(health.seconds < 1.5, f"/healthz took {health.seconds:.2f} s")
    expect((r.status == 503 and "locked" in r.text) or r.status == 200,
           f"the action: {r.short()}")
    expect(r.seconds < 5.0, f"the action took {r.seconds:.2f} s")
    after = c.act(view["id"], view["token"], "pass") if r.status == 503 else r
    expect(after.status in (200, 409), f"after the lock: {after.short()}")
    return (f"/healthz {health.status} in {health.seconds * 1000:.0f} ms, the action "
            f"{r.status} in {r.seconds:.2f} s, then {after.status}")


@check(62, "a corrupted SQLite file",
       "served from a copy whose table pages are overwritten: a table on a bad page answers "
       "503 'the store is damaged' (not 'disk full'), and /healthz says the store is "
       "damaged", needs="own")
def c62(ctx: Context) -> str:
    source = ctx.plain()
    c = source.client()
    views = [c.new_table(name=f"t{i}") for i in range(40)]
    path = ctx.workdir / "damaged.sqlite3"
    live = sqlite3.connect(f"file:{source.sqlite_path}?mode=ro", uri=True, timeout=10)
    copy = sqlite3.connect(path)
    try:
        live.backup(copy)  # a copy of the live file, as a backup program takes it
        page = copy.execute("PRAGMA page_size").fetchone()[0]
    finally:
        copy.close()
        live.close()
    data = bytearray(path.read_bytes())
    bad_pages = set()
    for v in views:
        at = data.find(v["id"].encode())
        while at >= 0:
            if at // page > 2:  # the schema's pages stay whole: the file opens
                bad_pages.add(at // page)
            at = data.find(v["id"].encode(), at + 1)
    rng = random.Random(62)
    for p in sorted(bad_pages)[: max(1, len(bad_pages) // 2)]:
        data[p * page:(p + 1) * page] = rng.randbytes(page)
    path.write_bytes(bytes(data))
    damaged = ctx.server("damaged", db=f"sqlite:///{path}")
    d = damaged.client()
    statuses = []
    for v in views:
        r = d.get(f"/api/tables/{v['id']}", token=v["token"])
        statuses.append(r.status)
        expect(r.status != 500, f"a table: {r.short()}")
        if r.status == 503:
            expect("damaged" in r.text and "full" not in r.text, f"a bad page: {r.short()}")
    expect(503 in statuses, f"no table on a bad page answered 503 ({sorted(set(statuses))})")
    h = d.get("/healthz")
    expect("damaged" in h.text, f"/healthz: {h.short()}")
    damaged.stop()
    return (f"{len(bad_pages)} pages hold tables, half overwritten: answers "
            f"{ {s: statuses.count(s) for s in set(statuses)} }; /healthz {h.status} "
            f"{h.json().get('store')!r}")


@check(63, "a truncated or garbage file at start",
       "rebelote serve --db on a truncated file and on a garbage file exits 2 with 'cannot "
       "open ...'", needs="own")
def c63(ctx: Context) -> str:
    good = ctx.workdir / "good.sqlite3"
    conn = sqlite3.connect(good)
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 400)
    conn.commit()
    conn.close()
    truncated = ctx.workdir / "trunc.sqlite3"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 3])
    garbage = ctx.workdir / "garbage.sqlite3"
    garbage.write_bytes(random.Random(63).randbytes(65536))
    runs = {path: subprocess.Popen([sys.executable, "-m", "rebelote.cli", "serve", "--port",
                                    str(free_port()), "--db", f"sqlite:///{path}"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for path in (truncated, garbage)}  # both at once
    out = []
    for path, proc in runs.items():
        try:
            _, err = proc.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise CheckFailed(f"{path.name}: the server started on it") from None
        expect(proc.returncode == 2 and "cannot open" in err,
               f"{path.name}: exit {proc.returncode}, {err.strip()[-160:]!r}")
        out.append(err.strip().splitlines()[-1][-70:])
    return f"exit 2 twice: {out}"


@check(64, "SIGTERM",
       "SIGTERM ends the server in under 3 s with status 0, idle and while the strongest bots "
       "are thinking", needs="own")
def c64(ctx: Context) -> str:
    server = ctx.plain()  # the default bot budget: a decision may think 15 s
    idle, code = server.stop()
    expect(code == 0 and idle < 3.0, f"idle: {idle:.1f} s, status {code}")
    server.restart()
    c = server.client()
    # N and E answer at once; W, at the strongest level, thinks at each of its moves
    views = [c.new_table(bots={"N": "debutant", "E": "debutant", "W": "expert"})
             for _ in range(3)]

    def think(view: dict[str, Any]) -> None:
        # S hands its seat to its bot: the bots play the deal out within the request
        with contextlib.suppress(OSError, http.client.HTTPException):
            c.post(f"/api/tables/{view['id']}/release", token=view["token"], timeout=60)

    threads = [threading.Thread(target=think, args=(v,), daemon=True) for v in views]
    for t in threads:
        t.start()
    time.sleep(1.0)
    waiting = sum(t.is_alive() for t in threads)
    expect(waiting, "the strongest bots played 3 deals out within 1 s: nothing was thinking")
    busy, code2 = server.stop()
    expect(code2 == 0 and busy < 3.0, f"while thinking: {busy:.1f} s, status {code2}")
    return (f"idle {idle:.1f} s, while the bots think for {waiting} tables {busy:.1f} s, "
            "status 0")


# == Second round (table-attack-4): across tables, across workers, IPv6, headers, arena ========
@check(65, "sockets across many tables from one client; idle sockets",
       "sockets_per_client (10 here) caps one client's sockets across every table (the "
       "attacker held 9,600 on 600 tables): 4 tables × 4 sockets open 10, the rest refused; "
       "another client opens; a socket idle for socket_idle_timeout (2 s here) is closed "
       "(4408); once closed, the client's sockets count out", needs="own")
def c65(ctx: Context) -> str:
    server = ctx.server("sockets", options=(
        "--forwarded-allow-ips", "127.0.0.1", "--limits",
        "sockets_per_client=10,sockets_per_table=4,socket_idle_timeout=2"))
    c = ctx.client(server)
    tables = [c.new_table(bots="random") for _ in range(4)]
    held: list[ClientConnection] = []
    refused = 0
    try:
        for t in tables:
            for _ in range(4):
                try:
                    ws, _ = authed_socket(c, t["id"], t["token"])
                    held.append(ws)
                except InvalidStatus:
                    refused += 1
        expect(len(held) == 10 and refused == 6, f"{len(held)} open, {refused} refused")
        other = ctx.client(server)
        mine = other.new_table(bots="random")
        ws, _ = authed_socket(other, mine["id"], mine["token"])
        ws.close()
        began = time.monotonic()
        code = closed_code(held[0], 8)
        expect(code == 4408, f"an idle socket: close code {code} after "
                             f"{time.monotonic() - began:.1f} s")
    finally:
        for ws in held:
            ws.close()
    time.sleep(0.5)
    back, _ = authed_socket(c, tables[0]["id"], tables[0]["token"])
    back.close()
    return (f"10 open, 6 refused across 4 tables, another client opens, an idle socket closed "
            f"(4408) after {time.monotonic() - began:.1f} s, counted out once closed")


@check(66, "an IPv6 client takes a new address for each request",
       "the addresses of one /64 are one client: failed joins from two of them share one "
       "bucket (10 here), an address of another /64 has its own")
def c66(ctx: Context) -> str:
    server = ctx.main()
    net = f"2001:db8:{secrets.randbelow(65536):x}:{secrets.randbelow(65536):x}"
    one, two = server.client(f"{net}::1"), server.client(f"{net}:ffff:ffff:ffff:fffe")
    away = server.client(f"{net[:-1]}{'0' if net[-1] != '0' else '1'}::1")
    statuses = [(one if i % 2 else two).join("ZZZZZZZZ").status for i in range(14)]
    expect(10 <= statuses.count(404) <= 11 and statuses[-1] == 429,
           f"two addresses of {net}::/64: {statuses}")
    r = away.join("ZZZZZZZZ")
    expect(r.status == 404, f"another /64: {r.status}")
    return f"{net}::/64 from two addresses: 10 × 404 then 429; another /64: 404"


@check(67, "failed joins all at once",
       "30 failed joins sent at once from one address take no more than the burst (10 here): "
       "the bucket is taken before the request (it was checked before and charged after: 64 "
       "at once got 183 × 404 for a burst of 150)")
def c67(ctx: Context) -> str:
    c = ctx.client()
    with ThreadPoolExecutor(30) as pool:
        statuses = list(pool.map(lambda _: c.join("ZZZZZZZZ").status, range(30)))
    expect(statuses.count(404) <= 10 and statuses.count(429) >= 20,
           f"30 at once: {statuses.count(404)} × 404, {statuses.count(429)} × 429")
    return f"30 at once: {statuses.count(404)} × 404, {statuses.count(429)} × 429"


@check(68, "a burst of table creations with the default limits",
       "one address creating tables as fast as it can meets a 429 within a club's evening "
       "(at most 70; the attacker made 400 with none, and could make 600)", needs="own")
def c68(ctx: Context) -> str:
    server = ctx.server("burst")
    c = server.client()
    statuses: list[int] = []
    for _ in range(100):
        statuses.append(c.post("/api/tables", json_body={"game": "belote",
                                                         "bots": "random"}).status)
        if statuses[-1] == 429:
            break
    expect(statuses[-1] == 429 and statuses.count(201) <= 70,
           f"{statuses.count(201)} tables, last {statuses[-1]}")
    return f"{statuses.count(201)} tables, then 429"


@check(69, "limits across two workers (PostgreSQL)",
       "two workers count one limit: 24 failed joins on new connections give 6 × 404 (the "
       "burst here), not 12; a client's sockets across tables and workers stop at 3",
       needs="pg")
def c69(ctx: Context) -> str:
    assert ctx.pg is not None
    ctx.postgres()  # this run's schema
    server = ctx.server("pglimits", db=with_query(ctx.pg, application_name=f"{PG_APP_NAME}-l"),
                        options=("--workers", "2", "--forwarded-allow-ips", "127.0.0.1",
                                 "--limits", "failed_joins_per_minute=6,burst_minutes=1,"
                                             "sockets_per_client=3"))
    c = ctx.client(server)
    statuses = [c.join("ZZZZZZZZ").status for _ in range(24)]  # a connection each
    # the burst, and at most one refilled meanwhile (6 a minute): two workers apart give 12
    expect(6 <= statuses.count(404) <= 7, f"24 failed joins: {statuses.count(404)} × 404, "
                                          f"{statuses.count(429)} × 429")
    tables = [c.new_table(bots="random") for _ in range(3)]
    held: list[ClientConnection] = []
    refused = 0
    try:
        for t in tables * 2:
            try:
                ws, _ = authed_socket(c, t["id"], t["token"])
                held.append(ws)
            except InvalidStatus:
                refused += 1
    finally:
        for ws in held:
            ws.close()
    expect(len(held) == 3 and refused == 3, f"sockets: {len(held)} open, {refused} refused")
    return "6 × 404 of 24 failed joins over 2 workers; 3 sockets open, 3 refused"


@check(70, "answers that carry a secret, stored by a browser or a proxy?",
       "Cache-Control: no-store on the edit link's page, the join page of a game and of a "
       "seat's invitation, a new game's and a new table's answers, the organiser's concours")
def c70(ctx: Context) -> str:
    c = ctx.client()
    game = new_game(c, game="belote")
    table = c.new_table(friends=["E"])
    r = c.post("/api/concours", json_body={"name": "Club", "game": "belote", "parties": 2,
                                           "deals": 2, "teams": ["A", "B", "C", "D"]})
    expect(r.status == 201, f"a concours: {r.short()}")
    concours = r.json()
    c.cookies["rebelote_keys"] = keys_cookie((game["id"], game["token"]))
    answers = {
        "edit link": (c.get(f"/games/{game['id']}/edit-link"), game["token"]),
        "join page": (ctx.client().get(f"/join/{game['id']}?key={game['token']}"),
                      game["token"]),
        "invitation": (c.get(f"/t/{table['code']}?invite={table['invites']['E']}"),
                       table["invites"]["E"]),
        "new table": (c.post("/api/tables", json_body={"game": "belote"}), "token"),
        "organiser": (c.get(f"/api/concours/{concours['id']}", token=concours["token"]), ""),
    }
    bad = [f"{what} ({a.status}, {a.header('cache-control')})"
           for what, (a, secret) in answers.items()
           if (secret and secret not in a.text) or "no-store" not in (
               a.header("cache-control") or "")]
    expect(not bad, f"without no-store (or without its secret): {bad}")
    return f"{len(answers)} answers with a secret, each no-store"


@check(71, "the arena's outside bot: a child that leaves its session; an endless timeout",
       "an engine whose child calls setsid leaves no process once the match ends; "
       "--engine-timeout inf is refused naming the option (exit 2, no traceback)",
       needs="own")
def c71(ctx: Context) -> str:
    marker = f"300.{os.getpid()}{secrets.randbelow(10**6)}"
    engine = ctx.workdir / "forker.py"
    engine.write_text("import json, subprocess, sys\n"
                      f"subprocess.Popen(['setsid', 'sleep', '{marker}'])\n"
                      f"subprocess.Popen(['sleep', '{marker}'])\n"
                      "for line in sys.stdin:\n"
                      "    print(json.loads(line)['legal'][0], flush=True)\n", "utf-8")

    def sleepers() -> list[int]:
        out = []
        for entry in Path("/proc").iterdir():
            with contextlib.suppress(OSError):
                if entry.name.isdigit() and (entry / "cmdline").read_bytes().split(b"\0")[
                        :2] == [b"sleep", marker.encode()] and \
                        (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                    out.append(int(entry.name))
        return out

    try:
        run = subprocess.run([sys.executable, "-m", "rebelote.cli", "arena", "--a",
                              f"engine:{sys.executable} {engine}", "--b", "random", "--deals",
                              "2", "--engine-timeout", "5"], capture_output=True, text=True,
                             timeout=120, check=False)
        expect(run.returncode == 0, f"the match: exit {run.returncode}: {run.stderr[-200:]}")
        deadline = time.monotonic() + 3
        while sleepers() and time.monotonic() < deadline:
            time.sleep(0.1)
        left = sleepers()
        expect(not left, f"{len(left)} of the engine's children outlived the match")
    finally:
        for pid in sleepers():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    inf = subprocess.run([sys.executable, "-m", "rebelote.cli", "arena", "--a", "random",
                          "--b", "random", "--deals", "2", "--engine-timeout", "inf"],
                         capture_output=True, text=True, timeout=60, check=False)
    expect(inf.returncode == 2 and "--engine-timeout" in inf.stderr
           and "Traceback" not in inf.stderr, f"inf: exit {inf.returncode}, "
                                              f"{inf.stderr.strip()[-160:]!r}")
    return f"no child left after the match; inf: {inf.stderr.strip()[:90]!r}"


@check(72, "a decline in PostgreSQL's NOTIFY",
       "a role that LISTENs reads no 'no-declaration' while S declines its declarations with "
       "its first card (the NOTIFY tells the card only)", needs="pg")
def c72(ctx: Context) -> str:
    import psycopg

    assert ctx.pg is not None
    server = ctx.postgres()
    with psycopg.connect(pg_conninfo(ctx.pg), autocommit=True) as spy:
        spy.execute("LISTEN rebelote_tables")
        c, view, token, _ = declining_table(ctx, server)
        card = next(a for a in view["legal"] if a != "no-declaration")
        r = c.act(view["id"], token, f"no-declaration {card}")
        expect(r.status == 200, f"'no-declaration {card}': {r.short()}")
        payloads = [n.payload for n in spy.notifies(timeout=1.0, stop_after=10_000)]
    mine = [p for p in payloads if p.startswith(view["id"])]
    expect(mine, "no NOTIFY of the table was heard")
    expect(not [p for p in mine if "no-declaration" in p],
           f"a NOTIFY holds the decline: {[p for p in mine if 'no-declaration' in p][:1]}")
    return f"{len(mine)} NOTIFY of the table, none holds the decline"


# -- the concours (issue 37: findings 1, 5, 6, 8 and 9) ----------------------------------------
#: The concours checks' server: small concours limits, met in a few requests.
CONCOURS_LIMITS: Final = ("concours_per_minute=3,burst_minutes=1,concours_teams=200,"
                          "concours_games=600,concours_body=200000,games_per_minute=2000")


def concours_server(ctx: Context) -> Server:
    """The server of the concours checks (each check a client of its own address)."""
    return ctx.server("concours", options=("--forwarded-allow-ips", "127.0.0.1",
                                           "--limits", CONCOURS_LIMITS))


def concours_client(ctx: Context) -> Client:
    return ctx.client(concours_server(ctx))


def new_concours(c: Client, teams: int, **body: Any) -> tuple[str, str]:
    """A concours of ``teams`` teams (id, organiser's token)."""
    obj = {"name": "Concours", "game": "belote", "parties": 4, "deals": 1,
           "teams": [f"Équipe {i}" for i in range(1, teams + 1)], **body}
    r = c.post("/api/concours", json_body=obj)
    expect(r.status == 201, f"POST /api/concours: {r.short()}")
    return r.json()["id"], r.json()["token"]


def concours_phones(c: Client, cid: str, token: str, k: int) -> list[tuple[str, str]]:
    """Open partie ``k``'s phones: each table's (game, key)."""
    r = c.post(f"/api/concours/{cid}/parties/{k}/phones", token=token)
    expect(r.status == 200, f"phones of partie {k}: {r.short()}")
    out = []
    for t in r.json()["parties"][k - 1]["tables"]:
        game, key = t["counter"].removeprefix("/join/").split("?key=")
        out.append((game, key))
    return out


def db_bytes(server: Server) -> int:
    """The SQLite file's bytes, its write-ahead log's included."""
    wal = Path(f"{server.sqlite_path}-wal")
    return server.sqlite_path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def counter_games(server: Server) -> int:
    """The counter games stored (read from the SQLite file, as another program would)."""
    conn = sqlite3.connect(f"file:{server.sqlite_path}?mode=ro", uri=True, timeout=5)
    try:
        return int(conn.execute("SELECT count(*) FROM counter_games").fetchone()[0])
    finally:
        conn.close()


def read_cpu(server: Server, c: Client, path: str, n: int) -> float:
    """The server's CPU seconds for ``n`` reads of ``path``, per read."""
    before = server.cpu_seconds()
    for _ in range(n):
        r = c.get(path)
        expect(r.status == 200, f"GET {path}: {r.short()}")
    return (server.cpu_seconds() - before) / n


@check(80, "a concours read loop after parties counted on phones (finding 1)",
       "60 teams, 4 parties of 30 tables each counted on its phone: each partie draws at once "
       "after its phones (no read between), and a read of the concours costs the server no "
       "more CPU after 4 parties than after 1 (no game parsed at a read)", needs="own")
def c80(ctx: Context) -> str:
    c = concours_client(ctx)
    server = c.server
    cid, token = new_concours(c, 60)
    per_read = []
    for k in range(1, 5):
        r = c.post(f"/api/concours/{cid}/parties", token=token)
        expect(r.status == 200, f"draw of partie {k} right after the phones: {r.short()}")
        for game, key in concours_phones(c, cid, token, k):
            r = c.post(f"/api/counter/games/{game}/deals", token=key,
                       json_body={"trump": "hearts", "taker": "NS", "points": {"NS": 100}})
            expect(r.status == 200, f"phone's deal: {r.short()}")
        if k in (1, 4):
            c.get(f"/api/concours/{cid}")  # the first read after a change reads the row
            per_read.append(min(read_cpu(server, c, f"/api/concours/{cid}", 40)
                                for _ in range(2)))
    view = c.get(f"/api/concours/{cid}").json()
    expect(view["over"] and all(t["source"] == "counter" for p in view["parties"]
                                for t in p["tables"]),
           "the phones' results are not all in the concours")
    first, last = per_read
    expect(last <= 2 * first + 0.002, f"a read costs {first * 1000:.1f} ms of CPU after "
                                      f"partie 1, {last * 1000:.1f} ms after partie 4")
    private = c.get(f"/api/concours/{cid}", token=token)
    expect(private.header("cache-control") == "no-store",
           f"the organiser's read: Cache-Control {private.header('cache-control')!r}")
    return (f"CPU a read: {first * 1000:.1f} ms after partie 1, {last * 1000:.1f} ms after "
            "partie 4; the organiser's read no-store")


@check(81, "a phone changes its result after its partie is closed (finding 5)",
       "once partie 2 is drawn, table 1's phone PUT of a deal and PATCH of the target answer "
       "422 (it wrote before), and the concours's results and ranking do not move",
       needs="own")
def c81(ctx: Context) -> str:
    c = concours_client(ctx)
    cid, token = new_concours(c, 8, parties=3, deals=4)
    c.post(f"/api/concours/{cid}/parties", token=token)
    (g1, k1), *_rest = concours_phones(c, cid, token, 1)
    deal = {"trump": "hearts", "taker": "NS", "points": {"NS": 100}}
    for _ in range(4):
        r = c.post(f"/api/counter/games/{g1}/deals", token=k1, json_body=deal)
        expect(r.status == 200, f"phone's deal: {r.short()}")
    r = c.request("PUT", f"/api/counter/games/{g1}/deals/4", token=k1, json_body=deal)
    expect(r.status == 200, f"the phone's PUT before the close: {r.short()}")
    view = c.get(f"/api/concours/{cid}").json()
    for t in view["parties"][0]["tables"][1:]:
        a, b = t["teams"]
        r = c.request("PUT", f"/api/concours/{cid}/parties/1/tables/{t['table']}", token=token,
                      json_body={"scores": {str(a): 300, str(b): 348}})
        expect(r.status == 200, f"typed result: {r.short()}")
    r = c.post(f"/api/concours/{cid}/parties", token=token)
    expect(r.status == 200, f"draw of partie 2: {r.short()}")
    before = c.get(f"/api/concours/{cid}").json()
    r = c.request("PUT", f"/api/counter/games/{g1}/deals/1", token=k1,
                  json_body={"trump": "hearts", "taker": "EW", "points": {"EW": 160}})
    expect(r.status == 422, f"the phone's PUT after the close: {r.short()}")
    r2 = c.request("PATCH", f"/api/counter/games/{g1}", token=k1, json_body={"target": 1})
    expect(r2.status == 422, f"the phone's PATCH of the target: {r2.short()}")
    expect(c.get(f"/api/counter/games/{g1}", token=k1).status == 200,
           "the phone's key no longer reads its game: the refusal proves nothing")
    after = c.get(f"/api/concours/{cid}").json()
    expect(after["parties"] == before["parties"] and after["ranking"] == before["ranking"],
           "the concours changed under the organiser")
    return f"PUT {r.status} {r.json()['error'][:60]!r}, PATCH {r2.status}; ranking unchanged"


@check(82, "odd digits in the concours forms (finding 6)",
       "parties=², deals=①, 5,000 digits in the new concours form, the organiser's result "
       "and settings forms: 422 each, never a 500 or a traceback (the same forms with digits "
       "answer 303)", needs="own")
def c82(ctx: Context) -> str:
    c = concours_client(ctx)
    server = c.server
    since = len(server.log())
    many = "1" * 5000
    base = {"name": "x", "game": "belote", "parties": "2", "deals": "2", "teams": "A\nB\nC\nD"}
    seen = []
    for key, raw in (("parties", "²"), ("deals", "①"), ("parties", many), ("deals", many)):
        r = c.post("/concours", form={**base, key: raw})
        seen.append(r.status)
        expect(r.status == 422, f"new concours {key}={raw[:8]}: {r.short()}")
    r = c.post("/concours", form=base)
    expect(r.status == 303, f"new concours with digits: {r.short()}")
    cid = str(r.header("location")).rsplit("/", 1)[1]
    r = c.post(f"/concours/{cid}/draw")
    expect(r.status == 303, f"draw: {r.short()}")
    table = f"/concours/{cid}/parties/1/tables/1"
    for form in ({"a": "²", "b": "100"}, {"a": many, "b": "100"},
                 {"a": "100", "b": "62", "deals": "²"}, {"a": "100", "b": "62", "belotes": many}):
        r = c.post(table, form=form)
        seen.append(r.status)
        expect(r.status == 422, f"result {form}"[:80] + f": {r.short()}")
    for raw in ("²", many):
        r = c.post(f"/concours/{cid}/settings", form={"parties": raw})
        seen.append(r.status)
        expect(r.status == 422, f"settings parties={raw[:8]}: {r.short()}")
    r = c.post(table, form={"a": "100", "b": "62"})
    expect(r.status == 303, f"result with digits: {r.short()}")
    r = c.post(f"/concours/{cid}/settings", form={"parties": "3"})
    expect(r.status == 303, f"settings with digits: {r.short()}")
    found = tracebacks(server, since)
    expect(not found, f"tracebacks: {found[:1]}")
    return f"{len(seen)} odd forms: {sorted(set(seen))}; the same with digits 303; no traceback"


@check(83, "concours creations filling the disk (finding 8)",
       "past concours_teams entries 422, past concours_body bytes 413, past the creations' "
       "rate 429 with Retry-After; the database grows by at most the bodies accepted",
       needs="own")
def c83(ctx: Context) -> str:
    c = concours_client(ctx)
    server = c.server
    team = {"name": "T" * 30, "players": ["P" * 40] * 3}
    body = {"name": "N" * 80, "game": "belote", "parties": 30, "deals": 1}
    r = c.post("/api/concours", json_body={**body, "teams": [team] * 201})
    expect(r.status == 422 and "teams" in r.text, f"201 teams: {r.short()}")
    statuses: list[int] = []
    size = db_bytes(server)
    sent = 0
    big = json.dumps({**body, "teams": [team] * 200}).encode()
    for _ in range(6):
        r = c.post("/api/concours", body=big, headers={"Content-Type": "application/json"})
        statuses.append(r.status)
        sent += len(big) if r.status == 201 else 0
        if r.status == 429:
            expect(r.header("retry-after"), "429 without Retry-After")
            break
    grown = db_bytes(server) - size
    expect(statuses and statuses[-1] == 429 and statuses.count(201) <= 3,
           f"creations from one address: {statuses}")
    huge = json.dumps({**body, "teams": [{"name": "T" * 80, "players": ["P" * 40] * 4}] * 200,
                       "pad": "x" * 200_000}).encode()
    r = c.post("/api/concours", body=huge, headers={"Content-Type": "application/json"})
    expect(r.status in (413, 429), f"a body of {len(huge)} bytes: {r.short()}")
    other = concours_client(ctx)
    r = other.post("/api/concours", body=huge, headers={"Content-Type": "application/json"})
    expect(r.status == 413, f"a body of {len(huge)} bytes from a fresh address: {r.short()}")
    expect(grown <= 2 * sent + 200_000, f"the database grew {grown} bytes for {sent} sent")
    return (f"201 teams 422; creations {statuses}; {len(huge)} bytes 413; the database grew "
            f"{grown // 1024} kB for {sent // 1024} kB accepted")


@check(84, "phones then redraw, again and again (finding 9)",
       "100 teams: each phones opens 50 counter games, each redraw removes them (never more "
       "than 50 stored), and past concours_games (600) phones answer 422", needs="own")
def c84(ctx: Context) -> str:
    c = concours_client(ctx)
    server = c.server
    base = counter_games(server)
    cid, token = new_concours(c, 100)
    c.post(f"/api/concours/{cid}/parties", token=token)
    counts, refused = [], None
    for i in range(15):
        r = c.post(f"/api/concours/{cid}/parties/1/phones", token=token)
        if r.status == 422:
            refused = i
            break
        expect(r.status == 200, f"phones {i + 1}: {r.short()}")
        counts.append(counter_games(server) - base)
        r = c.post(f"/api/concours/{cid}/parties/1/redraw", token=token)
        expect(r.status == 200, f"redraw {i + 1}: {r.short()}")
        left = counter_games(server) - base
        expect(left == 0, f"after redraw {i + 1}: {left} games of the old draw kept")
    expect(counts and max(counts) == 50, f"games after each phones: {counts}")
    expect(refused == 12, f"phones refused at round {refused} (expected 13: 12 × 50 = 600)")
    return f"each phones {counts[0]} games, each redraw back to 0; refused at round 13"


# -- the command -----------------------------------------------------------------------------
def selected(only: str | None) -> list[int]:
    if not only:
        return sorted(CHECKS)
    out: list[int] = []
    for part in only.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return [n for n in out if n in CHECKS]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pg", default=os.environ.get("REBELOTE_TEST_PG_URL"),
                        help="a throwaway PostgreSQL database (SQLAlchemy URL) for checks 9, "
                             "59 and 60 (default: $REBELOTE_TEST_PG_URL)")
    parser.add_argument("--only", help="checks to run, like 20,44 or 38-41")
    parser.add_argument("--keep", action="store_true",
                        help="keep the servers' folder (logs, databases) and print it")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="rebelote-attack-")) if args.keep else None
    numbers = selected(args.only)
    outcomes = []
    began = time.monotonic()
    with Context(args.pg, workdir) as ctx:
        for n in numbers:
            out = run_check(ctx, n)
            outcomes.append(out)
            print(out.lines(), flush=True)
    counts = {v: sum(o.verdict == v for o in outcomes) for v in ("PASS", "FAIL", "SKIP")}
    print(f"\n{len(outcomes)} checks in {time.monotonic() - began:.0f} s: {counts['PASS']} "
          f"pass, {counts['FAIL']} fail, {counts['SKIP']} skipped"
          + (f" (failed: {', '.join(str(o.number) for o in outcomes if o.ok is False)})"
             if counts["FAIL"] else ""))
    if workdir is not None:
        print(f"servers' logs and databases: {workdir}")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
