"""Where the concours meets its tables' phones (issues 33 and 37): a phone's result settles
into the concours when its game ends (pushed by the counter's write, never pulled at a read);
a read of the concours opens no counter game and costs the same small number of queries
however long its history; a closed *partie* refuses the phone; a deal undone before the
close takes the result out again; the organiser's correction is kept beside what the phone
counted; a litige on a *partie*'s last deal goes where ``reserve_at_end`` says; a draw
redone removes its games, and a concours opens a bounded number of them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from rebelote.match import Match
from rebelote.web.app import create_app
from rebelote.web.limits import Limits

API = "/api/concours"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}")) as c:
        yield c


def create(client: TestClient, teams: int = 8, **fields: Any) -> tuple[str, dict[str, str]]:
    body = {"name": "Concours du comité", "game": "belote", "parties": 3, "deals": 2,
            "teams": [f"Équipe {i}" for i in range(1, teams + 1)], **fields}
    r = client.post(API, json=body)
    assert r.status_code == 201, r.text
    return r.json()["id"], {"Authorization": f"Bearer {r.json()['token']}"}


def phones(client: TestClient, cid: str, auth: dict[str, str], k: int
           ) -> list[tuple[str, dict[str, str], list[int]]]:
    """Each table's game id, its phone's authorization and the table's two teams."""
    r = client.post(f"{API}/{cid}/parties/{k}/phones", headers=auth)
    assert r.status_code == 200, r.text
    out = []
    for t in r.json()["parties"][k - 1]["tables"]:
        game, key = t["counter"].removeprefix("/join/").split("?key=")
        out.append((game, {"Authorization": f"Bearer {key}"}, t["teams"]))
    return out


def deal(client: TestClient, game: str, auth: dict[str, str], taker: str, points: int
         ) -> Any:
    return client.post(f"/api/counter/games/{game}/deals",
                       json={"taker": taker, "points": {taker: points}}, headers=auth)


def play_partie(client: TestClient, cid: str, auth: dict[str, str], k: int
                ) -> list[tuple[str, dict[str, str], list[int]]]:
    tables = phones(client, cid, auth, k)
    for i, (game, key, _teams) in enumerate(tables):
        for points in (100 + i % 40, 90):
            assert deal(client, game, key, "NS", points).status_code == 200
    return tables


def table_scores(client: TestClient, cid: str, k: int, t: int) -> Any:
    return client.get(f"{API}/{cid}").json()["parties"][k - 1]["tables"][t - 1]["scores"]


def test_the_phones_results_are_in_before_any_read_and_the_next_partie_draws(
        client: TestClient) -> None:
    cid, auth = create(client)
    for k in (1, 2, 3):
        r = client.post(f"{API}/{cid}/parties", headers=auth)
        assert r.status_code == 200, r.text  # never "partie k-1 is not over" (no read between)
        play_partie(client, cid, auth, k)
    view = client.get(f"{API}/{cid}").json()
    assert view["over"] and all(t["source"] == "counter" for p in view["parties"]
                                for t in p["tables"])


def test_a_read_opens_no_game_and_its_cost_does_not_grow_with_the_history(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The attacker's read loop (issue 37, finding 1), scaled down: 60 teams, 6 parties of
    30 tables counted on phones; a read costs one small query and parses no counter game."""
    cid, auth = create(client, teams=60, parties=6, deals=1)
    engine = client.app.state.concours.store.engine  # type: ignore[attr-defined]
    queries: list[str] = []
    event.listen(engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_a: queries.append(statement))
    parsed = []
    real = Match.from_json.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(Match, "from_json",
                        classmethod(lambda cls, obj: parsed.append(1) or real(cls, obj)))
    costs = []
    for k in range(1, 7):
        assert client.post(f"{API}/{cid}/parties", headers=auth).status_code == 200
        for game, key, _teams in phones(client, cid, auth, k):
            assert deal(client, game, key, "NS", 100).status_code == 200
        client.get(f"{API}/{cid}")  # the first read after a change reads the row once
        queries.clear()
        parsed.clear()
        for _ in range(5):
            assert client.get(f"{API}/{cid}").status_code == 200
        costs.append((len(queries), len(parsed)))
    assert costs == [(5, 0)] * 6, costs  # one query a read, whatever the history
    # the room screen and its live part read no game either
    view = client.get(f"{API}/{cid}").json()
    parsed.clear()
    assert client.get(f"/salle/{view['view']}").status_code == 200
    assert client.get(f"/salle/{view['view']}/live").status_code == 200
    assert client.get(f"/salle/{view['view']}/live?version={view['version']}"
                      ).status_code == 204
    assert parsed == []


def test_a_closed_partie_refuses_the_phone_and_the_ranking_stays(client: TestClient) -> None:
    """Issue 37, finding 5: after the next partie is drawn, the phone's PUT and PATCH are
    refused (in the phone's language on its page), and the ranking does not move."""
    cid, auth = create(client)
    client.post(f"{API}/{cid}/parties", headers=auth)
    tables = play_partie(client, cid, auth, 1)
    assert client.post(f"{API}/{cid}/parties", headers=auth).status_code == 200
    before = client.get(f"{API}/{cid}").json()
    game, key, _teams = tables[0]
    r = client.put(f"/api/counter/games/{game}/deals/1",
                   json={"taker": "EW", "points": {"EW": 160}}, headers=key)
    assert r.status_code == 422 and "closed partie 1" in r.json()["error"], r.text
    r = client.patch(f"/api/counter/games/{game}", json={"target": 1}, headers=key)
    assert r.status_code == 422 and "target" in r.json()["error"], r.text
    r = client.delete(f"/api/counter/games/{game}/deals/last", headers=key)
    assert r.status_code == 422, r.text
    after = client.get(f"{API}/{cid}").json()
    assert after["ranking"] == before["ranking"] and after["parties"] == before["parties"]
    # the phone's page says so in its language
    client.post(f"/join/{game}", data={"key": key["Authorization"].split()[1]})
    page = client.post(f"/games/{game}/undo", headers={"HX-Request": "true"}).text
    assert "le concours a clos la partie 1" in page, page[:2000]
    # and says so as soon as it opens its game, before anything is tried
    page = client.get(f"/games/{game}").text
    assert "le concours a clos la partie 1" in page, page[:2000]


def test_an_undo_before_the_close_takes_the_result_out_and_back(client: TestClient) -> None:
    """Issue 33, item 8: the concours follows the phone until the partie is closed."""
    cid, auth = create(client)
    client.post(f"{API}/{cid}/parties", headers=auth)
    game, key, (a, b) = phones(client, cid, auth, 1)[0]
    deal(client, game, key, "NS", 100)
    deal(client, game, key, "NS", 90)
    assert table_scores(client, cid, 1, 1) == {str(a): 190, str(b): 134}
    assert client.delete(f"/api/counter/games/{game}/deals/last",
                         headers=key).status_code == 200
    assert table_scores(client, cid, 1, 1) is None
    assert deal(client, game, key, "EW", 120).status_code == 200
    assert table_scores(client, cid, 1, 1) == {str(a): 142, str(b): 182}


def test_the_organisers_correction_is_kept_beside_the_phones(client: TestClient) -> None:
    cid, auth = create(client)
    client.post(f"{API}/{cid}/parties", headers=auth)
    game, key, (a, b) = phones(client, cid, auth, 1)[0]
    deal(client, game, key, "NS", 100)
    deal(client, game, key, "NS", 90)
    r = client.put(f"{API}/{cid}/parties/1/tables/1", json={"scores": {str(a): 200,
                                                                      str(b): 124}},
                   headers=auth)
    table = r.json()["parties"][0]["tables"][0]
    assert table["source"] == "corrected" and table["phone"] == {str(a): 190, str(b): 134}
    # the phone no longer changes what the organiser decided
    r = client.delete(f"/api/counter/games/{game}/deals/last", headers=key)
    assert r.status_code == 422 and "organiser" in r.json()["error"]
    # the organiser forgets the correction: the phone's result comes back
    r = client.delete(f"{API}/{cid}/parties/1/tables/1", headers=auth)
    assert r.json()["parties"][0]["tables"][0]["scores"] == {str(a): 190, str(b): 134}
    page = client.get(f"/concours/{cid}", headers=auth).text
    assert "compté au téléphone" in page


@pytest.mark.parametrize(("reserve", "defence_gets"), [("defence", 81), ("void", 0)])
def test_a_litige_on_the_last_deal_goes_where_the_setting_says(
        client: TestClient, reserve: str, defence_gets: int) -> None:
    """Issue 33, item 7: the 81 points a last-deal litige holds are never lost silently."""
    cid, auth = create(client, reserve_at_end=reserve)
    client.post(f"{API}/{cid}/parties", headers=auth)
    game, key, (a, b) = phones(client, cid, auth, 1)[0]
    deal(client, game, key, "NS", 100)
    r = deal(client, game, key, "EW", 81)  # litige: the takers (EW) have 81, as the defence
    assert r.json()["held_over"] == 81
    assert table_scores(client, cid, 1, 1) == {str(a): 100 + 81 + defence_gets, str(b): 62}
    client.post(f"/join/{game}", data={"key": key["Authorization"].split()[1]})
    page = client.get(f"/games/{game}").text
    assert "prochaine donne" not in page
    assert ("l’équipe qui n’a pas pris" in page) == (reserve == "defence")
    assert ("ne vont à personne" in page) == (reserve == "void")


def test_a_draw_redone_removes_its_games_and_phones_are_bounded(tmp_path: Path) -> None:
    """Issue 37, finding 9, scaled down: phones then redraw, again and again."""
    app = create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}",
                     limits=Limits(concours_games=12))
    with TestClient(app) as client:
        cid, auth = create(client)  # 4 tables a partie
        client.post(f"{API}/{cid}/parties", headers=auth)
        games = client.app.state.counter.store  # type: ignore[attr-defined]
        old = phones(client, cid, auth, 1)
        assert games.count() == 4
        assert client.post(f"{API}/{cid}/parties/1/redraw", headers=auth).status_code == 200
        assert games.count() == 0
        assert all(client.get(f"/api/counter/games/{g}", headers=k).status_code == 404
                   for g, k, _t in old)
        phones(client, cid, auth, 1)
        client.post(f"{API}/{cid}/parties/1/swap", json={"teams": [1, 2]}, headers=auth)
        assert games.count() == 0
        phones(client, cid, auth, 1)
        assert client.delete(f"{API}/{cid}/parties/1", headers=auth).status_code == 204
        assert games.count() == 0
        client.post(f"{API}/{cid}/parties", headers=auth)
        r = client.post(f"{API}/{cid}/parties/1/phones", headers=auth)
        assert r.status_code == 422 and "at most 12 counter games" in r.json()["error"]
        assert games.count() == 0


def test_the_organisers_read_is_not_kept_by_a_cache(client: TestClient) -> None:
    cid, auth = create(client)
    assert client.get(f"{API}/{cid}", headers=auth).headers["cache-control"] == "no-store"
    assert client.post(f"{API}/{cid}/parties", headers=auth).status_code == 200
    r = client.post(f"{API}/{cid}/parties/1/phones", headers=auth)
    assert r.headers["cache-control"] == "no-store"


def test_the_migration_names_the_concours_of_games_opened_before(tmp_path: Path) -> None:
    """Migration 0007: a table's game opened before the phones pushed their results (its meta
    without the concours's id) settles into its concours after the upgrade."""
    import json

    from sqlalchemy import create_engine, text

    from rebelote.store.db import migrate

    url = f"sqlite:///{tmp_path / 'c.sqlite3'}"
    with TestClient(create_app(url)) as client:
        cid, auth = create(client)
        client.post(f"{API}/{cid}/parties", headers=auth)
        game, key, (a, b) = phones(client, cid, auth, 1)[0]
    engine = create_engine(url)
    with engine.begin() as conn:
        meta = json.loads(conn.execute(text("SELECT meta FROM counter_games WHERE id = :g"),
                                       {"g": game}).scalar())
        del meta["concours"]["id"], meta["concours"]["reserve_at_end"]
        conn.execute(text("UPDATE counter_games SET meta = :m WHERE id = :g"),
                     {"m": json.dumps(meta), "g": game})
        # the database as 0006 left it: no table of a later migration (0008's explanations,
        # 0009's replays)
        conn.execute(text("DROP TABLE table_explanations"))
        conn.execute(text("DROP TABLE table_replays"))
        conn.execute(text("UPDATE alembic_version SET version_num = '0006'"))
    migrate(engine)
    engine.dispose()
    with TestClient(create_app(url)) as client:
        deal(client, game, key, "NS", 100)
        deal(client, game, key, "NS", 90)
        assert table_scores(client, cid, 1, 1) == {str(a): 190, str(b): 134}


def test_the_phones_games_count_against_the_games_rate(tmp_path: Path) -> None:
    """Finding 9: phones then redraw made games past ``games_per_minute``; they now count."""
    app = create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}",
                     limits=Limits(games_per_minute=10, burst_minutes=1))
    with TestClient(app) as client:
        cid, auth = create(client)  # 4 tables a partie; the creation counts as a game
        client.post(f"{API}/{cid}/parties", headers=auth)
        phones(client, cid, auth, 1)  # 4
        client.post(f"{API}/{cid}/parties/1/redraw", headers=auth)
        phones(client, cid, auth, 1)  # 8
        client.post(f"{API}/{cid}/parties/1/redraw", headers=auth)
        r = client.post(f"{API}/{cid}/parties/1/phones", headers=auth)
        assert r.status_code == 429 and r.headers["retry-after"], r.text
        assert "too many counter games" in r.json()["error"]
        page = client.post(f"/concours/{cid}/parties/1/phones", headers=auth)
        assert page.status_code == 429 and "Trop de parties de compteur" in page.text
