"""The learned player's examples and training (:mod:`rebelote.bots.net`), NumPy only and
reproducible from a seed: ``scripts/train_net.py`` drives them, in chunks that a stopped run
takes up again.

**Examples.** Deal ``index`` of ``seed`` is dealt at random under one of :data:`RULE_SETS`
(in turn) and played by the search (the teacher, a counted budget: the same examples on any
machine). Each decision with a choice is an example:

* a card: the teacher's expected mark of every legal card over its worlds, softened into a
  distribution (a softmax at :data:`TEMPERATURE` marks) that the policy learns; the played
  card is the teacher's best;
* a call: the teacher's call (one-hot); with the true deal's labels (:data:`DD_CALLS`) a
  softmax over the candidate calls' marks in the true deal (:func:`call_candidates`);
* the value: the seat's team's mark minus the other's, by the double-dummy value of the true
  deal from this position in the play (every hand seen: the critic), by the deal's result
  during the auction.

The inputs are :func:`rebelote.bots.net.features` (the trump suit written first); targets and
legal masks are in the same permuted action space.

**Training.** Mini-batch Adam in single precision on the policy's cross-entropy over the legal
actions plus ``value_weight`` times the value's squared error (in hundreds of marks); the start
from ``seed``, each epoch's order from ``(seed, epoch)``: a run stopped after an epoch and taken
up from its checkpoint ends with the same weights to the bit as one that never stopped.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from rebelote.actions import AUCTION, PLAY, PLAYS, Action, Play
from rebelote.auction import PASS, Bid
from rebelote.bots.base import Bot
from rebelote.bots.encoding import ACTIONS, OBSERVATION_SIZE
from rebelote.bots.learned import adam_step
from rebelote.bots.net import KEYS, VALUE_SCALE, Model, features, forward, legal_indices
from rebelote.bots.pimc import (
    ANCHOR_MARGIN,
    STEP,
    Budget,
    Clock,
    Marker,
    PimcBot,
    budget_of,
    call_takers,
    card_marks,
    hopeless,
    tricks_won,
    true_call_marks,
)
from rebelote.deal import DealState
from rebelote.rules import AUCTION_GAMES, card_values, parse_rules
from rebelote.solver import position_of_state, solve

__all__ = ["DD_CALLS", "DD_TEACHER", "NET_CALLS", "NET_CALLS_ONLY", "RULE_SETS", "SEARCH_CARDS",
           "TEACHER", "Examples", "call_candidates", "call_values_of", "card_values_of",
           "dd_examples", "deal_examples", "evaluate", "net_call_marks", "played_out", "train",
           "with_pass_bonus"]

F32 = np.float32
Array = npt.NDArray[np.float32]

#: The rule sets the examples are dealt under, deal by deal in turn.
RULE_SETS: Final = ("coinche:official", "belote:official", "contree:ffb")
#: The teacher: the table's default level (``fort``: the default budget with the tuned
#: bidder's calls as the prior) with counted worlds instead of its quarter of a second.
TEACHER: Final = "default+tuned"
#: The softmax's temperature, in marks, that turns the teacher's marks into the policy's target.
TEMPERATURE: Final = 10.0
#: The ``level`` that makes :func:`deal_examples` label the cards by the true deal
#: (:func:`dd_examples`) instead of by the search.
DD_TEACHER: Final = "dd"
#: The double-dummy labels' temperature in marks, and the weight of a card point beside a mark
#: (cards of the same mark in the true deal are told apart by their points).
DD_TEMPERATURE: Final = 5.0
DD_POINTS: Final = 0.5
#: The ``level`` that labels the calls by the true deal too (``"dd+calls"``, or
#: ``"dd+calls:SPEC"`` a driver): each call with a choice is a softmax over its candidates'
#: marks if the auction ended on them (:func:`call_candidates`), not the driver's call.
DD_CALLS: Final = "dd+calls"
#: The ``level`` that labels the calls by the network's own play of the true deal
#: (``"net+calls"``, ``"net+calls=PATH"`` the weights of ``PATH`` instead of the shipped
#: ones, ``":SPEC"`` a driver): the same candidates as :data:`DD_CALLS`, each valued by the
#: deal played out by the network on every seat from the contract the candidate leads to
#: (:func:`net_call_marks`), the table's strength instead of double-dummy play's.
NET_CALLS: Final = "net+calls"
#: :data:`NET_CALLS`'s calls alone (``"net-calls"``, same suffixes): no card rows and no
#: card solves (61 ms a deal against 157 on a loaded machine); the cards of the same deals
#: are level :data:`DD_CALLS`'s of the same seed, to the bit (``train --cards-from``).
NET_CALLS_ONLY: Final = "net-calls"
#: The ``level`` that labels the cards by the search over worlds drawn from the seat's
#: observation (``"search-cards"``, ``"search-cards=N"`` N worlds a card, ``":SPEC"`` a
#: driver, the shipped network by default): a driver plays the deal and each card with a
#: choice is the teacher's softmax of its counted worlds' expected marks (:data:`TEMPERATURE`),
#: as the search teacher's cards are, without its calls' simulations; no call rows (the calls
#: come from other chunks: ``train --calls-only``).
SEARCH_CARDS: Final = "search-cards"
#: :data:`SEARCH_CARDS`'s worlds a card by default.
SEARCH_CARD_WORLDS: Final = 48
_PASS: Final = ACTIONS.index(PASS)
#: The calls' labels: the softmax's temperature in marks, and the margin in marks given to the
#: tuned bidder's call (the anchor: ``fort``'s :data:`~rebelote.bots.pimc.ANCHOR_MARGIN`).
CALL_TEMPERATURE: Final = 25.0
CALL_MARGIN: Final = ANCHOR_MARGIN


def teacher_budget(level: str = TEACHER) -> Budget:
    """The teacher's budget: ``level``'s, counted (no time limit: reproducible)."""
    return replace(budget_of(level), seconds=None, bid_seconds=None)


@dataclass(frozen=True)
class Examples:
    """Rows of examples: inputs ``x``, legal masks, policy targets (a distribution over the
    legal actions), value targets (marks) and whether each row has one, and the deal each row
    comes from."""

    x: Array
    legal: Array
    target: Array
    value: Array
    has_value: Array
    deal: npt.NDArray[np.int64]

    @staticmethod
    def concat(parts: Sequence[Examples]) -> Examples:
        return Examples(*(np.concatenate([getattr(p, f) for p in parts])
                          for f in ("x", "legal", "target", "value", "has_value", "deal")))

    def __len__(self) -> int:
        return len(self.x)

    def rows(self, keep: npt.NDArray[np.bool_]) -> Examples:
        return Examples(self.x[keep], self.legal[keep], self.target[keep], self.value[keep],
                        self.has_value[keep], self.deal[keep])

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, x=self.x.astype(np.float16), legal=self.legal.astype(np.uint8),
                            target=self.target, value=self.value,
                            has_value=self.has_value.astype(np.uint8), deal=self.deal)

    @staticmethod
    def load(path: str | Path) -> Examples:
        with np.load(path) as d:
            return Examples(d["x"].astype(F32), d["legal"].astype(F32), d["target"].astype(F32),
                            d["value"].astype(F32), d["has_value"].astype(F32),
                            d["deal"].astype(np.int64))


def _search_target(marks: dict[int, float], choices: Sequence[tuple[int, Action]],
                   target: Array) -> None:
    """The teacher's target of a card (in ``target``, over the legal ``choices``): a softmax
    at :data:`TEMPERATURE` marks of each legal card's expected mark over the worlds."""
    best = max(marks.values())
    for i, a in choices:
        if isinstance(a, Play):
            target[i] = np.exp((marks[a.card] - best) / TEMPERATURE)


def _critic(state: DealState) -> float:
    """The double-dummy value of ``state`` for the team to play: the best legal card's mark."""
    team = state.player & 1
    values = solve(position_of_state(state), state.rules)
    won = tricks_won(state.tricks, state.leader)[team] > 0
    marker = Marker(state, state.taker, state.auction.best, state.auction.multiplier)
    return max(marker.own(team, v, won, 0.0) for v in values.values())


def _empty() -> Examples:
    return Examples(np.zeros((0, OBSERVATION_SIZE), F32), np.zeros((0, len(ACTIONS)), F32),
                    np.zeros((0, len(ACTIONS)), F32), np.zeros(0, F32), np.zeros(0, F32),
                    np.zeros(0, np.int64))


class _Rows:
    """The examples of one deal as they are made: a row for each decision whose target has
    weight; the calls' rows valued by the deal's result at its end (:meth:`finish`)."""

    def __init__(self) -> None:
        self.xs: list[Array] = []
        self.legals: list[Array] = []
        self.targets: list[Array] = []
        self.values: list[float] = []
        self.has: list[float] = []
        self.calls: list[tuple[int, int]] = []  # (row, team): valued at the end

    def add(self, x: Array, legal: Array, target: Array, value: float, has_value: float,
            call_team: int | None = None) -> None:
        if target.sum() <= 0.0:
            return
        if call_team is not None:
            self.calls.append((len(self.xs), call_team))
        self.xs.append(x)
        self.legals.append(legal)
        self.targets.append(target / target.sum())
        self.values.append(value)
        self.has.append(has_value)

    def finish(self, end: DealState, index: int) -> Examples:
        marks = end.returns()
        for row, team in self.calls:
            self.values[row] = float(marks[team])
            self.has[row] = 1.0
        n = len(self.xs)
        if not n:
            return _empty()
        return Examples(np.asarray(self.xs, F32), np.asarray(self.legals, F32),
                        np.asarray(self.targets, F32), np.asarray(self.values, F32),
                        np.asarray(self.has, F32), np.full(n, index, np.int64))


@lru_cache(maxsize=4)
def _driver(spec: str) -> Bot:
    """The bot that plays the true deal's examples: a registry spec, or ``net=PATH`` the
    learned player with the weights of ``PATH`` (self-play: the network's own positions).
    ``net`` here is the network alone (``net:endgame=0``), every card its own, as the data
    levels were made before ``net`` searched its endgame: the same seed, the same files."""
    if spec.startswith("net="):
        from rebelote.bots.net import NetBot, load_model

        return NetBot(load_model(spec.partition("=")[2]))
    from rebelote.bots import make_bot
    from rebelote.bots.net import ALONE_LEVEL

    return make_bot(f"net:{ALONE_LEVEL}" if spec == "net" else spec)


def call_candidates(legal: Sequence[Bid], marks: dict[Bid, float], prior: Bid
                    ) -> dict[Bid, float]:
    """The calls a true deal's label weighs and their marks (``marks``: each legal call's mark
    if the auction ended on it, :func:`~rebelote.bots.pimc.true_call_marks`), the anchored
    bidder's (:func:`~rebelote.bots.pimc.anchored_call`) with the tuned bidder's call
    ``prior``: the prior (its mark plus :data:`CALL_MARGIN`), a pass, and the other calls of
    the simulated trump modes, value bids at most one step above the prior's value (the
    cheapest legal value when the prior is not a value); a coinche or surcoinche only when it
    is the prior. Empty when the prior has no mark (a capot bid, ...): the prior is the label."""
    if prior not in marks:
        return {}
    values = [b.value for b in legal if b.kind == "value"]
    cap = prior.value + STEP if prior.kind == "value" else min(values, default=0)
    out = {prior: marks[prior] + CALL_MARGIN}
    for bid in legal:
        if bid == prior or bid not in marks or bid.kind in ("coinche", "surcoinche"):
            continue
        if bid.kind == "value" and bid.value > cap:
            continue
        out[bid] = marks[bid]
    return out


def played_out(state: DealState, bot: Bot) -> DealState:
    """``state`` played to its end by ``bot`` on every seat (a forced action without asking:
    the same as :class:`~rebelote.bots.net.NetBot`'s; ``bot`` deterministic, the same end)."""
    rng = random.Random(0)
    while not state.is_terminal:
        legal = state.legal_actions()
        state = state.apply(legal[0] if len(legal) == 1 else
                            bot.act(state.observation(state.player), rng))
    return state


def net_call_marks(state: DealState, calls: Sequence[Bid], bot: Bot) -> dict[Bid, float]:
    """Each of ``calls``' mark for the seat's team in the true deal ``state`` (in its
    auction) if the auction ended on it: the call made, every other seat passing until the
    auction ends, then the deal played out by ``bot`` on every seat (:func:`played_out`); a
    pass that ends the auction without a contract is 0. The mark is the table's: the
    contract's value, coinche, belote and declarations as scored."""
    team = state.player & 1
    out: dict[Bid, float] = {}
    for call in calls:
        s = state.apply(call)
        while not s.is_terminal and s.phase == AUCTION:
            s = s.apply(PASS)
        out[call] = float(played_out(s, bot).returns()[team])
    return out


def _call_target(state: DealState, prior: Bid,
                 solved: dict[tuple[int, int], tuple[int, int]],
                 playout: Bot | None = None) -> dict[Bid, float]:
    """The label of the seat's call in the true deal ``state``: a distribution over the
    candidate calls (:func:`call_candidates`, a softmax at :data:`CALL_TEMPERATURE`), the
    prior alone for a hopeless pass (``fort`` passes without simulating) or an unsimulated
    prior. ``playout``: the candidates are valued by that bot's play of the deal
    (:func:`net_call_marks`) instead of the double-dummy play's."""
    obs = state.observation(state.player)
    legal = [b for b in obs.legal if isinstance(b, Bid)]
    if prior == PASS and hopeless(obs, legal):
        return {PASS: 1.0}
    if playout is not None:
        # the candidates only: their double-dummy marks are not needed, no solve
        unsolved = {(mode, -1 if state.rules.game in AUCTION_GAMES else taker): (0, 0)
                    for mode, taker in call_takers(obs, prior)}
        solved = unsolved
    cands = call_candidates(legal, true_call_marks(state, prior, solved), prior)
    if not cands:
        return {prior: 1.0}
    if playout is not None:
        marks = net_call_marks(state, list(cands), playout)
        cands = {b: m + (CALL_MARGIN if b == prior else 0.0) for b, m in marks.items()}
    best = max(cands.values())
    return {b: float(np.exp((m - best) / CALL_TEMPERATURE)) for b, m in cands.items()}


def dd_examples(seed: int, index: int, driver: str = "tuned", calls: bool = False,
                playout: str | None = None, cards: bool = True,
                search: Budget | None = None) -> Examples:
    """The examples of deal ``index`` of ``seed`` labelled by the true deal: the deal (dealt
    as :func:`deal_examples` deals it) is played by ``driver`` (a registry spec: the tuned
    bidder's calls and the heuristic's cards by default, a few milliseconds a deal), and each
    card with a choice is an example whose target is a softmax over the legal cards of their
    double-dummy marks in the true deal (:data:`DD_TEMPERATURE`, :data:`DD_POINTS`), its value
    the critic's. Averaged over many deals, the policy learns each card's chance of being the
    best given what the seat sees: the search's question, its worlds drawn by the deals
    themselves, for a thousandth of the search's time. The driver's calls are examples too
    (one-hot), valued by the deal's result; with ``calls`` each call with a choice is
    labelled by the true deal instead (:func:`_call_target`: the candidate calls' marks if
    the auction ended on them, the tuned bidder's call given :data:`CALL_MARGIN`); with
    ``playout`` too (a driver spec, ``net`` or ``net=PATH``), the candidates' marks are that
    bot's play of the deal from each candidate's contract (:data:`NET_CALLS`). Without
    ``cards``, the cards are played but not labelled (no rows, no solves). With ``search``
    (:data:`SEARCH_CARDS`), each card's target is the search's over that budget's worlds
    drawn from the seat's observation (:func:`~rebelote.bots.pimc.card_marks`, their own
    random stream: the driver plays the same deal as without), the value the critic's, and
    the calls are no examples."""
    rules = parse_rules(RULE_SETS[index % len(RULE_SETS)])
    rng = random.Random(seed * 1_000_003 + index)
    play = random.Random(seed * 1_000_003 + index + 1_000_000_007)
    worlds = random.Random(seed * 1_000_003 + index + 2_000_000_011)
    clock = Clock()
    bot = _driver(driver)
    tuned = _driver("tuned")
    player = _driver(playout) if playout is not None else None
    state = DealState.new(rules, dealer=index % 4, rng=rng)
    rows = _Rows()
    call_solves: dict[tuple[int, int], tuple[int, int]] = {}  # the true deal's, by mode
    while not state.is_terminal:
        seat = state.player
        obs = state.observation(seat)
        legal = obs.legal
        action = legal[0] if len(legal) == 1 else bot.act(obs, play)
        if len(legal) > 1 and (cards or state.phase == AUCTION) and \
                (search is None or state.phase == PLAY):
            x, suits = features(obs)
            choices = legal_indices(obs, suits)
            if len(choices) > 1:
                mask = np.zeros(len(ACTIONS), dtype=F32)
                target = np.zeros(len(ACTIONS), dtype=F32)
                for i, _ in choices:
                    mask[i] = 1.0
                value, has_value, call_team = 0.0, 0.0, None
                if state.phase == PLAY and search is not None:
                    marks = card_marks(obs, worlds, search, clock)
                    if marks:
                        _search_target(marks, choices, target)
                    value, has_value = _critic(state), 1.0
                elif state.phase == PLAY:
                    team = seat & 1
                    solved = solve(position_of_state(state), state.rules)
                    won = tricks_won(state.tricks, state.leader)[team] > 0
                    marker = Marker(state, state.taker, state.auction.best,
                                    state.auction.multiplier)
                    marks = {card: marker.own(team, v, won or v > 0, 0.0)
                             for card, v in solved.items()}
                    score = {card: marks[card] + DD_POINTS * v for card, v in solved.items()}
                    best = max(score.values())
                    for i, a in choices:
                        if isinstance(a, Play):
                            target[i] = np.exp((score[a.card] - best) / DD_TEMPERATURE)
                    value, has_value = max(marks.values()), 1.0
                elif calls and state.phase == AUCTION:
                    prior = action if driver == "tuned" else tuned.act(obs, random.Random(0))
                    label = _call_target(state, prior if isinstance(prior, Bid) else PASS,
                                         call_solves, player)
                    for i, a in choices:
                        target[i] = label.get(a, 0.0) if isinstance(a, Bid) else 0.0
                    call_team = seat & 1
                else:
                    for i, a in choices:
                        if a == action:
                            target[i] = 1.0
                    if state.phase == AUCTION:
                        call_team = seat & 1
                rows.add(x, mask, target, value, has_value, call_team)
        state = state.apply(action)
    return rows.finish(state, index)


def deal_examples(seed: int, index: int, level: str = TEACHER) -> Examples:
    """The examples of deal ``index`` of ``seed`` (module docstring); ``level``
    :data:`DD_TEACHER` (``"dd"``, or ``"dd:SPEC"`` a driver) labels them by the true deal
    (:func:`dd_examples`; ``"dd:net=PATH"``: the network of ``PATH`` plays the deals), and
    :data:`DD_CALLS` (``"dd+calls"``, ``"dd+calls:SPEC"``) its calls too; :data:`NET_CALLS`
    (``"net+calls"``, ``"net+calls=PATH:SPEC"``) its calls by the network's play of the deal
    from each candidate's contract, :data:`NET_CALLS_ONLY` (``"net-calls"``) those calls
    alone; :data:`SEARCH_CARDS` (``"search-cards=N:SPEC"``) the cards alone by the search
    over N worlds a card (:data:`SEARCH_CARD_WORLDS` by default), the shipped network the
    driver by default."""
    base, _, driver = level.partition(":")
    if base in (DD_TEACHER, DD_CALLS):
        return dd_examples(seed, index, driver or "tuned", calls=base == DD_CALLS)
    name, eq, weights = base.partition("=")
    if name == SEARCH_CARDS:
        count = int(weights) if eq else SEARCH_CARD_WORLDS
        return dd_examples(seed, index, driver or "net",
                           search=replace(teacher_budget(), worlds=count))
    if name in (NET_CALLS, NET_CALLS_ONLY):
        return dd_examples(seed, index, driver or "tuned", calls=True,
                           playout="net=" + weights if eq else "net",
                           cards=name == NET_CALLS)
    rules = parse_rules(RULE_SETS[index % len(RULE_SETS)])
    rng = random.Random(seed * 1_000_003 + index)
    search = random.Random(seed * 1_000_003 + index + 1_000_000_007)
    budget = teacher_budget(level)
    bot = PimcBot(budget=budget)
    clock = Clock()
    state = DealState.new(rules, dealer=index % 4, rng=rng)
    rows = _Rows()
    while not state.is_terminal:
        seat = state.player
        obs = state.observation(seat)
        legal = obs.legal
        if len(legal) == 1:
            state = state.apply(legal[0])
            continue
        x, suits = features(obs)
        choices = legal_indices(obs, suits)
        mask = np.zeros(len(ACTIONS), dtype=F32)
        for i, _ in choices:
            mask[i] = 1.0
        target = np.zeros(len(ACTIONS), dtype=F32)
        call_team: int | None = None
        if state.phase == PLAY:
            marks = card_marks(obs, search, budget, clock)
            cards = [a for a in legal if isinstance(a, Play)]
            if marks and len(choices) > 1:
                _search_target(marks, choices, target)
                points = card_values(obs.trump, rules.no_trump_aces, rules.all_trump_scale)
                action: Action = max(cards, key=lambda a: (marks[a.card], -points[a.card]))
                value, has_value = _critic(state), 1.0
            else:
                action = bot.act(obs, search)
                value, has_value = 0.0, 0.0
                for i, a in choices:
                    if a == action:
                        target[i] = 1.0
        else:
            action = bot.act(obs, search)
            for i, a in choices:
                if a == action:
                    target[i] = 1.0
            value, has_value = 0.0, 0.0
            if state.phase == AUCTION:
                call_team = seat & 1
        if len(choices) > 1:
            rows.add(x, mask, target, value, has_value, call_team)
        state = state.apply(action)
    return rows.finish(state, index)


# -- training ------------------------------------------------------------------------------------
#: Marks a logit stands for when the cards are learned as values (``card_q``): a card one
#: logit below another is :data:`Q_SCALE` marks worse. Targets below :data:`Q_FLOOR` (a card
#: that loses a coinched contract) are cut there: the network need not tell how bad.
Q_SCALE: Final = 20.0
Q_FLOOR: Final = -400.0


def card_values_of(data: Examples, temperature: float) -> tuple[Array, Array]:
    """The rows of ``data`` that are cards, and their targets as values: a card's target
    softmax at ``temperature`` marks (:data:`TEMPERATURE` for the search's examples,
    :data:`DD_TEMPERATURE` for the true deal's) is turned back into each legal card's mark
    below the best (``temperature`` times the log of its weight over the best's), in logits
    (:data:`Q_SCALE`), cut at :data:`Q_FLOOR`."""
    cards = data.legal[:, :len(PLAYS)].sum(axis=1) > 0.0
    return cards.astype(F32), _values_below_best(data, temperature)


def call_values_of(data: Examples, temperature: float) -> tuple[Array, Array]:
    """The rows of ``data`` that are calls labelled by the true deal (level
    :data:`DD_CALLS`: no legal card, more than one call weighed), and their targets as values
    as in :func:`card_values_of` (``temperature``: :data:`CALL_TEMPERATURE`): each candidate
    call's mark below the best, the other legal calls at :data:`Q_FLOOR`."""
    calls = (data.legal[:, :len(PLAYS)].sum(axis=1) == 0.0) & \
        ((data.target > 0.0).sum(axis=1) > 1)
    return calls.astype(F32), _values_below_best(data, temperature)


def with_pass_bonus(data: Examples, bonus: float, temperature: float = CALL_TEMPERATURE
                    ) -> Examples:
    """``data`` with the pass of each call labelled by the true deal (:func:`call_values_of`'s
    rows) ``bonus`` marks better: its weight in the target's softmax (at ``temperature``)
    multiplied by ``exp(bonus / temperature)``, the target normalised again. The true deal's
    double-dummy play makes more contracts than the table does (the search's anchored bidder
    asks its added bids a chance of 0.8 for the same reason): a bonus on the pass makes the
    learned calls as cautious as the table needs, chosen at training without new labels."""
    if not bonus:
        return data
    calls = call_values_of(data, temperature)[0] > 0.0
    target = data.target.copy()
    target[calls, _PASS] *= F32(np.exp(bonus / temperature))
    target[calls] /= target[calls].sum(axis=1, keepdims=True)
    return replace(data, target=target)


def _values_below_best(data: Examples, temperature: float) -> Array:
    with np.errstate(divide="ignore"):
        logt = np.log(data.target)
    top = np.max(np.where(data.legal > 0.0, logt, -np.inf), axis=1, keepdims=True)
    below = np.maximum(temperature * (logt - top), Q_FLOOR)
    return np.where(data.legal > 0.0, below / Q_SCALE, 0.0).astype(F32)

def init_model(seed: int, hidden: int) -> Model:
    """The weights before training, from ``seed`` (He's normal start, zero biases)."""
    gen = np.random.default_rng(seed)
    d, a = OBSERVATION_SIZE, len(ACTIONS)

    def normal(fan_in: int, shape: tuple[int, ...], gain: float = 2.0) -> Array:
        return gen.normal(0.0, np.sqrt(gain / fan_in), shape).astype(F32)

    return {"w1": normal(d, (d, hidden)), "b1": np.zeros(hidden, F32),
            "w2": normal(hidden, (hidden, hidden)), "b2": np.zeros(hidden, F32),
            "wp": normal(hidden, (hidden, a), 1.0), "bp": np.zeros(a, F32),
            "wv": normal(hidden, (hidden, 1), 1.0), "bv": np.zeros(1, F32)}


def _gradients(model: Model, xb: Array, lb: Array, tb: Array, vb: Array, hb: Array,
               value_weight: float, qb: Array | None = None, q_targets: Array | None = None
               ) -> list[Array]:
    w1, b1, w2, b2, wp, bp, wv, bv = (model[k] for k in KEYS)
    n = F32(len(xb))
    a1 = xb @ w1 + b1
    h1 = np.maximum(a1, 0.0)
    a2 = h1 @ w2 + b2
    h2 = np.maximum(a2, 0.0)
    logits = np.where(lb > 0.0, h2 @ wp + bp, F32(-1e9))
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits) * lb
    p /= p.sum(axis=1, keepdims=True)
    g_logits = (p - tb) / n
    if qb is not None and q_targets is not None:
        # the cards' rows: each legal card's logit fitted to its value (squared error, a
        # mean over the legal cards)
        raw = h2 @ wp + bp
        legal_n = np.maximum(lb.sum(axis=1, keepdims=True), F32(1.0))
        g_q = F32(2.0) * (raw - q_targets) * lb / legal_n / n
        g_logits = np.where(qb[:, None] > 0.0, g_q, g_logits).astype(F32)
    v = (h2 @ wv + bv)[:, 0]
    g_v = (F32(2.0 * value_weight) * (v - vb / F32(VALUE_SCALE)) * hb / n)[:, None]
    g_h2 = (g_logits @ wp.T + g_v @ wv.T) * (a2 > 0.0)
    g_h1 = (g_h2 @ w2.T) * (a1 > 0.0)
    return [xb.T @ g_h1, g_h1.sum(axis=0), h1.T @ g_h2, g_h2.sum(axis=0),
            h2.T @ g_logits, g_logits.sum(axis=0), h2.T @ g_v, g_v.sum(axis=0)]


def train(data: Examples, seed: int, hidden: int = 256, epochs: int = 10, batch: int = 256,
          rate: float = 1e-3, decay: float = 1e-6, value_weight: float = 0.25,
          checkpoint: str | Path | None = None,
          log: Callable[[int, Model], None] | None = None,
          card_q: float | None = None, call_q: float | None = None,
          init: Model | None = None) -> Model:
    """The network fitted to ``data`` (module docstring). With ``checkpoint``, the weights and
    the optimiser's state are written there after each epoch, and a run finding one takes up
    from the epoch after it (same data and options: the same weights to the bit). ``log`` is
    called after each epoch with its number (from 1) and the weights. ``card_q``: the cards
    are learned as values (:func:`card_values_of`, their targets' temperature), the calls as
    a distribution: the policy's top card is then the best card on average, where a
    distribution's is the card most often best (a sure card tied with others loses to a
    gamble that is alone best more often). ``call_q``: the same for the calls labelled by the
    true deal (:func:`call_values_of`, their targets' temperature). ``init``: the weights to
    start from (fine-tuning a trained network) instead of ``seed``'s."""
    model = init_model(seed, hidden) if init is None else {k: init[k].astype(F32) for k in KEYS}
    if model["w1"].shape[1] != hidden:
        raise ValueError(f"init: {model['w1'].shape[1]} hidden units, not {hidden}")
    qrows: Array | None = None
    qvals: Array | None = None
    for temperature, rows_of in ((card_q, card_values_of), (call_q, call_values_of)):
        if temperature is not None:
            rows, vals = rows_of(data, temperature)
            if qrows is None or qvals is None:
                qrows, qvals = rows, vals
            else:
                qvals = np.where(rows[:, None] > 0.0, vals, qvals).astype(F32)
                qrows = np.maximum(qrows, rows)
    params = [model[k] for k in KEYS]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step, done = 0, 0
    path = Path(checkpoint) if checkpoint is not None else None
    if path is not None and path.exists():
        with np.load(path) as c:
            q_then = float(c["card_q"]) if "card_q" in c else -1.0
            call_then = float(c["call_q"]) if "call_q" in c else -1.0
            if int(c["seed"]) != seed or int(c["rows"]) != len(data) \
                    or c["w1"].shape[1] != hidden or q_then != (card_q or -1.0) \
                    or call_then != (call_q or -1.0):
                raise ValueError(f"{path}: a checkpoint of another run (seed, rows, hidden, "
                                 "card_q or call_q differ): remove it or name another "
                                 "--checkpoint")
            params = [c[k].astype(F32) for k in KEYS]
            m = [c["m_" + k].astype(F32) for k in KEYS]
            v = [c["v_" + k].astype(F32) for k in KEYS]
            step, done = int(c["step"]), int(c["epoch"])
    n = len(data)
    for epoch in range(done + 1, epochs + 1):
        order = np.random.default_rng([seed, epoch]).permutation(n)
        for lo in range(0, n, batch):
            idx = order[lo:lo + batch]
            model = dict(zip(KEYS, params, strict=True))
            grads = _gradients(model, data.x[idx], data.legal[idx], data.target[idx],
                               data.value[idx], data.has_value[idx], value_weight,
                               None if qrows is None else qrows[idx],
                               None if qvals is None else qvals[idx])
            if decay:
                for i in (0, 2, 4, 6):
                    grads[i] = grads[i] + F32(decay) * params[i]
            step += 1
            adam_step(params, grads, m, v, step, rate, F32)
        model = dict(zip(KEYS, params, strict=True))
        if path is not None:
            tmp = path.with_name(path.name + ".tmp.npz")
            state: dict[str, npt.NDArray[np.generic]] = {
                "seed": np.asarray(seed), "rows": np.asarray(n), "step": np.asarray(step),
                "epoch": np.asarray(epoch),
                "card_q": np.asarray(card_q or -1.0), "call_q": np.asarray(call_q or -1.0)}
            for k, p, mk, vk in zip(KEYS, params, m, v, strict=True):
                state[k], state["m_" + k], state["v_" + k] = p, mk, vk
            np.savez(tmp, **state)  # type: ignore[arg-type]
            tmp.replace(path)
        if log is not None:
            log(epoch, model)
    return dict(zip(KEYS, params, strict=True))


def evaluate(model: Model, data: Examples) -> dict[str, float]:
    """On held-out ``data``: how often the policy's top legal action is the teacher's best,
    the policy's cross-entropy against the teacher's beside a uniform choice's, and the value
    head's mean absolute error in marks (rows with a value)."""
    if not len(data):
        return {"rows": 0.0}
    logits, value = forward(model, data.x)
    masked = np.where(data.legal > 0.0, logits, -np.inf)
    top = masked.argmax(axis=1)
    teacher = np.where(data.legal > 0.0, data.target, -1.0).argmax(axis=1)
    z = masked - masked.max(axis=1, keepdims=True)
    logp = np.where(data.legal > 0.0, z - np.log(np.exp(z).sum(axis=1, keepdims=True)), 0.0)
    ce = float(-np.mean(np.sum(data.target * logp, axis=1)))
    uniform = float(np.mean(np.log(data.legal.sum(axis=1))))
    has = data.has_value > 0.0
    mae = float(np.mean(np.abs(value[has] - data.value[has]))) if has.any() else 0.0
    return {"rows": float(len(data)), "top_agreement": float(np.mean(top == teacher)),
            "cross_entropy": ce, "uniform_cross_entropy": uniform, "value_mae": mae}
