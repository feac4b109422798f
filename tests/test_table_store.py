"""The tables' stores, SQLite (:class:`TableStore` through :class:`LocalTables`) and PostgreSQL
(:class:`PgTables`, when ``REBELOTE_TEST_PG_URL`` is set): the same answers to the same calls.
Every write is checked against the version read; a taken join code and an unknown table are
told apart; a table played on from a version a worker held is the table replayed from the
start."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rebelote.rules import Rules
from rebelote.store import make_engine, migrate
from rebelote.store.play_tables import (
    CodeTakenError,
    TableConflictError,
    TableNotFoundError,
    Tables,
    TableStore,
)
from rebelote.table import Seat, Table
from rebelote.tableserver import LocalTables
from test_web_postgres import pg_url  # noqa: F401  (the fixture: a schema of its own)

PG_URL = os.environ.get("REBELOTE_TEST_PG_URL", "")


@pytest.fixture(params=["sqlite", "postgresql"])
def make_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Tables]]:
    """A factory of the store under test, to be called inside the test's event loop."""
    if request.param == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path / 't.db'}")
        migrate(engine)
        yield lambda: LocalTables(TableStore(engine, single_thread=True))
        engine.dispose()
        return
    if not PG_URL:
        pytest.skip("REBELOTE_TEST_PG_URL is not set: no PostgreSQL server to test against")
    url = request.getfixturevalue("pg_url")
    from rebelote.store.play_tables_pg import PgTables, connect_args

    engine = make_engine(url)
    migrate(engine)
    yield lambda: PgTables(connect_args(engine))
    engine.dispose()


async def written(db: Tables, table_id: str) -> tuple[int, str]:
    """The stored version and JSON of a table written whole (no moves since)."""
    got = await db.read(table_id)
    assert got.moves == () and got.base == got.version
    return got.version, got.data


def run(make_db: object, body: object) -> None:
    async def main() -> None:
        db: Tables = make_db()  # type: ignore[operator]
        try:
            await body(db)  # type: ignore[operator]
        finally:
            await db.close()
    asyncio.run(main())


def test_a_write_is_checked_against_the_version_read(make_db: object) -> None:
    async def body(db: Tables) -> None:
        stored = await db.create({"n": 0}, game="belote", code="ABC234")
        assert stored.version == 1
        assert await db.put(stored.id, 1, {"n": 1}, over=False) == 2
        assert await written(db, stored.id) == (2, '{"n":1}')
        with pytest.raises(TableConflictError) as e:  # a second writer of version 1
            await db.put(stored.id, 1, {"n": 99}, over=False)
        assert e.value.expected == 1
        assert await written(db, stored.id) == (2, '{"n":1}')  # nothing written
        with pytest.raises(TableNotFoundError):
            await db.put("nosuchtable", 1, {"n": 1}, over=False)
        with pytest.raises(TableNotFoundError):
            await written(db, "nosuchtable")
    run(make_db, body)


def test_join_codes_are_unique_and_read_as_typed(make_db: object) -> None:
    async def body(db: Tables) -> None:
        stored = await db.create({"n": 0}, game="coinche", code="K7XP3Q")
        assert await db.id_of_code("k7x-p3q ") == stored.id
        with pytest.raises(CodeTakenError):
            await db.create({"n": 1}, game="coinche", code="K7XP3Q")
        with pytest.raises(TableNotFoundError):
            await db.id_of_code("ZZZZZZ")
    run(make_db, body)


def test_many_writers_of_one_version_one_wins(make_db: object) -> None:
    async def body(db: Tables) -> None:
        stored = await db.create({"n": 0}, game="belote", code="MANY22")
        results = await asyncio.gather(*(db.put(stored.id, 1, {"n": i}, over=False)
                                         for i in range(6)), return_exceptions=True)
        assert sum(r == 2 for r in results) == 1
        assert all(isinstance(r, TableConflictError) for r in results if r != 2)
        assert (await written(db, stored.id))[0] == 2
    run(make_db, body)


def _random_game(rng: random.Random, game: str, steps: int) -> list[Table]:
    """A table played by random moves (seed and salt from ``rng``): every version of it."""
    rules = Rules.preset("official", game)
    seats = [Seat.bot_seat("random") for _ in range(4)]

    def entropy() -> tuple[str, str]:
        return f"{rng.getrandbits(64):016x}", f"{rng.getrandbits(64):016x}"

    table = Table.new(rules, 2000, seats, dealer=rng.randrange(4), entropy=entropy)
    out = [table]
    while len(out) <= steps and not table.is_over:
        legal = [str(a) for a in table.deal.legal_actions()]
        bidding = "pass" in legal
        action = "pass" if bidding and rng.random() < 0.7 else rng.choice(legal)
        table = table.act(table.turn, action, entropy=entropy)
        out.append(table)
    return out


@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_a_table_played_on_from_a_known_version_is_the_table_replayed(game: str) -> None:
    rng = random.Random(8)
    versions = _random_game(rng, game, 400)
    assert len(versions[-1].deals) > 2  # several deals: the next deal's seed comes from obj
    for _ in range(60):
        i = rng.randrange(len(versions))
        j = rng.randrange(i, len(versions))
        known = Table.from_json(versions[i].to_json())
        obj = json.loads(json.dumps(versions[j].to_json()))
        fresh, on = Table.from_json(obj), Table.from_json(obj, known=known)
        assert "replay" in on.__dict__  # played on from known, not left to replay
        assert on.to_json() == fresh.to_json() == versions[j].to_json()
        assert on.replay.deal == fresh.replay.deal
        assert on.replay.finished == fresh.replay.finished
        assert on.replay.result == fresh.replay.result


def test_a_table_that_does_not_go_on_from_the_known_one_is_replayed_whole() -> None:
    rng = random.Random(3)
    one = _random_game(rng, "belote", 60)
    other = _random_game(random.Random(4), "belote", 60)
    for known, obj in ((one[40], other[50].to_json()),  # another table
                       (one[50], one[40].to_json())):   # a later version than obj
        table = Table.from_json(obj, known=Table.from_json(known.to_json()))
        assert "replay" not in table.__dict__
        assert table.to_json() == obj
        assert table.replay.deal == Table.from_json(obj).replay.deal


@pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set")
@pytest.mark.parametrize("checked", [True, False])
def test_connections_the_server_closed_are_replaced(pg_url: str,  # noqa: F811
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    checked: bool) -> None:
    """A connection the server closed (a restart, an idle timeout) is replaced: checked before
    use once idle (``checked``), else found lost by a read, which is made again."""
    from sqlalchemy import text

    import rebelote.store.db as db
    import rebelote.store.play_tables_pg as pg

    monkeypatch.setattr(db, "PING_AFTER", 0.0 if checked else 3600.0)
    monkeypatch.setattr(pg, "PING_AFTER", 0.0 if checked else 3600.0)
    from sqlalchemy.engine import make_url

    # a name of this run's own: the tests run in parallel, and the other parametrisation's
    # kill_ours must not end this one's connections (it did once, during migrate)
    name = f"rebelote-lost-{secrets.token_hex(4)}"
    named = make_url(pg_url).update_query_dict({"application_name": name})
    engine = make_engine(named.render_as_string(hide_password=False))
    migrate(engine)

    def kill_ours() -> None:  # this test's connections, from a connection of another name
        import psycopg

        args = {**pg.connect_args(engine), "application_name": "rebelote-killer"}
        with psycopg.connect(**args, autocommit=True) as c:
            c.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                      "WHERE application_name = %s", (name,))

    async def body() -> None:
        tables = pg.PgTables(pg.connect_args(engine), size=1)
        try:
            stored = await tables.create({"n": 0}, game="belote", code="LOST22")
            kill_ours()
            assert await written(tables, stored.id) == (1, '{"n":0}')
            assert await tables.put(stored.id, 1, {"n": 1}, over=False) == 2
        finally:
            await tables.close()

    asyncio.run(body())
    if checked:  # the counter's pooled connections too
        with engine.connect() as c, engine.connect() as d:
            assert c.execute(text("SELECT 1")).scalar() == d.execute(text("SELECT 1")).scalar()
        kill_ours()
        for _ in range(2):
            with engine.connect() as c:
                assert c.execute(text("SELECT 1")).scalar() == 1
    engine.dispose()


def test_prune_tables_deletes_the_tables_nobody_played_for_days(tmp_path: Path) -> None:
    """``rebelote prune-tables --days N``: the tables whose last write is older than N days
    go (``--dry-run`` counts them), the others and the counter's games stay."""
    from datetime import UTC, datetime, timedelta

    from fastapi.testclient import TestClient
    from sqlalchemy import text
    from typer.testing import CliRunner

    from rebelote.commands._app import app
    from rebelote.web.app import create_app

    url = f"sqlite:///{tmp_path / 'prune.db'}"
    with TestClient(create_app(url)) as client:  # a counter's game, older than any table
        game = client.post("/api/counter/games", json={"game": "belote"}).json()
    engine = make_engine(url)
    store = TableStore(engine)
    ids = [store.create({"n": i}, game="belote").id for i in range(5)]
    now = datetime.now(UTC)
    with engine.begin() as conn:  # three tables last played 40, 31 and 29 days ago
        for tid, days in zip(ids, (40, 31, 29), strict=False):
            conn.execute(text("UPDATE play_tables SET updated_at = :t, created_at = :t "
                              "WHERE id = :id"), {"t": now - timedelta(days=days), "id": tid})
        conn.execute(text("UPDATE counter_games SET updated_at = :t"),
                     {"t": now - timedelta(days=400)})
    runner = CliRunner()
    dry = runner.invoke(app, ["prune-tables", "--days", "30", "--db", url, "--dry-run"])
    assert dry.exit_code == 0 and "would delete 2 tables" in dry.output
    assert len({store.get(tid).id for tid in ids}) == 5  # nothing deleted
    done = runner.invoke(app, ["prune-tables", "--days", "30", "--db", url])
    assert done.exit_code == 0 and "deleted 2 tables" in done.output
    for tid in ids[:2]:
        with pytest.raises(TableNotFoundError):
            store.get(tid)
    assert [store.get(tid).data for tid in ids[2:]] == [{"n": 2}, {"n": 3}, {"n": 4}]
    with engine.connect() as conn:  # the counter's game stays
        assert conn.execute(text("SELECT id FROM counter_games")).scalars().all() == [
            game["id"]]
    bad = runner.invoke(app, ["prune-tables", "--days", "0", "--db", url])
    assert bad.exit_code == 2 and "--days" in bad.output
    engine.dispose()


def test_the_moves_between_two_versions_take_one_to_the_other() -> None:
    """``moves_after`` gives what a worker tells the others of a write that only made moves
    of the deal in play; ``with_moves`` plays it on the version before: the table written, to
    the letter. A write that deals a new deal tells no moves: its seed never travels."""
    from rebelote.store.play_tables import table_text

    rng = random.Random(21)
    versions = _random_game(rng, "coinche", 300)
    assert len(versions[-1].deals) > 2
    told = crossed = 0
    for _ in range(120):
        i = rng.randrange(len(versions))
        j = rng.randrange(i, min(len(versions), i + 30))
        before = Table.from_json(versions[i].to_json())
        moves = versions[j].moves_after(before)
        if len(versions[j].deals) != len(before.deals):
            assert moves is None  # a new deal was dealt: the others read the table
            crossed += 1
            continue
        assert moves is not None and set(moves) == {"a"}
        after = before.with_moves(json.loads(json.dumps(moves)))
        assert after is not None
        assert table_text(after.to_json()) == table_text(versions[j].to_json())
        told += 1
    assert told > 20 and crossed > 5
    table = versions[10]
    seated = table.with_seat(1, Seat.bot_seat("heuristic"))
    assert seated.moves_after(table) is None  # a seat changed: not only moves
    assert versions[5].moves_after(versions[9]) is None  # backwards
    assert table.with_moves({"a": ["not a move"]}) is None
    assert table.with_moves({"a": "pass"}) is None
    assert table.with_moves({"d": []}) is None


def test_the_moves_told_to_other_workers_never_hold_a_seed() -> None:
    """What a write tells every database role (PostgreSQL's NOTIFY payload is readable by any
    role that may LISTEN) holds no seed or salt of any deal, the one dealt by that write
    included (table-attack #9)."""
    rng = random.Random(4)
    versions = _random_game(rng, "coinche", 200)
    secrets_seen = {x for v in versions for d in v.deals for x in (d.seed, d.salt)}
    for before, after in itertools.pairwise(versions):
        moves = after.moves_after(before)
        text = json.dumps(moves)
        assert not any(secret in text for secret in secrets_seen), text
    wrong = versions[12].moves_after(versions[10])
    assert wrong is not None and versions[11].with_moves(wrong) is None  # not from here
