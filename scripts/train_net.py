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

``scratch`` makes the shipped weights from nothing, every stage of docs/net.md's recipe in
turn (level ``dd``'s deals, a network, its self-play deals, a network on both, the deals whose
calls are labelled by the true deal, the tuning) in ``--work``, each stage taken up where it
stopped (its chunks, its checkpoint; a stage whose weights are written is skipped), each
stage's wall and CPU time printed; ``--dd-deals`` and the other counts scale it down:

    OPENBLAS_NUM_THREADS=1 nice -n 15 .venv/bin/python scripts/train_net.py scratch \\
        --work net-scratch --out net.npz
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# one BLAS thread a process: the pool's processes share two cores
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from rebelote.actions import PLAYS
from rebelote.arena import parallel_map
from rebelote.bots.net import describe, load_model, save_model
from rebelote.bots.nettrain import (
    CALL_TEMPERATURE,
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


def training_data(data_dirs: Path | Sequence[Path], belote_calls_from: Path | None = None,
                  calls_only: bool = False, cards_from: Sequence[Path] = (),
                  pass_bonus: float = 0.0) -> Examples:
    """The rows ``train`` fits: the chunks of ``data_dirs`` (each folder's chunks sorted by
    name, the folders in their order), belote's calls from ``belote_calls_from``, the calls
    alone with ``calls_only``, the cards of ``cards_from``, the pass bonus."""
    dirs = [data_dirs] if isinstance(data_dirs, Path) else list(data_dirs)
    data = Examples.concat([read_data(d) for d in dirs])
    if belote_calls_from is not None:
        belote = RULE_SETS.index("belote:official")
        more = read_data(belote_calls_from)
        calls = more.legal[:, :len(PLAYS)].sum(axis=1) == 0.0
        mine = (data.legal[:, :len(PLAYS)].sum(axis=1) == 0.0) & \
            (data.deal % len(RULE_SETS) == belote)
        data = Examples.concat([data.rows(~mine),
                                more.rows(calls & (more.deal % len(RULE_SETS) == belote))])
    if calls_only:
        data = data.rows(data.legal[:, :len(PLAYS)].sum(axis=1) == 0.0)
    for folder in cards_from:
        more = read_data(folder)
        cards = more.legal[:, :len(PLAYS)].sum(axis=1) > 0.0
        data = Examples.concat([data, more.rows(cards)])
    return with_pass_bonus(data, pass_bonus)


def fit_and_save(data: Examples, out: Path, seed: int = 1, epochs: int = 20, hidden: int = 256,
                 batch: int = 256, rate: float = 1e-3, checkpoint: Path | None = None,
                 card_q: float | None = None, call_q: float | None = None,
                 init: Path | None = None) -> None:
    """``train``: holds out the deals whose number ends in 9, fits the rest (module docstring),
    prints the held-out figures after each epoch and writes the weights to ``out`` (whole or
    not at all: a stopped run leaves no ``out``)."""
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

    start = None if init is None else load_model(init)
    if start is not None:
        log(0, start)  # the start's figures on the same held-out rows
    model = train(fit, seed, hidden=hidden, epochs=epochs, batch=batch, rate=rate,
                  checkpoint=checkpoint, log=log, card_q=card_q, call_q=call_q, init=start)
    tmp = out.with_name(out.name + ".tmp.npz")
    save_model(model, tmp)
    tmp.replace(out)
    print(json.dumps({"out": str(out), **describe(model)}), flush=True)


def _times() -> tuple[float, float]:
    """The wall clock and the CPU time of this process and its finished children (a pool's)."""
    t = os.times()
    return time.time(), t.user + t.system + t.children_user + t.children_system


def from_scratch(work: Path, out: Path, workers: int = 1, scheduler: str | None = None,
                 dd_deals: int = 30000, self_deals: int = 10000, calls_deals: int = 20000,
                 chunk: int = 500, dd_epochs: int = 10, all_epochs: int = 8,
                 tune_epochs: int = 2, hidden: int = 256, seed: int = 1,
                 data_seeds: tuple[int, int, int] = (11, 12, 13)) -> None:
    """The shipped weights from nothing (docs/net.md, "The shipped weights, from scratch"), in
    ``work``: level ``dd``'s deals of ``data_seeds[0]`` and a network trained on them, the
    self-play deals of ``data_seeds[1]`` played by that network, a network trained on both, the
    deals of ``data_seeds[2]`` whose calls are labelled by the true deal (``dd+calls``), and
    that network tuned on their calls (belote's the tuned bidder's, a pass bonus of 30 marks,
    the calls as values at 25 marks) into ``out``. Every stage is taken up where it stopped:
    a data stage skips its chunks written, a training stage whose weights are written is
    skipped and one stopped takes up after its last epoch (its checkpoint). Prints each
    stage's wall and CPU time, and the total's."""
    work.mkdir(parents=True, exist_ok=True)
    threads = {k: os.environ.get(k) for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    if any(v != "1" for v in threads.values()):
        print(f"note: {threads}: the shipped weights were made on one BLAS thread; another "
              "count sums in another order and ends with other weights (docs/net.md)",
              flush=True)
    dd_seed, self_seed, calls_seed = data_seeds
    dd, own, calls = (work / f"dd{dd_seed}", work / f"dd{self_seed}",
                      work / f"calls-{calls_seed}")
    net_dd, net_all = work / f"net-dd{dd_seed}.npz", work / "net-ddall.npz"
    start = _times()

    def stage(number: int, name: str, run: Callable[[], object], done: Path | None = None
              ) -> None:
        print(f"== stage {number}/6: {name}", flush=True)
        if done is not None and done.exists():
            print(f"== stage {number}/6: {done} found, skipped", flush=True)
            return
        t0 = _times()
        run()
        t1 = _times()
        print(f"== stage {number}/6 done: {t1[0] - t0[0]:.0f} s wall, {t1[1] - t0[1]:.0f} s CPU",
              flush=True)

    def fit(data: Callable[[], Examples], target: Path, epochs: int,
            **options: Any) -> Callable[[], None]:
        return lambda: fit_and_save(data(), target, seed=seed, epochs=epochs, hidden=hidden,
                                    checkpoint=work / ("ck-" + target.name),
                                    **options)

    stage(1, f"data --level dd --seed {dd_seed} --deals {dd_deals}",
          lambda: make_data(dd_seed, 0, dd_deals, chunk, workers, dd, "dd", scheduler))
    stage(2, f"train on {dd.name}, {dd_epochs} epochs",
          fit(lambda: training_data(dd), net_dd, dd_epochs), net_dd)
    stage(3, f"data --level dd:net={net_dd.name} --seed {self_seed} --deals {self_deals}",
          lambda: make_data(self_seed, 0, self_deals, chunk, workers, own, f"dd:net={net_dd}",
                            scheduler))
    stage(4, f"train on {dd.name} and {own.name}, {all_epochs} epochs",
          fit(lambda: training_data([dd, own]), net_all, all_epochs), net_all)
    stage(5, f"data --level dd+calls --seed {calls_seed} --deals {calls_deals}",
          lambda: make_data(calls_seed, 0, calls_deals, chunk, workers, calls, "dd+calls",
                            scheduler))
    stage(6, f"tune {net_all.name} on {calls.name}'s calls, {tune_epochs} epochs",
          fit(lambda: training_data(calls, belote_calls_from=dd, pass_bonus=30.0), out,
              tune_epochs, call_q=CALL_TEMPERATURE, init=net_all), out)
    end = _times()
    print(f"== from scratch: {out} in {end[0] - start[0]:.0f} s wall, "
          f"{end[1] - start[1]:.0f} s CPU", flush=True)


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
    s = sub.add_parser("scratch", help="the shipped weights from nothing: every stage of "
                       "docs/net.md's recipe in turn, each taken up where it stopped")
    s.add_argument("--work", type=Path, required=True,
                   help="a folder for the stages' chunks, weights and checkpoints")
    s.add_argument("--out", type=Path, required=True, help="the final weights")
    s.add_argument("--workers", type=int, default=1)
    s.add_argument("--scheduler", default=None, help="a Dask scheduler (tcp://host:port)")
    s.add_argument("--dd-deals", type=int, default=30000,
                   help="level dd's deals (stage 1, seed 11)")
    s.add_argument("--self-deals", type=int, default=10000,
                   help="the self-play deals (stage 3, seed 12)")
    s.add_argument("--calls-deals", type=int, default=20000,
                   help="level dd+calls's deals (stage 5, seed 13)")
    s.add_argument("--chunk", type=int, default=500)
    s.add_argument("--dd-epochs", type=int, default=10)
    s.add_argument("--all-epochs", type=int, default=8)
    s.add_argument("--tune-epochs", type=int, default=2)
    s.add_argument("--hidden", type=int, default=256)
    s.add_argument("--seed", type=int, default=1, help="the training's seed (every stage)")
    a = p.parse_args(argv)
    for name in ("deals", "chunk", "workers", "epochs", "hidden", "batch", "dd_deals",
                 "self_deals", "calls_deals", "dd_epochs", "all_epochs", "tune_epochs"):
        if getattr(a, name, 1) < 1:
            p.error(f"--{name.replace('_', '-')}: 1 or more")
    if a.cmd == "data":
        make_data(a.seed, a.start, a.deals, a.chunk, a.workers, a.out, a.level, a.scheduler)
        return 0
    if a.cmd == "scratch":
        from_scratch(a.work, a.out, workers=a.workers, scheduler=a.scheduler,
                     dd_deals=a.dd_deals, self_deals=a.self_deals, calls_deals=a.calls_deals,
                     chunk=a.chunk, dd_epochs=a.dd_epochs, all_epochs=a.all_epochs,
                     tune_epochs=a.tune_epochs, hidden=a.hidden, seed=a.seed)
        return 0
    data = training_data(a.data, belote_calls_from=a.belote_calls_from,
                         calls_only=a.calls_only, cards_from=a.cards_from,
                         pass_bonus=a.pass_bonus)
    fit_and_save(data, a.out, seed=a.seed, epochs=a.epochs, hidden=a.hidden, batch=a.batch,
                 rate=a.rate, checkpoint=a.checkpoint, card_q=a.card_q, call_q=a.call_q,
                 init=a.init)
    return 0

if __name__ == "__main__":
    sys.exit(main())
