"""Un conseil in the browser: the hint button at the player's turn, its answer read out
(aria-live) and still said when the page is loaded again; axe-core clean at 390x844 and
1280x900."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from test_axe import AXE, SCREENS, Axe
from test_table_browser import CHROMIUM, SHOTS, no_overflow, server, start

__all__ = ["server"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is absent"),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed"),
]


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_hint_asked_in_the_page_is_said_and_counted_on_the_sheet(
        browser: Any, server: str, screen: str) -> None:
    ctx = browser.new_context(viewport=SCREENS[screen], bypass_csp=True)
    page = ctx.new_page()
    start(page, server, "coinche")
    page.wait_for_selector("#hint-button")
    assert page.locator("#hint-button").inner_text() == "Un conseil"
    page.click("#hint-button")
    page.wait_for_selector("#hint-said")
    said = page.locator("#hint-said").inner_text()
    assert "." in said and len(said) > 10
    axe = Axe()
    axe.check(page, f"table with a hint, {screen}")
    no_overflow(page)
    page.locator("#hint").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"hint-{screen}.png"))
    page.reload()  # the hint stays said at this decision
    page.wait_for_selector("#hint-said")
    assert page.locator("#hint-said").inner_text() == said
    ctx.close()
    axe.assert_clean()
