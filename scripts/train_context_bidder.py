"""Make the examples of the learned bidder in context (rebelote.bots.contextual) on a process
pool, and train its model from a seed; both deterministic.

    nice -n 10 .venv/bin/python scripts/train_context_bidder.py data --deals 6000 --seed 1 \\
        --workers 2 --out ctx-1.npz
    nice -n 10 .venv/bin/python scripts/train_context_bidder.py train --data ctx-1.npz \\
        --seed 1 --out src/rebelote/bots/data/contextual.npz

``data`` plays deals ``--start`` .. ``--start + --deals - 1`` of ``--seed`` in chunks of
50 on the arena's pool of ``--workers`` processes (rebelote.arena.parallel_map; or a Dask
cluster, ``--scheduler``): the same examples on any number of workers; ``train`` holds
out the last fifth of the examples' deals and prints the held-out cross-entropy beside the
class frequencies'.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

# one BLAS thread: the small products of the training run 15 times faster than with a thread
# a core on a machine whose cores are busy (and as fast on an idle one)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from rebelote.arena import parallel_map
from rebelote.bots.contextual import (
    base_log_loss,
    examples,
    log_loss,
    save_model,
    train,
)

CHUNK = 50


def _chunk(args: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    seed, first, count = args
    xs, ys, deal = [], [], []
    for i in range(first, first + count):
        x, y = examples(1, seed, start=i)
        xs.append(x)
        ys.append(y)
        deal.append(np.full(len(y), i, dtype=np.int64))
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(deal)


def make_data(seed: int, start: int, deals: int, workers: int, scheduler: str | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The examples of the deals, in chunks on the arena's pool (or Dask cluster)."""
    tasks = [(seed, i, min(CHUNK, start + deals - i)) for i in range(start, start + deals, CHUNK)]
    parts = list(parallel_map(_chunk, tasks, workers=workers, scheduler=scheduler))
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("data", help="make the examples")
    d.add_argument("--deals", type=int, default=6000)
    d.add_argument("--start", type=int, default=0)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--workers", type=int, default=1)
    d.add_argument("--scheduler", default=None, help="a Dask scheduler, tcp://host:port")
    d.add_argument("--out", required=True)
    t = sub.add_parser("train", help="train the model on examples")
    t.add_argument("--data", nargs="+", required=True)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--hidden", type=int, default=64)
    t.add_argument("--epochs", type=int, default=30)
    t.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    if args.command == "data":
        x, y, deal = make_data(args.seed, args.start, args.deals, args.workers,
                               args.scheduler)
        np.savez_compressed(args.out, x=x, y=y, deal=deal)
        print(f"{len(y)} examples from {args.deals} deals in {time.perf_counter() - t0:.0f} s",
              file=sys.stderr)
        return 0
    parts = [np.load(p) for p in args.data]
    x = np.concatenate([p["x"] for p in parts])
    y = np.concatenate([p["y"] for p in parts])
    deal = np.concatenate([p["deal"] + 10_000_000 * k for k, p in enumerate(parts)])
    deals = np.unique(deal)
    held = np.isin(deal, deals[-max(1, len(deals) // 5):])
    model = train(x[~held], y[~held], args.seed, hidden=args.hidden, epochs=args.epochs)
    save_model(model, args.out)
    print(f"{int((~held).sum())} examples trained in {time.perf_counter() - t0:.0f} s; held-out "
          f"cross-entropy {log_loss(model, x[held], y[held]):.4f} (the class frequencies' "
          f"{base_log_loss(y[~held], y[held]):.4f}, {int(held.sum())} examples)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
