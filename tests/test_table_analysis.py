"""Analysis of a finished deal with the double-dummy solver: each card's cost against the best
card, in card points and in the deal's mark; the API and the page that show it. Without the
solver in the build, the route says so (404 naming it)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rebelote.bots import make_bot
from rebelote.deal import DealState
from rebelote.rules import Rules
from rebelote.table.analysis import analyse, solver_available
from rebelote.web.app import create_app


def played_deal(game: str, seed: int, name: str = "official") -> DealState:
    rules = Rules.preset(name, game)
    rng = random.Random(seed)
    bot = make_bot("random")
    while True:
        state = DealState.new(rules, 0, rng=rng)
        while not state.is_terminal:
            seat = state.current_player
            state = state.apply(bot.act(state.observation(seat), rng))
        if not state.is_void:
            return state


@pytest.mark.skipif(not solver_available(), reason="rebelote.solver is not in this build")
@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_each_card_is_valued_against_the_best(game: str) -> None:
    state = played_deal(game, 4)
    cards = analyse(state)
    assert len(cards) == 32
    for item in cards:
        assert item["best"] == max(item["values"].values())
        assert item["value"] == item["values"][item["card"]]
        assert item["cost"] == item["best"] - item["value"] >= 0
        if item["cost"] == 0:
            assert item["mark_cost"] == 0
    # random bots: some card cost something, and the mark cost has the cost's sign
    assert any(item["cost"] > 0 for item in cards)
    assert all(item["mark_cost"] >= 0 for item in cards)
    last = cards[-1]  # no choice is left: its value is what its team really made
    team = "NESW".index(last["seat"]) & 1
    assert last["value"] == state.summary().points[team]


@pytest.mark.skipif(not solver_available(), reason="rebelote.solver is not in this build")
@pytest.mark.parametrize(("name", "game", "seed"), [("official", "belote", 7),
                                                    ("official", "coinche", 8),
                                                    ("house", "coinche", 9)])
def test_the_last_four_tricks_agree_with_the_plain_solver(name: str, game: str,
                                                          seed: int) -> None:
    """The analysis' values of every card of the last four tricks are the plain reference
    solver's, on the position rebuilt from the deal's own tricks."""
    from rebelote.cards import SEATS, parse_card
    from rebelote.rules import trick_points
    from rebelote.solver import Position, solve_reference

    rules = Rules.preset(name, game)
    state = played_deal(game, seed, name)
    cards = analyse(state)
    hands = list(state.start_hands)
    points, won = [0, 0], [0, 0]
    for number, (leader, trick) in enumerate(state.tricks, start=1):
        for i, card in enumerate(trick):
            seat = (leader + i * state.step) % 4
            if number >= 5:
                item = cards[(number - 1) * 4 + i]
                assert SEATS.index(item["seat"]) == seat
                assert parse_card(item["card"]) == card
                pos = Position.make(hands, state.trump, leader, trick[:i], points, won, rules)
                want = solve_reference(pos, rules)
                assert {parse_card(c): v for c, v in item["values"].items()} == want
            hands[seat] &= ~(1 << card)
        winner = state.tricks[number][0] if number < 8 else state.leader
        points[winner & 1] += trick_points(trick, state.trump, rules)
        won[winner & 1] += 1


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}"))


def test_the_analysis_route_and_page(client: TestClient) -> None:
    t = client.post("/api/tables", json={"game": "coinche", "bots": "random"}).json()
    headers = {"Authorization": f"Bearer {t['token']}"}
    view = t
    rng = random.Random(1)
    while not view["last_result"] or view["last_result"]["outcome"] == "void":
        legal = view["legal"]
        action = "80 hearts" if "80 hearts" in legal else rng.choice(
            [a for a in legal if a != "no-declaration"])
        view = client.post(f"/api/tables/{t['id']}/actions", headers=headers,
                           json={"action": action}).json()
    n = view["last_result"]["deal"]
    r = client.get(f"/api/tables/{t['id']}/deals/{n}/analysis", headers=headers)
    unfinished = client.get(f"/api/tables/{t['id']}/deals/{n + 5}/analysis", headers=headers)
    assert unfinished.status_code == 404 and "not finished" in unfinished.json()["error"]
    assert client.get(f"/api/tables/{t['id']}/deals/{n}/analysis").status_code == 403
    if not solver_available():
        assert r.status_code == 404 and "solver" in r.json()["error"]
        return
    assert r.status_code == 200 and len(r.json()["cards"]) == 32
    client.cookies.set("rebelote_keys", f"{t['id']}.{t['token']}")
    page = client.get(f"/tables/{t['id']}/deals/{n}/analysis")
    assert page.status_code == 200 and 'id="analysis"' in page.text
    assert page.text.count("<tr") >= 33


@pytest.mark.skipif(not solver_available(), reason="rebelote.solver is not in this build")
def test_a_long_solve_never_stalls_the_other_tables(tmp_path: Path) -> None:
    """While the solver is taken (its lock held, as by an analysis's full-deal solve, which
    can take seconds), a table of quick bots plays on (they never wait on the solver, and the
    search lets the event loop run), and a table of searching bots plays on too: a move the
    search cannot make within the bots' time limit is the random bot's."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}")) as client:  # one loop
        _play_while_the_solver_is_taken(client)


def _play_while_the_solver_is_taken(client: TestClient) -> None:
    import threading

    import rebelote.solver as solver

    client.app.state.tables.bot_timeout = 0.3  # type: ignore[attr-defined]
    tables = {bots: client.post("/api/tables", json={"game": "coinche", "bots": bots}).json()
              for bots in ("heuristic", "pimc:fast")}
    played: dict[str, list[dict[str, object]]] = {bots: [] for bots in tables}

    def play(bots: str) -> None:
        t = tables[bots]
        view = t
        for _ in range(3):
            if view["over"]:
                break
            legal = [a for a in view["legal"] if a != "no-declaration"]
            r = client.post(f"/api/tables/{t['id']}/actions", json={"action": legal[0]},
                            headers={"Authorization": f"Bearer {t['token']}"})
            assert r.status_code == 200, r.text
            view = r.json()
            played[bots].append(view)

    with solver._LOCK:
        threads = [threading.Thread(target=play, args=(bots,)) for bots in tables]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=30)
        assert not any(th.is_alive() for th in threads), "a table waited on the solver"
    for bots, views in played.items():
        assert views, bots
        assert all(v["turn"] == "S" or v["over"] for v in views), bots


@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_a_final_value_of_zero_is_the_other_team_s_capot_only_if_the_team_won_no_trick(
        game: str) -> None:
    """The solver counts card points: 0 for a team is the other team's capot, or tricks of
    cards worth nothing. Once the team has won a trick, 0 is every point to the other team and
    no capot."""
    import dataclasses

    from rebelote.scoring import score_deal
    from rebelote.table.analysis import _margin

    state = played_deal(game, 11)
    rules, summary = state.rules, state.summary()
    total = rules.deal_total(state.trump)
    capot_total = rules.capot_total(state.trump)
    differ = []
    for team in (0, 1):
        def margin(points: tuple[int, int], capot: str | None, team: int = team) -> int:
            changed = dataclasses.replace(summary, points=points, capot=capot,
                                          generale=summary.generale and capot == summary.taker)
            marks = score_deal(changed, rules).score
            return marks[team] - marks[1 - team]

        other = ("NS", "EW")[1 - team]
        beaten = (0, capot_total) if team == 0 else (capot_total, 0)
        shut_out = (0, total) if team == 0 else (total, 0)
        assert _margin(state, team, 0) == margin(beaten, other)
        assert _margin(state, team, 0, won=1) == margin(shut_out, None)
        differ.append(_margin(state, team, 0, won=1) != _margin(state, team, 0))
    assert any(differ)  # a capot is worth more than every point (to one team at least)
