"""The play table as a player meets it, in a real browser at 390x844 and 1280x900: the hand in
view while bidding, the end of a deal that can be read (its last trick on the felt, the result
card, and the next deal waiting for "Donne suivante"), a room that reads right, the focus on
the first move when the page loads (issue 18, items 1, 2, 5 and 6)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from test_table_browser import (
    DESKTOP,
    PHONE,
    SHOTS,
    accessible,
    no_overflow,
    server,
    start,
    version,
)

__all__ = ["server"]  # the fixtures, shared with the table's other browser tests

pytestmark = pytest.mark.browser

SCREENS = {"phone": PHONE, "desktop": DESKTOP}

#: Each element's box against the screen: the ones not wholly in view (below the sticky top
#: bar, above the bottom of the screen), as "selector: top-bottom".
OUT_OF_VIEW = """sels => {
    const top = document.querySelector('.topbar').getBoundingClientRect().bottom;
    const out = [];
    for (const sel of sels) for (const e of document.querySelectorAll(sel)) {
        const r = e.getBoundingClientRect();
        if (r.top < top - 0.5 || r.bottom > innerHeight + 0.5)
            out.push(sel + ' ' + (e.id || e.textContent.trim()) + ': ' + Math.round(r.top)
                     + '-' + Math.round(r.bottom));
    }
    return out; }"""


def play_until(page: Any, done: str, seconds: float = 90, bid: bool = False) -> None:
    """Pass every call (``bid``: bid the contract offered first, in hearts, when South may)
    and play the first legal card, going on between deals, until ``done`` (a selector) is on
    the page."""
    deadline = time.monotonic() + seconds
    calls = ("#bid-hearts", "#bid-take", "#bid-pass") if bid else ("#bid-pass",)
    while not page.locator(done).count():
        assert time.monotonic() < deadline, page.locator(".tbl").inner_text()
        sel = next((s for s in ("#next-deal", *calls, ".cards .pc.legal")
                    if page.locator(s).count()), None)
        if sel is None:
            page.wait_for_timeout(100)
            continue
        before = version(page)
        page.locator(sel).first.click()
        page.wait_for_function(
            "v => document.querySelector('.tbl').dataset.version !== v", arg=before)


@pytest.mark.parametrize("screen", ["phone", "desktop"])
@pytest.mark.parametrize("game", ["coinche", "contree", "belote"])
def test_the_whole_hand_and_the_bid_controls_are_on_screen_together(
        browser: Any, kept_page: Any, server: str, game: str, screen: str) -> None:
    """At South's turn to bid, with no scrolling by the player: every card of the hand and every
    control of the auction (the contract's stepper, the trumps, the calls) are in view."""
    page = kept_page(SCREENS[screen])
    start(page, server, game)
    play_until(page, ".bids")
    page.wait_for_timeout(200)  # the page's script has set the focus (and scrolled to it)
    assert page.locator(".cards .pc").count() >= 5
    out = page.evaluate(OUT_OF_VIEW, [".cards .pc", ".bids select", ".bids button"])
    page.screenshot(path=str(SHOTS / f"table-bid-{game}-{screen}.png"))
    assert not out, f"out of view at 0 px scrolled by the player: {out}"
    if page.locator("#bid-value option").count() > 1:  # the stepper: + and − move the value
        first = page.locator("#bid-value").input_value()
        page.locator(".step[data-step='1']").click()
        second = page.locator("#bid-value").input_value()
        assert second != first
        page.locator(".step[data-step='-1']").click()
        assert page.locator("#bid-value").input_value() == first
    no_overflow(page)
    accessible(page)


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_end_of_a_deal_shows_its_last_trick_and_waits_for_the_next_deal(
        browser: Any, kept_page: Any, server: str, screen: str) -> None:
    """The 8th card played: the felt shows the last trick and who won it, the result card is
    in view with "Donne suivante" focused, and the next deal waits (nothing moves for seconds,
    no auction takes the focus) until the player goes on."""
    page = kept_page(SCREENS[screen])
    start(page, server, "coinche", target=2000)  # not over after a deal
    play_until(page, "#next-deal", bid=True)  # South bids: the deal is played, not passed
    page.wait_for_timeout(300)
    assert page.locator(".center .pc").count() == 4, page.locator(".center").inner_text()
    assert page.locator(".center .pc.best").count() == 1
    assert re.match(r"remporté par (Vous|Partenaire|Est|Ouest)$",
                    page.locator("#last-won").inner_text()), page.locator("#last-won")
    # who won it reads on one line under the trick, clear of every card (between the side
    # cards a phone had left it a word a line)
    label = page.locator("#last-won").bounding_box()
    lowest = max(c.bounding_box()["y"] + c.bounding_box()["height"]
                 for c in page.locator(".center .pc").all())
    assert label["y"] >= lowest, (label, lowest)
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#last-won'))"
                         ".fontSize)")
    assert label["height"] < 1.8 * size, (label, size)  # one line: two would be 2.3 sizes
    # the longest of the four ("Partenaire") too, whoever won this one, and the felt still fits
    page.evaluate("document.querySelector('#last-won').textContent = 'remporté par Partenaire'")
    long = page.locator("#last-won").bounding_box()
    assert long["height"] < 1.8 * size, long
    for seat in page.locator(".felt .seat").all():  # clear of every seat's box
        b = seat.bounding_box()
        apart = (long["x"] + long["width"] <= b["x"] or b["x"] + b["width"] <= long["x"]
                 or long["y"] + long["height"] <= b["y"] or b["y"] + b["height"] <= long["y"])
        assert apart, (long, b)
    no_overflow(page)
    assert re.search(r"Donne 1 · terminée", page.locator(".deal-info").inner_text())
    assert page.evaluate("document.activeElement.id") == "next-deal"
    out = page.evaluate(OUT_OF_VIEW, [".center .pc", "#result-title", "#next-deal"])
    assert not out, out
    page.screenshot(path=str(SHOTS / f"table-end-of-deal-{screen}.png"))
    no_overflow(page)
    accessible(page)
    held = version(page)
    page.wait_for_timeout(2500)  # the bots' pace is 0: a deal going on would show at once
    assert version(page) == held
    assert not page.locator(".bids, .cards .pc").count()
    page.keyboard.press("Enter")  # "Donne suivante", focused
    page.wait_for_function("v => document.querySelector('.tbl').dataset.version !== v",
                           arg=held)
    page.wait_for_selector(".cards .pc")
    assert not page.locator("#next-deal").count()
    assert "Donne 2" in page.locator(".deal-info").inner_text()


def test_a_player_who_chose_so_goes_on_by_itself_after_a_few_seconds(
        browser: Any, kept_page: Any, server: str) -> None:
    page = kept_page(PHONE)
    page.goto(server + "/tables/new")
    page.check("input[name=bots][value=debutant]")
    page.select_option("select[name=pace]", "0")
    page.select_option("select[name=between]", "5000")
    page.click("#start-table")
    page.wait_for_selector(".tbl")
    play_until(page, "#next-deal")
    ended = time.monotonic()
    assert "quelques secondes" in page.locator("#next-soon").inner_text()
    page.wait_for_selector("#next-deal", state="detached", timeout=15000)
    assert time.monotonic() - ended > 3.5  # it waited (5 s) before going on
    assert "Donne 2" in page.locator(".deal-info").inner_text()


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_table_of_bots_reads_right(browser: Any, kept_page: Any, server: str,
                                     screen: str) -> None:
    """No seat is said free when none is kept (a friend would take a bot's), each seat's label
    holds one line, and the score does not read as "50 out of 1,000"."""
    page = kept_page(SCREENS[screen])
    start(page, server, "coinche", target=1000)
    free = page.locator("#free-seats").inner_text()
    assert "Places libres" not in free
    assert free.startswith("Aucune place n’est gardée pour un ami."), free
    assert "prend la place d’un robot (Nord, Est, Ouest)" in free, free
    lines = page.locator(".seat .who").evaluate_all("""els => els.map(e => {
        const lh = parseFloat(getComputedStyle(e).lineHeight) ||
            1.3 * parseFloat(getComputedStyle(e).fontSize);
        return [e.textContent.trim(), Math.round(e.getBoundingClientRect().height / lh)]; })""")
    assert all(n == 1 for _, n in lines), lines
    scores = page.locator(".scores").inner_text()
    assert "/" not in scores and re.search(r"partie en 1\u202f?\s?000", scores), scores
    # the bot's level is still said to a screen reader on a phone, and shown on a desktop
    assert "robot débutant" in page.locator("#seat-W").text_content()
    shown = page.locator("#seat-W .level").is_visible() and page.locator(
        "#seat-W .level").bounding_box()["width"] > 2  # type: ignore[index]
    assert shown == (screen == "desktop")
    accessible(page)
    # a room with North kept for a friend says so (started from the same page: a context of
    # its own would cost a renderer, 0.4 s of CPU)
    start(page, server, "coinche", friends="N")
    free = page.locator("#free-seats").inner_text()
    assert free.startswith("Places gardées pour des amis\u00a0: Nord."), free


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_focus_is_on_the_first_move_when_the_page_loads_at_your_turn(
        browser: Any, kept_page: Any, server: str, screen: str) -> None:
    page = kept_page(SCREENS[screen])
    start(page, server, "coinche")  # at once: South bids at the first load
    page.wait_for_load_state("load")
    assert page.locator("#seat-S.turn").count()
    page.wait_for_function("() => document.activeElement && document.activeElement.id")
    focused = page.evaluate("document.activeElement.id")
    if page.locator("#bid-value").count():  # a contract may still be bid: its stepper
        assert focused == "bid-value"
        page.keyboard.press("Tab")  # the trumps after the stepper's +
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id").startswith("bid-")
    else:  # North's contract was coinched before South's turn: the first call left
        assert focused == page.locator(".bids .calls button").first.get_attribute("id")
    play_until(page, ".cards .pc.legal")
    page.reload()  # loaded again at South's turn to play: its first legal card
    page.wait_for_load_state("load")
    page.wait_for_function("() => document.activeElement !== document.body")
    assert page.evaluate("document.activeElement.matches('.cards .pc.legal')")
