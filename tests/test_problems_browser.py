"""The problems' pages in a browser (*Exercices*), at 390x844 and 1280x900: axe-core finds no
WCAG 2.1 A/AA violation nor best-practice fault on the list, one difficulty's page, a problem
before and after a card is picked (right and wrong), in French and English, and the missing
page; nothing is wider than the screen; the cards to pick are big enough to tap; the home
page links to the problems. Screenshots go to ``$REBELOTE_SHOTS`` when it is set."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from rebelote.web.problems.service import shipped
from test_axe import AXE, SCREENS, Axe, axe
from test_table_browser import CHROMIUM, no_overflow, server

__all__ = ["axe", "server"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is absent"),
    pytest.mark.skipif(not AXE.exists() and not os.environ.get("REBELOTE_AXE"),
                       reason="axe-core is not installed (scripts/test.sh installs it)"),
]


def _shot(page: Any, name: str) -> None:
    folder = os.environ.get("REBELOTE_SHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_problems_pages(browser: Any, server: str, axe: Axe, screen: str) -> None:
    problems = shipped().problems
    hard = next(p for p in problems if p["level"] == "difficile" and p["position"]["tricks"])
    ctx = browser.new_context(viewport=SCREENS[screen], bypass_csp=True)
    page = ctx.new_page()
    page.goto(server + "/")
    page.click("#problems-link")
    page.wait_for_selector("#of-the-day")
    axe.check(page, "the problems")
    no_overflow(page)
    _shot(page, f"{screen}-index")
    page.click("text=Tous les exercices de ce niveau >> nth=2")
    axe.check(page, "one difficulty")
    no_overflow(page)
    page.goto(f"{server}/exercices/{hard['id']}")
    axe.check(page, "a problem")
    no_overflow(page)
    _shot(page, f"{screen}-problem")
    for button in page.query_selector_all("button.play"):
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    page.click(f"button[value='{hard['tempting']}']")
    page.wait_for_selector("#verdict.wrong")
    assert "Pas la meilleure" in page.inner_text("#verdict-h")
    axe.check(page, "a wrong card")
    no_overflow(page)
    _shot(page, f"{screen}-wrong")
    page.click(f"button[value='{hard['answer']}']")
    page.wait_for_selector("#verdict.right")
    axe.check(page, "the right card")
    page.goto(f"{server}/exercices/{hard['id']}?carte={hard['answer']}&lang=en")
    assert "Well played" in page.inner_text("#verdict-h")
    axe.check(page, "the right card, in English")
    no_overflow(page)
    _shot(page, f"{screen}-right-en")
    page.goto(f"{server}/exercices/{hard['id']}?carte=ZZ")
    assert page.is_visible("#card-error")
    axe.check(page, "a card that is not playable")
    page.goto(f"{server}/exercices/0-0-0")
    axe.check(page, "no such problem")
    ctx.close()
    assert len(axe.checked) == 8
    axe.assert_clean()


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_your_costly_cards_pages(browser: Any, server: str, axe: Axe, screen: str) -> None:
    import random

    import httpx

    for seed in range(8):
        view = httpx.post(f"{server}/api/tables", json={"game": "coinche", "bots": "heuristic",
                                                        "target": 2000}, timeout=10).json()
        token, tid = view["token"], view["id"]
        me = {"Authorization": f"Bearer {token}"}
        rng = random.Random(seed)
        while view["deal"] == 1 and not view["over"]:
            legal = [a for a in view["legal"] if a != "no-declaration"]
            action = "pass" if view["phase"] == "auction" and "pass" in legal \
                else rng.choice(legal)
            view = httpx.post(f"{server}/api/tables/{tid}/actions", json={"action": action},
                              headers=me, timeout=30).json()
        listed = httpx.get(f"{server}/exercices/table/{tid}/1", headers=me, timeout=60)
        if "/exercices/table/" + tid + "/1/1" in listed.text:
            break
    else:
        pytest.fail("no costly card in eight deals played at random")
    ctx = browser.new_context(viewport=SCREENS[screen], bypass_csp=True,
                              extra_http_headers=me)
    page = ctx.new_page()
    page.goto(f"{server}/tables/{tid}/deals/1/analysis")
    axe.check(page, "the deal's analysis, with its link")
    page.click("#costly-link")
    page.wait_for_selector(".problem-list")
    axe.check(page, "your costly cards")
    no_overflow(page)
    page.click(".problem-list a >> nth=0")
    page.wait_for_selector("button.play")
    axe.check(page, "a costly card")
    no_overflow(page)
    page.click("button.play >> nth=0")
    page.wait_for_selector("#verdict")
    assert "Dans la partie, vous avez joué" in page.inner_text("#verdict")
    axe.check(page, "a costly card answered")
    no_overflow(page)
    _shot(page, f"{screen}-costly")
    ctx.close()
    axe.assert_clean()
