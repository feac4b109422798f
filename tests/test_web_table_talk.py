"""The counter's bugs found at a real table (issue 9, item 8), each pinned by a test: the
marks as the page writes them, the result cards of capot, générale and coinched deals, the words
of the page and the printables, the CSV's litige column, and the refusals a scorer must see."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rebelote.web.app import create_app
from web_fixtures import keyed_client

API = "/api/counter/games"
HX = {"HX-Request": "true"}
NBSP = "\u202f"  # the narrow no-break space French writes between thousands


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with keyed_client(create_app(f"sqlite:///{tmp_path / 'talk.sqlite3'}")) as c:
        yield c


def start(client: TestClient, game: str = "belote", target: str = "1000") -> str:
    r = client.post("/games", data={"game": game, "target": target}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return str(r.headers["location"].rsplit("/", 1)[1])


def last_deal(html: str) -> str:
    found = re.search(r'id="last-deal">([^<]*)<', html)
    assert found, html[:300]
    return found.group(1)


def errors(html: str) -> list[str]:
    return re.findall(r'class="error[^"]*" role="alert" id="error">([^<]*)<', html)


def test_a_negative_correction_is_written_with_its_sign(client: TestClient) -> None:
    gid = start(client)
    r = client.post(f"/games/{gid}/deals", data={"kind": "adjust", "adj_NS": "-20"}, headers=HX)
    assert last_deal(r.text) == "Donne 1 : correction · −20 / +0"
    assert "+-" not in r.text and "+−" not in r.text
    assert re.search(r'id="total-NS">−20<', r.text)


def test_the_last_deal_is_grouped_as_the_totals_are(client: TestClient) -> None:
    gid = start(client, "coinche", "3000")
    deal = {"kind": "deal", "taker": "NS", "contract": "capot", "coinche": "surcoinche",
            "trump": "spades", "capot": "taker"}
    r = client.post(f"/games/{gid}/deals", data=deal, headers=HX)
    assert r.status_code == 200, errors(r.text)
    total = re.search(r'id="total-NS">([^<]*)<', r.text)
    assert total
    mark = total.group(1)
    assert NBSP in mark, mark  # four digits: grouped
    assert last_deal(r.text) == f"Donne 1 : réussi · +{mark} / +0"
    english = client.get(f"/games/{gid}?lang=en")
    assert last_deal(english.text) == f"Deal 1: made · +{mark.replace(NBSP, ',')} / +0"


@pytest.mark.parametrize(("contract", "words"), [
    ("capot", ("capot", "250")),
    ("generale", ("générale", "500")),
])
def test_capot_and_generale_cards_name_their_contract(
        client: TestClient, contract: str, words: tuple[str, str]) -> None:
    gid = start(client, "coinche", "2000")
    r = client.post(f"/games/{gid}/deals", data={
        "kind": "deal", "taker": "EW", "contract": contract, "trump": "hearts",
        "capot": "taker"}, headers=HX)
    assert r.status_code == 200, errors(r.text)
    card = r.text[r.text.index('id="deal-1"'):]
    card = card[:card.index("</details>")]
    for word in words:
        assert word in card, (word, card)
    assert "Nous capot" not in card  # the takers made it, the defense is not "capot"


def test_a_coinched_deal_shows_its_sum(client: TestClient) -> None:
    gid = start(client, "coinche", "2000")
    r = client.post(f"/games/{gid}/deals", data={
        "kind": "deal", "taker": "NS", "contract": "110", "coinche": "coinche",
        "trump": "hearts", "points": "120", "decl_NS": "20"}, headers=HX)
    assert r.status_code == 200, errors(r.text)
    assert "(160 + annonces 20 + contrat 110) × 2 = 580" in r.text


def test_a_generale_box_on_another_contract_is_refused(client: TestClient) -> None:
    gid = start(client, "coinche", "2000")
    r = client.post(f"/games/{gid}/deals", data={
        "kind": "deal", "taker": "NS", "contract": "120", "generale": "on", "trump": "hearts",
        "capot": "taker"}, headers=HX)
    assert r.status_code == 422
    assert errors(r.text) == ["Générale : la générale est un contrat : choisissez « générale » "
                              "comme contrat."]
    created = client.post(API, json={"game": "coinche", "target": 2000}).json()
    r = client.post(f"{API}/{created['id']}/deals", json={
        "taker": "NS", "contract": 120, "generale": True, "trump": "hearts", "capot": "NS",
        "points": {"EW": 0}})
    assert r.status_code == 422
    assert r.json()["error"].startswith("generale: a générale is a contract")
    assert client.get(f"{API}/{created['id']}").json()["deals"] == []


@pytest.mark.parametrize(("value", "ok"), [("5000", True), ("-5000", True), ("5001", False),
                                          ("99999", False), ("-99999", False)])
def test_a_correction_is_bounded(client: TestClient, value: str, ok: bool) -> None:
    gid = start(client, "belote", "100000")
    r = client.post(f"/games/{gid}/deals", data={"kind": "adjust", "adj_EW": value},
                    headers=HX)
    if ok:
        assert r.status_code == 200 and not errors(r.text)
        return
    assert r.status_code == 422
    shown = ("−" if value.startswith("-") else "") + f"{int(value.lstrip('-')):,}".replace(
        ",", NBSP)
    assert errors(r.text) == [f"Correction : {shown} dépasse ce qu’une correction peut "
                              f"marquer (±5{NBSP}000 points)."]
