"""Journey: *a family at the counter* (issue 33). A whole coinche game to 1000 on the point
counter in a real browser, on a 390×844 phone and on a desktop: every badge the counter awards
(générale, capot, belote, coinche, surcoinche) and a passed deal, an undo taken back, the
winner's card, then the printed sheet read back (pdftotext) and checked deal by deal against
the game.

What it checks that broke before: the sentences that did not agree with a team's name
("Nous gagne la partie !"), the colons that started a line, the space lost in "·en 1000", the
coinched belote that read as worth 40, the sheet that marked neither capot nor belote, and its
link hidden in a closed section (issue 33, items 10 and 11). One server and one browser serve
the module.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_axe import AXE, Axe
from web_fixtures import CHROMIUM, live_server

NBSP = "\u00a0"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason=f"{CHROMIUM} is absent: install Debian's chromium to run the "
                              "browser tests"),
    pytest.mark.skipif(shutil.which("pdftotext") is None,
                       reason="pdftotext is absent: install poppler-utils"),
]

TEAMS = ("Nous", "Les As")
#: The family's game, as they enter it: NS "Nous", EW "Les As", coinche, official rules, to
#: 1000. Each deal names the badges its sheet line must carry.
DEALS: list[dict[str, Any]] = [
    {"taker": "NS", "contract": "90", "trump": "spades", "points": "97", "badges": []},
    {"taker": "NS", "contract": "generale", "trump": "clubs", "capot": "taker",
     "belote": "NS", "badges": ["générale", "belote"]},
    {"taker": "EW", "contract": "100", "trump": "hearts", "coinche": "coinche",
     "points": "120", "belote": "EW", "badges": ["belote", "coinche"]},
    {"taker": "EW", "contract": "80", "trump": "diamonds", "capot": "taker",
     "badges": ["capot"]},
    {"kind": "void", "badges": []},
    {"taker": "NS", "contract": "80", "trump": "spades", "coinche": "surcoinche",
     "points": "100", "badges": ["surcoinche"]},
]
#: The badges the printed sheet carries under a deal's outcome (the coinche is in the contract
#: column, "100 ×2").
PRINTED = {"générale", "capot", "belote"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = f"sqlite:///{tmp_path_factory.mktemp('journey') / 'family.sqlite3'}"
    with live_server(db) as base:
        yield base


def wait_until(page: Any, expression: str, timeout: float = 15.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"never true: {expression}")
        page.wait_for_timeout(50)


def flat(text: str) -> str:
    """``text`` with its runs of ASCII spaces and newlines made one space (its no-break spaces
    kept: ``str.split()`` would take them for spaces)."""
    return re.sub(r"[ \t\r\n]+", " ", text).strip()


def rows(page: Any) -> int:
    return int(page.evaluate("document.querySelectorAll('#sheet .row').length"))


def enter(page: Any, deal: dict[str, Any]) -> None:
    """Fill the deal form with taps, as a player does, and add the deal."""
    form = "#deal-form"
    before = rows(page)
    if deal.get("kind") == "void":
        page.click(f"{form} label:has(input[name=kind][value=void])")
    else:
        page.click(f"{form} label:has(input[name=taker][value={deal['taker']}])")
        page.select_option("#contract", deal["contract"])
        page.click(f"{form} label:has(input[name=coinche][value={deal.get('coinche', 'none')}])")
        page.click(f"{form} label:has(input[name=trump][value={deal['trump']}])")
        if "capot" in deal:
            page.click(f"{form} label:has(input[name=capot][value={deal['capot']}])")
        else:
            page.fill("#points", deal["points"])
        if "belote" in deal:
            page.click(f"{form} label:has(input[name=belote][value={deal['belote']}])")
    page.click("#add-deal")
    wait_until(page, f"document.querySelectorAll('#sheet .row').length == {before + 1}")


def badges(page: Any, n: int) -> list[str]:
    return [b.strip() for b in page.locator(f"#deal-{n} .flag").all_inner_texts()]


def totals(page: Any) -> tuple[str, str]:
    return page.inner_text("#total-NS"), page.inner_text("#total-EW")


def pdf_lines(pdf: bytes, tmp: Path) -> list[str]:
    path = tmp / "sheet.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                         text=True, check=True).stdout
    return [" ".join(line.split()) for line in out.splitlines() if line.strip()]


def figure(value: int) -> str:
    """A number as the sheet prints it and pdftotext reads it back (1 920, −20)."""
    text = f"{abs(value):,}".replace(",", " ")
    return ("−" if value < 0 else "") + text


@pytest.mark.parametrize("size", [(390, 844), (1280, 900)], ids=["phone", "desktop"])
def test_a_family_counts_a_game_to_1000_and_prints_it(server: str, browser: Any,
                                                     size: tuple[int, int],
                                                     tmp_path: Path) -> None:
    # bypass_csp: axe-core is injected as a script (the CSP is checked by test_web_browser)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  locale="fr-FR", bypass_csp=True)
    page = context.new_page()
    dialogs: list[str] = []

    def answer(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    axe = Axe() if AXE.exists() else None  # WCAG 2.1 AA where the journey goes
    page.goto(server + "/")
    page.fill("#new-game input[name=team_EW]", TEAMS[1])
    page.click("#new-game label:has(input[name=game][value=coinche])")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#deal-form")
    gid = page.get_attribute("#game", "data-game")
    assert gid

    # the rules line keeps its spaces: "règles officielles · en 1000" ("·en 1000" before)
    meta = flat(page.inner_text(".board-meta"))
    assert "règles officielles · en 1" in meta, meta

    for n, deal in enumerate(DEALS, start=1):
        enter(page, deal)
        if n == 3:
            # undo asks first in French, then the deal can be put back as it was
            shown = totals(page)
            page.click("#undo")
            wait_until(page, "document.querySelectorAll('#sheet .row').length == 2")
            assert dialogs[-1] == f"Retirer la dernière donne{NBSP}?"
            assert page.is_visible("#redo")
            assert page.inner_text("#undone").startswith("Donne 3 retirée.")
            if axe:
                axe.check(page, "the way back after an undo")
            page.click("#redo")
            wait_until(page, "document.querySelectorAll('#sheet .row').length == 3")
            assert totals(page) == shown
            assert not page.is_visible("#undone")
        assert badges(page, n) == deal["badges"], (n, badges(page, n))

    api = page.request.get(f"{server}/api/counter/games/{gid}").json()
    assert api["winner"] == "NS" and len(api["deals"]) == len(DEALS)
    totals_ns, totals_ew = api["totals"]["NS"], api["totals"]["EW"]
    assert totals_ns >= 1000 > totals_ew

    if axe:
        axe.check(page, "the winner's card")
        axe.assert_clean()
    # the winner's card agrees with any name ("Nous gagne la partie !" before)
    winner = flat(page.inner_text("#winner h2"))
    assert winner.endswith(f"Victoire{NBSP}: Nous"), winner
    assert "gagne la partie" not in page.inner_text("#game")

    # the result card's sentences: no colon after a plain space (a line could start with it),
    # names said as teams, a coinched belote written as 20 × 2
    page.click("#deal-3 summary")
    card = page.inner_text("#deal-3 .result-card")
    assert " :" not in card and f"{NBSP}:" in card, card
    assert "belote 20 × 2" in card and "belote 40" not in card, card
    assert "Les As marque" not in card and f"l’équipe{NBSP}«{NBSP}Les As{NBSP}»" in card, card

    # the sheet's link is in view on the game's page, not in a closed section
    link = page.locator("#print-sheet")
    assert link.is_visible(), "the printed sheet's link is hidden"
    response = page.request.get(server + link.get_attribute("href"))
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    lines = pdf_lines(response.body(), tmp_path)
    check_sheet(lines, api)
    context.close()


def check_sheet(lines: list[str], api: dict[str, Any]) -> None:
    """The printed sheet against the game: each deal's taker, marks, running totals, outcome
    and badges; the totals; the winner."""
    deals = api["deals"]
    starts = [next(i for i, line in enumerate(lines) if re.match(rf"{n} ", line))
              for n in range(1, len(deals) + 1)]
    running = [0, 0]
    for n, (deal, at) in enumerate(zip(deals, starts, strict=True), start=1):
        # a deal's words are on its line and the line before it (pdftotext puts a cell's two
        # lines, outcome over badges, around the row's middle)
        words = " ".join(lines[max(at - 1, 0):at + 2])
        line = lines[at]
        mark = (deal["score"]["NS"], deal["score"]["EW"])
        running = [running[0] + mark[0], running[1] + mark[1]]
        expected = [figure(mark[0]), figure(running[0]), figure(mark[1]), figure(running[1])]
        assert " ".join(expected) in line, (n, line, expected)
        summary = DEALS[n - 1]  # as the family entered it
        if "taker" in summary:
            assert TEAMS[0 if summary["taker"] == "NS" else 1] in line, (n, line)
        wanted = [b for b in DEALS[n - 1]["badges"] if b in PRINTED]
        if summary.get("contract") == "generale":
            wanted = [b for b in wanted if b != "générale"]  # the contract column says it
        for badge in wanted:
            assert badge in words, (n, badge, words)
        for badge in PRINTED - set(DEALS[n - 1]["badges"]):
            assert badge not in line, (n, badge, line)
    total = next(line for line in lines if line.startswith("Totaux"))
    assert total == f"Totaux {figure(api['totals']['NS'])} {figure(api['totals']['EW'])}"
    assert any(line.startswith("Vainqueur : Nous, après la donne 6") for line in lines), lines
