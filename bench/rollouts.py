"""Random playouts per second from the first lead: the compiled core
(``rebelote.fast._core.random_playouts``) against colver's ``Env.rollout``, side by side in one
run, on the same deals.

For each seed, colver deals (``colver.Env.deal(seed=s, dealer=0)``), a contract is set
(``set_contract(seed % 4, 80, NS)``, ``set_phase_playing``: E leads), and both engines play
``--count`` random legal deals from that first lead: colver's ``rollout(count)`` (its average
rewards), ours ``random_playouts`` (the final card points of each team, dix de der and capot
included). The two runs of a deal are interleaved and repeated; each engine's best time per
deal is kept, wall-clock and CPU time (both engines play on one thread; on a shared machine the
CPU time is the steadier measure, and the goal is judged on it). The goal: our rate at least
colver's.

    .venv/bin/python bench/rollouts.py [--deals 20] [--count 20000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

from rebelote.fast import _core
from rebelote.rules import ABOVE, Rules, card_values

try:
    import colver
except ImportError:  # pragma: no cover
    print("bench/rollouts.py skipped: it needs colver, the yardstick (not a dependency of "
          "rebelote): .venv/bin/pip install colver", file=sys.stderr)
    sys.exit(0)

GOAL = 1.0
RULES = Rules.preset("official", "coinche")
_RANK = (0, 1, 2, 4, 5, 6, 3, 7)  # colver's ranks 7 8 9 J Q K 10 A to ours 7 8 9 10 J Q K A


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"# random playouts from the first lead; rebelote fast._core vs colver "
          f"{colver.__version__}; Python {platform.python_version()}, {os.cpu_count()} cores; "
          f"{args.deals} deals x {args.count} playouts, best of {args.repeats}")
    wall: dict[str, list[float]] = {"ours": [], "colver": []}
    cpu: dict[str, list[float]] = {"ours": [], "colver": []}
    for seed in range(args.deals):
        trump = seed % 4
        env = colver.Env.deal(seed=seed, dealer=0)
        hands = [sum(1 << ((c // 8) * 8 + _RANK[c % 8]) for c in h) for h in env.get_hands()]
        env.set_contract(trump, 80, 0, 0)
        env.set_phase_playing()
        values = card_values(trump, RULES.no_trump_aces, RULES.all_trump_scale)
        best = {k: [float("inf"), float("inf")] for k in ("ours", "colver")}
        for r in range(args.repeats):
            w, c = time.perf_counter(), time.process_time()
            env.rollout(args.count)
            _keep(best["colver"], time.perf_counter() - w, time.process_time() - c)
            w, c = time.perf_counter(), time.process_time()
            ns, ew = _core.random_playouts(hands, trump, 1, RULES.overtrump_partner,
                                           RULES.must_undertrump, 1, ABOVE[trump], values,
                                           args.count, seed * 1000 + r)
            _keep(best["ours"], time.perf_counter() - w, time.process_time() - c)
            assert 162 * args.count <= ns + ew <= 252 * args.count
        for k in best:
            wall[k].append(args.count / best[k][0])
            cpu[k].append(args.count / best[k][1])
    for name, rates in (("wall-clock", wall), ("CPU time", cpu)):
        ours, theirs = statistics.median(rates["ours"]), statistics.median(rates["colver"])
        print(f"playouts/s by {name} (median over deals): rebelote {ours:,.0f}, colver "
              f"{theirs:,.0f}, ours/colver = {ours / theirs:.2f}")
    ratio = statistics.median(cpu["ours"]) / statistics.median(cpu["colver"])
    print(f"ours/colver by CPU time = {ratio:.2f} (goal >= {GOAL}): "
          f"{'met' if ratio >= GOAL else 'NOT met'}")


def _keep(best: list[float], wall: float, cpu: float) -> None:
    """Keep the best wall-clock and CPU time of the repeats."""
    best[0] = min(best[0], wall)
    best[1] = min(best[1], max(cpu, 1e-9))


if __name__ == "__main__":
    main()
