"""Random playouts per second from the first lead: the compiled core
(``rebelote.fast._core.random_playouts``) against colver's ``Env.rollout``, side by side in one
run, on the same deals.

For each seed, colver deals (``colver.Env.deal(seed=s, dealer=0)``), a contract is set
(``set_contract(seed % 4, 80, NS)``, ``set_phase_playing``: E leads), and both engines play
``--count`` random legal deals from that first lead: colver's ``rollout(count)`` (its average
rewards), ours ``random_playouts`` (the final card points of each team, dix de der and capot
included). The two runs of a deal are interleaved and repeated; each engine's best time per
deal is kept. The goal: our rate at least colver's.

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
    sys.exit("bench/rollouts.py needs colver: .venv/bin/pip install -e '.[bench]'")

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
    ours_rates: list[float] = []
    theirs_rates: list[float] = []
    for seed in range(args.deals):
        trump = seed % 4
        env = colver.Env.deal(seed=seed, dealer=0)
        hands = [sum(1 << ((c // 8) * 8 + _RANK[c % 8]) for c in h) for h in env.get_hands()]
        env.set_contract(trump, 80, 0, 0)
        env.set_phase_playing()
        values = card_values(trump, RULES.no_trump_aces, RULES.all_trump_scale)
        best_ours = best_theirs = float("inf")
        for r in range(args.repeats):
            t = time.perf_counter()
            env.rollout(args.count)
            best_theirs = min(best_theirs, time.perf_counter() - t)
            t = time.perf_counter()
            ns, ew = _core.random_playouts(hands, trump, 1, RULES.overtrump_partner,
                                           RULES.must_undertrump, 1, ABOVE[trump], values,
                                           args.count, seed * 1000 + r)
            best_ours = min(best_ours, time.perf_counter() - t)
            assert 162 * args.count <= ns + ew <= 252 * args.count
        ours_rates.append(args.count / best_ours)
        theirs_rates.append(args.count / best_theirs)
    ours, theirs = statistics.median(ours_rates), statistics.median(theirs_rates)
    print(f"playouts/s (median over deals): rebelote {ours:,.0f}, colver {theirs:,.0f}")
    ratio = ours / theirs
    print(f"ours/colver = {ratio:.2f} (goal >= {GOAL}): {'met' if ratio >= GOAL else 'NOT met'}")


if __name__ == "__main__":
    main()
