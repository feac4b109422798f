"""The live tables' timers stored by several workers, each with its own book of a table's
timers (:class:`~rebelote.tableserver.clock.Timers`): a worker writes only what it changed,
merged into what is stored, so that one worker's leave timer is never erased by another's write
(nor a turn clock brought back), on SQLite and on PostgreSQL; with two workers on PostgreSQL,
two players whose pages closed on different workers both leave after a restart."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelote.store import make_engine
from rebelote.store.play_tables import Tables, TimersChange
from rebelote.tableserver.clock import Timers
from rebelote.web.app import create_app
from test_table_store import make_db  # noqa: F401  (the fixture: SQLite, then PostgreSQL)
from test_web_postgres import pg_url  # noqa: F401  (the fixture: a schema of its own)

PG_URL = os.environ.get("REBELOTE_TEST_PG_URL", "")
NO_PG = "REBELOTE_TEST_PG_URL is not set: no PostgreSQL server to test against"


def run(factory: Callable[[], Tables], body: Callable[[Tables], Any]) -> None:
    async def main() -> None:
        db = factory()
        try:
            await body(db)
        finally:
            await db.close()
    asyncio.run(main())


async def stored(db: Tables, table_id: str) -> dict[str, Any]:
    """The table's timers as a server starting again reads them."""
    return dict(await Timers(db).stored()).get(table_id, {})


def test_two_workers_leave_timers_are_both_stored(
        make_db: Callable[[], Tables]) -> None:  # noqa: F811
    async def body(db: Tables) -> None:
        tid = (await db.create({"n": 0}, game="coinche", code="TIME2345")).id
        one, two = Timers(db), Timers(db)  # two workers' books of the same table
        one.set_leave(tid, 0, 1000.5)  # South's last page closed on worker one
        await one.close()  # (its write done)
        two.set_leave(tid, 2, 2000.25)  # North's, on worker two
        await two.close()
        assert await stored(db, tid) == {"leave": {"0": 1000.5, "2": 2000.25}}
        one.set_leave(tid, 0, None)  # South came back: only their timer stops
        await one.close()
        assert await stored(db, tid) == {"leave": {"2": 2000.25}}
        two.set_leave(tid, 2, None)
        await two.close()
        assert await stored(db, tid) == {}
        books = [Timers(db) for _ in range(4)]  # four workers' writes at once
        for seat, book in enumerate(books):
            book.set_leave(tid, seat, 3000.0 + seat)
        await asyncio.gather(*(book.close() for book in books))
        assert await stored(db, tid) == {"leave": {str(s): 3000.0 + s for s in range(4)}}
    run(make_db, body)


def test_a_worker_never_brings_back_a_turn_clock_another_moved_on_from(
        make_db: Callable[[], Tables]) -> None:  # noqa: F811
    async def body(db: Tables) -> None:
        tid = (await db.create({"n": 0}, game="coinche", code="TIME3456")).id
        one, two = Timers(db), Timers(db)
        one.set_turn(tid, 1, 1500.0)  # worker one ran the clock of version 1
        await one.close()
        # worker two writes version 2 with its clock (a table's write: the clock only)
        assert await db.put(tid, 1, {"n": 1}, over=False,
                            timers=TimersChange(turn=[2, 1600.0])) == 2
        two.written(tid, [2, 1600.0])
        one.set_leave(tid, 1, 1700.0)  # then a page closes on worker one
        await one.close()
        assert await stored(db, tid) == {"turn": [2, 1600.0], "leave": {"1": 1700.0}}
        one.set_turn(tid, None, None)  # worker one's clock of version 1 runs out
        await one.close()
        one.set_turn(tid, 1, 1550.0)  # (or starts again, late)
        await one.close()
        assert await stored(db, tid) == {"turn": [2, 1600.0], "leave": {"1": 1700.0}}
        one.set_turn(tid, None, None)
        await one.close()
        assert await stored(db, tid) == {"turn": [2, 1600.0], "leave": {"1": 1700.0}}
        two.set_leave(tid, 3, 1800.0)
        await two.close()
        # a table's write by worker two keeps worker one's leave timer
        assert await db.append(tid, 2, '{"a":[]}', over=False,
                               timers=TimersChange(turn=None)) == 3
        assert await stored(db, tid) == {"leave": {"1": 1700.0, "3": 1800.0}}
        assert await db.put(tid, 3, {"n": 3}, over=False,
                            timers=TimersChange(turn=[4, 1900.0])) == 4
        assert await stored(db, tid) == {"turn": [4, 1900.0],
                                         "leave": {"1": 1700.0, "3": 1800.0}}
    run(make_db, body)


def test_a_timer_whose_write_failed_is_written_with_the_next_change(
        make_db: Callable[[], Tables]) -> None:  # noqa: F811
    async def body(db: Tables) -> None:
        tid = (await db.create({"n": 0}, game="coinche", code="TIME4567")).id
        timers = Timers(db)
        real = db.change_timers
        calls: list[TimersChange] = []

        async def down_once(table_id: str, change: TimersChange) -> None:
            calls.append(change)
            if len(calls) == 1:
                raise OSError("the database is down")
            await real(table_id, change)

        db.change_timers = down_once  # type: ignore[method-assign]
        timers.set_leave(tid, 0, 1000.0)  # its write fails: the timer runs in memory
        await timers.close()
        assert await stored(db, tid) == {}
        timers.set_leave(tid, 1, 1100.0)  # the next write carries both
        await timers.close()
        assert await stored(db, tid) == {"leave": {"0": 1000.0, "1": 1100.0}}
    run(make_db, body)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def away_within(c: TestClient, t: dict[str, Any], seats: list[str], seconds: float) -> bool:
    """Whether every one of ``seats`` is away at the table, polled for ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = c.get(f"/api/tables/{t['id']}", headers=auth(t["token"])).json()
        if all(view["seats"][s]["away"] for s in seats):
            return True
        time.sleep(0.2)
    return False


@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason=NO_PG)
def test_two_players_leaving_on_two_workers_both_leave_after_a_restart(
        pg_url: str) -> None:  # noqa: F811
    """Two workers on PostgreSQL: South's last page closes on one, North's on the other; the
    servers stop before the grace is over; started again, both seats are handed to their
    bots when their leave timers run out."""
    with TestClient(create_app(pg_url)) as one, TestClient(create_app(pg_url)) as two:
        for c in (one, two):
            c.app.state.tables.leave_grace = 3.0  # type: ignore[attr-defined]
        host = one.post("/api/tables", json={"game": "coinche", "bots": "random",
                                              "friends": ["N"]}).json()
        friend = two.post("/api/tables/join", json={"code": host["code"],
                                                  "invite": host["invites"]["N"]}).json()
        with one.websocket_connect(f"/api/tables/{host['id']}/ws") as ws:
            ws.send_json({"token": host["token"]})
            ws.receive_json()
        time.sleep(0.5)  # South's page closed on worker one: its leave timer written
        with two.websocket_connect(f"/api/tables/{host['id']}/ws") as ws:
            ws.send_json({"token": friend["token"]})
            ws.receive_json()
        time.sleep(0.5)  # North's, on worker two
    engine = make_engine(pg_url)
    with engine.connect() as conn:
        text = conn.exec_driver_sql("SELECT timers FROM play_tables WHERE id = %(tid)s",
                                    {"tid": host["id"]}).scalar()
    engine.dispose()
    assert text is not None
    assert sorted(json.loads(text).get("leave", {})) == ["0", "2"], text
    with TestClient(create_app(pg_url)) as again:  # restarted: both timers run on
        assert away_within(again, host, ["S", "N"], 15), "a leave timer was not restored"
