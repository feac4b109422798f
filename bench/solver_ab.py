"""The compiled solver against an earlier build of itself, in one process, on the same
positions: the A/B of each step of docs/solver.md.

The search of a git revision (``git show REV:src/rebelote/solver/_search.pyx``) is compiled
into a temporary directory as its own module (its own table) and imported beside this
checkout's ``rebelote.solver._search``. Each position is solved by both, one after the other
(the order alternating), ``--reps`` times; a position's time is each build's minimum (CPU,
``process_time``). Printed: the nodes and CPU time of each build, in all and the median, the
new build's over the old's, and the positions whose values differ (none, or the new build is
wrong).

Positions: ``--deals`` full deals (seeded shuffles, the four suit trumps each, E leading) and
the IS-DD worlds at trick 1 of ``--worlds-deals`` of the heuristic's deals (3 worlds a card
with a choice; :func:`trick_one_worlds`, which bench/solver.py deals too).

    .venv/bin/pip install cython      # the build's compiler (pip builds rebelote in isolation)
    nice -n 15 .venv/bin/python bench/solver_ab.py REV [--deals 60] [--worlds-deals 30] \\
        [--reps 2] [--best]

``--best``: ``best_value``'s search (the root as one node) instead of each card's value.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rebelote.cards import cards_mask
from rebelote.rules import Rules
from rebelote.solver import Position, _args, _search

RULES = Rules.preset("official", "coinche")
ROOT = Path(__file__).resolve().parent.parent


def full_deals(deals: int) -> list[Position]:
    out = []
    for seed in range(deals):
        deck = list(range(32))
        random.Random(f"solver-ab:{seed}").shuffle(deck)
        hands = tuple(cards_mask(deck[8 * s: 8 * s + 8]) for s in range(4))
        out += [Position(hands, trump, 1) for trump in range(4)]
    return out


def trick_one_worlds(deals: int, per_card: int) -> tuple[list[Position], float]:
    """IS-DD worlds at trick 1: deals bid and played by the heuristic bot (official coinche,
    the arena's deals of seed 1); at each card of the first trick with a choice, ``per_card``
    worlds dealt from the seat's observation (``DealState.from_observation``). Returns their
    positions and the CPU time dealing them took."""
    from rebelote.actions import PLAY
    from rebelote.bots import make_bot
    from rebelote.deal import DealState
    from rebelote.solver import position_of_state

    bot = make_bot("heuristic")
    deal_cpu = 0.0
    worlds: list[Position] = []
    for i in range(deals):
        state = DealState.new(RULES, i % 4, rng=random.Random(f"arena:1:deal:{i}"))
        rng = random.Random(i)
        while not state.is_terminal and len(state.tricks) < 1:
            if state.phase == PLAY and state.playable.bit_count() > 1:
                obs = state.observation(state.player)
                for _ in range(per_card):
                    c0 = time.process_time()
                    worlds.append(position_of_state(DealState.from_observation(obs, rng)))
                    deal_cpu += time.process_time() - c0
            state = state.apply(bot.act(state.observation(state.player), rng))
    return worlds, deal_cpu


def build(rev: str, where: Path) -> Any:
    """The search of ``rev``, compiled into ``where`` as the module ``_search_ab``."""
    try:
        from Cython.Build import cythonize  # noqa: F401
    except ImportError:
        sys.exit("bench/solver_ab.py needs Cython: .venv/bin/pip install cython")
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:src/rebelote/solver/"
                             "_search.pyx"], check=True, capture_output=True, text=True).stdout
    (where / "_search_ab.pyx").write_text(source)
    (where / "setup.py").write_text(
        "from setuptools import Extension, setup\n"
        "from Cython.Build import cythonize\n"
        "setup(ext_modules=cythonize([Extension('_search_ab', ['_search_ab.pyx'], "
        "extra_compile_args=['-O3'])], include_path=[" + repr(str(ROOT / "src")) + "], "
        "compiler_directives={'language_level': 3}, quiet=True))\n")
    subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"], cwd=where,
                   check=True, capture_output=True)
    sys.path.insert(0, str(where))
    return importlib.import_module("_search_ab")


def solver_of(module: Any) -> Any:
    """A build's solver: its ``Solver`` (a solver per thread), or the module (one per
    process, before it)."""
    return module.Solver() if hasattr(module, "Solver") else module


def compare(name: str, positions: list[Position], old: Any, new: Any, reps: int,
            best: bool) -> None:
    engines = (old, new)
    times = [[float("inf")] * len(positions) for _ in engines]
    nodes = [[0] * len(positions) for _ in engines]
    differ = 0
    for rep in range(reps):
        for i, pos in enumerate(positions):
            args = _args(pos, RULES)
            got: list[Any] = [None, None]
            for k in ((0, 1) if (i + rep) % 2 == 0 else (1, 0)):
                fn = engines[k].solve_best if best else engines[k].solve_cards
                t = time.process_time()
                out = fn(*args)
                times[k][i] = min(times[k][i], time.process_time() - t)
                nodes[k][i] = out[-1]
                got[k] = out[:-1]
            differ += got[0] != got[1]
    print(f"{name} ({'best value' if best else 'each card'}, {len(positions)} positions, "
          f"min of {reps}): values differ in {differ}")
    for k, label in enumerate(("old", "new")):
        n, t = nodes[k], times[k]
        mn, mt = statistics.median(n), statistics.median(t)
        print(f"  {label}  nodes {sum(n):>13,} (x{sum(n) / sum(nodes[0]):.3f}) median "
              f"{mn:>10,.0f} (x{mn / statistics.median(nodes[0]):.3f})  CPU {sum(t):8.3f} s "
              f"(x{sum(t) / sum(times[0]):.3f}) median {mt * 1e3:7.2f} ms "
              f"(x{mt / statistics.median(times[0]):.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the git revision of the old build (a commit, main~3...)")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--worlds-deals", type=int, default=30)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--best", action="store_true")
    args = parser.parse_args()
    if _search is None:
        sys.exit("bench/solver_ab.py: the compiled solver is not built in this install")
    with tempfile.TemporaryDirectory() as tmp:
        old = solver_of(build(args.rev, Path(tmp)))
        new = solver_of(_search)
        print(f"# old: {args.rev}; new: this checkout; CPU times per position: the minimum "
              f"of {args.reps} runs, the two builds alternating")
        if args.deals:
            compare("full deals", full_deals(args.deals), old, new, args.reps, args.best)
        if args.worlds_deals:
            worlds, _ = trick_one_worlds(args.worlds_deals, 3)
            compare("IS-DD worlds at trick 1", worlds, old, new, args.reps, args.best)


if __name__ == "__main__":
    main()
