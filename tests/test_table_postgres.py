"""The play table on PostgreSQL with two server workers sharing one room: the moves made
through one worker reach the sockets of the other (LISTEN/NOTIFY), and two workers never apply
two moves at once (the version check). Skipped without ``REBELOTE_TEST_PG_URL``."""

from __future__ import annotations

import os
import random
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelote.store.play_tables import StoredText
from rebelote.web.app import create_app
from test_web_postgres import pg_url  # noqa: F401  (the fixture: a schema of its own)

PG_URL = os.environ.get("REBELOTE_TEST_PG_URL", "")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set: no PostgreSQL "
                                          "server to test against"),
]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_two_workers_serve_one_room(pg_url: str, monkeypatch: pytest.MonkeyPatch  # noqa: F811
                                    ) -> None:
    import rebelote.web.table.api as table_api

    monkeypatch.setattr(table_api, "WATCH_POLL", 3600.0)  # only a NOTIFY wakes the socket
    with TestClient(create_app(pg_url)) as one, TestClient(create_app(pg_url)) as two:
        host = one.post("/api/tables", json={"game": "coinche", "bots": "random",
                                              "friends": ["N"]}).json()
        friend = two.post("/api/tables/join", json={"code": host["code"],
                                                  "invite": host["invites"]["N"]}).json()
        assert friend["seat"] == "N"
        tid = host["id"]
        rng = random.Random(5)
        with two.websocket_connect(f"/api/tables/{tid}/ws") as ws:  # the friend, on worker 2
            ws.send_json({"token": friend["token"]})
            seen = ws.receive_json()
            moves = 0
            while moves < 12:
                views = {"S": one.get(f"/api/tables/{tid}", headers=auth(host["token"])).json(),
                         "N": two.get(f"/api/tables/{tid}", headers=auth(friend["token"])).json()}
                if views["S"]["over"]:
                    break
                seat = "S" if views["S"]["legal"] else "N"
                client, token = (one, host["token"]) if seat == "S" else (two, friend["token"])
                legal = [a for a in views[seat]["legal"] if a != "no-declaration"]
                r = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                                json={"action": rng.choice(legal)})
                assert r.status_code == 200, r.text
                moves += 1
                if seat == "S":  # made on worker 1: worker 2's socket must hear of it
                    target = r.json()["version"]
                    while seen["version"] < target:
                        seen = ws.receive_json()
                    assert seen["version"] >= target and seen["seat"] == "N"
            assert moves >= 2


def test_two_workers_never_apply_two_moves_at_once(pg_url: str) -> None:  # noqa: F811
    with TestClient(create_app(pg_url)) as one, TestClient(create_app(pg_url)) as two:
        for _ in range(20):  # the random bots may have coinched a bid: South may only pass
            t = one.post("/api/tables", json={"game": "coinche", "bots": "random"}).json()
            if len(t["legal"]) > 1:
                break
        assert t["turn"] == "S"
        action = t["legal"][1]  # a bid: the deal goes on, the auction keeps it
        answers: list[int] = []

        def post(client: TestClient) -> None:
            r = client.post(f"/api/tables/{t['id']}/actions", headers={
                **auth(t["token"]), "If-Match": f'"{t["version"]}"'}, json={"action": action})
            answers.append(r.status_code)

        threads = [threading.Thread(target=post, args=(c,)) for c in (one, two)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert sorted(answers) == [200, 409]
        view = one.get(f"/api/tables/{t['id']}", headers=auth(t["token"])).json()
        assert [s for s, _ in view["auction"]].count("S") == 1


def test_a_worker_whose_listener_was_cut_catches_up(pg_url: str,  # noqa: F811
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``NOTIFY`` sent while a worker's listener is cut off is lost; when it listens again
    the worker reads the tables its sockets watch, and a socket shows the move it missed."""
    import psycopg
    from sqlalchemy.engine import make_url

    import rebelote.web.table.api as table_api
    from rebelote.store import make_engine
    from rebelote.store.play_tables_pg import connect_args

    monkeypatch.setattr(table_api, "WATCH_POLL", 3600.0)  # no other wake-up than these
    # this test's connections under a name of their own: the listeners cut below are its
    # two workers', never those of a test running beside it (which had then read a table)
    name = "rebelote-test-listener-cut"
    url = make_url(pg_url).update_query_dict({"application_name": name}).render_as_string(
        hide_password=False)
    engine = make_engine(pg_url)
    args = connect_args(engine)
    engine.dispose()
    listeners = ("SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN rebelote_tables' "
                 f"AND application_name = '{name}'")
    with psycopg.connect(**args, autocommit=True) as admin:  # a former run's, if any
        before = {pid for (pid,) in admin.execute(listeners).fetchall()}
    with TestClient(create_app(url)) as one, TestClient(create_app(url)) as two:
        host = one.post("/api/tables", json={"game": "coinche", "bots": "random",
                                              "friends": ["N"]}).json()
        friend = two.post("/api/tables/join", json={"code": host["code"],
                                                  "invite": host["invites"]["N"]}).json()
        tid = host["id"]
        with two.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            ws.send_json({"token": friend["token"]})
            seen = ws.receive_json()
            view = one.get(f"/api/tables/{tid}", headers=auth(friend["token"])).json()
            assert "pass" in view["legal"], "N, the friend, speaks first (W dealt)"
            with psycopg.connect(**args, autocommit=True) as admin:  # cut the two workers'
                ours = {pid for (pid,) in admin.execute(listeners).fetchall()} - before
                cut = [admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()
                       for pid in ours]
            assert len(cut) >= 2  # both workers' (a listener that was reconnecting, too)
            # the friend passes through worker one while nobody listens: its NOTIFY is lost
            r = one.post(f"/api/tables/{tid}/actions", headers=auth(friend["token"]),
                         json={"action": "pass"})
            assert r.status_code == 200
            target = r.json()["version"]
            got: list[dict[str, Any]] = []

            def follow() -> None:
                latest = seen
                while latest["version"] < target:
                    latest = ws.receive_json()
                got.append(latest)

            reader = threading.Thread(target=follow, daemon=True)
            reader.start()
            reader.join(timeout=20)
            assert got and got[0]["version"] >= target, "the socket never showed the move"


def test_the_other_worker_plays_the_moves_it_is_told_without_reading(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """A write that only made moves tells them in its ``NOTIFY``: the worker whose socket
    watches the table plays them on the version it holds and checks the digest of the text
    written, and pushes the table without reading it. A digest that does not match is not
    kept: the table is read."""
    import rebelote.web.table.api as table_api

    monkeypatch.setattr(table_api, "WATCH_POLL", 3600.0)
    with TestClient(create_app(pg_url)) as one, TestClient(create_app(pg_url)) as two:
        t = one.post("/api/tables", json={"game": "coinche", "bots": "random"}).json()
        tid, token = t["id"], t["token"]
        service = two.app.state.tables  # type: ignore[attr-defined]
        reads: list[str] = []
        real_get = service.db.read

        async def counted(table_id: str) -> StoredText:
            reads.append(table_id)
            return await real_get(table_id)

        with two.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            ws.send_json({"token": token})
            seen = ws.receive_json()
            monkeypatch.setattr(service.db, "read", counted)
            rng = random.Random(2)
            view = t
            first = True
            for _ in range(6):  # S's moves through worker 1, the bots' answers with them
                if view["over"]:
                    break
                legal = [a for a in view["legal"] if a != "no-declaration"]
                bids = [a for a in legal if a != "pass"]
                if first and bids:  # S bids: the deal is played, never dealt again
                    action = bids[0]
                else:
                    action = ("pass" if "pass" in legal and rng.random() < 0.5
                              else rng.choice(legal))
                first = False
                view = one.post(f"/api/tables/{tid}/actions", headers=auth(token),
                                json={"action": action}).json()
                while seen["version"] < view["version"]:
                    seen = ws.receive_json()
                assert seen["version"] == view["version"]
                assert {k: v for k, v in seen.items() if k != "token"} == {
                    k: v for k, v in view.items() if k != "token"}
            # every version came from the moves told, none read, but for a new deal (a new
            # snapshot: its seed never travels in a NOTIFY)
            assert len(reads) <= view["deal"] - t["deal"]
            held = service.repo._cache[tid]
            service.repo._cache[tid] = held  # a wrong digest: the moves are not kept
            service.changed(tid, held[0] + 1, "0" * 16, '{"a":["pass"],"d":[]}')
            assert service.repo._cache[tid][0] == held[0]


def test_after_the_server_drops_every_connection_reads_and_writes_go_on(pg_url: str  # noqa: F811
                                                                        ) -> None:
    """PostgreSQL restarted, or an administrator cut this worker's connections (table-attack
    #59): the first call that finds its connection lost drops the idle ones too, so a read's
    second try and the writes after it are made on new connections, not on the dead ones left
    in the pool (a read found two dead connections in turn and answered 503)."""
    import asyncio

    import psycopg

    from rebelote.store import make_engine, migrate
    from rebelote.store.play_tables_pg import PgTables, connect_args

    engine = make_engine(pg_url)
    migrate(engine)
    args = connect_args(engine)
    engine.dispose()
    name = "rebelote-test-cut"

    async def run() -> tuple[int, int]:
        store = PgTables({**args, "application_name": name})
        table = await store.create({"x": 1}, game="coinche", code="CUTCUT01")
        await asyncio.gather(*(store.read(table.id) for _ in range(4)))  # 4 idle connections
        with psycopg.connect(**args, autocommit=True) as admin:
            cut = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM "
                                "pg_stat_activity WHERE application_name = %s",
                                (name,)).fetchone()
        assert cut is not None and cut[0] == 4
        read = await store.read(table.id)
        written = await store.put(table.id, read.version, {"x": 2}, over=False)
        return read.version, written

    assert asyncio.run(run()) == (1, 2)


def test_a_table_ahead_of_its_stored_moves_is_refused_by_name(pg_url: str  # noqa: F811
                                                              ) -> None:
    """The last stop's seam: PostgreSQL's store read a table whose version is ahead of its
    stored moves (a damaged row) again and again until RecursionError. Now it is read in one
    statement (a snapshot written meanwhile is seen whole) and such a row is
    :class:`TableDamagedError` naming it: 409 on the API and the page, an error on the
    socket, the other tables served."""
    import asyncio

    import psycopg
    from sqlalchemy import create_engine

    from rebelote.store.play_tables import TableDamagedError
    from rebelote.store.play_tables_pg import PgTables, connect_args
    from test_table_server import damaged_table_answers

    with TestClient(create_app(pg_url)) as c:
        bad = c.post("/api/tables", json={"game": "coinche", "bots": "random"}).json()
        good = c.post("/api/tables", json={"game": "coinche", "bots": "random"}).json()
        r = c.post(f"/api/tables/{bad['id']}/actions", headers=auth(bad["token"]),
                   json={"action": bad["legal"][0]})
        assert r.status_code == 200, r.text
        engine = create_engine(pg_url)
        args = connect_args(engine)
        engine.dispose()
        with psycopg.connect(**args, autocommit=True) as conn:
            conn.execute("UPDATE play_tables SET version = version + 2 WHERE id = %s",
                         (bad["id"],))

        async def read() -> None:
            store = PgTables(args)
            try:
                await store.read(bad["id"])
            finally:
                await store.close()

        with pytest.raises(TableDamagedError, match=f"table {bad['id']} is damaged"):
            asyncio.run(read())
        damaged_table_answers(c, bad["id"], bad["token"])
        assert c.get(f"/api/tables/{good['id']}", headers=auth(good["token"])
                     ).status_code == 200


def test_a_rooms_next_game_is_told_to_a_player_on_another_worker(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """The room's next game on PostgreSQL: the friend presses *Nouvelle partie* through worker
    2; the host's socket on worker 1 is woken by the NOTIFY and shows ``next_game``; the
    host's press on worker 1 goes to the same game, at the same seat."""
    import rebelote.web.table.api as table_api
    from test_table_web import play_to_the_end

    monkeypatch.setattr(table_api, "WATCH_POLL", 3600.0)  # only a NOTIFY wakes the socket
    with TestClient(create_app(pg_url)) as one, TestClient(create_app(pg_url)) as two:
        host = one.post("/api/tables", json={"game": "coinche", "bots": "debutant",
                                              "friends": ["N"], "target": 1}).json()
        friend = two.post("/api/tables/join", json={"code": host["code"], "name": "Jean",
                                                  "invite": host["invites"]["N"]}).json()
        tid = host["id"]
        play_to_the_end(one, tid, [host["token"], friend["token"]], random.Random(6))
        with one.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            ws.send_json({"token": host["token"]})
            seen = ws.receive_json()
            assert seen["over"] and "next_game" not in seen
            r = two.post(f"/tables/{tid}/again", headers=auth(friend["token"]),
                         follow_redirects=False)
            assert r.status_code == 303, r.text
            new = r.headers["location"].rsplit("/", 1)[1]
            while "next_game" not in seen:
                seen = ws.receive_json()
            assert seen["next_game"] == new
        one.cookies.clear()
        r = one.post(f"/tables/{tid}/again", headers=auth(host["token"]),
                     follow_redirects=False)
        assert r.headers["location"] == f"/tables/{new}"
        view = one.get(f"/api/tables/{new}", headers=auth(host["token"])).json()
        assert view["seat"] == "S" and view["seats"]["N"]["name"] == "Jean"
        assert two.get(f"/api/tables/{new}", headers=auth(friend["token"])).json()["seat"] == "N"


def test_two_presses_at_once_on_two_workers_make_one_next_game(pg_url: str  # noqa: F811
                                                                ) -> None:
    """Two players of a finished room press *Nouvelle partie* at the same instant, each on
    a worker of its own: one next game, both land on it, no unused table
    (``test_table_web.two_presses_at_once``)."""
    from test_table_web import two_presses_at_once

    two_presses_at_once(pg_url)
