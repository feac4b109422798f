"""Make the learned player's examples on a process pool and train its network from a seed; both
deterministic and resumable (rebelote.bots.nettrain, rebelote.bots.net).

    nice -n 19 .venv/bin/python scripts/train_net.py data --seed 1 --deals 2000 \\
        --workers 2 --out net-data
    nice -n 19 .venv/bin/python scripts/train_net.py train --data net-data --seed 1 \\
        --epochs 20 --checkpoint net-ckpt.npz --out src/rebelote/bots/data/net.npz

``data`` plays deals ``--start`` .. ``--start + --deals - 1`` of ``--seed`` in chunks of
``--chunk`` deals on the arena's pool of ``--workers`` processes (or a Dask cluster,
``--scheduler``), each chunk written to ``OUT/chunk-SEED-FIRST.npz`` as soon as it is done: a
run stopped and started again skips the chunks it finds, so it loses at most the chunks in
progress. The same examples on any number of workers.

``train`` reads every chunk of ``--data``, holds out the deals whose number ends in 9 (a
tenth), trains (a checkpoint after each epoch with ``--checkpoint``: a run stopped and started
again with the same options takes up after the last epoch and ends with the same weights to the
bit), and prints the held-out figures after each epoch: agreement with the teacher's best
action, cross-entropy beside a uniform choice's, the value's mean error in marks.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

# one BLAS thread a process: the pool's processes share two cores
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from rebelote.actions import PLAYS
from rebelote.arena import parallel_map
from rebelote.bots.net import describe, load_model, save_model
from rebelote.bots.nettrain import (
    RULE_SETS,
    TEACHER,
    Examples,
    deal_examples,
    evaluate,
    train,
    with_pass_bonus,
)


def _chunk(args: tuple[int, int, int, str, str]) -> str:
    seed, first, count, level, out = args
    path = Path(out) / f"chunk-{seed}-{first:07d}.npz"
    if path.exists():
        return str(path)
    parts = [deal_examples(seed, i, level) for i in range(first, first + count)]
    tmp = path.with_name(path.name + ".tmp.npz")
    Examples.concat(parts).save(tmp)
    tmp.replace(path)
    return str(path)


def make_data(seed: int, start: int, deals: int, chunk: int, workers: int, out: Path,
              level: str, scheduler: str | None = None) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    todo = [(seed, first, min(chunk, start + deals - first), level, str(out))
            for first in range(start, start + deals, chunk)]
    done: list[str] = []
    t0 = time.time()
    for path in parallel_map(_chunk, todo, workers=workers, scheduler=scheduler):
        done.append(path)
        print(f"{len(done)}/{len(todo)} chunks ({time.time() - t0:.0f} s): {path}", flush=True)
    return done


def read_data(folder: Path) -> Examples:
    paths = sorted(folder.glob("chunk-*.npz"))
    paths = [p for p in paths if not p.name.endswith(".tmp.npz")]
    if not paths:
        raise SystemExit(f"--data: no chunk-*.npz in {folder}")
    return Examples.concat([Examples.load(p) for p in paths])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("data", help="play deals with the teacher and write their examples")
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--start", type=int, default=0)
    d.add_argument("--deals", type=int, default=2000)
    d.add_argument("--chunk", type=int, default=20)
    d.add_argument("--workers", type=int, default=1)
    d.add_argument("--scheduler", default=None, help="a Dask scheduler (tcp://host:port)")
    d.add_argument("--level", default=TEACHER,
                   help="the teacher's pimc level (counted), or dd / dd+calls (the true deal's "
                        "labels: the cards, or the cards and the calls), net+calls (the calls "
                        "by the network's play of the true deal from each candidate, =PATH "
                        "its weights), net-calls (those calls alone), search-cards (the cards "
                        "alone by the search, =N worlds a card, the shipped network the "
                        "driver), :SPEC a driver")
    d.add_argument("--out", type=Path, required=True, help="a folder for the chunks")
    t = sub.add_parser("train", help="train the network on the chunks of --data")
    t.add_argument("--data", type=Path, required=True)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--epochs", type=int, default=20)
    t.add_argument("--hidden", type=int, default=256)
    t.add_argument("--batch", type=int, default=256)
    t.add_argument("--rate", type=float, default=1e-3)
    t.add_argument("--checkpoint", type=Path, default=None)
    t.add_argument("--card-q", type=float, default=None, metavar="T",
                   help="learn the cards as values (their targets' softmax temperature T: "
                        "10 for the search's examples, 5 for the true deal's, level dd)")
    t.add_argument("--call-q", type=float, default=None, metavar="T",
                   help="learn the calls labelled by the true deal (level dd+calls) as values "
                        "(their targets' softmax temperature T: 25)")
    t.add_argument("--cards-from", type=Path, action="append", default=[], metavar="DIR",
                   help="more chunks whose cards only are learned (their calls dropped: the "
                        "driver's calls of level dd beside the true deal's of dd+calls)")
    t.add_argument("--calls-only", action="store_true",
                   help="learn --data's calls only (its cards dropped): the cards come from "
                        "--cards-from (level search-cards: the search's cards, no calls)")
    t.add_argument("--belote-calls-from", type=Path, default=None, metavar="DIR",
                   help="belote's calls from these chunks (level dd: the tuned driver's) "
                        "instead of --data's")
    t.add_argument("--pass-bonus", type=float, default=0.0, metavar="MARKS",
                   help="marks added to the pass of the calls labelled by the true deal")
    t.add_argument("--init", type=Path, default=None, metavar="NPZ",
                   help="start from these weights (fine-tuning) instead of the seed's")
    t.add_argument("--out", type=Path, required=True)
    a = p.parse_args(argv)
    for name in ("deals", "chunk", "workers", "epochs", "hidden", "batch"):
        if getattr(a, name, 1) < 1:
            p.error(f"--{name}: 1 or more")
    if a.cmd == "data":
        make_data(a.seed, a.start, a.deals, a.chunk, a.workers, a.out, a.level, a.scheduler)
        return 0
    data = read_data(a.data)
    if a.belote_calls_from is not None:
        belote = RULE_SETS.index("belote:official")
        more = read_data(a.belote_calls_from)
        calls = more.legal[:, :len(PLAYS)].sum(axis=1) == 0.0
        mine = (data.legal[:, :len(PLAYS)].sum(axis=1) == 0.0) & \
            (data.deal % len(RULE_SETS) == belote)
        data = Examples.concat([data.rows(~mine),
                                more.rows(calls & (more.deal % len(RULE_SETS) == belote))])
    if a.calls_only:
        data = data.rows(data.legal[:, :len(PLAYS)].sum(axis=1) == 0.0)
    for folder in a.cards_from:
        more = read_data(folder)
        cards = more.legal[:, :len(PLAYS)].sum(axis=1) > 0.0
        data = Examples.concat([data, more.rows(cards)])
    data = with_pass_bonus(data, a.pass_bonus)
    held = data.deal % 10 == 9
    fit, test = data.rows(~held), data.rows(held)
    print(f"{len(fit)} examples to fit, {len(test)} held out", flush=True)

    is_call = test.legal[:, :len(PLAYS)].sum(axis=1) == 0.0
    parts = {"calls_": test.rows(is_call), "cards_": test.rows(~is_call)}

    def log(epoch: int, model: dict[str, np.ndarray]) -> None:
        figures = {k: round(v, 4) for k, v in evaluate(model, test).items()}
        for name, part in parts.items():
            got = evaluate(model, part)
            figures.update({name + k: round(got.get(k, 0.0), 4)
                            for k in ("top_agreement", "cross_entropy")})
        print(json.dumps({"epoch": epoch, **figures}), flush=True)

    init = None if a.init is None else load_model(a.init)
    if init is not None:
        log(0, init)  # the start's figures on the same held-out rows
    model = train(fit, a.seed, hidden=a.hidden, epochs=a.epochs, batch=a.batch, rate=a.rate,
                  checkpoint=a.checkpoint, log=log, card_q=a.card_q, call_q=a.call_q,
                  init=init)
    save_model(model, a.out)
    print(json.dumps({"out": str(a.out), **describe(model)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
