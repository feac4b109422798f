"""The counter's API on PostgreSQL: migrations, games, versions, concurrent writers.

Runs against ``REBELOTE_TEST_PG_URL`` (``postgresql+psycopg://user@127.0.0.1:5432/db``), in a
schema of its own that is dropped afterwards; skipped when the variable is not set.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from rebelote.store import GameStore, make_engine, migrate
from rebelote.web.app import create_app
from web_fixtures import keyed_client, seed_game

PG_URL = os.environ.get("REBELOTE_TEST_PG_URL", "")
API = "/api/counter/games"
FIVE = seed_game("belote-five-deals")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set: no PostgreSQL "
                                          "server to test against"),
]


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A URL whose connections work in a fresh schema, dropped at the end."""
    yield from fresh_schema("rebelote_test")


def fresh_schema(prefix: str) -> Iterator[str]:
    """A URL whose connections work in a new schema named from ``prefix``, dropped at the
    end (a generator for a fixture)."""
    schema = f"{prefix}_{secrets.token_hex(4)}"
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def client(pg_url: str) -> Iterator[TestClient]:
    with keyed_client(create_app(pg_url)) as c:
        yield c


def test_migrations_run_and_run_again(pg_url: str) -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", "rebelote.store:migrations")
    head = ScriptDirectory.from_config(config).get_current_head()  # one head: a straight chain
    engine = make_engine(pg_url)
    migrate(engine)
    migrate(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == head
    assert GameStore(engine).count() == 0
    engine.dispose()


def test_the_seed_game_on_postgres(client: TestClient) -> None:
    gid = client.post(API, json={"game": "belote", "target": 1000}).json()["id"]
    for deal in FIVE["input"]["deals"]:
        assert client.post(f"{API}/{gid}/deals", json=deal).status_code == 200
    game = client.get(f"{API}/{gid}").json()
    assert game["totals"] == {"NS": 906, "EW": 124} and game["version"] == 6
    r = client.put(f"{API}/{gid}/deals/2", json={"taker": "EW", "points": {"EW": 100}})
    assert r.json()["deals"][1]["outcome"] == "made"
    r = client.delete(f"{API}/{gid}/deals/last")
    assert len(r.json()["deals"]) == 4
    key = {"Authorization": f"Bearer {client.tokens[gid]}"}  # type: ignore[attr-defined]
    games = client.get(API, headers=key).json()["games"]
    assert games[0]["id"] == gid and games[0]["deals"] == 4


def test_bad_input_and_old_versions_change_nothing(client: TestClient) -> None:
    gid = client.post(API, json={"game": "coinche", "target": 1000}).json()["id"]
    before = client.get(f"{API}/{gid}").json()
    bad = client.post(f"{API}/{gid}/deals", json={"taker": "NS", "points": {"NS": 100}})
    assert bad.status_code == 422 and "contract" in bad.json()["error"]
    old = client.post(f"{API}/{gid}/deals", json={"void": True}, headers={"If-Match": '"7"'})
    assert old.status_code == 409
    assert client.get(f"{API}/{gid}").json() == before


def test_concurrent_writers_on_postgres(client: TestClient) -> None:
    gid = client.post(API, json={"game": "belote", "target": 100000}).json()["id"]
    failures: list[Any] = []

    def worker() -> None:
        for _ in range(10):
            r = client.post(f"{API}/{gid}/deals", json={"adjust": {"EW": 2}})
            if r.status_code != 200:
                failures.append(r.text)

    threads = [threading.Thread(target=worker) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
    game = client.get(f"{API}/{gid}").json()
    assert game["totals"]["EW"] == 100 and game["version"] == 51


def test_games_survive_a_new_app(pg_url: str) -> None:
    tokens: dict[str, str] = {}
    with keyed_client(create_app(pg_url), tokens) as c:
        gid = c.post(API, json={"game": "belote"}).json()["id"]
        c.post(f"{API}/{gid}/deals", json={"taker": "NS", "points": {"NS": 100}})
    with keyed_client(create_app(pg_url), tokens) as c:
        assert c.get(f"{API}/{gid}").json()["totals"] == {"NS": 100, "EW": 62}
