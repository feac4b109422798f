"""The learned player's time a decision, on one core: the mean (its goal: 3 ms a decision),
median and 99th percentile of each bot's decisions with a choice (calls and cards), over whole
deals of one game, in CPU time of this process (``time.process_time``: what one core spends,
however loaded the machine) and in wall time; the first bot is the baseline, each other's
mean is also given as a ratio to its mean, measured in the same run.

The measured bot sits N and S, the heuristic E and W; the same deals and the same ``rng`` for
every bot. By cards in hand, each bot's mean CPU ms a card (where the endgame's time goes).

    OPENBLAS_NUM_THREADS=1 nice -n 10 .venv/bin/python bench/net_time.py --deals 150 --seed 22 \
        --bots net,net:endgame=5;worlds=32,net:endgame

The last line says whether each bot met the goal (mean CPU ms a decision <= 3).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from rebelote.actions import AUCTION, NO_DECLARATION
from rebelote.bots import HeuristicBot, make_bot
from rebelote.deal import DealState
from rebelote.rules import parse_rules

GOAL_MEAN_MS = 3.0


def times_of(spec: str, rules: str, deals: int, seed: int
             ) -> tuple[list[float], list[float], dict[int, list[float]]]:
    """CPU and wall ms of each decision with a choice of ``spec`` at N and S, and the CPU ms
    of its cards by cards in hand."""
    bot, other = make_bot(spec), HeuristicBot()
    cpu: list[float] = []
    wall: list[float] = []
    by_cards: dict[int, list[float]] = defaultdict(list)
    for d in range(deals):
        rng = random.Random(f"{seed}:{d}")
        state = DealState.new(parse_rules(rules), dealer=d % 4,
                              rng=random.Random(f"deal:{seed}:{d}"))
        while not state.is_terminal:
            obs = state.observation(state.player)
            if state.player % 2:
                state = state.apply(other.act(obs, rng))
                continue
            c0, w0 = time.process_time(), time.perf_counter()
            action = bot.act(obs, rng)
            c1, w1 = time.process_time(), time.perf_counter()
            if len([a for a in obs.legal if a is not NO_DECLARATION]) > 1:
                cpu.append((c1 - c0) * 1000)
                wall.append((w1 - w0) * 1000)
                if obs.phase != AUCTION:
                    by_cards[obs.hand.bit_count()].append((c1 - c0) * 1000)
            state = state.apply(action)
    return cpu, wall, by_cards


def line(values: list[float]) -> str:
    s = sorted(values)
    p99 = s[min(len(s) - 1, round(0.99 * (len(s) - 1)))]
    return f"mean {statistics.fmean(s):7.3f}  median {s[len(s) // 2]:7.3f}  p99 {p99:8.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="net,net:endgame",
                        help="comma-separated specs, the first the baseline")
    parser.add_argument("--rules", default="coinche:official")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args(argv)
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    print(f"# decisions with a choice, ms, {args.rules}, {args.deals} deals of seed {args.seed}, "
          f"the bot at N and S, the heuristic at E and W")
    base = 0.0
    met: list[str] = []
    for spec in specs:
        cpu, wall, by_cards = times_of(spec, args.rules, args.deals, args.seed)
        mean = statistics.fmean(cpu)
        base = base or mean
        print(f"{spec:28} {len(cpu):6} decisions  cpu {line(cpu)}  wall {line(wall)}  "
              f"cpu mean / {specs[0]}'s {mean / base:6.1f}")
        print(" " * 29 + "cpu mean a card by cards in hand: " + ", ".join(
            f"{k}: {statistics.fmean(v):.2f}" for k, v in sorted(by_cards.items(), reverse=True)))
        if mean <= GOAL_MEAN_MS:
            met.append(spec)
    print(f"goal (mean cpu <= {GOAL_MEAN_MS:g} ms a decision) met by: {', '.join(met) or 'none'}")


if __name__ == "__main__":
    main()
