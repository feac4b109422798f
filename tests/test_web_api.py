"""The counter's JSON API (docs/interfaces.md "The web API"), its pages and printables, through
FastAPI's TestClient on a temporary SQLite file."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelote.match import Match
from rebelote.web.app import create_app
from web_fixtures import keyed_client, seed_game, seed_games

API = "/api/counter/games"
FIVE = seed_game("belote-five-deals")


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'counter.sqlite3'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with keyed_client(create_app(db_url)) as c:
        yield c


def new_game(client: TestClient, **fields: Any) -> dict[str, Any]:
    body = {"game": "belote", "target": 1000, **fields}
    r = client.post(API, json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def add(client: TestClient, gid: str, deal: dict[str, Any], **kw: Any) -> Any:
    return client.post(f"{API}/{gid}/deals", json=deal, **kw)


def five_deal_game(client: TestClient) -> str:
    gid = str(new_game(client)["id"])
    for deal in FIVE["input"]["deals"]:
        assert add(client, gid, deal).status_code == 200
    return gid


def assert_error(r: Any, status: int, *words: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"], str) and body["error"]
    for word in words:
        assert word in body["error"], body["error"]


# -- creating and reading games --------------------------------------------------------------
def test_create_answers_201_with_id_teams_target_version(client: TestClient) -> None:
    game = new_game(client, rules="official", teams={"NS": "Alice & Bob", "EW": "Eux"})
    assert game["id"] and game["version"] == 1
    assert game["teams"] == {"NS": "Alice & Bob", "EW": "Eux"}
    assert game["target"] == 1000 and game["deals"] == []
    assert game["totals"] == {"NS": 0, "EW": 0} and game["winner"] is None


def test_create_defaults_to_nous_eux(client: TestClient) -> None:
    assert new_game(client)["teams"] == {"NS": "Nous", "EW": "Eux"}


def test_create_with_rule_options_keeps_them(client: TestClient) -> None:
    game = new_game(client, game="coinche", rules="official",
                    options={"rounding": "none", "declarations": False})
    got = client.get(f"{API}/{game['id']}").json()
    assert got["options"] == {"rounding": "none", "declarations": False}


@pytest.mark.parametrize(("body", "field"), [
    ({"game": "tarot"}, "game"),
    ({"target": 1000}, "game"),
    ({"game": "belote", "rules": "casino"}, "rules"),
    ({"game": "belote", "target": -5}, "target"),
    ({"game": "belote", "target": "mille"}, "target"),
    ({"game": "belote", "teams": {"NS": ""}}, "teams.NS"),
    ({"game": "belote", "teams": {"XY": "a"}}, "teams.XY"),
    ({"game": "belote", "options": {"rounding": "up"}}, "rounding"),
    ({"game": "belote", "options": {"colour": 1}}, "colour"),
    ({"game": "belote", "color": "red"}, "color"),
])
def test_create_bad_input_is_422_naming_the_field(client: TestClient, body: Any, field: str
                                                  ) -> None:
    assert_error(client.post(API, json=body), 422, field)
    assert client.get(API).json()["games"] == []


@pytest.mark.parametrize("raw", [b"", b"{not json", b"[1, 2]", b'"belote"', b"\xff\xfe"])
def test_a_body_that_is_not_a_json_object_is_422(client: TestClient, raw: bytes) -> None:
    r = client.post(API, content=raw, headers={"Content-Type": "application/json"})
    assert_error(r, 422, "body")


def test_get_unknown_game_is_404(client: TestClient) -> None:
    assert_error(client.get(f"{API}/nope"), 404, "nope")


def test_list_games_latest_first(client: TestClient) -> None:
    first = new_game(client, teams={"NS": "A", "EW": "B"})
    second = new_game(client, teams={"NS": "C", "EW": "D"})
    add(client, first["id"], {"taker": "NS", "points": {"NS": 100}})
    both = f"Bearer {first['token']},{second['token']}"
    games = client.get(API, headers={"Authorization": both}).json()["games"]
    assert [g["id"] for g in games] == [first["id"], second["id"]]
    assert games[0]["totals"] == {"NS": 100, "EW": 62} and games[0]["deals"] == 1
    assert games[1]["teams"] == {"NS": "C", "EW": "D"}


def test_list_bad_limit_is_422_in_our_shape(client: TestClient) -> None:
    assert_error(client.get(API, params={"limit": "many"}), 422, "limit")
    assert_error(client.get(API, params={"limit": 0}), 422, "limit")


# -- the seed game, deal by deal ---------------------------------------------------------------
def test_seed_five_deals_906_to_124(client: TestClient) -> None:
    gid = five_deal_game(client)
    game = client.get(f"{API}/{gid}").json()
    assert game["totals"] == {"NS": 906, "EW": 124}
    assert game["winner"] is None and game["version"] == 6
    for got, want in zip(game["deals"], FIVE["expect"]["deals"], strict=True):
        assert got["outcome"] == want["outcome"]
        assert got["score"] == want["score"]
    assert [r["NS"] for r in game["running"]] == [118, 209, 402, 614, 906]


@pytest.mark.parametrize("vector", seed_games(), ids=lambda v: v["id"])
def test_every_seed_game_through_the_api(client: TestClient, vector: dict[str, Any]) -> None:
    data = {k: v for k, v in vector["input"].items() if k != "deals"}
    gid = client.post(API, json=data).json()["id"]
    for deal in vector["input"]["deals"]:
        r = add(client, gid, deal)
        assert r.status_code == 200, r.text
    game = client.get(f"{API}/{gid}").json()
    for key, want in vector["expect"].items():
        if key == "deals":
            for got, exp in zip(game["deals"], want, strict=True):
                assert {k: got[k] for k in exp} == exp
        else:
            assert game[key] == want, key


def test_the_answer_is_the_score_answer_plus_metadata(client: TestClient) -> None:
    gid = five_deal_game(client)
    game = client.get(f"{API}/{gid}").json()
    match = Match.from_json(FIVE["input"])
    expected = match.result().to_json()
    for key, value in expected.items():
        assert game[key] == value, key
    assert {"id", "teams", "target", "version"} <= set(game)


def test_explain_gives_the_result_card_lines(client: TestClient) -> None:
    gid = five_deal_game(client)
    game = client.get(f"{API}/{gid}", params={"explain": "true"}).json()
    keys = [line["key"] for line in game["deals"][1]["lines"]]
    assert "mark" in keys and "declarations" in keys
    assert "lines" not in client.get(f"{API}/{gid}").json()["deals"][0]


# -- bad deals change nothing ----------------------------------------------------------------
@pytest.mark.parametrize(("deal", "field"), [
    ({"taker": "NS", "points": {"NS": 97, "EW": 70}}, "points"),
    ({"taker": "NS", "points": {"NS": 200}}, "points.NS"),
    ({"taker": "NS", "contract": 100, "points": {"NS": 100}}, "contract"),
    ({"taker": "NS", "points": {"NS": 100}, "declarations": {"NS": 35}}, "declarations.NS"),
    ({"taker": "NS", "points": {"NS": 100}, "declarations": {"NS": 20, "EW": 50}},
     "declarations"),
    ({"taker": "NS", "trump": "no-trump", "points": {"NS": 100}, "belote": "NS"}, "belote"),
    ({"taker": "XY", "points": {"NS": 100}}, "taker"),
    ({"points": {"NS": 100}}, "taker"),
    ({"taker": "NS"}, "points"),
    ({"taker": "NS", "points": {"NS": 100}, "rules": "house"}, "rules"),
    ({"game": "coinche", "taker": "NS", "points": {"NS": 100}}, "game"),
    ({"taker": "NS", "points": {"NS": "cent"}}, "points.NS"),
])
def test_bad_deal_is_422_and_nothing_changes(client: TestClient, deal: Any, field: str) -> None:
    gid = five_deal_game(client)
    before = client.get(f"{API}/{gid}").json()
    assert_error(add(client, gid, deal), 422, field)
    assert client.get(f"{API}/{gid}").json() == before


def test_coinche_deal_needs_a_contract(client: TestClient) -> None:
    gid = new_game(client, game="coinche")["id"]
    assert_error(add(client, gid, {"taker": "NS", "points": {"NS": 100}}), 422, "contract")
    r = add(client, gid, {"taker": "NS", "contract": 90, "coinche": "coinche",
                          "points": {"NS": 100}})
    assert r.json()["deals"][0]["outcome"] == "made"


def test_adding_a_deal_after_the_game_is_won_is_422(client: TestClient) -> None:
    gid = new_game(client, target=501)["id"]
    capot = {"taker": "NS", "points": {"NS": 252}, "capot": "NS"}
    for _ in range(2):
        add(client, gid, capot)
    game = client.get(f"{API}/{gid}").json()
    assert game["winner"] == "NS" and game["won_after_deal"] == 2
    assert_error(add(client, gid, capot), 422, "over", "new game")
    assert client.get(f"{API}/{gid}").json()["version"] == game["version"]


def test_void_and_adjust_lines(client: TestClient) -> None:
    gid = new_game(client)["id"]
    add(client, gid, {"void": True})
    r = add(client, gid, {"adjust": {"EW": 162}})
    deals = r.json()["deals"]
    assert [d["outcome"] for d in deals] == ["void", "adjust"]
    assert r.json()["totals"] == {"NS": 0, "EW": 162}


# -- replace and undo ------------------------------------------------------------------------
def test_replace_deal_2_recomputes_what_follows(client: TestClient) -> None:
    gid = five_deal_game(client)
    r = client.put(f"{API}/{gid}/deals/2", json={"taker": "EW", "points": {"EW": 100}})
    assert r.status_code == 200, r.text
    game = r.json()
    assert game["deals"][1]["outcome"] == "made"
    # no more litige: deal 3 no longer gets the reserve of 91
    assert game["deals"][2]["score"] == {"NS": 102, "EW": 60}
    assert game["totals"] == {"NS": 118 + 62 + 102 + 212 + 292, "EW": 64 + 100 + 60}


@pytest.mark.parametrize("n", ["0", "6", "99"])
def test_replace_a_deal_that_does_not_exist_is_404(client: TestClient, n: str) -> None:
    gid = five_deal_game(client)
    assert_error(client.put(f"{API}/{gid}/deals/{n}", json={"void": True}), 404, n)


def test_replace_with_a_non_number_is_422(client: TestClient) -> None:
    gid = five_deal_game(client)
    assert_error(client.put(f"{API}/{gid}/deals/two", json={"void": True}), 422, "n")


def test_replace_with_a_bad_deal_is_422_and_nothing_changes(client: TestClient) -> None:
    gid = five_deal_game(client)
    before = client.get(f"{API}/{gid}").json()
    r = client.put(f"{API}/{gid}/deals/2", json={"taker": "EW", "points": {"EW": 500}})
    assert_error(r, 422, "points.EW")
    assert client.get(f"{API}/{gid}").json() == before


def test_undo_the_last_deal(client: TestClient) -> None:
    gid = five_deal_game(client)
    r = client.delete(f"{API}/{gid}/deals/last")
    assert r.status_code == 200
    assert r.json()["totals"] == {"NS": 614, "EW": 124} and len(r.json()["deals"]) == 4


def test_undo_with_no_deal_is_422(client: TestClient) -> None:
    gid = new_game(client)["id"]
    assert_error(client.delete(f"{API}/{gid}/deals/last"), 422, "no deal")


def test_writes_on_unknown_game_are_404(client: TestClient) -> None:
    assert_error(add(client, "ghost", {"void": True}), 404, "ghost")
    assert_error(client.put(f"{API}/ghost/deals/1", json={"void": True}), 404)
    assert_error(client.delete(f"{API}/ghost/deals/last"), 404)


# -- versions --------------------------------------------------------------------------------
def test_etag_is_the_version(client: TestClient) -> None:
    game = new_game(client)
    r = add(client, game["id"], {"void": True})
    assert r.headers["ETag"] == '"2"' and r.json()["version"] == 2


@pytest.mark.parametrize("header", ['"1"', "1", 'W/"1"'])
def test_a_write_with_an_old_version_is_409(client: TestClient, header: str) -> None:
    gid = new_game(client)["id"]
    add(client, gid, {"void": True})
    r = add(client, gid, {"adjust": {"NS": 10}}, headers={"If-Match": header})
    assert_error(r, 409, "version")
    assert_error(client.delete(f"{API}/{gid}/deals/last", headers={"If-Match": header}), 409)
    assert_error(client.put(f"{API}/{gid}/deals/1", json={"void": True},
                            headers={"If-Match": header}), 409)
    assert client.get(f"{API}/{gid}").json()["version"] == 2


def test_a_write_with_the_current_version_passes(client: TestClient) -> None:
    gid = new_game(client)["id"]
    r = add(client, gid, {"void": True}, headers={"If-Match": '"1"'})
    assert r.status_code == 200
    r = add(client, gid, {"void": True}, headers={"If-Match": r.headers["ETag"]})
    assert r.json()["version"] == 3


def test_a_bad_if_match_is_422(client: TestClient) -> None:
    gid = new_game(client)["id"]
    assert_error(add(client, gid, {"void": True}, headers={"If-Match": "yesterday"}), 422,
                 "If-Match")


def test_concurrent_writers_without_if_match_all_land(client: TestClient) -> None:
    gid = new_game(client, target=100000)["id"]
    errors: list[str] = []

    def worker() -> None:
        for _ in range(10):
            r = add(client, gid, {"adjust": {"NS": 1}})
            if r.status_code != 200:
                errors.append(r.text)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    game = client.get(f"{API}/{gid}").json()
    assert game["totals"]["NS"] == 40 and game["version"] == 41


def test_two_apps_on_one_database_stay_consistent(db_url: str) -> None:
    tokens: dict[str, str] = {}
    with keyed_client(create_app(db_url), tokens) as a, \
            keyed_client(create_app(db_url), tokens) as b:
        gid = new_game(a)["id"]
        add(a, gid, {"adjust": {"NS": 10}})
        add(b, gid, {"adjust": {"NS": 5}})  # b had never seen the game
        r = add(a, gid, {"adjust": {"NS": 1}})  # a's copy is stale: it reloads
        assert r.json()["totals"]["NS"] == 16 and r.json()["version"] == 4
        assert b.get(f"{API}/{gid}").json()["totals"]["NS"] == 16


# -- settings and deletion -------------------------------------------------------------------
def test_patch_renames_teams_and_changes_target(client: TestClient) -> None:
    gid = five_deal_game(client)
    r = client.patch(f"{API}/{gid}", json={"teams": {"EW": "Les autres"}, "target": 900})
    assert r.status_code == 200
    game = r.json()
    assert game["teams"] == {"NS": "Nous", "EW": "Les autres"}
    assert game["winner"] == "NS" and game["won_after_deal"] == 5
    assert_error(client.patch(f"{API}/{gid}", json={"game": "coinche"}), 422, "game")
    assert_error(client.patch(f"{API}/{gid}", json={"teams": {"NS": ""}}), 422, "teams.NS")


def test_delete_a_game(client: TestClient) -> None:
    gid = new_game(client)["id"]
    assert client.delete(f"{API}/{gid}").status_code == 204
    assert_error(client.get(f"{API}/{gid}"), 404)
    assert_error(client.delete(f"{API}/{gid}"), 404)


def test_games_survive_a_new_app_on_the_same_file(db_url: str) -> None:
    tokens: dict[str, str] = {}
    with keyed_client(create_app(db_url), tokens) as c:
        gid = five_deal_game(c)
    with keyed_client(create_app(db_url), tokens) as c:
        assert c.get(f"{API}/{gid}").json()["totals"] == {"NS": 906, "EW": 124}


# -- generic errors and docs -----------------------------------------------------------------
def test_unknown_route_and_method_answer_our_error_shape(client: TestClient) -> None:
    assert_error(client.get("/api/nowhere"), 404, "path")
    assert_error(client.patch(f"{API}/x/deals/last"), 405, "method")


def test_docs_are_served_without_a_cdn(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert "/static/swagger/swagger-ui-bundle.js" in page.text
    assert "cdn" not in page.text.lower()
    assert client.get("/static/swagger/swagger-ui-bundle.js").status_code == 200
    spec = client.get("/openapi.json").json()
    assert "/api/counter/games/{game_id}/deals" in spec["paths"]


def test_htmx_is_vendored(client: TestClient) -> None:
    r = client.get("/static/htmx.min.js")
    assert r.status_code == 200 and "htmx" in r.text[:200]
