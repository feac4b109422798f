"""Un conseil: a hint at the player's turn, the table's level's choice and its sentence from the
seat's observation alone (the hidden cards dealt otherwise give the same hint), allowed by the
table's creator (off by default in a room with friends), counted on the table's sheet."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from rebelote.actions import OVER
from rebelote.bots import make_bot
from rebelote.deal import DealState
from rebelote.rules import Rules
from rebelote.table import Seat, Table
from rebelote.table.hint import hint_for, hint_seed
from test_table_safety import auth, client

__all__ = ["client"]

#: The level club: the learned player (its endgame searched over counted worlds), the same
#: choice for the same observation.
CLUB = "net"


def test_the_hidden_cards_dealt_otherwise_give_the_same_hint() -> None:
    """At S's turns of a deal, every deal of the hidden cards consistent with what S sees
    (its observation the same) gives the same hint as the real deal."""
    rules = Rules.preset("official", "coinche")
    table = Table.new(rules, seats=[Seat.bot_seat(CLUB)] * 4, entropy=lambda: ("7", "salt"))
    state = table.deal
    heuristic = make_bot("heuristic")
    compared = 0
    while state.phase != OVER and compared < 4:
        obs = state.observation(state.player)
        if state.player == 2 and len(obs.legal) > 1:
            real = hint_for(obs, CLUB)
            for k in range(3):
                world = DealState.from_observation(obs, random.Random(k))
                assert world.hands != state.hands  # the others' cards dealt otherwise
                seen = world.observation(2)
                assert hint_seed(seen) == hint_seed(obs)
                again = hint_for(seen, CLUB)
                assert again.to_json("fr") == real.to_json("fr")
            compared += 1
        state = state.apply(heuristic.act(obs, random.Random(0)))
    assert compared >= 2


def s_turn(client: TestClient, t: dict[str, Any]) -> dict[str, Any]:
    view, rng = t, random.Random(2)
    while not view["legal"] or len(view["legal"]) < 2:
        legal = view["legal"]
        view = client.post(f"/api/tables/{t['id']}/actions", headers=auth(t["token"]),
                           json={"action": rng.choice(legal)}).json()
    return view


def test_a_hint_at_your_turn_is_the_levels_move_with_its_sentence_and_is_counted(
        client: TestClient) -> None:
    t = client.post("/api/tables", json={"game": "contree", "bots": "club"}).json()
    tid, token = t["id"], t["token"]
    assert t["hints"] == {"allowed": True, "taken": {"N": 0, "E": 0, "S": 0, "W": 0}}
    view = s_turn(client, t)
    r = client.post(f"/api/tables/{tid}/hint", headers=auth(token))
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["action"] in view["legal"] and hint["level"] == CLUB
    assert hint["why"] and hint["knew"][0].startswith("Sa main")
    assert hint["action"] in [c["action"] for c in hint["candidates"]]
    again = client.post(f"/api/tables/{tid}/hint?lang=en", headers=auth(token)).json()
    assert again["action"] == hint["action"] and again["knew"][0].startswith("Its hand")
    now = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
    assert now["hints"]["taken"]["S"] == 1  # asked twice at one decision: one hint
    view = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                       json={"action": hint["action"]}).json()
    view = s_turn(client, view | {"id": tid, "token": token})
    assert client.post(f"/api/tables/{tid}/hint", headers=auth(token)).status_code == 200
    assert client.get(f"/api/tables/{tid}", headers=auth(token)).json()["hints"]["taken"][
        "S"] == 2
    assert client.post(f"/api/tables/{tid}/hint").status_code == 403
    # the score sheet counts them once the deal is over
    rng = random.Random(4)
    while view["deal"] == 1:
        view = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                           json={"action": rng.choice(view["legal"])}).json()
    client.cookies.set("rebelote_keys", f"{tid}.{token}")
    html = client.get(f"/tables/{tid}/fragment").text
    taken = html[html.find('id="hints-taken"'):]
    assert taken.startswith('id="hints-taken">Conseils pris') and "Vous 2</p>" in taken[:60]


def test_hints_are_the_creators_choice_off_by_default_with_friends(client: TestClient) -> None:
    room = client.post("/api/tables", json={"game": "coinche", "friends": ["N"],
                                            "bots": "debutant"}).json()
    assert room["hints"]["allowed"] is False
    r = client.post(f"/api/tables/{room['id']}/hint", headers=auth(room["token"]))
    assert r.status_code == 422 and "did not allow hints" in r.json()["error"]
    on = client.post("/api/tables", json={"game": "coinche", "friends": ["N"], "hints": True,
                                          "bots": "debutant"}).json()
    assert on["hints"]["allowed"] is True
    off = client.post("/api/tables", json={"game": "coinche", "hints": False}).json()
    assert off["hints"]["allowed"] is False
    bad = client.post("/api/tables", json={"game": "coinche", "hints": "yes"})
    assert bad.status_code == 422 and bad.json()["error"].startswith("hints")


def test_no_hint_out_of_your_turn(client: TestClient) -> None:
    t = client.post("/api/tables", json={"game": "coinche", "bots": "debutant",
                                         "pace": 5000}).json()
    assert t["turn"] != "S"
    r = client.post(f"/api/tables/{t['id']}/hint", headers=auth(t["token"]))
    assert r.status_code == 409 and "your turn" in r.json()["error"]
    assert client.get(f"/api/tables/{t['id']}", headers=auth(t["token"])).json()[
        "hints"]["taken"]["S"] == 0
