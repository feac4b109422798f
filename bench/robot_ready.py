"""Le robot à votre place: how long after a deal's end its replay (the deal played again with
the table's level in the human's seat) is ready, with several tables playing at once.

Starts ``rebelote serve`` on a free loopback port with a temporary SQLite file, then
``--tables`` clients (threads) each play their own table at ``--level`` (``pace`` 0: the
bots answer in the request), the human's seat playing a legal move at random (the calls:
pass, or the first bid now and then) after ``--think`` seconds (a person's time to choose),
until each has finished ``--deals`` deals. After the
answer that ends a deal, the client polls ``GET /api/tables/{id}/deals/{n}/analysis`` every
``--poll`` seconds until its ``robot`` is there, and keeps playing meanwhile in another thread:
the replay's latency is taken while every table plays on.

Baseline, in the same run and against the same server, first: one table alone, the same way.
Prints the median and the worst latency of each, their ratio, and whether the goal (every
replay ready within 5 s of its deal's end with ``--tables`` playing) is met. And how long the
live play took: each answer to the person's move (the bots' replies in it, ``pace`` 0), median
and 90th percentile; ``--no-replays`` runs the same with the replays off
(``REBELOTE_ROBOT_PENDING=0``), to compare (the replays must not slow the live bots).

    .venv/bin/python bench/robot_ready.py --tables 4 --level fort --deals 3
    .venv/bin/python bench/robot_ready.py --tables 4 --level fort --deals 3 --no-replays
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
from counter_load import start_server

GOAL_SECONDS = 5.0


def play(base: str, level: str, deals: int, poll: float, think: float, seed: int,
         latencies: list[float], made: list[tuple[str, str, int]], answers: list[float],
         wait: bool = True) -> None:
    """One client: a coinche table at ``level`` played until ``deals`` deals are over; each
    deal's replay waited for in a thread of its own."""
    rng = random.Random(seed)
    waiters: list[threading.Thread] = []
    with httpx.Client(base_url=base, timeout=120) as http:
        t = http.post("/api/tables", json={"game": "coinche", "bots": level, "pace": 0,
                                           "target": 10_000}).json()
        tid, token = t["id"], t["token"]
        headers = {"Authorization": f"Bearer {token}"}
        view = t
        while view["deal"] <= deals and not view["over"]:
            legal = [a for a in view["legal"] if not a.startswith(("declare", "no-decl"))]
            bids = [a for a in legal if a[0].isdigit()]
            action = bids[0] if bids and rng.random() < 0.3 else \
                "pass" if "pass" in legal else rng.choice(legal)
            before = view["deal"]
            time.sleep(think)  # the person at the table thinks
            asked = time.monotonic()
            view = http.post(f"/api/tables/{tid}/actions", headers=headers,
                             json={"action": action}).json()
            answers.append(time.monotonic() - asked)
            for n in range(before, view["deal"] if wait else before):  # deal n ended
                ended = time.monotonic()
                waiter = threading.Thread(target=wait_for, args=(
                    base, tid, headers, n, ended, poll, latencies))
                waiter.start()
                waiters.append(waiter)
                made.append((tid, token, n))
    for waiter in waiters:
        waiter.join()


def wait_for(base: str, tid: str, headers: dict[str, str], n: int, ended: float,
             poll: float, latencies: list[float]) -> None:
    with httpx.Client(base_url=base, timeout=120) as http:
        while True:
            got = http.get(f"/api/tables/{tid}/deals/{n}/analysis", headers=headers).json()
            if got.get("robot") is not None:
                latencies.append(time.monotonic() - ended)
                return
            if time.monotonic() - ended > 120:
                latencies.append(float("inf"))
                return
            time.sleep(poll)


def run(base: str, tables: int, level: str, deals: int, poll: float, think: float,
        wait: bool = True) -> tuple[list[float], float, list[float]]:
    """``tables`` clients at once: the replays' latencies, sorted, the seconds it took, and
    the answers' times to the persons' moves, sorted."""
    latencies: list[float] = []
    made: list[tuple[str, str, int]] = []
    answers: list[float] = []
    start = time.monotonic()
    clients = [threading.Thread(target=play, args=(
        base, level, deals, poll, think, 100 * tables + i, latencies, made, answers, wait))
        for i in range(tables)]
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    return sorted(latencies), time.monotonic() - start, sorted(answers)


def said(answers: list[float]) -> str:
    return (f"a move's answer (the bots' replies in it): median {statistics.median(answers):.2f}"
            f" s, 90th percentile {answers[int(0.9 * (len(answers) - 1))]:.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=4, help="tables playing at once")
    parser.add_argument("--level", default="fort", help="the tables' level")
    parser.add_argument("--deals", type=int, default=3, help="deals each table plays")
    parser.add_argument("--poll", type=float, default=0.05, help="seconds between two polls")
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds the person at each table takes a move (0: none)")
    parser.add_argument("--no-replays", action="store_true",
                        help="the replays off (REBELOTE_ROBOT_PENDING=0): the live play alone")
    args = parser.parse_args()
    wait = not args.no_replays
    if not wait:
        os.environ["REBELOTE_ROBOT_PENDING"] = "0"
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(f"sqlite:///{Path(tmp) / 'tables.db'}", 1)
        try:
            alone, took_alone, live_alone = run(base, 1, args.level, args.deals, args.poll,
                                                args.think, wait)
            lat, took, live = run(base, args.tables, args.level, args.deals, args.poll,
                                  args.think, wait)
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"the person at each table thinks {args.think:g} s a move")
    print(f"1 table: {said(live_alone)}; {args.tables} tables: {said(live)}")
    if not wait:
        print(f"the replays off: {took_alone:.0f} s for 1 table, {took:.0f} s for "
              f"{args.tables}")
        return 0
    print(f"baseline, 1 table at {args.level}: {len(alone)} deals in {took_alone:.0f} s, "
          f"replay ready after the deal's end: median {statistics.median(alone):.2f} s, "
          f"worst {alone[-1]:.2f} s")
    print(f"{args.tables} tables at {args.level}: {len(lat)} deals in {took:.0f} s, replay "
          f"ready after the deal's end: median {statistics.median(lat):.2f} s, worst "
          f"{lat[-1]:.2f} s (polled every {args.poll:g} s)")
    print(f"ratio {args.tables} tables / 1 table (medians): "
          f"{statistics.median(lat) / statistics.median(alone):.2f}")
    met = lat[-1] <= GOAL_SECONDS
    print(f"goal (every replay within {GOAL_SECONDS:g} s): {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
