"""The chances of winning from the current score, estimated from deals played by bots.

``data/deal_marks.json`` holds the marks of every deal of whole games played by four heuristic
bots under the official rules (``scripts/deal_marks.py`` builds it): how often each pair
(takers' mark, defense's mark) came. From a score and a target, the rest of the game is played
out many times by drawing deals from those marks, each team taking half of them; the chance of
a team is the share of play-outs it wins. Drawn from a fixed seed (the score and the target),
the same score always shows the same figure; a few thousand play-outs take milliseconds.

It is an estimate for players of the bots' strength, and it leaves out the litige reserve and
the belote that must win a trick: the page shows it discreetly, and only when asked.

>>> ns, ew = chances("belote", (0, 0), 1000)
>>> abs(ns - 0.5) < 0.05 and round(ns + ew, 6) == 1
True
>>> chances("belote", (990, 120), 1000)[0] > 0.9
True
"""

from __future__ import annotations

import itertools
import json
import random
from functools import cache, lru_cache
from importlib.resources import files
from typing import Final

#: Play-outs per estimate.
RUNS: Final = 2000
#: A play-out stops after this many deals (a game this long is counted as nobody's).
MAX_DEALS: Final = 300
#: Deals drawn at a time in a play-out.
CHUNK: Final = 12


@cache
def deal_marks(game: str) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """The pairs (takers' mark, defense's mark) of ``game`` (belote or coinche; contrée is
    counted as coinche) and their cumulative counts."""
    marks = files("rebelote.web.counter") / "data" / "deal_marks.json"
    data = json.loads(marks.read_text("utf-8"))
    table = data["coinche" if game not in ("belote", "coinche") else game]
    pairs = tuple((int(a), int(b)) for a, b, _ in table["marks"])
    cumulative = tuple(itertools.accumulate(int(n) for _, _, n in table["marks"]))
    return pairs, cumulative


@lru_cache(maxsize=4096)
def chances(game: str, totals: tuple[int, int], target: int, runs: int = RUNS
            ) -> tuple[float, float]:
    """The chances of NS and EW to win a game of ``game`` at ``target`` from ``totals``."""
    ns, ew = totals
    if (ns >= target or ew >= target) and ns != ew:
        return (1.0, 0.0) if ns > ew else (0.0, 1.0)
    pairs, cumulative = deal_marks(game)
    rng = random.Random(f"chances:{game}:{ns}:{ew}:{target}")
    wins = [0, 0]
    choices = rng.choices
    coin = rng.random
    for _ in range(runs):
        a, b = ns, ew
        dealt = 0
        while dealt < MAX_DEALS:
            draws = choices(pairs, cum_weights=cumulative, k=CHUNK)
            dealt += CHUNK
            for taker, defense in draws:
                if coin() < 0.5:
                    a, b = a + taker, b + defense
                else:
                    a, b = a + defense, b + taker
                if (a >= target or b >= target) and a != b:
                    wins[0 if a > b else 1] += 1
                    dealt = MAX_DEALS
                    break
    decided = wins[0] + wins[1]
    if not decided:
        return 0.5, 0.5
    return wins[0] / decided, wins[1] / decided


__all__ = ["RUNS", "chances", "deal_marks"]
