"""The levels' ladder: a duplicate round-robin between bots (levels for people, ``fort``, or
registry specs), deal by deal, then each pair's marks a deal with its 95% interval and an Elo
ladder fitted to every pair's duplicate deals at once, the first bot at 0.

Deal ``i`` of the seed is played by every pair before deal ``i + 1`` starts (the arena's
duplicate deal, :func:`rebelote.arena.play_duplicate_deal`: the same cards, each pair both
ways), so a run stopped at any time has measured every pair on the same deals. Each pair's
result is written as a JSON line as soon as it is known; ``--start`` resumes a run.

    nice -n 10 .venv/bin/python bench/ladder.py --bots debutant,club,fort,expert \\
        --game coinche --deals 40 --seed 1 --out ladder.jsonl [--start 0]
    .venv/bin/python bench/ladder.py --summary ladder.jsonl [--json]

The Elo fit (Bradley-Terry, the usual logistic Elo): a duplicate deal won by one bot of a pair
(its mark beats the other's) is a win, a tie is half of one; the ratings maximise the
likelihood of every pair's wins at once (:func:`fit_elo`), the first bot held at 0, so a pair
never played is still rated through the others. Each rating's 95% interval comes from the
bootstrap: the deals drawn again with replacement (a deal keeps all its pairs), the fit
redone, the 2.5th and 97.5th percentiles kept.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence

from strength import add_parallel_arguments, play_task, ship_to_cluster, write

from rebelote.arena import ArenaConfig, mean_ci, parallel_map
from rebelote.bots import level_spec
from rebelote.rules import Rules

ELO_SCALE = 400.0 / math.log(10.0)


def score_of(diff: float) -> float:
    """A duplicate deal's score for the bot whose mark difference is ``diff``: 1, 1/2 or 0."""
    return 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0


def fit_elo(names: Sequence[str], games: Iterable[tuple[str, str, float]],
            iterations: int = 2000, tol: float = 1e-9) -> dict[str, float]:
    """Elo ratings of ``names`` (the first held at 0) that maximise the likelihood of
    ``games``, each ``(a, b, score of a)`` with the score 1, 1/2 or 0, under the logistic model
    ``P(a beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400))``. Minorise-maximise updates
    (Hunter 2004) on the strengths ``10 ** (R / 400)``; a bot that won or lost everything has
    no finite rating, so every pair is given one tie more than played (a prior of half a
    deal each way), which keeps every rating finite and moves a well-measured one by little.

    >>> r = fit_elo(["x", "y"], [("x", "y", 1.0)] * 3 + [("x", "y", 0.0)])
    >>> round(r["y"])   # x won 3 of 4, plus the prior's tie: y scored 1.5 of 5
    -147
    """
    index = {name: i for i, name in enumerate(names)}
    k = len(names)
    wins = [0.0] * k
    meetings: dict[tuple[int, int], float] = defaultdict(float)
    for a, b, s in games:
        i, j = index[a], index[b]
        if i == j:
            continue
        wins[i] += s
        wins[j] += 1.0 - s
        meetings[(min(i, j), max(i, j))] += 1.0
    for pair in list(meetings):
        meetings[pair] += 1.0
        wins[pair[0]] += 0.5
        wins[pair[1]] += 0.5
    strength = [1.0] * k
    for _ in range(iterations):
        denominator = [0.0] * k
        for (i, j), n in meetings.items():
            share = n / (strength[i] + strength[j])
            denominator[i] += share
            denominator[j] += share
        new = [wins[i] / denominator[i] if denominator[i] > 0 else strength[i] for i in range(k)]
        anchor = new[0]
        new = [s / anchor for s in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < tol:
            break
    return {name: ELO_SCALE * math.log(strength[index[name]]) for name in names}


def bootstrap_elo(names: Sequence[str], by_deal: dict[int, list[tuple[str, str, float]]],
                  samples: int = 200, seed: int = 0) -> dict[str, tuple[float, float]]:
    """Each rating's 95% interval: the deals drawn again with replacement ``samples`` times
    (a deal keeps all its pairs' results), :func:`fit_elo` on each draw."""
    rng = random.Random(seed)
    deals = sorted(by_deal)
    draws: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(samples):
        games = [g for d in rng.choices(deals, k=len(deals)) for g in by_deal[d]]
        for name, rating in fit_elo(names, games, iterations=500, tol=1e-6).items():
            draws[name].append(rating)
    out = {}
    for name, values in draws.items():
        values.sort()
        out[name] = (values[int(0.025 * (len(values) - 1))], values[int(0.975 * (len(values) - 1))])
    return out


def summarise(lines: list[dict[str, object]], samples: int = 200) -> dict[str, object]:
    """Each pair's marks a deal and share of deals won, and the ladder's ratings, from the
    result lines (a deal repeated by a resumed run counts once)."""
    seen: dict[tuple[object, object, object], dict[str, object]] = {}
    for r in lines:
        seen.setdefault((r["a"], r["b"], r["deal"]), r)
    names: list[str] = []
    for r in seen.values():
        for key in ("a", "b"):
            if r[key] not in names:
                names.append(str(r[key]))
    order = [str(n) for n in lines[0]["bots"]] if lines and "bots" in lines[0] else names  # type: ignore[union-attr]
    names = [n for n in order if n in names] + [n for n in names if n not in order]
    pairs: dict[tuple[str, str], list[float]] = defaultdict(list)
    by_deal: dict[int, list[tuple[str, str, float]]] = defaultdict(list)
    for (a, b, deal), r in seen.items():
        diff = float(r["diff"])  # type: ignore[arg-type]
        pairs[(str(a), str(b))].append(diff)
        by_deal[int(deal)].append((str(a), str(b), score_of(diff)))  # type: ignore[call-overload]
    rows = []
    for (a, b), diffs in pairs.items():
        mean, low, high = mean_ci(diffs)
        won = sum(score_of(d) for d in diffs) / len(diffs)
        rows.append({"a": a, "b": b, "deals": len(diffs), "mean": mean, "low": low,
                     "high": high, "won": won})
    ratings = fit_elo(names, [g for games in by_deal.values() for g in games])
    intervals = bootstrap_elo(names, by_deal, samples=samples)
    ladder = [{"bot": n, "elo": ratings[n], "low": intervals[n][0], "high": intervals[n][1]}
              for n in names]
    return {"pairs": rows, "ladder": ladder, "deals": len(by_deal)}


def render(summary: dict[str, object]) -> str:
    """The summary as text: a line a pair, then the ladder."""
    out = [f"{summary['deals']} deals"]
    for p in summary["pairs"]:  # type: ignore[attr-defined]
        out.append(f"{p['a']} - {p['b']}: {p['mean']:+.1f} a deal [{p['low']:+.1f}, "
                   f"{p['high']:+.1f}] over {p['deals']} duplicate deals; won {p['won']:.1%}")
    out.append("Elo (the first at 0; 95% bootstrap interval):")
    for r in summary["ladder"]:  # type: ignore[attr-defined]
        out.append(f"  {r['bot']}: {r['elo']:+.0f} [{r['low']:+.0f}, {r['high']:+.0f}]")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="debutant,club,fort,expert",
                        help="levels or registry specs, comma-separated; the first is Elo 0")
    parser.add_argument("--game", default="coinche")
    parser.add_argument("--rules", default="official")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--start", type=int, default=0, help="first deal number")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="append each pair's result here too")
    parser.add_argument("--summary", default=None, help="only summarise a results file")
    parser.add_argument("--samples", type=int, default=200, help="bootstrap draws")
    parser.add_argument("--json", action="store_true", help="the summary as JSON")
    add_parallel_arguments(parser)
    args = parser.parse_args(argv)
    if args.summary:
        with open(args.summary, encoding="utf-8") as f:
            lines = [json.loads(line) for line in f if line.strip()]
        if not lines:
            print("no deals", file=sys.stderr)
            return 1
        result = summarise(lines, samples=args.samples)
        print(json.dumps(result) if args.json else render(result))
        return 0
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(set(names)) < 2 or len(set(names)) != len(names):
        parser.error("--bots: name at least two different bots, each once")
    specs = {name: level_spec(name) or name for name in names}
    rules = Rules.preset(args.rules, args.game)
    configs = {}
    for a, b in itertools.combinations(names, 2):
        config = ArenaConfig(a=specs[a], b=specs[b], game=args.game, rules=args.rules,
                             deals=args.deals, seed=args.seed)
        config.check()
        configs[(a, b)] = config
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    lines = []
    pairs = [(index, pair) for index in range(args.start, args.start + args.deals)
             for pair in configs]
    tasks = [(configs[pair], rules, index) for index, pair in pairs]
    ship_to_cluster(args.scheduler)
    try:
        results = parallel_map(play_task, tasks, args.workers, args.scheduler)
        for (_, (a, b)), line in zip(pairs, results, strict=False):  # in the tasks' order
            lines.append(write({**line, "a": a, "b": b, "spec_a": specs[a],
                                "spec_b": specs[b], "bots": names}, out))
    finally:
        if out:
            out.close()
    if lines:
        print(render(summarise(lines, samples=args.samples)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
