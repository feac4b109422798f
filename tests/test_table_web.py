"""The play table over HTTP and WebSocket: whole games through the API, every answer scanned
for cards its viewer may not see, refused actions (403, 409, 422) that change nothing, rooms,
records verified, slow and crashing bots, the turn clock, resume after a restart, the pages."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape
from starlette.websockets import WebSocketDisconnect

from rebelote.bots import _REGISTRY, DEFAULT_LEVEL, PLAYER_LEVELS, register_bot
from rebelote.bots.random_bot import RandomBot
from rebelote.table import verify_record
from rebelote.web.app import create_app
from rebelote.web.limits import Limits
from table_helpers import cards_in_html, leaks, public_cards


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}")
    with TestClient(app) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": "coinche", "bots": "random", **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


class Scanner:
    """Keeps every card a seat has held in the deal in play, and checks each view."""

    def __init__(self) -> None:
        self.deal = 0
        self.held: set[str] = set()
        self.views = 0

    def check(self, view: dict[str, Any]) -> None:
        if view["deal"] != self.deal:
            self.deal, self.held = view["deal"], set()
        self.held |= set(view["hand"])
        bad = leaks(view, self.held)
        assert not bad, f"the view shows {bad} to {view['seat']}"
        if view["last_result"]:  # a finished deal's record: public once over
            assert view["last_result"]["deal"] < view["deal"] or view["over"]
        self.views += 1


def choose(view: dict[str, Any], rng: random.Random) -> str:
    legal = [a for a in view["legal"] if a != "no-declaration"]
    if view["phase"] == "auction" and "pass" in legal and rng.random() < 0.6:
        return "pass"
    return rng.choice(legal)


@pytest.mark.parametrize("game", ["belote", "coinche", "contree"])
def test_whole_games_through_the_api_and_the_socket_show_no_hidden_card(
        client: TestClient, game: str) -> None:
    t = new_table(client, game=game, target=501)
    token, tid = t["token"], t["id"]
    scan, rng = Scanner(), random.Random(7)
    scan.check(t)
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"token": token})
        first = ws.receive_json()
        scan.check(first)
        view = t
        actions = 0
        while not view["over"]:
            r = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                            json={"action": choose(view, rng)})
            assert r.status_code == 200, r.text
            actions += 1
            view = r.json()
            scan.check(view)
            pushed = ws.receive_json()  # the socket tells every change
            while pushed["version"] < view["version"]:
                scan.check(pushed)
                pushed = ws.receive_json()
            scan.check(pushed)
            assert pushed == view
            html = client.get(f"/tables/{tid}/fragment", headers=auth(token)).text
            shown = cards_in_html(html)
            assert shown <= scan.held | public_cards(view), shown - scan.held
    # every answer and every push scanned; a game is a deal at least (S plays 8 cards)
    assert view["winner"] in ("NS", "EW") and actions >= 8 and scan.views >= 2 * actions + 2
    for n in range(1, view["deal"] + 1):
        rec = client.get(f"/api/tables/{tid}/deals/{n}.json", headers=auth(token)).json()
        assert verify_record(rec)["verified"] is True


def test_refusals_change_nothing(client: TestClient) -> None:
    t = new_table(client, pace=5000)  # the bots wait 5 s: N speaks first, not S
    tid, token = t["id"], t["token"]
    assert t["turn"] == "N" and t["legal"] == []
    before = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
    cases = [
        ({"action": "pass"}, auth(token), 409, "it is N's turn, not S's"),
        ({"action": "pass"}, auth("not-the-secret"), 403, "Authorization"),
        ({"action": "pass"}, {}, 403, "Authorization"),
        ({"action": 12}, auth(token), 422, "action"),
        ({"nothing": 1}, auth(token), 422, "action"),
    ]
    for body, headers, status, words in cases:
        r = client.post(f"/api/tables/{tid}/actions", headers=headers, json=body)
        assert r.status_code == status, (body, r.text)
        assert words in r.json()["error"]
    r = client.post(f"/api/tables/{tid}/actions", headers={**auth(token), "Content-Type":
                                                            "application/json"}, content=b"{")
    assert r.status_code == 422 and "body" in r.json()["error"]
    assert client.get("/api/tables/nope", headers=auth(token)).status_code == 404
    assert client.get(f"/api/tables/{tid}").status_code == 403
    after = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
    assert after == before


def test_illegal_repeated_and_stale_actions_answer_409(client: TestClient) -> None:
    t = new_table(client)
    tid, token = t["id"], t["token"]
    view = t
    while view["phase"] != "play" or view["turn"] != "S":  # bid until S plays a card
        action = "80 hearts" if "80 hearts" in view["legal"] else view["legal"][0]
        if view["phase"] == "play":
            action = view["legal"][0]
        view = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                           json={"action": action}).json()
        if view["over"]:
            pytest.skip("the game ended before S played")
    hand = view["hand"]
    illegal = [c for c in hand if c not in view["legal"]]
    not_held = next(c for c in ("7S", "8S", "7H", "8H", "7D") if c not in hand)
    r = client.post(f"/api/tables/{tid}/actions", headers=auth(token), json={"action": not_held})
    assert r.status_code == 409
    if illegal:
        r = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                        json={"action": illegal[0]})
        assert r.status_code == 409 and "error" in r.json()
    stale = {**auth(token), "If-Match": f'"{view["version"] - 1}"'}
    r = client.post(f"/api/tables/{tid}/actions", headers=stale, json={"action": view["legal"][0]})
    assert r.status_code == 409 and "changed since version" in r.json()["error"]
    card = view["legal"][0]
    ok = client.post(f"/api/tables/{tid}/actions", headers=auth(token), json={"action": card})
    assert ok.status_code == 200
    again = client.post(f"/api/tables/{tid}/actions", headers=auth(token), json={"action": card})
    assert again.status_code == 409  # the same card twice: no longer in the hand, or not S's turn


def test_a_room_two_friends_and_two_bots(client: TestClient) -> None:
    t = new_table(client, friends=["N"], name="Ana", target=5000)  # not over after a deal
    tid, code = t["id"], t["code"]
    assert t["free_seats"][0] == "N"
    r = client.post("/api/tables/join", json={"code": code.lower(), "name": "Bo",
                                              "invite": t["invites"]["N"]})
    assert r.status_code == 201, r.text
    friend = r.json()
    assert friend["seat"] == "N" and friend["seats"]["S"]["name"] == "Bo"
    assert friend["seats"]["N"]["name"] == "Ana"  # the host, seen from across the table
    tokens = {"S": t["token"], "N": friend["token"]}
    rng = random.Random(3)
    scans = {"S": Scanner(), "N": Scanner()}
    deal = 1
    for _ in range(400):
        views = {s: client.get(f"/api/tables/{tid}", headers=auth(tok)).json()
                 for s, tok in tokens.items()}
        for s, v in views.items():
            scans[s].check(v)
        if views["S"]["deal"] > deal or views["S"]["over"]:
            break
        mover = next(s for s, v in views.items() if v["legal"])
        r = client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[mover]),
                        json={"action": choose(views[mover], rng)})
        assert r.status_code == 200, r.text
    assert views["S"]["deal"] > deal or views["S"]["over"]
    assert client.post("/api/tables/join", json={"code": code, "seat": "N"}).status_code == 409
    for _ in range(2):
        assert client.post("/api/tables/join", json={"code": code}).status_code == 201
    r = client.post("/api/tables/join", json={"code": code})
    assert r.status_code == 409 and "taken" in r.json()["error"]
    assert client.post(f"/api/tables/{tid}/release", headers=auth(tokens["N"])).status_code == 200
    assert client.get(f"/api/tables/{tid}", headers=auth(tokens["N"])).status_code == 403
    view = client.get(f"/api/tables/{tid}", headers=auth(tokens["S"])).json()
    assert view["seats"]["N"]["kind"] == "bot"
    assert client.post("/api/tables/join", json={"code": "ZZZZZZ"}).status_code == 404


def test_a_table_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    with TestClient(create_app(url)) as c:
        t = new_table(c)
        view = t
        for _ in range(6):
            view = c.post(f"/api/tables/{t['id']}/actions", headers=auth(t["token"]),
                          json={"action": view["legal"][0]}).json()
    with TestClient(create_app(url)) as c:
        again = c.get(f"/api/tables/{t['id']}", headers=auth(t["token"])).json()
    assert again == view


def test_the_api_checks_each_deal_s_shuffle_against_the_commitment_shown(tmp_path: Path) -> None:
    """GET .../deals/{n}/verify recomputes the commitment from the revealed seed and salt and
    deals the seed again: it is the one the player was shown before the deal. A salt changed
    in the database afterwards (a server revealing another secret than the one it committed
    to) gives another commitment than the one shown: the player who kept it sees the lie. (A
    changed seed does not even replay: the table's actions no longer fit its cards.)"""
    import json as jsonlib

    import sqlalchemy

    url = f"sqlite:///{tmp_path / 'tables.db'}"
    with TestClient(create_app(url)) as c:
        t = new_table(c)
        shown = t["commitment"]  # before the first card
        view, rng = t, random.Random(3)
        while view["deal"] == 1 and not view["over"]:  # a coinched capot can end the game
            view = c.post(f"/api/tables/{t['id']}/actions", headers=auth(t["token"]),
                          json={"action": choose(view, rng)}).json()
        r = c.get(f"/api/tables/{t['id']}/deals/1/verify", headers=auth(t["token"]))
        assert r.status_code == 200, r.text
        assert r.json()["verified"] is True and r.json()["commitment"] == shown
        assert c.get(f"/api/tables/{t['id']}/deals/1/verify").status_code == 403
        assert c.get(f"/api/tables/{t['id']}/deals/2/verify",
                     headers=auth(t["token"])).status_code == 404
    engine = sqlalchemy.create_engine(url)
    with engine.begin() as conn:
        data = jsonlib.loads(conn.execute(sqlalchemy.text(
            "SELECT data FROM play_tables WHERE id = :i"), {"i": t["id"]}).scalar_one())
        data["deals"][0]["salt"] = "0" * 32
        conn.execute(sqlalchemy.text("UPDATE play_tables SET data = :d WHERE id = :i"),
                     {"d": jsonlib.dumps(data), "i": t["id"]})
    engine.dispose()
    with TestClient(create_app(url)) as c:
        r = c.get(f"/api/tables/{t['id']}/deals/1/verify", headers=auth(t["token"]))
    assert r.status_code == 200 and r.json()["commitment"] != shown


def test_slow_and_crashing_bots_never_block_a_table(client: TestClient) -> None:
    class Crash:
        name = "crash"

        def act(self, observation: object, rng: random.Random) -> object:
            raise RuntimeError("boom")

    class Slow(RandomBot):
        name = "slow"

        def act(self, observation: Any, rng: random.Random) -> Any:
            time.sleep(0.5)
            return super().act(observation, rng)

    register_bot("crash", Crash)  # type: ignore[arg-type]
    register_bot("slow", Slow)
    try:
        client.app.state.tables.bot_timeout = 0.1  # type: ignore[attr-defined]
        t = new_table(client, bots={"N": "crash", "E": "slow", "W": "random"})
        view = t
        start = time.monotonic()
        for _ in range(12):
            if view["over"]:
                break
            assert view["turn"] == "S"
            view = client.post(f"/api/tables/{t['id']}/actions", headers=auth(t["token"]),
                               json={"action": view["legal"][0]}).json()
        assert time.monotonic() - start < 12 * 3 * 0.5
    finally:
        _REGISTRY.pop("crash", None)
        _REGISTRY.pop("slow", None)


def test_an_action_and_the_quick_bots_answers_are_one_write(client: TestClient) -> None:
    """At pace 0 the quick bots (no search) answer on the event loop, in the same write as the
    player's action: the version goes up by one per action, and the socket pushes that one
    view, the same text as the action's answer."""
    t = new_table(client, bots="heuristic", target=501)
    tid, token = t["id"], t["token"]
    rng = random.Random(3)
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"token": token})
        assert ws.receive_json()["version"] == t["version"]
        view = t
        for _ in range(30):
            if view["over"]:
                break
            r = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                            json={"action": choose(view, rng)})
            assert r.status_code == 200, r.text
            assert r.json()["version"] == view["version"] + 1
            assert r.headers["etag"] == f'"{view["version"] + 1}"'
            view = r.json()
            assert view["turn"] == "S" or view["over"]
            assert ws.receive_text() == r.text  # encoded once, pushed as answered


def test_a_quick_bot_that_fails_is_replaced_by_the_random_bot(client: TestClient) -> None:
    class Broken:
        name = "heuristic"

        def act(self, observation: object, rng: random.Random) -> object:
            raise RuntimeError("boom")

    service = client.app.state.tables  # type: ignore[attr-defined]
    service.bots._bots["heuristic"] = Broken()
    t = new_table(client, bots="heuristic")
    view, rng = t, random.Random(5)
    assert view["turn"] == "S"
    for _ in range(10):
        if view["over"]:
            break
        r = client.post(f"/api/tables/{t['id']}/actions", headers=auth(t["token"]),
                        json={"action": choose(view, rng)})
        assert r.status_code == 200, r.text
        view = r.json()
        assert view["turn"] == "S" or view["over"]


def test_the_start_form_offers_the_levels_for_people_only(client: TestClient) -> None:
    """The start form offers the four levels (never a registry spec), named and explained in
    the page's language, each explanation tied to its radio; the default level is checked,
    and the level chosen plays the seats."""
    for lang in ("fr", "en"):
        form = client.get("/tables/new", params={"lang": lang}).text
        assert re.findall(r'name="bots" value="([^"]+)"', form) == [
            lv.key for lv in PLAYER_LEVELS]
        for lv in PLAYER_LEVELS:
            radio = re.search(rf'<input type="radio" name="bots" value="{lv.key}"[^>]*>', form)
            assert radio and f'aria-describedby="level-{lv.key}-about"' in radio.group(0)
            assert ("checked" in radio.group(0)) == (lv.key == DEFAULT_LEVEL)
            assert f'<label for="level-{lv.key}">{lv.name(lang)}</label>' in form
            assert f'<small id="level-{lv.key}-about">{escape(lv.explain(lang))}</small>' in form
        assert not re.search(r"pimc|heuristi|<option value=\"random", form)
    assert "Calcule 48 donnes par carte" in client.get("/tables/new").text  # French first
    r = client.post("/tables", data={"game": "coinche", "bots": "club", "pace": "5000"},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    tid = r.headers["location"].rsplit("/", 1)[1]
    seats = client.get(f"/api/tables/{tid}").json()["seats"]
    assert [seats[s]["bot"] for s in "NEW"] == ["net"] * 3  # the learned player
    assert "(robot club)" in client.get(f"/tables/{tid}/fragment").text


def test_a_table_made_before_a_level_changed_spec_keeps_its_level_name() -> None:
    # the level's bots get stronger (club was pimc:fast before the tuned bidder, and
    # pimc:fast+tuned before the learned player): a table stored then plays its stored spec
    # and is still named by its level
    from rebelote.bots import level_of_spec, player_level
    from rebelote.web.table.words import bot_short

    assert level_of_spec("pimc:fast") is level_of_spec("pimc:fast+tuned") \
        is level_of_spec("net") is player_level("club")
    assert bot_short("pimc:fast+tuned", "fr") == bot_short("net", "fr") == "robot club"
    assert bot_short("pimc", "fr") == bot_short("pimc:default+tuned", "fr") == "robot fort"
    assert bot_short("pimc:strong", "en") == "expert bot"
    # expert bid with the tuned bidder before the learned one
    assert level_of_spec("pimc:expert+tuned") is level_of_spec("pimc:expert+learned") \
        is player_level("expert")


def test_bots_are_chosen_by_the_registry_s_spec_with_their_level(client: TestClient) -> None:
    """Beside the levels for people, the API takes a registry spec with a named level per
    seat (not offered by the form), and the seat plays with the bot of that level."""
    made: list[str | None] = []

    class Levelled(RandomBot):
        name = "levelled"

        def __init__(self, level: str | None = None) -> None:
            if level not in (None, "fast", "deep"):
                raise ValueError(f"no level {level!r}")
            super().__init__()
            made.append(level)

    register_bot("levelled", Levelled, levels=("fast", "deep"))  # type: ignore[arg-type]
    try:
        t = new_table(client, bots={"N": "Levelled:Deep", "E": "levelled:fast",
                                    "W": "random"})
        assert t["seats"]["N"]["bot"] == "levelled:deep"
        assert t["seats"]["E"]["bot"] == "levelled:fast"
        view = t
        while view["deal"] == 1 and not view["over"]:
            view = client.post(f"/api/tables/{t['id']}/actions", headers=auth(t["token"]),
                               json={"action": view["legal"][0]}).json()
        assert {"deep", "fast"} <= set(made)
        bad = client.post("/api/tables", json={"game": "coinche",
                                               "bots": {"N": "levelled:huge"}})
        assert bad.status_code == 422 and bad.json()["error"].startswith("bots.N: ")
        assert "levelled:fast" in bad.json()["error"]
    finally:
        _REGISTRY.pop("levelled", None)


def test_the_clock_hands_a_silent_seat_to_its_bot(client: TestClient) -> None:
    t = new_table(client, clock=1)
    tid, token = t["id"], t["token"]
    assert t["turn"] == "S"
    deadline = time.monotonic() + 8
    view = t
    while time.monotonic() < deadline:
        view = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
        if view["seats"]["S"]["away"]:
            break
        time.sleep(0.2)
    assert view["seats"]["S"]["away"] is True
    version = view["version"]
    while view["version"] == version and time.monotonic() < deadline + 5:
        time.sleep(0.1)
        view = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
    assert view["version"] > version  # the bot spoke for S
    client.cookies.set("rebelote_keys", f"{tid}.{token}")
    assert 'id="back"' in client.get(f"/tables/{tid}/fragment").text
    back = client.post(f"/api/tables/{tid}/back", headers=auth(token)).json()
    assert back["seats"]["S"]["away"] is False


def test_paced_bots_play_in_the_background_and_the_socket_follows(client: TestClient) -> None:
    t = new_table(client, pace=30)  # N speaks first: the bots play N, E, W at 30 ms
    seen = []
    with client.websocket_connect(f"/api/tables/{t['id']}/ws",
                                  headers=auth(t["token"])) as ws:
        view = ws.receive_json()
        while view["turn"] != "S":
            view = ws.receive_json()
            seen.append(view["version"])
    assert seen == sorted(seen) and view["legal"]


def test_websocket_refuses_a_wrong_secret_and_another_site(client: TestClient) -> None:
    t = new_table(client)
    with client.websocket_connect(f"/api/tables/{t['id']}/ws") as ws:
        ws.send_json({"token": "wrong"})
        assert "Authorization" in ws.receive_json()["error"]
    client.cookies.set("rebelote_keys", f"{t['id']}.{t['token']}")
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            f"/api/tables/{t['id']}/ws", headers={"Origin": "https://evil.example"}) as ws:
        ws.receive_json()
    with client.websocket_connect(f"/api/tables/{t['id']}/ws",
                                  headers={"Origin": "http://testserver"}) as ws:
        assert ws.receive_json()["seat"] == "S"


def test_bad_tables_are_refused_naming_the_field(client: TestClient) -> None:
    for body, field in [({"game": "tarot"}, "game"), ({"game": "belote", "bots": "genius"},
                                                      "bots"),
                        ({"game": "coinche", "target": 0}, "target"),
                        ({"game": "coinche", "pace": -1}, "pace"),
                        ({"game": "coinche", "friends": ["S"]}, "friends"),
                        ({"game": "coinche", "colour": "red"}, "colour"),
                        ({"game": "coinche", "options": {"rounding": "up"}}, "options"),
                        ({"game": "contree", "rules": "house"}, "rules")]:
        r = client.post("/api/tables", json=body)
        assert r.status_code == 422 and r.json()["error"].startswith(field), (body, r.text)


def test_pages_start_play_and_join(client: TestClient) -> None:
    assert "play-link" in client.get("/").text
    page = client.get("/tables/new")
    assert page.status_code == 200 and 'name="game"' in page.text
    r = client.post("/tables", data={"game": "belote", "rules": "official", "target": "501",
                                     "bots": "random", "pace": "300", "clock": "0",
                                     "friends": "N"}, follow_redirects=False)
    assert r.status_code == 303
    tid = r.headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/tables/{tid}")
    assert page.status_code == 200 and 'id="join-code"' in page.text
    qr = client.get(f"/tables/{tid}/qr.svg")
    assert qr.status_code == 200 and qr.text.lstrip().startswith("<svg")
    code = page.text.split('id="join-code">')[1].split("<")[0]
    other = TestClient(client.app)
    assert other.get(f"/tables/{tid}").status_code == 403
    assert other.get(f"/tables/{tid}/fragment").status_code == 403
    assert code not in other.get(f"/tables/{tid}").text  # the id does not give the code
    join = other.get(f"/t/{code}")  # the code alone: no kept seat, W from the next deal
    assert join.status_code == 200 and 'id="join"' in join.text
    assert 'value="N"' not in join.text and 'value="W"' in join.text
    r = other.post(f"/t/{code}", data={"name": "Bo", "seat": "N"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/t/{code}"  # refused
    link = page.text.split('id="invite-link">')[1].split("<")[0]
    assert "invite=" in link
    join = other.get(link.replace("http://testserver", ""))
    assert join.status_code == 200 and 'name="invite"' in join.text and 'value="N"' in join.text
    invite = join.text.split('name="invite" value="')[1].split('"')[0]
    r = other.post(f"/t/{code}", data={"name": "Bo", "seat": "N", "invite": invite},
                   follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/tables/{tid}"
    assert other.get(f"/tables/{tid}").status_code == 200
    version = client.get(f"/api/tables/{tid}").json()["version"]
    assert client.get(f"/tables/{tid}/fragment?since={version}").status_code == 204
    english = client.get(f"/tables/{tid}?lang=en")
    assert "Invite friends" in english.text


def start_form_defaults(html: str) -> dict[str, str]:
    """What a browser sends for the start form as it first shows (its checked radios, each
    select's selected option or else its first, the text fields' values): boxes unticked."""
    from html.parser import HTMLParser

    class Form(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.data: dict[str, str] = {}
            self.select: str | None = None
            self.chosen = False

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            a = dict(attrs)
            name = a.get("name") or ""
            sent = a.get("type") in (None, "text") or (a.get("type") == "radio" and "checked" in a)
            if tag == "input" and sent:
                self.data[name] = a.get("value") or ""
            elif tag == "select":
                self.select, self.chosen = name, False
            elif tag == "option" and self.select is not None and not self.chosen and (
                    self.select not in self.data or "selected" in a):
                self.data[self.select] = a.get("value") or ""
                self.chosen = "selected" in a

        def handle_endtag(self, tag: str) -> None:
            if tag == "select":
                self.select = None

    form = Form()
    form.feed(html.split('class="start-table"', 1)[1].split("</form>", 1)[0])
    return form.data


def test_a_room_started_from_the_page_gets_the_room_clock_unless_one_is_chosen(
        client: TestClient) -> None:
    """The start form's clock is the tables' default at first (no clock sent): a room (a seat
    kept for a friend) gets ROOM_CLOCK as through the API, a table alone none; a clock chosen,
    "none" included, is the table's. (The form sent 0 before: a room started from the page had
    no clock.)"""
    from rebelote.tableserver.service import ROOM_CLOCK

    page = client.get("/tables/new").text
    assert f"{ROOM_CLOCK} s avec des amis, sinon aucun" in page
    defaults = start_form_defaults(page)
    assert defaults["clock"] == "" and defaults["game"] == "coinche", defaults

    def clock_of(**form: str) -> int:
        r = client.post("/tables", data={**defaults, "bots": "debutant", **form},
                        follow_redirects=False)
        assert r.status_code == 303, r.text
        tid = r.headers["location"].rsplit("/", 1)[1]
        return int(client.get(f"/api/tables/{tid}").json()["clock"])

    assert clock_of(friends="N") == ROOM_CLOCK
    assert clock_of(friends="EW") == ROOM_CLOCK
    assert clock_of() == 0  # a table alone
    assert clock_of(friends="N", clock="0") == 0  # "none", chosen
    assert clock_of(friends="N", clock="30") == 30
    assert clock_of(clock="60") == 60
    english = client.get("/tables/new?lang=en").text
    assert f"{ROOM_CLOCK} s with friends, else none" in english


def test_the_host_hands_a_seat_back_to_its_bot_with_the_page_s_form(client: TestClient
                                                                     ) -> None:
    """The room's host sees, under the room, one form per friend's seat: posted as the page
    posts it, the seat is its bot's again and the friend's secret stops working. A friend sees
    no such form, and the same post from a friend's browser changes nothing."""
    import re

    r = client.post("/tables", data={"game": "coinche", "bots": "debutant", "pace": "0",
                                     "friends": "N"}, follow_redirects=False)
    tid = r.headers["location"].rsplit("/", 1)[1]
    host_page = client.get(f"/tables/{tid}").text
    link = host_page.split('id="invite-link">')[1].split("<")[0].replace("http://testserver", "")
    code = host_page.split('id="join-code">')[1].split("<")[0]
    assert 'id="hand-back-' not in host_page  # no friend seated yet
    bo, cy = TestClient(client.app), TestClient(client.app)  # two friends' browsers
    invite = bo.get(link).text.split('name="invite" value="')[1].split('"')[0]
    assert bo.post(f"/t/{code}", data={"name": "Bo", "seat": "N", "invite": invite},
                   follow_redirects=False).headers["location"] == f"/tables/{tid}"
    assert cy.post(f"/t/{code}", data={"name": "Cy"}, follow_redirects=False
                   ).headers["location"] == f"/tables/{tid}"  # E, a bot's seat, from deal 2

    def seats() -> dict[str, str]:
        r = client.get(f"/api/tables/{tid}")  # the host's view
        assert r.status_code == 200, r.text
        return {s: r.json()["seats"][s]["kind"] for s in "NESW"}

    assert seats() == {"N": "human", "E": "human", "S": "human", "W": "bot"}
    # each in a disclosure that asks first and says the way back (issue 33, Build 3)
    forms = re.findall(r'<details class="confirm hand-back" id="hand-back-\w-confirm">\s*'
                       r'<summary id="hand-back-(\w)">([^<]+)</summary>\s*<p>[^<]*join code'
                       r'[^<]*</p>\s*<form method="post" action="([^"]+)" class="confirm-row">'
                       r'<button type="submit" class="danger" id="hand-back-\w-yes">',
                       client.get(f"/tables/{tid}?lang=en").text)
    forms = [(action, seat, words) for seat, words, action in forms]
    assert [(f[0], f[1]) for f in forms] == [(f"/tables/{tid}/seats/E/bot", "E"),
                                            (f"/tables/{tid}/seats/N/bot", "N")], forms
    assert "Bo" in dict((f[1], f[2]) for f in forms)["N"]
    # a friend's page offers no such form, and its post (as if it had one) changes nothing
    for friend in (bo, cy):
        assert 'id="hand-back-' not in friend.get(f"/tables/{tid}").text
    for action, _, _ in forms:
        r = bo.post(action, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/tables/{tid}"
    r = bo.post(f"/tables/{tid}/seats/S/bot", follow_redirects=False)  # the host's own seat
    assert r.status_code == 303
    assert seats() == {"N": "human", "E": "human", "S": "human", "W": "bot"}
    # the host posts the form of Bo's seat, as the page does, and lands back on the table
    r = client.post(dict((f[1], f[0]) for f in forms)["N"])
    assert r.status_code == 200 and r.url.path == f"/tables/{tid}"
    # Bo took N with its invitation in this deal, its hand shown: N stays Bo's, away, its
    # bot playing it in everyone's sight, to the deal's end (issue 37, item 3), then a bot's
    assert seats() == {"N": "human", "E": "human", "S": "human", "W": "bot"}
    north = client.get(f"/api/tables/{tid}").json()["seats"]["N"]
    assert north["away"] and north["leaving"]
    assert 'id="hand-back-N"' not in r.text and 'id="hand-back-E"' in r.text
    assert bo.get(f"/tables/{tid}").status_code == 403  # Bo's secret no longer works
    assert cy.get(f"/tables/{tid}").status_code == 200


def test_the_start_form_offers_contrees_presets(client: TestClient) -> None:
    page = client.get("/tables/new").text
    for name in ("ffb", "ffb-ludique", "cannes-2016", "annonces", "exact"):
        assert f'name="contree_rules" value="{name}"' in page
    # the official/house radios are still sent (hidden for contrée): contrée's choice wins
    r = client.post("/tables", data={"game": "contree", "rules": "official",
                                     "contree_rules": "cannes-2016", "target": "2000",
                                     "bots": "random", "pace": "0"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    tid = r.headers["location"].rsplit("/", 1)[1]
    table = client.get(f"/api/tables/{tid}").json()
    assert (table["game"], table["rules"]) == ("contree", "cannes-2016")
    # coinche ignores a contrée preset left checked in the hidden group
    r = client.post("/tables", data={"game": "coinche", "rules": "house",
                                     "contree_rules": "ffb", "bots": "random", "pace": "0"},
                    follow_redirects=False)
    tid = r.headers["location"].rsplit("/", 1)[1]
    table = client.get(f"/api/tables/{tid}").json()
    assert (table["game"], table["rules"]) == ("coinche", "house")


def test_the_pages_seat_steps_answer_the_seat_only(client: TestClient) -> None:
    r = client.post("/tables", data={"game": "coinche", "rules": "official", "bots": "random",
                                     "pace": "0", "friends": "N"}, follow_redirects=False)
    tid = r.headers["location"].rsplit("/", 1)[1]
    page = f"/tables/{tid}"
    stranger = TestClient(client.app)
    for step in ("fill", "back"):
        r = stranger.post(f"{page}/{step}", headers={"HX-Request": "true"},
                          follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == page
    assert client.get(page).text.count('id="join-code"') == 1
    r = client.post(f"{page}/fill", headers={"HX-Request": "true"})  # N handed to its bot
    assert r.status_code == 200 and 'class="tbl' in r.text
    r = client.post(f"{page}/back", follow_redirects=False)  # not htmx: back to the page
    assert r.status_code == 303 and r.headers["location"] == page


def test_a_seat_kept_for_a_friend_waits_until_taken_or_given_to_its_bot(
        client: TestClient) -> None:
    t = new_table(client, friends=["N"])  # N speaks first
    tid, token = t["id"], t["token"]
    assert t["turn"] == "N" and t["seats"]["N"]["kind"] == "open" and t["legal"] == []
    again = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
    assert again["version"] == t["version"]  # nobody played for the friend
    filled = client.post(f"/api/tables/{tid}/fill", headers=auth(token)).json()
    assert filled["seats"]["N"]["kind"] == "bot" and filled["auction"]
    assert filled["turn"] == "S" or filled["over"]


def test_a_table_waiting_for_a_friend_shows_its_join_code_at_the_top(client: TestClient
                                                                     ) -> None:
    # the host sees why the table waits and what to give the friend, without scrolling to the
    # room's card at the bottom of the page
    t = new_table(client, friends=["N"])
    html = client.get(f"/tables/{t['id']}/fragment", headers=auth(t["token"])).text
    waiting = html.split('id="waiting"')[1].split("</section>")[0]
    assert "La table attend un ami à la place Nord" in waiting
    assert f'id="waiting-code">{t["code"]}<' in waiting and 'href="#room-title"' in waiting
    assert "Confier cette place à un robot" in waiting  # one seat kept: said in the singular
    two = new_table(client, friends=["E", "W"])
    html = client.get(f"/tables/{two['id']}/fragment", headers=auth(two["token"])).text
    assert "Confier ces places aux robots" in html.split('id="waiting"')[1]


def test_a_player_who_leaves_is_played_by_the_bot_until_back(client: TestClient) -> None:
    client.app.state.tables.leave_grace = 0.3  # type: ignore[attr-defined]
    t = new_table(client)
    tid, token = t["id"], t["token"]
    with client.websocket_connect(f"/api/tables/{tid}/ws", headers=auth(token)) as ws:
        ws.receive_json()
        time.sleep(0.6)  # a live page is open: the player is here
        assert not client.get(f"/api/tables/{tid}", headers=auth(token)).json()[
            "seats"]["S"]["away"]
    deadline = time.monotonic() + 10
    view = t
    while time.monotonic() < deadline and not view["seats"]["S"]["away"]:
        time.sleep(0.1)
        view = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
    assert view["seats"]["S"]["away"]  # the page closed: the bot plays for S
    back = client.post(f"/api/tables/{tid}/back", headers=auth(token)).json()
    assert back["seats"]["S"]["away"] is False


def test_two_servers_on_one_store_play_one_table_from_what_each_last_saw(tmp_path: Path
                                                                         ) -> None:
    """Each server plays an action on the version of the table it holds in memory and writes
    it checked against that version; when the other server wrote since, the write is refused,
    the table read again and the action played there: every action lands once."""
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    rng = random.Random(11)
    with TestClient(create_app(url)) as one, TestClient(create_app(url)) as two:
        t = new_table(one)
        view, tid = t, t["id"]
        for i in range(40):
            server = (one, two)[i % 2]  # each move on the server that did not see the last
            r = server.post(f"/api/tables/{tid}/actions", headers=auth(t["token"]),
                            json={"action": choose(view, rng)})
            assert r.status_code == 200, r.text
            assert r.json()["version"] > view["version"]
            view = r.json()
            if view["over"]:
                break
        seen = [s.get(f"/api/tables/{tid}", headers=auth(t["token"])).json() for s in (one, two)]
        assert seen[0] == seen[1] == view


def test_a_second_tap_of_a_page_s_form_changes_nothing(client: TestClient) -> None:
    r = client.post("/tables", data={"game": "coinche", "rules": "official", "target": "1000",
                                     "bots": "random", "pace": "0", "clock": "0"},
                    follow_redirects=False)
    tid = r.headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/tables/{tid}").text
    assert 'name="version"' in page
    version = int(page.split('data-version="')[1].split('"')[0])
    htmx = {"HX-Request": "true"}
    first = client.post(f"/tables/{tid}/act", data={"action": "pass", "version": str(version)},
                        headers=htmx)
    assert first.status_code == 200
    after = client.get(f"/api/tables/{tid}").json()["version"]
    assert after > version
    again = client.post(f"/tables/{tid}/act", data={"action": "pass", "version": str(version)},
                        headers=htmx)
    assert again.status_code == 409
    assert "La table a avancé entre-temps" in again.text and 'role="alert"' in again.text
    assert client.get(f"/api/tables/{tid}").json()["version"] == after  # nothing played


def test_a_database_out_of_reach_answers_503_and_the_table_stays(client: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    from rebelote.store.play_tables import StoreDownError

    t = new_table(client)
    service = client.app.state.tables  # type: ignore[attr-defined]

    async def down(*args: Any, **kw: Any) -> Any:
        raise StoreDownError("connection refused")

    monkeypatch.setattr(service.db, "put", down)
    monkeypatch.setattr(service.db, "append", down)
    r = client.post(f"/api/tables/{t['id']}/actions", headers=auth(t["token"]),
                    json={"action": t["legal"][0]})
    assert r.status_code == 503 and r.headers["Retry-After"]
    assert r.json()["error"].startswith("store: the database cannot be reached")
    monkeypatch.undo()
    again = client.get(f"/api/tables/{t['id']}", headers=auth(t["token"])).json()
    assert again["version"] == t["version"]


def refused(html: str) -> str:
    """The refusal a table fragment shows (its ``#refused`` alert), tags and spaces flattened."""
    import html as entities
    import re

    found = re.search(r'<p class="error" role="alert" id="refused">(.*?)</p>', html, re.S)
    assert found, html[:400]
    return " ".join(entities.unescape(re.sub(r"<[^>]+>", "", found.group(1))).split())


def test_the_page_says_the_engine_s_refusals_in_its_language(client: TestClient) -> None:
    """A refused move shows the rule in the page's language, the seats as the viewer sees them;
    the API answers the engine's English sentence."""
    htmx = {"HX-Request": "true"}
    t = new_table(client, pace=5000)  # the bots wait 5 s: North speaks first, not South
    tid, token = t["id"], t["token"]
    page = f"/tables/{tid}/act"
    r = client.post(page, data={"action": "pass"}, headers={**htmx, **auth(token)})
    assert r.status_code == 409
    assert refused(r.text) == "Refusé : Ce n’est pas votre tour : c’est à votre partenaire " \
                              "de jouer.", r.text
    r = client.post(page + "?lang=en", data={"action": "pass"}, headers={**htmx, **auth(token)})
    assert refused(r.text) == "Refused: It is not your turn: your partner is to play."
    api = client.post(f"/api/tables/{tid}/actions", headers=auth(token), json={"action": "pass"})
    assert api.json()["error"] == "S pass: it is N's turn, not S's"

    t = new_table(client, pace=0, bots="random")  # the bots answer at once: South's turn
    tid, token = t["id"], t["token"]
    page, headers = f"/tables/{tid}/act", {**htmx, **auth(token)}
    assert t["turn"] == "S" and t["phase"] == "auction"
    card = t["hand"][0]
    for action, french in ((card, "Les cartes se jouent après les enchères : annoncez "
                                  "d’abord."),
                           ("take", "À la coinche, une enchère nomme une valeur et un atout, "
                                    "comme 90 cœur."),
                           ("nonsense", "Ce coup n’est pas permis ici.")):
        r = client.post(page, data={"action": action}, headers=headers)
        assert r.status_code in (409, 422), (action, r.text)
        assert refused(r.text) == f"Refusé : {french}", (action, r.text)
    # into the play: South passes (or bids when it must) until a card of its is not playable
    rng = random.Random(5)
    view = t
    for _ in range(200):
        if view["phase"] == "play" and view["turn"] == "S" and set(view["hand"]) - set(
                view["legal"]):
            break
        action = "pass" if "pass" in view["legal"] else choose(view, rng)
        view = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                           json={"action": action}).json()
    else:
        pytest.fail("South never held a card it could not play")
    card = sorted(set(view["hand"]) - set(view["legal"]))[0]
    api = client.post(f"/api/tables/{tid}/actions", headers=auth(token), json={"action": card})
    assert api.status_code == 409 and api.json()["error"].startswith(f"S {card}")
    r = client.post(page, data={"action": card, "version": str(view["version"])},
                    headers=headers)
    assert r.status_code == 409
    said = refused(r.text)
    from rebelote.web.table.words import card_words

    assert said.startswith(f"Refusé : {card_words(card, 'fr').capitalize()} : vous "), said
    assert not re.search(r"\b(must|turn|the|trick)\b", said), said  # no English left
    assert client.get(f"/api/tables/{tid}", headers=auth(token)).json()["version"] == \
        view["version"]  # nothing played


def test_the_result_card_names_the_teams_in_sentences_and_the_winner(client: TestClient
                                                                     ) -> None:
    """The result card's lines say "votre équipe" and "l’équipe adverse" (not "Nous marque",
    "Eux a montré"), beginning with a capital; the seats name their bots in the page's
    language; the end of the game says who won as a sentence."""
    t = new_table(client, pace=0, bots="heuristic", target=501)
    tid, token = t["id"], t["token"]
    rng = random.Random(11)
    view = t
    lines: list[str] = []
    while not view["over"]:
        view = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                           json={"action": choose(view, rng)}).json()
        if view["last_result"] and view["last_result"]["deal"] > len(lines):
            html = client.get(f"/tables/{tid}/fragment", headers=auth(token)).text
            if not lines:
                assert "(robot débutant)" in html and "(robot beginner)" not in html
            card = html.split('id="result"')[1].split("</table>")[0]
            rows = re.findall(r"<tr><td>(.*?)</td>", card)
            lines.append(" | ".join(rows))
            for row in rows:
                assert row[:1].isupper(), row
                assert not re.search(r"\b(Nous|Eux) (a|marque|ne|garde|dedans|capot)\b",
                                     row), row
    text = "\n".join(lines)
    assert "Contrat" in text and ("de votre équipe" in text or "de l’équipe adverse" in text)
    html = client.get(f"/tables/{tid}/fragment", headers=auth(token)).text
    winner = html.split('id="winner"')[1].split("</h2>")[0]
    assert ("Nous avons gagné (" in winner) == (view["winner"] == "NS"), winner
    assert ("Ils ont gagné (" in winner) == (view["winner"] == "EW"), winner
    english = client.get(f"/tables/{tid}/fragment?lang=en", headers=auth(token)).text
    assert re.search(r"(your team|the other team)", english.split('id="result"')[1])
    assert "We won the game" in english or "They won the game" in english


def test_the_live_region_s_events_say_each_deal_s_result(client: TestClient) -> None:
    """The fragment's events (said once each by the page's live region): the latest calls and
    cards, the last deal's result first while the next deal goes on, and at the end of the
    game the last deal's result after its cards, then the game's end."""
    rng = random.Random(2)
    starts = games = 0
    while not starts and games < 10:  # (a game may end with its first deal: another one)
        games += 1
        starts += play_checking_events(client, rng)
    assert starts >= 1


def play_checking_events(client: TestClient, rng: random.Random) -> int:
    """A game played to its end, the fragment's events checked whenever a deal ends; the
    number of deals that began after another."""
    t = new_table(client, pace=0, bots="random", target=501)
    tid, token = t["id"], t["token"]
    view = t
    starts = 0
    while not view["over"]:
        deal = view["deal"]
        view = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                           json={"action": choose(view, rng)}).json()
        if view["deal"] == deal and not view["over"]:
            continue
        html = client.get(f"/tables/{tid}/fragment", headers=auth(token)).text
        events = re.findall(r'<li data-key="([^"]+)">(.*?)</li>', html)
        assert 0 < len(events) <= 27 and len({k for k, _ in events}) == len(events), events
        if view["over"]:
            assert [k for k, _ in events[-2:]] == [f"r{view['deal']}", "over"], events
            assert events[-2][1].startswith(f"Résultat de la donne {view['deal']}\u00a0: ")
        else:
            starts += 1
            assert events[0][0] == f"r{view['deal'] - 1}", events
            assert events[1][0] == f"{view['deal']}d", events
            assert events[1][1].startswith(f"Donne {view['deal']}, donneur "), events
    return starts


def test_the_english_page_writes_generale_as_the_game_does() -> None:
    # the engine's call is "generale"; the English page says "générale", like the counter
    from rebelote.web.table.pages import templates
    from rebelote.web.table.words import bid_words

    assert bid_words("generale no-trump", "en") == "générale no-trump"
    assert bid_words("generale no-trump", "fr") == "générale sans atout"
    assert templates.environment("en").globals["t"]("generale") == "générale"


def test_a_player_may_announce_nothing_before_the_first_card(client: TestClient) -> None:
    """The first card announces the best declaration; the page offers to announce nothing
    instead, as the engine allows (``no-declaration``), and then the cards only."""
    rng = random.Random(4)
    for _ in range(40):  # tables until South holds a declaration at its first card
        t = new_table(client, pace=0, bots="random")
        tid, token = t["id"], t["token"]
        view = t
        while view["phase"] == "auction" and not view["over"]:
            action = "pass" if "pass" in view["legal"] else choose(view, rng)
            view = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                               json={"action": action}).json()
        if view["deal"] == 1 and "no-declaration" in view["legal"]:
            break
    else:
        pytest.fail("South never held a declaration")
    html = client.get(f"/tables/{tid}/fragment", headers=auth(token)).text
    assert 'value="no-declaration"' in html and "Ne rien annoncer" in html
    # declining goes with the card, as one change (issue 37, item 4: alone, it showed the
    # other seats a frame whose only change was the version)
    alone = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                        json={"action": "no-declaration"})
    assert alone.status_code == 409 and "with your first card" in alone.json()["error"]
    card = next(a for a in view["legal"] if a != "no-declaration")
    r = client.post(f"/tables/{tid}/act", data={"action": card, "decline": "no-declaration",
                                                "version": str(view["version"])},
                    headers={"HX-Request": "true", **auth(token)})
    assert r.status_code == 200 and 'value="no-declaration"' not in r.text
    after = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
    assert after["version"] == view["version"] + 1
    assert "no-declaration" not in after["legal"] and not after.get("announced")


def test_an_unknown_table_id_answers_404_on_every_page_never_a_500(tmp_path: Path) -> None:
    """The web's one error map answers a table that does not exist on the routes that do not
    catch it themselves (a new game with the same settings, the room's QR code): a 404 page,
    not the 500 of an unexpected error."""
    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}")
    with TestClient(app, raise_server_exceptions=False) as c:
        for method, path in (("post", "/tables/0123456789abcdef/again"),
                             ("get", "/tables/0123456789abcdef/qr.svg"),
                             ("get", "/tables/0123456789abcdef"),
                             ("get", "/api/tables/0123456789abcdef")):
            r = c.request(method, path)
            assert r.status_code == 404, (path, r.status_code, r.text[:200])


@pytest.mark.parametrize("level", [lv.key for lv in PLAYER_LEVELS])
def test_a_new_game_keeps_the_level_and_settings_the_table_was_started_with(
        client: TestClient, level: str) -> None:
    """Issue 33, item 1: "Nouvelle partie" at every level (it failed at club, fort and expert:
    the seats' specs, ``pimc:default+tuned``, were handed back as if asked for) starts a new
    table with the same settings: the bots' level, game, rules, target, pace, clock, pause
    between deals and the player's name."""
    r = client.post("/tables", data={"game": "belote", "rules": "house", "target": "1500",
                                     "bots": level, "pace": "300", "clock": "60",
                                     "between": "-1", "name": "Mamie Jo"},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    old = r.headers["location"].rsplit("/", 1)[1]
    service = client.app.state.tables  # type: ignore[attr-defined]
    r = client.post(f"/tables/{old}/again", follow_redirects=False)
    assert r.headers["location"] == f"/tables/{old}"  # the game goes on: no new one yet
    client.portal.call(service.write, old, lambda loaded: played_out(loaded.table))  # type: ignore[union-attr]
    r = client.post(f"/tables/{old}/again", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/tables/"), r.text
    new = r.headers["location"].rsplit("/", 1)[1]
    assert new != old
    page = client.get(f"/tables/{new}")
    assert page.status_code == 200 and "Mamie Jo" in page.text
    tables = [client.portal.call(service.load, tid).table  # type: ignore[union-attr]
              for tid in (old, new)]
    first, second = tables
    assert second.levels == first.levels == (level,) * 4
    assert [s.bot for s in second.seats] == [s.bot for s in first.seats]
    assert (second.rules, second.target, second.pace, second.clock, second.between) == (
        first.rules, 1500, 300, 60, -1)


def played_out(table: Any) -> Any:
    """``table`` played to the game's end by random bots in every seat (in the core: no bot
    of the server's, no wait)."""
    from rebelote.table.model import NEXT

    rng, bot = random.Random(7), RandomBot()
    while not table.is_over:
        table = table.act(2, NEXT) if table.waiting else table.act(
            table.turn, table.bot_action(bot, rng))
    return table


def play_to_the_end(client: TestClient, tid: str, tokens: list[str], rng: random.Random
                    ) -> None:
    """The room's game played through the API by its humans (a contract bid when one is on
    offer: with a target of 1 point, the first deal played ends it), every view scanned."""
    scanners = [Scanner() for _ in tokens]
    for _ in range(2000):
        moved = False
        for token, scanner in zip(tokens, scanners, strict=True):
            view = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
            scanner.check(view)
            if view["over"]:
                return
            if view["legal"]:
                bids = [a for a in view["legal"] if a[0].isdigit() and " " in a]
                action = bids[0] if bids else choose(view, rng)
                r = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                                json={"action": action})
                assert r.status_code == 200, r.text
                moved = True
        if not moved:
            time.sleep(0.02)
    raise AssertionError("the game did not end")


def test_a_rooms_new_game_takes_every_player_along_to_the_same_seat(client: TestClient
                                                                    ) -> None:
    """Issue 33's seam: "Nouvelle partie" in a room of friends started a game for the one who
    pressed it alone. Now the first player who presses it starts the room's next game with the
    same seats, names and settings; the finished table tells every seat's view of it
    (``next_game``) and each player moves into their own seat with their own secret. A second
    press (by anyone of the room) goes to the same game; a friend who left stays out, a
    stranger and a game not over start nothing; no view of the new game shows another seat's
    cards."""
    host = new_table(client, game="coinche", bots="debutant", pace=0, target=1,
                     friends=["N"], name="Mamie Jo", between=-1)
    tid, code = host["id"], host["code"]
    r = client.post("/api/tables/join", json={"code": code, "name": "Jean",
                                              "invite": host["invites"]["N"]})
    assert r.status_code == 201, r.text
    friend = r.json()
    r = client.post("/api/tables/join", json={"code": code, "name": "Léa", "seat": "W"})
    assert r.status_code == 201, r.text
    gone = r.json()
    # with the code only: East, a bot's seat, hers from the next deal (the game ends first)
    r = client.post("/api/tables/join", json={"code": code, "name": "Zoé", "seat": "E"})
    assert r.status_code == 201, r.text
    late = r.json()
    assert client.post(f"/api/tables/{tid}/release", headers=auth(gone["token"])
                       ).status_code == 200
    stranger = new_table(client)["token"]
    r = client.post(f"/tables/{tid}/again", headers=auth(friend["token"]),
                    follow_redirects=False)
    assert r.headers["location"] == f"/tables/{tid}"  # the game goes on
    play_to_the_end(client, tid, [host["token"], friend["token"], late["token"]],
                    random.Random(3))
    for token in (stranger, gone["token"]):  # no seat at the finished table: sent home
        client.cookies.clear()
        r = client.post(f"/tables/{tid}/again", headers=auth(token), follow_redirects=False)
        assert r.headers["location"] == "/"
    assert "next_game" not in client.get(f"/api/tables/{tid}", headers=auth(host["token"])
                                         ).json()
    client.cookies.clear()  # no next game yet: the way to it shows the table again
    r = client.post(f"/tables/{tid}/next-game", headers=auth(host["token"]),
                    follow_redirects=False)
    assert r.headers["location"] == f"/tables/{tid}"
    # the friend presses first; the host's view of the finished table then names the game
    client.cookies.clear()
    r = client.post(f"/tables/{tid}/again", headers=auth(friend["token"]),
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    new = r.headers["location"].rsplit("/", 1)[1]
    assert new != tid and "rebelote_keys" in r.headers["set-cookie"]
    client.cookies.clear()
    told = client.get(f"/api/tables/{tid}", headers=auth(host["token"])).json()
    assert told["next_game"] == new
    page = client.get(f"/tables/{tid}", headers=auth(host["token"])).text
    assert 'id="join-new-game"' in page and 'id="new-game"' not in page
    assert "Une nouvelle partie a commencé\u00a0: votre place vous y attend." in page
    for token in (host["token"], friend["token"]):  # a second press: the same game
        client.cookies.clear()
        r = client.post(f"/tables/{tid}/again", headers=auth(token), follow_redirects=False)
        assert r.headers["location"] == f"/tables/{new}"
    # the page's way to it (Rejoindre la nouvelle partie) starts none: not a table started
    from rebelote.web.security import request_kind

    assert request_kind("POST", f"/tables/{tid}/next-game") is None
    client.cookies.clear()  # another site's form: refused like every write
    assert client.post(f"/tables/{tid}/next-game", follow_redirects=False, headers={
        **auth(host["token"]), "origin": "http://elsewhere.example"}).status_code == 403
    for token, where in ((host["token"], f"/tables/{new}"), (stranger, "/"),
                         (gone["token"], "/")):
        client.cookies.clear()
        r = client.post(f"/tables/{tid}/next-game", headers=auth(token),
                        follow_redirects=False)
        assert r.headers["location"] == where
        assert ("rebelote_keys" in r.headers.get("set-cookie", "")) == (token == host["token"])
    client.cookies.clear()
    # the same seats, each with its own secret; the one who left and a stranger hold none
    views = {name: client.get(f"/api/tables/{new}", headers=auth(t["token"])).json()
             for name, t in (("host", host), ("friend", friend), ("late", late))}
    assert views["late"]["seat"] == "E" and views["late"]["seats"]["S"]["name"] == "Zoé"
    assert views["late"]["hand"] and views["late"]["from_deal"] == 1  # hers from deal 1
    assert views["host"]["seats"]["S"]["name"] == "Mamie Jo"
    assert views["host"]["seats"]["N"]["name"] == "Jean"
    assert views["friend"]["seats"]["S"]["name"] == "Jean"  # the friend sees from N
    assert views["host"]["seats"]["W"]["kind"] == "bot"
    for view in views.values():
        assert view["deal"] == 1 and not view["over"] and view["version"] >= 1
        assert not leaks(view, set(view["hand"])), view["seat"]
    hands = [set(v["hand"]) for v in views.values()]
    assert not (hands[0] & hands[1] or hands[0] & hands[2] or hands[1] & hands[2])
    for token in (gone["token"], stranger):
        assert client.get(f"/api/tables/{new}", headers=auth(token)).status_code == 403
    service = client.app.state.tables  # type: ignore[attr-defined]
    old_t, new_t = [client.portal.call(service.load, t).table  # type: ignore[union-attr]
                    for t in (tid, new)]
    assert (new_t.rules, new_t.target, new_t.pace, new_t.clock, new_t.between, new_t.hints,
            new_t.levels, new_t.host) == (old_t.rules, 1, 0, old_t.clock, -1, old_t.hints,
                                          old_t.levels, old_t.host)
    assert new_t.code != old_t.code and not new_t.next_game
    # the friend who left joins the new game with its code: a bot's seat, from the next deal
    r = client.post("/api/tables/join", json={"code": views["host"]["code"], "name": "Léa",
                                              "seat": "W"})
    assert r.status_code == 201 and r.json()["from_deal"] == 2, r.text
    # the whole new game, both playing it: no view shows a card its seat could not see
    play_to_the_end(client, new, [host["token"], friend["token"], late["token"]],
                    random.Random(4))


def test_the_json_api_starts_the_rooms_next_game_once_for_its_players(tmp_path: Path
                                                                       ) -> None:
    """The JSON API's Nouvelle partie, ``POST /api/tables/{id}/again``, does what the page's
    does: the first player of the finished room to call starts its next game (``201``), the
    same seats and secrets; any later call, by anyone of the room, answers the same game
    (``200``). A stranger and a player who left are refused naming the rule, a game not over
    too; the call that starts it counts as a table started (``tables_per_minute``), the calls
    that find it count nothing. A player polling the finished table reads ``next_game``, and no
    answer carries another seat's secret or cards."""
    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}",
                     limits=Limits(tables_burst=3, tables_per_minute=1))
    with TestClient(app) as client:
        host = new_table(client, game="coinche", bots="debutant", pace=0, target=1,
                         friends=["N"], name="Mamie Jo", between=-1)
        tid, code = host["id"], host["code"]
        friend = client.post("/api/tables/join", json={"code": code, "name": "Jean",
                                                       "invite": host["invites"]["N"]}).json()
        gone = client.post("/api/tables/join", json={"code": code, "name": "Léa",
                                                     "seat": "W"}).json()
        assert client.post(f"/api/tables/{tid}/release", headers=auth(gone["token"])
                           ).status_code == 200
        stranger = new_table(client)["token"]
        again = f"/api/tables/{tid}/again"
        r = client.post(again, headers=auth(friend["token"]))
        assert (r.status_code, r.json()) == (409, {
            "error": "again: the game goes on; a new game starts once it is over"})
        play_to_the_end(client, tid, [host["token"], friend["token"]], random.Random(3))
        for token in (stranger, gone["token"], None):  # no seat at the finished table
            r = client.post(again, headers=auth(token) if token else {})
            assert r.status_code == 403, r.text
            assert r.json()["error"].startswith(
                "Authorization: only a player seated at this table starts or joins its next "
                "game"), r.text
        assert "next_game" not in client.get(f"/api/tables/{tid}", headers=auth(host["token"])
                                             ).json()
        # a third table from this address empties its bucket: the start is refused, nothing
        # made; a minute later (one given back) the friend starts it
        new_table(client)
        r = client.post(again, headers=auth(friend["token"]))
        assert r.status_code == 429 and r.headers["retry-after"], r.text
        assert r.json()["error"].startswith("rate: too many tables started from your address")
        before = client.get(f"/api/tables/{tid}", headers=auth(host["token"])).json()
        assert "next_game" not in before
        client.portal.call(app.state.limit_counts.give_back, "tables",  # type: ignore[union-attr]
                           "testclient")
        r = client.post(again, headers=auth(friend["token"]))
        assert r.status_code == 201, r.text
        started = r.json()
        new = started["id"]
        assert new != tid and started["token"] == friend["token"]
        assert started["seat"] == "N" and started["seats"]["S"]["name"] == "Jean"  # turned
        assert started["seats"]["N"]["name"] == "Mamie Jo" and started["deal"] == 1
        assert "invites" not in started and not leaks(started, set(started["hand"]))
        for secret in (host["token"], gone["token"], stranger):
            assert secret not in r.text
        # the host polling the finished table learns of it: its id, nothing else new
        told = client.get(f"/api/tables/{tid}", headers=auth(host["token"]))
        assert told.json()["next_game"] == new
        assert {k: v for k, v in told.json().items() if k not in ("next_game", "version")} == {
            k: v for k, v in before.items() if k != "version"}
        for secret in (friend["token"], gone["token"], stranger):
            assert secret not in told.text
        # the host follows it, at the same seat, with their own secret: found, not counted
        # (the bucket is empty: a new table is refused)
        r = client.post(again, headers=auth(host["token"]))
        assert r.status_code == 200, r.text
        followed = r.json()
        assert (followed["id"], followed["seat"], followed["token"]) == (new, "S", host["token"])
        assert followed["seats"]["N"]["name"] == "Jean"
        assert followed["seats"]["W"]["kind"] == "bot"  # the one who left stays out
        assert not set(followed["hand"]) & set(started["hand"])
        assert not leaks(followed, set(followed["hand"])) and friend["token"] not in r.text
        assert client.post(again, headers=auth(friend["token"])).json()["id"] == new
        assert client.post("/api/tables", json={"game": "coinche"}).status_code == 429
        # the new game is not over: its own again is refused
        assert client.post(f"/api/tables/{new}/again", headers=auth(host["token"])
                           ).status_code == 409
        for token in (gone["token"], stranger):
            assert client.get(f"/api/tables/{new}", headers=auth(token)).status_code == 403


def test_the_pages_and_the_apis_nouvelle_partie_share_one_allowance(tmp_path: Path) -> None:
    """*Nouvelle partie* on the page (``POST /tables/{id}/again``) and through the API
    (``POST /api/tables/{id}/again``) count the same way, in one place: only the call that
    starts a next game takes a table from the client's ``tables_per_minute`` bucket (the one
    ``POST /api/tables`` takes from); a burst of starts from one address through both routes is
    refused at the same count, the page's in the page's language, the API's as JSON, each with
    ``Retry-After`` and nothing made. The presses that find the next game started (every other
    player of the room, a second tap) count nothing, on either route."""
    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}",
                     limits=Limits(tables_burst=9, tables_per_minute=1))
    with TestClient(app, follow_redirects=False) as client:
        rooms = []
        for n in range(5):  # five finished tables
            host = new_table(client, pace=0, target=1)
            play_to_the_end(client, host["id"], [host["token"]], random.Random(n))
            rooms.append((host["id"], host["token"]))
        # three tables left in this address's bucket, whatever the time the games took (a
        # minute gives one back): emptied, then three given back
        counts = app.state.limit_counts
        while not client.portal.call(counts.take, "tables", "testclient"):
            pass
        for _ in range(3):
            client.portal.call(counts.give_back, "tables", "testclient")

        def page(room: int, lang: str = "fr") -> Any:
            tid, token = rooms[room]
            return client.post(f"/tables/{tid}/again?lang={lang}", headers=auth(token))

        def api(room: int) -> Any:
            tid, token = rooms[room]
            return client.post(f"/api/tables/{tid}/again", headers=auth(token))

        first = page(0)
        assert first.status_code == 303 and first.headers["location"] != f"/tables/{rooms[0][0]}"
        for _ in range(4):  # found, not started: uncounted, on either route
            assert page(0).headers["location"] == first.headers["location"]
            assert api(0).status_code == 200
        assert api(1).status_code == 201
        assert page(1).status_code == 303 and api(1).status_code == 200
        assert page(2).status_code == 303  # the third: the bucket is empty
        refused_page, refused_api = page(3), api(4)
        assert refused_page.status_code == refused_api.status_code == 429
        assert refused_page.headers["retry-after"] and refused_api.headers["retry-after"]
        assert refused_page.headers["content-type"].startswith("text/html")
        wait = refused_api.headers["retry-after"]
        assert refused_api.json() == {"error": "rate: too many tables started from your "
                                      f"address: try again in {wait} s"}
        # the same wait on each answer, a second less once a second boundary passed between
        said = re.search(r'role="alert">Trop de parties commencées depuis votre adresse\u00a0: '
                         r"réessayez dans (\d+)\u00a0s\.", refused_page.text)
        assert said and 0 <= int(said[1]) - int(wait) <= 1, refused_page.text
        english = page(3, "en")
        said = re.search(r"Too many tables started from your address: try again in (\d+) s\.",
                         english.text)
        assert english.status_code == 429 and said and 0 <= int(wait) - int(said[1]) <= 1, \
            english.text
        for room in (3, 4):  # nothing made
            view = client.get(f"/api/tables/{rooms[room][0]}", headers=auth(rooms[room][1]))
            assert "next_game" not in view.json()
        assert client.post("/api/tables", json={"game": "coinche"}).status_code == 429


def test_a_clubs_presses_of_nouvelle_partie_are_never_refused(tmp_path: Path) -> None:
    """A club's room behind one address at the default limits: the players' presses of
    *Nouvelle partie*, on the page and through the API, more than the whole burst of tables,
    are never refused: only the one that started the next game counted."""
    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}")
    burst = app.state.limits.capacity("tables")  # 60
    with TestClient(app, follow_redirects=False) as client:
        host = new_table(client, pace=0, target=1, friends=["N"])
        friend = client.post("/api/tables/join", json={"code": host["code"], "name": "Jean",
                                                       "invite": host["invites"]["N"]}).json()
        tid = host["id"]
        play_to_the_end(client, tid, [host["token"], friend["token"]], random.Random(5))
        assert client.post(f"/api/tables/{tid}/again", headers=auth(host["token"])
                           ).status_code == 201
        new = client.get(f"/api/tables/{tid}", headers=auth(host["token"])).json()["next_game"]
        for n in range(int(burst) + 10):
            token = (host, friend)[n % 2]["token"]
            r = client.post(f"/tables/{tid}/again", headers=auth(token))
            assert (r.status_code, r.headers["location"]) == (303, f"/tables/{new}"), n
            r = client.post(f"/api/tables/{tid}/again", headers=auth(token))
            assert (r.status_code, r.json()["id"]) == (200, new), n


def test_the_json_nouvelle_partie_keeps_every_setting_and_no_old_key_opens_it(tmp_path: Path
                                                                            ) -> None:
    """``POST /api/tables/{id}/again`` keeps every setting the table was made with: the rule
    set and its changed options, the target, each seat's level as asked (a level for people or
    a registry spec) and the spec it plays (``+tuned``, ``+learned``), pace, clock, pause
    between deals, hints, names and host. Who may call the new table: its players with their
    own secrets; the finished table's invitation of a seat still kept, its code, a stranger,
    hold nothing there (the kept seat has a new invitation, which alone takes it)."""
    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}")
    settings = {"game": "contree", "rules": "ffb", "options": {"undertrump": "must"},
                "target": 500, "bots": {"N": "expert", "E": "club", "W": "pimc:fast"},
                "friends": ["N", "E"], "name": "Mamie Jo", "pace": 300, "clock": 45,
                "between": 5000, "hints": False}
    with TestClient(app) as client:
        r = client.post("/api/tables", json=settings)
        assert r.status_code == 201, r.text
        host = r.json()
        tid, old_invite = host["id"], host["invites"]["E"]
        jean = client.post("/api/tables/join", json={"code": host["code"], "name": "Jean",
                                                     "invite": host["invites"]["N"]}).json()
        stranger = new_table(client)["token"]
        service = app.state.tables
        client.portal.call(service.write, tid, lambda loaded: played_out(loaded.table))
        r = client.post(f"/api/tables/{tid}/again", headers=auth(jean["token"]))
        assert r.status_code == 201, r.text
        new = r.json()["id"]
        r = client.post(f"/api/tables/{tid}/again", headers=auth(host["token"]))
        assert (r.status_code, r.json()["id"], r.json()["token"]) == (200, new, host["token"])
        view = r.json()
        old_t, new_t = [client.portal.call(service.load, t).table for t in (tid, new)]
        # every setting, as asked and as played
        assert new_t.rules == old_t.rules and new_t.rules.name == "ffb"
        assert new_t.rules.undertrump == "must" and new_t.rules.game == "contree"
        assert (new_t.target, new_t.pace, new_t.clock, new_t.between, new_t.hints) == (
            500, 300, 45, 5000, False)
        assert new_t.levels == old_t.levels
        assert [new_t.levels[i] for i in (0, 1, 3)] == ["expert", "club", "pimc:fast"]
        assert [s.bot for s in new_t.seats] == [s.bot for s in old_t.seats]
        assert [new_t.seats[i].bot for i in (0, 1, 3)] == [
            "pimc:expert+learned", "net", "pimc:fast"]
        assert [s.kind for s in new_t.seats] == ["human", "open", "human", "bot"]
        assert (new_t.seats[0].name, new_t.seats[2].name) == ("Jean", "Mamie Jo")
        assert new_t.host == old_t.host and new_t.teams == old_t.teams
        assert (view["game"], view["rules"], view["options"], view["target"], view["pace"],
                view["clock"], view["between"], view["hints"]["allowed"]) == (
            "contree", "ffb", {"undertrump": "must"}, 500, 300, 45, 5000, False)
        assert view["seats"]["N"]["name"] == "Jean" and view["seats"]["S"]["name"] == "Mamie Jo"
        # who may call it: the finished table's keys open nothing there but the players' own
        for token in (stranger, old_invite):
            assert client.get(f"/api/tables/{new}", headers=auth(token)).status_code == 403
            r = client.post(f"/api/tables/{new}/actions", headers=auth(token),
                            json={"action": "pass"})
            assert r.status_code == 403, r.text
            assert client.post(f"/api/tables/{new}/again", headers=auth(token)
                               ).status_code == 403
        assert client.post("/api/tables/join", json={
            "code": host["code"], "invite": old_invite}).status_code == 404  # the old code
        r = client.post("/api/tables/join", json={"code": view["code"], "seat": "E",
                                                  "invite": old_invite})
        assert r.status_code == 403, r.text  # the old invitation: not this seat's
        new_invite = view["invites"]["E"]
        assert new_invite != old_invite
        assert client.get(f"/api/tables/{new}", headers=auth(jean["token"])).json()["seat"] == "N"
        r = client.post("/api/tables/join", json={"code": view["code"], "name": "Zoé",
                                                  "invite": new_invite})
        assert r.status_code == 201 and r.json()["seat"] == "E", r.text
        assert r.json()["from_deal"] in (None, 1)  # a kept seat: hers at once


def two_presses_at_once(url: str) -> None:
    """Two workers of one store (``url``), and two players of a finished room pressing
    *Nouvelle partie* at the same instant, one on each (the page on one, the API on the
    other): both pass the check that no next game was started (each waits for the other
    there), then both go on. They land on the same new game, and no other table is made."""
    import threading

    from sqlalchemy import create_engine, text

    def tables() -> set[str]:
        engine = create_engine(url)
        try:
            with engine.connect() as conn:
                return {str(r[0]) for r in conn.execute(text("SELECT id FROM play_tables"))}
        finally:
            engine.dispose()

    one_app, two_app = create_app(url), create_app(url)
    with TestClient(one_app) as one, TestClient(two_app) as two:
        host = new_table(one, pace=0, target=1, friends=["N"])
        friend = two.post("/api/tables/join", json={"code": host["code"], "name": "Jean",
                                                    "invite": host["invites"]["N"]}).json()
        tid = host["id"]
        play_to_the_end(one, tid, [host["token"], friend["token"]], random.Random(8))
        # each player sees the game over, on their worker (SQLite's workers hear nothing of
        # the other's writes: the finished table is read there)
        assert one.get(f"/api/tables/{tid}", headers=auth(host["token"])).json()["over"]
        assert two.get(f"/api/tables/{tid}", headers=auth(friend["token"])).json()["over"]
        before = tables()
        # two tables in each bucket of this address (the workers' one on PostgreSQL, each
        # worker's own on SQLite): emptied, then two given back
        from rebelote.web.limits import SqlLimitStore

        buckets = [one_app.state.limit_counts]
        if not isinstance(buckets[0], SqlLimitStore):
            buckets.append(two_app.state.limit_counts)

        def left(counts: Any, client: TestClient, give: int = 0) -> int:
            n = 0
            while not client.portal.call(counts.take, "tables", "testclient"):
                n += 1
            for _ in range(give):
                client.portal.call(counts.give_back, "tables", "testclient")
            return n

        for counts, client in zip(buckets, (one, two), strict=False):
            left(counts, client, give=2)
        both = threading.Barrier(2, timeout=20)
        for app in (one_app, two_app):  # each press waits for the other before it starts
            counts = app.state.limit_counts
            take = counts.take

            async def met(kind: str, client: str, take: Any = take) -> float:
                if kind == "tables":
                    import asyncio

                    await asyncio.to_thread(both.wait)
                return float(await take(kind, client))

            counts.take = met
        answers: dict[str, Any] = {}

        def press(name: str) -> None:
            if name == "page":
                answers[name] = one.post(f"/tables/{tid}/again", headers=auth(host["token"]),
                                         follow_redirects=False)
            else:
                answers[name] = two.post(f"/api/tables/{tid}/again",
                                         headers=auth(friend["token"]))

        threads = [threading.Thread(target=press, args=(n,)) for n in ("page", "api")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        for app in (one_app, two_app):
            del app.state.limit_counts.take  # the store's own again
        page, api = answers["page"], answers["api"]
        assert page.status_code == 303 and api.status_code in (200, 201), (page, api.text)
        new = api.json()["id"]
        assert page.headers["location"] == f"/tables/{new}"
        assert tables() - before == {new}  # no second table, unused
        # one table started, one counted: the press that lost gave its table back
        assert sum(left(counts, client) for counts, client in zip(
            buckets, (one, two), strict=False)) == 2 * len(buckets) - 1
        for client, token, seat in ((one, host["token"], "S"), (two, friend["token"], "N")):
            told = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
            assert told["next_game"] == new
            assert client.get(f"/api/tables/{new}", headers=auth(token)).json()["seat"] == seat


def test_two_presses_at_once_make_one_next_game_sqlite(tmp_path: Path) -> None:
    two_presses_at_once(f"sqlite:///{tmp_path / 'tables.db'}")


def test_a_next_game_named_but_never_made_is_made_by_the_next_press(tmp_path: Path) -> None:
    """The finished table names its next game before the game is made: a server stopped in
    between leaves a name without a game; the next press (or *Rejoindre*) makes it, under that
    name, once."""
    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}")
    with TestClient(app, raise_server_exceptions=False) as client:
        host = new_table(client, pace=0, target=1, friends=["N"], name="Mamie Jo")
        friend = client.post("/api/tables/join", json={"code": host["code"], "name": "Jean",
                                                       "invite": host["invites"]["N"]}).json()
        tid = host["id"]
        play_to_the_end(client, tid, [host["token"], friend["token"]], random.Random(9))
        service = app.state.tables
        make = service._create

        async def stopped(*args: Any) -> Any:  # the server stops once the name is written
            raise RuntimeError("stopped")

        service._create = stopped
        assert client.post(f"/api/tables/{tid}/again", headers=auth(host["token"])
                           ).status_code == 500
        named = client.get(f"/api/tables/{tid}", headers=auth(host["token"])).json()["next_game"]
        service._create = make
        r = client.post(f"/tables/{tid}/next-game", headers=auth(friend["token"]),
                        follow_redirects=False)
        assert r.headers["location"] == f"/tables/{named}"
        view = client.get(f"/api/tables/{named}", headers=auth(friend["token"])).json()
        assert view["seat"] == "N" and view["seats"]["N"]["name"] == "Mamie Jo"
        r = client.post(f"/api/tables/{tid}/again", headers=auth(host["token"]))
        assert (r.status_code, r.json()["id"]) == (200, named)


def test_a_table_stored_before_its_levels_were_kept_starts_a_new_game_at_its_level() -> None:
    """A table stored without ``levels`` (before they were kept): its seats' specs are read as
    the levels they stand for, never handed back as if asked for."""
    from rebelote.tableserver.service import settings_of, table_from_request

    table, _ = table_from_request({"game": "coinche", "bots": {"N": "expert", "E": "club",
                                                             "W": "heuristic"}})
    assert table.levels == ("expert", "club", "expert", "heuristic")
    stored = table.to_json()
    stored.pop("levels")
    old = type(table).from_json(stored)
    assert old.levels == ()
    body = settings_of(old, 2)
    assert body["bots"] == {"N": "expert", "E": "club", "W": "debutant"}
    again, _ = table_from_request(body)
    assert [s.bot for s in again.seats] == [s.bot for s in table.seats]


def test_belote_keeps_its_trump_in_view_and_the_last_deal_its_last_trick(client: TestClient
                                                                         ) -> None:
    """Issue 33, items 2 and 13. Belote: after a take of the turned card (round 1), the status
    line names the trump through every trick ("Contrat : prend" named none). After a game's
    last deal the felt shows its last trick and who won it, as between deals (it was empty)."""
    rng = random.Random(5)
    took = False
    for _ in range(30):  # a table where South takes the turned card in round 1
        t = new_table(client, game="belote", pace=0, bots="random", target=1)
        tid, token, view = t["id"], t["token"], t
        if "take" in view["legal"]:
            took = True
            break
    assert took
    view = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                       json={"action": "take"}).json()
    trump = {"spades": "pique", "hearts": "cœur", "diamonds": "carreau", "clubs": "trèfle"}[
        view["trump"]]
    tricks = 0
    while not view["over"]:
        if view["phase"] == "play" and view["deal"] == 1:
            html = client.get(f"/tables/{tid}/fragment", headers=auth(token)).text
            status = html.split('id="contract">')[1].split("</span>\n")[0]
            assert status.startswith(f"Atout\u00a0: {trump}") and "(Vous)" in status, status
            tricks += 1
        view = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                           json={"action": choose(view, rng)}).json()
    assert tricks == 8  # South's eight cards, each with the trump in view
    html = client.get(f"/tables/{tid}/fragment", headers=auth(token)).text
    felt = html.split('class="center"')[1].split("</section>")[0]
    last = view["last_result"]["last_trick"]
    assert len(re.findall(r'class="pc at-', felt)) == 4 and 'id="last-won"' in felt, felt
    assert all(f'class="pc at-{seat}' in felt for seat, _ in last["cards"])
    assert 'id="winner"' in html and 'id="result"' in html


def test_a_friend_types_the_join_code_on_the_home_page(client: TestClient) -> None:
    """Issue 33, item 4: the home page and the start form's page have a code field; a code
    typed as a friend would (lower case, spaces) leads to the seat choice; a malformed or an
    unknown code is answered next to the field in the page's language, never a 500."""
    r = client.post("/tables", data={"game": "coinche", "bots": "random", "pace": "300",
                                     "friends": "N"}, follow_redirects=False)
    tid = r.headers["location"].rsplit("/", 1)[1]
    code = client.get(f"/tables/{tid}").text.split('id="join-code">')[1].split("<")[0]
    friend = TestClient(client.app)
    for path in ("/", "/tables/new"):
        page = friend.get(path).text
        assert 'action="/t/find"' in page and 'id="code-field"' in page, path
        assert "Rejoindre une table avec son code" in page
    typed = f" {code[:4].lower()} {code[4:].lower()} "
    join = friend.get("/t/find", params={"code": typed})
    assert join.status_code == 200 and 'id="join"' in join.text, join.text[:300]
    assert f'action="/t/{code}"' in join.text
    bad = friend.get("/t/find", params={"code": "ABC"})
    assert bad.status_code == 422
    field = bad.text.split('id="code-field"')[1].split(">")[0]
    assert 'aria-invalid="true"' in field and "code-error" in field and 'value="ABC"' in field
    assert "Code de la table\u00a0: un code a 8 lettres et chiffres" in bad.text
    unknown = "".join("K" if ch != "K" else "M" for ch in code)
    missing = friend.get("/t/find", params={"code": unknown})
    assert missing.status_code == 404 and "aucune table en cours n’a ce code" in missing.text
    english = friend.get("/t/find", params={"code": unknown, "lang": "en"})
    assert "Table code: no table in play has this code" in english.text
    assert friend.get("/t/find", params={"code": "x" * 5000}).status_code == 422


def test_leaving_a_seat_asks_first_and_leads_back_to_the_seat_choice(client: TestClient
                                                                      ) -> None:
    """Issue 33, Build 3: "Rendre ma place au robot" and "Confier cette place à un robot" ask
    first, in the page's language, with a way to cancel; once the seat is handed back, the
    player lands on the table's seat choice (the way back: a bot's seat from the next deal),
    not on the home page."""
    r = client.post("/tables", data={"game": "coinche", "bots": "random", "pace": "300",
                                     "friends": "N"}, follow_redirects=False)
    tid = r.headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/tables/{tid}").text
    code = page.split('id="join-code">')[1].split("<")[0]
    for box, yes in (("release-confirm", "release-yes"), ("fill-confirm", "fill-bots-yes")):
        part = page.split(f'id="{box}"')[1].split("</details>")[0]
        assert f'id="{yes}"' in part and "data-close" in part, part
        assert "code\u00a0: la place d’un robot" in part, part
    assert "Garder ma place" in page and "Annuler" in page
    english = client.get(f"/tables/{tid}?lang=en").text
    assert "Keep my seat" in english and "join again with the code" in english
    r = client.post(f"/tables/{tid}/release", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/t/{code}?left=1"
    back = client.get(r.headers["location"])
    assert back.status_code == 200 and 'id="left"' in back.text and 'id="join"' in back.text
    r = client.post(f"/t/{code}", data={"name": "Jo"}, follow_redirects=False)
    assert r.headers["location"] == f"/tables/{tid}"  # seated again
    assert client.get(f"/tables/{tid}").status_code == 200
