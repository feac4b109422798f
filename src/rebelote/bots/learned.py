"""The hand-only learned bidder (``learned:hand``; ``learned`` is now the bidder in context,
:mod:`rebelote.bots.contextual`): the heuristic's coinche and contrée calls on a hand
evaluation learned from played-out deals instead of hand-set rules.

**What is learned.** For a hand of 8 cards, a suit trump mode and the hand's place in the
play (0 = it leads the first trick), the card points its team makes as the taker (dix de der
included, 252 for a capot) when the deal is played out. The examples come from deals dealt
at random (``DealState.new``): for each deal, each suit and each team, the auction is set to
that team's 80 in that suit and the deal is played to its end by four heuristic bots; both
hands of the taking team are examples with the points their team made. Played-out points,
not double-dummy values: the double-dummy play flatters the taker (its partner "sees" its
hand); the heuristic's play is what the calls are then played with.

**The model.** A small MLP (:data:`FEATURES` inputs, one hidden layer of ``hidden`` ReLU
units, one output) fitted by full-batch Adam on the squared error, from a seed: the same
seed and examples give the same weights. NumPy only; the weights ship in the package
(``bots/data/bidder.npz``, a few kilobytes) and are read with ``numpy.load``.

**The bidder** (``make_bot("learned:hand")``): :class:`~rebelote.bots.heuristic.HeuristicBot`
whose coinche evaluation (``evaluate``) is the model's points for the suits, with the
belote and declarations added as :func:`~rebelote.bots.heuristic.contract_points` adds them;
no-trump and all-trump keep the heuristic's evaluation (no examples of them). Cards are the
heuristic's. In belote (take or pass on the turned card) it is the heuristic.

Train (the command that made the shipped weights is in docs/bots.md):

    .venv/bin/python scripts/train_bidder.py --deals 2000 --seed 1 --out bidder.npz

>>> bot = make_learned()
>>> from rebelote.cards import cards_mask, parse_cards
>>> strong = cards_mask(parse_cards(["JH", "9H", "AH", "TH", "AS", "AD", "7C", "8C"]))
>>> weak = cards_mask(parse_cards(["7H", "8H", "KS", "QS", "9D", "8D", "7C", "8C"]))
>>> bot.evaluate(strong, 1, False) > 110 > 70 > bot.evaluate(weak, 1, False)
True
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from rebelote.actions import OVER
from rebelote.auction import PASS, Bid
from rebelote.bots.heuristic import HeuristicBot, contract_points, hand_points
from rebelote.cards import Mask
from rebelote.deal import DealState
from rebelote.rules import Rules

#: Ranks (0..7 = 7 8 9 10 J Q K A) in trump order and in plain order, strongest first.
TRUMP_ORDER: Final = (4, 2, 7, 3, 6, 5, 1, 0)
PLAIN_ORDER: Final = (7, 3, 6, 5, 4, 2, 1, 0)
#: 8 trump ranks, 3 other suits x 8 ranks (longest first), lengths, aces, voids, place, and
#: the heuristic's own evaluation (the model learns what to correct in it).
FEATURES: Final = 8 + 24 + 4 + 2 + 4 + 1
#: The rules the examples are played under: contrée, no declarations (card points only).
RULES_TEXT: Final = ("ffb", "contree")
Array = npt.NDArray[np.float64]


def features(hand: Mask, trump: int, place: int) -> list[float]:
    """The model's inputs for ``hand`` with suit ``trump`` and ``place`` in the first trick."""
    out: list[float] = [float(hand >> (trump * 8 + r) & 1) for r in TRUMP_ORDER]
    others = []
    for s in range(4):
        if s == trump:
            continue
        bits = [float(hand >> (s * 8 + r) & 1) for r in PLAIN_ORDER]
        others.append((-sum(bits), [-b for b in bits], bits))
    others.sort()
    for _, _, bits in others:
        out.extend(bits)
    lengths = [((hand >> (s * 8)) & 0xFF).bit_count() for s in range(4)]
    out.append(lengths[trump] / 8.0)
    out.extend(sorted((lengths[s] / 8.0 for s in range(4) if s != trump), reverse=True))
    out.append(sum(float(hand >> (s * 8 + 7) & 1) for s in range(4)) / 4.0)
    out.append(sum(1.0 for s in range(4) if s != trump and not lengths[s]) / 3.0)
    out.extend(1.0 if place == p else 0.0 for p in range(4))
    out.append(hand_points(hand, trump) / 162.0)
    return out


# -- examples ----------------------------------------------------------------------------------
def _played_points(state: DealState, team: int, bots: list[HeuristicBot],
                   rng: random.Random) -> int:
    """The card points ``team`` ends with when ``state`` is played out by ``bots``."""
    while state.phase != OVER:
        state = state.apply(bots[state.player].act(state.observation(state.player), rng))
    last_winner = state.leader
    pts = state.points[team] + (10 if last_winner & 1 == team else 0)
    won_all = all(((state.winners >> s) & 1) == 0 for s in range(4) if s & 1 != team)
    return 252 if won_all else pts


def examples(deals: int, seed: int) -> tuple[Array, Array]:
    """``(X, y)``: for each deal, suit and team, both taking hands' features and the points
    their team made, the deal played out by heuristic bots after an auction of 80 in the suit
    by the team's first seat to speak."""
    rules = Rules.preset(*RULES_TEXT)
    bots = [HeuristicBot() for _ in range(4)]
    rng = random.Random(seed)
    xs: list[list[float]] = []
    ys: list[float] = []
    for i in range(deals):
        start = DealState.new(rules, i % 4, rng=random.Random(f"learned:{seed}:{i}"))
        first = start.player
        step = start.step
        order = [(first + k * step) % 4 for k in range(4)]
        for trump in range(4):
            for team in (0, 1):
                taker = next(s for s in order if s & 1 == team)
                state = start
                for s in order:
                    state = state.apply(Bid("value", trump, 80) if s == taker else PASS)
                    if s == taker:
                        break
                for _ in range(3):
                    state = state.apply(PASS)
                pts = _played_points(state, team, bots, rng)
                for seat in (taker, (taker + 2) % 4):
                    place = order.index(seat)
                    xs.append(features(start.hands[seat], trump, place))
                    ys.append(float(pts))
    return np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64)


# -- the model ---------------------------------------------------------------------------------
def adam_step(params: list[Any], grads: Sequence[Any], m: list[Any], v: list[Any], k: int,
              rate: float, dtype: type[np.floating[Any]] = np.float64) -> None:
    """One step of Adam (0.9, 0.999) on ``params`` in place: ``m`` and ``v`` their moments,
    ``k`` the step's number from 1, in ``dtype`` (``np.float32`` for single precision). The
    learned models' trainers share it."""
    f = dtype
    for i, g in enumerate(grads):
        m[i] = 0.9 * m[i] + 0.1 * g
        v[i] = 0.999 * v[i] + 0.001 * g * g
        mh = m[i] / f(1 - 0.9 ** k)
        vh = v[i] / f(1 - 0.999 ** k)
        params[i] -= f(rate) * mh / (np.sqrt(vh) + f(1e-8))


def fit_mlp(z: Any, gen: np.random.Generator, hidden: int, b2: Any, epochs: int, batch: int,
            rate: float, decay: float, logit_grad: Callable[[Any, Any], Any]) -> list[Any]:
    """One hidden layer of ReLU units fitted by mini-batch Adam in single precision on
    ``z`` (rows of float32 inputs): ``b2`` the output biases to start from, ``logit_grad``
    the loss's gradient on a batch's logits (given them and the batch's row numbers, divided
    by the batch's size), an L2 ``decay`` on the weights. The weights ``[w1, b1, w2, b2]``;
    the draws (the weights' start, the batches' order) from ``gen``. The learned models'
    classifiers share it."""
    f32 = np.float32
    n, d = z.shape
    w1 = gen.normal(0.0, np.sqrt(2.0 / d), (d, hidden)).astype(f32)
    b1 = np.zeros(hidden, dtype=f32)
    w2 = gen.normal(0.0, np.sqrt(1.0 / hidden), (hidden, len(b2))).astype(f32)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    k = 0
    for _ in range(epochs):
        order = gen.permutation(n)
        for lo in range(0, n, batch):
            idx = order[lo:lo + batch]
            xb = z[idx]
            h_in = xb @ w1 + b1
            h = np.maximum(h_in, 0.0)
            g = logit_grad(h @ w2 + b2, idx)
            g_w2 = h.T @ g + f32(decay) * w2
            g_b2 = g.sum(axis=0)
            g_h = (g @ w2.T) * (h_in > 0.0)
            g_w1 = xb.T @ g_h + f32(decay) * w1
            g_b1 = g_h.sum(axis=0)
            k += 1
            adam_step(params, (g_w1, g_b1, g_w2, g_b2), m, v, k, rate, f32)
    return params


def train(x: Array, y: Array, seed: int, hidden: int = 32, epochs: int = 600,
          rate: float = 0.01) -> dict[str, Array]:
    """An MLP fitted by full-batch Adam on the squared error; reproducible from ``seed``."""
    gen = np.random.default_rng(seed)
    n, d = x.shape
    mu, sd = float(y.mean()), float(y.std() or 1.0)
    t = (y - mu) / sd
    w1 = gen.normal(0.0, np.sqrt(2.0 / d), (d, hidden))
    b1 = np.zeros(hidden)
    w2 = gen.normal(0.0, np.sqrt(1.0 / hidden), (hidden,))
    b2 = np.zeros(1)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    for k in range(1, epochs + 1):
        h = np.maximum(x @ w1 + b1, 0.0)
        out = h @ w2 + b2[0]
        g_out = 2.0 * (out - t) / n
        g_w2 = h.T @ g_out
        g_b2 = np.array([g_out.sum()])
        g_h = np.outer(g_out, w2) * (h > 0.0)
        g_w1 = x.T @ g_h
        g_b1 = g_h.sum(axis=0)
        adam_step(params, (g_w1, g_b1, g_w2, g_b2), m, v, k, rate)
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2, "mu": np.array([mu]),
            "sd": np.array([sd])}


def predict(model: dict[str, Array], x: Array) -> Array:
    h = np.maximum(x @ model["w1"] + model["b1"], 0.0)
    out = (h @ model["w2"] + model["b2"][0]) * model["sd"][0] + model["mu"][0]
    return np.asarray(out, dtype=np.float64)


def mean_squared_error(model: dict[str, Array], x: Array, y: Array) -> float:
    return float(np.mean((predict(model, x) - y) ** 2))


WEIGHTS: Final = "bidder.npz"


@lru_cache(maxsize=1)
def shipped_model() -> dict[str, Array]:
    """The weights shipped in the package (``rebelote/bots/data/bidder.npz``)."""
    ref = resources.files("rebelote.bots").joinpath("data", WEIGHTS)
    with ref.open("rb") as fh, np.load(fh) as data:
        return {k: np.asarray(data[k], dtype=np.float64) for k in data.files}


class LearnedEvaluation:
    """The coinche evaluation of :class:`HeuristicBot` from a model: the model's points for a
    suit (the hand's place taken as the average of the four), the belote and declarations as
    :func:`contract_points` counts them; no-trump and all-trump as the heuristic."""

    def __init__(self, model: dict[str, Array]) -> None:
        self.model = model
        self._cache: dict[tuple[Mask, int, bool], float] = {}

    def __call__(self, hand: Mask, trump: int, declarations: bool = True) -> float:
        key = (hand, trump, declarations)
        got = self._cache.get(key)
        if got is not None:
            return got
        base = contract_points(hand, trump, declarations)
        if trump < 4:
            x = np.asarray([features(hand, trump, p) for p in range(4)], dtype=np.float64)
            learned = float(predict(self.model, x).mean())
            base = base - hand_points(hand, trump) + learned
        self._cache[key] = base
        return base


#: Card points below the model's expected points a contract is bid at: the model predicts
#: the mean of what the hand's team makes (its error ~35 points), and a contract bid at the
#: mean falls half the time.
MARGIN: Final = 30


def make_learned(level: str | None = None) -> HeuristicBot:
    """The learned bidder; a level is its margin in card points (``learned:20``)."""
    margin = float(MARGIN)
    if level is not None:
        if not level.strip().isdigit() or not 0 <= int(level) <= 80:
            raise ValueError(f"a learned level is a margin in card points 0..80, not {level!r}")
        margin = float(int(level))
    bot = HeuristicBot(evaluate=LearnedEvaluation(shipped_model()), bid_margin=margin)
    bot.name = "learned"
    return bot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train the learned bidder's model.")
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=600)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    x, y = examples(args.deals, args.seed)
    t1 = time.perf_counter()
    held = len(y) // 5  # the last fifth of the examples is held out
    model = train(x[:-held], y[:-held], args.seed, args.hidden, args.epochs)
    t2 = time.perf_counter()
    base = float(np.mean((y[-held:] - y[:-held].mean()) ** 2))
    mse = mean_squared_error(model, x[-held:], y[-held:])
    print(f"{len(y)} examples from {args.deals} deals in {t1 - t0:.0f} s, trained in "
          f"{t2 - t1:.0f} s; held-out mean squared error {mse:.0f} (the mean's {base:.0f})",
          file=sys.stderr)
    np.savez(args.out, w1=model["w1"], b1=model["b1"], w2=model["w2"], b2=model["b2"],
             mu=model["mu"], sd=model["sd"])
    return 0
