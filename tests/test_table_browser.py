"""The play table in a real browser (Debian's chromium, Playwright) against ``rebelote serve``
in a subprocess: a whole deal of each game played through the page on a phone (390x844) and on a
desktop, the focus at each turn, the live region. Every response and WebSocket frame the browser
receives is scanned for a card its player could not see yet. (Whole games at each level with a
new game after each, and a room of two friends, are the journeys of ``test_journey_table.py``,
which use this module's helpers.)"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from table_helpers import cards_in_html, leaks, public_cards
from web_fixtures import CHROMIUM, live_server

SHOTS = Path(os.environ.get("REBELOTE_SCREENSHOTS", "/tmp"))

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason=f"{CHROMIUM} is absent: install Debian's chromium to run the "
                              "browser tests"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The module's server (the table's other browser modules import it: one each), le robot
    à votre place off (``REBELOTE_ROBOT_PENDING=0``): its replay of every finished deal took
    the CPU of the live bots and of the other worker; ``test_table_robot_browser.py``'s own
    server replays."""
    db = tmp_path_factory.mktemp("tables") / "tables.db"
    with live_server(f"sqlite:///{db}", env={"REBELOTE_ROBOT_PENDING": "0"}) as base:
        yield base


class Traffic:
    """Every same-origin response body and WebSocket frame a page receives, then checked: no
    view and no HTML names a card that the seat neither held by then nor could see. A page
    that goes on to another table (the room's next game) is followed there: each table's
    views and pages are checked against that table's own deals."""

    def __init__(self, page: Any, base: str) -> None:
        self.base = base
        self.views: list[dict[str, Any]] = []
        self.bodies: list[tuple[str, str]] = []
        page.on("websocket", self._socket)
        page.on("response", self._response)

    def stop(self, page: Any) -> None:
        """Stop listening to ``page``."""
        page.remove_listener("websocket", self._socket)
        page.remove_listener("response", self._response)

    def _socket(self, ws: Any) -> None:
        def frame(payload: str | bytes) -> None:
            msg = json.loads(payload)
            if isinstance(msg, dict) and "hand" in msg:
                self.views.append(msg)
        ws.on("framereceived", frame)

    def _response(self, response: Any) -> None:
        url = response.url
        if not url.startswith(self.base) or "/static/" in url or url.endswith(".svg"):
            return
        try:
            body = response.text()
        except Exception:  # a redirect or an aborted fetch has no body
            return
        self.bodies.append((url, body))

    def tables(self) -> set[str]:
        """The tables whose views this page received."""
        return {str(v.get("id")) for v in self.views}

    def check(self) -> tuple[int, int]:
        """Scan everything received; the number of views and of HTML bodies checked."""
        by_version: dict[tuple[str, int], dict[str, Any]] = {}
        # (table, deal) -> cards held so far, in version order
        held: dict[tuple[str, int], set[str]] = {}
        for view in sorted(self.views, key=lambda v: (str(v.get("id")), v["version"])):
            tid = str(view.get("id"))
            seen = held.setdefault((tid, view["deal"]), set())
            seen |= set(view["hand"])
            bad = leaks(view, seen)
            assert not bad, f"a WebSocket frame of {tid} shows {bad} to {view['seat']}"
            by_version[tid, view["version"]] = view | {"_held": set(seen)}
        checked = 0
        for url, body in self.bodies:
            at = re.search(r"/tables/([0-9a-f]+)", url)
            tid = at.group(1) if at else ""
            if body.lstrip().startswith("{"):
                data = json.loads(body)
                if isinstance(data, dict) and "hand" in data:
                    tid = str(data.get("id", tid))
                    held_now = set(data["hand"]) | held.get((tid, data["deal"]), set())
                    assert not leaks(data, held_now), (url, leaks(data, held_now))
                continue
            m = re.search(r'class="tbl[^"]*"[^>]*data-version="(\d+)"', body) or re.search(
                r'data-version="(\d+)"', body)
            if not m or (tid, int(m.group(1))) not in by_version:
                continue
            view = by_version[tid, int(m.group(1))]
            table = body
            if 'id="result"' in body:  # the finished deal's card is public: not scanned
                table = re.sub(r'<section[^>]*id="result".*?</section>', "", body, flags=re.S)
            shown = cards_in_html(table)
            # between two deals the felt shows the last trick of the one that ended (public)
            ended = (view.get("last_result") or {}).get("last_trick") if view.get(
                "waiting") else None
            past = {c for _, c in ended["cards"]} if ended else set()
            bad = shown - view["_held"] - public_cards(view) - past
            assert not bad, f"{url} (version {m.group(1)}) shows {bad}"
            checked += 1
        return len(by_version), checked


#: WCAG 2.1 AA checks of a page as displayed: text contrast, controls' size (table_a11y.js).
A11Y_JS = (Path(__file__).parent / "table_a11y.js").read_text()


def accessible(page: Any) -> None:
    found = page.evaluate(A11Y_JS)
    assert not found["bad"], f"text below AA contrast: {found['bad']}"
    assert not found["small"], f"controls smaller than 24x24: {found['small']}"


def version(page: Any) -> str:
    return str(page.locator(".tbl").get_attribute("data-version"))


#: Whether the table on the page is no longer at version ``v`` (or gone: another page).
CHANGED = ("v => !document.querySelector('.tbl') || "
           "document.querySelector('.tbl').dataset.version !== v")


def wait_for_news(page: Any, before: str, ms: float = 2000) -> None:
    """Until the table on ``page`` is no longer at version ``before`` (a move, anyone's, or a
    new deal), at most ``ms``: checked in the page every 50 ms. A loop that waits for the
    bots this way, not by looking at the page again every 100 ms (five to ten round trips to
    the browser each time: the test, Playwright's driver and chromium busy while the bots
    think), lets the server's bots have the CPU."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(CHANGED, arg=before, polling=50, timeout=ms)


def act_once(page: Any, rng: random.Random | None = None, surcoinche: bool = True) -> bool:
    """Make one move with the keyboard if it is this page's turn; True if a move was made.

    Without ``rng``: bid to play a contract (take, or the lowest value in hearts), else the
    first legal card. With ``rng``: any call on offer (a contract value picked in the grid, a
    trump, a suit, coinche, surcoinche, pass) or any legal card."""
    page.wait_for_load_state("load")  # htmx has taken over the page's forms
    before = version(page)
    if rng is None:
        choices = [next((sel for sel in ("#next-deal", "#bid-take", ".trumps button.trump-hearts",
                                         "#bid-pass", ".cards .pc.legal")
                         if page.locator(sel).count()), "")]
    else:
        # each kind of call on offer once (pass five times: coinches end games fast)
        choices = [sel for sel, weight in (("#next-deal", 1), ("#bid-take", 1), (".suit-bid", 1),
                                           (".trumps button", 1), ("#bid-coinche", 1),
                                           ("#bid-surcoinche", int(surcoinche)),
                                           ("#bid-pass", 5),
                                           (".cards .pc.legal", 1))
                   if page.locator(sel).count() for _ in range(weight)]
    choices = [c for c in choices if c]
    if not choices:
        return False
    sel = rng.choice(choices) if rng else choices[0]
    loc = page.locator(sel)
    target = loc.nth(rng.randrange(loc.count())) if rng else loc.first
    values = page.locator("#bid-value option")
    if rng and sel == ".trumps button" and values.count() > 1:
        steps = rng.randrange(min(values.count(), 3))
        up = page.locator(".step[data-step='1']")
        for _ in range(steps):  # a contract value chosen with the keyboard: + pressed
            up.focus()
            page.keyboard.press("Enter")
        assert page.locator("#bid-value").input_value() == values.nth(steps).get_attribute(
            "value")
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:  # played with the keyboard: focus, then Enter
        target.focus(timeout=3000)
    except PlaywrightTimeout:  # a live update replaced the control meanwhile: look again
        return False
    page.keyboard.press("Enter")
    page.wait_for_function(
        "v => document.querySelector('.tbl') && "
        "document.querySelector('.tbl').dataset.version !== v", arg=before)
    return True


def start(page: Any, base: str, game: str, friends: str | None = None,
          bots: str = "debutant", target: int = 501, pace: int = 0) -> None:
    """A table started from the home page's form; ``bots`` a level for people (``debutant``
    answers at once: the form offers no other bot)."""
    page.goto(base + "/")
    page.click("#play-link")
    page.check(f"input[name=game][value={game}]", force=True)
    page.check(f"input[name=target][value='{target}']", force=True)
    page.check(f"input[name=bots][value={bots}]")
    page.select_option("select[name=pace]", str(pace))
    if friends:
        page.check(f"input[name=friends][value={friends}]")
    page.click("#start-table")
    page.wait_for_selector(".tbl")


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def no_overflow(page: Any) -> None:
    """Nothing wider than the screen: no sideways scrolling."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


@pytest.mark.parametrize(("game", "screen"), [("coinche", "phone"), ("belote", "phone"),
                                              ("belote", "desktop")])
def test_a_whole_deal_played_in_the_page(browser: Any, kept_page: Any, server: str, game: str,
                                         screen: str) -> None:
    from playwright.sync_api import expect

    page = kept_page(PHONE if screen == "phone" else DESKTOP)
    traffic = Traffic(page, server)
    posted: list[str | None] = []  # each move's HX-Request header

    def post(r: Any) -> None:
        if r.method == "POST" and r.url.endswith("/act"):
            posted.append(r.headers.get("hx-request"))

    page.on("request", post)
    page.goto(server + "/tables/new")
    accessible(page)
    # each select shows its whole choice ("heuristique (rapide)" was cut on a phone), measured
    # with the select's own font beside its width (padding and the arrow's 24 px apart)
    cut = page.locator(".start-table select").evaluate_all("""els => els.filter(s => {
        const st = getComputedStyle(s), c = document.createElement('canvas').getContext('2d');
        c.font = st.font;
        const text = c.measureText(s.options[s.selectedIndex].text).width;
        return text + parseFloat(st.paddingLeft) + parseFloat(st.paddingRight) + 24
            > s.clientWidth; }).map(s => s.options[s.selectedIndex].text)""")
    assert not cut, f"selects that cut their choice: {cut}"
    start(page, server, game)
    assert page.locator("#announce").count() == 1
    no_overflow(page)
    accessible(page)
    deadline = time.monotonic() + 120
    checked_play = checked_grid = False
    while not page.locator("#result").count() and time.monotonic() < deadline:
        if not checked_grid and page.locator("#bid-value").count():
            # the contract's select shows each of its values whole ("générale" the longest)
            cut = page.locator("#bid-value").evaluate("""s => {
                const st = getComputedStyle(s), c = document.createElement('canvas')
                    .getContext('2d');
                c.font = st.font;
                return [...s.options].filter(o => c.measureText(o.text).width
                    + parseFloat(st.paddingLeft) + parseFloat(st.paddingRight) + 24
                    > s.clientWidth).map(o => o.text); }""")
            assert not cut, f"cut in the contract's select: {cut}"
            checked_grid = True
        if not checked_play and page.locator(".cards .pc:disabled").count() and page.locator(
                ".cards .pc.legal").count():
            accessible(page)  # legal and disabled cards side by side
            no_overflow(page)
            checked_play = True
        if not act_once(page):
            page.wait_for_timeout(200)
    result = page.locator("#result")
    assert result.count() == 1, page.locator(".tbl").inner_text()
    # every move went through htmx, even a key pressed as soon as the card it played had
    # the focus (the swapped-in forms are htmx's at once): none reloaded the whole page
    assert posted and all(h == "true" for h in posted), posted
    text = result.inner_text()
    assert re.search(r"Résultat de la donne 1", text)
    assert page.locator("#result .lines tbody tr").count() >= 2
    assert "✓" in page.locator("#result .shuffle summary").inner_text()
    # the browser hashed the revealed seed and salt itself: the commitment it was shown
    said = "() => document.querySelector('#browser-check').textContent.length > 0"
    page.wait_for_function(said)
    assert page.locator("#browser-check").text_content().startswith("✓")
    # the screen reader's live region says the latest call or card (filled by the page's
    # script after each update, and when a page loads): waited for, not read at once
    expect(page.locator("#live")).to_have_text(re.compile(r"\S"), timeout=15000)
    if screen == "desktop":  # as if the server had shown another commitment before the deal
        table_id = page.locator("#table").get_attribute("data-id")
        page.evaluate("id => localStorage.setItem('rebelote.commit.' + id + '.1', "
                      "'0'.repeat(64))", table_id)
        page.reload()
        page.wait_for_function(said)
        assert page.locator("#browser-check").text_content().startswith("✗")
    no_overflow(page)
    accessible(page)
    page.screenshot(path=str(SHOTS / f"table-{game}-{screen}-result.png"), full_page=True)
    if screen == "phone" and game == "coinche":  # the deal analysed by the solver, card by card
        from rebelote.table.analysis import solver_available

        if solver_available():
            page.click("#analysis-link")
            page.wait_for_selector("#analysis")
            assert page.locator("#analysis tbody tr").count() == 32
            assert page.locator("#totals tbody tr").count() == 4
            aligned = page.locator("#totals tbody td + td, #totals th + th").evaluate_all(
                "els => els.map(e => getComputedStyle(e).textAlign)")
            assert set(aligned) == {"right"}, aligned  # the numbers' columns, both
            no_overflow(page)
            fits = page.evaluate("() => { const t = document.querySelector('#analysis'); "
                                 "return [t.scrollWidth, t.parentElement.clientWidth]; }")
            assert fits[0] <= fits[1], f"the analysis is {fits[0]} px wide in {fits[1]} px"
            accessible(page)
            page.screenshot(path=str(SHOTS / "table-analysis-phone.png"), full_page=True)
            page.go_back()
            page.wait_for_selector("#result")
    traffic.stop(page)  # the page is kept for the module's next tests
    page.remove_listener("request", post)
    views, pages = traffic.check()
    assert views >= 2 and pages >= 2, (views, pages)


def read_result(page: Any, read: dict[str, str]) -> None:
    """Read the result card on the page if it is a new one: its lines, the checked shuffle,
    and the score sheet one row longer."""
    if not page.locator("#result").count():
        return
    title = page.locator("#result-title").inner_text()
    if title in read:
        return
    read[title] = page.locator("#result").inner_text()
    assert page.locator("#result .lines tbody tr").count() >= 1, read[title]
    assert "✓" in page.locator("#result .shuffle summary").inner_text()
    assert page.locator("#sheet tbody tr").count() == len(read), read


FOCUSED = "() => { const a = document.activeElement; return a ? a.tagName + '#' + a.id : '-'; }"


@pytest.mark.parametrize("pace", [0, 300])
def test_the_focus_comes_to_each_turn_s_first_move(browser: Any, kept_page: Any, server: str,
                                                   pace: int) -> None:
    """A keyboard player on a phone: at each of South's turns the focus is already on its first
    move (a legal card, or the auction's first control), in view below the sticky top bar;
    Enter plays it. Played into the second deal: with the bots at once (pace 0) each turn comes
    in the move's own answer (htmx's swap), "Next deal"'s included; at a visible pace (300 ms)
    the bots' cards come through the socket (the page's own fetch)."""
    page = kept_page(PHONE)
    # to 2000: the game goes on into a second deal
    start(page, server, "coinche", pace=pace, target=2000)
    page.wait_for_load_state("load")
    # read in one go when the turn shows (nothing can run between the two reads): the focus is
    # set in the same task as the swap that brought the turn, so it is checked at once
    at_turn = """() => {
        const shown = document.querySelector('#seat-S.turn .chip.go, #next-deal');
        if (!shown) return null;
        const a = document.activeElement, bar = document.querySelector('.topbar');
        const kind = document.querySelector('#next-deal') ? 'next'
            : document.querySelector('.bids') ? 'bid' : 'card';
        const deal = document.querySelector('.commit').dataset.deal;
        if (!a || !a.matches('.cards .pc.legal, .bids select, .bids button, #next-deal'))
            return [kind, deal, a ? a.tagName + '#' + a.id : 'none'];
        const r = a.getBoundingClientRect();
        return [kind, deal, r.top >= bar.getBoundingClientRect().bottom
                            && r.bottom <= innerHeight ? 'ok' : 'out of view'];
    }"""
    turns: list[list[str]] = []
    deadline = time.monotonic() + 120
    # past "Next deal" and into the next deal's first turns
    while not (len(turns) >= 6 and any(k == "next" for k, _, _ in turns[:-2])) \
            and time.monotonic() < deadline:
        before = version(page)
        turns.append(page.wait_for_function(at_turn, timeout=30000).json_value())
        if turns[-1][2] != "ok":  # (reported below) the move is focused by hand to go on
            page.locator(".cards .pc.legal, .bids button, #next-deal").first.focus()
        if page.locator("#bid-pass").count():
            # pass, to reach the play; swapped out between the two reads (seen once on CI),
            # Enter makes the focused call instead and the game goes on
            with contextlib.suppress(PlaywrightTimeoutError):
                page.locator("#bid-pass").focus(timeout=5000)
        page.keyboard.press("Enter")
        try:
            page.wait_for_function(
                "v => document.querySelector('.tbl').dataset.version !== v", arg=before)
        except PlaywrightTimeoutError as e:  # say where the page stood
            raise AssertionError(f"the table did not move after Enter at {turns[-1]} (turns "
                                 f"{turns}); focus on {page.evaluate(FOCUSED)!r}; page: "
                                 f"{page.locator('#table').inner_text()[:1500]!r}") from e
    # the first turn may come with the page's load (focused by the page's script then)
    assert any(k == "next" for k, _, _ in turns[:-2]), turns
    assert all(t[2] == "ok" for t in turns), [t for t in turns if t[2] != "ok"]


def test_the_live_region_says_every_call_and_card(browser: Any, kept_page: Any,
                                                   server: str) -> None:
    """The bots at once (pace instant): a move's answer carries the bots' calls and cards up to
    South's next turn, and the live region says each of them, not only the last one."""
    from playwright.sync_api import expect

    page = kept_page(DESKTOP)
    start(page, server, "coinche", target=1000)
    said: list[str] = []
    deadline = time.monotonic() + 90
    while not page.locator("#result").count() and time.monotonic() < deadline:
        before = page.locator("#live").text_content() or ""
        if act_once(page):
            # waited for, not read at once: the live region is filled after the swap
            expect(page.locator("#live")).not_to_have_text(before or "\u0000", timeout=5000)
            said.append(page.locator("#live").text_content() or "")
        else:
            page.wait_for_timeout(100)
    assert page.locator("#result").count(), said
    text = " ".join(said)
    # every card of the seven first tricks at least (the eighth's last ones come with the
    # next deal's page), each said once: 28 or more sentences "X joue ..." / "Vous jouez ..."
    cards = re.findall(r"\b(?:joue|jouez) ((?:sept|huit|neuf|dix|valet|dame|roi|as) de \w+)",
                       text)
    assert len(cards) >= 28 and len(cards) == len(set(cards)), said
    assert re.search(r"Résultat de la donne 1", text), said
