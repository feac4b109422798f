"""Decision times of each bot at its default budget: median, 99th percentile and maximum, in
milliseconds, over the decisions with a choice (more than one legal action, the choice not to
declare apart) of seeded deals of both games.

The measured bot sits N and S, the heuristic bot E and W (the auction and the play then look
like a real table's); the same deals for every bot. The search player's default (``pimc``) is
the budget a human waits for: the goal is at most 300 ms at the median and 1 s at worst, on
this machine; the last lines say whether this run met it.

    .venv/bin/python bench/decisions.py [--deals 6] [--bots random,heuristic,pimc,pimc:fast]
        [--tables 4]

A bot is a registry spec or a level for people (``fort``: ``rebelote.bots.PLAYER_LEVELS``).
``--tables N`` plays N tables at once (N processes, each its own deals), as a club evening
with N tables of one human and three bots loads the machine; the times of all are pooled.

**Through the live table server** (``--server``): the tables are played by the real table
server in this process (``rebelote.web.app.create_app`` on a temporary SQLite file, its
``TableService`` and its bot runner: the bounded pool, each decision's time cap, the
heuristic's move when a decision runs out of time), ``--tables`` of them at once, each with
one scripted human at S (who plays the heuristic's move, after ``--think`` seconds) and the
level's bots at N, E and W, at pace 0 (the bots answer inside the human's request). The
runner tells each move it makes (``BotRunner.listeners``): its time from when it was asked
for to its answer (waiting for a worker included: what the human waits), and whether the
heuristic played it instead. Per level: the decisions with a choice, their median, p99 and
max, the bot moves that fell back to the heuristic (out of the runner's time cap, or a bot
that failed), the search's own heuristic answers for want of time (a time-limited level's
budget), and the human's wait for the answer of each of their moves. ``--deals N``: each
table plays N deals (``0``: a whole game, to the target).

    nice -n 15 .venv/bin/python bench/decisions.py --server --tables 4 --deals 2 \
        --bots debutant,club,fort,expert
    nice -n 15 .venv/bin/python bench/decisions.py --server --tables 4 --deals 0 --bots expert

The goal of a level that a table may offer by default: median <= 300 ms and worst <= 1 s with
4 tables at once; the last line names the strongest level of the run that met it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from rebelote.actions import AUCTION, NO_DECLARATION, OVER
from rebelote.bots import PLAYER_LEVELS, HeuristicBot, make_bot, player_level
from rebelote.deal import DealState
from rebelote.observation import observe
from rebelote.rules import Rules

GOAL_MEDIAN_MS = 300.0
GOAL_WORST_MS = 1000.0


def decision_times(spec: str, game: str, deals: int, seed: int, searches: list[int]
                   ) -> dict[str, list[float]]:
    """The bot's decision times (ms), by phase, over ``deals`` deals; a search player's
    decisions searched and answered by its heuristic fallback are added to ``searches``."""
    rules = Rules.preset("official", game)
    out: dict[str, list[float]] = {"auction": [], "play": []}
    for d in range(deals):
        bots = [make_bot(spec), make_bot("heuristic"), make_bot(spec), make_bot("heuristic")]
        rng = random.Random(f"{seed}:{d}")
        state = DealState.new(rules, d % 4, rng=random.Random(f"deal:{seed}:{d}"))
        while state.phase != OVER:
            seat = state.player
            obs = observe(state, seat)
            start = time.perf_counter()
            action = bots[seat].act(obs, rng)
            ms = (time.perf_counter() - start) * 1000
            choices = [a for a in obs.legal if a is not NO_DECLARATION]
            if seat % 2 == 0 and len(choices) > 1:
                out["auction" if state.phase == AUCTION else "play"].append(ms)
            state = state.apply(action)
        for bot in bots[0], bots[2]:
            searches[0] += getattr(bot, "searched", 0)
            searches[1] += getattr(bot, "fell_back", 0)
    return out


def spec_of(text: str) -> str:
    """A registry spec, or the spec of a level for people (``fort``)."""
    try:
        return player_level(text).spec
    except ValueError:
        return text


def _one_table(args: tuple[str, str, int, int]) -> tuple[dict[str, list[float]], list[int]]:
    spec, game, deals, seed = args
    searches = [0, 0]
    return decision_times(spec, game, deals, seed, searches), searches


def tables_times(spec: str, game: str, deals: int, seed: int, tables: int, searches: list[int]
                 ) -> dict[str, list[float]]:
    """:func:`decision_times` of ``tables`` tables playing at once (one process each, seeds
    ``seed``, ``seed + 1``, ...), pooled."""
    if tables <= 1:
        return decision_times(spec_of(spec), game, deals, seed, searches)
    out: dict[str, list[float]] = {"auction": [], "play": []}
    with ProcessPoolExecutor(tables) as pool:
        jobs = [(spec_of(spec), game, deals, seed + t) for t in range(tables)]
        for times, got in pool.map(_one_table, jobs):
            for k, v in times.items():
                out[k].extend(v)
            searches[0] += got[0]
            searches[1] += got[1]
    return out


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


# -- through the live table server ---------------------------------------------------------
@dataclass
class ServerRun:
    """What one level's tables did through the table server."""

    level: str
    spec: str
    #: seconds of the bot decisions with a choice, by phase (asked for to answered)
    times: dict[str, list[float]] = field(default_factory=lambda: {"auction": [], "play": []})
    #: of these, the seconds waited for a worker of the pool
    waited: list[float] = field(default_factory=list)
    forced: int = 0  # bot moves without a choice
    #: bot moves the heuristic played instead: out of the runner's time cap, a bot that failed
    out_of_time: int = 0
    failed: int = 0
    #: decisions with a choice told their time was up, that answered from what they had
    cut: int = 0
    #: the search's own heuristic answers for want of time (a time-limited budget), of searched
    own_fallbacks: int = 0
    searched: int = 0
    human_waits: list[float] = field(default_factory=list)  # each human move's answer
    deals: int = 0
    games: int = 0
    elapsed: float = 0.0
    workers: int = 0  # the runner's pool
    cap: float = 0.0  # a decision's time cap (s)

    @property
    def every(self) -> list[float]:
        return self.times["auction"] + self.times["play"]

    @property
    def fell_back(self) -> int:
        return self.out_of_time + self.failed

    def meets_goal(self) -> bool:
        every = self.every
        return bool(every) and statistics.median(every) * 1000 <= GOAL_MEDIAN_MS and \
            max(every) * 1000 <= GOAL_WORST_MS and self.fell_back == 0


def _observe(run: ServerRun, decided: Any) -> None:
    """A :class:`rebelote.tableserver.bots.Decided`: counted in ``run``."""
    table = decided.table
    obs = table.deal.observation(table.turn)
    if decided.fell_back == "time":
        run.out_of_time += 1
    elif decided.fell_back:
        run.failed += 1
    if len([a for a in obs.legal if a is not NO_DECLARATION]) <= 1:
        run.forced += 1
        return
    run.times["auction" if table.deal.phase == AUCTION else "play"].append(decided.seconds)
    run.waited.append(decided.waited)
    run.cut += decided.cut


async def _human_table(service: Any, n: int, run: ServerRun, game: str, deals: int,
                       think: float, seed: int) -> None:
    """One table: a scripted human at S plays the heuristic's move ``think`` seconds after
    its turn comes, until ``deals`` deals are played (0: the game is won)."""
    rng = random.Random(f"{seed}:{n}")
    human = HeuristicBot()
    loaded, token = await service.create({"game": game, "bots": run.level, "pace": 0})
    while True:
        table = loaded.table
        finished = len(table.deals) - 1
        if table.is_over or (deals and finished >= deals):
            run.deals += finished + (1 if table.is_over else 0)
            run.games += table.is_over
            return
        if table.turn != 2:  # the bots' answer was cut short (never expected at pace 0)
            await asyncio.sleep(0.05)
            loaded = await service.load_latest(loaded.id)
            continue
        action = table.bot_action(human, rng)
        if think:
            await asyncio.sleep(think)
        start = time.perf_counter()
        loaded, _ = await service.act(loaded.id, token, action)
        run.human_waits.append(time.perf_counter() - start)


async def _server_level(level: str, tables: int, games: list[str], deals: int, think: float,
                        seed: int) -> ServerRun:
    from rebelote.web.app import create_app

    run = ServerRun(*server_bots(level))
    with tempfile.TemporaryDirectory(prefix="rebelote-bench-") as tmp:
        app = create_app(f"sqlite:///{tmp}/tables.sqlite3")
        async with app.router.lifespan_context(app):
            service = app.state.tables
            service.bots.listeners.append(lambda d: _observe(run, d))
            start = time.perf_counter()
            await asyncio.gather(*(_human_table(service, n, run, games[n % len(games)], deals,
                                                think, seed) for n in range(tables)))
            run.elapsed = time.perf_counter() - start
            bot = service.bots.bot(run.spec)
            run.own_fallbacks = getattr(bot, "fell_back", 0)
            run.searched = getattr(bot, "searched", 0)
            run.workers = service.bots.workers
            run.cap = service.bots.seconds
    return run


def server_bots(text: str) -> tuple[str, str]:
    """A level for people (``club``) or a spec a table takes (``net``, ``pimc:fast+tuned``:
    :func:`rebelote.tableserver.service.table_bot`), as ``(what the table is asked for, the
    spec it plays)``; :class:`ValueError` naming the levels otherwise."""
    from rebelote.tableserver.service import table_level

    try:
        return table_level(text, "--bots")
    except Exception as e:  # an InputError: said as the command line's error
        raise ValueError(str(e)) from None


def _ms(values: list[float]) -> str:
    if not values:
        return f"{'':>9} {'':>9} {'':>9}"
    return (f"{statistics.median(values) * 1000:>9.1f} {p99(values) * 1000:>9.1f} "
            f"{max(values) * 1000:>9.1f}")


def server_main(args: argparse.Namespace) -> int:
    # a long run: its lines are seen as they come, even written to a file
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    games = ["belote", "coinche"] if args.game == "both" else [args.game]
    levels = [s.strip() for s in args.bots.split(",") if s.strip()]
    for level in levels:
        server_bots(level)  # a level for people or a table's spec, or a clear error now
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {platform.machine()} {os.cpu_count()} cpus, Python "
          f"{platform.python_version()}; load average before: {load}")
    print(f"through the table server: {args.tables} tables at once, each a human at S "
          f"(the heuristic's moves, {args.think:g} s to think) and the level's bots at N, E, "
          f"W, pace 0; {args.deals or 'a whole game of'} deals a table; games "
          f"{', '.join(games)} (table by table)")
    print(f"{'level':>9} {'spec':>12} {'phase':>8} {'decisions':>9} {'median':>9} {'p99':>9} "
          f"{'max':>9}  (ms)")
    runs = []
    for level in levels:
        run = asyncio.run(_server_level(level, args.tables, games, args.deals, args.think,
                                         args.seed))
        runs.append(run)
        for phase, values in run.times.items():
            print(f"{run.level:>9} {run.spec:>12} {phase:>8} {len(values):>9} {_ms(values)}")
        print(f"{run.level:>9} {run.spec:>12} {'all':>8} {len(run.every):>9} {_ms(run.every)}")
        print(f"{run.level:>9}: {run.deals} deals ({run.games} games won) in {run.elapsed:.0f} s;"
              f" {run.forced} bot moves without a choice; waited for a worker (of "
              f"{run.workers}): median {_ms(run.waited).split()[0] if run.waited else '-'} ms, "
              f"max {max(run.waited, default=0) * 1000:.0f} ms")
        print(f"{run.level:>9}: fell back to the heuristic: {run.fell_back} ({run.out_of_time} "
              f"out of the runner's {run.cap:g} s cap, {run.failed} failed); cut short at "
              f"their time (answered from the worlds solved by then): {run.cut}; the "
              f"search's own heuristic answers for want of time: {run.own_fallbacks} of "
              f"{run.own_fallbacks + run.searched} searched decisions")
        print(f"{run.level:>9}: the human's wait for the bots' answer to a move (up to 3 bot "
              f"moves): median/p99/max {_ms(run.human_waits)} ms over "
              f"{len(run.human_waits)} moves")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    met = [r for r in runs if r.meets_goal()]
    for run in runs:
        every = run.every
        print(f"goal: {run.level} median <= {GOAL_MEDIAN_MS:.0f} ms, worst <= "
              f"{GOAL_WORST_MS:.0f} ms, no fallback, {args.tables} tables at once: "
              f"{'met' if run in met else 'NOT met'} (median "
              f"{statistics.median(every) * 1000 if every else 0:.0f} ms, worst "
              f"{max(every, default=0) * 1000:.0f} ms, {run.fell_back} fell back)")
    order = [lv.key for lv in PLAYER_LEVELS]
    best = max((r for r in met if r.level in order), key=lambda r: order.index(r.level),
               default=None)
    print(f"the strongest level of this run that met the goal: "
          f"{best.level if best else 'none'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6, help="deals of each game per bot")
    parser.add_argument("--bots", default="random,heuristic,pimc,pimc:fast")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tables", type=int, default=1, help="tables playing at once")
    parser.add_argument("--server", action="store_true",
                        help="play the tables through the live table server (its bot runner), "
                             "--bots being levels for people or specs a table takes (net)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="--server: seconds the human takes for each move")
    parser.add_argument("--game", default="both", choices=["both", "belote", "coinche"],
                        help="--server: the tables' game (both: table by table)")
    args = parser.parse_args(argv)
    if args.server:
        if args.bots == parser.get_default("bots"):
            args.bots = ",".join(lv.key for lv in PLAYER_LEVELS)
        if args.deals == parser.get_default("deals"):
            args.deals = 2
        return server_main(args)
    print(f"machine: {platform.machine()} {os.cpu_count()} cpus, Python "
          f"{platform.python_version()}; {args.deals} deals of each game, bot at N and S, "
          f"heuristic at E and W; {args.tables} table(s) at once")
    print(f"{'bot':>12} {'game':>8} {'phase':>8} {'decisions':>9} {'median':>9} {'p99':>9} "
          f"{'max':>9}  (ms)")
    verdicts = []
    for spec in [s.strip() for s in args.bots.split(",") if s.strip()]:
        every: list[float] = []
        searches = [0, 0]
        for game in ("belote", "coinche"):
            times = tables_times(spec, game, args.deals, args.seed, args.tables, searches)
            for phase, values in times.items():
                every.extend(values)
                if values:
                    print(f"{spec:>12} {game:>8} {phase:>8} {len(values):>9} "
                          f"{statistics.median(values):>9.2f} {p99(values):>9.2f} "
                          f"{max(values):>9.2f}")
        if every:
            med, worst = statistics.median(every), max(every)
            print(f"{spec:>12} {'both':>8} {'all':>8} {len(every):>9} {med:>9.2f} "
                  f"{p99(every):>9.2f} {worst:>9.2f}")
            if sum(searches):
                print(f"{spec:>12}: {searches[0]} decisions searched, {searches[1]} answered by "
                      "the heuristic for want of time (hopeless hands' passes and forced cards "
                      "apart)")
            if spec in ("pimc", "fort") or args.tables > 1:
                met = med <= GOAL_MEDIAN_MS and worst <= GOAL_WORST_MS
                verdicts.append(f"goal: {spec} median <= {GOAL_MEDIAN_MS:.0f} ms "
                                f"and worst <= {GOAL_WORST_MS:.0f} ms: "
                                f"{'met' if met else 'NOT met'} (median {med:.0f} ms, worst "
                                f"{worst:.0f} ms)")
    for line in verdicts:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
