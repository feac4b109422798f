"""The journey *a club* (issue 33): an organiser on a laptop runs a concours of coinche with
13 teams over two parties, every table counted on its phone (one phone in the browser at
390×844, the others through the counter's API as their phones send it), with a coinched deal,
a capot, an undo after the partie ended, a correction, a withdrawal taken back and a phone
refused once its partie is closed; the organiser's page and the room screen follow every
result by themselves; every PDF is read back (pdftotext); the ranking is the plain sum of the
sheets.

It replaces the older browser test of the concours (nine teams typed from paper sheets: the
same pages, the same PDFs, the same room screen). A litige cannot end a coinche partie (a
contract is made or failed), so the last-deal litige is the belote test's
(tests/test_concours_phones.py).

Debian's chromium driven by Playwright against one ``rebelote serve`` on a temporary SQLite
file; skipped when ``/usr/bin/chromium`` is absent.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from web_fixtures import CHROMIUM, free_port, live_server

SHOTS = Path(os.environ.get("REBELOTE_SCREENSHOTS", "/tmp"))
TEAMS = ["Les As: Anne, Marc", "Les Rois: Paul, Lise", "Les Dames: Jo, Léa", "Les Valets",
         "La Belote du Lundi", "Les Capots", "Les Coincheurs", "Les Dix de Der",
         "Les Sans-Atout", "Le Cochonnet", "Les Joyeux Boulistes de Saint-Martin",
         "Les Amis du Mardi", "Les Derniers"]
DEALS = 3

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason=f"{CHROMIUM} is absent: install Debian's chromium to run the "
                              "browser tests"),
]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = f"sqlite:///{tmp_path_factory.mktemp('club') / 'club.sqlite3'}"
    with live_server(db, free_port()) as url:
        yield url


def wait_until(page: Any, expression: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"never true: {expression}")
        page.wait_for_timeout(150)


#: The organiser's page and the room screen ask the server every 4 s whether the concours
#: changed (``LIVE_EVERY`` in static/concours.js). Their contexts run on Playwright's clock,
#: which :func:`wait_live` moves on by that much while it waits: the page's own timer asks at
#: once, instead of up to 4 s later.
LIVE_EVERY_MS = 4000


def wait_live(page: Any, expression: str, timeout: float = 20.0) -> None:
    """:func:`wait_until` for a page that follows the concours by itself (its context's clock
    installed)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"never true: {expression}")
        page.clock.fast_forward(LIVE_EVERY_MS)
        page.wait_for_timeout(150)


@functools.cache
def http() -> httpx.Client:
    """One client for the journey's requests (``httpx.get`` makes a client, and its TLS
    context, each time: 16 ms of CPU)."""
    return httpx.Client(timeout=20)


@pytest.fixture(scope="module", autouse=True)
def _closed_client(base: str) -> Iterator[None]:
    """The client closed before the server stops."""
    yield
    http().close()
    http.cache_clear()


def api(base: str, cid: str) -> dict[str, Any]:
    return dict(http().get(f"{base}/api/concours/{cid}").json())


def pdf_text(base: str, path: str) -> str:
    r = http().get(f"{base}{path}")
    assert r.status_code == 200 and r.content.startswith(b"%PDF"), path
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=r.content,
                         capture_output=True, check=True)
    return out.stdout.decode()


def phone_deals(base: str, link: str, deals: list[dict[str, Any]]) -> None:
    """A table's phone sends its deals (as the counter's page does)."""
    game, key = link.removeprefix("/join/").split("?key=")
    for d in deals:
        r = http().post(f"{base}/api/counter/games/{game}/deals", json=d,
                        headers={"Authorization": f"Bearer {key}"})
        assert r.status_code == 200, r.text


def simple(taker: str, points: int) -> dict[str, Any]:
    return {"taker": taker, "contract": 80, "trump": "clubs", "points": {taker: points}}


def on_phone_form(page: Any, taker: str, contract: str, points: str = "",
                  coinche: str = "none", capot: str = "") -> None:
    """One deal typed on the counter's one-screen form."""
    page.click(f"#deal-form label:has(input[name=taker][value={taker}])")
    page.click("#deal-form label:has(input[name=trump][value=hearts])")
    page.select_option("#contract", contract)
    if coinche != "none":
        page.click(f"#deal-form label:has(input[name=coinche][value={coinche}])")
    if capot:
        page.click(f"#deal-form label:has(input[name=capot][value={capot}])")
    if points:
        page.fill("#points", points)
    n = page.locator("#sheet .row").count()
    page.click("#add-deal")
    wait_until(page, f"document.querySelectorAll('#sheet .row').length == {n + 1}")


def test_a_club_runs_its_concours(browser: Any, base: str) -> None:
    laptop = browser.new_context(viewport={"width": 1280, "height": 900})
    projector = browser.new_context(viewport={"width": 1280, "height": 900})
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    laptop.clock.install()  # the pages that follow the concours: see wait_live
    projector.clock.install()
    csp: list[str] = []
    for ctx in (laptop, projector, phone):
        ctx.on("console", lambda msg: csp.append(msg.text)
               if "Content Security Policy" in msg.text else None)
    page = laptop.new_page()
    page.on("dialog", lambda d: d.accept())

    # The concours is found from the home page, and created with 13 teams.
    page.goto(base + "/")
    page.click("#concours-link")
    page.wait_for_selector("form.new-concours")
    page.fill("input[name=name]", "Concours du comité des fêtes")
    page.select_option("#game", "coinche")
    page.fill("input[name=parties]", "2")
    page.fill("input[name=deals]", str(DEALS))
    page.fill("input[name=seed]", "salle-des-fetes")
    page.fill("textarea[name=teams]", "\n".join(TEAMS))
    assert page.locator("#reserve-at-end").input_value() == "defence"
    page.screenshot(path=str(SHOTS / "rebelote-club-new.png"), full_page=True)
    page.click("button[type=submit].primary")
    page.wait_for_selector("#draw")
    cid = page.url.rstrip("/").rsplit("/", 1)[1].split("#")[0]
    assert "Litige à la dernière donne d’une partie" in page.inner_text("#reserve-rule")
    view_id = api(base, cid)["view"]

    room = projector.new_page()
    room.goto(f"{base}/salle/{view_id}")
    # Before any result nobody is ranked (no "1 … 13" at 0 points).
    assert room.locator("#room .lines .rank").all_inner_texts() == ["–"] * 13
    assert "personne n’est classé" in page.inner_text("#ranking")

    # Partie 1: 6 tables and an exempt, every table on a phone.
    page.click("#draw")
    page.wait_for_selector("#p1")
    wait_live(room, "document.querySelectorAll('#room .seats li').length == 13")
    page.click("#phones")
    page.wait_for_selector("#qr-1 img")
    links = [page.get_attribute(f"#qr-{t} a.table-link", "href") or "" for t in range(1, 7)]
    links = [link.replace(base, "") for link in links]
    page.goto(f"{base}/concours/{cid}")

    # Table 1 counts on a phone in the browser: greeted as the table, not as a second scorer.
    p1 = phone.new_page()
    p1.on("dialog", lambda d: d.accept())
    p1.goto(base + links[0])
    assert "Ajoutez-la seulement" not in p1.inner_text("main")
    assert "table 1" in p1.inner_text("h1")
    p1.click("#add-game")
    p1.wait_for_selector("#deal-form")
    on_phone_form(p1, "NS", "100", "110", coinche="coinche")  # a coinched deal
    on_phone_form(p1, "EW", "capot", capot="taker")  # a capot
    # The organiser's page does not know the result yet ...
    assert "compté au téléphone" not in page.inner_text("#p1t1")
    on_phone_form(p1, "NS", "90", "95")
    p1.wait_for_selector("#partie-over")
    assert "prochaine donne" not in p1.inner_text("main")
    # ... and takes it in by itself, as does the room screen.
    wait_live(page, "document.querySelector('#p1t1 .badge.phone') && document.querySelector("
                     "'#p1t1 .badge.phone').textContent.includes('compté au téléphone')")
    wait_live(room, "document.querySelector('#room .lines .rank').textContent.trim() == '1'")
    first = api(base, cid)["parties"][0]["tables"][0]["scores"]
    # An undo after the partie ended (before it is closed): the concours follows the phone.
    p1.click("#undo")
    wait_live(page, "!document.querySelector('#p1t1').classList.contains('scored')")
    assert api(base, cid)["parties"][0]["tables"][0]["scores"] is None
    on_phone_form(p1, "NS", "90", "120")
    p1.wait_for_selector("#partie-over")
    wait_live(page, "document.querySelector('#p1t1').classList.contains('scored')")
    again = api(base, cid)["parties"][0]["tables"][0]["scores"]
    assert again != first
    p1.screenshot(path=str(SHOTS / "rebelote-club-phone-over.png"), full_page=True)

    # The other tables' phones.
    for i, link in enumerate(links[1:], start=2):
        phone_deals(base, link, [simple("NS", 100 + i), simple("EW", 90),
                                 simple("NS", 81 + i)])
    wait_live(page, "document.querySelectorAll('#p1 li.table.scored').length == 6")

    # A correction: the organiser changes table 2's result; the page shows both.
    t2 = api(base, cid)["parties"][0]["tables"][1]
    page.fill("#p1t2 input[name=a]", "300")
    page.fill("#p1t2 input[name=b]", "200")
    page.click("#p1t2 button[type=submit]:not([name])")
    page.wait_for_selector("#p1t2 .badge.warn")
    assert "corrigé par l’organisateur" in page.inner_text("#p1t2")
    assert api(base, cid)["parties"][0]["tables"][1]["phone"] == t2["scores"]

    # A withdrawal, asked first, then taken back.
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click("#withdraw-13")
    page.wait_for_selector("#undo")
    assert asked and "Les Derniers" in asked[0]
    assert api(base, cid)["teams"][12]["withdrawn"]
    page.click("#undo")
    page.wait_for_selector("#withdraw-13")
    assert not api(base, cid)["teams"][12]["withdrawn"]

    # A late arrival registered at the door plays from partie 2.
    page.fill("#team-name", "Les Retardataires")
    page.fill("#team-players", "Max, Zoé")
    page.click("#add-team")
    page.wait_for_selector("#team-14")

    # Partie 2 drawn at once (no read needed), on phones; partie 1 is closed to its phone.
    page.click("#draw")
    page.wait_for_selector("#p2")
    p1.click("#undo")
    p1.wait_for_selector("#error")
    assert "le concours a clos la partie 1" in p1.inner_text("#error")
    assert api(base, cid)["parties"][0]["tables"][0]["scores"] == again
    page.click("#phones")
    page.wait_for_selector("#qr-1 img")
    links2 = [(page.get_attribute(f"#qr-{t} a.table-link", "href") or "").replace(base, "")
              for t in range(1, 8)]
    assert api(base, cid)["parties"][1]["exempt"] == []  # 14 teams: 7 tables
    page.goto(f"{base}/concours/{cid}")
    for i, link in enumerate(links2, start=1):
        phone_deals(base, link, [simple("EW", 100 + i), simple("NS", 120), simple("EW", 90)])
    wait_live(page, "document.querySelector('#over') !== null")
    page.fill("#prizes", "Un jambon\nDeux canards\nUn panier garni")
    page.click("#settings button[type=submit]")
    page.wait_for_selector("#ranking-table th:has-text('Lot')")
    wait_live(room, "document.querySelector('#room-ranking-title').textContent"
                     ".includes('final')")
    page.screenshot(path=str(SHOTS / "rebelote-club-organiser.png"), full_page=True)

    # The ranking is the plain sum of the sheets (and the exempts' half parties).
    data = api(base, cid)
    points = {n: 0 for n in range(1, 15)}
    for p in data["parties"]:
        for t in p["tables"]:
            for n, s in t["scores"].items():
                points[int(n)] += s
        for n in p["exempt"]:
            points[n] += p["exempt_points"]
    assert {line["team"]: line["points"] for line in data["ranking"]} == points
    wait_live(room, f"document.querySelector('#line-{data['ranking'][0]['team']} .prize')"
                     " !== null")
    room.screenshot(path=str(SHOTS / "rebelote-club-room.png"))
    on_wall = room.locator("#room .lines li").all_inner_texts()
    assert [int(re.search(r"n° (\d+)", w).group(1)) for w in on_wall] == \
        [line["team"] for line in data["ranking"]]  # type: ignore[union-attr]

    # Every PDF, read back.
    if shutil.which("pdftotext"):
        for k in (1, 2):
            draw = pdf_text(base, f"/concours/{cid}/parties/{k}/tirage.pdf")
            assert all(name.split(":")[0][:20] in draw for name in TEAMS[:10])
            where = pdf_text(base, f"/concours/{cid}/parties/{k}/ou-suis-je.pdf")
            assert "Les Derniers" in where
            sheets = pdf_text(base, f"/concours/{cid}/parties/{k}/feuilles.pdf")
            assert sheets.count("TOTAL") == 5 + k and "litige à la dernière donne" in sheets
        ranking = pdf_text(base, f"/concours/{cid}/classement.pdf")
        assert "Classement final" in ranking
        for line in data["ranking"]:
            row = next(r for r in ranking.splitlines()
                       if re.match(rf"\s*{line['rank']}\s+{line['team']}\s", r))
            assert f"{line['points']:,}".replace(",", "\u202f") in row or \
                str(line["points"]) in row.replace("\u202f", "").replace(" ", ""), row

    # The organiser's page and the room screen on a phone.
    mobile = browser.new_context(viewport={"width": 390, "height": 844},
                                 storage_state=laptop.storage_state())
    m = mobile.new_page()
    m.goto(f"{base}/concours/{cid}")
    m.screenshot(path=str(SHOTS / "rebelote-club-organiser-phone.png"), full_page=True)
    assert m.evaluate("document.documentElement.scrollWidth") <= 390
    small = phone.new_page()
    small.goto(f"{base}/salle/{view_id}")
    small.screenshot(path=str(SHOTS / "rebelote-club-room-phone.png"), full_page=True)
    assert small.evaluate("document.documentElement.scrollWidth") <= 390
    assert not csp, csp
    for ctx in (laptop, projector, phone, mobile):
        ctx.close()
