"""The counter, safe on the internet: private games, no cross-site writes, bounded work, no 500
on bad input, security headers, CSV formula injection, the network warning of ``serve``."""

from __future__ import annotations

import csv
import io
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from rebelote.export import match_from_csv, match_to_csv
from rebelote.web.app import create_app
from rebelote.web.counter.service import MAX_DEALS
from rebelote.web.security import KEYS_COOKIE, MAX_BODY, KeyRing
from web_fixtures import free_port, live_server

API = "/api/counter/games"
DEAL = {"taker": "NS", "points": {"NS": 100}}


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'secure.sqlite3'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as c:
        yield c


def create(client: TestClient, **fields: Any) -> dict[str, Any]:
    r = client.post(API, json={"game": "belote", **fields})
    assert r.status_code == 201, r.text
    return dict(r.json())


def key(game: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['token']}"}


def error_of(r: Any, status: int, *words: str) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    message = str(r.json()["error"])
    for word in words:
        assert word in message, message
    return message


# -- 1. private games ------------------------------------------------------------------------
def test_creating_a_game_answers_its_secret_and_view(client: TestClient) -> None:
    game = create(client)
    assert len(game["token"]) >= 32 and game["view"] != game["id"]
    again = client.get(f"{API}/{game['id']}", headers=key(game)).json()
    assert "token" not in again and again["view"] == game["view"]


def test_every_write_needs_the_secret(client: TestClient) -> None:
    game = create(client)
    other = create(client)
    gid = game["id"]
    writes = [
        ("POST", f"{API}/{gid}/deals", DEAL),
        ("PUT", f"{API}/{gid}/deals/1", DEAL),
        ("DELETE", f"{API}/{gid}/deals/last", None),
        ("PATCH", f"{API}/{gid}", {"teams": {"NS": "Pirates"}}),
        ("DELETE", f"{API}/{gid}", None),
    ]
    for headers in ({}, key(other), {"Authorization": "Bearer wrong"},
                    {"Authorization": f"Basic {game['token']}"}):
        for method, url, body in writes:
            r = client.request(method, url, json=body, headers=headers)
            error_of(r, 403, "Authorization")
    for url in (f"{API}/{gid}", f"{API}/{gid}/export.json", f"{API}/{gid}/export.csv",
                f"{API}/{gid}/sheet.pdf"):
        error_of(client.get(url), 403, "Authorization")
    assert client.get(f"{API}/{gid}", headers=key(game)).json()["version"] == 1
    error_of(client.post(f"{API}/nope/deals", json=DEAL, headers=key(game)), 404, "nope")


def test_the_list_shows_only_the_callers_games(client: TestClient) -> None:
    mine = create(client, teams={"NS": "Moi", "EW": "Toi"})
    create(client)
    assert client.get(API, params={"limit": 500}).json() == {"games": []}
    games = client.get(API, headers=key(mine)).json()["games"]
    assert [g["id"] for g in games] == [mine["id"]]


def test_the_view_link_reads_without_the_secret_and_writes_nothing(
        client: TestClient) -> None:
    game = create(client)
    client.post(f"{API}/{game['id']}/deals", json=DEAL, headers=key(game))
    seen = client.get(f"/api/counter/views/{game['view']}").json()
    assert seen["totals"] == {"NS": 100, "EW": 62} and "id" not in seen and "token" not in seen
    page = client.get(f"/views/{game['view']}")
    assert page.status_code == 200 and "100" in page.text
    assert game["id"] not in page.text and game["token"] not in page.text
    assert "deal-form" not in page.text
    error_of(client.get("/api/counter/views/0123456789abcdef"), 404)


def test_pages_keep_secrets_in_an_httponly_cookie_and_the_edit_link_shares_them(
        db_url: str) -> None:
    app = create_app(db_url)
    with TestClient(app) as scorer, TestClient(app) as friend, TestClient(app) as stranger:
        r = scorer.post("/games", data={"game": "belote"}, follow_redirects=False)
        assert r.status_code == 303
        cookie = next(c for c in r.headers.get_list("set-cookie") if KEYS_COOKIE in c)
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
        gid = r.headers["location"].rsplit("/", 1)[1]
        secret = KeyRing.parse(scorer.cookies[KEYS_COOKIE]).get(gid)
        assert secret
        assert scorer.get(f"/games/{gid}").status_code == 200
        # another browser sees neither the game nor its place in the list
        assert stranger.get(f"/games/{gid}").status_code == 403
        assert gid not in stranger.get("/games").text
        r = stranger.post(f"/games/{gid}/deals", data={"taker": "NS", "points": "100"})
        assert r.status_code == 403 and "text/html" in r.headers["content-type"]
        r = stranger.post(f"/games/{gid}/delete", follow_redirects=False)
        assert scorer.get(f"/games/{gid}").status_code == 200
        # the edit link hands the secret on purpose
        assert friend.get(f"/join/{gid}?key=wrong").status_code == 403
        # it asks first: a page of another site may send a browser here with its own game
        r = friend.get(f"/join/{gid}?key={secret}", follow_redirects=False)
        assert r.status_code == 200 and 'id="add-game"' in r.text
        assert KEYS_COOKIE not in r.headers.get("set-cookie", "")
        r = friend.post(f"/join/{gid}", data={"key": secret}, follow_redirects=False,
                        headers={"Origin": "https://evil.example"})
        assert r.status_code == 403  # the yes must come from this site's own page
        r = friend.post(f"/join/{gid}", data={"key": "wrong"}, follow_redirects=False)
        assert r.status_code == 403
        r = friend.post(f"/join/{gid}", data={"key": secret}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/games/{gid}"
        assert friend.get(f"/join/{gid}?key={secret}", follow_redirects=False
                          ).status_code == 303  # held already: straight to the game
        assert friend.post(f"/games/{gid}/deals", data={
            "taker": "NS", "points": "100", "trump": "hearts"}).status_code == 200
        assert gid in friend.get("/games").text


def test_cookies_are_secure_behind_https(db_url: str) -> None:
    with TestClient(create_app(db_url), base_url="https://counter.example") as c:
        r = c.post("/games", data={"game": "belote"}, follow_redirects=False)
        cookie = next(c for c in r.headers.get_list("set-cookie") if KEYS_COOKIE in c)
        assert "Secure" in cookie


# -- 2. no cross-site writes -----------------------------------------------------------------
def test_no_cross_site_writes(client: TestClient) -> None:
    game = create(client)
    gid = game["id"]
    evil = {"Origin": "https://evil.example", **key(game)}
    error_of(client.post(f"{API}/{gid}/deals", json=DEAL, headers=evil), 403, "Origin")
    error_of(client.delete(f"{API}/{gid}", headers=evil), 403)
    fetch = {"Sec-Fetch-Site": "cross-site", **key(game)}
    error_of(client.patch(f"{API}/{gid}", json={"teams": {"NS": "x"}}, headers=fetch), 403)
    null = {"Origin": "null", **key(game)}
    error_of(client.post(f"{API}/{gid}/deals", json=DEAL, headers=null), 403)
    # a plain form post or a no-cors fetch sends text/plain: refused
    plain = {"Content-Type": "text/plain", **key(game)}
    error_of(client.post(f"{API}/{gid}/deals", content=json.dumps(DEAL), headers=plain),
             415, "application/json")
    error_of(client.post(API, content='{"game": "belote"}', headers={
        "Content-Type": "application/x-www-form-urlencoded"}), 415)
    big = {"game": "belote", "deals": [{"void": True}] * 20_000}
    error_of(client.post(f"{API}/import", content=json.dumps(big),
                         headers={"Content-Type": "text/plain"}), 415)
    # the HTML forms: another site's page cannot post them
    r = client.post(f"/games/{gid}/delete", headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and "text/html" in r.headers["content-type"]
    # the same site, and clients without browser headers, may
    same = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin", **key(game)}
    assert client.post(f"{API}/{gid}/deals", json=DEAL, headers=same).status_code == 200
    assert client.get(f"{API}/{gid}", headers=key(game)).json()["version"] == 2


def test_allowed_hosts(db_url: str) -> None:
    with TestClient(create_app(db_url, allowed_hosts=["counter.example"]),
                    base_url="http://counter.example") as c:
        assert c.get("/").status_code == 200
        error_of(c.get("/api/counter/games", headers={"Host": "evil.example"}), 400, "Host")
        assert c.get("/", headers={"Host": "counter.example:8000"}).status_code == 200


# -- 3. bounded work -------------------------------------------------------------------------
def test_bodies_are_limited_while_they_stream(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"game": "belote", "teams": {"NS": "'
        for _ in range(MAX_BODY // 65536 + 2):
            yield b"x" * 65536
        yield b'"}}'

    r = client.post(API, content=chunks(), headers={"Content-Type": "application/json"})
    error_of(r, 413, "body", "too large")
    r = client.post("/import", content=chunks(), headers={
        "Content-Type": "multipart/form-data; boundary=x"})
    assert r.status_code == 413
    r = client.post(API, content=b"{}", headers={"Content-Type": "application/json",
                                                 "Content-Length": str(200_000_000)})
    assert r.status_code == 413


def test_a_game_holds_at_most_500_deals(client: TestClient) -> None:
    too_many = {"game": "belote", "target": 100_000, "deals": [{"void": True}] * (MAX_DEALS + 1)}
    error_of(client.post(API, json=too_many), 422, "deals", "500")
    error_of(client.post(f"{API}/import", json=too_many), 422, "500")
    full = create(client, target=100_000, deals=[{"void": True}] * MAX_DEALS)
    error_of(client.post(f"{API}/{full['id']}/deals", json={"void": True}, headers=key(full)),
             422, "deals", "500")
    page = client.get(f"{API}/{full['id']}/export.csv", headers=key(full))
    assert page.status_code == 200


def test_marks_targets_starts_and_corrections_are_bounded(client: TestClient) -> None:
    game = create(client)
    error_of(client.post(f"{API}/{game['id']}/deals", json={"adjust": {"NS": 99_999}},
                         headers=key(game)), 422, "adjust.NS", "5000")
    error_of(client.post(API, json={"game": "belote", "target": 10**12}), 422, "target")
    error_of(client.post(API, json={"game": "belote", "start": {"EW": -10**7}}), 422,
             "start.EW")


# -- 4. no 500 on bad input ------------------------------------------------------------------
@pytest.mark.parametrize(("body", "words"), [
    ('{"game": "belote", "target": 9223372036854775808}', ("target",)),
    ('{"game": "belote", "target": ' + "9" * 5000 + "}", ("target", "too large")),
    ('{"game": "belote", "target": 1e400}', ("target", "too large")),
    ('{"game": "belote", "target": NaN}', ("target", "NaN")),
    ('{"game": "belote", "teams": ' + "[" * 10_000 + "]" * 10_000 + "}", ("nested",)),
    ('{"game": "belote", "teams": {"NS": "\\ud800"}}', ("teams.NS", "surrogate")),
    ('{"game": "belote", "teams": {"NS": "a", "\\udfff": "b"}}', ("surrogate",)),
    (b'{"game": "belote\xff"}', ("UTF-8",)),
])
def test_bad_numbers_and_text_answer_422_naming_the_field(
        client: TestClient, body: str | bytes, words: tuple[str, ...]) -> None:
    r = client.post(API, content=body, headers={"Content-Type": "application/json"})
    error_of(r, 422, *words)


def test_bad_input_on_the_hot_path_and_settings(client: TestClient) -> None:
    game = create(client)
    gid = game["id"]
    bad = {"taker": "NS", "points": {"NS": 2**64}}
    error_of(client.post(f"{API}/{gid}/deals", json=bad, headers=key(game)), 422, "points.NS")
    r = client.patch(f"{API}/{gid}", content='{"teams": {"EW": "\\ud83d"}}',
                     headers={"Content-Type": "application/json", **key(game)})
    error_of(r, 422, "teams.EW")
    r = client.put(f"{API}/{gid}/deals/99999999999999999999999", json=DEAL, headers=key(game))
    error_of(r, 422, "n")
    error_of(client.delete(f"{API}/{gid}", headers={"If-Match": "x" * 5000, **key(game)}),
             422, "If-Match")


def test_delete_honours_if_match(client: TestClient) -> None:
    game = create(client)
    gid = game["id"]
    client.post(f"{API}/{gid}/deals", json=DEAL, headers=key(game))
    error_of(client.delete(f"{API}/{gid}", headers={"If-Match": '"1"', **key(game)}), 409)
    assert client.delete(f"{API}/{gid}", headers={"If-Match": '"2"', **key(game)}
                         ).status_code == 204


def test_a_read_only_store_answers_503_and_healthz_says_so(tmp_path: Path) -> None:
    path = tmp_path / "ro.sqlite3"
    with TestClient(create_app(f"sqlite:///{path}")) as c:
        game = create(c)
        assert c.get("/healthz").json()["ok"] is True
    with TestClient(create_app(f"sqlite:///file:{path}?mode=ro&uri=true")) as c:
        health = c.get("/healthz")
        assert health.status_code == 503 and health.json()["ok"] is False
        assert "cannot write" in health.json()["store"]
        assert c.get(f"{API}/{game['id']}", headers=key(game)).status_code == 200
        r = c.post(f"{API}/{game['id']}/deals", json=DEAL, headers=key(game))
        error_of(r, 503, "store", "nothing was changed")
        error_of(c.post(API, json={"game": "belote"}), 503, "store")
        page = c.post("/games", data={"game": "belote"})
        assert page.status_code == 503 and "text/html" in page.headers["content-type"]


def test_an_error_keeps_the_connection_alive(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'alive.sqlite3'}") as base:
        host, port = base.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as s:
            for body in (b'{"game": ' + b"[" * 10_000, b'{"game": "belote"}'):
                s.sendall(b"POST /api/counter/games HTTP/1.1\r\nHost: " + host.encode()
                          + b"\r\nContent-Type: application/json\r\nContent-Length: "
                          + str(len(body)).encode() + b"\r\n\r\n" + body)
            answers = b""
            deadline = time.monotonic() + 10
            while answers.count(b"HTTP/1.1 ") < 2 and time.monotonic() < deadline:
                answers += s.recv(65536)
        assert answers.startswith(b"HTTP/1.1 422")
        assert b"HTTP/1.1 201" in answers


# -- 5. headers and CSV ----------------------------------------------------------------------
def test_security_headers_on_every_answer(client: TestClient) -> None:
    game = create(client)
    for url in ("/", "/games", f"/games/{game['id']}", "/static/style.css", API,
                "/nowhere", "/openapi.json", f"/views/{game['view']}"):
        h = client.get(url, headers=key(game)).headers
        assert "frame-ancestors 'none'" in h["content-security-policy"], url
        assert "script-src 'self'" in h["content-security-policy"]
        assert "unsafe-inline" not in h["content-security-policy"]
        assert h["x-content-type-options"] == "nosniff"
        assert h["referrer-policy"] == "same-origin"
        assert h["x-frame-options"] == "DENY"
    docs = client.get("/docs")
    assert "'sha256-" in docs.headers["content-security-policy"]


@pytest.mark.parametrize("name", ["=HYPERLINK(\"http://evil\",\"x\")", "+1+1", "-2+3",
                                  "@SUM(A1)", "'quoted", "''=twice", "Nous"])
def test_csv_cells_cannot_be_formulas_and_read_back_unchanged(name: str) -> None:
    from rebelote.match import Match
    from rebelote.rules import Rules

    game = Match(Rules.preset("official", "belote"), teams=(name, "Eux"))
    text = match_to_csv(game)
    for row in csv.reader(io.StringIO(text)):
        for cell in row:
            assert not cell or cell[0] not in "=+-@\t\r" or cell.lstrip("-").isdigit(), cell
    assert match_from_csv(text).teams == (name, "Eux")


def test_csv_export_of_a_game_is_formula_safe(client: TestClient) -> None:
    game = create(client, teams={"NS": "=1+1", "EW": "@me"})
    text = client.get(f"{API}/{game['id']}/export.csv", headers=key(game)).text
    assert "'=1+1" in text and "'@me" in text
    back = client.post(f"{API}/import", content=text.encode(),
                       headers={"Content-Type": "text/csv"}).json()
    assert back["teams"] == {"NS": "=1+1", "EW": "@me"}


# -- 6. serve on the network -----------------------------------------------------------------
def test_serve_on_all_interfaces_warns(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "rebelote.cli", "serve", "--host", "0.0.0.0", "--port",
         str(port), "--db", f"sqlite:///{tmp_path / 'net.sqlite3'}", "--log-level",
         "warning"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=15)
    assert "reachable from the network" in out and "--allowed-hosts" in out


def test_every_product_hands_out_secrets_of_one_scheme(client: TestClient) -> None:
    """A counter game's token, a table seat's, an invitation to a kept seat and a concours's
    organiser's token: each 192 random bits written in 32 URL-safe characters
    (rebelote.secret.new_secret), and each one opens what it was made for."""
    from rebelote.secret import secret_hash

    game = create(client)
    table = client.post("/api/tables", json={"game": "coinche", "bots": "random",
                                             "friends": ["N"], "pace": 0}).json()
    concours = client.post("/api/concours", json={
        "name": "Concours", "game": "belote", "parties": 2, "deals": 4,
        "teams": [{"name": f"T{i}"} for i in range(4)]}).json()
    made = [game["token"], table["token"], table["invites"]["N"], concours["token"]]
    assert [len(t) for t in made] == [32] * 4
    assert all(t.replace("-", "").replace("_", "").isalnum() for t in made)
    assert len({secret_hash(t) for t in made}) == 4
    auth = [{"Authorization": f"Bearer {t}"} for t in made]
    assert client.get(f"{API}/{game['id']}", headers=auth[0]).status_code == 200
    assert client.get(f"/api/tables/{table['id']}", headers=auth[1]).status_code == 200
    friend = client.post("/api/tables/join", json={"code": table["code"], "invite": made[2]})
    assert friend.status_code == 201 and friend.json()["seat"] == "N"
    assert client.post(f"/api/concours/{concours['id']}/parties",
                       headers=auth[3]).status_code == 200
