"""The search's worlds: the hidden cards dealt again to fit the observation
(:class:`Worlds`: drawn, uniform, or every one listed), drawn within a time limit
(:class:`Clock`), listed (:func:`_listed`) or resampled by their weights (:func:`_resample`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Final

from rebelote.actions import PLAY
from rebelote.bots.base import DEADLINE, STOP
from rebelote.bots.pimc.budget import Budget
from rebelote.bots.pimc.inference import (
    AuctionWeights,
    SystemWeights,
    _factored,
    _heuristic_off,
    _inference,
    _model_factors,
    call_system,
    only_hands_differ,
)
from rebelote.cards import Mask
from rebelote.deal import DealState
from rebelote.determinize import (
    FittedDeals,
    UniformDeals,
    announced_play,
    deals,
    every_deal,
    plain_play,
)
from rebelote.errors import IllegalActionError
from rebelote.observation import Observation
from rebelote.rules import AUCTION_GAMES

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
    the last tricks). In the play of an auction game with declarations the same holds of a
    deal that fits, with each seat's best declarations put in too
    (:meth:`DealState.redealt`): after the first world replayed, the others are put in it.
    Where nothing is announced yet, in a game with declarations too, the draws can be made
    uniform (:meth:`uniform`) and the deals listed (:meth:`every`). Where another seat
    announced declarations, the deals are drawn uniformly among those that fit them
    (:class:`~rebelote.determinize.FittedDeals`, made once here), not dealt and rejected
    until one fits. The budget's :attr:`Budget.rejection` (the reference) asks for the
    worlds as they were drawn before: the rejection sampler, each world replayed."""

    def __init__(self, obs: Observation, budget: Budget | None = None,
                 rejection: bool = False) -> None:
        self.obs = obs
        self.fast = only_hands_differ(obs)
        #: the draws can be made uniform and the deals listed (nothing announced yet)
        self.plain = self.fast or plain_play(obs)
        self.template: DealState | None = None
        self.played: list[Mask] = obs.played_by() if self.fast else []
        self.draws: UniformDeals | None = None
        #: the worlds as before (the budget's :attr:`Budget.rejection`, or asked for): the
        #: rejection sampler for the deals that fit the announced declarations, and in a
        #: game with declarations each world replayed
        self.rejection = rejection or (budget is not None and budget.rejection)
        announced = announced_play(obs)
        fitted = FittedDeals(obs) if announced and not self.rejection else None
        if fitted is not None and not fitted.total:  # none to draw: the rejection sampler
            fitted, self.rejection = None, True
        self.fitted = fitted
        #: the worlds (the first apart) are put in the first (:meth:`DealState.redealt`):
        #: the play of an auction game with declarations, each deal drawn to fit
        self.redeal = not self.fast and obs.phase == PLAY and obs.taker >= 0 \
            and obs.rules.game in AUCTION_GAMES and not self.rejection
        #: each world's weight from the auction: :func:`world_weight`, or read by the
        #: budget's bidding system (:attr:`Budget.calls`, :class:`SystemWeights`) in an
        #: auction game
        self.weight: AuctionWeights = (
            SystemWeights(obs, call_system(budget.calls), budget.call_floor)
            if budget is not None and budget.calls and obs.rules.game in AUCTION_GAMES
            else AuctionWeights(obs))

    def deal(self, rng: random.Random) -> DealState:
        """One world (:class:`IllegalActionError` when none fits the observation)."""
        template = self.template
        if template is None or not (self.fast or self.redeal):
            world = DealState.from_observation(self.obs, rng, draws=self.fitted,
                                               rejection=self.rejection)
            if self.fast and world.phase == PLAY:
                self.template = world
            elif self.redeal and world.observation(self.obs.seat) == self.obs:
                self.template = world  # a world that fits (not the rejection's last resort)
            return world
        if self.fitted is not None:  # the same draws as from_observation's, not replayed
            got = self.fitted(rng)
            if got is None:  # the deals that fit too rare to draw: the rejection sampler
                return DealState.from_observation(self.obs, rng, rejection=True)
            return template.redealt(got[0])
        start, _stock = next(deals(self.obs, rng))
        return self._put(start) if self.fast else template.redealt(start)

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
        put in (the fast path, or :meth:`DealState.redealt`), else the auction and the cards
        replayed on them (the first world of a game with declarations, then the template)."""
        if self.fast:
            return self._put(start)
        if self.template is not None:
            return self.template.redealt(start)
        world = DealState.replayed(self.obs, start)
        if self.redeal:
            self.template = world
        return world

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
    factors = _model_factors(obs, worlds, budget) if infer > 0.0 and _factored(obs, budget) \
        else None
    inferred = _inference(obs, budget, 0.0 if _heuristic_off(obs, budget) else infer)
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


def _systematic(cands: list[DealState], weights: list[float], count: int,
                rng: random.Random) -> list[DealState]:
    """``count`` of ``cands`` drawn in proportion to ``weights`` (systematic resampling, in
    the candidates' order)."""
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
    return picked


def _resample(obs: Observation, rng: random.Random, budget: Budget, count: int,
              dealer: Worlds | None = None, infer: float | None = None, extra: int = 0
              ) -> Callable[[], tuple[DealState | None, float] | None]:
    """A source of ``count`` worlds drawn (systematic resampling) from ``budget.pool`` times as
    many candidates in proportion to their weights, each then of weight 1 (``dealer``: the
    observation's :class:`Worlds`, if made already; ``infer``: the play's floor, if not
    ``budget.infer``); then, if asked for, ``extra`` more drawn from the same candidates
    (:attr:`Budget.extend`: the first ``count`` are the same as without)."""
    cands: list[DealState] = []
    weights: list[float] = []
    stop = STOP.get()  # the runner's deadline or cancellation, checked between worlds
    dealer = dealer or Worlds(obs, budget)
    learned = _factored(obs, budget)
    inferred = _inference(obs, budget, 0.0 if _heuristic_off(obs, budget) else
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
    picked = _systematic(cands, weights, count, rng)

    def more() -> Iterator[DealState]:
        yield from picked
        if extra > 0 and picked:  # asked for only past the first ``count``
            yield from _systematic(cands, weights, extra, rng)

    it = more()
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
