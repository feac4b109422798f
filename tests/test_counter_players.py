"""The counter as a player meets it, in a real browser at 390x844 and 1280x900: "Modifier
cette donne" brings its form into view with the focus on it, and no htmx swap breaks the
pages' Content-Security-Policy (issue 18, item 9)."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest

from test_web_browser import CHROMIUM, enter_deal, served, watch_csp

__all__ = ["served"]  # the module's server (one for its tests: each has its own context)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is absent")]

SCREENS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
DEALS = [{"taker": "NS", "points": "98", "belote": "NS"},
         {"taker": "EW", "points": "71", "decl_EW": "20"},
         {"taker": "NS", "points": "102"}]
#: Every input and select of the page carries an empty style attribute, as the walk's browser
#: had them (set through the CSSOM, which the policy allows): htmx settled each swapped-in
#: element's style from it, an inline style the policy refuses.
TOUCH_STYLES = """() => { for (const e of document.querySelectorAll('input, select')) {
    e.style.color = 'inherit'; e.style.color = ''; }
    return document.querySelectorAll('[style]').length; }"""


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_edit_this_deal_brings_its_form_into_view_and_no_swap_breaks_the_policy(
        browser: Any, served: str, screen: str) -> None:
    with nullcontext(served) as base:
        page = browser.new_context(viewport=SCREENS[screen]).new_page()
        csp = watch_csp(page)
        page.goto(base + "/")
        page.click("#new-game button[type=submit]")
        page.wait_for_selector("#deal-form")
        for deal in DEALS:
            assert page.evaluate(TOUCH_STYLES) > 0
            enter_deal(page, deal)
        # the history is swapped in again after each deal (and by the live update): the last
        # deal's row first, then a click that finds the row again if it was swapped meanwhile
        # (a scroll on a row about to be replaced had failed: "not attached to the DOM")
        page.wait_for_selector(f"#deal-{len(DEALS)} summary")
        page.locator("#deal-1 summary").click()
        assert page.evaluate(TOUCH_STYLES) > 0
        page.click("#deal-1 button.edit")
        page.wait_for_selector("#save-deal")
        page.wait_for_function("() => document.activeElement && "
                               "document.activeElement.closest('#deal-form.editing')")
        title = page.locator("#deal-form.editing h2")
        assert "Modifier la donne 1" in title.inner_text()
        box = title.bounding_box()
        bar = page.locator(".topbar").bounding_box()
        assert box and bar and box["y"] >= bar["y"] + bar["height"] - 1, (box, bar)
        assert box["y"] + box["height"] <= SCREENS[screen]["height"], box
        page.fill("#points", "100")
        page.click("#save-deal")
        page.wait_for_selector("#add-deal")
        assert not csp, csp


def test_a_field_of_the_edit_form_already_in_use_keeps_the_focus(browser: Any,
                                                                  served: str) -> None:
    """The edit form's title takes the focus when htmx's swap settles (20 ms after the swap, or
    later on a busy machine): a player already in a field by then keeps it. Before, the focus
    went to the title and what was typed next was lost (the browser test of a whole game once
    saved deal 2 with its old 71 points: its "100" was typed into the title)."""
    with nullcontext(served) as base:
        page = browser.new_context(viewport=SCREENS["phone"]).new_page()
        page.goto(base + "/")
        page.click("#new-game button[type=submit]")
        page.wait_for_selector("#deal-form")
        for deal in DEALS[:2]:
            enter_deal(page, deal)
        page.click("#deal-2 summary")
        # a slow settle, as on a loaded machine: the swap is in, its settle a second later
        page.evaluate("() => { htmx.config.defaultSettleDelay = 1000; }")
        page.click("#deal-2 button.edit")
        page.wait_for_selector("#save-deal")
        page.focus("#points")
        page.evaluate("() => document.querySelector('#points').select()")
        page.wait_for_function("() => !document.querySelector('.htmx-settling')")
        page.wait_for_timeout(50)  # the page's own afterSettle handlers have run
        assert page.evaluate("document.activeElement.id") == "points"
        page.keyboard.type("100")
        assert page.input_value("#points") == "100"
        page.click("#save-deal")
        page.wait_for_selector("#add-deal")
        assert page.inner_text("#deal-2 .badge") == "réussi"
