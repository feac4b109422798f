"""Watching a table in a real browser (issue 34, item 5), on a phone (390x844) and a desktop: a
player makes the watch link, a watcher follows a whole deal on its page (every WebSocket frame
without a hand, the page never naming a card of the player's hand, of the trick being played or
of the last trick closed), the player's page says how many watch, and axe-core finds no
violation on either page."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from table_helpers import cards_in, cards_in_html
from test_axe import AXE, Axe
from test_table_browser import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    SHOTS,
    accessible,
    act_once,
    no_overflow,
    server,
    start,
)

__all__ = ["server"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not __import__("pathlib").Path(CHROMIUM).exists(),
                       reason=f"{CHROMIUM} is absent"),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed"),
]


def hidden_now(page: Any, base: str, table_id: str) -> set[str]:
    """The cards no watcher may see now: the player's hand, the trick being played and the
    last trick closed (one trick behind), unless they were public before (shown
    declarations, the turned card)."""
    view = page.context.request.get(f"{base}/api/tables/{table_id}").json()
    if view["phase"] != "play":
        return set(view["hand"])
    out = set(view["hand"]) | {c for _, c in view["trick"]}
    if view["tricks"]:
        out |= {c for _, c in view["tricks"][-1]["cards"]}
    out -= {c for item in view["shown"] for c in item["cards"]}
    return out


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_watcher_follows_a_deal_and_the_players_see_how_many_watch(
        browser: Any, server: str, screen: str) -> None:
    from playwright.sync_api import expect

    size = PHONE if screen == "phone" else DESKTOP
    axe = Axe()
    player = browser.new_context(viewport=size, bypass_csp=True).new_page()
    start(player, server, "coinche")
    table_id = re.search(r"/tables/([^/?#]+)", player.url).group(1)  # type: ignore[union-attr]
    expect(player.locator("#watchers-count")).to_have_text("0 personne regarde")
    player.click("#watch-make")
    link = player.locator("#watch-link").get_attribute("href")
    assert link and link.startswith(f"/w/{table_id}?key=")
    assert "un pli de retard" in player.locator("#watchers").inner_text()

    watcher = browser.new_context(viewport=size, bypass_csp=True).new_page()
    frames: list[dict[str, Any]] = []
    watcher.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: frames.append(json.loads(payload))))
    watcher.goto(server + link)
    expect(watcher.locator("h1")).to_contain_text("Regarder une table")
    accessible(watcher)
    no_overflow(watcher)
    axe.check(watcher, "watch page, start of the deal")
    # the player's page says so, through its socket, without a move
    expect(player.locator("#watchers-count")).to_have_text("1 personne regarde", timeout=10_000)
    accessible(player)
    axe.check(player, "table page with its watchers card")
    player.locator("#watchers").screenshot(path=str(SHOTS / f"watch-players-{screen}.png"))

    deadline = time.monotonic() + 120
    moves = scans = 0
    while not player.locator("#result").count() and time.monotonic() < deadline:
        if act_once(player):
            moves += 1
            hidden = hidden_now(player, server, table_id)
            watcher.wait_for_timeout(150)
            html = watcher.locator("#watch-view").inner_html()
            html = re.sub(r'<section[^>]*id="result".*?</section>', "", html, flags=re.S)
            assert not cards_in_html(html) & hidden, cards_in_html(html) & hidden
            scans += 1
            if moves == 6:
                watcher.screenshot(path=str(SHOTS / f"watch-page-{screen}.png"), full_page=True)
        else:
            player.wait_for_timeout(200)
    assert player.locator("#result").count() == 1 and scans >= 8
    expect(watcher.locator("#result")).to_be_visible(timeout=10_000)
    no_overflow(watcher)
    axe.check(watcher, "watch page, the deal over")
    watcher.screenshot(path=str(SHOTS / f"watch-page-end-{screen}.png"), full_page=True)
    assert len(frames) >= scans // 2
    for frame in frames:  # a frame is the watch view: never a hand
        assert "hand" not in frame and "hands" not in frame and "legal" not in frame
        rest = {k: v for k, v in frame.items() if k != "last_result"}
        assert all(isinstance(s["cards"], int) for s in frame["seats"].values())
        assert len(cards_in(rest)) <= 32
    # in English: the page comes back without the link's query, its secret kept for it
    watcher.click("a[data-lang=en]")
    expect(watcher.locator("h1")).to_contain_text("Watching a table")
    expect(watcher.locator("#watch-delay")).to_contain_text("one trick behind")
    axe.check(watcher, "watch page in English")
    axe.assert_clean()
    watcher.context.close()
    expect(player.locator("#watchers-count")).to_have_text("0 personne regarde", timeout=10_000)
    player.context.close()


def test_the_teachers_view_shows_the_hands_only_while_the_player_says_yes(
        browser: Any, server: str) -> None:
    from playwright.sync_api import expect

    axe = Axe()
    player = browser.new_context(viewport=PHONE, bypass_csp=True).new_page()
    start(player, server, "belote", pace=0)
    player.click("#teach-make")
    link = player.locator("#teacher-link").get_attribute("href")
    assert link
    teacher = browser.new_context(viewport=DESKTOP, bypass_csp=True).new_page()
    frames: list[dict[str, Any]] = []
    teacher.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: frames.append(json.loads(payload))))
    teacher.goto(server + link)
    expect(teacher.locator("#teacher")).to_contain_text("chaque joueur a dit oui")
    assert teacher.locator(".card-face").count() == 0
    player.click("#consent-yes")
    expect(teacher.locator("#w-seat-N .card-face").first).to_be_visible(timeout=10_000)
    counts = [teacher.locator(f"#w-seat-{s} .card-face").count() for s in "NESW"]
    assert counts in ([5] * 4, [8] * 4), counts  # every hand, at the auction or in the play
    axe.check(teacher, "teacher's view with the hands")
    axe.check(player, "table page, the player said yes")
    teacher.screenshot(path=str(SHOTS / "watch-teacher-desktop.png"), full_page=True)
    player.click("#consent-no")
    expect(teacher.locator(".card-face")).to_have_count(0, timeout=10_000)
    with_hands = [i for i, f in enumerate(frames) if "hands" in f]
    assert with_hands and "hands" not in frames[-1]
    assert frames[with_hands[-1] + 1:] and all("hands" not in f for f in
                                               frames[with_hands[-1] + 1:])
    # a revoked link: a page that says so in French, for a phone too
    player.click("#teach-revoke")
    teacher.set_viewport_size(PHONE)
    answer = teacher.goto(server + link)
    assert answer is not None and answer.status == 403
    expect(teacher.locator("#watch-refused")).to_contain_text("révoqué")
    no_overflow(teacher)
    axe.check(teacher, "a revoked teacher's link")
    axe.assert_clean()
    teacher.context.close()
    player.context.close()
