"""Build ``src/rebelote/web/counter/data/deal_marks.json``: the marks of deals played by the
heuristic bots, which the counter's chances of winning are estimated from
(``rebelote.web.counter.chances``).

Whole games are played by four heuristic bots (official rules, belote and coinche, the dealer
moving each deal, the litige reserve carried), and each deal's pair of marks is counted from
the side of the team that took (a deal nobody took counts as 0 / 0). The file keeps, per game,
how often each pair of marks came: a few kilobytes, shipped in the package.

    nice -n 15 .venv/bin/python scripts/deal_marks.py --games 150

Deterministic for a given ``--games`` and ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

from rebelote.bots import make_bot
from rebelote.game import Game
from rebelote.rules import Rules

OUT = Path(__file__).resolve().parent.parent / "src" / "rebelote" / "web" / "data" / \
    "deal_marks.json"


def marks_of_games(game: str, games: int, seed: int) -> Counter[tuple[int, int]]:
    """The (takers' mark, defense's mark) of every deal of ``games`` bot-played games."""
    rules = Rules.preset("official", game)
    bots = [make_bot("heuristic") for _ in range(4)]
    counts: Counter[tuple[int, int]] = Counter()
    for index in range(games):
        state = Game.new(rules, seed=seed * 1_000_003 + index, target=2000, dealer=index % 4)
        rngs = [random.Random(f"marks:{seed}:{index}:{s}") for s in range(4)]
        while not state.is_terminal:
            seat = state.current_player
            state = state.apply(bots[seat].act(state.observation(seat), rngs[seat]))
        for deal, score in zip(state.match.deals, state.match.result().deals, strict=True):
            ns, ew = score.score
            taker = deal.taker
            counts[(ew, ns) if taker == "EW" else (ns, ew)] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    table = {}
    for game in ("belote", "coinche"):
        counts = marks_of_games(game, args.games, args.seed)
        table[game] = {
            "games": args.games,
            "deals": sum(counts.values()),
            "marks": sorted([a, b, n] for (a, b), n in counts.items()),
        }
        print(game, table[game]["deals"], "deals,", len(counts), "different marks")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"source": "scripts/deal_marks.py", "bots": "heuristic",
                               "rules": "official", "seed": args.seed, **table},
                              separators=(",", ":")) + "\n", encoding="utf-8")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
