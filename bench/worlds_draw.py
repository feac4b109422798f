"""What drawing the worlds costs the search: a level's time a card with the worlds of a
position where another seat announced declarations drawn among the deals that fit
(:class:`rebelote.determinize.FittedDeals`, ``new``) and by the rejection sampler (whole deals
dealt at random until one fits the announcements, ``old``: the level with
``rejection=1``), in turns in one process, with the ratio old / new.

The positions are the card decisions with a choice of seeded deals of official coinche
played by the heuristic bot (every seat's); each is searched once each way from the same
random seed, the order of the two alternating from one position to the next, each way with
a clock of its own (a time-limited level, ``fort``, learns what a world costs and draws as
many as its quarter of a second allows: its figure is the worlds a card, its time being
fixed). Timed: the search's card values (:func:`rebelote.bots.pimc.card_marks`, the bulk of
a card's decision), wall-clock. Printed for all the positions and for those with another
seat's declarations announced (the only ones whose worlds differ).

    nice -n 15 .venv/bin/python bench/worlds_draw.py [--deals 6] [--levels expert,fort]
        [--seed 0] [--announced]

``--parts``: instead, where the new way's time a card goes (wall-clock, no profiler): the
solves, the candidate worlds' draws (with and without declarations announced), the learned
model of the players' weights, the auction's weights, the rest.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from dataclasses import replace
from typing import Any

from rebelote.actions import OVER, PLAY, Play
from rebelote.bots import HeuristicBot, player_level
from rebelote.bots.explain import Notes
from rebelote.bots.pimc import Clock, PimcBot, card_marks
from rebelote.bots.pimc.player import with_fields
from rebelote.deal import DealState
from rebelote.determinize import announced_play
from rebelote.observation import Observation
from rebelote.rules import Rules


def positions(deals: int, seed: int, announced: bool) -> list[Observation]:
    """The card decisions with a choice of ``deals`` heuristic deals of official coinche
    (only those with another seat's declarations announced, with ``announced``)."""
    rules = Rules.preset("official", "coinche")
    driver = HeuristicBot()
    out = []
    for d in range(deals):
        state = DealState.new(rules, d % 4, seed=seed + d)
        rng = random.Random(seed + d)
        while state.phase != OVER:
            obs = state.observation(state.player)
            if state.phase == PLAY and sum(isinstance(a, Play) for a in obs.legal) > 1 \
                    and (announced_play(obs) or not announced):
                out.append(obs)
            state = state.apply(driver.act(obs, rng))
    return out


def bot_of(level: str) -> PimcBot:
    """The search player of a level for people (``expert``) or a ``pimc:`` spec, with
    budget fields if asked (``pimc:expert+learned[rejection=1]``)."""
    spec = player_level(level).spec if ":" not in level else level
    name, _, budget = spec.partition(":")
    if name != "pimc":
        raise SystemExit(f"{level}: not a search player ({spec})")
    return with_fields(spec) if "[" in spec else PimcBot(budget or None)


class Parts:
    """Wall-clock spent inside some of the search's functions, patched to count it (the
    outermost call only)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self.inside = False

    def patch(self, owner: object, name: str, label: str) -> None:
        inner = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            if self.inside:
                return inner(*args, **kwargs)
            self.inside = True
            start = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                self.spent[label] = self.spent.get(label, 0.0) + time.perf_counter() - start
                self.inside = False

        setattr(owner, name, timed)


def parts(seen: list[Observation], level: str, seed: int) -> None:
    """Where the level's time a card goes (see the module's ``--parts``)."""
    from rebelote.bots.pimc import inference, marks, worlds

    timer = Parts()
    timer.patch(marks, "solve", "solves")
    timer.patch(marks, "position_of_state", "solves")
    for name in ("uniform", "deal", "every"):
        timer.patch(worlds.Worlds, name, "draws")
    timer.patch(worlds, "_model_factors", "learned model")
    timer.patch(inference.AuctionWeights, "__call__", "auction weights")
    bot = bot_of(level)
    clock = Clock()
    by_kind = {True: 0.0, False: 0.0}
    start = time.perf_counter()
    for i, obs in enumerate(seen):
        drawn = timer.spent.get("draws", 0.0)
        card_marks(obs, random.Random(f"{seed}:{i}"), bot.budget, clock, Notes())
        by_kind[announced_play(obs)] += timer.spent.get("draws", 0.0) - drawn
    total = time.perf_counter() - start
    print(f"\n{level}: {len(seen)} cards, {total / len(seen) * 1000:.1f} ms a card on average")
    rows = sorted(timer.spent.items(), key=lambda kv: -kv[1])
    for label, took in [*rows, ("rest", total - sum(timer.spent.values()))]:
        print(f"  {label:16} {took:7.2f} s {100 * took / total:5.1f}%")
        if label == "draws":
            for kind, name in ((True, "announced"), (False, "nothing announced")):
                print(f"    {name:18} {by_kind[kind]:5.2f} s {100 * by_kind[kind] / total:5.1f}%")


def stats(ms: list[float]) -> str:
    return (f"mean {statistics.fmean(ms):7.1f} ms, median {statistics.median(ms):6.1f} ms"
            if ms else "(none)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--levels", default="expert,fort")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--announced", action="store_true",
                        help="only the positions with another seat's declarations announced")
    parser.add_argument("--parts", action="store_true",
                        help="where the new way's time goes, instead")
    args = parser.parse_args()
    seen = positions(args.deals, args.seed, args.announced)
    marked = [announced_play(obs) for obs in seen]
    print(f"{platform.machine()} {platform.python_version()}: {len(seen)} card decisions of "
          f"{args.deals} heuristic deals of official coinche (seeds {args.seed}..), "
          f"{sum(marked)} with another seat's declarations announced")
    if args.parts:
        for level in args.levels.split(","):
            parts(seen, level, args.seed)
        return
    for level in args.levels.split(","):
        bot = bot_of(level)
        ways = {"new": bot.budget, "old": replace(bot.budget, rejection=True)}
        clocks = {way: Clock() for way in ways}
        took: dict[str, list[float]] = {way: [] for way in ways}
        worlds: dict[str, list[int]] = {way: [] for way in ways}
        for i, obs in enumerate(seen):
            for way in ("new", "old") if i % 2 == 0 else ("old", "new"):
                notes = Notes()
                start = time.perf_counter()
                card_marks(obs, random.Random(f"{args.seed}:{i}"), ways[way], clocks[way],
                           notes)
                took[way].append((time.perf_counter() - start) * 1000)
                worlds[way].append(notes.worlds)
        print(f"\n{level} ({bot.budget.worlds} worlds a card"
              f"{f', {bot.budget.seconds} s' if bot.budget.seconds else ''}):")
        for subset, keep in (("all", [True] * len(seen)), ("announced", marked)):
            for way in ("old", "new"):
                ms = [t for t, k in zip(took[way], keep, strict=True) if k]
                n = [w for w, k in zip(worlds[way], keep, strict=True) if k]
                print(f"  {subset:9} {way}: {len(ms):4} cards, {stats(ms)}, "
                      f"{statistics.fmean(n) if n else 0:5.1f} worlds a card")
            old = [t for t, k in zip(took["old"], keep, strict=True) if k]
            new = [t for t, k in zip(took["new"], keep, strict=True) if k]
            if old and new:
                print(f"  {subset:9} old / new: mean {sum(old) / sum(new):.2f}, median "
                      f"{statistics.median(old) / statistics.median(new):.2f}")


if __name__ == "__main__":
    main()
