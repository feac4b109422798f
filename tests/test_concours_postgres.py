"""The concours on PostgreSQL (issue 20): its migration, a concours played through the API,
a table counted on a phone through the counter, concurrent writers on one concours.

Runs against ``REBELOTE_TEST_PG_URL`` in a schema of its own, dropped afterwards; skipped when
the variable is not set (``scripts/test.sh`` starts a throwaway server).
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from rebelote.web.app import create_app

PG_URL = os.environ.get("REBELOTE_TEST_PG_URL", "")
API = "/api/concours"

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set: no PostgreSQL "
                                          "server to test against"),
]


@pytest.fixture
def client() -> Iterator[TestClient]:
    schema = f"rebelote_concours_{secrets.token_hex(4)}"
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        with TestClient(create_app(url.render_as_string(hide_password=False))) as c:
            yield c
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def test_a_concours_on_postgres(client: TestClient) -> None:
    r = client.post(API, json={"name": "Tournoi de contrée", "game": "contree", "parties": 3,
                               "target": 2001, "ranking": "wins", "exempt": "average",
                               "teams": [{"name": f"T{i}"} for i in range(7)]})
    assert r.status_code == 201, r.text
    cid, auth = r.json()["id"], {"Authorization": f"Bearer {r.json()['token']}"}
    for k in (1, 2, 3):
        partie = client.post(f"{API}/{cid}/parties", headers=auth).json()
        assert len(partie["tables"]) == 3 and len(partie["exempt"]) == 1
        if k == 1:
            link = client.post(f"{API}/{cid}/parties/1/phones",
                               headers=auth).json()["parties"][0]["tables"][0]["counter"]
            gid, key = link.removeprefix("/join/").split("?key=")
            game = client.get(f"/api/counter/games/{gid}",
                              headers={"Authorization": f"Bearer {key}"}).json()
            assert game["target"] == 2001 and game["game"] == "contree"
        for t in partie["tables"]:
            a, b = t["teams"]
            r = client.put(f"{API}/{cid}/parties/{k}/tables/{t['table']}",
                           json={"scores": {str(a): 2001 + t["table"], str(b): 900}},
                           headers=auth)
            assert r.status_code == 200, r.text
    data = client.get(f"{API}/{cid}").json()
    assert data["over"] and len(data["ranking"]) == 7
    assert data["ranking"][0]["wins"] >= data["ranking"][-1]["wins"]


def test_concurrent_results_are_all_kept(client: TestClient) -> None:
    r = client.post(API, json={"name": "x", "game": "belote", "parties": 1, "deals": 12,
                               "teams": [f"T{i}" for i in range(16)]})
    cid, auth = r.json()["id"], {"Authorization": f"Bearer {r.json()['token']}"}
    partie = client.post(f"{API}/{cid}/parties", headers=auth).json()
    errors: list[str] = []

    def put(t: dict[str, object]) -> None:
        a, b = t["teams"]  # type: ignore[misc]
        r = client.put(f"{API}/{cid}/parties/1/tables/{t['table']}",
                       json={"scores": {str(a): 1000, str(b): 944}}, headers=auth)
        if r.status_code != 200:
            errors.append(r.text)

    threads = [threading.Thread(target=put, args=(t,)) for t in partie["tables"]]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    data = client.get(f"{API}/{cid}").json()
    assert all(t["scores"] for t in data["parties"][0]["tables"])
