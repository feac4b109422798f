"""Tune the tuned bidder (rebelote.bots.tuned): each candidate's parameters against the
heuristic, the bidder alone (the heuristic's card play on both sides), on the same duplicate
deals as bench/strength.py (the arena's deals of a seed); the first candidate is the reference
and every other is also compared with it deal by deal (paired). Deterministic: the same
arguments print the same figures.

    nice -n 19 .venv/bin/python scripts/tune_bidder.py --game coinche --seed 101 \\
        --deals 4000 --workers 2 'jump=0;margin=0' 'jump=0;margin=-5' ...

A candidate is ``name=value;...`` changing the heuristic's parameters (rebelote.bots.heuristic
.BidParams; '' is the heuristic itself, 'chosen' the shipped parameters).
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor

from rebelote.arena import ArenaConfig, mean_ci, play_duplicate_deal
from rebelote.bots import Bot
from rebelote.bots.heuristic import BidParams, HeuristicBot
from rebelote.bots.tuned import CHOSEN, TunedBidder
from rebelote.rules import Rules

CHUNK = 50


def params_of(text: str) -> BidParams:
    return CHOSEN if text.strip() == "chosen" else BidParams().with_text(text)


def duplicate_results(params: BidParams, game: str, preset: str, seed: int,
                      indices: range) -> list[float]:
    """For each deal number of ``indices``, the bidder at ``params`` against the heuristic: its
    mark minus the heuristic's, the mean of the two plays with the teams swapped. The arena's
    duplicate deals (:func:`rebelote.arena.play_duplicate_deal`) with the bots made here, so
    ``bench/strength.py --a tuned:... --b heuristic`` gives the same numbers."""
    rules = Rules.preset(preset, game)
    config = ArenaConfig(a="tuned", b="heuristic", game=game, rules=preset, seed=seed)
    a: Bot = TunedBidder(params)
    b: Bot = HeuristicBot()

    def seats(a_side: int) -> list[Bot]:
        return [a if s % 2 == a_side else b for s in range(4)]

    return [play_duplicate_deal(config, rules, index, seat_bots=seats)[0].diff
            for index in indices]


def _chunk(args: tuple[str, str, str, int, int, int]) -> list[float]:
    text, game, preset, seed, first, count = args
    return duplicate_results(params_of(text), game, preset, seed, range(first, first + count))


def results(text: str, game: str, preset: str, seed: int, start: int, deals: int,
            pool: ProcessPoolExecutor | None = None) -> list[float]:
    """Each deal's result (the candidate's mark minus the heuristic's), in deal order."""
    tasks = [(text, game, preset, seed, i, min(CHUNK, start + deals - i))
             for i in range(start, start + deals, CHUNK)]
    chunks = pool.map(_chunk, tasks) if pool else map(_chunk, tasks)
    return [x for chunk in chunks for x in chunk]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("candidates", nargs="+")
    parser.add_argument("--game", default="coinche")
    parser.add_argument("--rules", default="official")
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--start", type=int, default=0, help="first deal number")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default=None, help="append each candidate's per-deal results")
    args = parser.parse_args(argv)
    for text in args.candidates:
        params_of(text)  # a bad candidate is refused before anything is played
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    first: list[float] | None = None
    try:
        for text in args.candidates:
            diffs = results(text, args.game, args.rules, args.seed, args.start, args.deals,
                            pool)
            mean, low, high = mean_ci(diffs)
            line = f"{text or '(heuristic)'}: {mean:+.1f} [{low:+.1f}, {high:+.1f}]"
            if first is None:
                first = diffs
            else:
                m2, l2, h2 = mean_ci([x - y for x, y in zip(diffs, first, strict=True)])
                line += f"; - first {m2:+.1f} [{l2:+.1f}, {h2:+.1f}]"
            print(line, flush=True)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"params": text, "game": args.game, "rules": args.rules,
                                        "seed": args.seed, "start": args.start,
                                        "diffs": diffs}) + "\n")
    finally:
        if pool:
            pool.shutdown()
    print(f"{len(args.candidates)} candidates, {args.deals} deals each", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
