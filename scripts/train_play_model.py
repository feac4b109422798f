"""Make the examples of the learned model of card play (rebelote.bots.playmodel) on a process
pool, and train its model from a seed; both deterministic.

    nice -n 10 .venv/bin/python scripts/train_play_model.py data --deals 12000 --seed 2 \\
        --worlds 10 --workers 2 --out play-2-w10.npz
    nice -n 10 .venv/bin/python scripts/train_play_model.py train --data play-2-w10.npz \\
        --seed 1 --epochs 15 --out src/rebelote/bots/data/playmodel.npz

(the commands that made the shipped weights: the second gives them to the bit from the
first's examples; without ``--worlds`` the targets are the true deal's best cards)

``data`` plays deals ``--start`` .. ``--start + --deals - 1`` of ``--seed`` in chunks of
200 on the arena's pool of ``--workers`` processes (rebelote.arena.parallel_map; or a Dask
cluster, ``--scheduler``): the same examples on any number of workers. ``train`` holds out
the last fifth of the examples' deals and prints the held-out cross-entropy beside a uniform
choice's, and how often the likeliest card is a best one.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

# one BLAS thread: the small products of the training run faster than with a thread a core on
# a machine whose cores are busy (and as fast on an idle one)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from rebelote.arena import parallel_map
from rebelote.bots.playmodel import (
    cross_entropy,
    deal_examples,
    save_model,
    top_agreement,
    train,
    uniform_cross_entropy,
)

CHUNK = 200
Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _chunk(args: tuple[int, int, int, int]) -> Arrays:
    seed, first, count, worlds = args
    xs, ls, ts, deal = [], [], [], []
    for i in range(first, first + count):
        x, legal, t = deal_examples(seed, i, worlds=worlds)
        xs.append(x)
        ls.append(legal)
        ts.append(t)
        deal.append(np.full(len(x), i, dtype=np.int64))
    return (np.concatenate(xs), np.concatenate(ls), np.concatenate(ts), np.concatenate(deal))


def make_data(seed: int, start: int, deals: int, workers: int, scheduler: str | None = None,
              worlds: int = 0) -> Arrays:
    """The examples of the deals, in chunks on the arena's pool (or Dask cluster)."""
    tasks = [(seed, i, min(CHUNK, start + deals - i), worlds)
             for i in range(start, start + deals, CHUNK)]
    parts = list(parallel_map(_chunk, tasks, workers=workers, scheduler=scheduler))
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]), np.concatenate([p[3] for p in parts]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    data = sub.add_parser("data", help="make the examples")
    data.add_argument("--deals", type=int, default=20000)
    data.add_argument("--start", type=int, default=0)
    data.add_argument("--seed", type=int, default=1)
    data.add_argument("--workers", type=int, default=1)
    data.add_argument("--scheduler", default=None)
    data.add_argument("--worlds", type=int, default=0,
                      help="targets: the best card of the mean over this many worlds of the "
                           "seat's (0: of the true deal)")
    data.add_argument("--out", required=True)
    fit = sub.add_parser("train", help="train the model on examples")
    fit.add_argument("--data", required=True, nargs="+")
    fit.add_argument("--seed", type=int, default=1)
    fit.add_argument("--hidden", type=int, default=128)
    fit.add_argument("--epochs", type=int, default=8)
    fit.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    if args.command == "data":
        x, legal, t, deal = make_data(args.seed, args.start, args.deals, args.workers,
                                      args.scheduler, args.worlds)
        np.savez_compressed(args.out, x=x.astype(np.uint8 if np.all(x == x.round()) else
                                                  np.float32),
                            legal=legal.astype(np.uint8), target=t.astype(np.float32),
                            deal=deal)
        print(f"{len(x)} examples from {args.deals} deals in {time.perf_counter() - t0:.0f} s "
              f"-> {args.out}")
        return 0
    parts = [np.load(p) for p in args.data]
    x = np.concatenate([p["x"] for p in parts]).astype(np.float64)
    legal = np.concatenate([p["legal"] for p in parts]).astype(np.float64)
    target = np.concatenate([p["target"] for p in parts]).astype(np.float64)
    deal = np.concatenate([p["deal"] for p in parts])
    cut = np.quantile(deal, 0.8)
    train_rows, held = deal <= cut, deal > cut
    model = train(x[train_rows], legal[train_rows], target[train_rows], args.seed,
                  hidden=args.hidden, epochs=args.epochs)
    ce = cross_entropy(model, x[held], legal[held], target[held])
    base = uniform_cross_entropy(legal[held], target[held])
    top = top_agreement(model, x[held], legal[held], target[held])
    save_model(model, args.out)
    print(f"{int(train_rows.sum())} examples trained, {int(held.sum())} held out: cross-entropy "
          f"{ce:.4f} (uniform {base:.4f}), likeliest card a best one {top:.1%}; "
          f"{time.perf_counter() - t0:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
