"""Determinization: the hidden cards of a deal dealt again at random, consistent with what one
seat knows, so that the same auction and cards replay and the seat sees the same observation.

The entry points are the engine's: ``state.determinize(seat, rng)`` and
``DealState.from_observation(observation, rng)`` (for a bot, which holds only its observation).

>>> import random
>>> from rebelote.deal import DealState
>>> from rebelote.rules import Rules
>>> state = DealState.new(Rules.preset("official", "belote"), dealer=0, seed=5)
>>> state = state.apply("take")
>>> other = state.determinize(2, random.Random(1))
>>> other.observation(2) == state.observation(2), other.hands[2] == state.hands[2]
(True, True)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rebelote.actions import AUCTION, NO_DECLARATION, PLAY, PLAYS
from rebelote.cards import FULL_DECK, Mask, mask_cards
from rebelote.declarations import Combo, best_declarations, candidates
from rebelote.errors import IllegalActionError
from rebelote.observation import Observation, observe
from rebelote.rules import seats_from

if TYPE_CHECKING:  # the deal engine calls this module with its state class
    from rebelote.deal import DealState

__all__ = ["sample"]


def sample(obs: Observation, rng: random.Random, deal: type[DealState], tries: int = 200
           ) -> DealState:
    """A full deal consistent with ``obs``, the hidden cards dealt at random, with the same
    auction and cards played; ``deal`` is the state class that replays them
    (:class:`~rebelote.deal.DealState`, which calls this as ``DealState.from_observation``)."""
    if obs.phase == AUCTION or obs.taker < 0:  # in the auction, or voided by passes
        return _sample_auction(obs, rng, deal)
    played = obs.played_by()
    must, forbid = obs.constraints()
    me = obs.seat
    played_all = played[0] | played[1] | played[2] | played[3]
    known = obs.hand | played_all
    for s in range(4):
        if s != me:
            known |= must[s]
    pool = mask_cards(FULL_DECK & ~known)
    need = [8 - played[s].bit_count() - must[s].bit_count() for s in range(4)]
    need[me] = 0
    fallback: DealState | None = None
    for attempt in range(tries):
        if attempt < tries // 4 or not obs.announced:
            hidden = _assign(pool, need, forbid, rng)
        else:
            hidden = _assign_announced(obs, pool, need, forbid, must, played, rng)
        if hidden is None or not _announcements_fit(obs, hidden, must, played):
            continue
        state = _replay(obs, _start_hands(obs, hidden, must, played), rng, deal)
        if observe(state, me) == obs:
            return state
        fallback = state
    if fallback is not None:
        return fallback  # the announcements were too rare to match in ``tries`` deals
    hidden = _assign_exact(pool, need, forbid)
    if hidden is None:
        raise IllegalActionError("determinize", "no deal fits what this seat knows")
    return _replay(obs, _start_hands(obs, hidden, must, played), rng, deal)


def _start_hands(obs: Observation, hidden: list[Mask], must: list[Mask], played: list[Mask]
                 ) -> list[Mask]:
    start = [hidden[s] | must[s] | played[s] for s in range(4)]
    start[obs.seat] = obs.hand | played[obs.seat]
    return start


def _assign_announced(obs: Observation, pool: list[int], need: list[int], forbid: list[Mask],
                      must: list[Mask], played: list[Mask], rng: random.Random
                      ) -> list[Mask] | None:
    """A random deal that first gives each announcing seat combos of the kinds it
    announced, then deals the rest."""
    pool_mask = sum(1 << c for c in pool)
    extra = [0, 0, 0, 0]
    for s, kinds in obs.announced:
        if s == obs.seat:
            continue
        for kind in kinds:
            avail = (pool_mask & ~forbid[s]) | played[s] | must[s] | extra[s]
            options = [c for c in candidates(avail, obs.trump)
                       if c.kind == kind and not c.cards & extra[s]]
            if not options:
                return None
            got = rng.choice(options).cards & pool_mask
            if got.bit_count() + extra[s].bit_count() > need[s]:
                return None
            extra[s] |= got
            pool_mask &= ~got
    rest = [c for c in pool if pool_mask >> c & 1]
    left = [need[s] - extra[s].bit_count() for s in range(4)]
    hands = _assign(rest, left, forbid, rng)
    if hands is None:
        return None
    return [hands[s] | extra[s] for s in range(4)]


def _announcements_fit(obs: Observation, hidden: list[Mask], must: list[Mask], played: list[Mask]
                       ) -> bool:
    announced = dict(obs.announced)
    shown: dict[int, set[Combo]] = {}
    for s, combo in obs.shown:
        shown.setdefault(s, set()).add(combo)
    for s in range(4):
        if s == obs.seat or s not in announced:
            continue
        start = hidden[s] | must[s] | played[s]
        best = best_declarations(start, obs.trump)
        if s in shown:
            if set(best) != shown[s]:
                return False
        elif sorted(c.kind for c in best) != sorted(announced[s]):
            return False
    return True


def _sample_auction(obs: Observation, rng: random.Random, deal: type[DealState]) -> DealState:
    rules = obs.rules
    me = obs.seat
    hidden = FULL_DECK & ~obs.hand
    if obs.turned >= 0:
        hidden &= ~(1 << obs.turned)
    pool = mask_cards(hidden)
    rng.shuffle(pool)
    size = 5 if rules.game == "belote" else 8
    hands = [0, 0, 0, 0]
    hands[me] = obs.hand
    pos = 0
    for s in range(4):
        if s != me:
            for c in pool[pos:pos + size]:
                hands[s] |= 1 << c
            pos += size
    state = deal.from_hands(rules, obs.dealer, hands, obs.turned, pool[pos:],
                            obs.held_over, obs.scores)
    for _, bid in obs.auction:
        state = state.apply(bid)
    return state


def _replay(obs: Observation, start: list[Mask], rng: random.Random, deal: type[DealState]
            ) -> DealState:
    rules = obs.rules
    if rules.game == "belote":
        first_hands = [0, 0, 0, 0]
        stock: list[int] = []
        for s in seats_from(obs.first, obs.step):
            cards = mask_cards(start[s] & ~(1 << obs.turned))
            if s == obs.seat:
                keep = mask_cards(obs.auction_hand)
            else:
                rng.shuffle(cards)
                keep = cards[:5]
            rest = [c for c in cards if c not in keep]
            first_hands[s] = sum(1 << c for c in keep)
            stock.extend(rest)
        state = deal.from_hands(rules, obs.dealer, first_hands, obs.turned, stock,
                                obs.held_over, obs.scores)
    else:
        state = deal.from_hands(rules, obs.dealer, start, held_over=obs.held_over,
                                scores=obs.scores)
    for _, bid in obs.auction:
        state = state.apply(bid)
    announced = {s for s, _ in obs.announced}
    for _, trick_cards in (*obs.tricks, (obs.leader, obs.trick)):
        for c in trick_cards:
            p = state.player
            if state.declared[p] is None and state.best[p]:
                silent = (obs.own_declared == () if p == obs.seat
                          else p not in announced)
                if silent:
                    state = state.apply(NO_DECLARATION)
            state = state.apply(PLAYS[c])
    me = obs.seat
    if obs.own_declared == () and state.phase == PLAY and state.declared[me] is None:
        state = state.apply(NO_DECLARATION)  # declined, its first card still to come
    return state


def _assign(pool: list[int], need: list[int], forbid: list[Mask], rng: random.Random
            ) -> list[Mask] | None:
    """Deal ``pool`` at random so that seat s gets ``need[s]`` cards, none of ``forbid[s]``;
    ``None`` if this random try gets stuck."""
    left = list(need)
    options = []
    for c in pool:
        seats = [s for s in range(4) if left[s] > 0 and not forbid[s] >> c & 1]
        options.append((len(seats), rng.random(), c))
    options.sort()
    hands = [0, 0, 0, 0]
    for _, _, c in options:
        seats = [s for s in range(4) if left[s] > 0 and not forbid[s] >> c & 1]
        if not seats:
            return None
        total = sum(left[s] for s in seats)
        r = rng.randrange(total)
        for s in seats:
            r -= left[s]
            if r < 0:
                break
        hands[s] |= 1 << c
        left[s] -= 1
    if any(left):
        return None
    return hands


def _assign_exact(pool: list[int], need: list[int], forbid: list[Mask]) -> list[Mask] | None:
    """A deal of ``pool`` meeting the constraints by exhaustive search, ``None`` if none."""
    hands = [0, 0, 0, 0]
    left = list(need)

    def go(i: int) -> bool:
        if i == len(pool):
            return not any(left)
        c = pool[i]
        for s in range(4):
            if left[s] > 0 and not forbid[s] >> c & 1:
                left[s] -= 1
                hands[s] |= 1 << c
                if go(i + 1):
                    return True
                left[s] += 1
                hands[s] &= ~(1 << c)
        return False

    return hands if go(0) else None
