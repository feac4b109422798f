"""axe-core on every page, at 390x844 and 1280x900: zero violations of WCAG 2.1 A and AA and of
axe's best practices, through a whole deal at the play table and a whole game at the counter
(issue 18, item 10).

axe-core is the npm package, installed by ``scripts/test.sh`` into ``.axe/`` (ignored by git;
``REBELOTE_AXE`` names another copy of ``axe.min.js``) and injected into each page by
Playwright; no CDN. Without it the test is skipped, unless ``REBELOTE_AXE`` is set (as
``scripts/test.sh`` sets it): then a missing file fails. The contexts bypass the pages'
Content-Security-Policy only to let the injected script run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest

from test_table_browser import CHROMIUM, DESKTOP, PHONE, server, start, version

__all__ = ["server"]

AXE = Path(os.environ.get("REBELOTE_AXE") or
           Path(__file__).resolve().parents[1] / ".axe" / "node_modules" / "axe-core" /
           "axe.min.js")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
SCREENS = {"phone": PHONE, "desktop": DESKTOP}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is absent"),
    pytest.mark.skipif(not AXE.exists() and not os.environ.get("REBELOTE_AXE"),
                       reason="axe-core is not installed (scripts/test.sh installs it into "
                              ".axe/ with npm)"),
]

RUN = """async (tags) => {
    const r = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                       resultTypes: ['violations']});
    return r.violations.map(v => v.id + ' (' + v.impact + '): ' +
        v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(' | '));
}"""


class Axe:
    """axe-core run on pages, each page's violations kept by name."""

    def __init__(self) -> None:
        assert AXE.exists(), f"axe-core is missing: {AXE} (scripts/test.sh installs it)"
        self.found: dict[str, list[str]] = {}
        self.checked: list[str] = []

    def check(self, page: Any, name: str) -> None:
        page.wait_for_load_state("load")
        if not page.evaluate("typeof window.axe !== 'undefined'"):
            page.add_script_tag(path=str(AXE))
        out = page.evaluate(RUN, TAGS)
        self.checked.append(name)
        if out:
            self.found[name] = out

    def assert_clean(self) -> None:
        assert not self.found, "\n".join(f"{k}: {v}" for k, v in self.found.items())


@pytest.fixture
def axe() -> Iterator[Axe]:
    yield Axe()


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_table_pages_through_a_whole_deal(browser: Any, server: str, axe: Axe,
                                              screen: str) -> None:
    ctx = browser.new_context(viewport=SCREENS[screen], bypass_csp=True)
    page = ctx.new_page()
    page.goto(server + "/")
    axe.check(page, "home")
    page.goto(server + "/tables/new")
    axe.check(page, "table start form")
    start(page, server, "coinche", target=2000)
    seen: set[str] = set()
    deadline = time.monotonic() + 120
    while not page.locator("#next-deal").count():
        assert time.monotonic() < deadline, page.locator(".tbl").inner_text()
        state = ("auction" if page.locator(".bids").count() else
                 "play" if page.locator(".cards .pc.legal").count() else "")
        if not state:
            page.wait_for_timeout(100)
            continue
        key = f"table, {state}, trick {page.locator('.center .pc').count()} cards shown"
        if key not in seen:
            seen.add(key)
            axe.check(page, key)
        before = version(page)
        sel = ("#bid-hearts" if page.locator("#bid-hearts").count() else "#bid-pass") \
            if state == "auction" else ".cards .pc.legal"
        page.locator(sel).first.click()
        page.wait_for_function(
            "v => document.querySelector('.tbl').dataset.version !== v", arg=before)
    axe.check(page, "table, end of the deal (last trick, result card)")
    page.locator("#sheet summary").click()
    axe.check(page, "table, score sheet open")
    if page.locator("#analysis-link").count():
        page.click("#analysis-link")
        page.wait_for_selector("#analysis")
        axe.check(page, "deal analysis")
        page.go_back()
        page.wait_for_selector("#next-deal")
    page.click("#next-deal")
    page.wait_for_selector(".cards .pc")
    axe.check(page, "table, next deal")
    # a room: the host waits for a friend, the friend's join page
    start(page, server, "coinche", friends="N")
    axe.check(page, "table waiting for a friend")
    invite = page.locator("#invite-link").get_attribute("href")
    friend = browser.new_context(viewport=SCREENS[screen], bypass_csp=True).new_page()
    friend.goto(invite)
    axe.check(friend, "join page")
    friend.goto(server + "/tables/nosuchtable")
    axe.check(friend, "missing table")
    friend.goto(server + "/tables/nosuchtable/qr.svg")  # the error map's page
    assert friend.locator("h1").inner_text() == "Introuvable"
    axe.check(friend, "an error page")
    friend.context.close()
    ctx.close()
    assert len(axe.checked) >= 10, axe.checked
    axe.assert_clean()


COUNTER_DEALS: list[dict[str, str]] = [
    {"taker": "NS", "points": "98", "belote": "NS"},
    {"taker": "EW", "points": "71", "decl_EW": "20"},
    {"taker": "NS", "points": "102"},
    {"taker": "EW", "points": "66", "decl_NS": "50"},
    {"taker": "NS", "capot": "taker", "belote": "NS", "decl_EW": "20"},
    {"taker": "NS", "capot": "taker"},
]


def _enter(page: Any, deal: dict[str, str]) -> None:
    page.click(f"#deal-form label:has(input[name=taker][value={deal['taker']}])")
    page.click("#deal-form label:has(input[name=trump][value=hearts])")
    if "capot" in deal:
        page.click(f"#deal-form label:has(input[name=capot][value={deal['capot']}])")
    else:
        page.fill("#points", deal["points"])
    for team in ("NS", "EW"):
        if f"decl_{team}" in deal:
            page.fill(f"#deal-form input[name=decl_{team}]", deal[f"decl_{team}"])
    if "belote" in deal:
        page.click(f"#deal-form label:has(input[name=belote][value={deal['belote']}])")
    count = page.locator("#sheet .row").count()
    page.click("#add-deal")
    page.wait_for_function(f"() => document.querySelectorAll('#sheet .row').length == "
                           f"{count + 1}")


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_counter_pages_through_a_whole_game(browser: Any, server: str, axe: Axe,
                                                screen: str) -> None:
    # the table tests' server (one per worker; this context's cookies: its own games)
    with nullcontext(server) as base:
        ctx = browser.new_context(viewport=SCREENS[screen], bypass_csp=True)
        page = ctx.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(base + "/")
        axe.check(page, "home")
        page.click("#new-game button[type=submit]")
        page.wait_for_selector("#deal-form")
        axe.check(page, "game, no deal")
        page.click("#add-deal")  # nothing chosen: the error next to its field
        page.wait_for_selector("#error")
        axe.check(page, "game, an error in the form")
        for n, deal in enumerate(COUNTER_DEALS, start=1):
            _enter(page, deal)
            if n in (1, 2, 5):
                axe.check(page, f"game, {n} deals")
        page.wait_for_selector(".won, #winner, .winner")
        axe.check(page, "game over")
        page.click("#deal-2 summary")
        axe.check(page, "game over, a deal's result card open")
        page.click("#deal-2 button.edit")
        page.wait_for_selector("#save-deal")
        axe.check(page, "editing a deal")
        game_url = page.url
        page.goto(base + "/games")
        axe.check(page, "games list")
        page.goto(base + "/stats")
        axe.check(page, "statistics")
        page.goto(game_url)
        view = page.locator("a[href*='/views/']").first
        if view.count():
            page.goto(base + str(view.get_attribute("href")))
            axe.check(page, "view link")
        page.goto(base + "/games/nosuchgame")
        axe.check(page, "missing game")
        ctx.close()
    assert len(axe.checked) >= 12, axe.checked
    axe.assert_clean()
