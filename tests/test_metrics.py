"""What the server tells its operator (issue 36, item 5): ``/metrics`` for the addresses
allowed (loopback by default, and never a client a proxy names from outside), the counts it
holds (requests by route template, table moves and counter writes, bot decisions by outcome,
the store's calls and faults, sockets held open), every worker's added up with several
workers, and one JSON log line per request and per bot decision that never carries a secret,
an id that opens something, or a card."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY
from sqlalchemy import text
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

from rebelote.bots import _REGISTRY, register_bot
from rebelote.bots.base import STOP
from rebelote.bots.random_bot import RandomBot
from rebelote.commands._app import app as cli_app
from rebelote.rules import Rules
from rebelote.store import make_engine
from rebelote.table import Seat, Table
from rebelote.tableserver.bots import BotRunner
from rebelote.tableserver.observe import decision_told
from rebelote.web.app import create_app
from rebelote.web.metrics import MetricsAccess
from rebelote.web.server import JsonLines
from test_web_postgres import pg_url  # noqa: F401  (the fixture: a schema of its own)
from web_fixtures import live_server

PG_URL = os.environ.get("REBELOTE_TEST_PG_URL", "")
LOOPBACK = ("127.0.0.1", 40000)
CARD = re.compile(r"\b(?:[789JQKA]|10)[SHDC♠♥♦♣]\b")


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'm.sqlite3'}"), client=LOOPBACK) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# -- who may read /metrics ---------------------------------------------------------------------
def test_metrics_answer_loopback_only_by_default(client: TestClient) -> None:
    r = client.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert "rebelote_http_requests_total" in r.text
    outside = TestClient(client.app, client=("192.0.2.7", 40000))
    r = outside.get("/metrics")
    assert r.status_code == 403 and "--metrics-allow" in r.text


def test_a_proxy_on_loopback_does_not_open_metrics_to_the_world(client: TestClient) -> None:
    """Behind a proxy on this machine not trusted with --forwarded-allow-ips, every request
    comes from loopback: the address the proxy names decides."""
    for header in ({"X-Forwarded-For": "198.51.100.4"},
                   {"X-Forwarded-For": "127.0.0.1, 198.51.100.4"},
                   {"Forwarded": 'for="[2001:db8::1]:4711"'},
                   {"X-Forwarded-For": "not-an-address"}):
        assert client.get("/metrics", headers=header).status_code == 403, header
    assert client.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1"}).status_code == 200


def test_who_may_read_is_configurable(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    app = create_app(url, metrics_access=MetricsAccess.parse("10.0.0.0/8, 192.0.2.7"))
    with TestClient(app, client=("10.2.3.4", 1)) as c:
        assert c.get("/metrics").status_code == 200
        assert TestClient(app, client=("192.0.2.7", 1)).get("/metrics").status_code == 200
        assert TestClient(app, client=LOOPBACK).get("/metrics").status_code == 403
    closed = create_app(url, metrics_access=MetricsAccess.parse("none"))
    with TestClient(closed, client=LOOPBACK) as c:
        assert c.get("/metrics").status_code == 404


def test_a_bad_allow_list_is_refused_naming_the_option() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--metrics-allow", "10.0.0.0/8,nowhere"])
    assert result.exit_code == 2
    assert "--metrics-allow" in result.output and "'nowhere'" in result.output
    assert "Traceback" not in result.output


# -- what they count ---------------------------------------------------------------------------
def test_requests_are_counted_by_route_template_never_by_path(client: TestClient) -> None:
    before = value("rebelote_http_requests_total", route="/api/counter/games/{game_id}",
                   method="GET", status="200")
    game = client.post("/api/counter/games", json={"game": "belote"}).json()
    for _ in range(3):
        client.get(f"/api/counter/games/{game['id']}", headers=bearer(game["token"]))
    client.get("/api/counter/games/0000000000000000", headers=bearer(game["token"]))
    client.get(f"/no/such/{game['id']}")
    assert value("rebelote_http_requests_total", route="/api/counter/games/{game_id}",
                 method="GET", status="200") == before + 3
    assert value("rebelote_http_requests_total", route="/api/counter/games/{game_id}",
                 method="GET", status="404") >= 1
    assert value("rebelote_http_requests_total", route="unmatched", method="GET",
                 status="404") >= 1
    exposed = client.get("/metrics").text
    assert game["id"] not in exposed and game["token"] not in exposed
    assert value("rebelote_http_request_seconds_count", route="/api/counter/games") >= 1


def test_counter_writes_table_moves_and_store_calls_are_counted(client: TestClient) -> None:
    created = value("rebelote_counter_writes_total", op="create")
    changed = value("rebelote_counter_writes_total", op="change")
    inserts = value("rebelote_store_seconds_count", backend="sqlite", op="insert")
    game = client.post("/api/counter/games", json={"game": "belote"}).json()
    for _ in range(2):
        r = client.post(f"/api/counter/games/{game['id']}/deals", json={"adjust": {"EW": 2}},
                        headers=bearer(game["token"]))
        assert r.status_code == 200
    assert value("rebelote_counter_writes_total", op="create") == created + 1
    assert value("rebelote_counter_writes_total", op="change") == changed + 2
    assert value("rebelote_store_seconds_count", backend="sqlite", op="insert") > inserts

    by_player = value("rebelote_table_actions_total", by="player")
    by_bot = value("rebelote_table_actions_total", by="bot")
    table = client.post("/api/tables", json={"game": "belote", "bots": "heuristic"}).json()
    view = table
    while not view["legal"]:
        view = client.get(f"/api/tables/{table['id']}", headers=bearer(table["token"])).json()
    r = client.post(f"/api/tables/{table['id']}/actions", headers=bearer(table["token"]),
                    json={"action": view["legal"][0]})
    assert r.status_code == 200
    assert value("rebelote_table_actions_total", by="player") == by_player + 1
    assert value("rebelote_table_actions_total", by="bot") >= by_bot + 2  # N and E, then W
    assert value("rebelote_bot_decisions_total", level="heuristic", outcome="answered") >= 2


def test_store_faults_are_counted(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (x INTEGER)"))
    other = value("rebelote_store_errors_total", backend="sqlite", fault="other")
    locked = value("rebelote_store_errors_total", backend="sqlite", fault="locked")
    with pytest.raises(OperationalError), engine.connect() as conn:
        conn.execute(text("SELECT * FROM no_such_table"))
    assert value("rebelote_store_errors_total", backend="sqlite", fault="other") == other + 1
    holder = sqlite3.connect(path)
    holder.execute("BEGIN EXCLUSIVE")  # another process holding the file's lock
    os.environ["REBELOTE_SQLITE_BUSY_MS"] = "50"
    try:
        fresh = make_engine(f"sqlite:///{path}")
        with pytest.raises(OperationalError), fresh.begin() as conn:
            conn.execute(text("INSERT INTO t VALUES (1)"))
        fresh.dispose()
    finally:
        del os.environ["REBELOTE_SQLITE_BUSY_MS"]
        holder.rollback()
        holder.close()
        engine.dispose()
    assert value("rebelote_store_errors_total", backend="sqlite", fault="locked") == locked + 1


class UntilTold(RandomBot):
    """A search that thinks until its time is up, then answers (cut short)."""

    name = "until-told"

    def act(self, observation: Any, rng: random.Random) -> Any:
        stop = STOP.get()
        while stop is not None and not stop():
            time.sleep(0.005)
        return observation.legal[-1]


class Broken(RandomBot):
    name = "broken"

    def act(self, observation: Any, rng: random.Random) -> Any:
        raise RuntimeError("a broken bot")


@pytest.fixture
def odd_bots() -> Iterator[None]:
    register_bot("until-told", UntilTold)
    register_bot("broken", Broken)
    try:
        yield
    finally:
        _REGISTRY.pop("until-told", None)
        _REGISTRY.pop("broken", None)


def test_bot_decisions_are_timed_and_counted_by_outcome_with_a_log_line(
        odd_bots: None, caplog: pytest.LogCaptureFixture) -> None:
    runner = BotRunner(workers=1, seconds=0.2)
    runner.listeners.append(decision_told)
    cut = value("rebelote_bot_decisions_total", level="until-told", outcome="cut_short")
    failed = value("rebelote_bot_decisions_total", level="broken", outcome="fallback_failed")
    timed = value("rebelote_bot_decision_seconds_count", level="until-told")

    def table(spec: str) -> Table:
        return Table.new(Rules.preset("official", "coinche"), 1000, [Seat.bot_seat(spec)] * 4,
                         dealer=3)

    with caplog.at_level(logging.INFO, "rebelote.bots"):
        asyncio.run(runner.decide("t1", 1, table("until-told")))
        asyncio.run(runner.decide("t2", 1, table("broken")))
    runner.close()
    assert value("rebelote_bot_decisions_total", level="until-told",
                 outcome="cut_short") == cut + 1
    assert value("rebelote_bot_decisions_total", level="broken",
                 outcome="fallback_failed") == failed + 1
    assert value("rebelote_bot_decision_seconds_count", level="until-told") == timed + 1
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "rebelote.bots"]
    assert [(d["bot"], d["outcome"]) for d in lines] == [("until-told", "cut_short"),
                                                          ("broken", "fallback_failed")]
    assert set(lines[0]) == {"event", "bot", "game", "deal", "phase", "outcome", "ms", "ahead",
                             "client",
                             "waited_ms"}
    assert 50 <= lines[0]["ms"] < 1000 and lines[0]["phase"] == "auction"


# -- the log lines: one a request, one a bot decision, nothing secret -----------------------------
def test_the_log_lines_carry_no_secret_no_id_and_no_card(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    secrets_seen: set[str] = set()
    with caplog.at_level(logging.INFO, "rebelote"):
        game = client.post("/api/counter/games", json={"game": "coinche"}).json()
        secrets_seen |= {game["token"], game["id"], game["view"]}
        client.post(f"/api/counter/games/{game['id']}/deals", json={"adjust": {"NS": 3}},
                    headers=bearer(game["token"]))
        client.get(f"/api/counter/views/{game['view']}")
        client.get(f"/join/{game['id']}?key={game['token']}")
        host = client.post("/api/tables", json={"game": "coinche", "bots": "pimc:fast",
                                                "friends": ["N"]}).json()
        secrets_seen |= {host["token"], host["id"], host["code"], *host["invites"].values()}
        client.get(f"/t/{host['code']}?invite={host['invites']['N']}")
        played = client.post("/api/tables", json={"game": "coinche", "bots": "pimc:fast"}
                             ).json()
        secrets_seen |= {played["token"], played["id"], played["code"]}
        hands: set[str] = set(played["hand"])
        moves = 0
        for _ in range(200):
            view = client.get(f"/api/tables/{played['id']}",
                              headers=bearer(played["token"])).json()
            hands |= set(view["hand"])
            if moves == 3:
                break
            if view["legal"]:
                r = client.post(f"/api/tables/{played['id']}/actions",
                                headers=bearer(played["token"]),
                                json={"action": view["legal"][0]})
                assert r.status_code == 200, r.text
                moves += 1
            else:
                time.sleep(0.02)
        concours = client.post("/api/concours", json={
            "name": "Le concours", "game": "belote", "parties": 2, "deals": 12,
            "ranking": "points", "exempt": "half",
            "teams": [{"name": f"É{i}", "players": [f"A{i}", f"B{i}"]} for i in range(4)],
        }).json()
        secrets_seen |= {concours["token"], concours["id"], concours["view"]}
        client.get(f"/salle/{concours['view']}")
    assert hands, "the test saw cards in South's hand"
    requests = [r for r in caplog.records if r.name == "rebelote.requests"]
    bots = [r for r in caplog.records if r.name == "rebelote.bots"]
    assert len(requests) >= 12 and bots
    for record in requests + bots:
        line = JsonLines().format(record)
        fields = json.loads(line)  # one JSON object a line
        for secret in secrets_seen:
            assert secret not in line, (secret, line)
        assert not CARD.search(line), line
        if record.name == "rebelote.requests":
            assert set(fields) == {"time", "level", "logger", "event", "method", "route",
                                   "status", "ms", "bytes", "client"}
    routes = {json.loads(r.getMessage())["route"] for r in requests}
    assert {"/api/tables/{table_id}/actions", "/join/{game_id}", "/t/{code}",
            "/salle/{view}"} <= routes


# -- several workers ---------------------------------------------------------------------------
def scrape(base: str) -> dict[str, float]:
    out = {}
    for line in httpx.get(f"{base}/metrics", timeout=10).text.splitlines():
        if line and not line.startswith("#"):
            name, _, number = line.rpartition(" ")
            out[name] = float(number)
    return out


@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set")
def test_two_workers_report_every_request_once(pg_url: str) -> None:  # noqa: F811
    """Each scrape reaches one of the two workers; each reports both workers' counts."""
    key = 'rebelote_http_requests_total{method="POST",route="/api/counter/games",status="201"}'
    with live_server(pg_url, None, "--workers", "2") as base:
        for _ in range(40):  # a new connection each: both workers answer some
            with httpx.Client(base_url=base, timeout=10) as one:
                assert one.post("/api/counter/games", json={"game": "belote"}).status_code \
                    == 201
        seen = {scrape(base).get(key) for _ in range(8)}
    assert seen == {40.0}


def test_open_sockets_are_gauged_while_they_last(client: TestClient) -> None:
    table = client.post("/api/tables", json={"game": "belote", "bots": "heuristic"}).json()
    before = value("rebelote_open_sockets", kind="websocket")
    with client.websocket_connect(f"/api/tables/{table['id']}/ws") as ws:
        ws.send_json({"token": table["token"]})
        assert "seat" in ws.receive_json()
        assert value("rebelote_open_sockets", kind="websocket") == before + 1
    deadline = time.monotonic() + 5
    while value("rebelote_open_sockets", kind="websocket") != before:
        assert time.monotonic() < deadline, "the socket's gauge never went down"
        time.sleep(0.02)
    assert value("rebelote_http_requests_total", route="/api/tables/{table_id}/ws",
                 method="WS", status="101") >= 1


def test_event_streams_are_gauged_on_a_live_server(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'e.sqlite3'}") as base:
        game = httpx.post(f"{base}/api/counter/games", json={"game": "belote"}).json()
        with httpx.stream("GET", f"{base}/views/{game['view']}/events",
                          timeout=10) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()  # kept: a dropped iterator closes the stream
            assert next(lines).startswith("retry:")
            assert scrape(base)['rebelote_open_sockets{kind="event_stream"}'] == 1.0
        deadline = time.monotonic() + 10
        while scrape(base)['rebelote_open_sockets{kind="event_stream"}'] != 0.0:
            assert time.monotonic() < deadline, "the stream's gauge never went down"
            time.sleep(0.1)
