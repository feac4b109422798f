"""Upgrades keep a club's data (issue 36, item 1): from every earlier schema (0001 onwards), a
database written by the app of that time is migrated to today's head and read through
today's app: every counter game opens with its deals and totals and takes a new deal, every
play table shows its seat the same hand and trick and takes the next move, its finished deals
replay, every concours loads with its parties and ranking and takes a result.

The rows are the ones the old apps wrote (``tests/vectors/old-schemas/NNNN.json``, made by
``scripts/old_schema_rows.py``, which serves each old version out of git and drives it through
its own HTTP API). Each test migrates an empty database to the old revision, inserts those
rows with that revision's tables, then lets today's app start (it migrates to the head).

And several processes starting at once on one database migrate it once: the others wait for
the lock and find the schema at its head (PostgreSQL's advisory lock, SQLite's write lock).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Boolean, DateTime, Engine, MetaData, create_engine, inspect, select, text

from rebelote.store import make_engine, migrate
from rebelote.table.analysis import solver_available
from rebelote.web.app import create_app
from test_web_postgres import pg_url  # noqa: F401  (the fixture: a schema of its own)
from web_fixtures import live_server

OLD = Path(__file__).parent / "vectors" / "old-schemas"
REVISIONS = sorted(p.stem for p in OLD.glob("*.json"))
PG_URL = os.environ.get("REBELOTE_TEST_PG_URL", "")
needs_pg = [pytest.mark.postgres,
            pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set")]


def head() -> str:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", "rebelote.store:migrations")
    return str(ScriptDirectory.from_config(config).get_current_head())


def old(rev: str) -> dict[str, Any]:
    return dict(json.loads((OLD / f"{rev}.json").read_text(encoding="utf-8")))


def typed(columns: Any, row: dict[str, Any]) -> dict[str, Any]:
    """A row read from the old SQLite file, in the types of ``columns`` (its times as UTC)."""
    out = dict(row)
    for col in columns:
        value = out.get(col.name)
        if value is None:
            continue
        if isinstance(col.type, DateTime):
            moment = datetime.fromisoformat(value)
            out[col.name] = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
        elif isinstance(col.type, Boolean):
            out[col.name] = bool(value)
    return out


def write_old(engine: Engine, data: dict[str, Any]) -> None:
    """The database at ``data``'s revision, holding the rows its app wrote."""
    migrate(engine, data["revision"])
    meta = MetaData()
    meta.reflect(engine)
    with engine.begin() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == \
            data["revision"]
        for name, rows in data["rows"].items():
            if name != "alembic_version" and rows:
                table = meta.tables[name]
                conn.execute(table.insert(), [typed(table.columns, r) for r in rows])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def check_rows_kept(engine: Engine, data: dict[str, Any]) -> None:
    """Every old row is there with every old column's value (what migrations add aside)."""
    meta = MetaData()
    meta.reflect(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == head()
        for name, rows in data["rows"].items():
            if name == "alembic_version":
                continue
            table = meta.tables[name]
            keys = [c.name for c in table.primary_key.columns]
            now = {tuple(r[k] for k in keys): dict(r)
                   for r in conn.execute(select(table)).mappings()}
            assert len(now) == len(rows), name
            for row in rows:
                was = typed(table.columns, row)
                got = now[tuple(was[k] for k in keys)]
                for column, value in was.items():
                    if isinstance(value, datetime):
                        assert got[column].replace(tzinfo=UTC) == value.astimezone(UTC) \
                            .replace(tzinfo=UTC), (name, column)
                    elif (name, column) == ("counter_games", "meta") and value:
                        assert_meta_kept(value, got[column])
                    else:
                        assert got[column] == value, (name, column)


def check_served(url: str, engine: Engine, data: dict[str, Any]) -> None:
    """Today's app reads and writes every old game, table and concours."""
    view_ids = {}
    if "counter_games" in inspect(engine).get_table_names():
        with engine.connect() as conn:
            view_ids = dict(conn.execute(text("SELECT id, view_id FROM counter_games")).all())
    with TestClient(create_app(url)) as c:
        for game in data["games"]:
            if game["secret"] is None:  # before 0002: readable through its new view link only
                r = c.get(f"/api/counter/views/{view_ids[game['id']]}")
            else:
                r = c.get(f"/api/counter/games/{game['id']}", headers=bearer(game["secret"]))
            assert r.status_code == 200, r.text
            got = r.json()
            assert (len(got["deals"]), got["totals"], got["winner"], got["game"]) == \
                (game["deals"], game["totals"], game["winner"], game["game"])
            if game["secret"] is not None and game["winner"] is None:
                r = c.post(f"/api/counter/games/{game['id']}/deals", json={"void": True},
                           headers=bearer(game["secret"]))
                assert r.status_code == 200, r.text
                assert len(r.json()["deals"]) == game["deals"] + 1
        for table in data["tables"]:
            key = bearer(table["token"])
            r = c.get(f"/api/tables/{table['id']}", headers=key)
            assert r.status_code == 200, r.text
            got = r.json()
            for field in ("version", "deal", "hand", "trick", "scores", "phase", "code"):
                assert got[field] == table[field], field
            for n in range(1, table["deal"]):  # the finished deals replay
                r = c.get(f"/api/tables/{table['id']}/deals/{n}.json", headers=key)
                assert r.status_code == 200, r.text
            if solver_available():  # an old deal was never replayed by le robot à votre place
                r = c.get(f"/api/tables/{table['id']}/deals/1/analysis", headers=key)
                assert r.status_code == 200, r.text
                assert r.json()["robot"] is None and r.json()["robot_sum"] is None
            if got["legal"]:
                r = c.post(f"/api/tables/{table['id']}/actions", headers=key,
                           json={"action": got["legal"][0]})
                assert r.status_code == 200, r.text
                assert r.json()["version"] > table["version"]
        for concours in data["concours"]:
            key = bearer(concours["token"])
            r = c.get(f"/api/concours/{concours['id']}", headers=key)
            assert r.status_code == 200, r.text
            got = r.json()
            assert len(got["parties"]) == concours["parties"]
            fields = ("rank", "team", "name", "points", "wins")
            assert [{f: line[f] for f in fields} for line in got["ranking"]] == \
                [{f: line[f] for f in fields} for line in concours["ranking"]]
            assert c.get(f"/api/concours/views/{concours['view']}").status_code == 200
            open_tables = [t for t in got["parties"][-1]["tables"] if not t["scores"]]
            t = open_tables[0]
            a, b = t["teams"]
            r = c.put(f"/api/concours/{concours['id']}/parties/2/tables/{t['table']}",
                      headers=key, json={"scores": {str(a): 1100, str(b): 800}})
            assert r.status_code == 200, r.text


def upgrade_and_check(url: str, rev: str) -> None:
    data = old(rev)
    engine = make_engine(url)
    try:
        write_old(engine, data)
        migrate(engine)  # what `rebelote serve` does first
        check_rows_kept(engine, data)
        check_served(url, engine, data)
    finally:
        engine.dispose()


def test_the_rows_cover_every_revision_and_every_product() -> None:
    # every schema an upgrade starts from (the head's own rows test the app's reading of them)
    assert set(REVISIONS) >= {f"{n:04d}" for n in range(1, int(head()))}
    for rev in REVISIONS:
        data = old(rev)
        assert data["games"] and all(g["deals"] for g in data["games"])
        assert bool(data["tables"]) == (rev >= "0003")
        assert bool(data["concours"]) == (rev >= "0005")
        assert all(t["deal"] >= 2 for t in data["tables"])  # a finished deal to replay


@pytest.mark.parametrize("rev", REVISIONS)
def test_an_upgrade_from_each_schema_keeps_everything_on_sqlite(rev: str, tmp_path: Path
                                                                ) -> None:
    upgrade_and_check(f"sqlite:///{tmp_path / 'club.sqlite3'}", rev)


@pytest.mark.parametrize("rev", REVISIONS)
@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set")
def test_an_upgrade_from_each_schema_keeps_everything_on_postgres(
        rev: str, pg_url: str) -> None:  # noqa: F811
    upgrade_and_check(pg_url, rev)


# -- several processes starting at once --------------------------------------------------------
MIGRATE_AT: Final = """
import sys, time
from rebelote.store import make_engine, migrate
engine = make_engine(sys.argv[1])
engine.connect().close()
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))
migrate(engine)
"""


def migrate_at_once(url: str, n: int) -> list[str]:
    """``n`` processes (as ``n`` workers or servers starting) migrate ``url`` at the same
    moment; what the failing ones printed."""
    at = time.time() + 3.0  # every process started and connected by then
    procs = [subprocess.Popen([sys.executable, "-c", MIGRATE_AT, url, str(at)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for _ in range(n)]
    outs = [(p.communicate(timeout=120)[0], p.returncode) for p in procs]
    return [next((line for line in reversed(out.splitlines()) if "Error" in line), out)
            for out, code in outs if code != 0]


def assert_at_head_once(url: str) -> None:
    engine = create_engine(url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() \
            == [head()]
    engine.dispose()


@pytest.fixture
def old_sqlite(tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    engine = make_engine(url)
    write_old(engine, old("0003"))
    engine.dispose()
    yield url


def test_workers_starting_at_once_migrate_once_on_sqlite(old_sqlite: str) -> None:
    assert migrate_at_once(old_sqlite, 4) == []
    assert_at_head_once(old_sqlite)
    engine = make_engine(old_sqlite)
    check_rows_kept(engine, old("0003"))
    engine.dispose()


@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set")
def test_workers_starting_at_once_migrate_once_on_postgres(pg_url: str) -> None:  # noqa: F811
    assert migrate_at_once(pg_url, 4) == []  # an empty database: every table to create
    assert_at_head_once(pg_url)
    engine = make_engine(pg_url)
    with engine.begin() as conn:  # back to 0003 with data, then four upgrade it at once
        for name in ("concours", "play_moves", "play_tables", "counter_games",
                     "table_explanations", "table_replays"):
            conn.execute(text(f"DROP TABLE {name}"))
        conn.execute(text("DROP TABLE alembic_version"))
    write_old(engine, old("0003"))
    engine.dispose()
    assert migrate_at_once(pg_url, 4) == []
    assert_at_head_once(pg_url)
    engine = make_engine(pg_url)
    check_rows_kept(engine, old("0003"))
    engine.dispose()


# -- a real server started on an old database --------------------------------------------------
def served_on_old(url: str, rev: str, *options: str) -> None:
    """``rebelote serve`` (with ``options``) started on a database at ``rev`` holding the old
    app's rows: it migrates at start, then serves every old game, table and concours."""
    data = old(rev)
    engine = make_engine(url)
    write_old(engine, data)
    engine.dispose()
    with live_server(url, None, *options) as base, httpx.Client(base_url=base) as c:
        for game in data["games"]:
            if game["secret"] is not None:
                r = c.get(f"/api/counter/games/{game['id']}", headers=bearer(game["secret"]))
                assert r.status_code == 200 and len(r.json()["deals"]) == game["deals"]
        for table in data["tables"]:
            r = c.get(f"/api/tables/{table['id']}", headers=bearer(table["token"]))
            assert r.status_code == 200 and r.json()["hand"] == table["hand"]
        for concours in data["concours"]:
            r = c.get(f"/api/concours/{concours['id']}", headers=bearer(concours["token"]))
            assert r.status_code == 200 and len(r.json()["parties"]) == concours["parties"]
    assert_at_head_once(url)


@pytest.mark.parametrize("rev", ["0001", "0005"])
def test_rebelote_serve_upgrades_an_old_sqlite_file_at_start(rev: str, tmp_path: Path) -> None:
    served_on_old(f"sqlite:///{tmp_path / 'club.sqlite3'}", rev)


@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set")
def test_rebelote_serve_with_two_workers_upgrades_an_old_postgres_at_start(
        pg_url: str) -> None:  # noqa: F811
    served_on_old(pg_url, "0003", "--workers", "2")


#: What migration 0007 adds to a concours table's game meta: the concours it belongs to and
#: its rule for a last-deal litige (the rule's default, as the concours of that time played).
META_ADDED: Final = {"concours": {"id", "reserve_at_end"}}


def assert_meta_kept(was: str, now: str) -> None:
    """``now`` holds every key and value of ``was``, and beyond them only what a later
    migration adds (:data:`META_ADDED`)."""
    old, new = json.loads(was), json.loads(now)
    assert set(new) == set(old), (old, new)
    for key, value in old.items():
        if isinstance(value, dict) and key in META_ADDED:
            added = set(new[key]) - set(value)
            assert added <= META_ADDED[key], (key, added)
            assert {k: new[key][k] for k in value} == value, (key, new[key])
        else:
            assert new[key] == value, (key, new[key])

