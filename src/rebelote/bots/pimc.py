"""The search player (PIMC / IS-DD): for each decision it deals worlds consistent with its
seat's observation, solves each with the double-dummy solver, scores each world's outcome
through the real scoring function and takes the action of the best expected **mark**.

- **Worlds** come from :meth:`rebelote.deal.DealState.from_observation` (the hidden cards
  dealt again so that the same auction and cards replay: voids, refusals to trump or
  overtrump, shown declarations and belote are hard constraints there) and are **weighted**
  by what the auction says about the hidden hands (:func:`world_weight`): a seat that bid a
  contract probably holds a hand that supports it, a seat that passed probably does not.
- **Card play**: each world is solved by :func:`rebelote.solver.solve` (every legal card's
  final card points for the mover's team under perfect play); each value is turned into the
  deal's marks by :func:`rebelote.scoring.score_deal` (the contract's threshold, coinche and
  surcoinche, capot, declarations and belote all count) and the card with the best weighted
  mean of its team's mark minus the other team's is played.
- **Bidding by simulation**: for each trump mode among the legal bids, each world is solved
  from the first lead with the bidder's team taking (:func:`rebelote.solver.best_value`); each
  legal bid (a take, a value, coinche, surcoinche) gets the weighted mean mark of its outcome,
  ``pass`` the mark of the contract in force (0 when there is none yet). In belote the best
  is called (:func:`choose_call`); in coinche the heuristic's call is the prior and the
  simulation departs from it only by a margin, one step at a time, never to add a coinche
  (:func:`anchored_call`). When the budget runs out before enough worlds, the heuristic bot
  bids.

Budgets: a count of worlds (reproducible from the ``rng`` given to :meth:`PimcBot.act`), and
optionally a time limit per decision (for play against a human; then at least
``min_worlds`` are solved). Levels: :data:`LEVELS`.

>>> from rebelote.bots import make_bot
>>> bot = make_bot("pimc:fast")
>>> bot.worlds, bot.seconds
(8, None)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final

from rebelote.actions import AUCTION, NO_DECLARATION, PLAY, PLAYS, Action, Declare, Play
from rebelote.auction import PASS, Bid
from rebelote.bots.base import DEADLINE, STOP
from rebelote.bots.heuristic import HeuristicBot, contract_points, play_choice
from rebelote.bots.tuned import make_tuned
from rebelote.cards import TEAMS, Mask, suit_of
from rebelote.deal import DealState
from rebelote.determinize import UniformDeals, deals, every_deal, plain_play
from rebelote.errors import IllegalActionError
from rebelote.numbers import is_digits
from rebelote.observation import Observation
from rebelote.rules import AUCTION_GAMES, Rules, card_values, legal_mask
from rebelote.scoring import score_deal
from rebelote.solver import best_value, position_of_state, solve
from rebelote.summary import DealSummary


@dataclass(frozen=True, slots=True)
class Budget:
    """``worlds`` sampled for a card (at most), ``bid_worlds`` for a bid; ``seconds`` and
    ``bid_seconds`` time limits per decision (``None``: count only, reproducible). With a time
    limit, a world is solved only if the time it is expected to take (measured on the
    previous worlds of as many cards) fits in what is left; ``min_worlds`` is the least a card
    searches and ``bid_least`` the least a bid simulates (below them, the heuristic
    answers)."""

    worlds: int
    bid_worlds: int
    seconds: float | None = None
    min_worlds: int = 4
    bid_seconds: float | None = None
    bid_least: int = 12
    #: How calls are chosen in coinche (and contrée): ``anchored`` (the heuristic's call is
    #: the prior, the simulation departs from it only for a call whose simulated mean mark
    #: beats it by :data:`ANCHOR_MARGIN`, see :func:`anchored_call`), ``free`` (the call of
    #: the best simulated mark, :func:`choose_call`) or ``heuristic`` (the heuristic's calls,
    #: no simulation: to measure the card play alone). Belote always bids freely.
    bidding: str = "anchored"
    #: Inference from the play (:func:`play_weight`): each card another seat played where the
    #: heuristic (the model of the players) would have played another multiplies a world's
    #: weight by ``infer`` (0: off). Soft: a floor, never a filter.
    infer: float = 0.0
    #: With ``infer``: deal ``pool`` times ``worlds`` candidate worlds, weigh each (auction and
    #: play), and solve ``worlds`` of them drawn in proportion to their weights (importance
    #: resampling: the likely worlds are solved, not merely weighed). 1: weigh only. Counted
    #: budgets only (a time limit weighs only).
    pool: int = 1
    #: Stop drawing worlds for a card once the best card's lead over the second is clear: its
    #: weighted mean beats the second's by ``stop_z`` standard errors of the paired difference
    #: (or the two agree in every world), after ``stop_least`` worlds (0: never).
    stop_z: float = 0.0
    stop_least: int = 16
    #: Between cards of equal mean marks, play the heuristic's card if it is one of them, else
    #: the one worth fewest card points (off: the lowest card number).
    tie_break: bool = False
    #: With ``tie_break``: the heuristic's card is played when its mean mark is within this
    #: many marks of the best card's (0: only when equal), while the seat holds
    #: ``prior_least`` cards or more: the double-dummy worlds, which let every seat see every
    #: card, are least to be trusted over the model's card where they barely part the two.
    prior_margin: float = 0.0
    prior_least: int = 0
    #: Worlds a card scaled by the cards left: the count for a hand of 8, 7, 6, ... cards (the
    #: last entry for every smaller hand); empty: ``worlds`` at every card. The first tricks'
    #: worlds are the costly ones to solve and the ones where the hidden hands vary most.
    by_cards: tuple[int, ...] = ()
    #: Inference from the calls (:func:`call_weight`, auction games): each call another seat
    #: made where the heuristic, holding that seat's hand of the world, would have called
    #: otherwise multiplies a world's weight by ``call_infer`` (0: off). With ``infer``.
    call_infer: float = 0.0
    #: Stop weighing a world's play at this many cards the model does not explain (0: never):
    #: see :func:`play_weight`.
    infer_cut: int = 0
    #: Inference from the play only while the seat holds this many cards or more (the first
    #: tricks: later the worlds vary little and replaying the play costs more than solving).
    infer_least: int = 3
    #: The exponent on a world's weight from the auction (:func:`world_weight`) when a card
    #: is searched: 1 as it is, 0 every world alike (uniform worlds), between: softer.
    auction_alpha: float = 1.0
    #: The bidding system the other seats' calls are read by (auction games), when the table
    #: has told it, as a convention card does: a name of :data:`CALL_SYSTEMS`. Each call
    #: another seat made that the system, holding that seat's hand of the world, would not
    #: have made multiplies the world's weight by ``call_floor``. Empty: the heuristic's
    #: evaluation of the hand against the call (:class:`AuctionWeights`), for players whose
    #: system is unknown.
    calls: str = ""
    call_floor: float = 0.2
    #: Whose calls are the prior (``anchored``) or the calls (``bidding="heuristic"``), and the
    #: fallback when time runs out: ``heuristic``, ``tuned`` (the tuned bidder,
    #: :mod:`rebelote.bots.tuned`: the heuristic's cards, its own coinche calls) or
    #: ``learned`` (:mod:`rebelote.bots.contextual`: the same cards, calls by expected mark).
    bidder: str = "heuristic"
    #: Inference from the play by the learned model of card play
    #: (:mod:`rebelote.bots.playmodel`) instead of the heuristic's: each card another seat
    #: played weighs a world by its probability under the model there, no less than this
    #: floor (0: off), raised to ``play_temper`` (below 1: softer). With ``infer`` and ``pool``
    #: (the candidates it weighs); contracts in a suit (no-trump and all-trump keep the
    #: heuristic's model).
    play_model: float = 0.0
    play_temper: float = 1.0
    #: A card's mean mark plus this much a card point its team makes in the world (0: marks
    #: only): where the worlds agree on the outcome (a contract made or failed in all), the
    #: cards the marks leave equal are told apart by the points, in case the true deal is
    #: closer than the worlds said.
    points_eps: float = 0.0
    #: Weigh each world by the inverse of the chance the draws had of dealing it
    #: (:func:`rebelote.determinize.uniform_deal`): the worlds uniform over the deals that fit
    #: the observation, as the draws alone are not (they favour the deals that give the most
    #: constrained cards to the seats with the most room). The play of a game with nothing
    #: announced.
    uniform: bool = False
    #: When at most this many deals (or the card's count of worlds, if more) fit the
    #: observation, solve each of them once instead of drawing (0: never): the last tricks'
    #: few worlds, all of them, without the draws' noise.
    every_below: int = 0
    #: Strategy fusion at the seat's next card undone (0: off): while the seat holds this many
    #: cards or fewer (2 or more, the first trick's declarations past), each card is valued
    #: by playing the world on to the seat's next turn (the three cards between, each seat's
    #: double-dummy best in that world) and choosing the next card once for all the worlds
    #: that show the same three cards, as the seat will have to: the mean over those worlds
    #: of one card, not each world's best (the double-dummy leaf postponed by one decision of
    #: the seat's, as EPIMC does).
    postpone: int = 0
    #: With ``infer``: the factor of each of the partner's cards the model does not explain
    #: (below 0: ``infer``, as the other seats'; 1: the partner's cards weigh nothing). The
    #: partner is often another search player, whose cards the heuristic explains less well.
    partner_infer: float = -1.0
    #: With ``infer``: the floor of the play's inference when the seat's team defends (below
    #: 0: ``infer``; 0: the play not weighed in defence, the worlds drawn as without it).
    defence_infer: float = -1.0

    def infer_for(self, obs: Observation) -> float:
        """The floor of the play's inference for a card of ``obs`` (0: not weighed): ``infer``
        (``defence_infer`` in defence, if set) while the seat holds ``infer_least`` cards or
        more and :data:`INFER_LEAST`."""
        if obs.hand.bit_count() < max(INFER_LEAST, self.infer_least):
            return 0.0
        if self.defence_infer >= 0.0 and obs.taker >= 0 and (obs.taker & 1) != (obs.seat & 1):
            return self.defence_infer
        return self.infer

    def partner_of(self) -> float | None:
        """The factor of the partner's unexplained cards, ``None`` when it is ``infer``."""
        return None if self.partner_infer < 0.0 else self.partner_infer

    def card_worlds(self, cards: int) -> int:
        """The worlds a card with ``cards`` in hand searches (at most)."""
        if not self.by_cards:
            return self.worlds
        return self.by_cards[min(len(self.by_cards) - 1, max(0, 8 - cards))]


#: The named levels: ``pimc`` is ``default`` (time-limited, for play against a human),
#: ``fast`` and ``strong`` count worlds only (reproducible, for the arena). ``pimc:N`` is N
#: worlds a card and 2N a bid, counted.
LEVELS: Final = {
    # a quarter of a second a card; tie-breaks and the points between cards of equal marks
    # (the judge: 6-7% cheaper a card in coinche and belote, docs/search.md)
    "default": Budget(worlds=32, bid_worlds=24, seconds=0.25, min_worlds=3, bid_seconds=0.6,
                      bid_least=12, tie_break=True, points_eps=0.01),
    "fast": Budget(worlds=8, bid_worlds=16),
    "strong": Budget(worlds=48, bid_worlds=32),
    # the card play of ``fast`` with the heuristic's calls, and ``fast``'s free simulation
    # of every call: the two measurements that anchored bidding was built on
    "cards": Budget(worlds=8, bid_worlds=16, bidding="heuristic"),
    "free": Budget(worlds=8, bid_worlds=16, bidding="free"),
    # inference from the play (play_weight): ``fast`` and ``strong`` with their worlds weighed
    "infer": Budget(worlds=8, bid_worlds=16, infer=0.35, pool=3, tie_break=True),
    # 48 worlds drawn from 480 by how well the heuristic explains the other seats' cards
    # (a sharp floor), early stop and tie-breaks: the judge's lowest cost (docs/judge.md); uniform
    # over the deals that fit, every one of them when 64 or fewer fit, the points parting
    # cards of equal marks (docs/versus-colver.md, "What was tried next"); in a suit contract
    # the candidates weighed by the learned model of the players' cards, no less than 0.05 a
    # card (docs/versus-colver.md, "`expert` with the learned model of the players")
    "expert": Budget(worlds=48, bid_worlds=32, infer=0.1, pool=10, stop_z=2.5,
                     tie_break=True, points_eps=0.01, uniform=True, every_below=64,
                     play_model=0.05),
    # the match against colver's IS-DD with 20 worlds a card at no more time a card
    # (docs/versus-colver.md): worlds by the cards in hand, drawn from 10 times as many by the
    # play's inference (floor 0.1) while 6 cards or more are in hand, the auction's weight
    # softened (colver's bidder is not ours), uniform over the deals that fit, every one of
    # them when 64 or fewer fit, the points telling apart cards of equal marks, tie-breaks
    "match": Budget(worlds=64, bid_worlds=32, by_cards=(64, 48, 24, 12, 8), infer=0.1,
                    pool=10, infer_least=6, auction_alpha=0.5, tie_break=True,
                    points_eps=0.01, uniform=True, every_below=64),
}


#: A level's suffix that makes the tuned bidder's calls the prior (``pimc:fast+tuned``).
TUNED_SUFFIX: Final = "+tuned"
#: ... and the learned bidder's (:mod:`rebelote.bots.contextual`, ``pimc:fast+learned``).
LEARNED_SUFFIX: Final = "+learned"


def budget_of(level: str | None) -> Budget:
    """The budget of a level name or a count of worlds, with ``+tuned`` the tuned bidder's
    calls for the heuristic's (``pimc:cards+tuned``, ``pimc:fast+tuned``); :class:`ValueError`
    otherwise."""
    if level is None:
        return LEVELS["default"]
    key = level.strip().lower()
    if key.endswith(TUNED_SUFFIX) and key != TUNED_SUFFIX:
        return replace(budget_of(key[:-len(TUNED_SUFFIX)]), bidder="tuned")
    if key.endswith(LEARNED_SUFFIX) and key != LEARNED_SUFFIX:
        return replace(budget_of(key[:-len(LEARNED_SUFFIX)]), bidder="learned")
    if key in LEVELS:
        return LEVELS[key]
    if is_digits(key) and 1 <= int(key) <= 10_000:
        n = int(key)
        return Budget(worlds=n, bid_worlds=max(1, 2 * n), min_worlds=min(4, n))
    counts = key.split("-")
    if 1 < len(counts) <= 7 and all(is_digits(c) and 1 <= int(c) <= 10_000 for c in counts):
        by = tuple(int(c) for c in counts)
        return Budget(worlds=by[0], bid_worlds=max(1, 2 * by[0]), min_worlds=min(4, *by),
                      tie_break=True, by_cards=by)
    raise ValueError(f"a pimc level is one of {', '.join(LEVELS)}, a count of worlds 1..10000 "
                     f"or counts by cards in hand (8-7-...: 64-32-16), any of them followed by "
                     f"+tuned or +learned (the tuned or the learned bidder's calls), not "
                     f"{level!r}")


def with_fields(text: str) -> PimcBot:
    """A search player of a level with some of its budget's fields changed, for a
    measurement: ``pimc:LEVEL[field=value;...]`` (``pimc:match[points_eps=0;uniform=0]``: the
    :class:`Budget` of ``LEVEL`` with those fields; a tuple field's counts joined by ``-``, a
    flag 1 or 0). :class:`ValueError` naming the field otherwise."""
    head, bracket, rest = text.partition("[")
    name, _, level = head.partition(":")
    if not bracket or name.strip() != "pimc" or not rest.endswith("]"):
        raise ValueError(f"{text!r}: budget fields are for pimc (pimc:16[stop_z=2.5])")
    budget = budget_of(level or None)
    fields: dict[str, object] = {}
    for item in filter(None, rest[:-1].split(";")):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in Budget.__dataclass_fields__:
            raise ValueError(f"{text!r}: {item!r} is not field=value of pimc's Budget")
        old = getattr(budget, key)
        try:
            fields[key] = (tuple(int(x) for x in value.split("-")) if isinstance(old, tuple)
                           else value.strip().lower() in ("1", "true", "yes")
                           if isinstance(old, bool) else type(old)(value))
        except ValueError:
            kind = ("counts joined by '-' (64-32-8)" if isinstance(old, tuple)
                    else "whole number" if isinstance(old, int) else "number")
            raise ValueError(f"{text!r}: {key} must be a {kind}, not {value!r}") from None
    return PimcBot(budget=replace(budget, **fields))  # type: ignore[arg-type]


def _bidder(name: str) -> HeuristicBot:
    """The bot whose calls are a level's prior and its fallback (all play the heuristic's
    cards): ``heuristic``, ``tuned`` or ``learned`` (imported when first made: NumPy)."""
    if name == "learned":
        from rebelote.bots.contextual import make_contextual

        return make_contextual()
    return HeuristicBot() if name == "heuristic" else make_tuned()


class PimcBot:
    """The search player. ``act`` sees only its observation; worlds come from ``rng``."""

    name: str = "pimc"

    def __init__(self, level: str | None = None, budget: Budget | None = None) -> None:
        self.budget = budget or budget_of(level)
        if self.budget.calls:
            call_system(self.budget.calls)  # an unknown system is said when the bot is made
        self.fallback = _bidder(self.budget.bidder)
        self.clock = CLOCK
        #: Decisions searched (worlds solved) and answered by the heuristic for want of
        #: time, since the bot was made (for the benches).
        self.searched = 0
        self.fell_back = 0

    @property
    def worlds(self) -> int:
        return self.budget.worlds

    @property
    def seconds(self) -> float | None:
        return self.budget.seconds

    def act(self, observation: Observation, rng: random.Random) -> Action:
        if observation.phase == AUCTION:
            return self._bid(observation, rng)
        cards = [a for a in observation.legal if isinstance(a, Play)]
        if not cards:
            if NO_DECLARATION in observation.legal:  # pragma: no cover - cards come with it
                return NO_DECLARATION
            raise ValueError("act: the observed seat has no action to take")
        if len(cards) == 1:
            return cards[0]
        values = card_marks(observation, rng, self.budget, self.clock)
        if not values:
            self.fell_back += 1
            return self.fallback.act(observation, rng)
        self.searched += 1
        if not self.budget.tie_break:
            return max(cards, key=lambda a: values[a.card])
        r = observation.rules
        points = card_values(observation.trump, r.no_trump_aces, r.all_trump_scale)
        margin = self.budget.prior_margin \
            if observation.hand.bit_count() >= self.budget.prior_least else 0.0
        return tie_break(cards, values, points, lambda: self.fallback.act(observation, rng),
                         margin)

    def _bid(self, obs: Observation, rng: random.Random) -> Action:
        legal = [b for b in obs.legal if isinstance(b, Bid)]
        if len(legal) == 1:
            return legal[0]
        bidding = self.budget.bidding if obs.rules.game in AUCTION_GAMES else "free"
        if bidding == "heuristic":
            return self.fallback.act(obs, rng)
        prior: Bid | None = None
        if bidding == "anchored":
            got = self.fallback.act(obs, rng)
            prior = got if isinstance(got, Bid) else PASS
            if prior == PASS and hopeless(obs, legal):
                return PASS
        elif hopeless(obs, legal):
            return PASS
        sims = bid_marks(obs, rng, self.budget, self.clock, prior)
        if sims is None:
            self.fell_back += 1
            return prior if prior is not None else self.fallback.act(obs, rng)
        self.searched += 1
        if prior is not None:
            return anchored_call(legal, sims, prior)
        return choose_call(legal, sims)


#: How far below the cheapest bid (or, in belote, the heuristic's 86 to take) the hand's best
#: evaluation must be for the seat to pass without simulating: no sampled deal would change
#: that answer, and most calls of an auction are such passes.
HOPELESS: Final = 30.0


def hopeless(obs: Observation, legal: list[Bid]) -> bool:
    """The seat may only bid (no coinche or surcoinche to weigh) and its hand, as the heuristic
    evaluates it, is far from any bid it may make."""
    rules = obs.rules
    if any(b.kind in ("coinche", "surcoinche") for b in legal):
        return False
    if rules.game == "belote":
        if obs.turned < 0:
            return False
        hand = obs.hand | 1 << obs.turned
        modes = {suit_of(obs.turned) if b.kind == "take" else b.trump for b in legal
                 if b.kind in ("take", "suit")}
        floor = 86.0
    else:
        hand = obs.hand
        values = [b for b in legal if b.kind == "value"]
        if not values:
            return False
        modes = {b.trump for b in values}
        floor = float(min(b.value for b in values))
    modes.discard(-1)
    if not modes:
        return False
    best = max(contract_points(hand, t, rules.declarations) for t in modes)
    return best < floor - HOPELESS


#: The least chance of making a contract the player bids, of the opponents' contract falling
#: for a coinche, of making a coinched contract for a surcoinche: the worlds are few and the
#: best of many noisy estimates is optimistic, so a call needs a margin beyond its mean mark.
BID_CHANCE: Final = 0.65
COINCHE_CHANCE: Final = 0.75
SURCOINCHE_CHANCE: Final = 0.8
#: Card points taken off the bidder's team in its own contract's simulations: a double-dummy
#: play is too good for the side that holds the contract (its partner "sees" its hand).
DD_MARGIN: Final = 10


def choose_call(legal: list[Bid], sims: dict[Bid, tuple[float, float]]) -> Bid:
    """The call of the best mean mark among those likely enough to succeed (``sims``: each
    simulated call's mean mark for the seat's team and its chance of a positive mark), else
    ``pass``."""
    pass_mark = sims.get(PASS, (0.0, 0.0))[0]
    best: Bid = PASS
    best_mark = pass_mark
    for bid in legal:
        got = sims.get(bid)
        if got is None or bid == PASS:
            continue
        mark, chance = got
        need = COINCHE_CHANCE if bid.kind == "coinche" else \
            SURCOINCHE_CHANCE if bid.kind == "surcoinche" else BID_CHANCE
        if chance >= need and mark > best_mark:
            best, best_mark = bid, mark
    return best


#: Marks (the seat's team's, a deal) by which a call's simulated mean must beat the
#: heuristic's call for the anchored bidder to make it instead: the double-dummy play is
#: optimistic for the side that plays the contract, and the best of several noisy means is
#: optimistic too.
ANCHOR_MARGIN: Final = 40.0
#: The least simulated chance of making a value bid the heuristic would not make (its own
#: contracts are made about 90% of the time against the search's 62-68% when it bid freely).
ANCHOR_CHANCE: Final = 0.8
#: How far above the heuristic's value (or, when the heuristic passes, above the cheapest
#: legal value) an anchored bidder may go: one step, never a jump.
STEP: Final = 10


def anchored_call(legal: list[Bid], sims: dict[Bid, tuple[float, float]], prior: Bid) -> Bid:
    """The heuristic's call ``prior`` unless another simulated call beats its simulated mean
    mark by :data:`ANCHOR_MARGIN`: a pass (the prior's bid or coinche is withdrawn), or a
    value bid at most one step above the prior's value (the cheapest legal value when the
    prior is not a value) with a chance of :data:`ANCHOR_CHANCE`. A coinche or surcoinche is
    never added to the heuristic's calls, only withdrawn: on few worlds the inference of the
    bidder's hand is weak, and a coinche added on it cost 2,080 marks on one deal. The prior
    stands when it was not simulated."""
    got = sims.get(prior)
    if got is None:
        return prior
    values = [b.value for b in legal if b.kind == "value"]
    cap = prior.value + STEP if prior.kind == "value" else min(values, default=0)
    best, best_mark = prior, got[0] + ANCHOR_MARGIN
    for bid in legal:
        sim = sims.get(bid)
        if sim is None or bid == prior or bid.kind in ("coinche", "surcoinche"):
            continue
        if bid.kind == "value" and bid.value > cap:
            continue
        mark, chance = sim
        if bid != PASS and chance < ANCHOR_CHANCE:
            continue
        if mark > best_mark:
            best, best_mark = bid, mark
    return best


# -- worlds and their weights --------------------------------------------------------------------
#: How sharply a bid or a pass weighs a world: a logistic of the evaluation's distance to the
#: threshold, in card points.
BID_SCALE: Final = 10.0
PASS_SCALE: Final = 14.0
#: The least weight a world keeps (the evaluation is a guess, not a rule).
FLOOR: Final = 0.02


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def world_weight(world: DealState, obs: Observation) -> float:
    """How likely the world's hidden hands are to have made the calls the seat heard: each
    other seat's bid (its hand's evaluation should support the contract) and pass (it should
    not have supported one it could have called), multiplied. 1.0 with nothing to weigh.
    :class:`AuctionWeights` weighs many worlds of one observation."""
    return AuctionWeights(obs)(world)


class AuctionWeights:
    """:func:`world_weight` for the many worlds of one observation, to the bit: the calls to
    weigh are read once, and each call's factor is kept by the hand that made it (a seat's
    hand recurs from world to world once most of its cards are played)."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.rules = obs.rules
        self.turned = obs.turned
        #: each call weighed: its place in the auction, the seat, the call, the highest
        #: value bid before it
        self.calls = self._heard(obs)
        self.factors: dict[tuple[int, Mask], float] = {}

    def _heard(self, obs: Observation) -> list[tuple[int, int, Bid, int]]:
        calls: list[tuple[int, int, Bid, int]] = []
        best = 0
        for i, (seat, bid) in enumerate(obs.auction):
            if seat != obs.seat and self._weighs(bid, best):
                calls.append((i, seat, bid, best))
            if self.rules.game != "belote" and bid.kind == "value" \
                    and (seat == obs.seat or bid.trump >= 0):
                best = bid.value
        return calls

    def _weighs(self, bid: Bid, best: int) -> bool:
        if self.rules.game == "belote":
            if bid.kind in ("take", "suit"):
                trump = suit_of(self.turned) if bid.kind == "take" else bid.trump
                return trump < 4
            return bid == PASS and self.turned >= 0
        return (bid.kind == "value" and bid.trump >= 0) or (bid == PASS and best < 90)

    def __call__(self, world: DealState) -> float:
        if not self.calls:
            return 1.0
        hands = world.auction_hands()
        factors = self.factors
        weight = 1.0
        for i, seat, bid, best in self.calls:
            hand = hands[seat]
            f = factors.get((i, hand))
            if f is None:
                f = factors[(i, hand)] = self._factor(i, seat, bid, hand, best)
            weight *= f
        return weight

    def _factor(self, index: int, seat: int, bid: Bid, hand: Mask, best: int) -> float:
        rules = self.rules
        turned = self.turned
        if rules.game == "belote":
            if bid.kind in ("take", "suit"):
                trump = suit_of(turned) if bid.kind == "take" else bid.trump
                e = _evaluation(hand | 1 << turned, trump, rules.declarations)
                return max(FLOOR, _logistic((e - 76.0) / BID_SCALE))
            e = _evaluation(hand | 1 << turned, suit_of(turned), rules.declarations)
            return max(FLOOR, _logistic((96.0 - e) / PASS_SCALE))
        if bid.kind == "value":
            e = _evaluation(hand, bid.trump, rules.declarations)
            # a bid says "my hand and my partner's share make V" (the heuristic's reading)
            return max(FLOOR, _logistic((e - bid.value) / BID_SCALE))
        e = max(_evaluation(hand, t, rules.declarations) for t in range(4))
        return max(FLOOR, _logistic((100.0 - e) / PASS_SCALE))


#: A bidding system (:attr:`Budget.calls`): the call a seat holding ``hand`` (its eight cards)
#: makes at the ``index``-th call of the observation's auction, having heard the calls before it.
CallSystem = Callable[[Observation, int, int, Mask], Bid]
#: The bidding systems the search can read an auction by, by name: each a maker of a
#: :data:`CallSystem` (made once a decision). ``heuristic`` is built in; a bench or a program
#: adds others with :func:`register_call_system`.
CALL_SYSTEMS: dict[str, Callable[[], CallSystem]] = {}


def register_call_system(name: str, maker: Callable[[], CallSystem]) -> None:
    """Make the bidding system ``maker`` makes readable as ``Budget.calls=name``."""
    CALL_SYSTEMS[name.strip().lower()] = maker


def call_system(name: str) -> CallSystem:
    """The bidding system of a name (:data:`CALL_SYSTEMS`); :class:`ValueError` naming the
    known ones otherwise."""
    maker = CALL_SYSTEMS.get(name.strip().lower())
    if maker is None:
        raise ValueError(f"calls: {name!r} is not a bidding system the search knows "
                         f"({', '.join(sorted(CALL_SYSTEMS))})")
    return maker()


def hands_around(seat: int, hand: Mask) -> list[Mask]:
    """Four hands of a bidding system's question: ``hand`` at ``seat``, the rest of the deck
    dealt in order to the others (a bidder sees only its own hand: any filling will do)."""
    rest = [c for c in range(32) if not hand >> c & 1]
    others = iter(sum(1 << c for c in rest[k:k + 8]) for k in (0, 8, 16))
    return [hand if s == seat else next(others) for s in range(4)]


def bot_calls(bot: HeuristicBot) -> CallSystem:
    """A bot's calls as a bidding system: the seat dealt ``hand`` (:func:`hands_around`), the
    calls before it replayed."""
    def call(obs: Observation, index: int, seat: int, hand: Mask) -> Bid:
        state = DealState.from_hands(obs.rules, obs.dealer, hands_around(seat, hand),
                                     obs.turned, (), obs.held_over, obs.scores)
        for _seat, bid in obs.auction[:index]:
            state = state.apply(bid)
        got = bot.act(state.observation(seat), _NO_RNG)
        assert isinstance(got, Bid)
        return got
    return call


class SystemWeights(AuctionWeights):
    """A world's weight from the auction read by a bidding system (:attr:`Budget.calls`):
    ``floor`` for each call another seat made that the system, holding that seat's hand of
    the world, would not have made; 1.0 with nothing heard. Each call's factor is kept by the
    hand that made it, as :class:`AuctionWeights` does."""

    def __init__(self, obs: Observation, system: CallSystem, floor: float) -> None:
        self.system = system
        self.floor = floor
        super().__init__(obs)

    def _heard(self, obs: Observation) -> list[tuple[int, int, Bid, int]]:
        return [(i, seat, bid, 0) for i, (seat, bid) in enumerate(obs.auction)
                if seat != obs.seat]

    def _factor(self, index: int, seat: int, bid: Bid, hand: Mask, best: int) -> float:
        return 1.0 if self.system(self.obs, index, seat, hand) == bid else self.floor


#: The seat must hold at least this many cards for the play to be weighed: later, the worlds
#: are few and nearly fixed by the cards gone, and replaying the deal costs more than solving.
INFER_LEAST: Final = 3
_MODEL: Final = HeuristicBot()
_NO_RNG: Final = random.Random(0)  # the heuristic draws nothing from its rng


def play_weight(world: DealState, obs: Observation, floor: float, cut: int = 0,
                partner: float | None = None) -> float:
    """How likely the other seats' cards so far are in ``world`` under a soft model of the
    players: the deal is replayed from its first lead, and each card another seat chose among
    several where the heuristic bot, seeing what that seat saw, would have played another
    multiplies the weight by ``floor``. 1.0 with nothing to weigh. With ``cut`` (> 0) the
    replay stops at the ``cut``-th such card: the weight is then ``floor ** cut`` (a world
    the model explains that badly is as unlikely as any other such, and costs no more).
    ``partner``: the factor of the partner's cards (``floor`` when ``None``; 1.0: the
    partner's cards weigh nothing). :class:`PlayWeights` gives the same weights to many
    worlds of one observation at less cost."""
    if not _weighs_play(obs):
        return 1.0
    mate = (obs.seat + 2) % 4 if partner is not None else -1
    others = [s for s in range(4) if s != obs.seat]
    return _play_factor(_misses(world, obs, others, cut, mate), obs.seat, floor, partner)


def _weighs_play(obs: Observation) -> bool:
    """Whether :func:`play_weight` has cards to weigh: some are played and the seat holds
    :data:`INFER_LEAST` or more."""
    return bool(obs.tricks or obs.trick) and obs.hand.bit_count() >= INFER_LEAST


def _play_factor(misses: Sequence[int], me: int, floor: float, partner: float | None
                 ) -> float:
    """The weight of the other seats' unexplained cards ``misses`` (by seat): ``floor`` each,
    the partner's ``partner`` each unless ``None``."""
    mate = (me + 2) % 4
    counted = sum(m for s, m in enumerate(misses) if s != me and (partner is None or s != mate))
    weight = floor ** counted
    if partner is not None and misses[mate]:
        weight *= partner ** misses[mate]
    return weight


def _first_lead(world: DealState, obs: Observation) -> tuple[list[int], DealState]:
    """The cards played so far (``obs``'s, in order) and ``world`` at its first lead, where
    their replay starts."""
    cards = [c for _, t in obs.tricks for c in t]
    cards.extend(obs.trick)
    first = world.first
    return cards, world.replace(hands=world.start_hands, phase=PLAY, player=first,
                                leader=first, trick=(), win=0, tricks=(), points=(0, 0),
                                winners=0, declared=(None, None, None, None), belote=())


def _misses(world: DealState, obs: Observation, seats: Sequence[int], cut: int = 0,
            mate: int = -1) -> list[int]:
    """For each seat, how many of its cards so far in ``world`` the heuristic (seeing what the
    seat saw) would have played otherwise, where it had a choice; only ``seats`` are asked,
    the others count 0. With ``cut`` (> 0) the replay stops at the ``cut``-th such card of a
    seat other than ``mate``."""
    cards, state = _first_lead(world, obs)
    misses = [0, 0, 0, 0]
    counted = 0
    for card in cards:
        p = state.player
        if state.declared[p] is None and state.best[p] and world.declared[p] == ():
            state = state.apply(NO_DECLARATION)  # the seat declined its declaration
        if p in seats and state.playable & (state.playable - 1):
            seen = state.observation(p)
            got = _MODEL.act(seen, _NO_RNG)
            if isinstance(got, Declare):
                after = state.apply(got)
                got = _MODEL.act(after.observation(p), _NO_RNG)
            if not (isinstance(got, Play) and got.card == card):
                misses[p] += 1
                if p != mate:
                    counted += 1
                    if counted == cut:
                        break
        state = state.apply(PLAYS[card])
    return misses


def only_hands_differ(obs: Observation) -> bool:
    """Whether the worlds of ``obs`` differ in nothing but the hands: the play of an auction
    game without declarations (no announcement to fit, no stock), once a contract is
    played. Then the replay of the deal so far is the same in every world."""
    rules = obs.rules
    return obs.phase == PLAY and rules.game in AUCTION_GAMES and not rules.declarations \
        and obs.taker >= 0


class PlayWeights:
    """:func:`play_weight` (without a cut) for the many worlds of one observation, at less
    cost: the model sees only a seat's own hand and the table, so a seat's unexplained cards
    depend only on the hand it was dealt. Each seat's count is kept by that hand, and a world
    whose every hidden hand was met before is weighed without replaying the deal (the worlds
    of a decision share most of their hands, the more so the fewer cards are hidden). Where
    the worlds differ only in their hands (:func:`only_hands_differ`), the deal is replayed
    once: each move's observation is then the first world's with the world's hand put in."""

    def __init__(self, obs: Observation, floor: float, partner: float | None = None) -> None:
        self.obs = obs
        self.floor = floor
        self.partner = partner
        self.active = _weighs_play(obs)
        self.others = [s for s in range(4) if s != obs.seat]
        self.known: dict[tuple[int, Mask], int] = {}
        self.plain = only_hands_differ(obs)
        #: in the plain case, each move of another seat (:func:`_moves`)
        self.moves: list[tuple[int, Observation, Mask, int, int]] | None = None

    def __call__(self, world: DealState) -> float:
        if not self.active:
            return 1.0
        hands = world.start_hands
        known = self.known
        missing = [s for s in self.others if (s, hands[s]) not in known]
        if missing:
            got = self._plain(world, missing) if self.plain else \
                _misses(world, self.obs, missing)
            for s in missing:
                known[(s, hands[s])] = got[s]
        misses = [0, 0, 0, 0]
        for s in self.others:
            misses[s] = known[(s, hands[s])]
        return _play_factor(misses, self.obs.seat, self.floor, self.partner)

    def _plain(self, world: DealState, seats: Sequence[int]) -> list[int]:
        """:func:`_misses` of ``seats`` without replaying ``world``: the first world's
        observations, each with the seat's hand in ``world``, and the heuristic's card among
        that hand's legal cards (:func:`rebelote.bots.heuristic.play_choice`)."""
        if self.moves is None:
            self.moves = _moves(world, self.obs)
        rules = self.obs.rules
        trump = self.obs.trump
        ot, mu = rules.overtrump_partner, rules.must_undertrump
        start = world.start_hands
        misses = [0, 0, 0, 0]
        for p, seen, gone, card, win in self.moves:
            if p not in seats:
                continue
            hand = start[p] & ~gone
            legal = legal_mask(hand, seen.trick, win, trump, ot, mu)
            if not legal & (legal - 1):
                continue
            if play_choice(seen._replace(hand=hand, auction_hand=start[p]), legal) != card:
                misses[p] += 1
        return misses


def _moves(world: DealState, obs: Observation
           ) -> list[tuple[int, Observation, Mask, int, int]]:
    """The play so far replayed in ``world`` (an auction game without declarations): each
    move of a seat other than ``obs.seat``, its observation, the cards it had played before,
    the card it played and which of the trick's cards was winning it then."""
    cards, state = _first_lead(world, obs)
    gone = [0, 0, 0, 0]
    moves = []
    for card in cards:
        p = state.player
        if p != obs.seat:
            moves.append((p, state.observation(p), gone[p], card, state.win))
        gone[p] |= 1 << card
        state = state.apply(PLAYS[card])
    return moves


def call_weight(world: DealState, obs: Observation, floor: float) -> float:
    """How likely the other seats' calls are in ``world`` under the heuristic bot as the model
    of the bidders (auction games): the auction is replayed on the world's auction hands, and
    each call another seat made where the heuristic, seeing what that seat saw, would have
    made another multiplies the weight by ``floor``. 1.0 in belote or with nothing heard."""
    rules = obs.rules
    if rules.game not in AUCTION_GAMES or not obs.auction:
        return 1.0
    state = DealState.from_hands(rules, obs.dealer, world.auction_hands(), obs.turned, (),
                                 obs.held_over, obs.scores)
    me = obs.seat
    weight = 1.0
    for seat, bid in obs.auction:
        if seat != me:
            got = _CALL_MODEL.act(state.observation(seat), _NO_RNG)
            if got != bid:
                weight *= floor
        state = state.apply(bid)
    return weight


def tricks_won(tricks: tuple[tuple[int, tuple[int, ...]], ...], leader: int) -> tuple[int, int]:
    """Tricks won by NS and EW: each finished trick's winner leads the next (or leads now)."""
    won = [0, 0]
    for i in range(len(tricks)):
        winner = tricks[i + 1][0] if i + 1 < len(tricks) else leader
        won[winner & 1] += 1
    return won[0], won[1]


# -- marks ---------------------------------------------------------------------------------------
class Marker:
    """Turns a team's final card points in a world (a solver value) into the deal's mark
    difference for a team, through :func:`score_deal`; the declarations and belote come from
    the world (seats yet to play their first card declare their best set)."""

    def __init__(self, world: DealState, taker: int, contract: Bid | None, multiplier: int
                 ) -> None:
        rules = world.rules
        trump = world.trump if world.phase != AUCTION else (contract.trump if contract else -1)
        self.rules = rules
        self.trump = trump
        self.taker = taker
        self.contract = contract
        self.multiplier = multiplier
        self.total = rules.deal_total(trump)
        self.capot = rules.capot_total(trump)
        # the world's declarations (seats yet to play their first card declare their best
        # set) and belotes, as the engine counts them
        self.declarations = world.declaration_points()
        self.belote = world.belote_count()
        self.held_over = world.held_over
        self._cache: dict[tuple[int, int], int] = {}

    def mark(self, team: int, points: int, won_trick: bool, for_team: int) -> int:
        """The mark of ``for_team`` minus the other's when ``team`` ends with ``points`` card
        points (dix de der and capot included); ``won_trick``: ``team`` won a trick already."""
        key = (team * 2 + for_team, points * 2 + won_trick)
        got = self._cache.get(key)
        if got is not None:
            return got
        rules = self.rules
        capot: int = -1
        pts = [0, 0]
        if points >= self.capot:
            capot = team
            pts[team] = self.capot
        elif points == 0 and not won_trick:
            capot = 1 - team
            pts[1 - team] = self.capot
        else:
            pts[team] = points
            pts[1 - team] = self.total - points
        contract: int | str | None = None
        if rules.game in AUCTION_GAMES and self.contract is not None:
            c = self.contract
            contract = c.value if c.kind == "value" else c.kind
        summary = DealSummary(
            game=rules.game, taker=TEAMS[self.taker & 1], trump=self.trump,
            points=(pts[0], pts[1]), contract=contract, coinche=self.multiplier,
            capot=TEAMS[capot] if capot >= 0 else None, generale=False,
            declarations=self.declarations, belote=self.belote, held_over=self.held_over)
        ns, ew = _score(summary, rules)
        got = ns - ew if for_team == 0 else ew - ns
        self._cache[key] = got
        return got

    def own(self, team: int, points: int, won_trick: bool, eps: float) -> float:
        """The mark of ``team`` ending with ``points`` (:meth:`mark`), plus ``eps`` a card
        point (:attr:`Budget.points_eps`: the points part cards of equal marks)."""
        m: float = self.mark(team, points, won_trick, team)
        return m + eps * points if eps else m


@lru_cache(maxsize=1 << 14)
def _score(summary: DealSummary, rules: Rules) -> tuple[int, int]:
    """The marks (NS, EW) of a deal summary (:func:`score_deal`), kept: the worlds of a
    decision end on few distinct summaries."""
    ns, ew = score_deal(summary, rules).score
    return ns, ew


@lru_cache(maxsize=1 << 16)
def _evaluation(hand: Mask, trump: int, declarations: bool) -> float:
    """:func:`contract_points`, kept: a seat's auction hand recurs from world to world once
    most of its cards are played."""
    return contract_points(hand, trump, declarations)


#: The model of the bidders in :func:`call_weight`: the heuristic, its hand evaluations kept
#: (a seat's hand of a world is evaluated again at each of its calls).
_CALL_MODEL: Final = HeuristicBot(evaluate=_evaluation)
register_call_system("heuristic", lambda: bot_calls(_CALL_MODEL))


#: What a world is expected to cost before any was timed (seconds, measured on the 2-core
#: development machine under load): the first lead's is a whole deal's search.
PRIOR_COST: Final = {("auction", 0): 0.04, ("play", 8): 0.12, ("play", 7): 0.08,
                     ("play", 6): 0.03}


class Clock:
    """The time a world takes to sample and solve, by kind of decision and cards left (a
    moving average), and whether one more fits before a deadline."""

    def __init__(self) -> None:
        self.cost: dict[tuple[str, int], float] = dict(PRIOR_COST)

    def sampler(self, key: tuple[str, int], obs: Observation, rng: random.Random, count: int,
                seconds: float | None, least: int, uniform: bool = False, alpha: float = 1.0,
                dealer: Worlds | None = None
                ) -> Callable[[], tuple[DealState | None, float] | None]:
        """A source of weighted worlds: ``None`` once ``count`` are drawn, or (with a time
        limit) when the next world is not expected to end in time; with ``least`` > 1 the
        first worlds are drawn only if ``least`` of them are expected to fit. Under the
        runner's :data:`~rebelote.bots.base.DEADLINE`, whatever the budget, no world is drawn
        that is not expected to end before it. ``dealer``: the observation's :class:`Worlds`
        when the caller has made it already (its template is dealt once)."""
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        drawn = 0
        last = start
        stop = STOP.get()  # the runner's deadline or cancellation, checked between worlds
        due = DEADLINE.get()  # the runner's deadline
        worlds = dealer or Worlds(obs)

        def next_world() -> tuple[DealState | None, float] | None:
            nonlocal drawn, last
            now = time.perf_counter()
            if drawn:
                took = now - last
                old = self.cost.get(key)
                self.cost[key] = took if old is None else 0.7 * old + 0.3 * took
            last = now
            if drawn >= count or (stop is not None and stop()):
                return None
            if due is not None and not due.allows(self.cost.get(key, 0.0)):
                return None
            if deadline is not None:
                expect = self.cost.get(key, 0.0)
                if now + expect * max(1, least - drawn) > deadline:
                    if not drawn:  # a world skipped on the estimate: it decays, so that the
                        self.cost[key] = 0.95 * expect  # bot tries again once load drops
                    return None
            drawn += 1
            odds = 1.0
            try:
                if uniform:
                    world, odds = worlds.uniform(rng)
                else:
                    world = worlds.deal(rng)
            except IllegalActionError:  # no deal found to fit: this world weighs nothing
                return None, 0.0
            weight = worlds.weight(world)
            return world, (weight if alpha == 1.0 else weight ** alpha) * odds

        return next_world


class Worlds:
    """The worlds of one observation: :meth:`DealState.from_observation` (the hidden cards
    dealt at random, then the auction and every card replayed on them). Where nothing hidden
    but the hands depends on them (the play of an auction game without declarations: no
    announcement to fit, no stock), the replay is the same for every deal of the hidden
    cards, so after the first world the others are the first with their dealt hands put in:
    the same worlds from the same random draws, without the replay (half a world's cost at
    the last tricks). Where nothing is announced yet, in a game with declarations too, the
    draws can be made uniform (:meth:`uniform`) and the deals listed (:meth:`every`), each
    world then replayed."""

    def __init__(self, obs: Observation, budget: Budget | None = None) -> None:
        self.obs = obs
        self.fast = only_hands_differ(obs)
        #: the draws can be made uniform and the deals listed (nothing announced yet)
        self.plain = self.fast or plain_play(obs)
        self.template: DealState | None = None
        self.played: list[Mask] = obs.played_by() if self.fast else []
        self.draws: UniformDeals | None = None
        #: each world's weight from the auction: :func:`world_weight`, or read by the
        #: budget's bidding system (:attr:`Budget.calls`, :class:`SystemWeights`) in an
        #: auction game
        self.weight: AuctionWeights = (
            SystemWeights(obs, call_system(budget.calls), budget.call_floor)
            if budget is not None and budget.calls and obs.rules.game in AUCTION_GAMES
            else AuctionWeights(obs))

    def deal(self, rng: random.Random) -> DealState:
        """One world (:class:`IllegalActionError` when none fits the observation)."""
        if self.template is None or not self.fast:
            world = DealState.from_observation(self.obs, rng)
            if self.fast and world.phase == PLAY:
                self.template = world
            return world
        start, _stock = next(deals(self.obs, rng))
        return self._put(start)

    def _put(self, start: list[Mask]) -> DealState:
        """The template world with the hands ``start`` dealt (the fast path)."""
        assert self.template is not None
        played = self.played
        hands = (start[0] & ~played[0], start[1] & ~played[1], start[2] & ~played[2],
                 start[3] & ~played[3])
        return self.template.replace(hands=hands, start_hands=tuple(start))

    def _ready(self, rng: random.Random) -> bool:
        """Whether the draws can be made uniform and the deals listed: the play of an auction
        game with nothing announced (:func:`rebelote.determinize.plain_play`). On the fast
        path its template is dealt from ``rng`` if need be."""
        if not self.fast:
            return self.plain
        if self.template is None:
            world = DealState.from_observation(self.obs, rng)
            if world.phase != PLAY:
                return False
            self.template = world
        return True

    def _world(self, start: list[Mask]) -> DealState:
        """The world whose hands were ``start`` when the play began: the template with them
        put in (the fast path), else the auction and the cards replayed on them."""
        return self._put(start) if self.fast else DealState.replayed(self.obs, start)

    def uniform(self, rng: random.Random) -> tuple[DealState, float]:
        """One world and the weight that makes the draws uniform over the deals that fit
        (:func:`rebelote.determinize.uniform_deal`); the plain :meth:`deal` and weight 1
        where they cannot be (something announced, the belote stock)."""
        if not self._ready(rng):
            return self.deal(rng), 1.0
        if self.draws is None:
            self.draws = UniformDeals(self.obs)
        (start, _stock), weight = self.draws(rng)
        return self._world(start), weight

    def every(self, limit: int, rng: random.Random) -> list[DealState] | None:
        """Every world that fits, once each, if there are at most ``limit`` and they can be
        listed (as :meth:`uniform`); ``None`` otherwise."""
        if not self._ready(rng):
            return None
        got = every_deal(self.obs, limit)
        return None if got is None else [self._world(start) for start, _ in got]


#: The process's clock: what a world costs is the machine's, shared by every bot (the arena
#: makes fresh bots for every deal). Only time-limited budgets read it.
CLOCK: Final = Clock()


def card_marks(obs: Observation, rng: random.Random, budget: Budget, clock: Clock | None = None
               ) -> dict[int, float]:
    """Each legal card's weighted mean mark (the seat's team's mark minus the other's) over
    the worlds solved within the budget; empty if no world could be weighed."""
    team = obs.seat & 1
    total: dict[int, float] = {}
    weights = 0.0
    clock = clock or Clock()
    count = budget.card_worlds(obs.hand.bit_count())
    dealer = Worlds(obs, budget)
    draw = clock.sampler(("play", obs.hand.bit_count()), obs, rng, count,
                         budget.seconds, budget.min_worlds, budget.uniform,
                         budget.auction_alpha, dealer)
    contract = obs.contract
    n = 0
    seen: list[tuple[float, dict[int, float]]] = []  # each world's weight and marks
    infer = budget.infer_for(obs)
    # weighed: the source's weights hold the play's inference already
    weighed = resampled = infer > 0.0 and budget.pool > 1 and budget.seconds is None
    every = dealer.every(max(count, budget.every_below), rng) if budget.every_below else None
    if every:
        # few deals fit: each once, weighed by the auction and, with inference, by the play
        # (the model's likelihood of every world that fits: no draws to resample)
        count = len(every)
        draw = _listed(every, obs, budget, infer, dealer)
        weighed = True
    elif resampled:
        draw = _resample(obs, rng, budget, count, dealer, infer)
    inferred = _inference(obs, budget, infer) if infer > 0.0 and not weighed else None
    later: Postponed | None = None
    if 2 <= obs.hand.bit_count() <= min(budget.postpone, 7):
        later = Postponed(obs.seat, budget.points_eps)
    while (got := draw()) is not None:
        world, weight = got
        n += 1
        if world is None or weight <= 0.0 or world.phase != PLAY:
            continue
        if inferred is not None:
            weight *= inferred(world)
        values = solve(position_of_state(world), obs.rules)
        # the world is at the seat's turn: the mover's team is the seat's
        won = tricks_won(world.tricks, world.leader)[team] > 0
        marker = Marker(world, world.taker, contract, obs.multiplier)
        marks: dict[int, float] = {}
        for card, v in values.items():
            m = marker.own(team, v, won, budget.points_eps)
            marks[card] = m
            total[card] = total.get(card, 0.0) + weight * m
        if later is not None:
            later.add(world, weight, marker, values, won)
        weights += weight
        if budget.stop_z > 0.0:
            seen.append((weight, marks))
            if len(seen) >= budget.stop_least and len(seen) % 4 == 0 \
                    and lead_is_clear(seen, total, budget.stop_z):
                break
    if weights <= 0.0 or n < min(budget.min_worlds, count):
        return {}  # the time was too short: the caller falls back on the heuristic
    if later is not None:
        total = later.totals()
    return {c: v / weights for c, v in total.items()}


class Postponed:
    """The values of a seat's cards with its next card chosen once per information set
    (:attr:`Budget.postpone`): each world is played on from each card to the seat's next turn,
    the other seats playing their double-dummy best in that world, and the worlds that show
    the same cards meanwhile share the seat's next card, the one of the best weighted sum over
    them. A card's total is the sum over those groups of their best next card's sum: never
    above the double-dummy total (each world its own best next card), equal when every group
    is one world."""

    def __init__(self, seat: int, eps: float) -> None:
        self.seat = seat
        self.eps = eps
        #: card -> the cards seen until the seat's next turn -> next card -> weighted marks
        self.groups: dict[int, dict[tuple[int, ...], dict[int, float]]] = {}

    def add(self, world: DealState, weight: float, marker: Marker, values: dict[int, int],
            won: bool) -> None:
        """One world: its values now (``values``, the seat's team's points by card;
        ``won``: the team has won a trick)."""
        team = self.seat & 1
        for card in values:
            node = world.apply(Play(card))
            seen: list[int] = []
            while node.phase == PLAY and node.player != self.seat:
                replies = solve(position_of_state(node), node.rules)
                best = max(replies, key=lambda c: (replies[c], -c))
                seen.append(best)
                node = node.apply(Play(best))
            by_card = self.groups.setdefault(card, {})
            if node.phase != PLAY:  # no next turn in this world (never past trick 1): alone
                key: tuple[int, ...] = (-1 - len(by_card),)
                by_card[key] = {card: weight * marker.own(team, values[card], won, self.eps)}
                continue
            nxt = solve(position_of_state(node), node.rules)
            won_then = tricks_won(node.tricks, node.leader)[team] > 0
            sums = by_card.setdefault(tuple(seen), {})
            for c, v in nxt.items():
                sums[c] = sums.get(c, 0.0) + weight * marker.own(team, v, won_then, self.eps)

    def totals(self) -> dict[int, float]:
        """Each card's weighted total: the sum over its groups of the best next card's."""
        return {card: sum(max(sums.values()) for sums in by_card.values())
                for card, by_card in self.groups.items()}


def _listed(worlds: list[DealState], obs: Observation, budget: Budget, infer: float,
            dealer: Worlds | None = None
            ) -> Callable[[], tuple[DealState | None, float] | None]:
    """A source of ``worlds``, each once, weighed by the auction (:func:`world_weight` to the
    power ``budget.auction_alpha``) and, with ``infer``, by the play as :func:`_resample`
    weighs its candidates (the heuristic's model or the learned one, and the calls);
    ``dealer``: the observation's :class:`Worlds`, if made already."""
    stop = STOP.get()
    alpha = budget.auction_alpha
    auction = (dealer or Worlds(obs, budget)).weight
    learned = infer > 0.0 and _learned(obs, budget)
    factors = _model_factors(obs, worlds, budget) if learned else None
    inferred = _inference(obs, budget, 0.0 if learned else infer)
    it = iter(enumerate(worlds))

    def next_world() -> tuple[DealState | None, float] | None:
        if stop is not None and stop():
            return None
        i, world = next(it, (-1, None))
        if world is None:
            return None
        weight = auction(world) ** alpha
        if infer > 0.0:  # the learned model's factor, if it weighs the play, and the rest
            weight *= inferred(world) if factors is None else factors[i] * inferred(world)
        return world, weight

    return next_world


def _inference(obs: Observation, budget: Budget, infer: float
               ) -> Callable[[DealState], float]:
    """The weight of a world of ``obs`` from the inference: the other seats' cards under the
    heuristic's model (:func:`play_weight` with the floor ``infer``, by :class:`PlayWeights`
    when nothing cuts the replay; 0: not weighed here) and their calls (:func:`call_weight`,
    with ``budget.call_infer``)."""
    partner = budget.partner_of()
    plays: Callable[[DealState], float] | None = None
    if infer > 0.0:
        if budget.infer_cut:
            def plays(world: DealState) -> float:
                return play_weight(world, obs, infer, budget.infer_cut, partner)
        else:
            plays = PlayWeights(obs, infer, partner)
    calls = budget.call_infer

    def weight(world: DealState) -> float:
        w = 1.0 if plays is None else plays(world)
        if calls > 0.0:
            w *= call_weight(world, obs, calls)
        return w

    return weight


def _learned(obs: Observation, budget: Budget) -> bool:
    """Whether the learned model of card play weighs the play (a suit contract)."""
    return budget.play_model > 0.0 and 0 <= obs.trump < 4


def _model_factors(obs: Observation, worlds: Sequence[DealState], budget: Budget
                   ) -> list[float]:
    """Each world's likelihood of the other seats' cards under the learned model of card play
    (:mod:`rebelote.bots.playmodel`, floor ``budget.play_model``, to the power
    ``budget.play_temper``), relative to the likeliest world's."""
    from rebelote.bots.playmodel import play_log_weights, shipped_model

    logs = play_log_weights(obs, [w.start_hands for w in worlds], shipped_model(),
                            budget.play_model) * budget.play_temper
    top = float(logs.max())
    return [math.exp(float(x) - top) for x in logs]


def _resample(obs: Observation, rng: random.Random, budget: Budget, count: int,
              dealer: Worlds | None = None, infer: float | None = None
              ) -> Callable[[], tuple[DealState | None, float] | None]:
    """A source of ``count`` worlds drawn (systematic resampling) from ``budget.pool`` times as
    many candidates in proportion to their weights, each then of weight 1 (``dealer``: the
    observation's :class:`Worlds`, if made already; ``infer``: the play's floor, if not
    ``budget.infer``)."""
    cands: list[DealState] = []
    weights: list[float] = []
    stop = STOP.get()  # the runner's deadline or cancellation, checked between worlds
    dealer = dealer or Worlds(obs, budget)
    learned = _learned(obs, budget)
    inferred = _inference(obs, budget, 0.0 if learned else
                          budget.infer if infer is None else infer)
    for _ in range(count * budget.pool):
        if stop is not None and stop():
            break
        odds = 1.0
        try:
            if budget.uniform:
                world, odds = dealer.uniform(rng)
            else:
                world = dealer.deal(rng)
        except IllegalActionError:
            continue
        w = dealer.weight(world) ** budget.auction_alpha * odds
        if w > 0.0 and world.phase == PLAY:
            w *= inferred(world)
            cands.append(world)
            weights.append(w)
    if learned and cands:
        weights = [w * f for w, f in
                   zip(weights, _model_factors(obs, cands, budget), strict=True)]
    picked: list[DealState] = []
    total = sum(weights)
    if total > 0.0:
        step = total / count
        u = rng.random() * step
        acc = 0.0
        i = 0
        for world, w in zip(cands, weights, strict=True):
            acc += w
            while i < count and u + i * step < acc:
                picked.append(world)
                i += 1
    it = iter(picked)
    due = DEADLINE.get()  # the runner's deadline: no world begun that would end after it
    took = [0.0, time.perf_counter()]  # the longest world so far, when the last one began

    def next_world() -> tuple[DealState | None, float] | None:
        now = time.perf_counter()
        took[0] = max(took[0], now - took[1])
        took[1] = now
        if (stop is not None and stop()) or (due is not None and not due.allows(took[0])):
            return None
        world = next(it, None)
        return None if world is None else (world, 1.0)

    return next_world


def lead_is_clear(seen: list[tuple[float, dict[int, float]]], total: dict[int, float],
                  z: float) -> bool:
    """Whether the best card's weighted mean mark beats the second's by ``z`` standard errors
    of their paired difference over the worlds ``seen`` (weight, each card's mark), or the
    two are equal in every world (more worlds would not part them)."""
    if len(total) < 2:
        return True
    ranked = sorted(total, key=lambda c: -total[c])
    a, b = ranked[0], ranked[1]
    sw = sum(w for w, _ in seen)
    sw2 = sum(w * w for w, _ in seen)
    if sw <= 0.0:
        return False
    diffs = [(w, m[a] - m[b]) for w, m in seen]
    mean = sum(w * d for w, d in diffs) / sw
    var = sum(w * (d - mean) ** 2 for w, d in diffs) / sw
    if var <= 1e-12:
        return True
    n_eff = sw * sw / sw2
    return mean > z * math.sqrt(var / max(1.0, n_eff - 1.0))


def tie_break(cards: list[Play], values: dict[int, float], points: Sequence[int],
              prior: Callable[[], Action], margin: float = 0.0) -> Play:
    """The card of the best mean mark; between equal ones (or with ``margin``, when the
    heuristic's card is within ``margin`` marks of the best), the heuristic's (``prior()``,
    asked only then) if it is one of them, else the one worth fewest card points, then the
    lowest."""
    best = max(values[a.card] for a in cards)
    tied = [a for a in cards if values[a.card] >= best - 1e-9]
    if len(tied) == 1 and margin <= 0.0:
        return tied[0]
    got = prior()
    if isinstance(got, Play) and got.card in values \
            and values[got.card] >= best - max(margin, 1e-9):
        return got
    if len(tied) == 1:
        return tied[0]
    return min(tied, key=lambda a: (points[a.card], a.card))


def bid_marks(obs: Observation, rng: random.Random, budget: Budget, clock: Clock | None = None,
              prior: Bid | None = None) -> dict[Bid, tuple[float, float]] | None:
    """Each simulated legal call's weighted mean mark for the seat's team over sampled deals
    played by the solver as if the auction ended on it (the seat's own contracts less
    :data:`DD_MARGIN` card points), and its chance of a positive mark (weighted, shrunk toward
    one half by a uniform prior on the worlds' effective number); ``None`` when the budget
    ran out before ``bid_least`` deals (the caller falls back on the heuristic). The trump
    mode of ``prior`` (the heuristic's call) is always among those simulated."""
    rules = obs.rules
    me = obs.seat
    team = me & 1
    legal = [b for b in obs.legal if isinstance(b, Bid)]
    holder = _contract_holder(obs)
    contract = obs.contract if holder >= 0 else None
    # the trump modes worth solving: the contract in force, and the seat's own bids, the most
    # promising few by the hand's evaluation
    own = {suit_of(obs.turned) if b.kind == "take" else b.trump for b in legal
           if b.kind in ("take", "suit", "value") and (b.kind == "take" or b.trump >= 0)}
    hand = obs.hand | (1 << obs.turned if rules.game == "belote" and obs.turned >= 0 else 0)
    ranked = sorted(own, key=lambda t: -contract_points(hand, t, rules.declarations))
    modes = ranked[:MODES]
    if prior is not None and prior.kind == "value" and prior.trump >= 0 \
            and prior.trump not in modes:
        modes.append(prior.trump)
    takers = {(t, me) for t in modes}
    if contract is not None and contract.trump >= 0:
        takers.add((contract.trump, holder))
    sums: dict[Bid, float] = {}
    wins: dict[Bid, float] = {}
    weights = squares = 0.0
    n = 0
    least = min(budget.bid_least, budget.bid_worlds)
    clock = clock or Clock()
    draw = clock.sampler(("auction", 0), obs, rng, budget.bid_worlds, budget.bid_seconds,
                         least, dealer=Worlds(obs, budget))
    while (got := draw()) is not None:
        world, weight = got
        n += 1
        if world is None or weight <= 0.0:
            continue
        played = _played_worlds(world, takers)
        for action in legal:
            m = _call_mark(action, obs, played, team, holder)
            if m is not None:
                sums[action] = sums.get(action, 0.0) + weight * m
                wins[action] = wins.get(action, 0.0) + (weight if m > 0 else 0.0)
        weights += weight
        squares += weight * weight
    if n < least or weights <= 0.0:
        return None
    n_eff = weights * weights / squares  # the worlds' effective number, weights counted
    return {a: (v / weights, (wins[a] / weights * n_eff + 1.0) / (n_eff + 2.0))
            for a, v in sums.items()}


#: How many trump modes of its own a bidder simulates (the best by the hand's evaluation).
MODES: Final = 2


def _contract_holder(obs: Observation) -> int:
    """The seat whose bid is the contract in force (coinche), -1 for none."""
    best = obs.contract
    if best is None:
        return -1
    for seat, bid in reversed(obs.auction):
        if bid == best:
            return seat
    return -1


#: A simulated play: the world at its first lead and the final card points of each team.
Played = tuple[DealState, tuple[int, int]]


def _played_worlds(world: DealState, takers: set[tuple[int, int]]
                   ) -> dict[tuple[int, int], Played]:
    """For each (trump mode, taker) the world's play from its first lead and each team's final
    card points under perfect play. In coinche the hands do not depend on the taker: one
    solve serves every taker of a mode."""
    out: dict[tuple[int, int], Played] = {}
    by_mode: dict[int, tuple[int, int]] = {}
    rules = world.rules
    for mode, taker in sorted(takers):
        start = _start_play(world, taker, mode)
        if start is None:
            continue
        pts = by_mode.get(mode) if rules.game in AUCTION_GAMES else None
        if pts is None:
            v = best_value(position_of_state(start), rules)
            other = _other(v, start)
            pts = (v, other) if start.player & 1 == 0 else (other, v)
            by_mode[mode] = pts
        out[(mode, taker)] = (start, pts)
    return out


def _other(v: int, start: DealState) -> int:
    """The other team's final card points when one team ends with ``v`` from the first lead
    (``0`` for that team: the other made a capot)."""
    rules = start.rules
    capot = rules.capot_total(start.trump)
    if v >= capot:
        return 0
    if v == 0:
        return capot
    return rules.deal_total(start.trump) - v


def _start_play(world: DealState, taker: int, mode: int) -> DealState | None:
    """The world at its first lead had ``taker`` taken with trump ``mode`` (the engine's
    :meth:`~rebelote.deal.DealState.taken`: the belote stock dealt accordingly, declarations
    the hands' best sets); ``None`` for a world that cannot be played so."""
    try:
        return world.taken(taker, mode)
    except IllegalActionError:
        return None


def _call_mark(action: Bid, obs: Observation, played: dict[tuple[int, int], Played],
               team: int, holder: int) -> float | None:
    """The mark for ``team`` if the seat makes ``action`` and the auction ends on it (for a
    pass: the contract in force, or 0 when there is none); ``None`` when not simulated."""
    rules = obs.rules
    me = obs.seat
    contract = obs.contract
    if action == PASS or action.kind in ("coinche", "surcoinche"):
        if contract is None or holder < 0:
            return 0.0 if action == PASS else None
        got = played.get((contract.trump, holder))
        if got is None:
            return None
        mult = obs.multiplier if action == PASS else obs.multiplier * 2
        start, pts = got
        return Marker(start, holder, contract, mult).mark(0, pts[0], pts[0] > 0, team)
    if action.kind == "take":
        mode = suit_of(obs.turned)
    elif action.kind in ("suit", "value") and action.trump >= 0:
        mode = action.trump
    else:
        return None  # capot and générale bids are never simulated: never chosen
    got = played.get((mode, me))
    if got is None:
        return None
    start, pts = got
    bid = action if rules.game in AUCTION_GAMES else None
    own = pts[team]
    if 0 < own < rules.capot_total(mode):
        own = max(1, own - DD_MARGIN)
    return Marker(start, me, bid, 1).mark(team, own, own > 0, team)
