"""A learned model of how a good player chooses a card: the search player's inference from the
play (``Budget.play_model``, :func:`play_log_weights`).

**What it predicts.** For a seat about to play, seeing what that seat sees (its hand, the cards
gone, the trick so far, the contract and who took it), the chance that each of its legal cards
is one a given kind of player would play. The examples are decisions with a choice of
contrée deals played by heuristic bots with a tenth of random cards, each labelled either by
the cards of the best double-dummy value in the true deal (a player who saw every hand;
:func:`rebelote.solver.solve`, the cards of the best value sharing the target) or, as the
shipped weights are, by the cards of the best mean over deals that fit what the seat sees (a
search player with uniform worlds, IS-DD). Such a model is what a good player's
card says about its hand: a seat that plays the ten under the ace of trumps is unlikely to
hold the jack, not certain not to (the probabilities are graded where the heuristic's model,
:func:`rebelote.bots.pimc.play_weight`, says only whether the card is the heuristic's).

**Canonical suits.** Cards are given to the model in the order trump first (strongest rank
first: J 9 A 10 K Q 8 7), then the other three suits in their natural order (A 10 K Q J 9 8
7): one model for the four trumps. No-trump and all-trump contracts are not modelled (the
search falls back on the heuristic's model there).

**The model.** :data:`FEATURES` inputs, one hidden layer of ReLU units, 32 outputs (one a
canonical card), a softmax over the legal cards; fitted by mini-batch Adam on the
cross-entropy against the targets, from a seed (the same seed and examples give the same
weights). NumPy only; the weights ship in the package (``bots/data/playmodel.npz``).

**The shipped weights** are a model of IS-DD players (``--worlds 10``: each example's
targets are the cards of the best mean over 10 deals that fit what the seat sees, not the
true deal's best), made by these two commands (about 40 minutes, then seconds, on two cores;
the second gives the shipped file to the bit from the first's examples):

    nice -n 10 .venv/bin/python scripts/train_play_model.py data --deals 12000 --seed 2 \\
        --worlds 10 --workers 2 --out play-2-w10.npz
    nice -n 10 .venv/bin/python scripts/train_play_model.py train --data play-2-w10.npz \\
        --seed 1 --epochs 15 --out src/rebelote/bots/data/playmodel.npz
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from rebelote.actions import PLAY, PLAYS
from rebelote.bots.heuristic import HeuristicBot
from rebelote.bots.learned import fit_mlp
from rebelote.cards import Mask
from rebelote.deal import DealState
from rebelote.observation import Observation, played_cards
from rebelote.rules import Rules, legal_mask, parse_rules, seat_step
from rebelote.solver import position_of_state, solve

Array = npt.NDArray[np.float64]

#: Ranks (0..7 = 7 8 9 10 J Q K A) strongest first, in a trump suit and in a plain one.
TRUMP_ORDER: Final = (4, 2, 7, 3, 6, 5, 1, 0)
PLAIN_ORDER: Final = (7, 3, 6, 5, 4, 2, 1, 0)
#: The hand, the cards of the finished tricks, the trick's first three cards (one each), who
#: wins the trick so far (partner, opponent), the seat's side (taker's team, taker), its place
#: in the trick, the tricks done, the contract's value and its coinche, surcoinche.
FEATURES: Final = 32 + 32 + 96 + 2 + 2 + 4 + 1 + 3
#: The rules the examples are played under.
RULES_TEXT: Final = "contree:ffb"
#: The share of random cards in the examples' play (the rest are the heuristic's).
EXPLORE: Final = 0.1


@lru_cache(maxsize=4)
def slots(trump: int) -> npt.NDArray[np.int64]:
    """``slots(trump)[k]`` is the card (0..31) in canonical place ``k`` for suit ``trump``."""
    out: list[int] = []
    for suit in [trump] + [s for s in range(4) if s != trump]:
        order = TRUMP_ORDER if suit == trump else PLAIN_ORDER
        out.extend(suit * 8 + r for r in order)
    return np.asarray(out, dtype=np.int64)


_SHIFTS: Final = np.arange(32, dtype=np.int64)


def mask_bits(masks: npt.NDArray[np.int64], trump: int) -> Array:
    """The canonical bits (``len(masks) x 32``) of card masks."""
    return ((masks[:, None] >> slots(trump)[None, :]) & 1).astype(np.float64)


class Moment(NamedTuple):
    """What a seat saw when it chose a card, but its hand: everything public then."""

    seat: int
    gone: Mask  # the cards of the finished tricks
    trick: tuple[int, ...]  # the trick so far, in the order played
    win: int  # the index in ``trick`` of its winning card so far
    tricks_done: int
    trump: int
    taker: int
    value: int  # the contract's value (80..160; 250 a capot)
    multiplier: int


def context(m: Moment, step: int) -> Array:
    """The inputs of ``m`` after the hand's 32 (``FEATURES - 32`` values)."""
    out = np.zeros(FEATURES - 32)
    canon = np.empty(32, dtype=np.int64)
    canon[slots(m.trump)] = np.arange(32)
    for c in range(32):
        if m.gone >> c & 1:
            out[canon[c]] = 1.0
    for i, card in enumerate(m.trick[:3]):
        out[32 + 32 * i + canon[card]] = 1.0
    k = 128
    if m.trick:
        n = len(m.trick)
        winner = (m.seat - (n - m.win) * step) % 4
        out[k + (0 if (winner - m.seat) % 2 == 0 else 1)] = 1.0
    k += 2
    if m.taker >= 0:
        out[k] = float((m.taker - m.seat) % 2 == 0)
        out[k + 1] = float(m.taker == m.seat)
    k += 2
    out[k + min(3, len(m.trick))] = 1.0
    k += 4
    out[k] = m.tricks_done / 7.0
    k += 1
    out[k] = (min(m.value, 170) - 80) / 80.0
    out[k + 1] = float(m.multiplier >= 2)
    out[k + 2] = float(m.multiplier >= 4)
    return out


def inputs(hands: npt.NDArray[np.int64], m: Moment, step: int) -> Array:
    """The model's rows for ``m`` with each of ``hands`` (``len(hands) x FEATURES``)."""
    ctx = context(m, step)
    return np.hstack([mask_bits(hands, m.trump), np.broadcast_to(ctx, (len(hands), len(ctx)))])


def forward(model: dict[str, Array], x: Array, legal: Array) -> Array:
    """The log-probabilities (``len(x) x 32``, canonical) of the legal cards (``legal``: their
    canonical bits; an illegal card's is ``-inf``)."""
    h = np.maximum(x @ model["w1"] + model["b1"], 0.0)
    logits = h @ model["w2"] + model["b2"]
    logits = np.where(legal > 0.0, logits, -np.inf)
    top = logits.max(axis=1, keepdims=True)
    z = logits - top
    return np.asarray(z - np.log(np.exp(z).sum(axis=1, keepdims=True)), dtype=np.float64)


# -- the examples --------------------------------------------------------------------------------
def _contract(state: DealState) -> tuple[int, int]:
    best = state.auction.best
    value = best.value if best is not None and best.kind == "value" else 250
    return value, state.auction.multiplier


def deal_examples(seed: int, index: int, rules: Rules | None = None, worlds: int = 0
                  ) -> tuple[Array, Array, Array]:
    """The examples of one deal (``seed``, ``index``): inputs, legal cards and targets (each
    ``rows x``, the last two canonical). Dealt at random, the calls and most cards the
    heuristic's (:data:`EXPLORE` random cards); each decision with a choice under a suit trump
    is an example, its target shared by the cards of the best double-dummy value: in the true
    deal (``worlds`` 0), or the best mean over ``worlds`` deals of the hidden cards that fit
    what the seat sees (the choice of a search player with uniform worlds, IS-DD)."""
    rules = rules or parse_rules(RULES_TEXT)
    rng = random.Random(seed * 1_000_003 + index)
    draws = random.Random(seed * 1_000_003 + index + 1_000_000_007)
    state = DealState.new(rules, dealer=index % 4, rng=rng)
    bot = HeuristicBot()
    step = seat_step(rules)
    xs: list[Array] = []
    legals: list[Array] = []
    targets: list[Array] = []
    while not state.is_terminal:
        seat = state.player
        obs = state.observation(seat)
        if state.phase != PLAY:
            state = state.apply(bot.act(obs, rng))
            continue
        playable = state.playable
        if playable & (playable - 1) and 0 <= state.trump < 4:
            if worlds:
                total: dict[int, int] = {}
                for _ in range(worlds):
                    world = DealState.from_observation(obs, draws)
                    for c, v in solve(position_of_state(world), rules).items():
                        total[c] = total.get(c, 0) + v
                values = total
            else:
                values = solve(position_of_state(state), rules)
            best = max(values.values())
            good = sum(1 << c for c, v in values.items() if v == best)
            m = moment_of(state)
            value, mult = _contract(state)
            m = m._replace(value=value, multiplier=mult)
            xs.append(inputs(np.asarray([state.hands[seat]], dtype=np.int64), m, step)[0])
            legals.append(mask_bits(np.asarray([playable], dtype=np.int64), state.trump)[0])
            t = mask_bits(np.asarray([good], dtype=np.int64), state.trump)[0]
            targets.append(t / t.sum())
        if rng.random() < EXPLORE:
            cards = [c for c in range(32) if playable >> c & 1]
            state = state.apply(PLAYS[rng.choice(cards)])
        else:
            state = state.apply(bot.act(obs, rng))
    if not xs:
        empty = np.zeros((0, 32))
        return np.zeros((0, FEATURES)), empty, empty
    return np.asarray(xs), np.asarray(legals), np.asarray(targets)


def moment_of(state: DealState) -> Moment:
    """The public moment of the seat to play in ``state`` (the contract's value left 0)."""
    gone = 0
    for _, cards in state.tricks:
        for c in cards:
            gone |= 1 << c
    return Moment(state.player, gone, state.trick, state.win, len(state.tricks), state.trump,
                  state.taker, 0, 1)


# -- training ------------------------------------------------------------------------------------
def train(x: Array, legal: Array, target: Array, seed: int, hidden: int = 128, epochs: int = 8,
          batch: int = 256, rate: float = 0.002, decay: float = 1e-5) -> dict[str, Array]:
    """An MLP with a softmax over the legal cards, fitted by mini-batch Adam on the
    cross-entropy against ``target`` (and an L2 ``decay``); reproducible from ``seed``."""
    gen = np.random.default_rng(seed)
    f32 = np.float32
    xf, lf, tf = x.astype(f32), legal.astype(f32), target.astype(f32)

    def logit_grad(logits: Any, idx: Any) -> Any:
        lb = lf[idx]
        logits = np.where(lb > 0.0, logits, f32(-1e9))
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits) * lb
        p /= p.sum(axis=1, keepdims=True)
        return (p - tf[idx]) / f32(len(idx))

    w1, b1, w2, b2 = fit_mlp(xf, gen, hidden, np.zeros(32, dtype=f32), epochs, batch, rate,
                             decay, logit_grad)
    return {"w1": w1.astype(np.float64), "b1": b1.astype(np.float64),
            "w2": w2.astype(np.float64), "b2": b2.astype(np.float64)}


def cross_entropy(model: dict[str, Array], x: Array, legal: Array, target: Array) -> float:
    """The mean cross-entropy of the model's card probabilities against ``target``."""
    logp = np.where(target > 0.0, forward(model, x, legal), 0.0)
    return float(-np.mean(np.sum(target * logp, axis=1)))


def uniform_cross_entropy(legal: Array, target: Array) -> float:
    """The same for a model that gives every legal card the same chance (the baseline)."""
    logp = -np.log(legal.sum(axis=1, keepdims=True))
    return float(-np.mean(np.sum(target * logp, axis=1)))


def top_agreement(model: dict[str, Array], x: Array, legal: Array, target: Array) -> float:
    """How often the model's likeliest card is one of the best (a target's card)."""
    top = forward(model, x, legal).argmax(axis=1)
    return float(np.mean(target[np.arange(len(x)), top] > 0.0))


WEIGHTS: Final = "playmodel.npz"
KEYS: Final = ("w1", "b1", "w2", "b2")


def save_model(model: dict[str, Array], path: str) -> None:
    np.savez(path, **{k: model[k].astype(np.float32) for k in KEYS})  # type: ignore[arg-type]


@lru_cache(maxsize=1)
def shipped_model() -> dict[str, Array]:
    """The weights shipped in the package (``rebelote/bots/data/playmodel.npz``)."""
    ref = resources.files("rebelote.bots").joinpath("data", WEIGHTS)
    with ref.open("rb") as fh, np.load(fh) as data:
        return {k: np.asarray(data[k], dtype=np.float64) for k in KEYS}


# -- inference -----------------------------------------------------------------------------------
def moments(obs: Observation) -> list[tuple[Moment, int, Mask]]:
    """Each card another seat has played so far: the public moment it was chosen in, the card,
    and the cards that seat had played before it (gone from its hand)."""
    contract = obs.contract
    value = contract.value if contract is not None and contract.kind == "value" else 250
    out: list[tuple[Moment, int, Mask]] = []
    own = [0, 0, 0, 0]
    gone = [0]  # the cards of the finished tricks, before each trick
    for _, cards in obs.tricks:
        gone.append(gone[-1] | sum(1 << c for c in cards))
    for seat, card, before, win, done in played_cards(obs.trump, obs.step, obs.tricks,
                                                       obs.leader, obs.trick):
        if seat != obs.seat:
            m = Moment(seat, gone[done], before, win, done, obs.trump, obs.taker, value,
                       obs.multiplier)
            out.append((m, card, own[seat]))
        own[seat] |= 1 << card
    return out


def play_log_weights(obs: Observation, start_hands: Sequence[tuple[int, int, int, int]],
                     model: dict[str, Array], floor: float) -> Array:
    """Each world's log-likelihood of the other seats' cards so far under the model (a card's
    probability no less than ``floor``), from the worlds' hands as dealt. 0 for every world
    with nothing to weigh or a contract the model does not know (no-trump, all-trump)."""
    n = len(start_hands)
    out = np.zeros(n)
    trump = obs.trump
    if not 0 <= trump < 4 or n == 0:
        return out
    rules = obs.rules
    step = obs.step
    starts = np.asarray(start_hands, dtype=np.int64)
    log_floor = math.log(floor)
    canon = np.empty(32, dtype=np.int64)
    canon[slots(trump)] = np.arange(32)
    # one row of the model for each hand a seat can have held at each moment: late in a deal
    # the worlds share most hands (a seat's few hidden cards), and the rows are most of the cost
    xs: list[Array] = []
    legal_rows: list[Array] = []
    rows: list[Array] = []  # for each moment, each world's row in the product
    picks: list[int] = []
    first = 0
    for m, card, before in moments(obs):
        hands, which = np.unique(starts[:, m.seat] & ~np.int64(before), return_inverse=True)
        legal = np.fromiter((legal_mask(int(h), m.trick, m.win, trump, rules.overtrump_partner,
                                        rules.must_undertrump) for h in hands),
                            dtype=np.int64, count=len(hands))
        xs.append(inputs(hands, m, step))
        legal_rows.append(mask_bits(legal, trump))
        rows.append(first + which.reshape(n))
        picks.append(int(canon[card]))
        first += len(hands)
    if not xs:
        return out
    logp = forward(model, np.vstack(xs), np.vstack(legal_rows))
    chosen = np.stack([logp[r, pick] for r, pick in zip(rows, picks, strict=True)])
    return np.asarray(np.maximum(chosen, log_floor).sum(axis=0), dtype=np.float64)
