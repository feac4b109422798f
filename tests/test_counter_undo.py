"""The counter's taps that remove or change a deal can be taken back: after *Undo the last
deal* the page offers to put the deal back, after an edit to undo the change; the way back
refuses a game changed meanwhile and bad input, never a 500."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rebelote.web.app import create_app
from web_fixtures import keyed_client

HX = {"HX-Request": "true"}
API = "/api/counter/games"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    with keyed_client(create_app(f"sqlite:///{tmp_path / 'undo.sqlite3'}")) as c:
        yield c


def start(client: Any) -> str:
    r = client.post("/games", data={"game": "coinche", "rules": "official", "target": "1000"},
                    follow_redirects=True)
    found = re.search(r'data-game="([0-9a-f]+)"', r.text)
    assert found, r.text[:300]
    return found.group(1)


def version(page: str) -> str:
    found = re.search(r'data-version="(\d+)"', page)
    assert found
    return found.group(1)


def restore_form(page: str) -> dict[str, str]:
    """The fields of the page's way back (``#undone``), as the browser would post them."""
    found = re.search(r'<div class="undone" id="undone".*?</form>', page, re.S)
    assert found, "no way back on the page"
    return {name: html.unescape(value) for name, value in
            re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', found.group(0))}


DEALS = [
    {"kind": "deal", "taker": "NS", "trump": "spades", "contract": "90", "points": "97"},
    {"kind": "deal", "taker": "EW", "trump": "hearts", "contract": "100", "coinche": "coinche",
     "points": "120", "belote": "EW"},
]


def test_an_undone_deal_can_be_put_back(client: Any) -> None:
    gid = start(client)
    for deal in DEALS:
        page = client.post(f"/games/{gid}/deals", data=deal, headers=HX).text
    before = client.get(f"{API}/{gid}").json()
    page = client.post(f"/games/{gid}/undo", data={"version": version(page)}, headers=HX).text
    assert len(client.get(f"{API}/{gid}").json()["deals"]) == 1
    assert "Donne 2 retirée." in page and "Remettre la donne 2" in page
    form = restore_form(page)
    assert form["n"] == "2" and json.loads(form["deal"])["coinche"] == "coinche"
    page = client.post(f"/games/{gid}/restore", data=form, headers=HX).text
    after = client.get(f"{API}/{gid}").json()
    assert after["deals"] == before["deals"] and after["totals"] == before["totals"]
    assert 'id="undone"' not in page
    # the way back is offered once: the same form again is a game changed meanwhile
    r = client.post(f"/games/{gid}/restore", data=form, headers=HX)
    assert r.status_code == 409 and "modifiée sur un autre appareil" in r.text
    assert client.get(f"{API}/{gid}").json()["deals"] == before["deals"]


def test_an_edited_deal_can_be_changed_back(client: Any) -> None:
    gid = start(client)
    for deal in DEALS:
        page = client.post(f"/games/{gid}/deals", data=deal, headers=HX).text
    before = client.get(f"{API}/{gid}").json()
    edited = {**DEALS[0], "points": "120", "version": version(page)}
    page = client.post(f"/games/{gid}/deals/1", data=edited, headers=HX).text
    assert client.get(f"{API}/{gid}").json()["totals"] != before["totals"]
    assert "Donne 1 modifiée." in page and "Annuler cette modification" in page
    client.post(f"/games/{gid}/restore", data=restore_form(page), headers=HX)
    assert client.get(f"{API}/{gid}").json()["deals"] == before["deals"]


@pytest.mark.parametrize("fields", [
    {"n": "2", "deal": "{"},
    {"n": "2", "deal": '{"taker": "NS", "trump": "spades", "points": {"NS": 500}}'},
    {"n": "9", "deal": '{"taker": "NS", "trump": "spades", "contract": 80, '
                       '"points": {"NS": 97}}'},
    {"n": "x", "deal": "[]"},
    {},
])
def test_the_way_back_refuses_bad_input_in_the_page_s_language(client: Any,
                                                               fields: dict[str, str]) -> None:
    gid = start(client)
    page = client.post(f"/games/{gid}/deals", data=DEALS[0], headers=HX).text
    r = client.post(f"/games/{gid}/restore", data={**fields, "version": version(page)},
                    headers=HX)
    assert r.status_code in (404, 409, 422), r.status_code
    assert len(client.get(f"{API}/{gid}").json()["deals"]) == 1


def test_the_way_back_needs_the_game_s_secret(client: Any, tmp_path: Path) -> None:
    gid = start(client)
    page = client.post(f"/games/{gid}/deals", data=DEALS[0], headers=HX).text
    page = client.post(f"/games/{gid}/undo", data={"version": version(page)}, headers=HX).text
    form = restore_form(page)
    from fastapi.testclient import TestClient

    with TestClient(client.app) as stranger:
        r = stranger.post(f"/games/{gid}/restore", data=form, headers=HX)
    assert r.status_code == 403
    assert client.get(f"{API}/{gid}").json()["deals"] == []


def test_undo_and_delete_ask_first_in_the_page_s_language(client: Any) -> None:
    gid = start(client)
    page = client.post(f"/games/{gid}/deals", data=DEALS[0], headers=HX).text
    assert 'hx-confirm="Retirer la dernière donne\u00a0?"' in page
    games = client.get("/games?lang=fr").text
    assert 'hx-confirm="Supprimer cette partie pour de bon\u00a0?"' in games
    page = client.get(f"/games/{gid}?lang=en").text
    assert 'hx-confirm="Remove the last deal?"' in page
