"""The play table in a real browser (Debian's chromium, Playwright) against ``rebelote serve``
in a subprocess: a whole deal of each game played through the page, and a room of two friends
in two browser contexts with two bots."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_fixtures import live_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path(os.environ.get("REBELOTE_SCREENSHOTS", "/tmp"))

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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("tables") / "tables.db"
    with live_server(f"sqlite:///{db}") as base:
        yield base


def version(page: Any) -> str:
    return str(page.locator(".tbl").get_attribute("data-version"))


def act_once(page: Any) -> bool:
    """Make one move if it is this page's turn (bid to play a contract, else the first legal
    card); True if a move was made."""
    before = version(page)
    for sel in ("#bid-take", ".trumps button.trump-hearts", "#bid-pass",
                ".cards .pc.legal"):
        loc = page.locator(sel)
        if loc.count():
            loc.first.focus()  # played with the keyboard: focus, then Enter
            page.keyboard.press("Enter")
            page.wait_for_function(
                "v => document.querySelector('.tbl') && "
                "document.querySelector('.tbl').dataset.version !== v", arg=before)
            return True
    return False


def start(page: Any, base: str, game: str, friends: str | None = None) -> None:
    page.goto(base + "/")
    page.click("#play-link")
    page.check(f"input[name=game][value={game}]", force=True)
    page.check("input[name=target][value='501']", force=True)
    page.select_option("select[name=bots]", "random")
    page.select_option("select[name=pace]", "0")
    if friends:
        page.check(f"input[name=friends][value={friends}]")
    page.click("#start-table")
    page.wait_for_selector(".tbl")


@pytest.mark.parametrize("game", ["coinche", "belote"])
def test_a_whole_deal_played_in_the_page(browser: Any, server: str, game: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    start(page, server, game)
    assert page.locator("#announce").count() == 1
    deadline = time.monotonic() + 120
    while not page.locator("#result").count() and time.monotonic() < deadline:
        if not act_once(page):
            page.wait_for_timeout(200)
    result = page.locator("#result")
    assert result.count() == 1, page.locator(".tbl").inner_text()
    text = result.inner_text()
    assert re.search(r"Résultat de la donne 1", text)
    assert page.locator("#result .lines tbody tr").count() >= 2
    assert "✓" in page.locator("#result .shuffle summary").inner_text()
    assert page.locator("#live").inner_text().strip()  # the screen reader's live region
    page.screenshot(path=str(SHOTS / f"table-{game}-result.png"), full_page=True)
    ctx.close()


def test_a_room_of_two_friends_and_two_bots(browser: Any, server: str) -> None:
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    host = host_ctx.new_page()
    start(host, server, "coinche", friends="N")
    invite = host.locator("#invite-link").get_attribute("href")
    assert invite and "/t/" in invite
    friend_ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    friend = friend_ctx.new_page()
    friend.goto(invite)
    friend.fill("input[name=name]", "Bo")
    friend.click("#join")
    friend.wait_for_selector(".tbl")
    host.reload()
    assert "Bo" in host.locator("#seat-N").inner_text()
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if host.locator("#result").count() and friend.locator("#result").count():
            break
        host_cards = set(host.locator(".cards [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"))
        friend_cards = set(friend.locator(".cards [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"))
        assert not host_cards & friend_cards
        if not (act_once(host) or act_once(friend)):
            friend.wait_for_timeout(200)
    assert host.locator("#result").count() and friend.locator("#result").count(), \
        host.locator(".tbl").inner_text() + friend.locator(".tbl").inner_text()
    host.screenshot(path=str(SHOTS / "table-room-host.png"), full_page=True)
    friend.screenshot(path=str(SHOTS / "table-room-friend.png"), full_page=True)
    host_ctx.close()
    friend_ctx.close()
