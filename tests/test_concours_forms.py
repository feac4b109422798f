"""The concours's forms and bounds (issues 33 and 37): odd digits never answer 500 (finding 6),
creations are bounded by size and by address (finding 8), destructive actions ask first and
have a way back (issue 33, item 6), the organiser's page and the room screen follow a change
by themselves and cheaply (item 5), and nobody is ranked before a result (item 14)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelote.web.app import create_app
from rebelote.web.limits import Limits

API = "/api/concours"
ODD = ["²", "①", "١٢", "1" * 5000, "-3", "2.5"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}")) as c:
        yield c


def organiser(client: TestClient, teams: int = 8, **fields: Any) -> str:
    """A concours made through the page (this browser then holds its secret)."""
    form = {"name": "Concours du comité", "game": "belote", "parties": "3", "deals": "2",
            "teams": "\n".join(f"Équipe {i}" for i in range(1, teams + 1)), **fields}
    r = client.post("/concours", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text[:500]
    return str(r.headers["location"]).rsplit("/", 1)[1]


def test_odd_digits_in_every_concours_form_are_refused_not_500(client: TestClient) -> None:
    for raw in ODD:
        for key in ("parties", "deals", "target", "exempt_score"):
            form = {"name": "x", "game": "belote", "parties": "2", "deals": "2",
                    "teams": "A\nB", key: raw}
            r = client.post("/concours", data=form)
            assert r.status_code == 422, (key, raw[:10], r.status_code)
            assert 'id="error"' in r.text
    cid = organiser(client)
    client.post(f"/concours/{cid}/draw")
    for raw in ODD:
        for fields in ({"a": raw, "b": "100"}, {"a": "100", "b": "62", "deals": raw},
                       {"a": "100", "b": "62", "belotes": raw},
                       {"a": "100", "b": "62", "capots": raw}):
            r = client.post(f"/concours/{cid}/parties/1/tables/1", data=fields)
            assert r.status_code == 422, (fields, r.status_code)
        r = client.post(f"/concours/{cid}/settings", data={"parties": raw})
        assert r.status_code == 422, (raw[:10], r.status_code)
        r = client.post(f"/concours/{cid}/parties/1/swap", data={"a": raw, "b": "1"})
        assert r.status_code == 422, (raw[:10], r.status_code)
    # a score typed with its thousands' space still reads
    r = client.post(f"/concours/{cid}/parties/1/tables/1", data={"a": "1 204", "b": "740"},
                    follow_redirects=False)
    assert r.status_code == 303


def test_creations_are_bounded_by_size_and_by_address(tmp_path: Path) -> None:
    """Finding 8, scaled down: the limits set low, the same requests the attacker sent."""
    limits = Limits(concours_per_minute=2, burst_minutes=1, concours_teams=20,
                    concours_body=2000)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}", limits=limits)) as c:
        body = {"name": "N" * 80, "game": "belote", "parties": 2, "deals": 1}
        r = c.post(API, json={**body, "teams": [f"T{i}" for i in range(21)]})
        assert r.status_code == 422 and "at most 20" in r.json()["error"]
        r = c.post(API, json={**body, "teams": [{"name": "x" * 30, "players": ["p" * 40] * 3}
                                                for _ in range(20)]})
        assert r.status_code == 413
        made = [c.post(API, json={**body, "teams": ["A", "B"]}).status_code for _ in range(3)]
        assert made == [201, 201, 429]
        r = c.post("/concours", data={"name": "x", "game": "belote", "parties": "2",
                                      "deals": "2", "teams": "A\nB"})
        assert r.status_code == 429 and "Trop de concours" in r.text
        assert r.headers["retry-after"]
        # a team added later counts against the same bound
        c2 = TestClient(create_app(f"sqlite:///{tmp_path / 'd.sqlite3'}",
                                   limits=Limits(concours_teams=3)))
        with c2:
            r = c2.post(API, json={**body, "teams": ["A", "B", "C"]})
            auth = {"Authorization": f"Bearer {r.json()['token']}"}
            r = c2.post(f"{API}/{r.json()['id']}/teams", json={"name": "D"}, headers=auth)
            assert r.status_code == 422 and "at most 3" in r.json()["error"]


def test_withdraw_asks_and_is_taken_back(client: TestClient) -> None:
    cid = organiser(client)
    page = client.get(f"/concours/{cid}").text
    form = re.search(r'<form[^>]*teams/4/withdraw"[^>]*>', page)
    assert form and "data-confirm=\"Déclarer l’abandon de l’équipe 4, Équipe 4" in form.group(0)
    # the fee and the withdrawal no longer read as one phrase
    line = page[page.index('id="team-4"'):]
    line = line[:line.index("</li>")]
    assert "Inscription" in line and "à payer" in line
    assert line.index("à payer") < line.index("</form>") < line.index("abandon")
    r = client.post(f"/concours/{cid}/teams/4/withdraw")
    assert r.status_code == 200 and "abandonne" in r.text and 'id="undo"' in r.text
    assert client.get(f"{API}/{cid}").json()["teams"][3]["withdrawn"] is True
    r = client.post(f"/concours/{cid}/teams/4/return", follow_redirects=False)
    assert r.status_code == 303
    assert client.get(f"{API}/{cid}").json()["teams"][3]["withdrawn"] is False
    # once a partie is drawn after it, the way back is to register again
    client.post(f"/concours/{cid}/teams/4/withdraw")
    client.post(f"/concours/{cid}/draw")
    assert 'id="return-4"' not in client.get(f"/concours/{cid}").text
    r = client.post(f"/concours/{cid}/teams/4/return")
    assert r.status_code == 422 and "register it again" in r.text


def test_forget_a_result_and_cancel_a_draw_ask_and_offer_a_way_back(client: TestClient
                                                                     ) -> None:
    cid = organiser(client)
    client.post(f"/concours/{cid}/draw")
    page = client.get(f"/concours/{cid}").text
    assert "Annuler le tirage de la partie 1\u00a0?" in page
    assert "Tirer de nouveau la partie 1\u00a0?" in page
    client.post(f"/concours/{cid}/parties/1/tables/1", data={"a": "200", "b": "124"})
    page = client.get(f"/concours/{cid}").text
    assert "Effacer le résultat de la table 1\u00a0?" in page
    r = client.post(f"/concours/{cid}/parties/1/tables/1", data={"clear": "1"})
    assert "son résultat est effacé" in r.text and "Le remettre (200 – 124)" in r.text
    undo = re.search(r'<form method="post" action="([^"]+)" class="inline">((?:<input[^>]+>)+)'
                     r'<button type="submit" id="undo">', r.text)
    assert undo
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', undo.group(2)))
    client.post(undo.group(1), data=fields)
    assert client.get(f"{API}/{cid}").json()["parties"][0]["tables"][0]["scores"] is not None


def test_the_pages_follow_a_change_by_themselves(client: TestClient) -> None:
    """Issue 33, item 5: the organiser's page asks whether the concours changed (204 when
    not, its new content when a phone sent a result); the room screen likewise."""
    cid = organiser(client)
    client.post(f"/concours/{cid}/draw")
    page = client.get(f"/concours/{cid}").text
    live = re.search(r'data-live="([^"]+)"', page)
    assert live and "concours.js" in page
    url = live.group(1).replace("&amp;", "&")
    assert client.get(url).status_code == 204
    r = client.post(f"/concours/{cid}/parties/1/phones", follow_redirects=False)
    assert r.status_code == 303
    view = client.get(f"{API}/{cid}").json()
    room = client.get(f"/salle/{view['view']}").text
    room_url = re.search(r'hx-get="([^"]+)"', room).group(1).replace("&amp;", "&")  # type: ignore[union-attr]
    assert client.get(room_url).status_code == 204  # nothing changed since the screen's read
    private = client.get(f"/concours/{cid}/parties/1/qr").text
    game, key = re.search(r"/join/([0-9a-f]+)\?key=([\w-]+)", private).groups()  # type: ignore[union-attr]
    auth = {"Authorization": f"Bearer {key}"}
    for points in (100, 90):
        client.post(f"/api/counter/games/{game}/deals",
                    json={"taker": "NS", "points": {"NS": points}}, headers=auth)
    r = client.get(url)
    assert r.status_code == 200 and 'data-live="' in r.text
    assert "compté au téléphone" in r.text
    assert client.get(room_url).status_code == 200


def test_nobody_is_ranked_before_a_result(client: TestClient) -> None:
    cid = organiser(client, teams=12)
    page = client.get(f"/concours/{cid}").text
    assert "personne n’est classé" in page
    rows = re.findall(r"<tr class=\"[^\"]*\"><td>(.*?)</td>", page)
    assert rows and all("–" in r for r in rows)
    view = client.get(f"{API}/{cid}").json()
    room = client.get(f"/salle/{view['view']}").text
    assert re.findall(r'<span class="rank">([^<]*)</span>', room) == ["–"] * 12
    # once a result is in, ranks show, apart from the team's number
    client.post(f"/concours/{cid}/draw")
    client.post(f"/concours/{cid}/parties/1/tables/1", data={"a": "200", "b": "124"})
    assert "1 table sur 6 a son résultat." in client.get(f"/concours/{cid}").text
    room = client.get(f"/salle/{view['view']}").text
    assert "1 table terminée sur 6" in room
    line = re.search(r'<li class="" id="line-\d+"><span class="rank">1</span> '
                     r'<span class="who">[^<]+<small class="no-team">n° \d+</small>', room)
    assert line, room[room.index("live-ranking"):][:800]
