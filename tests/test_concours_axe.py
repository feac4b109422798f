"""axe-core on every page of the concours, at 390x844 and 1280x900: zero violations of WCAG
2.1 A and AA and of axe's best practices (the new concours form, the organiser's link's
question, the organiser's page through a partie with typed, phone-counted and to-check tables,
the QR page, the room screen with the draw and then the ranking, the missing page), and
nothing wider than a phone's screen."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from test_axe import AXE, SCREENS, Axe, axe
from test_table_browser import CHROMIUM, no_overflow, server

__all__ = ["axe", "server"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not __import__("pathlib").Path(CHROMIUM).exists(),
                       reason=f"{CHROMIUM} is absent"),
    pytest.mark.skipif(not AXE.exists() and not __import__("os").environ.get("REBELOTE_AXE"),
                       reason="axe-core is not installed (scripts/test.sh installs it)"),
]


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_concours_pages(browser: Any, server: str, axe: Axe, screen: str) -> None:
    body = {"name": "Concours du comité", "game": "belote", "parties": 3, "deals": 12,
            "options": {"declarations": False}, "exempt": "half",
            "teams": [{"name": f"Équipe {i}", "players": ["Anne", "Marc"]} for i in range(7)]}
    made = httpx.post(f"{server}/api/concours", json=body, timeout=10).json()
    cid, token, view = made["id"], made["token"], made["view"]
    auth = {"Authorization": f"Bearer {token}"}
    ctx = browser.new_context(viewport=SCREENS[screen], bypass_csp=True)
    page = ctx.new_page()
    page.goto(f"{server}/concours")
    axe.check(page, "new concours")
    no_overflow(page)
    page.goto(f"{server}/concours/{cid}/join?key={token}")
    axe.check(page, "the organiser's link asks first")
    no_overflow(page)
    page.click("#add-concours")
    page.wait_for_selector("#draw")
    axe.check(page, "organiser, before the draw")
    page.click("#draw")
    page.wait_for_selector("#p1")
    room = ctx.new_page()
    room.goto(f"{server}/salle/{view}")
    axe.check(room, "room screen, the draw")
    page.click("#phones")
    page.wait_for_selector("#qr-1 img")
    axe.check(page, "QR codes of the tables")
    no_overflow(page)
    partie = httpx.get(f"{server}/api/concours/{cid}", timeout=10).json()["parties"][0]
    a, b = partie["tables"][1]["teams"]
    httpx.put(f"{server}/api/concours/{cid}/parties/1/tables/2",
              json={"scores": {str(a): 1000, str(b): 900}}, headers=auth, timeout=10)
    a, b = partie["tables"][2]["teams"]
    httpx.put(f"{server}/api/concours/{cid}/parties/1/tables/3",
              json={"scores": {str(a): 1000, str(b): 944}}, headers=auth, timeout=10)
    page.goto(f"{server}/concours/{cid}")
    page.click("#p1 .sheet-counts summary >> nth=0")
    axe.check(page, "organiser, a partie under way")
    no_overflow(page)
    room.goto(f"{server}/salle/{view}")
    axe.check(room, "room screen, the ranking")
    no_overflow(room)
    page.goto(f"{server}/concours/ffffffffffffffff")
    axe.check(page, "missing concours")
    ctx.close()
    assert len(axe.checked) == 8
    axe.assert_clean()
