"""Throughput: full random deals per second (deal, auction, play, score), rebelote against
belote-cli (a pure-Python belote engine) measured side by side in the same run.

The whole process first (the goal of issue 7 item 2): ``rebelote deal --game belote --count N
--bots random`` run as a command, its records written to a file, against a process that plays
the same number of belote-cli random deals; wall-clock time and CPU time of each process,
interpreter start and imports included. Both processes run as from an installed package:
Python's bytecode cache on (in a temporary directory, ``PYTHONPYCACHEPREFIX``, filled by one
unmeasured run of each), whatever ``PYTHONDONTWRITEBYTECODE`` says; ``--cold`` measures them
without it, every source compiled at every start. Then the engines alone, in this process:

Both engines play classic belote the same way: shuffle and deal, an auction where each seat
takes with probability 0.3 (the turned suit in round 1, a random other suit in round 2), then
random legal cards to the end, then the deal is scored. Void deals (all passes) count as deals
for both. rebelote is measured twice: step by step through ``legal_actions``/``apply`` (a new
immutable state per action, as a search or a bot sees the engine), and with the fast random
play-out ``DealState.playout`` after the same auction. The goal is a step API at least
``GOAL`` times as fast as belote-cli; the last line says whether this run met it.

    .venv/bin/python bench/throughput.py [--deals 2000] [--repeats 5] [--process-deals 3000]
        [--cold]
"""

from __future__ import annotations

import argparse
import inspect
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from rebelote.actions import AUCTION, NO_DECLARATION
from rebelote.auction import PASS
from rebelote.deal import DealState
from rebelote.rules import Rules

TAKE_RATE = 0.3
GOAL = 10.0


def rebelote_auction(rules: Rules, rng: random.Random, dealer: int) -> DealState:
    """A deal dealt and bid through the public API: each seat takes with probability 0.3."""
    state = DealState.new(rules, dealer, rng=rng)
    while state.phase == AUCTION:
        legal = state.legal_actions()
        bid = PASS if rng.random() >= TAKE_RATE else rng.choice(legal[1:])
        state = state.apply(bid)
    return state


def rebelote_deal_steps(rules: Rules, rng: random.Random, dealer: int) -> int:
    """One deal through the public step API; returns the takers' mark (to keep it honest)."""
    state = rebelote_auction(rules, rng, dealer)
    while not state.is_terminal:
        actions = state.legal_actions()
        if actions[-1] is NO_DECLARATION:
            actions.pop()
        state = state.apply(rng.choice(actions))
    return state.score().score[0]


def rebelote_deal_playout(rules: Rules, rng: random.Random, dealer: int) -> int:
    """One deal: the same auction, then the fast random play-out; scored the same way."""
    state = rebelote_auction(rules, rng, dealer)
    if not state.is_terminal:
        state = state.playout(rng)
    return state.score().score[0]


def belote_cli_deal(rng: random.Random, dealer: int) -> int:
    """One deal of belote-cli driven through its ``belote.game`` functions."""
    from belote import game as g
    from belote.scoring import apply_round_score, score_round

    state = g.new_game()
    state = g.start_round(g.reset_round_fields(state, dealer=g.Seat(dealer)), rng)
    while state.phase == g.Phase.BIDDING:
        bid = None
        if rng.random() < TAKE_RATE:
            turned = state.up_card.suit  # type: ignore[union-attr]
            if state.bidding_round == 1:
                bid = turned
            else:
                bid = rng.choice([s for s in (g.Suit.SPADES, g.Suit.HEARTS, g.Suit.DIAMONDS,
                                              g.Suit.CLUBS) if s != turned])
        state = g.place_bid(state, bid)
    if state.phase != g.Phase.PLAYING:
        return 0
    while state.phase == g.Phase.PLAYING:
        state = g.play_card(state, rng.choice(g.legal_cards(state, state.turn)))
    state = apply_round_score(state, score_round(state))
    return int(state.team_scores[0])


def belote_cli_process() -> str:
    """The program of a whole process playing belote-cli random deals (``belote_cli_deal``),
    its count and seed on the command line; it imports belote-cli and nothing of rebelote."""
    return "\n".join(["import random, sys", f"TAKE_RATE = {TAKE_RATE!r}",
                      inspect.getsource(belote_cli_deal),
                      "rng = random.Random(int(sys.argv[2]))",
                      "for i in range(int(sys.argv[1])):",
                      "    belote_cli_deal(rng, i % 4)", ""])


def process_env(cache: str | None) -> dict[str, str]:
    """The environment of the measured processes: Python's bytecode cache in ``cache`` (none
    when ``cache`` is ``None``: every source compiled at every start)."""
    env = dict(os.environ)
    if cache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = cache
    return env


def process_rate(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Deals per second of one command run to its end (its last argument is the count), by
    the wall clock and by its CPU time (user + system), its output written to a file."""
    deals = int(command[-1]) if command[-1].isdigit() else 0
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryFile("w+") as out:
        start = time.perf_counter()
        subprocess.run(command, stdout=out, check=True, env=env)
        wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return deals / wall, deals / cpu


def whole_process(deals: int, repeats: int, baseline: str, cold: bool
                  ) -> tuple[float, float]:
    """The whole-process measures, printed; returns ``rebelote deal``'s deals per second over
    the baseline's, both whole processes (medians), by the wall clock and by CPU time."""
    commands = {
        baseline: lambda r: [sys.executable, "-c", belote_cli_process(), str(deals), str(r),
                             str(deals)],
        "rebelote deal": lambda r: [sys.executable, "-m", "rebelote.cli", "deal", "--game",
                                    "belote", "--bots", "random", "--seed", str(r), "--count",
                                    str(deals)],
    }
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    with tempfile.TemporaryDirectory(prefix="throughput-pycache-") as cache:
        env = process_env(None if cold else cache)
        for command in commands.values():  # fills the bytecode cache, unmeasured
            process_rate(command(0), env)
        for r in range(repeats):  # interleaved
            for name, command in commands.items():
                wall, cpu = process_rate(command(r), env)
                walls[name].append(wall)
                cpus[name].append(cpu)
    how = "no bytecode cache" if cold else "bytecode cached"
    print(f"whole process, {deals} deals, records written, {how} (median of {repeats}):")
    for name in commands:
        print(f"{name:>22}: {statistics.median(walls[name]):9.0f} deals/s wall clock, "
              f"{statistics.median(cpus[name]):9.0f} deals/s of CPU time")
    wall_ratio = statistics.median(walls["rebelote deal"]) / statistics.median(walls[baseline])
    cpu_ratio = statistics.median(cpus["rebelote deal"]) / statistics.median(cpus[baseline])
    print(f"ratio rebelote deal / {baseline} (both whole processes): {wall_ratio:.1f}x wall "
          f"clock, {cpu_ratio:.1f}x CPU time")
    return wall_ratio, cpu_ratio


def rate(run: Callable[[random.Random, int], int], deals: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(deals):
        run(rng, i % 4)
    return deals / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per measure")
    parser.add_argument("--repeats", type=int, default=5, help="measures per engine")
    parser.add_argument("--process-deals", type=int, default=3000,
                        help="deals of each whole-process measure (0: skip them)")
    parser.add_argument("--cold", action="store_true",
                        help="whole processes without Python's bytecode cache")
    args = parser.parse_args(argv)
    try:
        from importlib.metadata import version

        import belote.game  # noqa: F401
        baseline = f"belote-cli {version('belote-cli')}"
    except ImportError:
        print("belote-cli is not installed: pip install belote-cli", file=sys.stderr)
        return 2
    rules = Rules.preset("official", "belote")
    engines: dict[str, Callable[[random.Random, int], int]] = {
        baseline: belote_cli_deal,
        "rebelote step API": lambda rng, d: rebelote_deal_steps(rules, rng, d),
        "rebelote playout": lambda rng, d: rebelote_deal_playout(rules, rng, d),
    }
    print(f"machine: {platform.machine()} {platform.processor() or ''} {os.cpu_count()} cpus, "
          f"{platform.system()} {platform.release()}, Python {platform.python_version()} "
          f"({platform.python_implementation()})")
    print(f"sizes: {args.deals} deals per measure, {args.repeats} measures per engine, "
          f"classic belote, take rate {TAKE_RATE}")
    whole = whole_process(args.process_deals, args.repeats, baseline, args.cold) \
        if args.process_deals else None
    rates: dict[str, list[float]] = {name: [] for name in engines}
    for r in range(args.repeats):  # interleaved, so both see the same machine state
        for name, run in engines.items():
            rates[name].append(rate(run, args.deals, seed=r))
    medians = {name: statistics.median(v) for name, v in rates.items()}
    for name, med in medians.items():
        spread = f"{min(rates[name]):.0f}..{max(rates[name]):.0f}"
        print(f"{name:>22}: median {med:9.0f} deals/s  (min..max {spread})")
    base = medians[baseline]
    for name in list(engines)[1:]:
        print(f"ratio {name} / {baseline}: {medians[name] / base:.1f}x")
    step = medians["rebelote step API"] / base
    print(f"goal: step API >= {GOAL:.0f}x {baseline}: {'met' if step >= GOAL else 'NOT met'} "
          f"({step:.1f}x)")
    if whole is not None:
        wall, cpu = whole
        met = "met" if min(wall, cpu) >= GOAL else "NOT met"
        print(f"goal: rebelote deal >= {GOAL:.0f}x {baseline}, both whole processes with their "
              f"records written: {met} ({wall:.1f}x wall clock, {cpu:.1f}x CPU time)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
