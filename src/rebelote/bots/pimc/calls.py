"""The search's calls: bidding by simulation, each legal call's mean mark over the worlds
played by the solver from their first lead (:func:`bid_marks`), chosen freely
(:func:`choose_call`, belote) or anchored on the heuristic's call (:func:`anchored_call`).
"""

from __future__ import annotations

import random
from typing import Final

from rebelote.auction import PASS, Bid
from rebelote.bots.explain import Notes
from rebelote.bots.heuristic import contract_points
from rebelote.bots.pimc.budget import Budget
from rebelote.bots.pimc.marks import Marker
from rebelote.bots.pimc.worlds import Clock, Worlds
from rebelote.cards import suit_of
from rebelote.deal import DealState
from rebelote.errors import IllegalActionError
from rebelote.observation import Observation
from rebelote.rules import AUCTION_GAMES
from rebelote.solver import best_value, position_of_state

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


def bid_marks(obs: Observation, rng: random.Random, budget: Budget, clock: Clock | None = None,
              prior: Bid | None = None, notes: Notes | None = None
              ) -> dict[Bid, tuple[float, float]] | None:
    """Each simulated legal call's weighted mean mark for the seat's team over sampled deals
    played by the solver as if the auction ended on it (the seat's own contracts less
    :data:`DD_MARGIN` card points), and its chance of a positive mark (weighted, shrunk toward
    one half by a uniform prior on the worlds' effective number); ``None`` when the budget
    ran out before ``bid_least`` deals (the caller falls back on the heuristic). The trump
    mode of ``prior`` (the heuristic's call) is always among those simulated. ``notes``: the
    worlds and each call's count of them, for the explanation."""
    me = obs.seat
    team = me & 1
    legal = [b for b in obs.legal if isinstance(b, Bid)]
    holder = _contract_holder(obs)
    takers = call_takers(obs, prior)
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
                if notes is not None:
                    notes.counts[action] = notes.counts.get(action, 0) + 1
        if notes is not None:
            notes.world(world.auction_hands(), me, weight)
        weights += weight
        squares += weight * weight
    if n < least or weights <= 0.0:
        return None
    n_eff = weights * weights / squares  # the worlds' effective number, weights counted
    return {a: (v / weights, (wins[a] / weights * n_eff + 1.0) / (n_eff + 2.0))
            for a, v in sums.items()}


#: How many trump modes of its own a bidder simulates (the best by the hand's evaluation).
MODES: Final = 2


def call_takers(obs: Observation, prior: Bid | None = None) -> set[tuple[int, int]]:
    """The (trump mode, taker) pairs a bidder simulates: the contract in force and its
    holder, and the seat's own modes, the :data:`MODES` most promising by the hand's
    evaluation and the trump of ``prior`` (the heuristic's or tuned bidder's call)."""
    rules = obs.rules
    me = obs.seat
    legal = [b for b in obs.legal if isinstance(b, Bid)]
    holder = _contract_holder(obs)
    contract = obs.contract if holder >= 0 else None
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
    return takers


def true_call_marks(state: DealState, prior: Bid | None = None,
                    solved: dict[tuple[int, int], tuple[int, int]] | None = None
                    ) -> dict[Bid, float]:
    """Each legal call's mark for the seat's team if the auction ended on it, in the true
    deal ``state`` (in its auction): :func:`bid_marks`'s simulation with one world, the deal
    itself, and the same (trump mode, taker) pairs (:func:`call_takers`). ``solved``: the
    deal's solves so far (the hands do not change during the auction: a deal's calls share
    them)."""
    obs = state.observation(state.player)
    team = obs.seat & 1
    holder = _contract_holder(obs)
    played = _played_worlds(state, call_takers(obs, prior), solved)
    out: dict[Bid, float] = {}
    for action in obs.legal:
        if isinstance(action, Bid):
            m = _call_mark(action, obs, played, team, holder)
            if m is not None:
                out[action] = float(m)
    return out


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


def _played_worlds(world: DealState, takers: set[tuple[int, int]],
                   solved: dict[tuple[int, int], tuple[int, int]] | None = None
                   ) -> dict[tuple[int, int], Played]:
    """For each (trump mode, taker) the world's play from its first lead and each team's final
    card points under perfect play. In coinche the hands do not depend on the taker: one
    solve serves every taker of a mode. ``solved``: the points by (mode, taker, ``-1`` for
    any taker in coinche) of this world's earlier solves, added to."""
    out: dict[tuple[int, int], Played] = {}
    by_mode: dict[tuple[int, int], tuple[int, int]] = {} if solved is None else solved
    rules = world.rules
    for mode, taker in sorted(takers):
        start = _start_play(world, taker, mode)
        if start is None:
            continue
        key = (mode, -1 if rules.game in AUCTION_GAMES else taker)
        pts = by_mode.get(key)
        if pts is None:
            v = best_value(position_of_state(start), rules)
            other = _other(v, start)
            pts = (v, other) if start.player & 1 == 0 else (other, v)
            by_mode[key] = pts
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
