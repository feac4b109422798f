"""No 500 on any number (issue 17, item 7; table-attack #55): ``"²"``, ``"①"`` and numbers of
thousands of digits pass ``str.isdigit()`` and break ``int()``. Every route, form field, CSV
cell and header reads its numbers through :mod:`rebelote.numbers` (ASCII digits, bounded) and
refuses the others with a 4xx naming the field, changing nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from rebelote.errors import InputError
from rebelote.numbers import is_digits, whole_number
from rebelote.web.app import create_app

API = "/api/counter/games"
ODD: tuple[str, ...] = ("²", "①", "١٢", "1" * 4301, "12\u00b2", "-²", "9" * 19)


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'numbers.db'}")
    with TestClient(app, raise_server_exceptions=False) as c:  # a 500 is answered, not raised
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def coinche_game(client: TestClient) -> dict[str, Any]:
    r = client.post(API, json={"game": "coinche", "target": 1000})
    assert r.status_code == 201, r.text
    return dict(r.json())


@given(st.text(max_size=30))
@settings(max_examples=300, deadline=None)
def test_the_reader_takes_ascii_digits_only_and_names_the_field(text: str) -> None:
    try:
        value = whole_number(text, "target")
    except InputError as e:
        assert e.field == "target"
        stripped = text.strip()
        assert not is_digits(stripped)
    else:
        assert str(value) == text.strip().lstrip("0") or value == 0
        assert text.strip().isascii()


@pytest.mark.parametrize("odd", ODD)
def test_the_api_refuses_odd_numbers_naming_the_field(client: TestClient, odd: str) -> None:
    table = client.post("/api/tables", json={"game": "coinche", "bots": "random"}).json()
    r = client.post(f"/api/tables/{table['id']}/actions", headers=auth(table["token"]),
                    json={"action": f"{odd} hearts"})
    assert r.status_code in (409, 422), r.text
    assert client.get(f"/api/tables/{table['id']}",
                      headers=auth(table["token"])).json()["version"] == table["version"]
    game = coinche_game(client)
    r = client.post(f"{API}/{game['id']}/deals", headers=auth(game["token"]),
                    json={"taker": "NS", "contract": odd, "trump": "hearts",
                          "points": {"NS": 100}})
    assert r.status_code == 422 and "contract" in r.json()["error"], r.text
    for name, value in (("If-Match", f'"{odd}"'), ("Content-Length", odd)):
        r = client.post(f"{API}/{game['id']}/deals",
                        headers={**auth(game["token"]), name: value.encode(),
                                 "Content-Type": "application/json"},
                        content=b'{"void": true}')
        assert r.status_code in (400, 413, 422), (name, r.text)
    assert client.get(f"{API}/{game['id']}", headers=auth(game["token"])).json()[
        "version"] == game["version"]


@pytest.mark.parametrize("odd", ODD)
def test_a_csv_import_with_an_odd_contract_is_422(client: TestClient, odd: str) -> None:
    game = coinche_game(client)
    r = client.post(f"{API}/{game['id']}/deals", headers=auth(game["token"]),
                    json={"taker": "NS", "contract": 90, "trump": "hearts",
                          "points": {"NS": 100}})
    assert r.status_code == 200, r.text
    csv = client.get(f"{API}/{game['id']}/export.csv", headers=auth(game["token"])).text
    assert ",90," in csv
    bad = csv.replace(",90,", f",{odd},", 1)
    r = client.post(f"{API}/import", content=bad.encode(), headers={"Content-Type": "text/csv"})
    assert r.status_code == 422, r.text
    r = client.post("/import", files={"file": ("game.csv", bad.encode(), "text/csv")})
    assert r.status_code == 422, r.text


@pytest.mark.parametrize("odd", ODD)
def test_the_pages_forms_refuse_odd_numbers(client: TestClient, odd: str) -> None:
    r = client.post("/games", data={"game": "coinche", "target": odd})
    assert r.status_code == 422, r.text[:300]
    r = client.post("/games", data={"game": "coinche", "target": "1000"},
                    follow_redirects=False)
    assert r.status_code == 303
    gid = r.headers["location"].rsplit("/", 1)[1]
    for field, value in (("points", odd), ("contract", odd), ("version", odd)):
        form = {"kind": "deal", "taker": "NS", "trump": "hearts", "contract": "90",
                "points": "100", field: value}
        r = client.post(f"/games/{gid}/deals", data=form)
        assert r.status_code < 500, (field, r.text[:300])
    assert client.post(f"/games/{gid}/undo", data={"version": odd}).status_code < 500
    r = client.post(f"/games/{gid}/settings", data={"target": odd})
    assert 400 <= r.status_code < 500, r.text[:300]
    for field in ("target", "pace", "clock"):
        r = client.post("/tables", data={"game": "coinche", "bots": "random", field: odd})
        assert r.status_code == 422, (field, r.text[:300])
    r = client.post("/tables", data={"game": "coinche", "bots": "random", "pace": "0"},
                    follow_redirects=False)
    tid = r.headers["location"].rsplit("/", 1)[1]
    assert client.get(f"/tables/{tid}/fragment?since={odd}").status_code == 200
    r = client.post(f"/tables/{tid}/act", data={"action": "pass", "version": odd},
                    headers={"HX-Request": "true"})
    assert r.status_code < 500, r.text[:300]
    r = client.post(f"/tables/{tid}/act", data={"value": odd, "trump": "hearts"},
                    headers={"HX-Request": "true"})
    assert r.status_code in (409, 422), r.text[:300]


@pytest.mark.parametrize("first", [{"text": '{"token": 5}'}, {"text": '{"token": ["a"]}'},
                                   {"text": "[" * 100_000}, {"bytes": b'{"token": "x"}'},
                                   {"text": '{"token": "' + "x" * 5000 + '"}'}])
def test_odd_first_socket_messages_close_it_without_a_traceback(
        client: TestClient, first: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    from starlette.websockets import WebSocketDisconnect

    table = client.post("/api/tables", json={"game": "coinche", "bots": "random"}).json()
    caplog.set_level("INFO")
    bare = TestClient(client.app)  # no cookie: the secret must come in the first message
    with bare.websocket_connect(f"/api/tables/{table['id']}/ws") as ws:
        ws.send({"type": "websocket.receive", **first})
        assert "token" in ws.receive_json()["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    assert not [r for r in caplog.records if r.exc_info or r.levelname == "ERROR"]


def test_an_aborted_upload_logs_no_traceback(client: TestClient,
                                             caplog: pytest.LogCaptureFixture) -> None:
    """The client sends half a multipart body and goes away (table-attack #49)."""
    import asyncio

    caplog.set_level("INFO")
    body = (b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"g.csv\"\r\n"
            b"Content-Type: text/csv\r\n\r\nn,taker")
    messages = [{"type": "http.request", "body": body, "more_body": True},
                {"type": "http.disconnect"}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/import", "raw_path": b"/import",
             "query_string": b"", "root_path": "", "client": ("127.0.0.1", 5000),
             "server": ("testserver", 80),
             "headers": [(b"host", b"testserver"),
                         (b"content-type", b"multipart/form-data; boundary=b"),
                         (b"content-length", b"900000")]}
    asyncio.run(client.app(scope, receive, send))  # raises nothing
    assert not [r for r in caplog.records if r.exc_info or r.levelname == "ERROR"], [
        r.getMessage() for r in caplog.records]


@pytest.mark.parametrize("module", ["rebelote.numbers", "rebelote.web.security",
                                    "rebelote.table.terminal"])
def test_docstring_examples_run(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
