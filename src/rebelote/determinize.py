"""Determinization: the hidden cards of a deal dealt again at random, consistent with what one
seat knows, so that the same auction and cards replay and the seat sees the same observation.

This module deals (:func:`deals`); the engine replays the observation's calls and cards on the
deals (it imports this module, never the other way round). The entry points are the engine's:
``state.determinize(seat, rng)`` and ``DealState.from_observation(observation, rng)`` (for a
bot, which holds only its observation).

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
from collections.abc import Iterator
from typing import Final

from rebelote.actions import AUCTION
from rebelote.cards import FULL_DECK, Mask, mask_cards
from rebelote.dealing import stock_order
from rebelote.declarations import Combo, best_declarations, candidates
from rebelote.errors import IllegalActionError
from rebelote.observation import Observation
from rebelote.rules import seats_from

__all__ = ["Deal", "UniformDeals", "deals", "every_deal", "plain_play", "uniform_deal"]

#: A deal as dealt: the four hands (N E S W: 8 cards each in coinche, 5 in belote) and the
#: belote stock in dealing order (empty in coinche), the arguments of
#: :meth:`rebelote.deal.DealState.from_hands` with the observation's turned card.
Deal = tuple[list[Mask], tuple[int, ...]]


def deals(obs: Observation, rng: random.Random, tries: int = 200) -> Iterator[Deal]:
    """Deals consistent with ``obs``, the hidden cards dealt at random: in the auction (or a
    deal voided by passes) one; in the play up to ``tries`` random deals whose hidden hands
    fit the seat's constraints and the declarations announced, then (if none did) the one an
    exhaustive search finds. The engine replays ``obs``'s calls and cards on each until one
    gives the seat the same observation (:meth:`rebelote.deal.DealState.from_observation`):
    the random draws of a deal are made when it is asked for."""
    if obs.phase == AUCTION or obs.taker < 0:  # in the auction, or voided by passes
        yield _deal_auction(obs, rng)
        return
    pool, need, forbid, must, played = _hidden(obs)
    fitted = False
    for attempt in range(tries):
        if attempt < tries // 4 or not obs.announced:
            hidden = _assign(pool, need, forbid, rng)
        else:
            hidden = _assign_announced(obs, pool, need, forbid, must, played, rng)
        if hidden is None or not _announcements_fit(obs, hidden, must, played):
            continue
        fitted = True
        yield _deal_played(obs, _start_hands(obs, hidden, must, played), rng)
    if fitted:
        return  # the announcements were too rare to match in ``tries`` deals
    hidden = _assign_exact(pool, need, forbid)
    if hidden is None:
        raise IllegalActionError("determinize", "no deal fits what this seat knows")
    yield _deal_played(obs, _start_hands(obs, hidden, must, played), rng)


def _hidden(obs: Observation) -> tuple[list[int], list[int], list[Mask], list[Mask], list[Mask]]:
    """In the play: the hidden cards to deal, how many each seat gets, the cards each may not
    get, the cards each must hold, and the cards each has played."""
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
    return pool, need, forbid, must, played


def plain_play(obs: Observation) -> bool:
    """The play of a deal with nothing announced to fit and no stock: every deal of the hidden
    cards that keeps the constraints fits the observation."""
    return obs.phase != AUCTION and obs.taker >= 0 and not obs.announced \
        and obs.rules.game != "belote"


#: When the random draws of :func:`uniform_deal` keep getting stuck, the deals that fit are
#: listed if there are at most this many (else one is found by an exact search).
EXACT_LIMIT: Final = 5_000


def uniform_deal(obs: Observation, rng: random.Random, tries: int = 200) -> tuple[Deal, float]:
    """In the play of a game with nothing announced (:func:`plain_play`), one deal drawn as
    :func:`deals` draws it (the same random draws) and its weight: the inverse of the chance
    those draws had of dealing it, given the order they dealt the cards in. Weighted so, the
    draws are uniform over every deal that fits the observation (the draws alone favour the
    deals that give the most constrained cards to the seats with the most room).
    :class:`IllegalActionError` when no deal fits. :class:`UniformDeals` draws many."""
    return UniformDeals(obs)(rng, tries)


class UniformDeals:
    """:func:`uniform_deal` for many draws of one observation (the same draws, deal for deal):
    what is hidden, and where each hidden card may go, read once."""

    def __init__(self, obs: Observation) -> None:
        if not plain_play(obs):
            raise ValueError("uniform_deal: the play of a deal with nothing announced")
        self.obs = obs
        self.pool, self.need, self.forbid, self.must, self.played = _hidden(obs)
        self.seats = _seats(self.pool, self.need, self.forbid)

    def __call__(self, rng: random.Random, tries: int = 200) -> tuple[Deal, float]:
        obs = self.obs
        for _ in range(tries):
            odds: list[float] = []
            hidden = _assign_to(self.seats, self.need, rng, odds)
            if hidden is not None:
                return (_start_hands(obs, hidden, self.must, self.played), ()), 1.0 / odds[0]
        # the draws got stuck ``tries`` times: so few deals fit that they are listed, and one
        # of them drawn uniformly has the chance 1/N, its weight N on the draws' scale
        every = every_deal(obs, EXACT_LIMIT)
        if every is not None:
            if not every:
                raise IllegalActionError("determinize", "no deal fits what this seat knows")
            return rng.choice(every), float(len(every))
        hidden = _assign_exact(self.pool, self.need, self.forbid)  # more than EXACT_LIMIT
        if hidden is None:  # pragma: no cover - fit: the weight of one of at least that many
            raise IllegalActionError("determinize", "no deal fits what this seat knows")
        return (_start_hands(obs, hidden, self.must, self.played), ()), float(EXACT_LIMIT)


def every_deal(obs: Observation, limit: int) -> list[Deal] | None:
    """In the play of a game with nothing announced (:func:`plain_play`), every deal that fits
    the observation, in a fixed order; ``None`` when there are more than ``limit``."""
    if not plain_play(obs):
        raise ValueError("every_deal: the play of a deal with nothing announced")
    pool, need, forbid, must, played = _hidden(obs)
    found: list[list[Mask]] = []
    hands = [0, 0, 0, 0]
    left = list(need)

    def go(i: int) -> bool:  # False once more than ``limit`` are found
        if i == len(pool):
            if not any(left):
                found.append(list(hands))
            return len(found) <= limit
        c = pool[i]
        for s in range(4):
            if left[s] > 0 and not forbid[s] >> c & 1:
                left[s] -= 1
                hands[s] |= 1 << c
                ok = go(i + 1)
                left[s] += 1
                hands[s] &= ~(1 << c)
                if not ok:
                    return False
        return True

    if not go(0):
        return None
    return [(_start_hands(obs, h, must, played), ()) for h in found]


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


def _deal_auction(obs: Observation, rng: random.Random) -> Deal:
    """The seat's hand and the other cards shuffled into the other hands and the stock."""
    me = obs.seat
    hidden = FULL_DECK & ~obs.hand
    if obs.turned >= 0:
        hidden &= ~(1 << obs.turned)
    pool = mask_cards(hidden)
    rng.shuffle(pool)
    size = 5 if obs.rules.game == "belote" else 8
    hands = [0, 0, 0, 0]
    hands[me] = obs.hand
    pos = 0
    for s in range(4):
        if s != me:
            for c in pool[pos:pos + size]:
                hands[s] |= 1 << c
            pos += size
    return hands, tuple(pool[pos:])


def _deal_played(obs: Observation, start: list[Mask], rng: random.Random) -> Deal:
    """The deal that gives each seat the hand ``start`` when play began: in belote each other
    seat's 5 cards of the auction drawn at random among them, the rest (and the turned card,
    the taker's) dealt from the stock."""
    if obs.rules.game != "belote":
        return start, ()
    hands = [0, 0, 0, 0]
    received: list[list[int]] = [[], [], [], []]
    for s in seats_from(obs.first, obs.step):
        cards = mask_cards(start[s] & ~(1 << obs.turned))
        if s == obs.seat:
            keep = mask_cards(obs.auction_hand)
        else:
            rng.shuffle(cards)
            keep = cards[:5]
        received[s] = [c for c in cards if c not in keep]
        hands[s] = sum(1 << c for c in keep)
    return hands, stock_order(received, obs.first, obs.step, obs.taker)


def _assign(pool: list[int], need: list[int], forbid: list[Mask], rng: random.Random,
            odds: list[float] | None = None) -> list[Mask] | None:
    """Deal ``pool`` at random so that seat s gets ``need[s]`` cards, none of ``forbid[s]``;
    ``None`` if this random try gets stuck. With ``odds``, the chance these draws had of
    dealing what they dealt, given the order of the cards, is appended to it."""
    return _assign_to(_seats(pool, need, forbid), need, rng, odds)


def _seats(pool: list[int], need: list[int], forbid: list[Mask]
           ) -> list[tuple[int, tuple[int, ...]]]:
    """Each card of ``pool`` and the seats that may get it (a seat to be dealt cards that
    does not forbid it)."""
    return [(c, tuple(s for s in range(4) if need[s] > 0 and not forbid[s] >> c & 1))
            for c in pool]


def _assign_to(cards: list[tuple[int, tuple[int, ...]]], need: list[int], rng: random.Random,
               odds: list[float] | None = None) -> list[Mask] | None:
    """:func:`_assign` with each card's seats (:func:`_seats`) read already: the most
    constrained cards first (ties in a random order), each to a seat with room at random in
    proportion to the room."""
    left = list(need)
    chance = 1.0
    options = [(len(seats), rng.random(), c, seats) for c, seats in cards]
    options.sort()  # by room, then the random key (cards differ: seats are never compared)
    hands = [0, 0, 0, 0]
    for _, _, c, allowed in options:
        seats = [s for s in allowed if left[s] > 0]
        if not seats:
            return None
        total = sum(left[s] for s in seats)
        r = rng.randrange(total)
        for s in seats:
            r -= left[s]
            if r < 0:
                break
        chance *= left[s] / total
        hands[s] |= 1 << c
        left[s] -= 1
    if any(left):
        return None
    if odds is not None:
        odds.append(chance)
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
