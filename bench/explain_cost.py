"""What asking a bot why costs (*Pourquoi ce coup ?*): each bot's decisions made plainly
(``bot.act``) and asked why (``rebelote.bots.explain.explained_act``, as the play table asks
every bot move), in turns in one process, CPU time; the ratio asked / plain.

The decisions are those with a choice of seeded deals of both games played by the heuristic
bot (the same for every bot and both ways); each way runs ``--reps`` times, the order of the
two alternating from one run to the next.

    nice .venv/bin/python bench/explain_cost.py [--bots pimc:fast,heuristic] [--deals 2]
        [--reps 3]
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from rebelote.actions import OVER
from rebelote.bots import HeuristicBot, make_bot
from rebelote.bots.explain import explained_act
from rebelote.deal import DealState
from rebelote.observation import Observation
from rebelote.rules import Rules


def decisions(deals: int) -> list[Observation]:
    """The observations with a choice of ``deals`` heuristic deals of coinche and of belote."""
    out = []
    driver = HeuristicBot()
    for game in ("coinche", "belote"):
        rules = Rules.preset("official", game)
        for seed in range(deals):
            state = DealState.new(rules, seed % 4, seed=seed)
            while state.phase != OVER:
                obs = state.observation(state.player)
                if len(obs.legal) > 1:
                    out.append(obs)
                state = state.apply(driver.act(obs, random.Random(0)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="pimc:fast,heuristic")
    parser.add_argument("--deals", type=int, default=2, help="deals of each game")
    parser.add_argument("--reps", type=int, default=3, help="runs of each way")
    args = parser.parse_args()
    seen = decisions(args.deals)
    print(f"{platform.machine()} {platform.python_version()}: {len(seen)} decisions with a "
          f"choice, {args.reps} runs each way")
    for spec in args.bots.split(","):
        bot = make_bot(spec)
        took = {"plain": 0.0, "asked": 0.0}
        for rep in range(args.reps):
            for way in ("plain", "asked") if rep % 2 == 0 else ("asked", "plain"):
                start = time.process_time()
                for i, obs in enumerate(seen):
                    if way == "plain":
                        bot.act(obs, random.Random(i))
                    else:
                        explained_act(bot, obs, random.Random(i), spec)
                took[way] += time.process_time() - start
        print(f"{spec:>16}  plain {took['plain']:8.3f} s  asked {took['asked']:8.3f} s  "
              f"asked/plain {took['asked'] / took['plain']:.3f}")


if __name__ == "__main__":
    main()
