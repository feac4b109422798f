"""The counter's pages (htmx and plain forms), French and English, the printables and
exchange routes, and the catalogs."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from rebelote import catalogs
from rebelote.match import Match
from rebelote.rules import Rules
from rebelote.scoring import score_deal
from rebelote.summary import DealSummary
from rebelote.web import i18n
from rebelote.web.app import create_app
from rebelote.web.counter.forms import deal_from_form, form_from_deal
from web_fixtures import keyed_client, seed_game

API = "/api/counter/games"
HX = {"HX-Request": "true"}
FIVE = seed_game("belote-five-deals")
LOCALE = Path(i18n.__file__).parent.parent / "locale"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with keyed_client(create_app(f"sqlite:///{tmp_path / 'pages.sqlite3'}")) as c:
        yield c


def start(client: TestClient, **form: str) -> str:
    r = client.post("/games", data={"game": "belote", "target": "1000", **form},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def total(html: str, team: str) -> str:
    found = re.search(rf'id="total-{team}">([^<]*)<', html)
    assert found, html[:500]
    return found.group(1)


FORM_DEALS = [  # the five seed deals as the page's form sends them
    {"trump": "hearts", "taker": "NS", "points": "98", "belote": "NS"},
    {"trump": "hearts", "taker": "EW", "points": "71", "decl_EW": "20"},
    {"trump": "hearts", "taker": "NS", "points": "102"},
    {"trump": "hearts", "taker": "EW", "points": "66", "decl_NS": "50"},
    {"trump": "hearts", "taker": "NS", "capot": "taker", "belote": "NS", "decl_EW": "20"},
]


def test_home_is_french_by_default(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'lang="fr"' in page.text and "Nouvelle partie" in page.text


def test_language_switch_is_remembered(client: TestClient) -> None:
    r = client.get("/lang/en", params={"next": "/games"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/games"
    assert "New game" in client.get("/").text
    client.get("/lang/fr")
    assert "Nouvelle partie" in client.get("/").text


def test_language_switch_never_redirects_away(client: TestClient) -> None:
    r = client.get("/lang/en", params={"next": "https://evil.example/"}, follow_redirects=False)
    assert r.headers["location"] == "/"


def test_a_whole_game_through_the_forms(client: TestClient) -> None:
    gid = start(client)
    for fields in FORM_DEALS:
        r = client.post(f"/games/{gid}/deals", data={"kind": "deal", "trump": "hearts", **fields},
                        headers=HX)
        assert r.status_code == 200, r.text
    assert total(r.text, "NS") == "906" and total(r.text, "EW") == "124"
    page = client.get(f"/games/{gid}").text
    assert "réussi" in page and "litige" in page and "chute" in page
    assert client.get(f"{API}/{gid}").json()["totals"] == FIVE["expect"]["totals"]


def test_a_plain_form_post_redirects_to_the_game(client: TestClient) -> None:
    gid = start(client)
    r = client.post(f"/games/{gid}/deals", data={"trump": "hearts", "taker": "NS", "points": "100"},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/games/{gid}"


def test_a_bad_form_shows_the_error_and_keeps_what_was_typed(client: TestClient) -> None:
    gid = start(client)
    r = client.post(f"/games/{gid}/deals", headers=HX,
                    data={"trump": "hearts", "taker": "NS", "points": "170"})
    assert r.status_code == 422
    assert "Points\u00a0: 170 dépasse les 162 points d’une donne." in r.text
    assert 'value="170"' in r.text
    # the error sits next to the points box, not above the form
    assert r.text.index('id="error"') > r.text.index('id="points"')
    assert client.get(f"{API}/{gid}").json()["deals"] == []


def test_the_trump_is_asked_then_remembered(client: TestClient) -> None:
    gid = start(client)
    r = client.post(f"/games/{gid}/deals", data={"taker": "NS", "points": "100"}, headers=HX)
    assert r.status_code == 422 and "Atout\u00a0: choisissez l’atout." in r.text
    assert 'name="trump" value="hearts" checked' not in r.text
    r = client.post(f"/games/{gid}/deals", headers=HX,
                    data={"taker": "NS", "points": "100", "trump": "clubs"})
    assert r.status_code == 200 and 'name="trump" value="clubs" checked' in r.text


def test_all_passed_and_correction_need_no_taker(client: TestClient) -> None:
    gid = start(client)
    assert client.post(f"/games/{gid}/deals", data={"kind": "void"}, headers=HX
                       ).status_code == 200
    r = client.post(f"/games/{gid}/deals", data={"kind": "adjust", "adj_EW": "-20"},
                    headers=HX)
    assert r.status_code == 200
    assert "+0 / −20" in r.text and "+-" not in r.text
    r = client.post(f"/games/{gid}/deals", data={"kind": "adjust", "adj_NS": "99999"},
                    headers=HX)
    assert r.status_code == 422 and "±5000" in r.text.replace("\u202f", "")
    assert 'name="taker" value="NS" required' not in r.text


def test_an_old_version_shows_the_game_again(client: TestClient) -> None:
    gid = start(client)
    client.post(f"{API}/{gid}/deals", json={"void": True})
    r = client.post(f"/games/{gid}/deals", data={"trump": "hearts", "taker": "NS", "points": "100",
                                                 "version": "1"}, headers=HX)
    assert r.status_code == 409 and 'role="alert"' in r.text
    assert len(client.get(f"{API}/{gid}").json()["deals"]) == 1


def test_edit_undo_and_rename(client: TestClient) -> None:
    gid = start(client)
    for fields in FORM_DEALS:
        client.post(f"/games/{gid}/deals", data=fields, headers=HX)
    form = client.get(f"/games/{gid}/deals/2/edit", headers=HX).text
    assert f'hx-post="/games/{gid}/deals/2"' in form and 'value="71"' in form
    r = client.post(f"/games/{gid}/deals/2", headers=HX,
                    data={"trump": "hearts", "taker": "EW", "points": "100"})
    assert r.status_code == 200
    assert total(r.text, "EW") == "224"
    r = client.post(f"/games/{gid}/undo", headers=HX)
    assert len(client.get(f"{API}/{gid}").json()["deals"]) == 4
    r = client.post(f"/games/{gid}/settings", data={"team_NS": "Les bleus"}, headers=HX)
    assert 'id="name-NS"' in r.text and "Les bleus" in r.text


def test_the_winner_is_announced_and_the_form_offers_a_new_game(client: TestClient) -> None:
    gid = start(client, target="501")
    for _ in range(2):
        r = client.post(f"/games/{gid}/deals", headers=HX,
                        data={"trump": "hearts", "taker": "EW", "capot": "taker"})
    assert 'id="winner"' in r.text and "Victoire\u00a0: Eux" in r.text
    assert 'id="deal-form"' not in r.text
    r = client.post(f"/games/{gid}/deals", headers=HX,
                    data={"trump": "hearts", "taker": "EW", "points": "100"})
    assert r.status_code == 422 and "la partie est finie" in r.text


def test_coinche_form(client: TestClient) -> None:
    gid = start(client, game="coinche", rounding="none", declarations="on")
    page = client.get(f"/games/{gid}").text
    assert 'name="contract"' in page and 'value="generale"' in page
    r = client.post(f"/games/{gid}/deals", headers=HX, data={
        "taker": "NS", "contract": "100", "coinche": "none", "points": "110", "trump": "hearts"})
    assert total(r.text, "NS") == "210" and total(r.text, "EW") == "52"
    r = client.post(f"/games/{gid}/deals", headers=HX, data={
        "taker": "EW", "contract": "80", "coinche": "coinche", "points": "70",
        "trump": "hearts"})
    deal = client.get(f"{API}/{gid}").json()["deals"][1]
    assert deal["outcome"] == "failed" and deal["score"] == {"NS": 480, "EW": 0}


def test_new_game_form_errors(client: TestClient) -> None:
    r = client.post("/games", data={"game": "belote", "target": "other", "target_other": "x"})
    assert r.status_code == 422 and "target" in r.text
    r = client.post("/games", data={"game": "belote", "team_NS": "x" * 50})
    assert r.status_code == 422 and "teams.NS" in r.text


def test_new_game_with_another_target_and_options(client: TestClient) -> None:
    gid = start(client, target="other", target_other="800", declarations="off",
                team_NS="A", team_EW="B")
    game = client.get(f"{API}/{gid}").json()
    assert game["target"] == 800 and game["options"] == {"declarations": False}
    assert game["teams"] == {"NS": "A", "EW": "B"}


def resume_link(home: str) -> str | None:
    """The href of the home page's "resume the game" card, None when there is none."""
    found = re.search(r'<a class="card resume" href="([^"]+)" id="resume">', home)
    return found.group(1) if found else None


def test_saved_games_page_and_resume(client: TestClient) -> None:
    # the resume card (not the saved-games list, which names every game) leads to the game
    # played last, with its teams
    first = start(client, team_NS="Alice", team_EW="Bob")
    client.post(f"/games/{first}/deals", data={"kind": "void"})  # played: kept
    assert "Alice" in client.get("/games").text
    home = client.get("/").text
    assert resume_link(home) == f"/games/{first}"
    card = home[home.index('id="resume"'):home.index("</a>", home.index('id="resume"'))]
    assert "Alice" in card and "Bob" in card
    second = start(client, team_NS="Carla", team_EW="Dan")
    home = client.get("/").text
    assert resume_link(home) == f"/games/{second}" and f"/games/{first}" in home
    client.cookies.clear()
    assert resume_link(client.get("/").text) is None


def test_missing_game_page_is_404(client: TestClient) -> None:
    r = client.get("/games/nothing-here")
    assert r.status_code == 404 and "nothing-here" in r.text


def test_result_card_lines_are_on_the_page(client: TestClient) -> None:
    gid = start(client)
    r = client.post(f"/games/{gid}/deals", data=FORM_DEALS[1], headers=HX)
    assert "Litige" in r.text and "va au gagnant de la donne suivante" in r.text


def test_result_card_sentences_name_the_default_teams_as_teams(client: TestClient) -> None:
    # "Nous" and "Eux" are pronouns: the sentences say "notre équipe" and "l’équipe adverse"
    # ("Nous marque", "Contrat 80 de Eux" before)
    gid = start(client)
    r = client.post(f"/games/{gid}/deals", data=FORM_DEALS[1], headers=HX)
    assert "Annonces\u00a0: l’équipe adverse a montré la plus forte" in r.text, r.text
    assert "Eux a montré" not in r.text
    assert ("Litige\u00a0: notre équipe marque son total\u00a0; la réserve de l’équipe adverse "
            "(91)") in r.text
    named = start(client, team_NS="Anne et Luc", team_EW="Les Martin")
    r = client.post(f"/games/{named}/deals", data=FORM_DEALS[1], headers=HX)
    # any other name is said as a team's ("Les Martin a montré" before)
    assert "Annonces\u00a0: l’équipe\u00a0«\u00a0Les Martin\u00a0» a montré la plus forte" in r.text


# -- forms: translation only -----------------------------------------------------------------
@pytest.mark.parametrize("deal", [
    {"taker": "NS", "trump": "hearts", "points": {"NS": 98, "EW": 64}, "belote": "NS"},
    {"taker": "EW", "trump": "all-trump", "points": {"NS": 100, "EW": 62},
     "belote": {"NS": 1, "EW": 2}},
    {"taker": "NS", "trump": "spades", "points": {"NS": 252, "EW": 0}, "capot": "NS",
     "declarations": {"EW": 20}},
    {"taker": "EW", "trump": "no-trump", "points": {"NS": 252, "EW": 0}, "capot": "NS"},
    {"void": True},
    {"adjust": {"NS": -20, "EW": 162}},
])
def test_form_round_trips_a_deal(deal: dict[str, Any]) -> None:
    rules = Rules.preset("official", "belote")
    summary = DealSummary.from_json(deal, rules)
    again = DealSummary.from_json(deal_from_form(form_from_deal(summary), "belote"), rules)
    assert again == summary


def test_coinche_form_round_trips() -> None:
    rules = Rules.preset("official", "coinche")
    deal = {"taker": "NS", "trump": "hearts", "contract": "generale", "coinche": "surcoinche",
            "points": {"NS": 252, "EW": 0}, "capot": "NS", "generale": True}
    summary = DealSummary.from_json(deal, rules)
    assert DealSummary.from_json(deal_from_form(form_from_deal(summary), "coinche"),
                                 rules) == summary


# -- catalogs --------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_compiled_catalog_matches_its_po(lang: str) -> None:
    folder = LOCALE / lang / "LC_MESSAGES"
    with (folder / "rebelote.po").open("rb") as f:
        po = read_po(f, locale=lang)
    with (folder / "rebelote.mo").open("rb") as f:
        mo = read_mo(f)

    def strings(catalog: Any) -> dict[str, str]:
        def key(value: Any) -> str:
            return str(tuple(value)) if isinstance(value, (list, tuple)) else str(value)

        def filled(value: Any) -> bool:
            return any(value) if isinstance(value, (list, tuple)) else bool(value)

        return {f"{m.context or ''}\x04{key(m.id)}": key(m.string) for m in catalog
                if m.id and filled(m.string)}

    assert strings(po) == strings(mo)


def test_every_french_message_is_translated() -> None:
    with (LOCALE / "fr" / "LC_MESSAGES" / "rebelote.po").open("rb") as f:
        po = read_po(f, locale="fr")
    with (LOCALE / "rebelote.pot").open("rb") as f:
        pot = read_po(f)
    missing = [(m.context, m.id) for m in pot
               if m.id and not (po.get(m.id, m.context) and po.get(m.id, m.context).string)]
    assert not missing


def test_every_message_of_the_code_has_its_french() -> None:
    # What babel.cfg extracts from the web's code and templates (the .pot's source), not only
    # what the .pot lists: a message added to a page but never to the catalogs shows in English.
    from babel.messages.extract import extract_from_dir

    keywords = {"_": None, "gettext": (2,), "ngettext": (1, 2)}
    methods = [("**.py", "python"), ("**/templates/**.html", "jinja2")]
    options = {"**/templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    found = {(context, msgid if isinstance(msgid, str) else msgid[0])
             for _, _, msgid, _, context in extract_from_dir(
                 str(LOCALE.parent / "web"), methods, options, keywords)}
    translated: set[tuple[str | None, str]] = set()
    for domain in ("rebelote", "concours", "problems"):
        with (LOCALE / "fr" / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
            translated |= {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                           for m in read_po(f, locale="fr") if m.id and m.string}
    assert len(found) > 300
    assert sorted(found - translated, key=str) == []


def _sample_scores() -> list[tuple[DealSummary, Any]]:
    belote = Rules.preset("official", "belote")
    coinche = Rules.preset("official", "coinche")
    deals = [
        (belote, {"taker": "NS", "points": {"NS": 98}, "belote": "NS"}),
        (belote, {"taker": "NS", "points": {"NS": 60}, "declarations": {"EW": 20}}),
        (belote, {"taker": "NS", "points": {"NS": 81}}),
        (belote, {"taker": "NS", "points": {"NS": 81}, "held_over": 81}),
        (belote, {"taker": "NS", "points": {"NS": 252}, "capot": "NS"}),
        (belote.replace(litige="defense"), {"taker": "NS", "points": {"NS": 81}}),
        (belote, {"void": True, "held_over": 81}),
        (belote, {"adjust": {"NS": 20}}),
        (coinche, {"taker": "NS", "contract": 90, "points": {"NS": 97}}),
        (coinche, {"taker": "NS", "contract": 90, "coinche": "coinche", "points": {"NS": 97}}),
        (coinche, {"taker": "NS", "contract": 120, "points": {"NS": 97}, "belote": "EW"}),
        (coinche, {"taker": "NS", "contract": "capot", "points": {"NS": 252}, "capot": "NS"}),
        (coinche, {"taker": "NS", "contract": "generale", "points": {"NS": 252},
                   "capot": "NS", "generale": True}),
    ]
    out = []
    for rules, obj in deals:
        summary = DealSummary.from_json(obj, rules)
        out.append((summary, score_deal(summary, rules)))
    return out


@pytest.mark.parametrize(("summary", "score"), _sample_scores())
def test_every_result_card_line_has_a_french_sentence(summary: DealSummary, score: Any) -> None:
    for line in score.lines:
        fr = i18n.line_text(line, "fr", summary, ("Nous", "Eux"))
        en = i18n.line_text(line, "en", summary, ("Nous", "Eux"))
        assert fr != line.text and fr != en, (line.key, dict(line.args))
        assert "%(" not in fr and "%(" not in en


def test_numbers_are_written_as_the_language_writes_them() -> None:
    assert catalogs.number(1030, "en") == "1,030"
    assert catalogs.number(1030, "fr").replace("\u202f", " ").replace("\xa0", " ") == "1 030"


# -- printables and exchange -----------------------------------------------------------------
def _game_id(client: TestClient) -> str:
    gid = start(client)
    for deal in FIVE["input"]["deals"]:
        client.post(f"{API}/{gid}/deals", json=deal)
    return gid


def test_game_sheet_pdf(client: TestClient) -> None:
    gid = _game_id(client)
    r = client.get(f"{API}/{gid}/sheet.pdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.content.startswith(b"%PDF")
    assert client.get(f"{API}/{gid}/sheet.pdf", params={"lang": "en"}).content[:4] == b"%PDF"
    assert client.get(f"{API}/{gid}/sheet.pdf", params={"lang": "de"}).status_code == 422
    assert client.get(f"{API}/nope/sheet.pdf").status_code == 404


def test_blank_sheet_and_points_table(client: TestClient) -> None:
    r = client.get("/sheets/blank.pdf", params={"game": "coinche", "rows": 18, "NS": "A",
                                                "EW": "B"})
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    assert client.get("/sheets/points-table.pdf").content.startswith(b"%PDF")
    bad = client.get("/sheets/blank.pdf", params={"game": "tarot"})
    assert bad.status_code == 422 and "game" in bad.json()["error"]
    bad = client.get("/sheets/blank.pdf", params={"rows": 500})
    assert bad.status_code == 422 and "rows" in bad.json()["error"]


def test_export_json_is_the_score_input_and_imports_back(client: TestClient) -> None:
    gid = _game_id(client)
    r = client.get(f"{API}/{gid}/export.json")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = json.loads(r.text)
    assert Match.from_json(data).result().totals == (906, 124)
    r = client.post(f"{API}/import", content=r.content,
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 201 and r.json()["totals"] == {"NS": 906, "EW": 124}
    assert r.json()["id"] != gid


def test_export_csv_imports_back(client: TestClient) -> None:
    gid = _game_id(client)
    r = client.get(f"{API}/{gid}/export.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    back = client.post(f"{API}/import", content=r.content, headers={"Content-Type": "text/csv"})
    assert back.status_code == 201, back.text
    assert back.json()["totals"] == {"NS": 906, "EW": 124}


@pytest.mark.parametrize("raw", [b"", b"{oops", b'{"game": "belote"}', b"\xff\xfe\x00"])
def test_import_bad_input_is_422(client: TestClient, raw: bytes) -> None:
    r = client.post(f"{API}/import", content=raw, headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and set(r.json()) == {"error"}
    assert client.get(API).json()["games"] == []


def test_import_form_upload(client: TestClient) -> None:
    gid = _game_id(client)
    data = client.get(f"{API}/{gid}/export.json").content
    r = client.post("/import", files={"file": ("game.json", io.BytesIO(data),
                                               "application/json")}, follow_redirects=False)
    assert r.status_code == 303
    r = client.post("/import", files={"file": ("x.json", io.BytesIO(b"{"), "application/json")})
    assert r.status_code == 422 and "JSON" in r.text
