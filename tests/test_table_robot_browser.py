"""Le robot à votre place in the browser: the analysis page of a finished deal with the replay
beside it, axe-core clean (WCAG 2.1 AA) at 390x844 and 1280x900, nothing wider than the
screen; the table's page gives the game's running sum."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from rebelote.catalogs import signed
from test_axe import AXE, SCREENS, Axe
from test_table_browser import CHROMIUM, SHOTS, no_overflow
from test_table_explain_browser import finished_deal
from web_fixtures import live_server

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is absent"),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that replays the finished deals (the other table modules' do not)."""
    db = tmp_path_factory.mktemp("robot") / "tables.db"
    with live_server(f"sqlite:///{db}") as base:
        yield base


def replayed(base: str, tid: str, token: str) -> dict[str, Any]:
    """The replay of deal 1, once the bots' pool made it (it runs after the deal)."""
    with httpx.Client(base_url=base, timeout=60) as http:
        for _ in range(600):
            got = http.get(f"/api/tables/{tid}/deals/1/analysis",
                           headers={"Authorization": f"Bearer {token}"}).json()
            if got["robot"] is not None:
                return dict(got["robot"])
            time.sleep(0.1)
    raise AssertionError("the replay of deal 1 was not made")


@pytest.fixture(scope="module")
def deal(server: str) -> tuple[str, str, dict[str, Any]]:
    """One finished deal and its replay for the module's tests: each only reads them, in its
    own context."""
    tid, token = finished_deal(server)
    return tid, token, replayed(server, tid, token)


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_bot_in_your_seat_on_the_analysis_page_passes_axe_on_a_phone_and_a_desktop(
        browser: Any, server: str, deal: tuple[str, str, dict[str, Any]], screen: str) -> None:
    tid, token, robot = deal
    ctx = browser.new_context(viewport=SCREENS[screen], bypass_csp=True)
    ctx.add_cookies([{"name": "rebelote_keys", "value": f"{tid}.{token}",
                      "domain": urlsplit(server).hostname, "path": "/"}])
    page = ctx.new_page()
    page.goto(f"{server}/tables/{tid}/deals/1/analysis")
    page.wait_for_selector("#robot-marks")
    assert page.locator("#robot h2").inner_text() == "Le robot à votre place"
    cells = page.locator("#robot-marks td").all_inner_texts()
    assert cells[1] == str(robot["real"]) and cells[3] == str(robot["robot"])
    assert page.locator("#robot-sum").inner_text() == \
        f"Vous\u00a0: {signed(robot['gain'], 'fr')} sur le robot club en 1 donne"
    axe = Axe()
    axe.check(page, f"analysis with the bot in your seat, {screen}")
    no_overflow(page)
    page.locator("#robot-title").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"robot-{screen}.png"))
    page.goto(f"{server}/tables/{tid}")
    page.wait_for_selector("#robot-sum")
    axe.check(page, f"the table with the running sum, {screen}")
    page.locator("#robot-sum").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"robot-sum-{screen}.png"))
    ctx.close()
    axe.assert_clean()
