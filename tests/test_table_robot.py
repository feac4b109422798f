"""Le robot à votre place: a finished deal played again with the table's level in the human's
seat (rebelote.table.robot), kept by the table server after the deal and shown on the analysis
page and in its API, never before the deal ends; the bots' pool serves it last. Stored with
the deal once done (never before): a server started again on the same file, or another worker
on PostgreSQL, shows it; pruning a table deletes it."""

from __future__ import annotations

import itertools
import os
import random
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelote.actions import Play, parse_action
from rebelote.bots import level_of_spec
from rebelote.catalogs import signed
from rebelote.rules import Rules
from rebelote.store.db import make_engine
from rebelote.store.play_tables import TableStore
from rebelote.table.analysis import analyse, solver_available
from rebelote.table.model import Seat, Table
from rebelote.table.robot import RobotReplay, counted_spec_bot, decision_seed
from rebelote.tableserver.bots import FairPool
from rebelote.web.app import create_app
from test_table_safety import auth, client
from test_web_postgres import pg_url

__all__ = ["auth", "client", "pg_url"]

PG_URL = os.environ.get("REBELOTE_TEST_PG_URL", "")

pytestmark = pytest.mark.skipif(not solver_available(), reason="no solver in this build")

HUMAN = 2  # S
LEVEL = "pimc:fast+tuned"
OTHERS = "heuristic"


def entropy() -> Any:
    seeds = iter([(f"seed{i}", f"salt{i}") for i in range(100)])
    return lambda: next(seeds)


def finished_table(human_move: Any) -> Table:
    """A coinche table: S a human playing ``human_move(table, index)``, the others the
    heuristic, played until deal 1 is over."""
    deal = entropy()
    seats = [Seat.bot_seat(OTHERS)] * 4
    seats[HUMAN] = Seat.human("secret", LEVEL)
    table = Table.new(Rules.preset("official", "coinche"), 3000, seats, entropy=deal)
    heuristic = counted_spec_bot(OTHERS)
    rng = random.Random(7)
    while not table.replay.finished:
        if table.turn == HUMAN:
            action = human_move(table, len(table.current.actions))
        else:
            action = table.bot_action(heuristic, rng)
        table = table.act(table.turn, action, entropy=deal)
    return table


def level_move(table: Table, index: int) -> str:
    """What the replay's level chooses at S at action ``index`` of the deal in play."""
    rng = random.Random(decision_seed(table.current.seed, HUMAN, index))
    return str(counted_spec_bot(LEVEL).act(table.deal.observation(HUMAN), rng))


def test_the_human_who_plays_the_levels_every_choice_differs_nowhere() -> None:
    table = finished_table(level_move)
    replay = RobotReplay(table, 1, HUMAN, LEVEL)
    got = replay.run()
    assert got["difference"] is None
    assert replay.actions == list(table.deals[0].actions)
    assert got["real"] == got["robot"] and got["gain"] == 0


def first_card_elsewhere(deviated: list[int]) -> Any:
    """The level's choice, but S's first card with a choice is another legal card (its index
    put in ``deviated``)."""
    def move(table: Table, index: int) -> str:
        chosen = level_move(table, index)
        others = [str(a) for a in table.deal.legal_actions()
                  if isinstance(a, Play) and str(a) != chosen]
        if isinstance(parse_action(chosen), Play) and others and not deviated:
            deviated.append(index)
            return others[0]
        return chosen
    return move


def _seats(table: Table, n: int = 0) -> list[int]:
    """The seat of each action of deal ``n`` (from 1; 0: the deal in play), replayed."""
    log = table.deals[n - 1] if n else table.current
    state = Table.new(table.rules, table.target, table.seats,
                      entropy=lambda: (log.seed, log.salt)).deal
    out = []
    for text in log.actions:
        out.append(state.current_player)
        state = state.apply(parse_action(text))
    return out


def test_the_first_difference_is_the_humans_first_other_choice_with_both_costs() -> None:
    deviated: list[int] = []
    table = finished_table(first_card_elsewhere(deviated))
    replay = RobotReplay(table, 1, HUMAN, LEVEL)
    got = replay.run()
    played = list(table.deals[0].actions)
    assert _seats(table, 1)[deviated[0]] == HUMAN
    i = deviated[0]  # S's first card with a choice (the level's every choice before it)
    d = got["difference"]
    assert d is not None and d["index"] == i and d["kind"] == "card"
    assert d["number"] == sum(isinstance(parse_action(a), Play) for a in played[:i]) + 1
    assert d["you"] == played[i] and d["robot"] == replay.actions[i] != played[i]
    assert replay.actions[:i] == played[:i]  # the same deal up to there
    k = sum(isinstance(parse_action(a), Play) for a in played[:i])
    real = analyse(table.replay.finished[0])[k]
    assert real["card"] == played[i]
    assert d["you_cost"] == real["cost"] and d["you_mark_cost"] == real["mark_cost"]
    assert d["robot_cost"] == real["best"] - real["values"][d["robot"]]


def test_the_replay_is_the_same_twice_from_the_same_cards_with_the_bot_only_in_the_seat(
        ) -> None:
    def move(t: Table, i: int) -> str:  # the level's calls, random cards
        chosen = level_move(t, i)
        if not isinstance(parse_action(chosen), Play):
            return chosen
        return str(random.Random(i).choice(t.deal.legal_actions()))

    table = finished_table(move)
    assert table.replay.finished[0].tricks  # a deal played out
    one, two = RobotReplay(table, 1, HUMAN, LEVEL), RobotReplay(table, 1, HUMAN, LEVEL)
    assert one.run() == two.run()
    assert one.actions == two.actions
    real = table.replay.finished[0]
    assert one.state.start_hands == real.start_hands
    assert one.state.dealer == real.dealer
    for seat, by in zip(one.seats, one.chosen_by, strict=True):
        if seat == HUMAN:
            assert by == LEVEL
        else:  # the real deal's move while the same, else the seat's own bot
            assert by in (None, OTHERS)
    assert LEVEL in one.chosen_by


def test_a_level_limited_in_time_replays_its_counted_equivalent() -> None:
    bot: Any = counted_spec_bot("pimc:default+tuned")
    assert bot.budget.seconds is None and bot.budget.bid_seconds is None
    assert bot.budget.worlds == 32


def test_the_pool_serves_the_work_after_the_deal_last() -> None:
    pool = FairPool(1)
    gate, order = threading.Event(), []
    pool.submit("a", "t1", gate.wait)
    ahead = pool.submit("ahead", "t4", order.append, "ahead", low=2)  # (during a deal)
    low = pool.submit("robot", "t2", order.append, "low", low=True)
    live = pool.submit("b", "t3", order.append, "live")
    gate.set()
    for job in (ahead, low, live):
        job.result(timeout=30)
    assert order == ["live", "low", "ahead"]
    pool.shutdown()


MARKERS = ("difference", "robot-first", "robot-marks", "Le robot à votre place",
           "The bot in your seat", "robot-sum")


def no_replay(text: str, where: str) -> None:
    found = [m for m in MARKERS if m in text]
    assert not found, f"{where} shows the replay before the deal's end: {found}"


def test_the_analysis_shows_the_replay_after_the_deal_and_nothing_of_it_before(
        client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "coinche", "bots": "pimc:fast", "pace": 0,
                                         "target": 3000})
    assert r.status_code == 201, r.text
    t = r.json()
    tid, token = t["id"], t["token"]
    play_deal_1(client, tid, token, t)
    got = replay_via(client, tid, token)
    assert got is not None and got["robot"] is not None
    robot = got["robot"]
    level = level_of_spec(robot["level"])
    assert robot["seat"] == "S" and level is not None and level.key == "club"
    assert got["robot_sum"] == {"gain": robot["gain"], "deals": 1, "level": robot["level"]}
    page = client.get(f"/tables/{tid}/deals/1/analysis", headers=auth(token)).text
    assert 'id="robot-marks"' in page and 'id="robot-first"' in page
    assert "Le robot à votre place" in page
    assert f"Vous\u00a0: {signed(robot['gain'], 'fr')} sur le robot club en 1 donne" in page
    fragment = client.get(f"/tables/{tid}/fragment", headers=auth(token)).text
    assert f"Vous\u00a0: {signed(robot['gain'], 'fr')} sur le robot club en 1 donne" in fragment
    english = client.get(f"/tables/{tid}/deals/1/analysis?lang=en", headers=auth(token)).text
    assert "The bot in your seat" in english
    assert f"You: {signed(robot['gain'], 'en')} over the club bot in 1 deal" in english


def test_the_replays_waiting_are_bounded_and_each_is_kept_by_table_deal_and_seat() -> None:
    import asyncio
    from dataclasses import replace

    from rebelote.tableserver.bots import BotRunner
    from rebelote.tableserver.robot import Robots

    after = finished_table(level_move)
    first = after.deals[0]
    before = replace(after, deals=(replace(first, actions=first.actions[:-1]),))
    assert not before.replay.finished

    async def main() -> Robots:
        runner = BotRunner(workers=1)
        robots = Robots(runner)
        robots.pending = 1
        robots.saved("t", before, after)
        robots.saved("u", before, after)  # one waits already: not replayed
        assert robots.skipped == 1
        while robots._tasks:
            await asyncio.sleep(0.05)
        runner.close()
        return robots

    robots = asyncio.run(main())
    got = robots.of("t", 1, HUMAN)
    assert got == RobotReplay(after, 1, HUMAN, LEVEL).run()
    assert robots.of("u", 1, HUMAN) is None and robots.of("t", 1, 0) is None
    assert robots.running("t", HUMAN, 1) == {"gain": 0, "deals": 1, "level": LEVEL}


def test_a_replay_ahead_whose_deal_ends_goes_before_the_other_work_ahead() -> None:
    pool = FairPool(1)
    gate, order = threading.Event(), []
    pool.submit("a", "t1", gate.wait)
    first = pool.submit("(replay t 2 2)", "t", order.append, "next deal's, ahead", low=2)
    ended = pool.submit("(replay u 1 2)", "u", order.append, "its deal ended", low=2)
    pool.rerank("(replay u 1 2)", 1)  # BotRunner.promote: its deal is over
    gate.set()
    for job in (first, ended):
        job.result(timeout=30)
    assert order == ["its deal ended", "next deal's, ahead"]
    pool.shutdown()


def test_work_after_the_deal_gives_its_worker_up_to_a_live_decision_between_two_worlds(
        ) -> None:
    pool = FairPool(1)
    started, go, order = threading.Event(), threading.Event(), []

    def replaying() -> None:  # a search of the replay: a checkpoint between two worlds
        started.set()
        go.wait()
        pool.checkpoint("robot")
        order.append("low, its next world")

    low = pool.submit("robot", "t1", replaying, low=True)
    started.wait()
    live = pool.submit("a", "t2", order.append, "live")
    go.set()
    low.result(timeout=30)
    live.result(timeout=30)
    assert order == ["live", "low, its next world"]
    pool.shutdown()


def tables_of_deal_1(human_move: Any) -> list[Table]:
    """Each version of :func:`finished_table`'s table, from its first to the end of deal 1."""
    deal = entropy()
    seats = [Seat.bot_seat(OTHERS)] * 4
    seats[HUMAN] = Seat.human("secret", LEVEL)
    table = Table.new(Rules.preset("official", "coinche"), 3000, seats, entropy=deal)
    heuristic = counted_spec_bot(OTHERS)
    rng = random.Random(7)
    out = [table]
    while not table.replay.finished:
        if table.turn == HUMAN:
            action = human_move(table, len(table.current.actions))
        else:
            action = table.bot_action(heuristic, rng)
        table = table.act(table.turn, action, entropy=deal)
        out.append(table)
    return out


def test_the_replay_goes_ahead_during_the_deal_and_gives_nothing_out_before_its_end() -> None:
    """The deal's replay started ahead, save by save: the level's choice at each of the
    human's turns made while the human thinks, the rest of the replay once the human's move
    differs, so that the deal's end finds it done; the same comparison as a replay run after
    the deal, and none given out before."""
    import asyncio

    from rebelote.tableserver.bots import BotRunner
    from rebelote.tableserver.robot import Robots

    deviated: list[int] = []
    versions = tables_of_deal_1(first_card_elsewhere(deviated))
    after = versions[-1]
    key = ("t", 1, HUMAN)

    async def main() -> tuple[Robots, list[bool]]:
        runner = BotRunner(workers=1)
        robots = Robots(runner)
        done_before_end: list[bool] = []

        async def idle() -> None:
            while robots._running:
                await asyncio.sleep(0.01)

        for before, now in itertools.pairwise(versions):
            robots.saved("t", before, now)
            await idle()
            if not now.replay.finished:
                assert robots.of("t", 1, HUMAN) is None
                assert robots.running("t", HUMAN, 1) is None
                replay = robots._replays[key]
                if now.turn == HUMAN:  # the level chose already, while the human thinks
                    assert replay.ahead is not None or replay.differs is not None
                done_before_end.append(replay.done)
        await idle()
        runner.close()
        return robots, done_before_end

    robots, done_before_end = asyncio.run(main())
    assert deviated and done_before_end[-1]  # the replay was over before the deal was
    assert not done_before_end[deviated[0] - 1]
    assert robots.of("t", 1, HUMAN) == RobotReplay(after, 1, HUMAN, LEVEL).run()
    assert list(robots._replays) == [("t", 2, HUMAN)] and not robots._ended  # deal 2's, ahead


def stored(url: str, tid: str) -> list[tuple[int, int, str]]:
    store = TableStore(make_engine(url))
    try:
        return store.replays(tid)
    finally:
        store.close()


def play_deal_1(client: TestClient, tid: str, token: str, view: dict[str, Any],
                in_play: Callable[[], None] = lambda: None) -> None:
    """S plays at random (never a declaration) until deal 1 is over: each view, push, fragment
    and page of the deal in play scanned for the replay, its analysis refused, ``in_play``
    called after each move while it goes on."""
    rng = random.Random(4)
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        ws.send_json({"token": token})
        no_replay(str(ws.receive_json()), "the first push")
        while view["deal"] == 1:
            legal = [a for a in view["legal"] if not a.startswith(("declare", "no-decl"))]
            r = client.post(f"/api/tables/{tid}/actions", headers=auth(token),
                            json={"action": rng.choice(legal)})
            assert r.status_code == 200, r.text
            view = r.json()
            pushed = ws.receive_json()
            while pushed["version"] < view["version"]:
                no_replay(str(pushed), "a push")
                pushed = ws.receive_json()
            if view["deal"] == 1:
                no_replay(r.text, "a view")
                no_replay(str(pushed), "a push")
                for url in (f"/tables/{tid}/fragment", f"/tables/{tid}",
                            f"/tables/{tid}/deals/1/analysis"):
                    no_replay(client.get(url, headers=auth(token)).text, url)
                early = client.get(f"/api/tables/{tid}/deals/1/analysis", headers=auth(token))
                assert early.status_code == 404
                no_replay(early.text, "the analysis of the deal in play")
                in_play()


def replay_via(client: TestClient, tid: str, token: str) -> dict[str, Any]:
    """Deal 1's analysis once its replay is there."""
    got: dict[str, Any] = {}
    for _ in range(600):  # it runs in the background, when the bots are free
        got = client.get(f"/api/tables/{tid}/deals/1/analysis", headers=auth(token)).json()
        if got["robot"] is not None:
            return got
        time.sleep(0.1)
    raise AssertionError(f"no replay: {got}")


def new_table(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    r = client.post("/api/tables", json={"game": "coinche", "bots": "pimc:fast", "pace": 0,
                                         "target": 3000})
    assert r.status_code == 201, r.text
    t = r.json()
    return t["id"], t["token"], t


def test_the_replay_is_stored_with_the_deal_and_shown_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    with TestClient(create_app(url)) as first:
        tid, token, t = new_table(first)

        def nothing_stored() -> None:  # the deal goes on: nothing of its replay stored
            assert stored(url, tid) == []
            # ... though its replay goes on ahead in the worker's memory, given to nobody
            assert (tid, 1, HUMAN) in first.app.state.tables.robots._replays  # type: ignore[attr-defined]

        play_deal_1(first, tid, token, t, nothing_stored)
        before = replay_via(first, tid, token)
        for _ in range(100):  # written once the replay is done, by the same task
            if stored(url, tid):
                break
            time.sleep(0.05)
    rows = stored(url, tid)
    assert [(n, seat) for n, seat, _ in rows] == [(1, HUMAN)]
    assert len(rows[0][2].encode()) < 1024
    with TestClient(create_app(url)) as again:  # the server started again on the same file
        after = again.get(f"/api/tables/{tid}/deals/1/analysis", headers=auth(token)).json()
        assert after["robot"] == before["robot"] and after["robot_sum"] == before["robot_sum"]
        again.cookies.set("rebelote_keys", f"{tid}.{token}")
        page = again.get(f"/tables/{tid}/deals/1/analysis").text
        assert 'id="robot-marks"' in page and "Le robot à votre place" in page
        gain = before["robot"]["gain"]
        assert f"Vous\u00a0: {signed(gain, 'fr')} sur le robot club en 1 donne" in page
        assert f"Vous\u00a0: {signed(gain, 'fr')} sur le robot club en 1 donne" in again.get(
            f"/tables/{tid}").text  # the table page's result card: the running sum
    store = TableStore(make_engine(url))  # rebelote prune-tables deletes it with the table
    assert store.prune(datetime.now(UTC) + timedelta(days=1)) == 1
    store.close()
    assert stored(url, tid) == []


def test_a_replay_over_the_size_cap_is_not_stored(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from rebelote.store.db import migrate
    from rebelote.tableserver.bots import BotRunner
    from rebelote.tableserver.repo import LocalTables
    from rebelote.tableserver.robot import REPLAY_BYTES_ENV, Robots

    url = f"sqlite:///{tmp_path / 'tables.db'}"
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    got = {"deal": 1, "seat": "S", "level": LEVEL, "gain": 0, "difference": None}

    async def main(cap: str) -> None:
        monkeypatch.setenv(REPLAY_BYTES_ENV, cap)
        store = TableStore(make_engine(url))
        robots = Robots(BotRunner(workers=1), LocalTables(store))
        await robots._store("t", 1, HUMAN, {**got, "level": "x" * 2000})
        await robots._store("t", 2, HUMAN, got)
        store.close()

    asyncio.run(main("1024"))
    assert [n for n, _, _ in stored(url, "t")] == [2]
    asyncio.run(main("4096"))
    assert [n for n, _, _ in stored(url, "t")] == [1, 2]


@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="REBELOTE_TEST_PG_URL is not set: no PostgreSQL server")
def test_another_worker_shows_the_replay_on_postgresql(pg_url: str) -> None:
    with TestClient(create_app(pg_url)) as one, TestClient(create_app(pg_url)) as two:
        tid, token, t = new_table(one)

        def nothing_stored() -> None:
            assert stored(pg_url, tid) == []
            got = two.get(f"/api/tables/{tid}/deals/1/analysis", headers=auth(token))
            assert got.status_code == 404
            no_replay(got.text, "the other worker's analysis of the deal in play")

        play_deal_1(one, tid, token, t, nothing_stored)
        mine = replay_via(one, tid, token)
        for _ in range(100):
            if stored(pg_url, tid):
                break
            time.sleep(0.05)
        theirs = two.get(f"/api/tables/{tid}/deals/1/analysis", headers=auth(token)).json()
        assert theirs["robot"] == mine["robot"]  # worker two never replayed it
        assert theirs["robot_sum"] == mine["robot_sum"]
    store = TableStore(make_engine(pg_url))
    assert store.prune(datetime.now(UTC) + timedelta(days=1)) >= 1
    store.close()
    assert stored(pg_url, tid) == []


def test_one_clients_replays_waiting_are_bounded_and_not_another_clients() -> None:
    """A client who ends many deals at once (a script) has at most ``per_client`` of their
    replays waiting: beyond, a deal's end of theirs is not replayed; another client's is."""
    import asyncio
    from dataclasses import replace

    from rebelote.tableserver.bots import CLIENT, BotRunner
    from rebelote.tableserver.robot import Robots

    after = finished_table(level_move)
    first = after.deals[0]
    before = replace(after, deals=(replace(first, actions=first.actions[:-1]),))

    async def main() -> Robots:
        runner = BotRunner(workers=1)
        robots = Robots(runner)
        robots.per_client = 1
        for address, tid in (("10.0.0.1", "t"), ("10.0.0.1", "u"), ("10.0.0.2", "v")):
            token = CLIENT.set(address)
            robots.saved(tid, before, after)
            CLIENT.reset(token)
        assert robots.skipped == 1 and robots._by_client == {"10.0.0.1": 1, "10.0.0.2": 1}
        while robots._running:
            await asyncio.sleep(0.05)
        runner.close()
        return robots

    robots = asyncio.run(main())
    assert robots.of("t", 1, HUMAN) is not None and robots.of("v", 1, HUMAN) is not None
    assert robots.of("u", 1, HUMAN) is None  # 10.0.0.1 had one waiting already
    assert robots._by_client == {} and robots._ended == {}
