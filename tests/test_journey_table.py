"""Journeys at the play table (issue 33, Build 1), each a story from the first page to the last
in a real browser (chromium, Playwright) against ``rebelote serve``, on a 390x844 phone and on a
desktop: one server and one browser for the module.

- *A player*: from the home page, a whole game at each level (débutant, club, fort, expert; pace
  immédiat, a shared rule set's link with a target of 1 point: one deal a game), the contract
  and its trump in view at every one of the player's cards (Belote on the phone: after a take
  of the turned card it named none), the last trick on the felt after the game's last deal (it
  was empty), each result card read; then *Nouvelle partie* starts a second game with the same
  settings (it failed at club, fort and expert).
- *Two friends*: the host opens a room with a 24-character name; the friend, who has only the
  code, types it on the home page (mistyped first: answered next to the field), sits with a
  24-character name, watches the deal in play, then both play the next deal; the friend leaves
  (the page asks first) and comes back through the seat choice. Nothing wider than the screen
  (East went off a phone's screen), every response and socket frame free of a card its seat
  could not see, axe-core clean on every page met.
- *A room's next game*: the host keeps North for a friend, who sits with the invitation link;
  both finish a one-deal game, the friend presses *Nouvelle partie*, the host's page offers
  the new game live and both play in it at the same seats (it started a game for the one who
  pressed alone); every frame of both tables scanned, axe-core clean.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rebelote.tableserver.bots import SECONDS_ENV
from test_axe import AXE, Axe
from test_table_browser import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    Traffic,
    accessible,
    act_once,
    no_overflow,
    read_result,
    version,
    wait_for_news,
)
from web_fixtures import live_server

SCREENS = {"phone": PHONE, "desktop": DESKTOP}
SHOTS = Path(os.environ.get("REBELOTE_SCREENSHOTS", "/tmp"))
LEVELS = ("debutant", "club", "fort", "expert")
#: What the status line says of the deal in play at each of the player's cards.
IN_PLAY = {
    "belote": re.compile(r"^Atout : (pique|cœur|carreau|trèfle) [♠♥♦♣] "
                         r"\((Vous|Partenaire|Est|Ouest)\)$"),
    "coinche": re.compile(r"^Contrat : (\d+|capot|générale) "
                          r"(pique|cœur|carreau|trèfle|sans atout|tout atout)"
                          r"( ×[24])? \((Vous|Partenaire|Est|Ouest)\)$"),
}
#: The server's cap on one bot decision (``REBELOTE_BOT_SECONDS``, 15 s by default), each
#: search thinking half of it at most (``THINK_SHARE``): fort's quarter second a card and
#: expert's 48 worlds (a few hundred ms) cut to 0.15 s, each level's search still answering
#: from the worlds it solved by then. The journeys check the pages at each level, not the
#: bots' play: their searches were half the CPU of the module (11 s of the 21 s of the desktop
#: journey's levels), taken from the other workers.
DECISION_CAP = 0.3
#: Two names of 24 characters (the longest a seat takes), as a family writes them.
NAMES = ("Marie-Christine Dupontel", "Jean-Baptiste Larochette")

pytestmark = [
    pytest.mark.browser,
    # one worker runs the module: one server and one browser for its journeys
    pytest.mark.xdist_group("journey-table"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is absent"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The module's server, le robot à votre place off (``REBELOTE_ROBOT_PENDING=0``): its
    replay of each finished deal at the table's level, expert's included, took the CPU of the
    live bots (the expert game in 21 s instead of 11); its pages are tested by
    ``test_table_robot_browser.py``."""
    db = tmp_path_factory.mktemp("journeys") / "tables.db"
    with live_server(f"sqlite:///{db}", env={"REBELOTE_ROBOT_PENDING": "0",
                                             SECONDS_ENV: str(DECISION_CAP)}) as base:
        yield base


#: At the player's turn to play a card: how many cards are playable, and the status line's
#: contract, read in one go (nothing runs between the two reads).
AT_CARD = """() => {
    const c = document.querySelector('#contract');
    return [document.querySelectorAll('.cards .pc.legal').length,
            c ? c.textContent.replace(/\\s+/g, ' ').trim() : null]; }"""


def settings(page: Any) -> dict[str, Any]:
    """What a table shows of its settings: its game, target and each bot's level."""
    return {"title": page.title(), "target": page.locator("#target").inner_text(),
            "levels": [page.locator(f"#seat-{s} .level").text_content() for s in "NEW"]}


def play_the_game(page: Any, game: str, rng: random.Random | None
                  ) -> tuple[int, dict[str, str]]:
    """The game played to its end from the page (the player's calls and cards as
    :func:`act_once` makes them: with ``rng``, any call on offer, coinche and surcoinche
    included, and any legal card; else take, or the lowest contract in hearts, and the first
    legal card); at each card the status line checked. The number of cards checked, the
    result cards read."""
    read: dict[str, str] = {}
    cards = 0
    deadline = time.monotonic() + 150
    while not page.locator("#winner").count() and time.monotonic() < deadline:
        before = version(page)
        read_result(page, read)
        legal, status = page.evaluate(AT_CARD)
        if legal:
            assert status is not None and IN_PLAY[game].match(status), (status, cards)
            cards += 1
        if not act_once(page, rng):
            wait_for_news(page, before)  # the bots' moves, waited for in the page
    assert page.locator("#winner").count(), page.locator(".tbl").inner_text()
    read_result(page, read)
    return cards, read


@pytest.mark.parametrize(("screen", "game"), [("phone", "belote"), ("desktop", "coinche")])
def test_a_player_plays_a_game_at_each_level_then_a_new_one(browser: Any, server: str,
                                                            screen: str, game: str) -> None:
    ctx = browser.new_context(viewport=SCREENS[screen])
    page = ctx.new_page()
    page.goto(server + "/")
    page.click("#play-link")  # the home page's way to the table: the start form
    page.wait_for_selector("#start-table")
    for level in LEVELS:
        traffic = Traffic(page, server)
        # a rule set shared by a link, with a target of 1 point: the game's first deal that
        # is not passed ends it
        page.goto(f"{server}/tables/new?rules={game}:official,target=1")
        assert page.locator("#shared-rules").count() == 1
        page.check(f"input[name=bots][value={level}]")
        page.select_option("select[name=pace]", "0")  # immédiat
        page.click("#start-table")
        page.wait_for_selector(".tbl")
        first = page.url
        chosen = settings(page)
        assert chosen["levels"] == [f"({w})" for w in [
            {"debutant": "robot débutant"}.get(level, f"robot {level}")] * 3], chosen
        # Coinche: every kind of call the page offers, at random
        cards, read = play_the_game(page, game, random.Random(level) if game == "coinche"
                                    else None)
        # the contract and its trump in view at each of the player's cards: eight a deal
        assert cards >= 8 and cards % 8 == 0, (level, cards)
        assert read and page.locator("#sheet tbody tr").count() == len(read)
        # after the game's last deal the felt shows its last trick and who won it
        assert page.locator(".felt .center .pc").count() == 4, level
        assert page.locator("#last-won").is_visible()
        assert page.locator("#result").count() == 1
        no_overflow(page)
        accessible(page)
        page.screenshot(path=str(SHOTS / f"journey-{game}-{level}-{screen}-over.png"))
        views, bodies = traffic.check()
        assert views >= 1 and bodies >= 2, (views, bodies)
        traffic.stop(page)
        # a new game with the same settings, at every level
        page.click("#new-game")
        page.wait_for_url(lambda url, was=first: url != was and "/tables/" in url)
        page.wait_for_selector(".tbl")
        assert page.locator(".tbl").count() == 1, page.content()[:500]
        assert settings(page) == chosen, level
        assert page.locator("#score-us").inner_text() == "0"
        assert page.locator("#winner").count() == 0
        assert act_once(page), level  # the second game is played from the page
    ctx.close()


@pytest.mark.skipif(not AXE.exists() and not os.environ.get("REBELOTE_AXE"),
                    reason="axe-core is not installed (scripts/test.sh installs it)")
@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_two_friends_one_with_only_the_code(browser: Any, server: str, screen: str) -> None:
    axe = Axe()
    # (the pages' Content-Security-Policy bypassed only to let axe-core's script run)
    host_ctx = browser.new_context(viewport=SCREENS[screen], bypass_csp=True)
    host = host_ctx.new_page()
    host_traffic = Traffic(host, server)
    host.goto(server + "/")
    axe.check(host, "home page")
    host.click("#play-link")
    host.wait_for_selector("#start-table")
    axe.check(host, "start form")
    host.check("input[name=game][value=coinche]", force=True)
    host.check("input[name=target][value='2000']", force=True)  # it lasts past two deals
    host.check("input[name=bots][value=debutant]")
    host.select_option("select[name=pace]", "0")
    host.fill("input[name=name]", NAMES[0])
    host.click("#start-table")
    host.wait_for_selector(".tbl")
    code = host.locator("#join-code").inner_text()
    axe.check(host, "table, the host alone")

    # the friend has the code only: typed on the home page, a letter short first
    friend_ctx = browser.new_context(viewport=SCREENS[screen], bypass_csp=True)
    friend = friend_ctx.new_page()
    friend_traffic = Traffic(friend, server)
    friend.goto(server + "/")
    friend.fill("#code-field", code[:7])
    friend.click("#code-go")
    friend.wait_for_selector("#code-error")
    assert "8 lettres et chiffres" in friend.locator("#code-error").inner_text()
    assert friend.locator("#code-field").get_attribute("aria-invalid") == "true"
    no_overflow(friend)
    axe.check(friend, "a code refused, next to its field")
    friend.fill("#code-field", f"{code[:4].lower()} {code[4:].lower()}")
    friend.click("#code-go")
    friend.wait_for_selector("#join")
    axe.check(friend, "the seat choice")
    cut = friend.locator(".seg label span").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)")
    assert not cut, f"cut on the join page: {cut}"
    friend.fill("input[name=name]", NAMES[1])
    friend.check("input[name=seat][value=N]", force=True)  # the host's partner
    friend.click("#join")
    friend.wait_for_selector(".tbl")
    # a bot's seat: the friend's from the next deal, the deal in play watched meanwhile
    assert friend.locator("#watching").count() == 1
    host.wait_for_function("n => document.querySelector('#seat-N').textContent.includes(n)",
                           arg=NAMES[1])
    fits(host, NAMES[1], NAMES[0])
    fits(friend, NAMES[0], NAMES[1])
    axe.check(friend, "table, the friend watching")

    # the deal in play, then the next one: both play it
    friend_played = False
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        done = [p.locator("#winner").count() or re.search(
            r"Résultat de la donne [2-9]", p.locator("#result-title").inner_text()
            if p.locator("#result-title").count() else "") for p in (host, friend)]
        if all(done) and friend_played:
            break
        before = version(host)  # the friend's moves and the bots' change it too
        mine = set(host.locator(".cards [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"))
        theirs = set(friend.locator(".cards [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"))
        assert not mine & theirs
        moved = act_once(host)
        turn = friend.locator(".cards .pc.legal, .bids").count() > 0  # a call or a card
        if act_once(friend):
            friend_played = friend_played or turn
            moved = True
        if not moved:
            wait_for_news(host, before)
    assert friend_played and all(done), friend.locator(".tbl").inner_text()
    fits(host, NAMES[1], NAMES[0])
    fits(friend, NAMES[0], NAMES[1])
    axe.check(host, "table, the host, end of a deal")
    host.screenshot(path=str(SHOTS / f"journey-friends-host-{screen}.png"))
    friend.screenshot(path=str(SHOTS / f"journey-friends-friend-{screen}.png"))

    # the friend leaves: the page asks first (cancelled once), then the seat choice again
    friend.click("#release")
    friend.wait_for_selector("#release-yes", state="visible")
    axe.check(friend, "leaving: the confirmation")
    friend.click("#release-confirm [data-close]")
    assert not friend.locator("#release-yes").is_visible()
    friend.click("#release")
    friend.click("#release-yes")
    friend.wait_for_selector("#left")
    host.wait_for_function("() => !document.querySelector('#seat-N .nm')")
    assert "robot débutant" in (host.locator("#seat-N").text_content() or "")
    axe.check(friend, "the seat choice after leaving")
    friend.fill("input[name=name]", NAMES[1])
    friend.check("input[name=seat][value=N]", force=True)
    friend.click("#join")
    friend.wait_for_selector(".tbl")
    host.wait_for_function("n => document.querySelector('#seat-N').textContent.includes(n)",
                           arg=NAMES[1])
    fits(host, NAMES[1], NAMES[0])
    fits(friend, NAMES[0], NAMES[1])
    accessible(host)
    accessible(friend)
    axe.check(friend, "table, the friend back")
    for traffic in (host_traffic, friend_traffic):
        views, bodies = traffic.check()
        assert views >= 2 and bodies >= 2, (views, bodies)
    axe.assert_clean()
    host_ctx.close()
    friend_ctx.close()


@pytest.mark.skipif(not AXE.exists() and not os.environ.get("REBELOTE_AXE"),
                    reason="axe-core is not installed (scripts/test.sh installs it)")
@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_two_friends_finish_a_game_then_both_play_the_next(browser: Any, server: str,
                                                           screen: str) -> None:
    """A room of two: the host keeps North for a friend (pace immédiat, a target of 1 point:
    the first deal played ends the game), the friend sits with the invitation link; both play
    the game to its end. The friend presses *Nouvelle partie*: the host's page learns of the
    new game live (no reload) and offers it; both are at the same seats of the same new game,
    with their names, and both play in it. Every frame of both tables free of a card its seat
    could not see; axe-core clean (it started a game for the one who pressed alone)."""
    axe = Axe()
    host_ctx = browser.new_context(viewport=SCREENS[screen], bypass_csp=True)
    host = host_ctx.new_page()
    host_traffic = Traffic(host, server)
    host.goto(f"{server}/tables/new?rules=coinche:official,target=1")
    host.check("input[name=friends][value=N]")
    host.check("input[name=bots][value=debutant]")
    host.select_option("select[name=pace]", "0")
    host.fill("input[name=name]", NAMES[0])
    host.click("#start-table")
    host.wait_for_selector(".tbl")
    first = host.url
    link = host.locator("#invite-link").get_attribute("href")
    assert link and "invite=" in link, link

    friend_ctx = browser.new_context(viewport=SCREENS[screen], bypass_csp=True)
    friend = friend_ctx.new_page()
    friend_traffic = Traffic(friend, server)
    friend.goto(link if link.startswith("http") else server + link)
    friend.fill("input[name=name]", NAMES[1])
    friend.click("#join")
    friend.wait_for_selector(".tbl")
    assert friend.url == first
    host.wait_for_function("n => document.querySelector('#seat-N').textContent.includes(n)",
                           arg=NAMES[1])

    def play(until: Any) -> tuple[bool, bool]:
        """Both pages act until ``until()``; whether each made a move."""
        moved = [False, False]
        deadline = time.monotonic() + 120
        while not until() and time.monotonic() < deadline:
            before = version(host)
            any_move = False
            for i, p in enumerate((host, friend)):
                if act_once(p):
                    moved[i] = any_move = True
            if not any_move:
                wait_for_news(host, before)
        assert until(), (host.locator(".tbl").inner_text(), friend.locator(".tbl").inner_text())
        return moved[0], moved[1]

    assert play(lambda: host.locator("#winner").count() and friend.locator("#winner").count()
                ) == (True, True)
    axe.check(friend, "a room's game over")
    # the friend starts the next game; the host's page is told live
    friend.click("#new-game")
    friend.wait_for_url(lambda url: url != first and "/tables/" in url)
    friend.wait_for_selector(".tbl")
    second = friend.url
    host.wait_for_selector("#join-new-game")
    assert "Une nouvelle partie a commencé" in host.locator("#next-game-ready").inner_text()
    assert host.url == first  # not moved without a word: the page offers the move
    no_overflow(host)
    accessible(host)
    axe.check(host, "the room's next game offered")
    host.screenshot(path=str(SHOTS / f"journey-next-game-offered-{screen}.png"))
    host.click("#join-new-game")
    host.wait_for_url(second)
    host.wait_for_selector(".tbl")
    # the same seats and names, a new game: both play in it
    for page, partner, me in ((host, NAMES[1], NAMES[0]), (friend, NAMES[0], NAMES[1])):
        assert page.locator("#score-us").inner_text() == "0"
        assert page.locator("#winner").count() == 0
        assert page.locator("#seat-N .nm").inner_text() == partner
        fits(page, partner, me)
    host_moved = friend_moved = False

    def both_moved() -> bool:
        return host_moved and friend_moved

    deadline = time.monotonic() + 120
    while not both_moved() and time.monotonic() < deadline:
        mine = set(host.locator(".cards [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"))
        theirs = set(friend.locator(".cards [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"))
        assert not mine & theirs
        before = version(host)
        h, f = act_once(host), act_once(friend)
        host_moved, friend_moved = host_moved or h, friend_moved or f
        if not (h or f):
            wait_for_news(host, before)
    assert both_moved()
    accessible(friend)
    axe.check(friend, "the room's next game, the friend")
    axe.check(host, "the room's next game, the host")
    host.screenshot(path=str(SHOTS / f"journey-next-game-host-{screen}.png"))
    friend.screenshot(path=str(SHOTS / f"journey-next-game-friend-{screen}.png"))
    for traffic in (host_traffic, friend_traffic):
        assert traffic.tables() == {first.rsplit("/", 1)[1], second.rsplit("/", 1)[1]}
        views, bodies = traffic.check()
        assert views >= 4 and bodies >= 2, (views, bodies)
    axe.assert_clean()
    host_ctx.close()
    friend_ctx.close()


def fits(page: Any, partner: str, me: str) -> None:
    """Nothing wider than the screen; every seat inside the felt, each name whole."""
    no_overflow(page)
    out = page.evaluate("""() => {
        const felt = document.querySelector('.felt').getBoundingClientRect();
        return [...document.querySelectorAll('.seat')].filter(s => {
            const r = s.getBoundingClientRect();
            return r.left < felt.left - 0.5 || r.right > felt.right + 0.5
                || s.scrollWidth > s.clientWidth + 1; }).map(s => s.id); }""")
    assert not out, f"seats beyond the felt or cut: {out}"
    assert partner in page.locator("#seat-N").inner_text().replace("\n", " ")
    assert me in page.locator("#seat-S").inner_text().replace("\n", " ")
