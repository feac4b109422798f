"""``rebelote backup`` and ``rebelote restore`` (issue 36, item 2): a backup taken from a real
server on loopback while clients write to it, restored into a new database and served again,
holds every write the server acknowledged before the backup began, and each game whole (its
version and its deals agree). On SQLite and on PostgreSQL (the ``postgres`` marker); the
command's refusals name the option at fault, with no traceback."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from rebelote.commands._app import app as cli_app
from rebelote.web.app import create_app
from test_web_postgres import fresh_schema, pg_url  # noqa: F401  (pg_url: a fixture)
from web_fixtures import live_server

PG_URL = os.environ.get("REBELOTE_TEST_PG_URL", "")
API = "/api/counter/games"


def rebelote(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rebelote.cli", *args], capture_output=True,
                          text=True, timeout=300)


class Writers:
    """Clients writing to a live server: each creates games and adds deals to them, and
    notes when each write was acknowledged (the answer received)."""

    def __init__(self, base: str, n: int = 3) -> None:
        self.base = base
        self.stop = threading.Event()
        self.acks: list[tuple[float, str, int]] = []  # (when, game, its deals then)
        self.tokens: dict[str, str] = {}
        self.errors: list[str] = []
        #: the play tables: (when, table, its version then), and each one's seat secret
        self.moves: list[tuple[float, str, int]] = []
        self.seats: dict[str, str] = {}
        self.threads = [threading.Thread(target=self.write, daemon=True) for _ in range(n)]
        self.threads.append(threading.Thread(target=self.play, daemon=True))

    def write(self) -> None:
        with httpx.Client(base_url=self.base, timeout=30) as c:
            while not self.stop.is_set():
                r = c.post(API, json={"game": "belote", "target": 100000})
                if r.status_code != 201:
                    self.errors.append(r.text)
                    return
                gid, token = r.json()["id"], r.json()["token"]
                self.tokens[gid] = token
                self.acks.append((time.monotonic(), gid, 0))
                for _ in range(8):
                    r = c.post(f"{API}/{gid}/deals", json={"adjust": {"EW": 2}},
                               headers={"Authorization": f"Bearer {token}"})
                    if r.status_code != 200:
                        self.errors.append(r.text)
                        return
                    self.acks.append((time.monotonic(), gid, len(r.json()["deals"])))
                    if self.stop.is_set():
                        return

    def play(self) -> None:
        """A player at tables of quick bots: each move a write of a table's moves."""
        rng = random.Random(3)
        with httpx.Client(base_url=self.base, timeout=30) as c:
            while not self.stop.is_set():
                r = c.post("/api/tables", json={"game": "coinche", "bots": "random"})
                if r.status_code != 201:
                    self.errors.append(r.text)
                    return
                view = r.json()
                tid, key = view["id"], {"Authorization": f"Bearer {view['token']}"}
                self.seats[tid] = view["token"]
                self.moves.append((time.monotonic(), tid, view["version"]))
                for _ in range(30):
                    legal = [a for a in view["legal"] if a != "no-declaration"] or view["legal"]
                    if view["over"] or not legal or self.stop.is_set():
                        break
                    r = c.post(f"/api/tables/{tid}/actions", headers=key,
                               json={"action": rng.choice(legal)})
                    if r.status_code != 200:
                        self.errors.append(r.text)
                        return
                    view = r.json()
                    self.moves.append((time.monotonic(), tid, view["version"]))

    def __enter__(self) -> Writers:
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=60)

    def acked_before(self, moment: float, what: str = "acks") -> dict[str, int]:
        """Each game's deals (``what="moves"``: each table's version) acknowledged before
        ``moment``."""
        out: dict[str, int] = {}
        for when, gid, deals in getattr(self, what):
            if when < moment:
                out[gid] = max(out.get(gid, 0), deals)
        return out


def backup_under_load(source: str, file: Path) -> tuple[Writers, float, float]:
    """A server on ``source`` written to by three clients, backed up meanwhile."""
    with live_server(source) as base, Writers(base) as writers:
        while len(writers.acks) < 60:  # writing well before the backup
            time.sleep(0.05)
            assert not writers.errors, writers.errors
        began = time.monotonic()
        done = rebelote("backup", "--db", source, str(file))
        ended = time.monotonic()
        assert done.returncode == 0, done.stderr
        time.sleep(0.3)  # and after it
    assert not writers.errors, writers.errors
    during = [a for a in writers.acks if began < a[0] < ended]
    assert len(during) > 10, "the clients wrote while the backup ran"
    return writers, began, ended


def check_restored(url: str, writers: Writers, began: float, ended: float) -> None:
    """Served from ``url``: every write acknowledged before ``began``, each game whole."""
    must = writers.acked_before(began)
    could = writers.acked_before(ended + 30)
    with TestClient(create_app(url)) as c:
        for gid, token in writers.tokens.items():
            r = c.get(f"{API}/{gid}", headers={"Authorization": f"Bearer {token}"})
            if gid in must:
                assert r.status_code == 200, (gid, r.text)
            if r.status_code == 404:
                continue
            game = r.json()
            deals = len(game["deals"])
            assert must.get(gid, 0) <= deals <= could[gid], gid
            assert game["version"] == deals + 1  # every deal its own write
            assert game["totals"]["EW"] == 2 * deals
        tables = writers.acked_before(began, "moves")
        assert tables, "a table was played before the backup"
        for tid, token in writers.seats.items():
            r = c.get(f"/api/tables/{tid}", headers={"Authorization": f"Bearer {token}"})
            if tid in tables:
                assert r.status_code == 200, (tid, r.text)
            if r.status_code == 200:  # whole: its snapshot and every move since
                assert tables.get(tid, 0) <= r.json()["version"] <= \
                    writers.acked_before(ended + 30, "moves")[tid]
        # and the restored database takes writes
        gid, token = next(iter(must.items()))[0], writers.tokens[next(iter(must))]
        r = c.post(f"{API}/{gid}/deals", json={"void": True},
                   headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text


def test_a_backup_under_load_restores_every_acknowledged_write_on_sqlite(tmp_path: Path
                                                                         ) -> None:
    source = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    file = tmp_path / "backup.sqlite3"
    writers, began, ended = backup_under_load(source, file)
    restored = f"sqlite:///{tmp_path / 'restored' / 'club.sqlite3'}"
    done = rebelote("restore", "--db", restored, str(file))
    assert done.returncode == 0, done.stderr
    assert "counter_games" in done.stderr
    check_restored(restored, writers, began, ended)
    with live_server(restored) as base:  # and served by `rebelote serve`
        gid = next(iter(writers.acked_before(began)))
        r = httpx.get(f"{base}{API}/{gid}",
                      headers={"Authorization": f"Bearer {writers.tokens[gid]}"})
        assert r.status_code == 200


@pytest.fixture
def pg_restored() -> Iterator[str]:
    """A second schema: the new database a backup is restored into."""
    yield from fresh_schema("rebelote_restored")


@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set")
def test_a_backup_under_load_restores_every_acknowledged_write_on_postgres(
        pg_url: str, pg_restored: str, tmp_path: Path) -> None:  # noqa: F811
    file = tmp_path / "backup.sqlite3"
    writers, began, ended = backup_under_load(pg_url, file)
    done = rebelote("restore", "--db", pg_restored, str(file))
    assert done.returncode == 0, done.stderr
    check_restored(pg_restored, writers, began, ended)
    # the same backup restores into SQLite too (a site moving between its two tiers)
    local = f"sqlite:///{tmp_path / 'local.sqlite3'}"
    assert rebelote("restore", "--db", local, str(file)).returncode == 0
    check_restored(local, writers, began, ended)


# -- refusals ----------------------------------------------------------------------------------
def run(*args: str) -> Any:
    return CliRunner().invoke(cli_app, list(args))


@pytest.fixture
def backed_up(tmp_path: Path) -> tuple[str, Path]:
    source = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    with TestClient(create_app(source)) as c:
        assert c.post(API, json={"game": "coinche"}).status_code == 201
    file = tmp_path / "b.sqlite3"
    result = run("backup", "--db", source, str(file))
    assert result.exit_code == 0, result.output
    return source, file


@pytest.mark.parametrize(("args", "words"), [
    (("backup", "--db", "nope", "{tmp}/x"), ("--db", "not a database URL")),
    (("backup", "--db", "sqlite://", "{tmp}/x"), ("--db", "in-memory")),
    (("backup", "--db", "sqlite:///{tmp}/missing.sqlite3", "{tmp}/x"),
     ("--db", "no such database file")),
    (("backup", "--db", "postgresql+psycopg://u@127.0.0.1:1/x", "{tmp}/x"),
     ("--db", "cannot open")),
    (("backup", "--db", "{source}", "{file}"), ("FILE", "exists", "--force")),
    (("backup", "--db", "{source}", "{tmp}/no/such/folder/x"), ("FILE", "not a folder")),
    (("restore", "--db", "{source}", "{file}"), ("--db", "not empty", "--force")),
    (("restore", "--db", "sqlite:///{tmp}/new.sqlite3", "{tmp}/nothing"),
     ("FILE", "no such file")),
    (("restore", "--db", "sqlite:///{tmp}/new.sqlite3", "{tmp}/club.sqlite3-not"),
     ("FILE", "not a rebelote backup")),
    (("restore", "--db", "nope", "{file}"), ("--db", "not a database URL")),
])
def test_refusals_name_the_option(backed_up: tuple[str, Path], tmp_path: Path,
                                  args: tuple[str, ...], words: tuple[str, ...]) -> None:
    source, file = backed_up
    (tmp_path / "club.sqlite3-not").write_text("not a database\n")
    given = [a.format(tmp=tmp_path, source=source, file=file) for a in args]
    result = run(*given)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output, result.output


def test_restore_over_data_with_force_replaces_it(backed_up: tuple[str, Path],
                                                  tmp_path: Path) -> None:
    source, file = backed_up
    with TestClient(create_app(source)) as c:  # one game more after the backup
        assert c.post(API, json={"game": "belote"}).status_code == 201
    result = run("restore", "--db", source, str(file), "--force")
    assert result.exit_code == 0, result.output
    engine = create_engine(source)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT game FROM counter_games")).scalars().all() == \
            ["coinche"]
    engine.dispose()


def test_restore_leaves_other_programs_tables_alone(backed_up: tuple[str, Path],
                                                    tmp_path: Path) -> None:
    _, file = backed_up
    shared = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    engine = create_engine(shared)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE their_data (x INTEGER)"))
        conn.execute(text("INSERT INTO their_data VALUES (7)"))
    result = run("restore", "--db", shared, str(file))  # not ours: the database is new to us
    assert result.exit_code == 0, result.output
    assert run("restore", "--db", shared, str(file), "--force").exit_code == 0
    with engine.connect() as conn:
        assert conn.execute(text("SELECT x FROM their_data")).scalar() == 7
        assert conn.execute(text("SELECT game FROM counter_games")).scalars().all() == \
            ["coinche"]
    engine.dispose()


def test_the_bots_explanations_are_backed_up_and_restored(tmp_path: Path) -> None:
    from rebelote.store.play_tables import TableStore

    source = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    with TestClient(create_app(source)):  # migrated to the head
        pass
    store = TableStore(create_engine(source))
    store.put_explanations("t1", 2, [(0, '{"seat":"N"}'), (5, '{"seat":"E"}')])
    store.close()
    file = tmp_path / "b.sqlite3"
    assert run("backup", "--db", source, str(file)).exit_code == 0
    target = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    result = run("restore", "--db", target, str(file))
    assert result.exit_code == 0, result.output
    restored = TableStore(create_engine(target))
    assert restored.explanations("t1", 2) == [(0, '{"seat":"N"}'), (5, '{"seat":"E"}')]
    restored.close()
