"""The counter's bugs found at a real table (issue 9, item 8), each pinned by a test: the
marks as the page writes them, the result cards of capot, générale and coinched deals, the words
of the page and the printables, the CSV's litige column, and the refusals a scorer must see."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rebelote.web.app import create_app
from web_fixtures import keyed_client

API = "/api/counter/games"
HX = {"HX-Request": "true"}
NBSP = "\u202f"  # the narrow no-break space French writes between thousands


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with keyed_client(create_app(f"sqlite:///{tmp_path / 'talk.sqlite3'}")) as c:
        yield c


def start(client: TestClient, game: str = "belote", target: str = "1000") -> str:
    r = client.post("/games", data={"game": game, "target": target}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return str(r.headers["location"].rsplit("/", 1)[1])


def last_deal(html: str) -> str:
    found = re.search(r'id="last-deal">([^<]*)<', html)
    assert found, html[:300]
    return found.group(1)


def errors(html: str) -> list[str]:
    return re.findall(r'class="error[^"]*" role="alert" id="error">([^<]*)<', html)


def test_a_negative_correction_is_written_with_its_sign(client: TestClient) -> None:
    gid = start(client)
    r = client.post(f"/games/{gid}/deals", data={"kind": "adjust", "adj_NS": "-20"}, headers=HX)
    assert last_deal(r.text) == "Donne 1\u00a0: correction · −20 / +0"
    assert "+-" not in r.text and "+−" not in r.text
    assert re.search(r'id="total-NS">−20<', r.text)


def test_the_last_deal_is_grouped_as_the_totals_are(client: TestClient) -> None:
    gid = start(client, "coinche", "3000")
    deal = {"kind": "deal", "taker": "NS", "contract": "capot", "coinche": "surcoinche",
            "trump": "spades", "capot": "taker"}
    r = client.post(f"/games/{gid}/deals", data=deal, headers=HX)
    assert r.status_code == 200, errors(r.text)
    total = re.search(r'id="total-NS">([^<]*)<', r.text)
    assert total
    mark = total.group(1)
    assert NBSP in mark, mark  # four digits: grouped
    assert last_deal(r.text) == f"Donne 1\u00a0: réussi · +{mark} / +0"
    english = client.get(f"/games/{gid}?lang=en")
    assert last_deal(english.text) == f"Deal 1: made · +{mark.replace(NBSP, ',')} / +0"


@pytest.mark.parametrize(("contract", "words"), [
    ("capot", ("capot", "250")),
    ("generale", ("générale", "500")),
])
def test_capot_and_generale_cards_name_their_contract(
        client: TestClient, contract: str, words: tuple[str, str]) -> None:
    gid = start(client, "coinche", "2000")
    r = client.post(f"/games/{gid}/deals", data={
        "kind": "deal", "taker": "EW", "contract": contract, "trump": "hearts",
        "capot": "taker"}, headers=HX)
    assert r.status_code == 200, errors(r.text)
    card = r.text[r.text.index('id="deal-1"'):]
    card = card[:card.index("</details>")]
    for word in words:
        assert word in card, (word, card)
    assert "Nous capot" not in card  # the takers made it, the defense is not "capot"


def test_a_coinched_deal_shows_its_sum(client: TestClient) -> None:
    gid = start(client, "coinche", "2000")
    r = client.post(f"/games/{gid}/deals", data={
        "kind": "deal", "taker": "NS", "contract": "110", "coinche": "coinche",
        "trump": "hearts", "points": "120", "decl_NS": "20"}, headers=HX)
    assert r.status_code == 200, errors(r.text)
    assert "(160 + annonces 20 + contrat 110) × 2 = 580" in r.text


def test_a_generale_box_on_another_contract_is_refused(client: TestClient) -> None:
    gid = start(client, "coinche", "2000")
    r = client.post(f"/games/{gid}/deals", data={
        "kind": "deal", "taker": "NS", "contract": "120", "generale": "on", "trump": "hearts",
        "capot": "taker"}, headers=HX)
    assert r.status_code == 422
    assert errors(r.text) == ["Générale\u00a0: la générale est un contrat\u00a0: choisissez "
                              "«\u00a0générale\u00a0» comme contrat."]
    created = client.post(API, json={"game": "coinche", "target": 2000}).json()
    r = client.post(f"{API}/{created['id']}/deals", json={
        "taker": "NS", "contract": 120, "generale": True, "trump": "hearts", "capot": "NS",
        "points": {"EW": 0}})
    assert r.status_code == 422
    assert r.json()["error"].startswith("generale: a générale is a contract")
    assert client.get(f"{API}/{created['id']}").json()["deals"] == []


@pytest.mark.parametrize(("value", "ok"), [("5000", True), ("-5000", True), ("5001", False),
                                          ("99999", False), ("-99999", False)])
def test_a_correction_is_bounded(client: TestClient, value: str, ok: bool) -> None:
    gid = start(client, "belote", "100000")
    r = client.post(f"/games/{gid}/deals", data={"kind": "adjust", "adj_EW": value},
                    headers=HX)
    if ok:
        assert r.status_code == 200 and not errors(r.text)
        return
    assert r.status_code == 422
    shown = ("−" if value.startswith("-") else "") + f"{int(value.lstrip('-')):,}".replace(
        ",", NBSP)
    assert errors(r.text) == [f"Correction\u00a0: {shown} dépasse ce qu’une correction peut "
                              f"marquer (±5{NBSP}000 points)."]


# -- what players expect from a counter app (issue 9, item 11) --------------------------------
def test_the_dealer_moves_each_deal_passed_ones_too(client: TestClient) -> None:
    created = client.post(API, json={"game": "belote", "target": 2000, "dealer": "E"}).json()
    gid = created["id"]
    assert created["dealer"] == "E" and created["dealers"] == ["E"]
    deals = [{"taker": "NS", "trump": "hearts", "points": {"NS": 100}}, {"void": True},
             {"adjust": {"NS": 20}}, {"taker": "EW", "trump": "spades", "points": {"EW": 90}}]
    for deal in deals:
        game = client.post(f"{API}/{gid}/deals", json=deal).json()
    # clockwise (the official rules); a correction is not a deal: nobody deals it
    assert game["dealers"] == ["E", "S", "W", "W", "N"]
    # on the page: who deals next, and who dealt each row (by name when given)
    client.patch(f"{API}/{gid}", json={"players": {"N": "Anne", "W": "Wanda"}})
    page = client.post(f"/join/{gid}", data={"key": created["token"]}).text  # the edit link
    assert re.search(r'id="next-dealer">Anne donne<', page)
    # newest first; the correction line has no dealer
    assert re.findall(r'class="dealt">donne de ([^<]*)<', page) == ["Wanda", "Sud", "Est"]
    # changing the first dealer moves every deal's
    game = client.patch(f"{API}/{gid}", json={"dealer": "N"}).json()
    assert game["dealers"] == ["N", "E", "S", "S", "W"]
    assert client.patch(f"{API}/{gid}", json={"dealer": None}).json()["dealers"] == []


def test_the_players_names_are_optional_and_checked(client: TestClient) -> None:
    created = client.post(API, json={"game": "belote"}).json()
    gid = created["id"]
    client.post(f"/join/{gid}", data={"key": created["token"]})  # this browser scores it too
    assert client.get(f"{API}/{gid}").json()["players"] == {}
    game = client.patch(f"{API}/{gid}", json={"players": {"S": "  Bruno   Le Grand "}}).json()
    assert game["players"] == {"S": "Bruno Le Grand"}
    game = client.patch(f"{API}/{gid}", json={"players": {"S": "", "N": "Anne"}}).json()
    assert game["players"] == {"N": "Anne"}
    for body, field in (({"players": {"X": "Zoé"}}, "players"),
                        ({"players": {"N": 3}}, "players.N"),
                        ({"players": {"N": "a" * 41}}, "players.N"),
                        ({"players": ["Anne"]}, "players"),
                        ({"dealer": "Nord-Est"}, "dealer")):
        r = client.patch(f"{API}/{gid}", json=body)
        assert r.status_code == 422 and r.json()["error"].startswith(f"{field}: "), (body, r.text)
    # through the page's form
    r = client.post(f"/games/{gid}/settings", headers=HX, data={
        "version": str(client.get(f"{API}/{gid}").json()["version"]), "player_E": "Émile",
        "dealer": "E"})
    assert r.status_code == 200 and 'id="next-dealer">Émile donne<' in r.text
    assert client.get(f"{API}/{gid}").json()["players"] == {"N": "Anne", "E": "Émile"}


def test_sheet_rows_carry_capot_belote_and_coinche_badges(client: TestClient) -> None:
    gid = start(client, "coinche", "5000")
    for deal in ({"taker": "NS", "contract": "capot", "trump": "hearts", "capot": "taker",
                  "belote": "NS"},
                 {"taker": "EW", "contract": "100", "coinche": "coinche", "trump": "spades",
                  "points": "120"},
                 {"taker": "NS", "contract": "80", "coinche": "surcoinche", "trump": "clubs",
                  "points": "100", "belote": "EW"},
                 {"taker": "EW", "contract": "generale", "trump": "hearts", "capot": "taker"},
                 {"taker": "NS", "contract": "90", "trump": "hearts", "points": "100"}):
        r = client.post(f"/games/{gid}/deals", data={"kind": "deal", **deal}, headers=HX)
        assert r.status_code == 200, errors(r.text)
    badges = {}
    for n in range(1, 6):
        row = r.text[r.text.index(f'id="deal-{n}"'):]
        row = row[:row.index("</summary>")]
        badges[n] = re.findall(r'class="flag">([^<]*)<', row)
    assert badges == {1: ["capot", "belote"], 2: ["coinche"], 3: ["belote", "surcoinche"],
                      4: ["générale"], 5: []}


def test_games_are_archived_and_deleted_from_the_list(client: TestClient) -> None:
    first = start(client)
    client.post(f"/games/{first}/deals", data={"kind": "void"})
    second = start(client)
    client.post(f"/games/{second}/deals", data={"kind": "void"})
    listed = client.get("/games").text
    assert listed.count('class="g-teams"') == 2
    r = client.post(f"/games/{first}/archive", data={"archived": "1"}, follow_redirects=True)
    assert r.status_code == 200 and r.text.count('class="g-teams"') == 1
    assert f"/games/{first}" not in r.text
    archived = client.get("/games?archived=true").text
    assert f'href="/games/{first}"' in archived and f'href="/games/{second}"' not in archived
    assert client.get(f"/games/{first}").status_code == 200  # archived, not gone
    client.post(f"/games/{first}/archive", data={"archived": "0"})
    assert client.get("/games").text.count('class="g-teams"') == 2
    r = client.post(f"/games/{second}/delete", follow_redirects=True)
    assert r.text.count('class="g-teams"') == 1 and f"/games/{second}" not in r.text
    assert client.get(f"/games/{second}").status_code == 404
    # the API too, with the list's filter
    token = client.post(API, json={"game": "belote"}).json()
    game = client.patch(f"{API}/{token['id']}", json={"archived": True})
    assert game.status_code == 200
    head = {"Authorization": f"Bearer {token['token']}"}
    def listed(query: str) -> list[str]:
        return [g["id"] for g in client.get(f"{API}{query}", headers=head).json()["games"]]

    assert listed("?archived=true") == [token["id"]]
    assert token["id"] not in listed("") and first in listed("")
    assert token["id"] in listed("?archived=all") and first in listed("?archived=all")
    assert client.patch(f"{API}/{token['id']}", json={"archived": "yes"}).status_code == 422


def test_empty_games_left_by_start_are_cleaned_up(client: TestClient) -> None:
    kept = start(client)  # a deal is entered: kept
    client.post(f"/games/{kept}/deals", data={"kind": "void"})
    named = start(client)  # renamed: kept
    client.post(f"/games/{named}/settings", data={"version": "1", "team_NS": "Les bleus"})
    empty = start(client)  # left as it was started
    newest = start(client)
    assert client.get(f"/games/{empty}").status_code == 404
    ids = re.findall(r'href="/games/([0-9a-f]+)"', client.get("/games").text)
    assert sorted(ids) == sorted([kept, named, newest])
    start(client)  # the newest, still empty, goes in turn
    assert client.get(f"/games/{newest}").status_code == 404


def test_statistics_across_this_browsers_games(client: TestClient) -> None:
    a = start(client, "belote", "501")
    for deal in ({"taker": "NS", "trump": "hearts", "points": "100"},       # 100 / 62 made
                 {"taker": "EW", "trump": "hearts", "points": "40"},        # 162 / 0 failed
                 {"taker": "NS", "trump": "hearts", "capot": "taker"}):     # 252 / 0 made
        client.post(f"/games/{a}/deals", data={"kind": "deal", **deal})
    b = start(client, "belote", "501")
    client.post(f"/games/{b}/settings", data={"version": "1", "team_NS": "Les bleus"})
    client.post(f"/games/{b}/deals", data={"kind": "deal", "taker": "EW", "trump": "spades",
                                             "points": "90"})
    page = client.get("/stats").text
    rows = {m[0]: m[1:] for m in re.findall(
        r'<th scope="row">([^<]*)</th>\s*<td class="num">(\d+)</td>\s*<td class="num">(\d+)'
        r'</td>\s*<td class="num">(\d+)</td>\s*<td class="num">(\d+)\D', page)}
    assert rows == {"Eux": ("2", "0", "2", "1"), "Nous": ("1", "1", "2", "2"),
                    "Les bleus": ("1", "0", "0", "0")}
    assert "Plus grosse donne\u00a0: 252 pour Nous, donne 3 de la partie Nous – Eux." in page
    assert "Parties de ce navigateur\u00a0: 2\u00a0; terminées\u00a0: 1." in page


def test_chances_are_off_by_default_and_shown_when_asked(client: TestClient) -> None:
    gid = start(client, "belote", "1000")
    client.post(f"/games/{gid}/deals", data={"kind": "deal", "taker": "NS",
                                              "trump": "hearts", "capot": "taker"})
    assert 'id="odds"' not in client.get(f"/games/{gid}").text
    r = client.get(f"/prefs/chances/on?next=/games/{gid}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/games/{gid}"
    found = re.search(r'id="odds">Chances estimées\u00a0: Nous (\d+) % · Eux (\d+) %<',
                      client.get(f"/games/{gid}").text)
    assert found, "no chances shown"
    ns, ew = int(found.group(1)), int(found.group(2))
    assert ns + ew in (99, 100, 101) and ns > 55  # 252 points ahead at 1000
    client.get("/prefs/chances/off")
    assert 'id="odds"' not in client.get(f"/games/{gid}").text


def test_chances_follow_the_score() -> None:
    from rebelote.web.counter.chances import chances, deal_marks

    for game in ("belote", "coinche"):
        pairs, cumulative = deal_marks(game)
        assert len(pairs) > 50 and cumulative[-1] > 2000  # many bot-played deals
        even = chances(game, (0, 0), 1000)
        assert abs(even[0] - 0.5) < 0.05 and abs(sum(even) - 1) < 1e-9
        ahead = [chances(game, (lead, 0), 1000)[0] for lead in (0, 200, 400, 600, 800)]
        assert ahead == sorted(ahead) and ahead[-1] > 0.85, ahead
        a, b = chances(game, (600, 300), 1000), chances(game, (300, 600), 1000)
        assert abs(a[0] - b[1]) < 0.05  # the same score seen from the other side
        assert chances(game, (1010, 990), 1000) == (1.0, 0.0)
    # a longer game leaves the team behind more hope
    assert chances("belote", (0, 300), 2000)[0] > chances("belote", (0, 300), 1000)[0]


def test_saved_games_keep_their_meta_through_migration(tmp_path: Path) -> None:
    """A database of the secrets' revision (0002) takes the players' revision: its games
    read back with no players and are not archived."""
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from rebelote.store import GameStore, make_engine, migrate
    from rebelote.store.db import MIGRATIONS

    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
        connection.execute(sa.text(
            "INSERT INTO counter_games (id, version, game, team_ns, team_ew, target, deal_count,"
            " total_ns, total_ew, winner, data, secret_hash, view_id, created_at, updated_at) "
            "VALUES ('abc', 1, 'belote', 'Nous', 'Eux', 1000, 0, 0, 0, NULL, "
            "'{\"game\":\"belote\",\"deals\":[]}', 'h', 'v', '2026-01-01', '2026-01-01')"))
    migrate(engine)
    store = GameStore(engine)
    assert store.get("abc").meta == {}
    assert [row.archived for row in store.list({"h"}, archived=None)] == [False]
    engine.dispose()
def test_the_csv_names_the_litige_on_the_deal_that_receives_it(client: TestClient) -> None:
    created = client.post(API, json={"game": "belote", "target": 1000, "deals": [
        {"taker": "NS", "trump": "hearts", "points": {"NS": 81}},
        {"taker": "EW", "trump": "hearts", "points": {"EW": 100}},
        {"taker": "NS", "trump": "hearts", "points": {"NS": 100}},
    ]}).json()
    for lang, word in (("fr", "Litige reçu"), ("en", "Litige in")):
        rows = [line.split(",") for line in client.get(
            f"{API}/{created['id']}/export.csv?lang={lang}").text.splitlines()]
        head = next(i for i, row in enumerate(rows) if row[0] in ("Donne", "Deal"))
        column = rows[head].index(word)
        assert [row[column] for row in rows[head + 1:]] == ["0", "81", "0"], lang
    back = client.post(f"{API}/import", content=client.get(
        f"{API}/{created['id']}/export.csv").content, headers={"Content-Type": "text/csv"})
    assert back.status_code == 201, back.text
    assert back.json()["totals"] == created["totals"]
    assert back.json()["deals"] == created["deals"]


# -- one translation system for the pages, the PDFs and the CSV headers -----------------------
def test_every_label_of_the_sheets_and_files_has_its_french_in_the_catalog() -> None:
    from babel.messages.pofile import read_po

    from rebelote.sheets import labels

    locale = Path(labels.__file__).parent.parent / "locale"
    with (locale / "fr" / "LC_MESSAGES" / "rebelote.po").open("rb") as f:
        catalog = read_po(f, locale="fr")
    missing = [key for key, english in labels.LABELS["en"].items() if english
               and not (catalog.get(english, key) and catalog.get(english, key).string)]
    assert missing == []
    assert labels.text("fr", "csv.col.held_over") == "Litige reçu"


@pytest.mark.skipif(shutil.which("pdftotext") is None,
                    reason="pdftotext is missing (Debian's poppler-utils)")
def test_passed_deals_and_corrections_have_one_name_on_the_page_the_pdf_and_the_csv(
        client: TestClient, tmp_path: Path) -> None:
    gid = start(client)
    client.post(f"/games/{gid}/deals", data={"kind": "void"})
    page = client.post(f"/games/{gid}/deals", data={"kind": "adjust", "adj_NS": "20"},
                       headers=HX).text
    badges = re.findall(r'class="badge (?:void|adjust)">([^<]*)<', page)
    assert badges == ["correction", "passe"]  # newest first
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(client.get(f"{API}/{gid}/sheet.pdf?lang=fr").content)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "passe" in text and "correction" in text
    assert "donne nulle" not in text and "ajustement" not in text
    rows = client.get(f"{API}/{gid}/export.csv").text.splitlines()[-2:]
    assert [row.split(",")[-5] for row in rows] == ["passe", "correction"]
    english = client.get(f"/games/{gid}?lang=en").text
    assert re.findall(r'class="badge (?:void|adjust)">([^<]*)<', english) == ["adjustment",
                                                                              "passed"]
    # a file written with the earlier words still reads back
    old = client.get(f"{API}/{gid}/export.csv").text.replace(",passe,", ",donne nulle,") \
        .replace(",correction,", ",ajustement,")
    back = client.post(f"{API}/import", content=old.encode(),
                       headers={"Content-Type": "text/csv"})
    assert back.status_code == 201 and back.json()["totals"] == {"NS": 20, "EW": 0}


def test_archiving_needs_the_secret_and_the_same_site(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'safe.sqlite3'}")
    with keyed_client(app) as owner, TestClient(app) as stranger:
        created = owner.post(API, json={"game": "belote"}).json()
        gid = created["id"]
        r = stranger.post(f"/games/{gid}/archive", data={"archived": "1"})
        assert r.status_code == 403 and r.headers["content-type"].startswith("text/html")
        r = stranger.patch(f"{API}/{gid}", json={"archived": True})
        assert r.status_code == 403
        owner.post(f"/join/{gid}", data={"key": created["token"]})
        r = owner.post(f"/games/{gid}/archive", data={"archived": "1"},
                       headers={"Origin": "https://elsewhere.example"})
        assert r.status_code == 403
        head = {"Authorization": f"Bearer {created['token']}"}
        assert [g["archived"] for g in owner.get(f"{API}?archived=all", headers=head
                                                 ).json()["games"]] == [False]
        assert stranger.get("/stats").status_code == 200  # no game of its own: nothing shown
        assert "Pas encore de partie" in stranger.get("/stats").text
