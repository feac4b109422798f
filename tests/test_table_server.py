"""The live table server (rebelote.tableserver): bot work bounded and never abandoned, long
games that never stall the server, tables nobody plays that stop, clocks that survive a
restart, a locked or damaged store that answers 503 at once and says what is wrong."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from rebelote.bots import (
    _REGISTRY,
    DEFAULT_LEVEL,
    PLAYER_LEVELS,
    make_bot,
    player_level,
    register_bot,
)
from rebelote.bots.base import DEADLINE, STOP, Deadline
from rebelote.bots.heuristic import HeuristicBot
from rebelote.bots.pimc import LEVELS, Clock, _resample
from rebelote.bots.random_bot import RandomBot
from rebelote.rules import Rules
from rebelote.table import Seat, Table
from rebelote.tableserver.bots import GRACE, THINK_SHARE, BotRunner, Decided, Superseded
from rebelote.web.app import create_app
from web_fixtures import free_port


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'tables.db'}")) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": "coinche", "bots": "random", **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def bots_table(spec: str, **kw: Any) -> Table:
    return Table.new(Rules.preset("official", "coinche"), 1000, [Seat.bot_seat(spec)] * 4,
                     dealer=3, **kw)


# -- the levels a table offers --------------------------------------------------------------------
def test_a_table_takes_named_levels_only_never_a_budget(client: TestClient) -> None:
    for bots, field in [("pimc:10000", "bots"), ("pimc:9", "bots"),
                        ({"N": "pimc:10000"}, "bots.N"), ("pimc:10000+tuned", "bots"),
                        ({"E": "pimc:64-32-16+learned"}, "bots.E")]:
        r = client.post("/api/tables", json={"game": "coinche", "bots": bots})
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert error.startswith(f"{field}: ") and "named level" in error
        assert "débutant" not in error or "debutant" in error
    for level in PLAYER_LEVELS:  # the levels offered to people, by their key
        t = new_table(client, bots=level.key, pace=5000)
        assert t["seats"]["N"]["bot"] == level.spec
    t = new_table(client, bots={"N": "Expert", "E": "pimc:fast", "W": "heuristic"}, pace=5000)
    assert [t["seats"][s]["bot"] for s in "NEW"] == [
        player_level("expert").spec, "pimc:fast", "heuristic"]
    # each level's own spec, as GET /api/tables/{id} shows it, is taken back as it is
    specs = {s: level.spec for s, level in zip("NEW", PLAYER_LEVELS[1:], strict=True)}
    t = new_table(client, bots=specs, pace=5000)
    assert [t["seats"][s]["bot"] for s in "NEW"] == [lv.spec for lv in PLAYER_LEVELS[1:]]
    # the seats not said, and a table that says none: the table's default level
    default = player_level(DEFAULT_LEVEL).spec
    t = new_table(client, bots={"N": "club"}, pace=5000)
    assert [t["seats"][s]["bot"] for s in "NEW"] == [
        player_level("club").spec, default, default]
    r = client.post("/api/tables", json={"game": "coinche", "pace": 5000})
    assert [r.json()["seats"][s]["bot"] for s in "NEW"] == [default] * 3


def test_targets_stop_at_ten_thousand(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "coinche", "target": 100_000})
    assert r.status_code == 422
    assert r.json()["error"] == "target: must be a whole number from 1 to 10000, not 100000"
    assert new_table(client, target=10_000, pace=5000)["target"] == 10_000


# -- the bot runner ---------------------------------------------------------------------------
class Searching(RandomBot):
    """A bot that searches until it is told to stop (by STOP), counting how many think at
    once and whether each one really stopped."""

    name = "searching"
    lock = threading.Lock()
    now = 0
    most = 0
    started = 0
    stopped = 0

    def act(self, observation: Any, rng: random.Random) -> Any:
        stop = STOP.get()
        cls = type(self)
        with cls.lock:
            cls.now += 1
            cls.started += 1
            cls.most = max(cls.most, cls.now)
        try:
            while stop is None or not stop():
                time.sleep(0.005)
            time.sleep(0.05)  # the world it was solving when told
            cls.stopped += 1
        finally:
            with cls.lock:
                cls.now -= 1
        return observation.legal[-1]  # the best it found (never the heuristic's call here)


@pytest.fixture()
def searching() -> Iterator[type[Searching]]:
    Searching.now = Searching.most = Searching.started = Searching.stopped = 0
    register_bot("searching", Searching)
    try:
        yield Searching
    finally:
        _REGISTRY.pop("searching", None)


def test_decisions_run_in_a_bounded_pool_each_within_its_time(
        searching: type[Searching], caplog: pytest.LogCaptureFixture) -> None:
    """Five decisions asked at once, two workers, 0.3 s each from when it is asked, of which
    a decision thinks half once a worker takes it: two think 0.15 s, are told their time is up
    and answer from what they found a world later (cut short: their own move); the next two
    start then, and think until their 0.3 s; the fifth waited for a worker past its time, never
    starts, and plays the heuristic's move."""
    runner = BotRunner(workers=2, seconds=0.3)
    table = bots_table("searching")
    heuristic = table.bot_action(HeuristicBot(), random.Random(0))
    own = str(table.deal.observation(table.turn).legal[-1])
    assert own != heuristic
    told: list[Decided] = []
    runner.listeners.append(told.append)

    async def main() -> list[str]:
        start = time.monotonic()
        moves = await asyncio.gather(*(runner.decide(f"t{i}", 1, table) for i in range(5)))
        assert time.monotonic() - start < 0.3 + GRACE  # what a player waits: its time at most
        return list(moves)

    with caplog.at_level(logging.INFO, "rebelote.table"):
        moves = asyncio.run(main())
    runner.close()
    assert searching.most == 2  # never more thinking at once than workers
    assert searching.started == searching.stopped == 4  # each search stopped at its time
    time.sleep(0.1)
    assert searching.now == 0
    # the heuristic's move for the one out of time, never the random bot's
    assert sorted(moves) == sorted([own] * 4 + [heuristic])
    assert runner.fell_back == 1
    assert Counter((d.cut, d.fell_back) for d in told) == {(True, None): 4, (False, "time"): 1}
    first = sorted(told, key=lambda d: d.seconds)[:2]
    assert all(THINK_SHARE * 0.3 <= d.seconds < 0.3 for d in first)  # half its cap, a world
    assert caplog.text.count("ran out of time") == 1 and "the heuristic plays" in caplog.text
    assert caplog.text.count("cut short") == 4


def test_a_bot_deaf_to_stop_plays_the_heuristic_once_the_grace_is_over() -> None:
    class Deaf(RandomBot):
        name = "deaf"

        def act(self, observation: Any, rng: random.Random) -> Any:
            time.sleep(0.2 + GRACE + 0.5)
            return observation.legal[-1]

    register_bot("deaf", Deaf)
    try:
        runner = BotRunner(workers=1, seconds=0.2)
        table = bots_table("deaf")
        start = time.monotonic()
        move = asyncio.run(runner.decide("t", 1, table))
        took = time.monotonic() - start
        runner.close()
    finally:
        _REGISTRY.pop("deaf", None)
    assert move == table.bot_action(HeuristicBot(), random.Random(0))
    assert runner.fell_back == 1 and 0.2 + GRACE <= took < 0.2 + GRACE + 0.4


def test_a_search_at_its_time_cap_answers_from_the_worlds_it_solved() -> None:
    """A real search (10,000 worlds a card counted, far more than its time allows at the first
    lead on any machine, the strongest level's kind of budget) told by the runner that its time
    is up: it plays the best card of the worlds it solved, its own move (the search answered,
    not the heuristic), within its time. (With 400 worlds, a quiet machine had solved them all
    before the cap since the worlds were drawn without rejection, and the test failed.)"""
    runner = BotRunner(workers=1, seconds=2.0)
    spec = "pimc:10000"
    table = bots_table(spec)
    rng = random.Random(4)
    while table.deal.phase == 0:  # the auction, then the first lead
        table = table.act(table.turn, table.bot_action(HeuristicBot(), rng))
    told: list[Decided] = []
    runner.listeners.append(told.append)
    start = time.monotonic()
    move = asyncio.run(runner.decide("t", 1, table))
    took = time.monotonic() - start
    bot = runner.bot(spec)
    runner.close()
    assert move in {str(a) for a in table.deal.observation(table.turn).legal}
    assert runner.fell_back == 0 and told[0].fell_back is None and told[0].cut
    assert (bot.searched, bot.fell_back) == (1, 0)  # type: ignore[attr-defined]
    assert took < THINK_SHARE * 2.0 + GRACE


def test_a_search_starts_no_world_it_cannot_end_before_the_runner_s_deadline() -> None:
    """Whatever its budget (the strongest level's counts worlds, with no time of its own), a
    search under the runner's deadline does not start a world expected to end after it: it
    answers in time rather than past the grace."""
    table = bots_table(player_level("expert").spec)
    rng = random.Random(4)
    while table.deal.phase == 0:  # the auction, then the first lead
        table = table.act(table.turn, table.bot_action(HeuristicBot(), rng))
    obs = table.deal.observation(table.turn)
    clock = Clock()
    clock.cost[("play", 8)] = 0.5  # a first lead's world takes half a second here
    for within, drawn in ((0.2, False), (5.0, True)):
        deadline = Deadline(time.monotonic() + within)
        token = DEADLINE.set(deadline)
        try:
            draw = clock.sampler(("play", 8), obs, random.Random(1), 48, None, 4)
            assert (draw() is not None) == drawn
        finally:
            DEADLINE.reset(token)
        assert deadline.cut != drawn  # the runner learns that its decision was cut short
    assert clock.sampler(("play", 8), obs, random.Random(1), 48, None, 4)() is not None
    # the expert's worlds, drawn by their likelihood from many candidates, the same
    expert = LEVELS["expert"]
    for within, drawn in ((-0.1, False), (5.0, True)):
        deadline = Deadline(time.monotonic() + within)
        token = DEADLINE.set(deadline)
        try:
            assert (_resample(obs, random.Random(1), expert, 8)() is not None) == drawn
        finally:
            DEADLINE.reset(token)
        assert deadline.cut != drawn


def test_a_decision_stops_when_the_table_moves_on(searching: type[Searching]) -> None:
    runner = BotRunner(workers=1, seconds=30)
    table = bots_table("searching")

    async def main() -> float:
        thinking = asyncio.create_task(runner.decide("t", 4, table))
        await asyncio.sleep(0.2)
        start = time.monotonic()
        runner.moved_on("t", 5)  # another move was written
        with pytest.raises(Superseded):
            await thinking
        return time.monotonic() - start

    assert asyncio.run(main()) < 1.0
    runner.close()
    assert searching.stopped == 1 and searching.now == 0


def test_the_search_stops_between_worlds_when_told() -> None:
    """PIMC checks STOP between two worlds: at the strongest level, a first lead that takes
    seconds to search ends within a world of being told."""
    bot = make_bot("pimc:strong")
    table = bots_table("pimc:strong")
    rng = random.Random(4)
    while table.deal.phase == 0:  # the auction, then the first lead
        table = table.act(table.turn, table.bot_action(HeuristicBot(), rng))
    told = time.monotonic() + 0.05
    token = STOP.set(lambda: time.monotonic() > told)
    try:
        start = time.monotonic()
        table.bot_action(bot, rng)
        took = time.monotonic() - start
    finally:
        STOP.reset(token)
    assert took < 1.5  # told after 50 ms, it ends within a world or two


def test_each_bot_move_of_a_run_has_its_own_budget(client: TestClient) -> None:
    """Three slow bots before the player's turn: each thinks 0.4 s within a 1 s budget; a
    budget for the whole run would have cut them short and handed moves to another bot."""
    class Slow(RandomBot):
        name = "slowish"

        def act(self, observation: Any, rng: random.Random) -> Any:
            time.sleep(0.4)
            return super().act(observation, rng)

    register_bot("slowish", Slow)
    try:
        service = client.app.state.tables  # type: ignore[attr-defined]
        service.bot_timeout = 1.0
        told: list[Decided] = []  # each bot move, as the runner tells it (the benches time it)
        service.bots.listeners.append(told.append)
        t = new_table(client, bots={"N": "slowish", "E": "slowish", "W": "random"})
        r = client.post(f"/api/tables/{t['id']}/actions", headers=auth(t["token"]),
                        json={"action": "pass"})
        assert r.status_code == 200 and r.json()["turn"] == "S"
        assert service.bots.fell_back == 0
        slow = [d for d in told if d.spec == "slowish"]
        # N and E at the table's start, then W, then N and E again (or, W's random pass
        # ending the auction, E first in the next deal)
        assert len(slow) >= 3 and {d.table_id for d in told} == {t["id"]}
        assert all(0.4 <= d.seconds < 1.0 and d.fell_back is None for d in slow)
        assert [d.spec for d in told[:3]] == ["slowish", "slowish", "random"]
    finally:
        _REGISTRY.pop("slowish", None)


def _serve(db: Path, port: int, **env: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "rebelote.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{db}", "--log-level", "warning"],
        env={**os.environ, "PYTHONUNBUFFERED": "1", **env},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("the server did not start")
        time.sleep(0.1)


def test_sigterm_ends_the_server_in_under_3_seconds_while_bots_search(tmp_path: Path) -> None:
    """A real ``rebelote serve``, its bots searching at the strongest level with a minute for
    each decision: SIGTERM ends it in under 3 s."""
    port = free_port()
    proc = _serve(tmp_path / "t.db", port, REBELOTE_BOT_SECONDS="60")
    base = f"http://127.0.0.1:{port}"
    answers: list[int] = []

    def create() -> None:
        with contextlib_suppress():
            answers.append(httpx.post(f"{base}/api/tables", timeout=120, json={
                "game": "coinche", "bots": "expert"}).status_code)

    threads = [threading.Thread(target=create, daemon=True) for _ in range(4)]
    try:
        for th in threads:
            th.start()
        time.sleep(1.5)
        assert len(answers) < 4, "the bots answered too soon to be stopped while searching"
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        took = time.monotonic() - start
    finally:
        if proc.poll() is None:
            proc.kill()
    assert took < 3.0, f"SIGTERM took {took:.1f} s"
    assert proc.returncode == 0


class contextlib_suppress:  # a connection cut by the stop is expected
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return True


# -- tables nobody plays stop --------------------------------------------------------------------
def test_a_table_with_every_human_away_pauses_at_the_end_of_the_deal(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import rebelote.tableserver.service as server

    monkeypatch.setattr(server, "AWAY_PACE", 0)  # the bot plays for S at once
    t = new_table(client, clock=1, target=10_000)
    tid, token = t["id"], t["token"]
    deadline = time.monotonic() + 20
    view = t
    while time.monotonic() < deadline and not view.get("paused"):
        time.sleep(0.2)
        view = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
    assert view["paused"] is True and view["seats"]["S"]["away"] is True
    assert view["deal"] == 2 and not view["over"]  # deal 1 played out by the bots, then stop
    time.sleep(1.5)
    still = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
    assert still["version"] == view["version"]  # no write while nobody is there
    back = client.post(f"/api/tables/{tid}/back", headers=auth(token)).json()
    assert back["paused"] is False and back["seats"]["S"]["away"] is False
    time.sleep(0.5)
    on = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
    assert on["turn"] == "S" and on["version"] > view["version"]  # the bots played on


def test_a_table_of_bots_only_stops_at_the_end_of_its_deal(client: TestClient) -> None:
    t = new_table(client, target=10_000)
    r = client.post(f"/api/tables/{t['id']}/release", headers=auth(t["token"]))
    assert r.status_code == 200
    service = client.app.state.tables  # type: ignore[attr-defined]
    loaded = client.portal.call(service.load, t["id"])  # type: ignore[union-attr]
    assert loaded.table.deal_number <= 2 and not loaded.table.deals[-1].actions


# -- clocks and timers survive a restart ---------------------------------------------------------
def test_a_turn_clock_runs_on_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'clock.db'}"
    with TestClient(create_app(url)) as c:
        t = new_table(c, clock=2)
        assert t["turn"] == "S"  # N's bot spoke, then E's
    with TestClient(create_app(url)) as c:  # the server starts again, nobody connects
        deadline = time.monotonic() + 10
        view: dict[str, Any] = {}
        while time.monotonic() < deadline:
            view = c.get(f"/api/tables/{t['id']}", headers=auth(t["token"])).json()
            if view["seats"]["S"]["away"]:
                break
            time.sleep(0.2)
        assert view["seats"]["S"]["away"] is True


def test_kill_9_then_restart_resumes_the_turn_clock(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    port = free_port()
    proc = _serve(db, port)
    base = f"http://127.0.0.1:{port}"
    try:
        t = httpx.post(f"{base}/api/tables", json={"game": "coinche", "bots": "random",
                                                   "clock": 3}).json()
        assert t["turn"] == "S"
        time.sleep(0.5)  # the clock's end is written beside the table
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    proc = _serve(db, port)
    try:
        deadline = time.monotonic() + 15
        away = False
        while time.monotonic() < deadline and not away:
            time.sleep(0.3)
            away = httpx.get(f"{base}/api/tables/{t['id']}", headers=auth(t["token"])
                             ).json()["seats"]["S"]["away"]
        assert away, "the clock did not run on after the restart"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _south_away_within(c: TestClient, t: dict[str, Any], seconds: float) -> bool:
    """Whether the table's South (the caller of ``t``) is away, polled for ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if c.get(f"/api/tables/{t['id']}", headers=auth(t["token"])).json()["seats"]["S"]["away"]:
            return True
    return False


def test_a_clock_stored_for_an_older_version_gives_the_turn_a_fresh_clock_at_restart(
        tmp_path: Path) -> None:
    """The turn clock is written beside the table just after the answer: a server killed in
    that gap (a friend has just joined, say) restarts with the clock of the table's version
    before. That clock cannot run out for the turn now (its version is gone): the turn to act
    gets its whole clock again, instead of none (the attacker's check 58 saw it on a loaded
    machine: 18 s after the restart nobody was away)."""
    url = f"sqlite:///{tmp_path / 'stale.db'}"
    with TestClient(create_app(url)) as c:
        t = c.post("/api/tables", json={"game": "coinche", "bots": "random", "clock": 2}).json()
        assert t["turn"] == "S"
        time.sleep(0.3)  # the clock's end is written beside the table
    with sqlite3.connect(tmp_path / "stale.db") as conn:
        (text,) = conn.execute("SELECT timers FROM play_tables WHERE id = ?",
                               (t["id"],)).fetchone()
        book = json.loads(text)
        assert book["turn"][0] == t["version"], book
        book["turn"][0] = t["version"] - 1  # the clock of the version before, as if killed
        conn.execute("UPDATE play_tables SET timers = ? WHERE id = ?",
                     (json.dumps(book), t["id"]))
    with TestClient(create_app(url)) as c:
        assert _south_away_within(c, t, 10), "the turn got no clock after the restart"


def test_a_turn_clock_is_stored_by_the_write_that_starts_it(tmp_path: Path) -> None:
    """The turn clock is stored in the same statement as the version that starts it: a server
    killed right after any write's answer restarts with that version's clock and the time it
    had left (here the timers' own writes never happen, as if the server were killed after
    each answer), never an older version's clock or none."""
    url = f"sqlite:///{tmp_path / 'clock.db'}"

    def stored(tid: str) -> tuple[int, dict[str, Any]]:
        with sqlite3.connect(tmp_path / "clock.db") as conn:
            version, text = conn.execute("SELECT version, timers FROM play_tables WHERE id = ?",
                                         (tid,)).fetchone()
        return int(version), json.loads(text) if text else {}

    with TestClient(create_app(url)) as c:
        service = c.app.state.tables  # type: ignore[attr-defined]

        async def killed_first(table_id: str, change: object) -> None:
            return None  # the timers' own write: never made

        service.timers.db = SimpleNamespace(change_timers=killed_first)
        before = time.time()
        t = new_table(c, clock=60, pace=0)
        assert t["turn"] == "S"
        version, book = stored(t["id"])
        assert version == t["version"] and book["turn"][0] == version, book
        assert before + 60 <= book["turn"][1] <= time.time() + 60
        view, rng = t, random.Random(2)
        for _ in range(3):  # S moves, the bots answer up to S again: each write its clock
            legal = [a for a in view["legal"] if a != "no-declaration"]
            r = c.post(f"/api/tables/{t['id']}/actions", headers=auth(t["token"]),
                       json={"action": rng.choice(legal)})
            assert r.status_code == 200, r.text
            view = r.json()
            version, book = stored(t["id"])
            assert version == view["version"], (version, view["version"])
            if view["turn"] == "S":
                assert book["turn"][0] == version, book
            else:
                assert "turn" not in book, book
        assert service.timers.get(t["id"]).get("turn") == book.get("turn")
    with TestClient(create_app(url)) as c:  # restarted: the clock as stored, time left
        service = c.app.state.tables  # type: ignore[attr-defined]
        assert service.timers.get(t["id"]).get("turn") == book.get("turn")


def test_a_leave_timer_runs_on_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'leave.db'}"
    with TestClient(create_app(url)) as c:
        c.app.state.tables.leave_grace = 1.5  # type: ignore[attr-defined]
        t = new_table(c, friends=["N"])
        with c.websocket_connect(f"/api/tables/{t['id']}/ws") as ws:
            ws.send_json({"token": t["token"]})
            ws.receive_json()
        time.sleep(0.3)  # the page closed: its leave timer is written
    with TestClient(create_app(url)) as c:
        assert _south_away_within(c, t, 10)


# -- long games -----------------------------------------------------------------------------------
def test_a_move_is_written_as_what_it_adds(client: TestClient, tmp_path: Path) -> None:
    t = new_table(client, pace=0)
    db = sqlite3.connect(tmp_path / "tables.db")

    def row() -> tuple[int, int, str]:
        got = db.execute("SELECT version, base, data FROM play_tables WHERE id = ?",
                         (t["id"],)).fetchone()
        return int(got[0]), int(got[1]), str(got[2])

    rng = random.Random(1)
    view = t
    appended = False
    for _ in range(200):  # an action whose answer stays in the same deal: appended
        version, base, data = row()
        legal = [a for a in view["legal"] if a != "no-declaration"]
        view = client.post(f"/api/tables/{t['id']}/actions", headers=auth(t["token"]),
                           json={"action": rng.choice(legal)}).json()
        after = row()
        assert after[0] == view["version"] == version + 1
        if view["deal"] == t["deal"]:
            assert after[1:] == (base, data)  # the snapshot is not rewritten mid-deal
            appended = True
            break
        assert after[1] == after[0]  # a new deal: a new snapshot
        t = view
    assert appended
    # a cold load plays the moves on the snapshot: the same table
    service = client.app.state.tables  # type: ignore[attr-defined]
    held = service.repo._cache.pop(t["id"])[1]
    fresh = client.portal.call(service.load, t["id"])  # type: ignore[union-attr]
    assert fresh.table.to_json() == held.to_json() and fresh.version == after[0]
    db.close()


def test_a_cold_load_of_a_long_game_never_blocks_the_event_loop(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table not in memory is parsed and replayed off the event loop: while it replays (made
    to take a second and a half here, as a game of hundreds of deals does), the server answers
    others. Were the loop blocked, /healthz (asked 0.3 s in) would wait 1.2 s or more; off the
    loop it answers at once, within 0.6 s even on a loaded machine (a full run's threads)."""
    import rebelote.tableserver.repo as repo

    service = client.app.state.tables  # type: ignore[attr-defined]
    rng = random.Random(7)
    table = Table.new(Rules.preset("official", "coinche"), 10_000,
                      [Seat.bot_seat("random")] * 2 + [Seat.human("tok", "random")]
                      + [Seat.bot_seat("random")], dealer=3)
    bot = RandomBot()
    while table.deal_number < 20:
        table = table.act(table.turn, table.bot_action(bot, rng))
    loaded = client.portal.call(service.repo.create, table)  # type: ignore[union-attr]
    service.repo._cache.clear()
    real = repo.replay

    def long_replay(*args: Any) -> Table:
        out = real(*args)
        time.sleep(1.5)
        return out

    monkeypatch.setattr(repo, "replay", long_replay)
    assert client.get("/static/table.css").status_code == 200
    done: list[dict[str, Any]] = []
    reader = threading.Thread(target=lambda: done.append(
        client.get(f"/api/tables/{loaded.id}", headers=auth("tok")).json()))
    reader.start()
    time.sleep(0.3)
    t0 = time.monotonic()
    assert client.get("/healthz").status_code == 200
    other = time.monotonic() - t0
    reader.join()
    assert other < 0.6, f"/healthz waited {other:.2f} s for the replay"
    assert done[0]["deal"] == 20 and done[0]["version"] == loaded.version


# -- faults of the store ----------------------------------------------------------------------
def test_a_locked_sqlite_store_answers_503_quickly_and_never_blocks_the_loop(
        tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    with TestClient(create_app(f"sqlite:///{path}")) as c:
        t = new_table(c, pace=5000)
        assert c.get("/static/style.css").status_code == 200
        other = sqlite3.connect(path, timeout=0.1)
        other.execute("BEGIN EXCLUSIVE")  # a backup, the sqlite3 shell...
        try:
            answers: dict[str, Any] = {}

            def write() -> None:
                t0 = time.monotonic()
                answers["r"] = c.post("/api/tables", json={"game": "belote"})
                answers["took"] = time.monotonic() - t0

            writer = threading.Thread(target=write)
            writer.start()
            time.sleep(0.2)
            t0 = time.monotonic()
            assert c.get("/static/style.css").status_code == 200
            assert time.monotonic() - t0 < 0.3  # the event loop serves on meanwhile
            writer.join(timeout=10)
            r = answers["r"]
            assert r.status_code == 503 and answers["took"] < 3.0
            assert r.json()["error"].startswith("store: the database is locked")
            health = c.get("/healthz")
            assert health.status_code == 503 and "locked" in health.json()["store"]
        finally:
            other.rollback()
            other.close()
        assert c.get(f"/api/tables/{t['id']}", headers=auth(t["token"])).status_code == 200


def damaged_table_answers(c: TestClient, tid: str, token: str) -> None:
    """A table whose version is ahead of its stored moves, as the web answers it: a 409 naming
    the table on the API and the table's page, an error on its socket; never a 500."""
    r = c.get(f"/api/tables/{tid}", headers=auth(token))
    assert r.status_code == 409, r.text
    assert r.json()["error"].startswith(f"id: table {tid} is damaged (it is at version ")
    page = c.get(f"/tables/{tid}", headers={**auth(token), "Accept": "text/html"})
    assert page.status_code == 409 and f"table {tid} is damaged" in page.text, page.text[:300]
    r = c.post(f"/api/tables/{tid}/actions", headers=auth(token), json={"action": "pass"})
    assert r.status_code == 409 and "is damaged" in r.json()["error"]
    with c.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"token": token})
        assert "is damaged" in ws.receive_json()["error"]


def test_a_table_ahead_of_its_stored_moves_is_refused_by_name(tmp_path: Path) -> None:
    """The last stop's seam: a table whose version is ahead of its stored moves (a damaged
    row) is a clear error naming it (PostgreSQL's store read it again until RecursionError);
    the other tables are served."""
    from sqlalchemy import create_engine, text

    from rebelote.store.play_tables import TableDamagedError, TableStore

    url = f"sqlite:///{tmp_path / 'tables.db'}"
    with TestClient(create_app(url)) as c:
        bad = new_table(c, pace=0)
        good = next(t for t in (new_table(c, pace=0) for _ in range(50))
                    if any(a[0].isdigit() for a in t["legal"]))  # S may bid
        r = c.post(f"/api/tables/{bad['id']}/actions", headers=auth(bad["token"]),
                   json={"action": bad["legal"][0]})
        assert r.status_code == 200, r.text
        engine = create_engine(url)
        with engine.begin() as conn:
            conn.execute(text("UPDATE play_tables SET version = version + 2 WHERE id = :id"),
                         {"id": bad["id"]})
        with pytest.raises(TableDamagedError, match=f"table {bad['id']} is damaged"):
            TableStore(engine).read(bad["id"])
        damaged_table_answers(c, bad["id"], bad["token"])
        assert c.get(f"/api/tables/{good['id']}", headers=auth(good["token"])
                     ).status_code == 200
        # a stored move that does not replay: that table named too (it said the whole store
        # was damaged, 503)
        bid = next(a for a in good["legal"] if a[0].isdigit())
        r = c.post(f"/api/tables/{good['id']}/actions", headers=auth(good["token"]),
                   json={"action": bid})  # a bid: the deal is played, not dealt again
        assert r.status_code == 200, r.text
        with engine.begin() as conn:
            conn.execute(text("UPDATE play_moves SET moves = :m WHERE table_id = :id"),
                         {"m": '{"a":["AS","AS"]}', "id": good["id"]})
    with TestClient(create_app(url)) as c:  # restarted: the table read from the store
        r = c.get(f"/api/tables/{good['id']}", headers=auth(good["token"]))
        assert r.status_code == 409, r.text
        assert r.json()["error"].startswith(f"id: table {good['id']} is damaged (the "
                                            "stored moves do not replay")
    engine.dispose()


def test_a_damaged_database_says_the_store_is_damaged(tmp_path: Path) -> None:
    path = tmp_path / "damaged.db"
    with TestClient(create_app(f"sqlite:///{path}")) as c:
        tables = [new_table(c, pace=5000, name="x" * 20) for _ in range(60)]
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    size = path.stat().st_size
    with open(path, "r+b") as f:  # overwrite pages in the middle of the file
        for at in range(size // 3, size - 4096, 4096):
            f.seek(at)
            f.write(os.urandom(4096))
    with TestClient(create_app(f"sqlite:///{path}")) as c:
        answers = [c.get(f"/api/tables/{t['id']}", headers=auth(t["token"])) for t in tables]
        bad = [r for r in answers if r.status_code != 200]
        assert bad, "no table sat on a damaged page"
        assert all(r.status_code == 503 for r in bad)
        assert bad[0].json()["error"].startswith("store: the store is damaged")
        health = c.get("/healthz")
        assert health.status_code == 503
        assert health.json()["store"] == "the store is damaged"
