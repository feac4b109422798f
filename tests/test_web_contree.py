"""The counter plays contrée: the new-game page's rule sets and options, a shared rule set's
link and QR code, the sheet naming its preset, and the points table of the chosen rules."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from fastapi.testclient import TestClient

from oracle.compare import expected_score
from rebelote.catalogs import number
from rebelote.rules import PRESETS, Rules, parse_rules
from rebelote.web.app import create_app
from rebelote.web.counter.pages import new_game_json
from rebelote.web.share import qr_svg, rules_from_query, rules_path
from web_fixtures import keyed_client

API = "/api/counter/games"
HX = {"HX-Request": "true"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with keyed_client(create_app(f"sqlite:///{tmp_path / 'contree.sqlite3'}")) as c:
        yield c


def start(client: TestClient, **form: str) -> str:
    r = client.post("/games", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def total(html: str, team: str) -> str:
    found = re.search(rf'id="total-{team}">([^<]*)<', html)
    assert found, html[:500]
    return found.group(1)


def test_the_new_game_page_offers_contree_its_presets_and_options(client: TestClient) -> None:
    page = client.get("/").text
    assert 'name="game" value="contree"' in page
    for name in ("ffb", "ffb-ludique", "cannes-2016", "annonces", "exact"):
        assert f'name="contree_rules" value="{name}"' in page
    assert "Championnat de France, Cannes 2016" in page  # French first
    assert 'name="opt_coinche_form"' in page and "base + contrat × 2" in page
    assert "selon les règles" in page
    client.get("/lang/en", params={"next": "/"})
    english = client.get("/").text
    assert "French championship, Cannes 2016" in english and "as the rules say" in english


def test_a_contree_game_under_ffb_counts_by_the_ffb_table(client: TestClient) -> None:
    gid = start(client, game="contree", contree_rules="ffb", target="")
    game = client.get(f"{API}/{gid}").json()
    assert game["game"] == "contree" and game["rules"] == "ffb" and game["target"] == 2000
    page = client.get(f"/games/{gid}").text
    assert 'name="contract"' in page and 'value="generale"' not in page
    assert "FFB (barème 2016)" in page
    r = client.post(f"/games/{gid}/deals", headers=HX, data={
        "taker": "NS", "contract": "100", "coinche": "coinche", "points": "110",
        "trump": "hearts", "belote": "NS"})
    assert total(r.text, "NS") == "540" and total(r.text, "EW") == "0"


def test_options_changed_on_the_page_travel_with_the_game(client: TestClient) -> None:
    gid = start(client, game="contree", contree_rules="cannes-2016", target="",
                opt_surcoinche="4", opt_belote_prenable="off", opt_rounding="")
    game = client.get(f"{API}/{gid}").json()
    assert game["rules"] == "cannes-2016" and game["target"] == 2001
    assert game["options"] == {"surcoinche": 4, "belote_prenable": False}
    page = client.get(f"/games/{gid}").text
    text = "contree:cannes-2016,surcoinche=4,belote_prenable=off"
    assert text in page
    assert f'href="/?rules={quote(text, safe="")}"' in page
    # The share link opens the new-game page with the same rules, and they start a game.
    shared = client.get("/", params={"rules": text}).text
    assert f'value="{text}"' in shared and 'name="rules_text"' in shared
    again = start(client, rules_text=text, team_NS="A", team_EW="B")
    assert client.get(f"{API}/{again}").json()["options"] == game["options"]
    qr = client.get("/rules/qr.svg", params={"rules": text})
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")
    # the QR code is the link itself, whole: the same image as the link's own QR code
    assert qr.content == qr_svg("http://testserver" + rules_path(parse_rules(text)), "rebelote")


def test_a_shared_rule_set_reads_back_as_the_same_rules_on_any_page() -> None:
    """The helper the counter and the play table share: every preset of every game with a
    changed option goes to a link and back unchanged; bad or overlong links are named."""
    for game, rows in PRESETS.items():
        for name in rows:
            rules = Rules.preset(name, game).replace(target=1234, rounding="none")
            link = rules_path(rules, "/tables/new")
            assert link.startswith("/tables/new?rules=")
            raw = parse_qs(urlsplit(link).query)["rules"][0]
            assert rules_from_query(raw) == (rules, None)
    assert rules_from_query(None) == (None, None)
    assert rules_from_query("contree:ffb,surcoinche=5")[1] == (
        "options.surcoinche: 5 is not one of 4, 3")
    rules, error = rules_from_query("contree:ffb" + ",target=1000" * 60)
    assert rules is None and error == "rules: longer than 600 characters"


def test_a_bad_shared_rule_set_is_named(client: TestClient) -> None:
    page = client.get("/", params={"rules": "contree:ffb,speed=3"}).text
    assert "options.speed" in page
    r = client.post("/games", data={"rules_text": "contree:house"})
    assert r.status_code == 422 and "rules_text" in r.text
    assert client.get("/rules/qr.svg", params={"rules": "tarot:x"}).status_code == 422
    r = client.post("/games", data={"game": "contree", "opt_surcoinche": "5"})
    assert r.status_code == 422 and "opt_surcoinche" in r.text


def test_the_points_table_of_the_games_rules(client: TestClient) -> None:
    r = client.get("/sheets/points-table.pdf", params={"rules": "contree:annonces"})
    assert r.status_code == 200 and r.content[:5] == b"%PDF-"
    plain = client.get("/sheets/points-table.pdf")
    assert plain.status_code == 200 and r.content != plain.content
    if shutil.which("pdftotext"):
        path = Path(tempfile.mkdtemp()) / "points.pdf"
        path.write_bytes(r.content)
        got = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                             check=True, text=True).stdout
        assert "Comptage : points annoncés" in got and "sans annonces" in got
        assert "Réussi contré" in got and "Marquer une donne" not in got
    assert client.get("/sheets/points-table.pdf", params={"rules": "x"}).status_code == 422
    blank = client.get("/sheets/blank.pdf", params={"game": "contree"})
    assert blank.status_code == 200 and blank.content[:5] == b"%PDF-"


def test_the_form_reads_the_rules_text_first() -> None:
    obj = new_game_json({"rules_text": "contree:exact,target=1500", "game": "belote"})
    assert obj["game"] == "contree" and obj["rules"] == "exact" and obj["target"] == 1500
    obj = new_game_json({"game": "contree", "rules": "official"})
    assert "rules" not in obj  # contrée's own default, ffb
    obj = new_game_json({"game": "coinche", "rules": "official", "opt_coinche_form": "flat"})
    assert obj["options"] == {"coinche_form": "flat"}


def test_coinches_generale_box_does_not_give_contree_a_generale() -> None:
    """The page sends coinche's générale box (hidden for contrée) with every game: a contrée
    game keeps its preset's générale (none under ffb) unless its own option says otherwise."""
    form = {"game": "contree", "contree_rules": "ffb", "generale": "on"}
    assert "options" not in new_game_json(form)
    assert new_game_json({**form, "opt_generale": "on"})["options"] == {"generale": True}
    assert new_game_json({"game": "coinche", "generale": "off"})["options"] == {
        "generale": False}


def test_a_shared_rule_set_opens_the_play_table_with_it(client: TestClient) -> None:
    """The game page links to a new table with its rules; the table's start form reads the
    link (the shared helper of web/share.py) and the table plays exactly those rules."""
    text = "contree:cannes-2016,surcoinche=4,belote_prenable=off"
    gid = start(client, rules_text=text)
    page = client.get(f"/games/{gid}").text
    assert f'href="/tables/new?rules={quote(text, safe="")}"' in page
    form = client.get("/tables/new", params={"rules": text})
    assert form.status_code == 200
    assert f'name="rules_text" value="{text}"' in form.text
    assert "Championnat de France" in form.text or "Cannes" in form.text
    assert 'name="target" value="2001" checked' in form.text  # the preset's own target
    assert 'name="game"' not in form.text  # the rule set replaces the game's choice
    r = client.post("/tables", data={"rules_text": text, "target": "2001", "bots": "random",
                                     "pace": "0"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    tid = r.headers["location"].rsplit("/", 1)[1]
    view = client.get(f"/api/tables/{tid}").json()
    assert (view["game"], view["rules"], view["target"]) == ("contree", "cannes-2016", 2001)
    assert view["options"] == {"surcoinche": 4, "belote_prenable": False}
    # a bad link is named on the page, and refused when posted
    bad = client.get("/tables/new", params={"rules": "contree:ffb,surcoinche=5"})
    assert bad.status_code == 422 and "options.surcoinche" in bad.text
    r = client.post("/tables", data={"rules_text": "contree:house"})
    assert r.status_code == 422 and "contree" in r.text


# A table's evening under each of the three ways of counting the issue names: deals entered on
# the counter's form as a player does, the totals held to the independent oracle, the sheet
# printed with the preset named.
EVENING: list[tuple[dict[str, str], dict[str, Any]]] = [
    ({"taker": "NS", "contract": "100", "points": "110", "belote": "NS"},
     {"taker": "NS", "contract": 100, "points": {"NS": 110}, "belote": "NS"}),
    ({"taker": "EW", "contract": "90", "coinche": "coinche", "points": "96"},
     {"taker": "EW", "contract": 90, "coinche": "coinche", "points": {"EW": 96}}),
    ({"taker": "NS", "contract": "120", "points": "70", "belote": "NS"},
     {"taker": "NS", "contract": 120, "points": {"NS": 70}, "belote": "NS"}),
    ({"taker": "EW", "contract": "100", "coinche": "surcoinche", "points": "85"},
     {"taker": "EW", "contract": 100, "coinche": "surcoinche", "points": {"EW": 85}}),
    ({"taker": "NS", "contract": "capot", "capot": "taker", "belote": "EW"},
     {"taker": "NS", "contract": "capot", "capot": "NS", "points": {"NS": 252},
      "belote": "EW"}),
]


@pytest.mark.parametrize(("preset", "words"), [
    ("ffb", "FFB (barème 2016)"), ("cannes-2016", "Championnat de France, Cannes 2016"),
    ("annonces", "points annoncés")])
def test_an_evening_under_ffb_cannes_or_annonces_is_kept_and_printed(
        client: TestClient, preset: str, words: str, tmp_path: Path) -> None:
    gid = start(client, game="contree", contree_rules=preset, target="", team_NS="Alix",
                team_EW="Baptiste")
    for form, _ in EVENING:
        r = client.post(f"/games/{gid}/deals", headers=HX, data={"trump": "hearts", **form})
        assert r.status_code == 200 and 'id="error"' not in r.text, r.text[:300]
    want = expected_score({"game": "contree", "rules": preset,
                           "deals": [{"trump": "hearts", **deal} for _, deal in EVENING]})
    game = client.get(f"{API}/{gid}").json()
    got = [d["score"] for d in game["deals"]]
    assert got == [d["score"] for d in want["deals"]]
    assert game["totals"] == want["totals"]
    page = client.get(f"/games/{gid}").text
    assert total(page, "NS") == number(want["totals"]["NS"], "fr")
    assert total(page, "EW") == number(want["totals"]["EW"], "fr")
    sheet = client.get(f"{API}/{gid}/sheet.pdf")
    assert sheet.status_code == 200 and sheet.content[:5] == b"%PDF-"
    if shutil.which("pdftotext"):
        path = tmp_path / "sheet.pdf"
        path.write_bytes(sheet.content)
        text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                              check=True, text=True).stdout
        assert words in text and "Alix" in text
        # The sheet writes the totals as the page does: 1 770, a narrow space in the thousands.
        ns, ew = (re.escape(number(want["totals"][t], "fr").replace("\u202f", " "))
                  for t in ("NS", "EW"))
        assert re.search(rf"Totaux\s+{ns}\s+{ew}\s*$", text, re.MULTILINE), text
