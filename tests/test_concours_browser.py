"""A whole concours in a real browser (issue 20): nine doublettes over four parties, a late
arrival, a withdrawal and a correction; two tables of the first partie counted on phones
through the counter (their links from the QR page), the others typed from paper sheets; the
room screen open all along, following live without a reload.

Debian's chromium driven by Playwright against ``rebelote serve`` on a temporary SQLite file;
skipped when ``/usr/bin/chromium`` is absent.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from web_fixtures import free_port, live_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path(os.environ.get("REBELOTE_SCREENSHOTS", "/tmp"))
TEAMS = ["Les As: Anne, Marc", "Les Rois: Paul, Lise", "Les Dames: Jo, Léa", "Les Valets",
         "La Belote du Lundi", "Les Capots", "Les Coincheurs", "Les Dix de Der",
         "Les Sans-Atout"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason=f"{CHROMIUM} is absent: install Debian's chromium to run the "
                              "browser tests"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def wait_until(page: Any, expression: str, timeout: float = 15.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"never true: {expression}")
        page.wait_for_timeout(100)


def watch_csp(page: Any) -> list[str]:
    found: list[str] = []
    page.on("console", lambda msg: found.append(msg.text)
            if "Content Security Policy" in msg.text else None)
    return found


def api(base: str, cid: str) -> dict[str, Any]:
    return dict(httpx.get(f"{base}/api/concours/{cid}", timeout=10).json())


def type_results(page: Any, base: str, cid: str, k: int, skip: set[int] = frozenset(),
                 bonus: int = 0) -> None:
    """The organiser types each table's paper sheet on the page (2 deals: 324 points)."""
    partie = api(base, cid)["parties"][k - 1]
    for t in partie["tables"]:
        if t["table"] in skip:
            continue
        a = 150 + 7 * t["table"] + bonus + 3 * k
        row = f"#p{k}t{t['table']}"
        page.fill(f"{row} input[name=a]", str(a))
        page.fill(f"{row} input[name=b]", str(324 - a))
        page.click(f"{row} button[type=submit]:not([name])")
        page.wait_for_selector(f"{row}.scored")


def count_on_phone(phone: Any, link: str, takers: list[tuple[str, str]]) -> None:
    """A player counts the table's partie on the counter's one-screen form."""
    page = phone.new_page()
    page.goto(link)
    if "/join/" in link:  # the edit link asks before it adds the game (no login CSRF)
        page.click("#add-game")
    page.wait_for_selector("#deal-form")
    assert "table" in page.inner_text("#concours-table")
    for taker, points in takers:
        page.click(f"#deal-form label:has(input[name=taker][value={taker}])")
        page.click("#deal-form label:has(input[name=trump][value=hearts])")
        page.fill("#points", points)
        n = page.locator("#sheet .row").count()
        page.click("#add-deal")
        wait_until(page, f"document.querySelectorAll('#sheet .row').length == {n + 1}")
    page.wait_for_selector("#partie-over")
    page.close()


def test_a_whole_concours(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'concours.sqlite3'}"
    laptop = browser.new_context(viewport={"width": 1280, "height": 900})
    projector = browser.new_context(viewport={"width": 1280, "height": 900})
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    with live_server(db, free_port()) as base:
        page = laptop.new_page()
        csp = watch_csp(page)
        page.goto(base + "/concours")
        assert page.get_attribute("html", "lang") == "fr"
        page.fill("input[name=name]", "Concours du comité des fêtes")
        page.check("input[name=declarations]")
        page.fill("input[name=parties]", "4")
        page.fill("input[name=deals]", "2")
        page.fill("input[name=seed]", "salle-des-fetes")
        page.fill("textarea[name=teams]", "\n".join(TEAMS))
        page.screenshot(path=str(SHOTS / "rebelote-concours-new.png"), full_page=True)
        page.click("button[type=submit].primary")
        page.wait_for_selector("#draw")
        cid = page.url.rstrip("/").rsplit("/", 1)[1].split("#")[0]
        view = api(base, cid)["view"]

        room = projector.new_page()
        room_csp = watch_csp(room)
        room.goto(f"{base}/salle/{view}")
        assert "Concours du comité des fêtes" in room.inner_text("h1")

        # Partie 1: drawn from the seed; tables 1 and 2 count on phones, 3 and 4 typed.
        page.click("#draw")
        page.wait_for_selector("#p1")
        partie = api(base, cid)["parties"][0]
        assert len(partie["tables"]) == 4 and len(partie["exempt"]) == 1
        wait_until(room, "document.querySelectorAll('#room .seats li').length == 9")
        room.screenshot(path=str(SHOTS / "rebelote-concours-room-draw.png"))
        page.click("#phones")
        page.wait_for_selector("#qr-1 img")
        page.screenshot(path=str(SHOTS / "rebelote-concours-qr.png"), full_page=True)
        links = [page.get_attribute(f"#qr-{t} a.table-link", "href") for t in (1, 2)]
        count_on_phone(phone, links[0], [("NS", "100"), ("EW", "90")])
        count_on_phone(phone, links[1], [("NS", "120"), ("NS", "101")])
        page.goto(f"{base}/concours/{cid}")
        type_results(page, base, cid, 1, skip={1, 2})
        data = api(base, cid)
        assert all(t["scores"] for t in data["parties"][0]["tables"])
        phoned = [t for t in data["parties"][0]["tables"] if t["source"] == "counter"]
        assert [t["table"] for t in phoned] == [1, 2]
        assert sum(phoned[0]["scores"].values()) == 324  # 2 deals, no belote
        # The room screen took the results in by itself.
        exempt = data["parties"][0]["exempt"][0]
        top = data["ranking"][0]
        wait_until(room, f"document.querySelector('#line-{top['team']} .rank') && "
                         f"document.querySelector('#room .lines li .who').textContent"
                         f".startsWith('{top['team']}.')")
        assert exempt in [line["team"] for line in data["ranking"]]

        # A late arrival registered at the door plays from partie 2.
        page.fill("#team-name", "Les Retardataires")
        page.fill("#team-players", "Max, Zoé")
        page.click("#add-team")
        page.wait_for_selector("#team-10")
        page.click("#draw")
        page.wait_for_selector("#p2")
        data = api(base, cid)
        placed = [n for t in data["parties"][1]["tables"] for n in t["teams"]]
        assert 10 in placed and data["parties"][1]["exempt"] == [] and len(placed) == 10
        type_results(page, base, cid, 2)

        # A withdrawal: team 4 plays no more.
        page.click("#team-4 button.withdraw")
        page.wait_for_selector("#team-4.withdrawn")
        page.click("#draw")
        page.wait_for_selector("#p3")
        data = api(base, cid)
        placed = [n for t in data["parties"][2]["tables"] for n in t["teams"]]
        placed += data["parties"][2]["exempt"]
        assert 4 not in placed and len(placed) == 9
        type_results(page, base, cid, 3)

        # A correction of partie 2, table 1: the ranking follows at once.
        t = api(base, cid)["parties"][1]["tables"][0]
        a, b = t["teams"]
        page.click("#p2 summary")
        page.fill("#p2t1 input[name=a]", "300")
        page.fill("#p2t1 input[name=b]", "24")
        page.click("#p2t1 button[type=submit]:not([name])")
        page.wait_for_selector("#p2t1.scored")
        data = api(base, cid)
        assert data["parties"][1]["tables"][0]["scores"] == {str(a): 300, str(b): 24}

        # A wrong sum is saved and asks to check the sheet.
        page.click("#draw")
        page.wait_for_selector("#p4")
        page.fill("#p4t1 input[name=a]", "200")
        page.fill("#p4t1 input[name=b]", "200")
        page.click("#p4t1 button[type=submit]:not([name])")
        page.wait_for_selector("#notice")
        assert "vérifiez la feuille" in page.inner_text("#notice")
        page.wait_for_selector("#p4t1.to-check")
        type_results(page, base, cid, 4, skip={1})
        page.fill("#prizes", "Un jambon\nDeux canards\nUn panier garni")
        page.click("#settings button[type=submit]")
        page.wait_for_selector("#over")
        page.screenshot(path=str(SHOTS / "rebelote-concours-organiser.png"), full_page=True)

        data = api(base, cid)
        assert data["over"] and data["drawn"] == 4
        # No two teams met twice (nine teams, four parties: a draw without rematch exists).
        met = [frozenset(t["teams"]) for p in data["parties"] for t in p["tables"]]
        assert len(met) == len(set(met))
        # The ranking is the plain sum of each team's tables and exempts.
        points = {n: 0 for n in range(1, 11)}
        for p in data["parties"]:
            for t in p["tables"]:
                for n, s in t["scores"].items():
                    points[int(n)] += s
            for n in p["exempt"]:
                points[n] += 2 * 162 // 2
        assert {line["team"]: line["points"] for line in data["ranking"]} == points
        assert [line["points"] for line in data["ranking"]] == sorted(points.values(),
                                                                      reverse=True)
        # The room screen follows to the final ranking, with its prizes.
        wait_until(room, "document.querySelector('#room-ranking-title').textContent"
                         ".includes('final')")
        first = data["ranking"][0]["team"]
        wait_until(room, f"document.querySelector('#line-{first} .prize') !== null")
        room.screenshot(path=str(SHOTS / "rebelote-concours-room-ranking.png"))
        on_wall = room.locator("#room .lines li .who").all_inner_texts()
        assert [w.split(".")[0] for w in on_wall] == [str(x["team"]) for x in data["ranking"]]

        small = phone.new_page()
        small.goto(f"{base}/salle/{view}")
        small.screenshot(path=str(SHOTS / "rebelote-concours-room-phone.png"), full_page=True)
        organiser_phone = browser.new_context(viewport={"width": 390, "height": 844},
                                              storage_state=laptop.storage_state())
        mobile = organiser_phone.new_page()
        mobile.goto(f"{base}/concours/{cid}")
        mobile.screenshot(path=str(SHOTS / "rebelote-concours-organiser-phone.png"),
                          full_page=True)
        width = mobile.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the organiser's page is {width}px wide on a phone"
        for pdf in ("parties/4/tirage.pdf", "parties/4/ou-suis-je.pdf",
                    "parties/4/feuilles.pdf", "classement.pdf"):
            r = httpx.get(f"{base}/concours/{cid}/{pdf}", timeout=10)
            assert r.status_code == 200 and r.content.startswith(b"%PDF")
        assert not csp and not room_csp
        organiser_phone.close()
    for context in (laptop, projector, phone):
        context.close()
