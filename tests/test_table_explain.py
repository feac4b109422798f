"""Pourquoi ce coup ? at the play table: each bot move's explanation is kept as the bot decided
it, shown on the analysis page and in its API once the deal is over, and never before: every
view, push, fragment and page of the deal in play is scanned for it. They are stored with the
deal once it is over (never before): a server started again on the same file, or another worker
on PostgreSQL, shows them; pruning a table deletes them."""

from __future__ import annotations

import io
import json
import os
import random
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelote.bots.explain import WHY
from rebelote.commands.explain import explain_lines
from rebelote.rules import Rules, seat_step
from rebelote.store.db import make_engine
from rebelote.store.play_tables import TableStore
from rebelote.table import verify_record
from rebelote.table.analysis import solver_available
from rebelote.tableserver.explained import EXPLANATION_BYTES_ENV, Explained
from rebelote.web.app import create_app
from test_table_safety import auth, client
from test_web_postgres import pg_url

__all__ = ["auth", "client", "pg_url"]

PG_URL = os.environ.get("REBELOTE_TEST_PG_URL", "")
#: The level for people that plays the learned player (``net``, since 7 December).
LEARNED = "club"

pytestmark = pytest.mark.skipif(not solver_available(), reason="no solver in this build")

#: What an explanation says that nothing else of the table says: its sentences' words (each
#: reason's text up to its first figure, both languages) and its fields.
MARKERS = sorted({texts[lang].split("{")[0].split("\u00a0")[0][:24]
                  for texts in WHY.values() for lang in ("fr", "en")}
                 | {"Sa main", "Its hand", "candidates", "Pourquoi ce coup",
                    "Why this move", "donnes imaginées", "sans doute"}, key=len)


def no_explanation(text: str, where: str) -> None:
    found = [m for m in MARKERS if m in text]
    assert not found, f"{where} shows an explanation before the deal's end: {found}"


def play_one_deal(client: TestClient, tid: str, token: str, view: dict[str, Any],
                  in_play: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """S plays (calls first, never a declaration) until deal 1 is over and played out; each
    view, push, fragment and page scanned, and the analysis of the deal in play refused
    (``in_play`` is called after each move of deal 1 while it goes on)."""
    rng = random.Random(3)
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"token": token})
        no_explanation(str(ws.receive_json()), "the first push")
        while view["deal"] == 1 and not view["over"]:
            legal = [a for a in view["legal"] if not a.startswith(("declare", "no-decl"))]
            action = "80 hearts" if "80 hearts" in legal else rng.choice(legal)
            r = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                            json={"action": action})
            assert r.status_code == 200, r.text
            view = r.json()
            no_explanation(r.text, "a view")
            pushed = ws.receive_json()
            while pushed["version"] < view["version"]:
                no_explanation(str(pushed), "a push")
                pushed = ws.receive_json()
            no_explanation(str(pushed), "a push")
            for url in (f"/tables/{tid}/fragment", f"/tables/{tid}"):
                no_explanation(client.get(url, headers=auth(token)).text, url)
            if view["deal"] == 1:
                in_play()
                early = client.get(f"/api/tables/{tid}/deals/1/analysis", headers=auth(token))
                assert early.status_code == 404
                no_explanation(early.text, "the analysis of the deal in play")
                page = client.get(f"/tables/{tid}/deals/1/analysis", headers=auth(token))
                no_explanation(page.text, "the analysis page of the deal in play")
    return view


def test_every_bot_move_of_a_finished_deal_is_explained_and_none_before_its_end(
        client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "contree", "bots": "pimc:fast", "pace": 0,
                                         "target": 2000})
    assert r.status_code == 201, r.text
    t = r.json()
    tid, token = t["id"], t["token"]
    no_explanation(r.text, "the new table")
    view = play_one_deal(client, tid, token, t)
    rec = client.get(f"/api/tables/{tid}/deals/1.json", headers=auth(token)).json()
    got = client.get(f"/api/tables/{tid}/deals/1/analysis", headers=auth(token))
    assert got.status_code == 200
    why = got.json()["explanations"]
    # the bots' calls and cards, each explained once, in the deal's order
    step = seat_step(Rules.preset("ffb", "contree"))
    moves = [(s, b) for s, b in rec["auction"]]
    for trick in rec["tricks"]:
        moves += [("NESW"[("NESW".index(trick[0]) + i * step) % 4], c)
                  for i, c in enumerate(trick[1:])]
    bots = [m for m in moves if m[0] != "S"]
    assert [(e["seat"], e["action"]) for e in why] == bots
    assert [e["index"] for e in why] == sorted(e["index"] for e in why)
    for e in why:
        assert e["level"] == "pimc:fast" and e["action"] in [c["action"] for c in e["candidates"]]
        assert e["knew"][0].startswith("Sa main")
        searched = [c for c in e["candidates"] if c["mark"] is not None]
        assert all(c["worlds"] > 0 for c in searched)
    assert any(len(e["candidates"]) > 1 for e in why)
    en = client.get(f"/api/tables/{tid}/deals/1/analysis?lang=en", headers=auth(token)).json()
    assert [e["action"] for e in en["explanations"]] == [e["action"] for e in why]
    assert en["explanations"][0]["knew"][0].startswith("Its hand")
    # the page: the section, each bot move's sentence, a card's cost beside its reason
    client.cookies.set("rebelote_keys", f"{tid}.{token}")
    page = client.get(f"/tables/{tid}/deals/1/analysis").text
    assert "Pourquoi ce coup\u00a0?" in page and page.count("<details>") == len(why)
    assert "Coût dans la vraie donne" in page
    for e in why:
        assert e["why"].replace("'", "&#39;") in page
    assert view["deal"] >= 2 or view["over"]
    # the deal's record holds them, as rebelote explain reads them
    assert rec["explanations"] and verify_record(rec)["verified"] is True
    out = io.StringIO()
    assert explain_lines(io.StringIO(json.dumps(rec) + "\n"), out, lang="en") == 0
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [(x["seat"], x["action"], x["why"]) for x in lines] == [
        (e["seat"], e["action"], e["why"]) for e in en["explanations"]]


def test_the_learned_players_moves_are_explained_by_its_network_and_its_search(
        client: TestClient) -> None:
    """A table of the learned player (``club`` plays ``net``): its calls and first cards say
    the network's preferences (each move's share, its expected mark), its last cards the
    search's worlds; on the page, the network's column and its one line of help."""
    r = client.post("/api/tables", json={"game": "coinche", "bots": LEARNED, "pace": 0,
                                         "target": 2000})
    assert r.status_code == 201, r.text
    t = r.json()
    tid, token = t["id"], t["token"]
    play_one_deal(client, tid, token, t)
    got = client.get(f"/api/tables/{tid}/deals/1/analysis", headers=auth(token))
    why = got.json()["explanations"]
    assert why and all(e["level"] == "net" for e in why)  # the spec the level plays
    first = WHY["net"]["fr"].split("{")[0]
    by_net = [e for e in why if e["why"].startswith(first)]
    searched = [e for e in why if any(c["mark"] is not None for c in e["candidates"])]
    assert by_net and searched
    for e in by_net:
        shares = [c["share"] for c in e["candidates"]]
        assert e["candidates"][0]["action"] == e["action"]
        # each share is written to 3 decimals: their sum may pass 1 by half a thousandth each
        assert all(s is not None and 0 < s <= 1 for s in shares)
        assert sum(shares) <= 1 + 0.0005 * len(shares) + 1e-9
        assert shares == sorted(shares, reverse=True)
        said = re.search(r"\((\d+)\u00a0% de sa préférence\)", e["why"])
        assert said and abs(int(said[1]) - 100 * shares[0]) <= 0.51  # shares[0] to 3 places
    for e in searched:
        assert all(c["share"] is None and c["worlds"] == 24 for c in e["candidates"]
                   if c["mark"] is not None)
    en = client.get(f"/api/tables/{tid}/deals/1/analysis?lang=en", headers=auth(token)).json()
    assert any(e["why"].startswith("The learned network's first choice (")
               for e in en["explanations"])
    client.cookies.set("rebelote_keys", f"{tid}.{token}")
    page = client.get(f"/tables/{tid}/deals/1/analysis").text
    assert page.count("<details>") == len(why) and 'id="why-net"' in page
    assert page.count("Part de la préférence du réseau") == sum(
        len(e["candidates"]) > 1 for e in by_net)
    for e in by_net:
        assert e["why"].replace("'", "&#39;") in page


def test_a_deal_whose_explanations_were_not_kept_says_so(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "contree", "bots": "heuristic", "pace": 0})
    t = r.json()
    play_one_deal(client, t["id"], t["token"], t)
    app: Any = client.app
    # a worker stopped before the deal's end: nothing stored, nothing in memory
    app.state.tables.explained = type(app.state.tables.explained)()
    with app.state.tables.db.store.engine.begin() as conn:
        assert conn.exec_driver_sql("DELETE FROM table_explanations").rowcount > 0
    got = client.get(f"/api/tables/{t['id']}/deals/1/analysis", headers=auth(t["token"]))
    assert got.status_code == 200 and got.json()["explanations"] == []
    client.cookies.set("rebelote_keys", f"{t['id']}.{t['token']}")
    page = client.get(f"/tables/{t['id']}/deals/1/analysis").text
    assert 'id="why-none"' in page and "n’a été gardée" in page


def stored(url: str, tid: str, n: int = 1) -> list[tuple[int, str]]:
    store = TableStore(make_engine(url))
    try:
        return store.explanations(tid, n)
    finally:
        store.close()


def explained_via(client: TestClient, tid: str, token: str) -> tuple[list[Any], list[Any]]:
    """Deal 1's explanations from the analysis API, and from the deal's record."""
    got = client.get(f"/api/tables/{tid}/deals/1/analysis", headers=auth(token))
    assert got.status_code == 200, got.text
    rec = client.get(f"/api/tables/{tid}/deals/1.json", headers=auth(token)).json()
    return got.json()["explanations"], rec.get("explanations", [])


def test_the_explanations_are_stored_with_the_deal_and_shown_after_a_restart(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    with TestClient(create_app(url)) as first:
        t = first.post("/api/tables", json={"game": "contree", "bots": "pimc:fast",
                                            "pace": 0, "target": 2000}).json()
        tid, token = t["id"], t["token"]

        def nothing_stored() -> None:  # the deal goes on: its explanations are not stored
            assert stored(url, tid) == []

        play_one_deal(first, tid, token, t, nothing_stored)
        before, in_record = explained_via(first, tid, token)
    assert before and in_record and len(stored(url, tid)) == len(before)
    with TestClient(create_app(url)) as again:  # the server started again on the same file
        after, record_after = explained_via(again, tid, token)
        assert after == before and record_after == in_record
        again.cookies.set("rebelote_keys", f"{tid}.{token}")
        page = again.get(f"/tables/{tid}/deals/1/analysis").text
        assert "Pourquoi ce coup\u00a0?" in page and page.count("<details>") == len(after)
    # pruning the table deletes its explanations with it
    store = TableStore(make_engine(url))
    assert store.prune(datetime.now(UTC) + timedelta(days=1)) == 1
    store.close()
    assert stored(url, tid) == []


def test_an_explanation_over_the_size_cap_is_not_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = Explained()
    kept._kept["t"] = {1: {3: {"seat": "N", "why": "only", "knew": "x" * 2000}, 4: {"a": 1}}}
    assert [i for i, _ in kept.rows("t", 1)] == [3, 4]
    monkeypatch.setenv(EXPLANATION_BYTES_ENV, "1024")
    assert [i for i, _ in kept.rows("t", 1)] == [4]


@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set: no PostgreSQL server")
def test_another_worker_shows_the_explanations_on_postgresql(pg_url: str) -> None:
    with TestClient(create_app(pg_url)) as one, TestClient(create_app(pg_url)) as two:
        t = one.post("/api/tables", json={"game": "contree", "bots": "pimc:fast", "pace": 0,
                                          "target": 2000}).json()
        tid, token = t["id"], t["token"]

        def nothing_stored() -> None:
            assert stored(pg_url, tid) == []
            got = two.get(f"/api/tables/{tid}/deals/1/analysis", headers=auth(token))
            assert got.status_code == 404
            no_explanation(got.text, "the other worker's analysis of the deal in play")

        play_one_deal(one, tid, token, t, nothing_stored)
        mine, _ = explained_via(one, tid, token)
        assert mine
        for _ in range(100):  # written as the deal ended, by a task of worker one
            if len(stored(pg_url, tid)) == len(mine):
                break
            time.sleep(0.05)
        theirs, in_record = explained_via(two, tid, token)  # worker two never held them
        assert theirs == mine and [e["index"] for e in in_record] == [e["index"] for e in mine]
        assert two.app.state.tables.explained.is_read(tid, 1)  # type: ignore[attr-defined]
    store = TableStore(make_engine(pg_url))  # rebelote prune-tables on PostgreSQL
    assert store.prune(datetime.now(UTC) + timedelta(days=1)) >= 1
    store.close()
    assert stored(pg_url, tid) == []
