"""The play table on PostgreSQL with two server workers sharing one room: the moves made
through one worker reach the sockets of the other (LISTEN/NOTIFY), and two workers never apply
two moves at once (the version check). Skipped without ``REBELOTE_TEST_PG_URL``."""

from __future__ import annotations

import os
import random
import threading

import pytest
from fastapi.testclient import TestClient

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
        friend = two.post("/api/tables/join", json={"code": host["code"]}).json()
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
        t = one.post("/api/tables", json={"game": "coinche", "bots": "random"}).json()
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
