"""Do the bots' searches slow the event loop of the web worker they run in?

One process, one event loop, as a web worker has: a probe sleeps 5 ms on the loop again and
again and records how late it wakes (the loop's lag: what every request of the worker waits
on top of its own work). Beside it, the table server's bot runner makes decisions of a level
back to back for ``--tables`` tables, in one of three modes, alternated ``--rounds`` times so
that the machine's other load falls on each alike:

- ``idle``: no bot decides (the baseline);
- ``threads``: the runner's threads, in this process (``REBELOTE_BOT_PROCESSES`` unset);
- ``processes``: the runner's bot processes (``REBELOTE_BOT_PROCESSES=--workers``).

Prints, for each mode, the lag's p50/p99/max and the decisions made, and the p99 ratios to
``idle``: threads well above processes mean the searches take the loop's interpreter lock.

    nice .venv/bin/python bench/bot_loop_lag.py --level expert --seconds 10 --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time

from rebelote.bots import player_level
from rebelote.bots.heuristic import HeuristicBot
from rebelote.rules import Rules
from rebelote.table import Seat, Table
from rebelote.tableserver.bots import BotRunner


def tables(spec: str, n: int, seed: int) -> list[Table]:
    """``n`` tables of bots of ``spec`` at their first lead (a search of every world)."""
    out = []
    rng = random.Random(seed)
    for _ in range(n):
        table = Table.new(Rules.preset("official", "coinche"), 1000, [Seat.bot_seat(spec)] * 4,
                          dealer=3)
        while table.deal.phase == 0:
            table = table.act(table.turn, table.bot_action(HeuristicBot(), rng))
        out.append(table)
    return out


async def probe(until: float, lags: list[float]) -> None:
    while time.perf_counter() < until:
        start = time.perf_counter()
        await asyncio.sleep(0.005)
        lags.append(time.perf_counter() - start - 0.005)


async def decide(runner: BotRunner, name: str, table: Table, until: float, made: list[int]
                 ) -> None:
    version = 0
    while time.perf_counter() < until:
        version += 1
        await runner.decide(name, version, table)
        made[0] += 1


async def one(mode: str, runner: BotRunner | None, games: list[Table], seconds: float
              ) -> tuple[list[float], int]:
    lags: list[float] = []
    made = [0]
    until = time.perf_counter() + seconds
    work = [] if runner is None else [decide(runner, f"t{i}", t, until, made)
                                      for i, t in enumerate(games)]
    await asyncio.gather(probe(until, lags), *work)
    return lags, made[0]


def q(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="threads, or bot processes")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    spec = player_level(args.level).spec
    games = tables(spec, args.tables, 1)
    threads = BotRunner(workers=args.workers, seconds=15, processes=0)
    procs = BotRunner(seconds=15, processes=args.workers)
    print(f"# {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; {args.level} ({spec}), "
          f"{args.tables} tables, {args.workers} threads or processes, {args.seconds:g} s a "
          f"mode, {args.rounds} rounds")
    # warm-up, not counted: each runner's bots made (the processes spawned, models loaded)
    asyncio.run(one("threads", threads, games[:1], 0.5))
    asyncio.run(one("processes", procs, games[:1], 3.0))
    seen: dict[str, tuple[list[float], int]] = {"idle": ([], 0), "threads": ([], 0),
                                                "processes": ([], 0)}
    for _ in range(args.rounds):
        for mode, runner in (("idle", None), ("threads", threads), ("processes", procs)):
            lags, made = asyncio.run(one(mode, runner, games, args.seconds))
            seen[mode][0].extend(lags)
            seen[mode] = (seen[mode][0], seen[mode][1] + made)
    threads.close()
    procs.close()
    base = q(seen["idle"][0], 0.99) or 1e-3
    for mode, (lags, made) in seen.items():
        print(f"{mode:<10} loop lag p50 {q(lags, 0.5):6.2f} ms  p99 {q(lags, 0.99):7.2f} ms  "
              f"max {max(lags or [0]) * 1000:7.1f} ms  ({q(lags, 0.99) / base:5.1f}x idle's "
              f"p99)  decisions {made}")
    print(f"# load at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
