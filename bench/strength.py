"""Strength of bots by budget, deal by deal: the arena's duplicate deals
(:func:`rebelote.arena.play_duplicate_deal`, the same deals and results as ``rebelote arena``
with the same seed) played one at a time (a bot is a spec or a level for people, ``fort``),
each deal's result written as a JSON line as soon as it is known, so that a long match
interrupted still gives its first deals; then the mean mark difference with its 95% interval.

    nice -n 10 .venv/bin/python bench/strength.py --a pimc:fast --b heuristic --game coinche \\
        --deals 60 --seed 1 [--out results.jsonl] [--start 0]
    .venv/bin/python bench/strength.py --summary results.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from typing import TextIO

from rebelote.arena import ArenaConfig, mean_ci, parallel_map, play_duplicate_deal
from rebelote.bots import level_spec
from rebelote.rules import Rules


def spec_of(text: str) -> str:
    """A registry spec, or the spec of a level for people (``expert``)."""
    return level_spec(text) or text


def elo(diffs: list[float]) -> tuple[float, float, float, float]:
    """A's share of the duplicate deals won (a deal A's mark beats B's counts 1, a tie 1/2) and
    the Elo difference it means, ``400 log10(p / (1 - p))``, with the 95% interval of the share
    (normal approximation) carried through: ``(share, elo, low, high)``."""
    n = len(diffs)
    p = (sum(1.0 for d in diffs if d > 0) + 0.5 * sum(1.0 for d in diffs if d == 0)) / n
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-9) / n)

    def to_elo(x: float) -> float:
        x = min(max(x, 1e-3), 1 - 1e-3)
        return 400.0 * math.log10(x / (1.0 - x))

    return p, to_elo(p), to_elo(p - half), to_elo(p + half)


def summary(lines: list[dict[str, object]]) -> str:
    """The mean and interval over the deals of ``lines``, each deal once (a run resumed with
    ``--start`` may repeat the deal it was stopped on; a deal's result is the same each time)."""
    by_deal: dict[object, dict[str, object]] = {}
    for r in lines:
        by_deal.setdefault(r["deal"], r)
    lines = list(by_deal.values())
    diffs = [float(r["diff"]) for r in lines]  # type: ignore[arg-type]
    if not diffs:
        return "no deals"
    mean, low, high = mean_ci(diffs)
    share, rating, elo_low, elo_high = elo(diffs)
    a_ms = [float(r["a_ms"]) for r in lines]  # type: ignore[arg-type]
    head = lines[0]
    taken = {"a": 0, "b": 0}
    made = {"a": 0, "b": 0}
    counted = all("made" in r for r in lines)
    for r in lines:
        takers: list[str | None] = r["takers"]  # type: ignore[assignment]
        for i, who in enumerate(takers):
            if who in taken:
                taken[who] += 1
                if counted and r["made"][i]:  # type: ignore[index]
                    made[who] += 1
    contracts = f"contracts taken A {taken['a']}, B {taken['b']}" + (
        f"; made A {made['a']}, B {made['b']}" if counted else "")
    return (f"{head['a']} vs {head['b']}, {head['game']} {head['rules']}, seed {head['seed']}: "
            f"{len(diffs)} duplicate deals, A - B = {mean:+.1f} a deal, 95% CI "
            f"[{low:+.1f}, {high:+.1f}]; deals won by A {share:.1%}, Elo {rating:+.0f} "
            f"[{elo_low:+.0f}, {elo_high:+.0f}]; {contracts}; A's mean time a deal "
            f"{statistics.mean(a_ms):.0f} ms")


def play_line(config: ArenaConfig, rules: Rules, index: int,
              **extra: object) -> dict[str, object]:
    """Duplicate deal ``index`` of ``config`` played, as a result line: both plays' mark
    differences (A's team minus B's), their mean, who took and whether it was made, each
    side's thinking time (ms, decisions with a choice) and the wall-clock seconds; ``extra``
    fields first."""
    times: tuple[list[float], list[float]] = ([], [])
    start = time.perf_counter()
    result, _ = play_duplicate_deal(config, rules, index, times)
    return {**extra, "a": config.a, "b": config.b, "game": config.game,
            "rules": config.rules, "seed": config.seed, "deal": index,
            "diffs": list(result.diffs), "diff": result.diff, "takers": list(result.takers),
            "made": list(result.made), "a_ms": sum(times[0]) * 1000,
            "b_ms": sum(times[1]) * 1000, "seconds": time.perf_counter() - start}


def play_task(task: tuple[ArenaConfig, Rules, int]) -> dict[str, object]:
    """:func:`play_line` of ``(config, rules, index)``: one task of a pool or a cluster."""
    return play_line(*task)


def write(line: dict[str, object], out: TextIO | None) -> dict[str, object]:
    """``line`` printed as JSON on standard output, and appended to ``out`` (flushed: a run
    stopped keeps every deal it finished)."""
    text = json.dumps(line)
    print(text, flush=True)
    if out:
        out.write(text + "\n")
        out.flush()
    return line


def add_parallel_arguments(parser: argparse.ArgumentParser) -> None:
    """``--workers`` and ``--scheduler``: where the deals are played (the results are the same
    for count-based bots; time-limited ones search less on a loaded machine)."""
    parser.add_argument("--workers", type=int, default=1,
                        help="deals played on a pool of this many processes")
    parser.add_argument("--scheduler", default=None,
                        help="deals played on the Dask cluster of this scheduler "
                        "(tcp://host:port; its workers need rebelote)")


def ship_to_cluster(scheduler: str | None, *also: str) -> None:
    """With a Dask ``scheduler``, this bench's code (and the modules named ``also``: the
    calling bench's own, ``__name__``) goes to the workers by value (they have rebelote
    installed, not the repository's bench/)."""
    if scheduler is not None:
        import cloudpickle

        for name in (__name__, *also):
            cloudpickle.register_pickle_by_value(sys.modules[name])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="pimc:fast")
    parser.add_argument("--b", default="heuristic")
    parser.add_argument("--game", default="coinche")
    parser.add_argument("--rules", default="official")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--start", type=int, default=0, help="first deal number")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="append each deal's result here too")
    parser.add_argument("--summary", default=None, help="only summarise a results file")
    add_parallel_arguments(parser)
    args = parser.parse_args(argv)
    if args.summary:
        with open(args.summary, encoding="utf-8") as f:
            print(summary([json.loads(line) for line in f if line.strip()]))
        return 0
    args.a, args.b = spec_of(args.a), spec_of(args.b)
    config = ArenaConfig(a=args.a, b=args.b, game=args.game, rules=args.rules,
                         deals=args.deals, seed=args.seed)
    rules = Rules.preset(args.rules, args.game)
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    lines = []
    tasks = [(config, rules, index) for index in range(args.start, args.start + args.deals)]
    ship_to_cluster(args.scheduler)
    try:
        for line in parallel_map(play_task, tasks, args.workers, args.scheduler):
            lines.append(write(line, out))
    finally:
        if out:
            out.close()
    print(summary(lines), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
