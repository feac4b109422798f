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
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from rebelote.actions import AUCTION, NO_DECLARATION, OVER
from rebelote.bots import make_bot, player_level
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6, help="deals of each game per bot")
    parser.add_argument("--bots", default="random,heuristic,pimc,pimc:fast")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tables", type=int, default=1, help="tables playing at once")
    args = parser.parse_args(argv)
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
