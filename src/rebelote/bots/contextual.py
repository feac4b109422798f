"""The learned bidder in context: coinche and contrée calls chosen by expected mark, from a
small model of what the seat's team (or the opponents') makes in each suit given the hand
*and the auction so far*.

**What is learned.** For a seat at a bidding decision, a trump suit and who would take (the
seat itself, or the opponent on either side), the distribution of the card points the taking
team makes when the deal is played out by four heuristic bots (dix de der included; a capot
is an outcome of its own). The examples (:func:`deal_examples`) come from deals dealt at
random and bid by the tuned bidder at the four seats, so the auctions are realistic: at each
of its decisions a seat's hand in its context is an example, labelled with the played-out
outcome of its team taking in each suit (taker: the seat) and, when the opponents hold the
contract, of the opponents taking in each suit (taker: the contract's holder). Played-out
points, not double-dummy values: the double-dummy play flatters the taker, and the heuristic's
play is the one the calls are then played with. The game is single deals: the score is not an
input.

**The model.** An MLP (:data:`INPUTS` inputs: the hand's features for the suit as
:func:`rebelote.bots.learned.features` reads them, the calls so far relative to the seat, the
game and who takes; one hidden layer of ReLU units) with a softmax over :data:`BINS` classes
of the taking team's points (ten points wide, and the capot), fitted by mini-batch Adam on the
cross-entropy from a seed (the same seed and examples give the same weights). Within a class
the points follow the class's distribution in the examples (``within``, shipped with the
weights), so the model gives a distribution over every outcome (0..162 points, capot).
NumPy only; the weights ship in the package (``bots/data/contextual.npz``).

**The bidder** (:class:`ContextBidder`): for each legal call, its expected mark if the auction
ended on it, computed exactly with the rules' scoring (:func:`rebelote.scoring.score_deal` on
each outcome: contract values, made or failed, coinche ×2, surcoinche as the rules multiply
it, capot, the seat's own belote and declarations), our mark minus theirs:

* a bid of ``v`` in suit ``t``: the outcomes of our team taking in ``t`` at ``v``;
* pass: the contract standing as it is (ours: its expected mark for us; the opponents': minus
  its expected mark for them); 0 with no contract yet (a deal passed out marks nothing);
* coinche: the opponents' contract at twice its multiplier, against us; surcoinche: ours.

It makes the call of highest expected mark, a bid only when it beats pass by ``bid_margin``
marks and a coinche when it beats pass by ``coinche_margin``, and counts ``risk`` of its own
uncoinched contracts' falls as coinched (the examples are played uncoinched, and the
opponents coinche what they expect to fall): the auction does not end on the call, and these
are what that costs, chosen by game on tuning deals (:data:`CHOSEN`; docs/bidders.md, "The learned
bidder"). No-trump and all-trump are not in the model (no examples of them): the heuristic's
bids in them are made, and over a contract in force in them the heuristic calls
(:attr:`CallParams.other_modes`); belote (take or pass) and the card play are the
heuristic's.

Make the examples and train (the commands of the shipped weights: docs/bidders.md):

    .venv/bin/python scripts/train_context_bidder.py data --deals 20000 --seed 1 --out x.npz
    .venv/bin/python scripts/train_context_bidder.py train --data x.npz --seed 1 --out w.npz
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from rebelote.actions import AUCTION, OVER, Action
from rebelote.auction import COINCHE, PASS, SURCOINCHE, Bid
from rebelote.bots.heuristic import HeuristicBot, with_text
from rebelote.bots.learned import FEATURES, fit_mlp
from rebelote.bots.learned import features as hand_features
from rebelote.bots.tuned import make_tuned
from rebelote.cards import KING, QUEEN, TEAMS, Mask
from rebelote.deal import DealState
from rebelote.declarations import best_declarations
from rebelote.observation import Observation
from rebelote.rules import BELOTE_POINTS, Rules
from rebelote.scoring import score_deal
from rebelote.summary import DealSummary

Array = npt.NDArray[np.float64]

#: The rule sets of the examples, by game: the ones the bidder is measured in.
GAMES: Final = {"coinche": ("official", "coinche"), "contree": ("ffb", "contree")}
#: Outcomes of a deal for the taking team: the total its contract is judged on (card points
#: with the dix de der, its belote and the declarations that count for it) 0..262, then the
#: capot.
TOP_TOTAL: Final = 262
CAPOT: Final = TOP_TOTAL + 1
OUTCOMES: Final = CAPOT + 1
#: Classes of the model: totals by ten (0-9, ..., 240-249, 250-262), and the capot.
BINS: Final = 27
#: Inputs beyond the hand's features (see :func:`context`).
CONTEXT: Final = 22
INPUTS: Final = FEATURES + CONTEXT
#: Who takes, relative to the seat: itself, the next seat to speak, the one before.
ROLES: Final = (0, 1, 3)


def outcome_bin(outcome: int) -> int:
    """The model's class of an outcome (a total 0..262, or :data:`CAPOT`)."""
    return BINS - 1 if outcome == CAPOT else min(outcome // 10, BINS - 2)


def outcome_bins(y: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """:func:`outcome_bin` of every outcome of ``y`` at once (training reads millions)."""
    y = np.asarray(y, dtype=np.int64)
    return np.where(y == CAPOT, BINS - 1, np.minimum(y // 10, BINS - 2)).astype(np.int64)


# -- features ----------------------------------------------------------------------------------
def place_of(obs: Observation) -> int:
    """The seat's place in the first trick (0 leads it): its place from the first speaker."""
    return ((obs.seat - obs.first) * obs.step) % 4


def contract_holder(obs: Observation) -> int:
    """The seat whose bid is the standing contract (-1 before any bid)."""
    holder = -1
    for s, b in obs.auction:
        if b.is_contract:
            holder = s
    return holder


def context(obs: Observation, trump: int, role: int) -> list[float]:
    """The calls so far as the seat sees them, for a contract in suit ``trump`` taken by the
    seat ``role`` places after it in the order of play (0 the seat itself, 1 or 3 an
    opponent): the game, how many calls were made, the partner's, the opponents' and its own
    highest bids and whether they named ``trump``, the contract (its value, whose, its suit),
    coinche or surcoinche, who takes, and the seat's own belote and declarations in
    ``trump`` (counted in the outcome)."""
    me = obs.seat
    partner = (me + 2) % 4
    best = {"me": 0, "partner": 0, "opp": 0}
    in_trump = {"me": 0.0, "partner": 0.0, "opp": 0.0}
    other = {"partner": 0.0, "opp": 0.0}
    partner_spoke = 0.0
    opp_bids = 0
    for s, b in obs.auction:
        who = "me" if s == me else "partner" if s == partner else "opp"
        if who == "partner":
            partner_spoke = 1.0
        if not b.is_contract:
            continue
        if who == "opp":
            opp_bids += 1
        best[who] = max(best[who], min(b.rank, 180))
        if b.trump == trump:
            in_trump[who] = 1.0
        elif who != "me":
            other[who] = 1.0
    contract = obs.contract
    holder = contract_holder(obs)
    ours = holder >= 0 and (holder - me) % 2 == 0
    return [
        1.0 if obs.rules.game == "contree" else 0.0,
        len(obs.auction) / 8.0,
        partner_spoke, best["partner"] / 160.0, in_trump["partner"], other["partner"],
        best["opp"] / 160.0, in_trump["opp"], other["opp"], opp_bids / 4.0,
        best["me"] / 160.0, in_trump["me"],
        (min(contract.rank, 180) / 160.0) if contract is not None else 0.0,
        1.0 if holder >= 0 and ours else 0.0,
        1.0 if holder >= 0 and not ours else 0.0,
        1.0 if contract is not None and contract.trump == trump else 0.0,
        1.0 if obs.multiplier == 2 else 0.0,
        1.0 if obs.multiplier >= 4 else 0.0,
        1.0 if role == 1 else 0.0,
        1.0 if role == 3 else 0.0,
        *own_extras(obs.hand, trump, obs.rules),
    ]


def inputs(obs: Observation, trump: int, role: int) -> list[float]:
    """The model's inputs: the hand's features for ``trump`` and its context."""
    return hand_features(obs.hand, trump, place_of(obs)) + context(obs, trump, role)


# -- examples ----------------------------------------------------------------------------------
def _outcome(start: DealState, taker: int, trump: int, bots: list[HeuristicBot],
             rng: random.Random) -> int:
    """The outcome for ``taker``'s team when it takes 80 in ``trump`` and the deal is played
    out by ``bots``: its judged total (points with the dix de der, declarations, belote), or
    :data:`CAPOT`."""
    state = start
    while True:
        s = state.player
        state = state.apply(Bid("value", trump, 80) if s == taker else PASS)
        if s == taker:
            break
    for _ in range(3):
        state = state.apply(PASS)
    while state.phase != OVER:
        state = state.apply(bots[state.player].act(state.observation(state.player), rng))
    summary = state.summary()
    team = TEAMS[taker & 1]
    if summary.capot == team:
        return CAPOT
    t = taker & 1
    total = summary.points[t] + summary.declarations[t] + BELOTE_POINTS * summary.belote[t]
    return min(total, TOP_TOTAL)


def deal_examples(seed: int, index: int) -> tuple[list[list[float]], list[int]]:
    """The examples of deal ``index`` of ``seed``: rows of :func:`inputs` and outcomes.

    Even deals are coinche (official), odd ones contrée (ffb); the dealer turns with the
    index. The auction is the tuned bidder's at the four seats; every decision of it gives
    rows for the seat taking in each suit and, when the opponents hold the contract, for the
    holder taking in each suit."""
    game = "coinche" if index % 2 == 0 else "contree"
    rules = Rules.preset(*GAMES[game])
    start = DealState.new(rules, index % 4, rng=random.Random(f"contextual:{seed}:{index}"))
    rng = random.Random(f"contextual-play:{seed}:{index}")
    bidder = make_tuned()
    players = [HeuristicBot() for _ in range(4)]
    outcomes: dict[tuple[int, int], int] = {}

    def outcome(taker: int, trump: int) -> int:
        key = (taker, trump)
        if key not in outcomes:
            outcomes[key] = _outcome(start, taker, trump, players, rng)
        return outcomes[key]

    xs: list[list[float]] = []
    ys: list[int] = []
    state = start
    while state.phase == AUCTION:
        obs = state.observation(state.player)
        me = obs.seat
        for trump in range(4):
            xs.append(inputs(obs, trump, 0))
            ys.append(outcome(me, trump))
        holder = contract_holder(obs)
        if holder >= 0 and (holder - me) % 2 == 1:
            role = ((holder - me) * obs.step) % 4
            for trump in range(4):
                xs.append(inputs(obs, trump, role))
                ys.append(outcome(holder, trump))
        state = state.apply(bidder.act(obs, rng))
    return xs, ys


def examples(deals: int, seed: int, start: int = 0) -> tuple[Array, npt.NDArray[np.int64]]:
    """``(X, y)`` of deals ``start .. start + deals - 1`` of ``seed`` (:func:`deal_examples`)."""
    xs: list[list[float]] = []
    ys: list[int] = []
    for i in range(start, start + deals):
        x, y = deal_examples(seed, i)
        xs.extend(x)
        ys.extend(y)
    return (np.asarray(xs, dtype=np.float64).reshape(-1, INPUTS),
            np.asarray(ys, dtype=np.int64))


# -- the model ---------------------------------------------------------------------------------
def within_bins(y: npt.NDArray[np.int64]) -> Array:
    """For each class, the distribution of the outcomes in it (``BINS x OUTCOMES``)."""
    counts = np.zeros((BINS, OUTCOMES), dtype=np.float64)
    for o in range(OUTCOMES):
        counts[outcome_bin(o), o] += 1.0  # a count of one: every outcome of a class possible
    np.add.at(counts, (outcome_bins(y), y), 1.0)
    return np.asarray(counts / counts.sum(axis=1, keepdims=True), dtype=np.float64)


def train(x: Array, y: npt.NDArray[np.int64], seed: int, hidden: int = 64, epochs: int = 30,
          batch: int = 512, rate: float = 0.002, decay: float = 1e-4) -> dict[str, Array]:
    """An MLP with a softmax over :data:`BINS` classes, fitted by mini-batch Adam on the
    cross-entropy (and an L2 ``decay``); reproducible from ``seed``."""
    gen = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    f32 = np.float32
    z = ((x - mean) / scale).astype(f32)  # single precision: twice as fast, as deterministic
    target = outcome_bins(y)
    b2 = np.log(np.bincount(target, minlength=BINS) + 1.0).astype(f32)
    b2 -= b2.mean()

    def logit_grad(logits: Any, idx: Any) -> Any:
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        p[np.arange(len(idx)), target[idx]] -= 1.0
        return p / f32(len(idx))

    w1, b1, w2, b2 = fit_mlp(z, gen, hidden, b2, epochs, batch, rate, decay, logit_grad)
    return {"w1": w1.astype(np.float64), "b1": b1.astype(np.float64),
            "w2": w2.astype(np.float64), "b2": b2.astype(np.float64), "mean": mean,
            "scale": scale, "within": within_bins(y)}


def predict_bins(model: dict[str, Array], x: Array) -> Array:
    """The model's class probabilities for rows ``x`` (``len(x) x BINS``)."""
    z = (x - model["mean"]) / model["scale"]
    h = np.maximum(z @ model["w1"] + model["b1"], 0.0)
    logits = h @ model["w2"] + model["b2"]
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return np.asarray(p / p.sum(axis=1, keepdims=True), dtype=np.float64)


def predict(model: dict[str, Array], x: Array) -> Array:
    """The distribution of the outcomes for rows ``x`` (``len(x) x OUTCOMES``)."""
    return np.asarray(predict_bins(model, x) @ model["within"], dtype=np.float64)


def log_loss(model: dict[str, Array], x: Array, y: npt.NDArray[np.int64]) -> float:
    """The mean cross-entropy of the model's classes on ``(x, y)``."""
    p = predict_bins(model, x)
    target = outcome_bins(y)
    return float(-np.mean(np.log(p[np.arange(len(y)), target] + 1e-12)))


def base_log_loss(y_train: npt.NDArray[np.int64], y: npt.NDArray[np.int64]) -> float:
    """The cross-entropy of the training classes' frequencies on ``y`` (no input at all)."""
    freq = np.bincount(outcome_bins(y_train), minlength=BINS) + 1.0
    freq /= freq.sum()
    return float(-np.mean(np.log(freq[outcome_bins(y)])))


WEIGHTS: Final = "contextual.npz"
KEYS: Final = ("w1", "b1", "w2", "b2", "mean", "scale", "within")


def save_model(model: dict[str, Array], path: str) -> None:
    arrays = {k: model[k].astype(np.float32) for k in KEYS}
    np.savez(path, **arrays)  # type: ignore[arg-type]


@lru_cache(maxsize=1)
def shipped_model() -> dict[str, Array]:
    """The weights shipped in the package (``rebelote/bots/data/contextual.npz``)."""
    ref = resources.files("rebelote.bots").joinpath("data", WEIGHTS)
    with ref.open("rb") as fh, np.load(fh) as data:
        return {k: np.asarray(data[k], dtype=np.float64) for k in KEYS}


# -- expected marks ----------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def mark_table(rules: Rules, trump: int, value: int, multiplier: int) -> Array:
    """For each outcome of the taking team (its judged total 0..262, capot), the taker's
    mark minus the defence's by :func:`rebelote.scoring.score_deal` when its contract is
    ``value`` in ``trump`` at ``multiplier``. A total up to 162 is scored as card points (the
    defence holding the rest), beyond it the excess as declarations; 0 is the defence's
    capot. Exact on whether the contract is made, and on the taker's mark of a made contract;
    the defence's share of a total and the multiplied belote are the approximations."""
    out = np.zeros(OUTCOMES, dtype=np.float64)
    capot_total = rules.capot_total(trump)
    for o in range(OUTCOMES):
        capot = o == CAPOT
        decl = 0
        if capot:
            points = (capot_total, 0)
        elif o == 0:
            points = (0, capot_total)
        else:
            points = (min(o, 162), 162 - min(o, 162))
            decl = max(0, o - 162)
        summary = DealSummary(
            game=rules.game, taker="NS", trump=trump, points=points, contract=value,
            coinche=multiplier, capot="NS" if capot else ("EW" if o == 0 else None),
            declarations=(decl, 0))
        score = score_deal(summary, rules).score
        out[o] = score[0] - score[1]
    return out


@lru_cache(maxsize=4096)
def risky_table(rules: Rules, trump: int, value: int, risk: float) -> Array:
    """:func:`mark_table` of an uncoinched contract whose falls are coinched ``risk`` of
    the time."""
    once = mark_table(rules, trump, value, 1)
    twice = mark_table(rules, trump, value, 2)
    return np.asarray(np.where(once < 0, (1 - risk) * once + risk * twice, once),
                      dtype=np.float64)


@lru_cache(maxsize=4096)
def _extras(hand: Mask, trump: int, declarations: bool) -> tuple[float, float]:
    belote = bool(hand >> (trump * 8 + KING) & 1 and hand >> (trump * 8 + QUEEN) & 1)
    decl = sum(c.points for c in best_declarations(hand, trump)) if declarations else 0
    return (1.0 if belote else 0.0), decl / 100.0


def own_extras(hand: Mask, trump: int, rules: Rules) -> tuple[float, float]:
    """The seat's own belote in ``trump`` (1 or 0) and the declarations its hand holds when
    the rules count them (in hundreds of points)."""
    return _extras(hand, trump, rules.declarations)


@dataclass(frozen=True, slots=True)
class CallParams:
    """The bidder's choices beyond the model."""

    #: expected marks by which a bid must beat pass
    bid_margin: float = 0.0
    #: expected marks by which a coinche must beat pass
    coinche_margin: float = 0.0
    #: expected marks by which a surcoinche must beat pass
    surcoinche_margin: float = 0.0
    #: bid the cheapest legal value in the best suit (1) or the value of highest expected
    #: mark (0)
    cheapest: bool = False
    #: the highest value bid (a cap on jumps and raises)
    top: int = 160
    #: the share of our uncoinched contracts that fall counted as coinched (the opponents
    #: coinche what they expect to fall; the examples are played uncoinched)
    risk: float = 0.0
    #: what the model has no examples of is the heuristic's: its no-trump and all-trump bids,
    #: and every call over a contract in force in no-trump, all-trump or capot (0: never bid
    #: them, pass over them)
    other_modes: bool = True


def _value_bids(legal: tuple[Action, ...]) -> list[Bid]:
    return [a for a in legal if isinstance(a, Bid) and a.kind == "value" and a.trump < 4]


class ContextBidder(HeuristicBot):
    """The heuristic's card play and belote takes; coinche and contrée calls by expected mark
    from the model (see the module's docstring)."""

    name = "learned"

    def __init__(self, model: dict[str, Array] | None = None,
                 params: CallParams | Mapping[str, CallParams] | None = None) -> None:
        super().__init__()
        self.model = model if model is not None else shipped_model()
        if params is None:
            params = CallParams()
        #: the choices by game (``coinche``, ``contree``)
        self.params: dict[str, CallParams] = (
            {g: params for g in GAMES} if isinstance(params, CallParams) else dict(params))

    def params_of(self, rules: Rules) -> CallParams:
        return self.params.get(rules.game) or self.params["coinche"]

    def call_values(self, obs: Observation) -> list[tuple[float, Action]]:
        """Each legal call considered with its expected mark (ours minus theirs), pass first;
        the margins not applied."""
        legal = obs.legal
        me = obs.seat
        rules = obs.rules
        contract = obs.contract
        holder = contract_holder(obs)
        ours = holder >= 0 and (holder - me) % 2 == 0
        rows: list[list[float]] = [inputs(obs, t, 0) for t in range(4)]
        role = ((holder - me) * obs.step) % 4 if holder >= 0 and not ours else 0
        suit_contract = contract is not None and contract.kind == "value" and contract.trump < 4
        if role:
            assert contract is not None
            rows.extend(inputs(obs, t, role) for t in range(4))
        dist = predict(self.model, np.asarray(rows, dtype=np.float64))
        m = obs.multiplier
        p = self.params_of(rules)

        def ours_ev(trump: int, value: int, mult: int) -> float:
            table = mark_table(rules, trump, value, mult)
            if mult == 1 and p.risk:
                table = risky_table(rules, trump, value, p.risk)
            return float(dist[trump] @ table)

        def theirs_ev(trump: int, value: int, mult: int) -> float:
            return -float(dist[4 + trump] @ mark_table(rules, trump, value, mult))

        if contract is None:
            pass_ev = 0.0
        elif not suit_contract:
            pass_ev = 0.0  # no-trump, all-trump, capot: not modelled, pass counts as nothing
        elif ours:
            pass_ev = ours_ev(contract.trump, contract.rank, m)
        else:
            pass_ev = theirs_ev(contract.trump, contract.rank, m)
        out: list[tuple[float, Action]] = [(pass_ev, PASS)]
        for a in legal:
            if a == COINCHE and suit_contract and not ours:
                assert contract is not None
                out.append((theirs_ev(contract.trump, contract.rank, 2 * m), a))
            elif a == SURCOINCHE and suit_contract and ours:
                assert contract is not None
                out.append((ours_ev(contract.trump, contract.rank, 2 * m), a))
        for b in _value_bids(legal):
            if b.value <= p.top:
                out.append((ours_ev(b.trump, b.value, 1), b))
        return out

    def _bid_coinche(self, obs: Observation) -> Action:
        p = self.params_of(obs.rules)
        if p.other_modes:
            heuristic = super()._bid_coinche(obs)
            contract = obs.contract
            if (isinstance(heuristic, Bid) and heuristic.kind == "value"
                    and heuristic.trump >= 4) or (
                    contract is not None and not (contract.kind == "value"
                                                  and contract.trump < 4)):
                return heuristic  # a mode the model has no examples of
        values = self.call_values(obs)
        pass_ev = values[0][0]
        best_ev, best = pass_ev, values[0][1]
        bids = [(ev, a) for ev, a in values[1:] if isinstance(a, Bid) and a.kind == "value"]
        if p.cheapest and bids:
            # the suit of the best expected mark, bid at its cheapest legal value
            top_ev, top = max(bids, key=lambda e: e[0])
            assert isinstance(top, Bid)
            cheap = min((e for e in bids if isinstance(e[1], Bid) and e[1].trump == top.trump),
                        key=lambda e: e[1].value if isinstance(e[1], Bid) else 0)
            bids = [cheap] if top_ev > pass_ev + p.bid_margin else []
        for ev, a in values[1:]:
            if a == COINCHE:
                need = pass_ev + p.coinche_margin
            elif a == SURCOINCHE:
                need = pass_ev + p.surcoinche_margin
            else:
                continue
            if ev > need and ev > best_ev:
                best_ev, best = ev, a
        for ev, a in bids:
            if ev > pass_ev + p.bid_margin and ev > best_ev:
                best_ev, best = ev, a
        return best


def parse_params(text: str, params: CallParams | None = None) -> CallParams:
    """``name=value;...`` changing ``params`` (the defaults of :class:`CallParams`), read as
    the tuned bidder's are (:func:`rebelote.bots.heuristic.with_text`)."""
    return with_text(params or CallParams(), text, "a learned bidder")


#: The choices made on the tuning deals, by game (seeds 111, coinche, and 112, contrée;
#: docs/bidders.md, "The learned bidder").
CHOSEN: Final[Mapping[str, CallParams]] = {
    "coinche": CallParams(bid_margin=40.0, coinche_margin=50.0, risk=1.0),
    "contree": CallParams(bid_margin=0.0, coinche_margin=50.0, risk=0.5),
}


def make_contextual(level: str | None = None) -> ContextBidder:
    """The learned bidder in context; a level changes :data:`CHOSEN` in both games
    (``learned:bid_margin=10;risk=0``)."""
    if level is None:
        return ContextBidder(params=CHOSEN)
    return ContextBidder(params={g: parse_params(level, p) for g, p in CHOSEN.items()})


__all__ = ["CHOSEN", "CallParams", "ContextBidder", "deal_examples", "examples",
           "make_contextual", "mark_table", "shipped_model", "train"]
