"""The concours on the web (issue 20): its JSON API with the names the issue gives, the
organiser's secret, a table counted through the counter, the pages, the room screen and the
PDFs, on a temporary SQLite file."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelote.web.app import create_app

API = "/api/concours"
NINE = [{"name": f"Équipe {i}", "players": [f"A{i}", f"B{i}"]} for i in range(1, 10)]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}")) as c:
        yield c


def create(client: TestClient, **fields: Any) -> tuple[str, dict[str, str]]:
    body = {"name": "Concours de la Saint-Jean", "game": "belote", "parties": 4, "deals": 12,
            "ranking": "points", "exempt": "half", "teams": NINE, **fields}
    r = client.post(API, json=body)
    assert r.status_code == 201, r.text
    out = r.json()
    assert set(out) >= {"id", "token", "view", "ranking", "teams", "parties"}
    return out["id"], {"Authorization": f"Bearer {out['token']}"}


def score_all(client: TestClient, cid: str, auth: dict[str, str], partie: dict[str, Any]
              ) -> None:
    for t in partie["tables"]:
        a, b = t["teams"]
        r = client.put(f"{API}/{cid}/parties/{partie['partie']}/tables/{t['table']}",
                       json={"scores": {str(a): 1000 + a, str(b): 944 - a}}, headers=auth)
        assert r.status_code == 200, r.text


def test_a_whole_concours_through_the_api(client: TestClient) -> None:
    cid, auth = create(client)
    seen: set[frozenset[int]] = set()
    for k in range(1, 5):
        if k == 2:
            r = client.post(f"{API}/{cid}/teams", json={"name": "Les Retardataires"},
                            headers=auth)
            assert r.status_code == 201 and r.json()["team"] == 10
        if k == 3:
            r = client.post(f"{API}/{cid}/teams/4/withdraw", headers=auth)
            assert r.status_code == 200, r.text
        r = client.post(f"{API}/{cid}/parties", headers=auth)
        assert r.status_code == 200, r.text
        partie = r.json()
        assert partie["partie"] == k and set(partie) >= {"partie", "tables", "exempt"}
        teams = [n for t in partie["tables"] for n in t["teams"]] + partie["exempt"]
        assert len(teams) == len(set(teams)) == (9 if k == 1 else 10 if k == 2 else 9)
        assert [t["table"] for t in partie["tables"]] == list(range(1, len(partie["tables"]) + 1))
        for t in partie["tables"]:
            pair = frozenset(t["teams"])
            assert pair not in seen
            seen.add(pair)
        if k >= 3:
            assert 4 not in teams
        score_all(client, cid, auth, partie)
    # A correction re-ranks at once.
    before = client.get(f"{API}/{cid}").json()
    t = before["parties"][0]["tables"][0]
    a, b = t["teams"]
    r = client.put(f"{API}/{cid}/parties/1/tables/1", json={"scores": {str(a): 1900,
                                                                       str(b): 44}},
                   headers=auth)
    assert r.status_code == 200
    after = client.get(f"{API}/{cid}").json()
    points = {line["team"]: line["points"] for line in after["ranking"]}
    old = {line["team"]: line["points"] for line in before["ranking"]}
    assert points[a] == old[a] - t["scores"][str(a)] + 1900
    line = after["ranking"][0]
    assert set(line) >= {"rank", "team", "name", "points", "wins", "against"}
    assert [x["rank"] for x in after["ranking"]] == list(range(1, 11))
    assert after["over"] is True
    r = client.post(f"{API}/{cid}/parties", headers=auth)
    assert r.status_code == 422 and "parties" in r.json()["error"]


def test_writes_need_the_token_and_errors_name_the_field(client: TestClient) -> None:
    cid, auth = create(client)
    assert client.post(f"{API}/{cid}/parties").status_code == 403
    assert client.post(f"{API}/{cid}/parties",
                       headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.post(f"{API}/ffffffffffffffff/parties", headers=auth).status_code == 404
    assert client.get(f"{API}/not-an-id").status_code == 404
    r = client.post(API, json={"name": "x", "game": "belote", "parties": 4})
    assert r.status_code == 422 and r.json()["error"].startswith("deals:")
    r = client.post(API, content=b"name=x", headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = client.post(API, content=b"{", headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    r = client.post(API, content=b"[" * 100 + b"]" * 100,
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    assert client.post(f"{API}/{cid}/parties", headers=auth).status_code == 200
    r = client.put(f"{API}/{cid}/parties/1/tables/1", json={"scores": {"99": 3}},
                   headers=auth)
    assert r.status_code == 422 and r.json()["error"].startswith("scores.99")
    r = client.put(f"{API}/{cid}/parties/1/tables/77", json={"scores": [1, 2]}, headers=auth)
    assert r.status_code == 422 and r.json()["error"].startswith("table")
    r = client.put(f"{API}/{cid}/parties/1/tables/1", json={"points": [1, 2]}, headers=auth)
    assert r.status_code == 422
    r = client.post(f"{API}/{cid}/teams/42/withdraw", headers=auth)
    assert r.status_code == 422 and r.json()["error"].startswith("team")
    r = client.post(f"{API}/{cid}/parties", headers=auth)
    assert r.status_code == 422 and r.json()["error"].startswith("partie")
    # A cross-site write is refused before it is read.
    r = client.post(f"{API}/{cid}/parties", headers={**auth, "Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403
    # No table's counter key without the token.
    client.post(f"{API}/{cid}/parties/1/phones", headers=auth)
    public = client.get(f"{API}/{cid}").json()
    assert "counter" not in public["parties"][0]["tables"][0]
    assert "key" not in str(public)


def test_swap_redraw_and_cancel(client: TestClient) -> None:
    cid, auth = create(client)
    p = client.post(f"{API}/{cid}/parties", headers=auth).json()
    a, b = p["tables"][0]["teams"][0], p["exempt"][0]
    r = client.post(f"{API}/{cid}/parties/1/swap", json={"teams": [a, b]}, headers=auth)
    assert r.status_code == 200 and r.json()["exempt"] == [a]
    r = client.post(f"{API}/{cid}/parties/1/redraw", headers=auth)
    assert r.status_code == 200
    assert client.delete(f"{API}/{cid}/parties/1", headers=auth).status_code == 204
    assert client.get(f"{API}/{cid}").json()["drawn"] == 0


def test_a_table_counted_on_a_phone_through_the_counter(client: TestClient) -> None:
    cid, auth = create(client, deals=3)
    client.post(f"{API}/{cid}/parties", headers=auth)
    r = client.post(f"{API}/{cid}/parties/1/phones", headers=auth)
    table = r.json()["parties"][0]["tables"][0]
    link = table["counter"]
    assert link.startswith("/join/")
    game_id, key = link.removeprefix("/join/").split("?key=")
    game = client.get(f"/api/counter/games/{game_id}",
                      headers={"Authorization": f"Bearer {key}"}).json()
    a, b = table["teams"]
    assert game["teams"]["NS"].startswith(f"{a}. ") and game["teams"]["EW"].startswith(f"{b}. ")
    counter = {"Authorization": f"Bearer {key}"}
    for points in (100, 62, 81):
        r = client.post(f"/api/counter/games/{game_id}/deals",
                        json={"taker": "NS", "points": {"NS": points}}, headers=counter)
        assert r.status_code == 200, r.text
        view = client.get(f"{API}/{cid}").json()
        if points != 81:
            assert view["parties"][0]["tables"][0]["scores"] is None
    totals = r.json()["totals"]
    # the third deal (81 to 81) is a litige that ends the partie: the 81 it holds go to the
    # team that did not take (the reserve_at_end default), not to nobody
    assert r.json()["held_over"] == 81
    # the third deal ends the partie: no fourth on the counter, and the result is in
    r = client.post(f"/api/counter/games/{game_id}/deals",
                    json={"taker": "NS", "points": {"NS": 100}}, headers=counter)
    assert r.status_code == 422 and "deals" in r.json()["error"]
    scores = client.get(f"{API}/{cid}").json()["parties"][0]["tables"][0]["scores"]
    assert scores == {str(a): totals["NS"], str(b): totals["EW"] + 81}
    # the counter's page says the partie is over and which table it is
    page = client.post(f"/join/{game_id}", data={"key": key}).text
    assert "3 donnes" in page and "table 1" in page


def test_sheet_check_answers_with_the_result(client: TestClient) -> None:
    cid, auth = create(client, options={"declarations": False})
    p = client.post(f"{API}/{cid}/parties", headers=auth).json()
    a, b = p["tables"][0]["teams"]
    r = client.put(f"{API}/{cid}/parties/1/tables/1",
                   json={"scores": {str(a): 1204, str(b): 750}}, headers=auth)
    assert r.status_code == 200 and r.json()["check"]["ok"] is False
    r = client.put(f"{API}/{cid}/parties/1/tables/1",
                   json={"scores": {str(a): 1204, str(b): 780}, "belotes": 2, "capots": 0},
                   headers=auth)
    assert r.json()["check"]["ok"] is True


def test_pages_room_screen_and_pdfs(client: TestClient) -> None:
    r = client.get("/concours")
    assert r.status_code == 200 and "Nouveau concours" in r.text
    r = client.post("/concours", data={"name": "Belote du comité", "game": "belote",
                                       "parties": "3", "deals": "12",
                                       "teams": "Les As: Anne, Marc\nLes Rois\nLes Dames"},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    page = r.headers["location"]
    cid = page.rsplit("/", 1)[1]
    r = client.get(page)
    assert r.status_code == 200 and "Belote du comité" in r.text
    r = client.post(f"{page}/draw", follow_redirects=True)
    assert r.status_code == 200 and "Table 1" in r.text
    data = client.get(f"{API}/{cid}").json()
    room = client.get(f"/salle/{data['view']}")
    assert room.status_code == 200 and "Où suis-je" in room.text
    assert client.get(f"/salle/{data['view']}/live").status_code == 200
    assert client.get("/salle/0000000000000000").status_code == 404
    texts = []
    for path in ("parties/1/tirage.pdf", "parties/1/ou-suis-je.pdf", "parties/1/feuilles.pdf",
                 "classement.pdf"):
        r = client.get(f"/concours/{cid}/{path}")
        assert r.status_code == 200 and r.content.startswith(b"%PDF"), path
        if shutil.which("pdftotext"):
            out = subprocess.run(["pdftotext", "-", "-"], input=r.content,
                                 capture_output=True, check=True).stdout.decode()
            texts.append(out)
    if texts:
        assert "Tirage de la partie 1" in texts[0]
        assert "Les As" in texts[1] and "Table 1" in texts[2] and "Classement" in texts[3]
    # a typed result with a wrong sum is saved and asks to check the sheet
    t = data["parties"][0]["tables"][0]
    r = client.post(f"/concours/{cid}/parties/1/tables/1", data={"a": "1000", "b": "1000"})
    assert r.status_code == 200
    # another browser, without the organiser's cookie, cannot see or change it
    with TestClient(client.app) as other:
        assert other.get(page).status_code == 403
        r = other.post(f"{page}/draw", follow_redirects=False)
        assert r.status_code == 403
    assert t["scores"] is None


def test_the_organisers_link_asks_before_it_hands_over_the_secret(client: TestClient) -> None:
    cid, auth = create(client, name="Concours du comité")
    token = auth["Authorization"].removeprefix("Bearer ")
    link = f"/concours/{cid}/join?key={token}"
    with TestClient(client.app) as other:
        # GET only asks (login CSRF: another site could send a browser here), in French...
        r = other.get(link, follow_redirects=False)
        assert r.status_code == 200 and "set-cookie" not in r.headers
        assert "Organiser ce concours sur cet appareil\u00a0?" in r.text
        assert "Concours du comité" in r.text and f'value="{token}"' in r.text
        assert f'action="/concours/{cid}/join"' in r.text
        assert other.get(f"/concours/{cid}").status_code == 403
        # ... or in English
        r = other.get(f"{link}&lang=en", follow_redirects=False)
        assert r.status_code == 200 and "Organise this concours on this device?" in r.text
        # a wrong key or an unknown concours: no page to confirm
        assert other.get(f"/concours/{cid}/join?key=wrong").status_code == 403
        assert other.get(f"/concours/ffffffffffffffff/join?key={token}").status_code == 404
        # another site's form is refused before it is read
        r = other.post(f"/concours/{cid}/join", data={"key": token},
                       headers={"Sec-Fetch-Site": "cross-site"}, follow_redirects=False)
        assert r.status_code == 403 and "set-cookie" not in r.headers
        assert other.get(f"/concours/{cid}").status_code == 403
        r = other.post(f"/concours/{cid}/join", data={"key": "wrong"}, follow_redirects=False)
        assert r.status_code == 403 and "set-cookie" not in r.headers
        # the page's own form adds it
        r = other.post(f"/concours/{cid}/join", data={"key": token}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/concours/{cid}"
        assert "set-cookie" in r.headers
        assert other.get(f"/concours/{cid}").status_code == 200
        # held already: straight to the organiser's page
        r = other.get(link, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/concours/{cid}"


def test_the_access_log_hides_the_organisers_key() -> None:
    import logging

    from rebelote.web.server import RedactSecrets

    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5000", "GET", "/concours/c0ffee/join?key=s3cr3tK3y",
                                "1.1", 200), None)
    RedactSecrets().filter(record)
    assert "s3cr3tK3y" not in record.getMessage()
    assert "/concours/c0ffee/join?key=…" in record.getMessage()


def test_a_concours_a_la_melee(client: TestClient) -> None:
    players = [{"name": f"Joueur {i}"} for i in range(1, 11)]
    cid, auth = create(client, mode="melee", teams=players, parties=3)
    partners: set[frozenset[int]] = set()
    for k in (1, 2, 3):
        p = client.post(f"{API}/{cid}/parties", headers=auth).json()
        assert len(p["tables"]) == 2 and len(p["exempt"]) == 2
        for t in p["tables"]:
            (a1, a2), (b1, b2) = t["teams"]
            assert frozenset((a1, a2)) not in partners and frozenset((b1, b2)) not in partners
            partners |= {frozenset((a1, a2)), frozenset((b1, b2))}
            r = client.put(f"{API}/{cid}/parties/{k}/tables/{t['table']}",
                           json={"scores": {str(a2): 1100, str(b1): 844}}, headers=auth)
            assert r.status_code == 200, r.text
    data = client.get(f"{API}/{cid}").json()
    assert len(data["ranking"]) == 10  # ranked one by one
    exempts = [n for p in data["parties"] for n in p["exempt"]]
    assert len(exempts) == len(set(exempts)) == 6


def test_pages_in_english(client: TestClient) -> None:
    r = client.get("/concours?lang=en")
    assert "New concours" in r.text and 'lang="en"' in r.text
    cid, _auth = create(client)
    r = client.get(f"/concours/{cid}/classement.pdf?lang=en")
    assert r.status_code == 200


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_concours_catalogs(lang: str) -> None:
    from babel.messages.mofile import read_mo
    from babel.messages.pofile import read_po

    from rebelote.sheets.concours import tr

    locale = Path(__file__).resolve().parent.parent / "src" / "rebelote" / "locale"
    with (locale / lang / "LC_MESSAGES" / "concours.po").open("rb") as f:
        po = read_po(f, locale=lang)
    with (locale / lang / "LC_MESSAGES" / "concours.mo").open("rb") as f:
        mo = read_mo(f)
    def strings(catalog: Any) -> dict[str, str]:
        return {str(tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id):
                str(tuple(m.string) if isinstance(m.string, (list, tuple)) else m.string)
                for m in catalog if m.id and m.string}

    assert strings(po) == strings(mo)
    with (locale / "concours.pot").open("rb") as f:
        pot = read_po(f)
    if lang == "fr":
        missing = [m.id for m in pot if m.id and not (po.get(m.id) and po.get(m.id).string)]
        assert not missing
        assert tr("fr", "Where do I sit?") == "Où suis-je\u00a0?"
    else:
        assert tr("en", "Where do I sit?") == "Where do I sit?"


def test_rebelote_tirage_recomputes_the_first_draw(client: TestClient) -> None:
    import json

    from typer.testing import CliRunner

    from rebelote.commands._app import app

    cid, auth = create(client, seed="salle-des-fetes")
    drawn = client.post(f"{API}/{cid}/parties", headers=auth).json()
    result = CliRunner().invoke(app, ["tirage", "salle-des-fetes", "9"])
    assert result.exit_code == 0, result.output
    again = json.loads(result.output)
    assert again["tables"] == drawn["tables"] and again["exempt"] == drawn["exempt"]
    bad = CliRunner().invoke(app, ["tirage", "tab\tseed", "9"])
    assert bad.exit_code == 1 and json.loads(bad.output)["error"].startswith("seed")
