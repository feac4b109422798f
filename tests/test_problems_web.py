"""The problems' pages over HTTP (*Exercices*): read-only and public, every input bounded, no
500 on any input (bad ids, cards, difficulties, pages), French first with English, and no card
the player could not see in a problem's page before a card is picked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelote.bots.problems import visible_cards
from rebelote.cards import card_str
from rebelote.web.app import create_app
from rebelote.web.problems.pages import card_words
from rebelote.web.problems.service import ProblemSet, shipped


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://"), raise_server_exceptions=False) as c:
        yield c


def test_the_list_and_the_problem_of_the_day(client: TestClient) -> None:
    page = client.get("/exercices")
    assert page.status_code == 200
    assert "L'exercice du jour" in page.text and "Difficile" in page.text
    assert client.get("/exercices", params={"lang": "en"}).text.count("Problem of the day") == 1
    assert 'href="/exercices"' in client.get("/").text
    for level in ("facile", "moyen", "difficile"):
        got = client.get("/exercices", params={"niveau": level, "page": "1"})
        assert got.status_code == 200 and "/exercices/" in got.text


def test_the_day_walks_the_set() -> None:
    import datetime

    problems = shipped()
    days = [problems.of_day(datetime.date(2026, 12, 1) + datetime.timedelta(days=k))
            for k in range(30)]
    assert len({p["id"] for p in days if p}) == 30
    assert ProblemSet(()).of_day(datetime.date(2026, 1, 1)) is None


@pytest.mark.parametrize("path", [
    "/exercices/abc", "/exercices/0-0-0", "/exercices/" + "9" * 3000, "/exercices/1-1-1%00",
    "/exercices/..%2F..%2Fetc", "/exercices/-1-2-3", "/exercices/1-2-3-4",
])
def test_a_bad_id_is_a_404_page(client: TestClient, path: str) -> None:
    got = client.get(path)
    assert got.status_code == 404
    assert got.headers["content-type"].startswith("text/html")
    if "%2F" not in path:  # an encoded slash is no route at all: the site's own 404 page
        assert "Exercice introuvable" in got.text


@pytest.mark.parametrize("params", [{"niveau": "expert"}, {"niveau": "moyen", "page": "0"},
                                    {"niveau": "moyen", "page": "x" * 5000},
                                    {"niveau": "moyen", "page": "99999"}, {"page": "2"},
                                    {"niveau": "moyen", "page": "²"},
                                    {"niveau": "moyen", "page": "١"}])
def test_a_bad_list_is_a_422_page_that_says_why(client: TestClient,
                                                params: dict[str, str]) -> None:
    got = client.get("/exercices", params=params)
    assert got.status_code == 422
    assert "Niveau\u00a0:" in got.text or "Page\u00a0:" in got.text


def test_a_card_that_is_not_playable_is_a_422_next_to_the_hand(client: TestClient) -> None:
    p = shipped().problems[0]
    for bad in ("ZZ", "", "x" * 10_000, "\x00", next(c for c in map(card_str, range(32))
                                                     if c not in p["position"]["legal"])):
        got = client.get(f"/exercices/{p['id']}", params={"carte": bad})
        assert got.status_code == 422, bad
        assert 'id="card-error"' in got.text and "Carte\u00a0:" in got.text
        assert 'id="verdict"' not in got.text


def test_the_answer_only_once_a_card_is_picked(client: TestClient) -> None:
    for p in shipped().problems[:40]:
        before = client.get(f"/exercices/{p['id']}")
        assert before.status_code == 200
        assert 'id="verdict"' not in before.text
        assert "Ce que la recherche savait" not in before.text
        seen = visible_cards(p["position"])
        for c in range(32):
            if c not in seen:  # hidden from the player: never named before the pick
                assert card_words(card_str(c), "fr") not in before.text, (p["id"], c)
        wrong = next(c["card"] for c in p["cards"] if c["card"] != p["answer"])
        after = client.get(f"/exercices/{p['id']}", params={"carte": wrong.lower()})
        assert after.status_code == 200
        assert "Pas la meilleure" in after.text and "Ce que la recherche savait" in after.text
        right = client.get(f"/exercices/{p['id']}", params={"carte": p["answer"],
                                                             "lang": "en"})
        assert "Well played" in right.text and "What the search knew" in right.text


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_problems_catalogs(lang: str) -> None:
    """Every message of the pages has its French; the compiled catalog is the .po's; French
    typography (a non-breaking space before : ; ! ?)."""
    import re

    from babel.messages.mofile import read_mo
    from babel.messages.pofile import read_po

    from rebelote.web.problems.pages import tr

    locale = Path(__file__).resolve().parent.parent / "src" / "rebelote" / "locale"
    with (locale / lang / "LC_MESSAGES" / "problems.po").open("rb") as f:
        po = read_po(f, locale=lang)
    with (locale / lang / "LC_MESSAGES" / "problems.mo").open("rb") as f:
        mo = read_mo(f)

    def entries(catalog: Any) -> dict[Any, Any]:
        # a plural's id and forms are tuples in a .po, lists in a .mo; an untranslated
        # plural is in the .mo as its English forms
        def norm(x: Any) -> Any:
            return tuple(x) if isinstance(x, list | tuple) else x

        return {norm(m.id): norm(m.string) for m in catalog
                if m.id and norm(m.string) != norm(m.id)
                and (any(m.string) if isinstance(m.string, list | tuple) else m.string)}

    assert entries(po) == entries(mo)
    with (locale / "problems.pot").open("rb") as f:
        pot = read_po(f)
    assert {m.id for m in pot if m.id} == {m.id for m in po if m.id}
    if lang == "fr":
        assert all(po.get(m.id) and po.get(m.id).string for m in pot if m.id)
        for m in po:
            if m.id and isinstance(m.string, str):
                assert not re.search(r"[^\u00a0\u202f][:;!?](\s|$)", m.string), m.string
        assert tr("fr", "Card-play problems") == "Exercices"
    else:
        assert tr("en", "Card-play problems") == "Card-play problems"


def _a_finished_deal(folder: Path, seed: int) -> tuple[TestClient, str, str]:
    import random

    folder.mkdir()
    client = TestClient(create_app(f"sqlite:///{folder / 'tables.db'}"),
                        raise_server_exceptions=False)
    client.__enter__()
    r = client.post("/api/tables", json={"game": "coinche", "bots": "heuristic",
                                         "target": 2000})
    assert r.status_code == 201, r.text
    view = r.json()
    token, tid = view["token"], view["id"]
    rng = random.Random(seed)
    while view["deal"] == 1 and not view["over"]:
        legal = [a for a in view["legal"] if a != "no-declaration"]
        action = "pass" if view["phase"] == "auction" and "pass" in legal else rng.choice(legal)
        view = client.post(f"/api/tables/{tid}/actions", json={"action": action},
                           headers={"Authorization": f"Bearer {token}"}).json()
    return client, tid, token


def test_your_costly_cards_at_the_table_are_yours_only(tmp_path: Path) -> None:
    """The costly cards of South's finished deal (played at random against three heuristic
    bots, until a deal gives some): listed for South's secret only, each a problem whose
    answer is not the card South played; the analysis page links to them."""
    for seed in range(6):
        client, tid, token = _a_finished_deal(tmp_path / str(seed), seed)
        me = {"Authorization": f"Bearer {token}"}
        listed = client.get(f"/exercices/table/{tid}/1", headers=me)
        assert listed.status_code == 200
        assert client.get(f"/exercices/table/{tid}/1").status_code == 404  # no secret
        assert client.get(f"/exercices/table/{tid}/1",
                          headers={"Authorization": "Bearer nope"}).status_code == 404
        assert client.get(f"/exercices/table/{tid}/9", headers=me).status_code == 404
        assert client.get(f"/exercices/table/{'x' * 500}/1", headers=me).status_code == 404
        assert client.get(f"/exercices/table/{tid}/1/0", headers=me).status_code == 404
        analysis = client.get(f"/tables/{tid}/deals/1/analysis", headers=me)
        assert f"/exercices/table/{tid}/1" in analysis.text
        if "Votre carte coûteuse n°" not in listed.text:
            client.__exit__(None, None, None)
            continue
        page = client.get(f"/exercices/table/{tid}/1/1", headers=me)
        assert page.status_code == 200 and 'id="verdict"' not in page.text
        import re

        legal = re.findall(r'name="carte" value="([2-9TJQKA][SHDC])"', page.text)
        assert len(legal) >= 2
        answers = [client.get(f"/exercices/table/{tid}/1/1", headers=me,
                              params={"carte": c}).text for c in legal]
        right = sum("Bien joué" in a for a in answers)  # the cards of the best mark (ties)
        assert 1 <= right < len(legal)
        assert all("Dans la partie, vous avez joué" in a for a in answers)
        from rebelote.web.problems.pages import _COSTLY

        clear = next(v for k, v in _COSTLY.items() if k[0] == tid)[0]["clear"]
        assert ("Aucune carte ne se détache nettement" in answers[0]) is not clear
        assert client.get(f"/exercices/table/{tid}/1/1", headers=me,
                          params={"carte": "ZZ"}).status_code == 422
        client.__exit__(None, None, None)
        print(f"seed {seed}: {len(legal)} cards, answered")
        return
    pytest.fail("no costly card in six deals played at random")
