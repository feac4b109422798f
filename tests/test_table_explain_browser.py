"""Pourquoi ce coup ? in the browser: the analysis page of a finished deal with every bot
move's explanation open, axe-core clean (WCAG 2.1 AA) at 390x844 and 1280x900, nothing wider
than the screen."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from test_axe import AXE, SCREENS, Axe
from test_table_browser import CHROMIUM, SHOTS, no_overflow, server

__all__ = ["server"]

#: The level for people that plays the learned player (``net``, since 7 December).
LEARNED = "club"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is absent"),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed"),
]


def finished_deal(base: str, bots: str = "pimc:fast") -> tuple[str, str]:
    """A contrée table of ``bots`` (the search's small level by default) whose first deal S
    plays out through the API."""
    with httpx.Client(base_url=base, timeout=60) as http:
        t = http.post("/api/tables", json={"game": "contree", "bots": bots, "pace": 0,
                                           "target": 2000}).json()
        headers = {"Authorization": f"Bearer {t['token']}"}
        view, rng = t, random.Random(5)
        while view["deal"] == 1:
            legal = [a for a in view["legal"] if not a.startswith(("declare", "no-decl"))]
            action = "80 hearts" if "80 hearts" in legal else rng.choice(legal)
            view = http.post(f"/api/tables/{t['id']}/actions", headers=headers,
                             json={"action": action}).json()
        return t["id"], t["token"]


def analysis_page(browser: Any, server: str, deal: tuple[str, str], screen: str
                  ) -> tuple[Any, Any]:
    """A browser context holding the seat's key of ``deal`` (its table id and secret) and its
    page on the first deal's analysis, once the explanations' list is there."""
    tid, token = deal
    ctx = browser.new_context(viewport=SCREENS[screen], bypass_csp=True)
    ctx.add_cookies([{"name": "rebelote_keys", "value": f"{tid}.{token}",
                      "domain": urlsplit(server).hostname, "path": "/"}])
    page = ctx.new_page()
    page.goto(f"{server}/tables/{tid}/deals/1/analysis")
    page.wait_for_selector("#why-list")
    return ctx, page


@pytest.fixture(scope="module")
def deal(server: str) -> tuple[str, str]:
    """One finished deal for the module's tests: each only reads it, in its own context."""
    return finished_deal(server)


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_explanations_on_the_analysis_page_pass_axe_on_a_phone_and_a_desktop(
        browser: Any, server: str, deal: tuple[str, str], screen: str) -> None:
    ctx, page = analysis_page(browser, server, deal, screen)
    assert page.locator("#why h2").inner_text() == "Pourquoi ce coup\u00a0?"
    count = page.locator("#why details").count()
    assert count >= 20
    page.evaluate("document.querySelectorAll('#why details').forEach(d => d.open = true)")
    assert page.locator("#why details table").count() >= 1
    axe = Axe()
    axe.check(page, f"analysis with the explanations open, {screen}")
    no_overflow(page)
    page.locator("#why-title").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"why-{screen}.png"))
    page.locator("#why details").nth(count - 1).scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"why-card-{screen}.png"))
    ctx.close()
    axe.assert_clean()


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_learned_players_explanations_pass_axe_on_a_phone_and_a_desktop(
        browser: Any, server: str, screen: str) -> None:
    """A table of the learned player (``club``): its network's moves show each move's share
    of its preference, its last cards the search's worlds, in the same list."""
    ctx, page = analysis_page(browser, server, finished_deal(server, LEARNED), screen)
    assert page.locator("#why-net").is_visible()
    page.evaluate("document.querySelectorAll('#why details').forEach(d => d.open = true)")
    shares = page.locator("#why th", has_text="Part de la préférence du réseau")
    worlds = page.locator("#why th", has_text="Donnes imaginées")
    assert shares.count() >= 1 and worlds.count() >= 1
    axe = Axe()
    axe.check(page, f"the learned player's explanations open, {screen}")
    no_overflow(page)
    net_th = page.locator("th", has_text="Part de la préférence du réseau")
    first = page.locator("#why details", has=net_th).first
    first.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"why-net-{screen}.png"))
    last = page.locator("#why details", has=page.locator("th", has_text="Donnes imaginées")).last
    last.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"why-net-card-{screen}.png"))
    ctx.close()
    axe.assert_clean()
