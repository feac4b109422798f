"""Pourquoi ce coup ? at the play table: each bot move's explanation is kept as the bot decided
it, shown on the analysis page and in its API once the deal is over, and never before: every
view, push, fragment and page of the deal in play is scanned for it."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelote.bots.explain import WHY
from rebelote.commands.explain import explain_lines
from rebelote.rules import Rules, seat_step
from rebelote.table import verify_record
from rebelote.table.analysis import solver_available
from test_table_safety import auth, client

__all__ = ["auth", "client"]

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


def play_one_deal(client: TestClient, tid: str, token: str, view: dict[str, Any]
                  ) -> dict[str, Any]:
    """S plays (calls first, never a declaration) until deal 1 is over and played out; each
    view, push, fragment and page scanned, and the analysis of the deal in play refused."""
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


def test_a_deal_whose_explanations_were_not_kept_says_so(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "contree", "bots": "heuristic", "pace": 0})
    t = r.json()
    play_one_deal(client, t["id"], t["token"], t)
    app: Any = client.app
    app.state.tables.explained = type(app.state.tables.explained)()  # a worker started again
    got = client.get(f"/api/tables/{t['id']}/deals/1/analysis", headers=auth(t["token"]))
    assert got.status_code == 200 and got.json()["explanations"] == []
    client.cookies.set("rebelote_keys", f"{t['id']}.{t['token']}")
    page = client.get(f"/tables/{t['id']}/deals/1/analysis").text
    assert 'id="why-none"' in page and "n’a été gardée" in page
