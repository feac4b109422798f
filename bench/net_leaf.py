"""The network's value head against the exact solve, as the leaf of a world (issue 35): the
time of one double-dummy solve (:func:`rebelote.solver.solve`, every legal card's value) and
of one value of the network (:meth:`rebelote.bots.net.NetBot.value`, the observation encoded
and the forward pass), by the cards in the mover's hand, on the positions with a choice of
seeded heuristic deals; the ratio of the two medians measured in the same run.

    OPENBLAS_NUM_THREADS=1 nice -n 19 .venv/bin/python bench/net_leaf.py [--deals 40] \\
        [--game coinche] [--rules official]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rebelote.actions import PLAY
from rebelote.bots import make_bot
from rebelote.bots.net import NetBot
from rebelote.deal import DealState
from rebelote.rules import Rules
from rebelote.solver import position_of_state, solve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--game", default="coinche")
    parser.add_argument("--rules", default="official")
    args = parser.parse_args(argv)
    rules = Rules.preset(args.rules, args.game)
    bot = make_bot("heuristic")
    net = NetBot()
    by: dict[int, list[tuple[float, float]]] = {}
    for seed in range(args.deals):
        state = DealState.new(rules, seed % 4, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            if state.phase == PLAY and state.playable.bit_count() > 1:
                t0 = time.perf_counter()
                solve(position_of_state(state), rules)
                t1 = time.perf_counter()
                net.value(state.observation(state.player))
                t2 = time.perf_counter()
                by.setdefault(state.hands[state.player].bit_count(), []).append(
                    (t1 - t0, t2 - t1))
            state = state.apply(bot.act(state.observation(state.player), rng))
    print(f"{'cards':>5} {'positions':>9} {'solve ms median':>16} {'mean':>8} "
          f"{'net ms median':>14} {'solve / net':>12}")
    for cards in sorted(by, reverse=True):
        rows = by[cards]
        solve_med = statistics.median(a for a, _ in rows) * 1e3
        net_med = statistics.median(b for _, b in rows) * 1e3
        print(f"{cards:>5} {len(rows):>9} {solve_med:>16.3f} "
              f"{statistics.mean(a for a, _ in rows) * 1e3:>8.3f} {net_med:>14.3f} "
              f"{solve_med / net_med:>12.2f}")


if __name__ == "__main__":
    main()
