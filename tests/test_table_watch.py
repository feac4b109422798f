"""Watching a table (issue 34, item 5): the watch view over whole deals carries no card the
public could not see one trick behind, never a hand; the teacher's view and its consents; the
links' secrets (403/404, never a 500); the socket caps."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rebelote.actions import PLAY
from rebelote.rules import Rules
from rebelote.table.model import Seat, Table
from rebelote.table.watching import watch_view
from rebelote.web.app import create_app
from rebelote.web.limits import Limits
from table_helpers import cards_in, cards_in_html, counting_entropy, watch_leaks
from test_web_postgres import PG_URL, pg_url

__all__ = ["pg_url"]


@pytest.mark.parametrize(("game", "delay"), [("coinche", 1), ("belote", 1), ("contree", 0),
                                             ("belote", -1), ("coinche", -1)])
def test_whole_games_show_a_watcher_no_card_before_its_time(game: str, delay: int) -> None:
    table = Table.new(Rules.preset("official", game), target=1500,
                      seats=[Seat.bot_seat("random")] * 4, entropy=counting_entropy(),
                      watch="w" * 32, watch_delay=delay)
    rng = random.Random(5)
    frames = 0
    while not table.is_over:
        assert not watch_leaks(watch_view(table), table, delay)
        frames += 1
        table = table.act(table.turn, str(rng.choice(table.deal.observation(table.turn).legal)),
                          entropy=counting_entropy(frames * 100))
    assert not watch_leaks(watch_view(table), table, delay)
    assert frames >= 40 and table.deal_number >= 2  # whole deals


def test_one_trick_behind_shows_the_trick_before_the_last() -> None:
    table = Table.new(Rules.preset("official", "coinche"), seats=[Seat.bot_seat("random")] * 4,
                      entropy=counting_entropy())
    rng = random.Random(3)
    while table.deal.phase != PLAY or len(table.deal.tricks) < 3:
        table = table.act(table.turn, str(rng.choice(table.deal.observation(table.turn).legal)))
    v = watch_view(table)
    assert len(v["tricks"]) == 2 and v["trick"] == [] and v["behind"] >= 4
    assert sum(s["cards"] for s in v["seats"].values()) == 32 - 8
    assert v["turn"] is None


def test_the_teachers_view_ends_with_a_no_a_leave_or_a_newcomer() -> None:
    table = Table.new(Rules.preset("official", "coinche"),
                      seats=[Seat.bot_seat("random"), Seat.bot_seat("random"),
                             Seat.human("tok-s", "random"), Seat.kept("random", "inv")],
                      entropy=counting_entropy(), teach="t" * 32)
    table = table.sit(3, "tok-w", invite="inv")
    assert not table.teaching and "hands" not in watch_view(table, teacher=True)
    table = table.with_consent(2, True)
    assert not table.teaching  # W has not said yes
    table = table.with_consent(3, True)
    assert table.teaching
    hands = watch_view(table, teacher=True)["hands"]
    assert sum(len(h) for h in hands.values()) == 32
    assert "hands" not in watch_view(table)  # the watch link never shows them
    assert not table.with_consent(3, False).teaching  # a no
    left = table.hand_back(3)
    assert not left.teaching and not any(s.consent for s in left.seats)  # a leave
    newcomer = table.sit(0, "tok-n")
    assert not newcomer.teaching and not any(s.consent for s in newcomer.seats)
    away = table.with_seat(3, Seat("human", "random", "", table.seats[3].token_hash, True))
    assert not away.teaching
    assert Table.from_json(table.to_json()).teaching  # stored with the table


# -- over HTTP and the sockets -----------------------------------------------------------------
@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}",
                     limits=Limits(sockets_per_table=3, watchers_per_table=5))
    with TestClient(app) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": "coinche", "bots": "random", **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def key_of(link: str) -> str:
    return link.split("key=", 1)[1]


def test_a_watcher_follows_a_whole_game_through_its_socket(client: TestClient) -> None:
    t = new_table(client, target=301)
    tid, token = t["id"], t["token"]
    r = client.post(f"/api/tables/{tid}/watch", headers=auth(token))
    assert r.status_code == 200 and r.json()["watchers"] == 0
    key = key_of(r.json()["link"])
    rng = random.Random(11)
    view = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
    frames = 0
    with client.websocket_connect(f"/api/tables/{tid}/watch/ws") as ws:
        ws.send_json({"token": key})
        first = ws.receive_json()
        assert first["watch"] is True and "hands" not in first
        assert client.get(f"/api/tables/{tid}", headers=auth(token)).json()["watch"][
            "watchers"] == 1  # the players see how many watch
        while not view["over"]:
            legal = [a for a in view["legal"] if a != "no-declaration"]
            action = "pass" if "pass" in legal and rng.random() < 0.6 else rng.choice(legal)
            view = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                               json={"action": action}).json()
            frame = ws.receive_json()
            while frame["version"] < view["version"]:
                frame = ws.receive_json()
            # S's own hand and the cards played since one trick ago are in no frame
            hidden = set(view["hand"])
            if view["tricks"]:  # the last trick closed is not shown yet
                hidden |= {c for _, c in view["tricks"][-1]["cards"]}
            shown = {c for item in view["shown"] for c in item["cards"]}  # public since trick 2
            if not view["over"] and view["phase"] == "play":
                bad = cards_in({k: v for k, v in frame.items() if k != "last_result"}) \
                    & (hidden | {c for _, c in view["trick"]}) - shown
                assert not bad, (bad, frame["trick"], frame["tricks"], frame["shown"])
            assert "hands" not in frame and "hand" not in frame
            frames += 1
            html = client.get(f"/w/{tid}?key={key}").text
            if not view["over"] and view["phase"] == "play":
                assert not cards_in_html(html.split('id="result"')[0]) & set(view["hand"])
    assert frames >= 8


def test_a_no_mid_deal_takes_the_hands_out_of_the_next_frame(client: TestClient) -> None:
    t = new_table(client, pace=5000)
    tid, token = t["id"], t["token"]
    key = key_of(client.post(f"/api/tables/{tid}/teach", headers=auth(token)).json()[
        "teacher_link"])
    assert client.post(f"/api/tables/{tid}/consent", headers=auth(token),
                       json={"yes": True}).json()["teaching"] is True
    with client.websocket_connect(f"/api/tables/{tid}/watch/ws?key={key}") as ws:
        first = ws.receive_json()
        assert first["teacher"] and sum(len(h) for h in first["hands"].values()) == 32
        r = client.post(f"/api/tables/{tid}/consent", headers=auth(token), json={"yes": False})
        assert r.status_code == 200 and r.json()["teaching"] is False
        nxt = ws.receive_json()
        assert "hands" not in nxt and nxt["teaching"] is False
    bad = client.post(f"/api/tables/{tid}/consent", headers=auth(token), json={"yes": "oui"})
    assert bad.status_code == 422 and "yes" in bad.json()["error"]


def test_bad_and_revoked_watch_secrets_are_refused(client: TestClient) -> None:
    t = new_table(client)
    tid, token = t["id"], t["token"]
    assert client.post(f"/api/tables/{tid}/watch").status_code == 403  # not a seat
    key = key_of(client.post(f"/api/tables/{tid}/watch", headers=auth(token)).json()["link"])
    assert client.get(f"/api/tables/{tid}/watch?key={key}").status_code == 200
    assert client.get(f"/w/{tid}?key={key}").status_code == 200
    for url, status in [(f"/api/tables/{tid}/watch?key=nope", 403),
                        (f"/api/tables/{tid}/watch", 403),
                        (f"/api/tables/nope/watch?key={key}", 404),
                        (f"/w/{tid}?key=nope", 403), (f"/w/nope?key={key}", 404)]:
        r = client.get(url)
        assert r.status_code == status, (url, r.text)
    assert "revoked" in client.get(f"/api/tables/{tid}/watch?key=x").json()["error"]
    page = client.get(f"/w/{tid}?key=nope", headers={"Accept": "text/html"})
    assert page.status_code == 403 and "demandez-en un nouveau à un joueur" in page.text
    page = client.get(f"/w/nope?key={key}", headers={"Accept": "text/html"})
    assert page.status_code == 404 and "Cette table n’existe pas" in page.text
    with client.websocket_connect(f"/api/tables/{tid}/watch/ws?key={key}") as ws:
        ws.receive_json()
        assert client.delete(f"/api/tables/{tid}/watch", headers=auth(token)).status_code == 200
        assert "revoked" in ws.receive_json()["error"]
    assert client.get(f"/api/tables/{tid}/watch?key={key}").status_code == 403
    with client.websocket_connect(f"/api/tables/{tid}/watch/ws") as ws:
        ws.send_json({"token": key})
        assert "revoked" in ws.receive_json()["error"]
    r = client.post(f"/api/tables/{tid}/watch", headers=auth(token), json={"delay": 7})
    assert r.status_code == 422 and "delay" in r.json()["error"]
    r = client.post(f"/api/tables/{tid}/watch", headers=auth(token), json={"delay": "deal"})
    assert r.status_code == 200 and r.json()["delay"] == "deal"


def test_watchers_count_against_the_tables_socket_caps(client: TestClient) -> None:
    t = new_table(client)
    tid, token = t["id"], t["token"]
    key = key_of(client.post(f"/api/tables/{tid}/watch", headers=auth(token)).json()["link"])
    with client.websocket_connect(f"/api/tables/{tid}/ws") as player:
        player.send_json({"token": token})
        player.receive_json()
        with client.websocket_connect(f"/api/tables/{tid}/watch/ws?key={key}") as w1, \
                client.websocket_connect(f"/api/tables/{tid}/watch/ws?key={key}") as w2:
            w1.receive_json()
            w2.receive_json()
            # sockets_per_table=3 from this client: the player's and two watchers'
            with pytest.raises(WebSocketDisconnect) as refused, \
                    client.websocket_connect(f"/api/tables/{tid}/watch/ws?key={key}") as w3:
                w3.receive_json()
            assert refused.value.code == 4429
            pushed = player.receive_json()
            while pushed["watch"]["watchers"] < 2:
                pushed = player.receive_json()
            assert pushed["watch"]["watchers"] == 2


def test_the_host_sets_the_delay_from_the_table_page_and_no_one_else(client: TestClient) -> None:
    t = new_table(client, friends=["N"])
    tid, token = t["id"], t["token"]
    r = client.post(f"/tables/{tid}/watch", headers=auth(token),
                    data={"do": "delay", "delay": "deal"}, follow_redirects=False)
    assert r.status_code == 303
    assert client.get(f"/api/tables/{tid}", headers=auth(token)).json()["watch"]["delay"] == "deal"
    friend = client.post("/api/tables/join", json={"code": t["code"],
                                                   "invite": t["invites"]["N"]}).json()
    r = client.post(f"/api/tables/{tid}/watch", headers=auth(friend["token"]), json={"delay": 0})
    assert r.status_code == 403 and "creator" in r.json()["error"]
    r = client.post(f"/api/tables/{tid}/watch", headers=auth(friend["token"]))
    assert r.status_code == 200 and r.json()["link"]  # any seat makes the link
    r = client.post(f"/tables/{tid}/watch", headers=auth(token), data={"do": "nothing"},
                    follow_redirects=False)
    assert r.status_code == 422 and "do" in r.text


@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set")
def test_watching_on_postgresql(pg_url: str) -> None:
    # the links, the consents and the watchers' sockets through the PostgreSQL store (the
    # table's snapshot keeps them; a socket wakes on the NOTIFY of each write)
    with TestClient(create_app(pg_url)) as c:
        t = new_table(c, pace=5000)
        tid, token = t["id"], t["token"]
        key = key_of(c.post(f"/api/tables/{tid}/teach", headers=auth(token)).json()[
            "teacher_link"])
        c.post(f"/api/tables/{tid}/consent", headers=auth(token), json={"yes": True})
        with c.websocket_connect(f"/api/tables/{tid}/watch/ws?key={key}") as ws:
            assert len(ws.receive_json()["hands"]) == 4
            c.post(f"/api/tables/{tid}/consent", headers=auth(token), json={"yes": False})
            assert "hands" not in ws.receive_json()
        assert c.get(f"/api/tables/{tid}/watch?key={key}").json()["teaching"] is False


def test_a_page_of_another_site_opens_no_watchers_socket(client: TestClient) -> None:
    t = new_table(client)
    tid, token = t["id"], t["token"]
    key = key_of(client.post(f"/api/tables/{tid}/watch", headers=auth(token)).json()["link"])
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
            f"/api/tables/{tid}/watch/ws?key={key}",
            headers={"origin": "http://elsewhere.example"}) as ws:
        ws.receive_json()
    assert refused.value.code == 4403
    # and a form of another site changes no link
    r = client.post(f"/tables/{tid}/watch", headers={**auth(token),
                                                      "origin": "http://elsewhere.example"},
                    data={"do": "no-watch"}, follow_redirects=False)
    assert r.status_code == 403
    assert client.get(f"/api/tables/{tid}/watch?key={key}").status_code == 200


@pytest.mark.parametrize(("path", "other_way", "no_secret"), [
    ("ws", "the seat's cookie", "Authorization: this secret is not one of this table's seats"),
    ("watch/ws", "open the link with its ?key=", "key: this watch link is not this table's"),
])
def test_both_sockets_read_their_first_message_alike(client: TestClient,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     path: str, other_way: str,
                                                     no_secret: str) -> None:
    """The players' and the watchers' sockets read their secret the same way (one helper,
    :func:`rebelote.web.table.sockets.first_token`), each naming its own other way: an
    unknown table, a first message that holds no secret, and none in time are each refused
    with a sentence and the close code 4403."""
    import rebelote.web.table.sockets as sockets

    monkeypatch.setattr(sockets, "FIRST_WAIT", 0.3)
    tid = new_table(client)["id"]
    with client.websocket_connect(f"/api/tables/0123456789abcdef/{path}") as ws:
        ws.send_json({"token": "a secret"})
        assert ws.receive_json() == {"error": "id: there is no table '0123456789abcdef'"}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(f"/api/tables/{tid}/{path}") as ws:
        ws.send_text("not a secret")
        assert ws.receive_json()["error"].startswith(no_secret)
    with client.websocket_connect(f"/api/tables/{tid}/{path}") as ws:  # nothing sent
        assert ws.receive_json() == {"error": f"token: send {{\"token\": ...}} first, or "
                                              f"{other_way}"}
