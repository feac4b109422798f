"""The web server behind a real deployment and under load from one client (issue 17, items 6, 8
and 9; the requests of the attacker's report): rates per client (429 with Retry-After), longer
join codes that end with their table, caps on sockets and live sheets per client, slow headers
and bodies timed out, forwarded headers trusted only from the proxy named, Secure cookies and
HSTS on HTTPS, the Host allow-list on the WebSocket, no-store on the views that hold a hand."""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rebelote.store.play_tables import CODE_ALPHABET, CODE_LENGTH
from rebelote.web.app import create_app
from rebelote.web.limits import Limits
from rebelote.web.security import KEYS_COOKIE
from rebelote.web.server import RedactSecrets
from web_fixtures import live_server


def app_client(tmp_path: Path, **limits: Any) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'deploy.db'}",
                                 limits=Limits(**{"burst_minutes": 1, **limits})))


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as c:
        yield c


# -- item 6: rates per client (table-attack #20, #44) ----------------------------------------
def test_table_and_game_creations_are_limited_per_client(tmp_path: Path) -> None:
    with app_client(tmp_path, tables_per_minute=3, tables_burst=3, games_per_minute=2) as c:
        for _ in range(3):
            assert c.post("/api/tables", json={"game": "coinche"}).status_code == 201
        r = c.post("/api/tables", json={"game": "coinche"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert "rate" in r.json()["error"]
        page = c.post("/tables", data={"game": "coinche"}, follow_redirects=False)
        assert page.status_code == 429 and "text/html" in page.headers["content-type"]
        for _ in range(2):
            assert c.post("/api/counter/games", json={"game": "belote"}).status_code == 201
        assert c.post("/api/counter/games", json={"game": "belote"}).status_code == 429
        assert c.post("/games", data={"game": "belote"}).status_code == 429
        # an import creates a game too (table-attack #44: its route was not counted), and so
        # does a concours (its organiser opens a counter game per table)
        r = c.post("/api/counter/games/import", json={"game": "belote"})
        assert r.status_code == 429, r.text
        assert c.post("/api/concours", json={"name": "Club"}).status_code == 429
        assert c.get("/healthz").status_code == 200  # the rest is served


def test_a_club_evening_never_meets_the_default_limits(client: TestClient) -> None:
    # forty tables and forty sheets from one address (a club's box) in a minute; the bots'
    # level counts in no limit: débutant's, which answer at once (the default level's first
    # calls took 0.3 s of CPU a table)
    for _ in range(40):
        assert client.post("/api/tables", json={"game": "coinche", "bots": "debutant"}
                           ).status_code == 201
        assert client.post("/api/counter/games", json={"game": "belote"}).status_code == 201
    for _ in range(10):  # codes mistyped
        assert client.post("/api/tables/join", json={"code": "ZZZZZZZZ"}).status_code == 404


def test_failed_joins_are_limited_per_client_and_good_ones_are_not(tmp_path: Path) -> None:
    with app_client(tmp_path, failed_joins_per_minute=5) as c:
        t = c.post("/api/tables", json={"game": "coinche", "bots": "random"}).json()
        for _ in range(3):  # good joins do not count
            assert c.post("/api/tables/join", json={"code": t["code"]}).status_code == 201
        for i in range(5):
            code = CODE_ALPHABET[i] * CODE_LENGTH
            assert c.post("/api/tables/join", json={"code": code}).status_code in (404, 409)
        r = c.post("/api/tables/join", json={"code": "ABCDEFGH"})
        assert r.status_code == 429 and r.headers["retry-after"]
        assert c.get("/t/ABCDEFGH").status_code == 429  # the join page counts too


def test_join_codes_are_longer_and_end_with_their_table(client: TestClient) -> None:
    t = client.post("/api/tables", json={"game": "coinche", "bots": "random",
                                         "target": 1}).json()
    assert len(t["code"]) == CODE_LENGTH == 8 and set(t["code"]) <= set(CODE_ALPHABET)
    assert client.get(f"/t/{t['code']}").status_code == 200
    # S plays the game (target 1) to its end: a bid at its first call, so that the deal is
    # played (four passes would deal again), then its first legal move each time
    view, first = t, True
    for _ in range(100):
        if view["over"]:
            break
        legal = view["legal"]
        # (a random bot's générale before S's first call leaves S only "pass")
        action = next((a for a in legal if a != "pass"), legal[0]) if first else legal[0]
        first = False
        r = client.post(f"/api/tables/{t['id']}/actions", headers=auth(t["token"]),
                        json={"action": action})
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["over"]
    assert client.get(f"/t/{t['code']}").status_code == 404
    assert client.post("/api/tables/join", json={"code": t["code"]}).status_code == 404


# -- item 8: no-store on the views that hold a hand ------------------------------------------
def test_views_that_hold_a_hand_are_not_stored(client: TestClient) -> None:
    r = client.post("/tables", data={"game": "coinche", "bots": "random", "pace": "0"},
                    follow_redirects=False)
    tid = r.headers["location"].rsplit("/", 1)[1]
    for path in (f"/tables/{tid}", f"/tables/{tid}/fragment", f"/api/tables/{tid}"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["cache-control"] == "no-store", path
    api = client.post("/api/tables", json={"game": "coinche"})
    assert api.headers["cache-control"] == "no-store"


# -- item 9: behind a real deployment ----------------------------------------------------------
def test_https_gives_secure_cookies_and_hsts(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'https.db'}")
    with TestClient(app, base_url="https://club.example") as c:
        r = c.post("/tables", data={"game": "coinche"}, follow_redirects=False)
        cookie = next(v for v in r.headers.get_list("set-cookie") if KEYS_COOKIE in v)
        assert "Secure" in cookie
        assert r.headers["strict-transport-security"].startswith("max-age=")
    with TestClient(app) as plain:
        assert "strict-transport-security" not in plain.get("/").headers


def test_the_socket_checks_the_host_allow_list(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'hosts.db'}", allowed_hosts=["testserver"])
    with TestClient(app) as c:
        t = c.post("/api/tables", json={"game": "coinche"}).json()
        with pytest.raises(WebSocketDisconnect) as refused, c.websocket_connect(
                f"/api/tables/{t['id']}/ws", headers={"Host": "evil.example:8811"}):
            pass
        assert refused.value.code == 4400
        with c.websocket_connect(f"/api/tables/{t['id']}/ws") as ws:
            ws.send_json({"token": t["token"]})
            assert ws.receive_json()["id"] == t["id"]


def test_a_client_opens_a_bounded_number_of_sockets_per_table(tmp_path: Path) -> None:
    with app_client(tmp_path, sockets_per_table=2) as c:
        t = c.post("/api/tables", json={"game": "coinche"}).json()
        other = c.post("/api/tables", json={"game": "coinche"}).json()
        path = f"/api/tables/{t['id']}/ws"
        with c.websocket_connect(path) as one, c.websocket_connect(path) as two:
            for ws in (one, two):
                ws.send_json({"token": t["token"]})
                ws.receive_json()
            with pytest.raises(WebSocketDisconnect) as refused, c.websocket_connect(path):
                pass
            assert refused.value.code == 4429
            with c.websocket_connect(f"/api/tables/{other['id']}/ws") as ws:  # another table
                ws.send_json({"token": other["token"]})
                assert ws.receive_json()["id"] == other["id"]
        with c.websocket_connect(path) as again:  # closed ones are counted out
            again.send_json({"token": t["token"]})
            assert again.receive_json()["id"] == t["id"]


def test_the_access_log_shows_no_secret_of_a_link() -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d', ("127.0.0.1:5000", "GET",
                                                           "/join/a3ec?key=55IbJp7U", "1.1",
                                                           200), None)
    RedactSecrets().filter(record)
    assert "55IbJp7U" not in record.getMessage() and "/join/a3ec?key=" in record.getMessage()


def _served(tmp_path: Path, *options: str) -> Any:
    return live_server(f"sqlite:///{tmp_path / 'served.db'}", None, *options)


def test_serve_trusts_forwarded_headers_only_from_the_proxy_named(tmp_path: Path) -> None:
    https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
    with _served(tmp_path, "--forwarded-allow-ips", "127.0.0.1") as base:
        r = httpx.post(f"{base}/tables", data={"game": "coinche"}, headers=https)
        assert r.status_code == 303
        cookie = next(v for v in r.headers.get_list("set-cookie") if KEYS_COOKIE in v)
        assert "Secure" in cookie and "strict-transport-security" in r.headers
    with _served(tmp_path) as base:  # no proxy named: the headers are anyone's words
        r = httpx.post(f"{base}/tables", data={"game": "coinche"}, headers=https)
        cookie = next(v for v in r.headers.get_list("set-cookie") if KEYS_COOKIE in v)
        assert "Secure" not in cookie and "strict-transport-security" not in r.headers


def test_serve_times_out_slow_headers_and_bodies_and_caps_live_sheets(tmp_path: Path) -> None:
    limits = "header_timeout=1,body_timeout=1,streams_per_game=2,streams_per_client=3"
    with _served(tmp_path, "--limits", limits) as base:
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as slow:
            slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and nothing more
            started = time.monotonic()
            assert slow.recv(1000) == b""  # closed by the server
            assert time.monotonic() - started < 8
        with socket.create_connection(("127.0.0.1", port), timeout=10) as slow:
            slow.sendall(b"POST /api/counter/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 900\r\n\r\n{")
            answer = slow.recv(1000)
            assert answer.startswith(b"HTTP/1.1 408"), answer
        with socket.create_connection(("127.0.0.1", port), timeout=10) as slow:
            # a body that trickles in steadily, a byte every 0.3 s (table-attack #49), is cut
            # off too: the whole body has body_timeout
            slow.sendall(b"POST /api/counter/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 900\r\n\r\n{")
            slow.setblocking(False)
            started, answer = time.monotonic(), b""
            while not answer and time.monotonic() - started < 8:
                with suppress(BlockingIOError):
                    slow.sendall(b" ")
                    answer = slow.recv(1000)
                time.sleep(0.3)
            assert answer.startswith(b"HTTP/1.1 408"), answer
        games = [httpx.post(f"{base}/api/counter/games", json={"game": "belote"}).json()
                 for _ in range(2)]
        views = [g["view"] for g in games]
        with httpx.Client(base_url=base, timeout=10) as http, ExitStack() as stack:

            def open_sheet(view: str) -> int:
                return stack.enter_context(http.stream("GET", f"/views/{view}/events")
                                           ).status_code

            assert [open_sheet(views[0]) for _ in range(2)] == [200, 200]
            assert open_sheet(views[0]) == 429  # that game's cap
            assert open_sheet(views[1]) == 200  # another game's sheet still opens
            assert open_sheet(views[1]) == 429  # this client's cap (3)


@pytest.mark.parametrize("module", ["rebelote.web.limits", "rebelote.web.server"])
def test_docstring_examples_run(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
