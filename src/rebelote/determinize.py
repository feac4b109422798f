"""Determinization: the hidden cards of a deal dealt again at random, consistent with what one
seat knows, so that the same auction and cards replay and the seat sees the same observation.

This module deals (:func:`deals`, and :class:`FittedDeals` where another seat announced
declarations: uniform over the deals that fit them, without dealing whole deals until one
does); the engine replays the observation's calls and cards on the deals (it imports this
module, never the other way round). The entry points are the engine's:
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

import itertools
import math
import random
from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache
from typing import Final

from rebelote.actions import AUCTION
from rebelote.cards import FULL_DECK, Mask, mask_cards
from rebelote.dealing import stock_order
from rebelote.declarations import Combo, best_declarations, candidates, declaring_team
from rebelote.errors import IllegalActionError
from rebelote.observation import Observation
from rebelote.rules import seats_from

__all__ = ["Deal", "FittedDeals", "UniformDeals", "announced_play", "deals", "every_deal",
           "fitted_deals", "plain_play", "uniform_deal"]

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


def announced_play(obs: Observation) -> bool:
    """The play of a deal in which another seat announced declarations: the deals of the
    hidden cards that fit are only those that give it the best set it announced (and, once
    shown, the combos shown and the declaring team seen): :class:`FittedDeals` draws them."""
    return obs.phase != AUCTION and obs.taker >= 0 \
        and any(s != obs.seat for s, _ in obs.announced)


#: :class:`FittedDeals` lists at most this many choices of the announced combos (more: it
#: draws nothing, and the rejection sampler of :func:`deals` deals instead).
CHOICE_LIMIT: Final = 20_000
#: The draws of one deal :class:`FittedDeals` makes at most before it gives up.
FIT_TRIES: Final = 1_000


class FittedDeals:
    """Deals of the hidden cards drawn uniformly among those that fit an observation in which
    another seat announced declarations (:func:`announced_play`), without dealing whole deals
    at random and rejecting those whose announcements differ (:func:`deals`: about 8 deals for
    one that fits).

    A *choice* gives each announcing seat a set of combos: the combos it showed, else any set
    of disjoint combos of the kinds it announced that its cards may hold (no card of another
    seat, none it cannot hold), the sets together disjoint and, once the first trick is over,
    giving the declaring team seen. The deals of a choice put each seat's combos in its hand
    and deal the other cards to fit the hand sizes and the voids; they are counted exactly
    (:class:`_Split`: the hidden cards fall into at most seven groups by the seats that may
    hold them, and a deal is so many cards of each group to each seat). A draw picks a choice
    in proportion to its count of deals, one of its deals uniformly, and keeps it when each
    announcing seat's best set (:func:`~rebelote.declarations.best_declarations`) is exactly
    its set of the choice, else draws again. A deal that fits is a deal of one choice only
    (its seats' best sets) and is kept only when drawn from it, so each deal that fits has
    the same chance, one over the sum of the choices' counts: the draws are uniform over the
    deals that fit, as the plain rejection sampler's (a uniform deal of the hidden cards kept
    when the engine replays the observation on it), which the tests hold them to. A draw
    fails when a seat's other cards make a better set (the tierce's next card, a second
    combo): 1.2 to 1.6 draws a deal in official coinche (the heuristic's deals 0-59, 8 to 3
    cards in hand), each a fraction of a whole deal's cost. Made once for an observation,
    drawn from many times (:func:`fitted_deals` keeps the last few)."""

    def __init__(self, obs: Observation) -> None:
        if not announced_play(obs):
            raise ValueError("FittedDeals: the play of a deal with another seat's declarations")
        self.obs = obs
        pool, need, forbid, self.must, self.played = _hidden(obs)
        me = obs.seat
        pool_mask = sum(1 << c for c in pool)
        kinds = {s: tuple(sorted(k)) for s, k in obs.announced if s != me}
        shown: dict[int, tuple[Combo, ...]] = {}
        for s, combo in obs.shown:
            shown[s] = (*shown.get(s, ()), combo)
        #: the seats whose announcements the deals must fit
        self.seats = tuple(sorted(kinds))
        sets = [[shown[s]] if s in shown else
                _combo_sets((pool_mask & ~forbid[s]) | self.must[s] | self.played[s],
                            obs.trump, kinds[s])
                for s in self.seats]
        team = -2  # the declaring team the deals must give (-2: none to check yet)
        if obs.tricks:
            team = obs.shown[0][0] & 1 if obs.shown else -1
        declared: list[tuple[Combo, ...]] = [(), (), (), ()]
        declared[me] = obs.own_declared or ()
        first, step, tie = obs.first, obs.step, obs.rules.declaration_tie
        splits: dict[object, _Split] = {}
        #: each choice: the seats' sets, the hidden cards each gets with them, its
        #: :class:`_Split` and the cards of each of the split's groups
        self.choices: list[tuple[tuple[frozenset[Combo], ...], list[Mask], _Split,
                                 tuple[tuple[int, ...], ...]]] = []
        self.cum: list[int] = []
        self.total = 0
        count = 1
        for options in sets:
            count *= len(options)
        if count > CHOICE_LIMIT:
            return  # too many to list: the rejection sampler deals
        for choice in itertools.product(*sets):
            taken = [0, 0, 0, 0]
            used = 0
            for s, combos in zip(self.seats, choice, strict=True):
                cards = 0
                for combo in combos:
                    cards |= combo.cards
                cards &= pool_mask
                if cards & used:
                    break
                used |= cards
                taken[s] = cards
                declared[s] = combos
            else:
                if team != -2 and declaring_team(declared, obs.trump, first, step, tie) != team:
                    continue
                left = tuple(need[s] - taken[s].bit_count() for s in range(4))
                if min(left) < 0:
                    continue
                groups: dict[tuple[int, ...], list[int]] = {}
                for card in pool:
                    if not used >> card & 1:
                        seats = tuple(s for s in range(4)
                                      if left[s] > 0 and not forbid[s] >> card & 1)
                        groups.setdefault(seats, []).append(card)
                order = sorted(groups)
                key = (tuple((seats, len(groups[seats])) for seats in order), left)
                split = splits.get(key)
                if split is None:
                    split = splits[key] = _Split(key[0], left)
                if split.total:
                    self.total += split.total
                    self.cum.append(self.total)
                    self.choices.append((tuple(frozenset(combos) for combos in choice), taken,
                                         split, tuple(tuple(groups[s]) for s in order)))

    def __call__(self, rng: random.Random, tries: int = FIT_TRIES) -> Deal | None:
        """One deal that fits, uniform over them all; ``None`` when no deal fits the
        announcements (or ``tries`` draws found none, or there were too many choices to list):
        then the rejection sampler of :func:`deals` is the way."""
        if not self.total:
            return None
        obs, must, played, seats = self.obs, self.must, self.played, self.seats
        trump = obs.trump
        for _ in range(tries):
            wanted, taken, split, groups = self.choices[
                bisect_right(self.cum, rng.randrange(self.total))]
            hidden = list(taken)
            for (to, _n), cards, parts in zip(split.groups, groups, split.draw(rng),
                                                strict=True):
                dealt = rng.sample(cards, len(cards))
                pos = 0
                for s, k in zip(to, parts, strict=True):
                    for c in dealt[pos:pos + k]:
                        hidden[s] |= 1 << c
                    pos += k
            start = _start_hands(obs, hidden, must, played)
            if all(frozenset(best_declarations(start[s], trump)) == want
                   for s, want in zip(seats, wanted, strict=True)):
                return _deal_played(obs, start, rng)
        return None


@lru_cache(maxsize=16)
def fitted_deals(obs: Observation) -> FittedDeals:
    """The :class:`FittedDeals` of ``obs``, made once for the last few observations asked
    (a search draws hundreds of worlds of one)."""
    return FittedDeals(obs)


def _combo_sets(avail: Mask, trump: int, kinds: tuple[str, ...]) -> list[tuple[Combo, ...]]:
    """Every set of disjoint combos held in ``avail`` whose kinds are ``kinds`` (sorted), each
    once."""
    cands = [c for c in candidates(avail, trump) if c.kind in kinds]
    out: list[tuple[Combo, ...]] = []
    chosen: list[Combo] = []

    def go(i: int, start: int, used: Mask) -> None:
        if i == len(kinds):
            out.append(tuple(chosen))
            return
        for j in range(start, len(cands)):
            c = cands[j]
            if c.kind == kinds[i] and not c.cards & used:
                chosen.append(c)
                # the next combo of the same kind comes later in the list: each set once
                go(i + 1, j + 1 if i + 1 < len(kinds) and kinds[i + 1] == kinds[i] else 0,
                   used | c.cards)
                chosen.pop()

    go(0, 0, 0)
    return out


_FACTORIAL: Final = tuple(math.factorial(n) for n in range(33))


@lru_cache(maxsize=1024)
def _splits(n: int, caps: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every way to share ``n`` cards among seats that take at most ``caps`` each."""
    if not caps:
        return ((),) if n == 0 else ()
    return tuple((k, *rest) for k in range(min(n, caps[0]) + 1)
                 for rest in _splits(n - k, caps[1:]))


class _Split:
    """The deals of groups of cards, each group's cards to the seats it names (the seats
    that may hold them), each seat ``need`` cards in all: counted (:attr:`total`), and one
    drawn uniformly (:meth:`draw`: how many of each group each seat gets). Filled once when
    made, then only read (threads may share it)."""

    __slots__ = ("_steps", "groups", "need", "total")

    def __init__(self, groups: tuple[tuple[tuple[int, ...], int], ...], need: tuple[int, ...]
                 ) -> None:
        self.groups = groups
        self.need = need
        #: for each group and the counts still to deal: the cumulated counts of deals of each
        #: way to share the group, and the ways
        self._steps: dict[tuple[int, tuple[int, ...]],
                          tuple[list[int], list[tuple[int, ...]]]] = {}
        self.total = self._ways(0, need)

    def _ways(self, i: int, left: tuple[int, ...]) -> int:
        if i == len(self.groups):
            return 0 if any(left) else 1
        got = self._steps.get((i, left))
        if got is not None:
            return got[0][-1] if got[0] else 0
        seats, n = self.groups[i]
        cum: list[int] = []
        ways: list[tuple[int, ...]] = []
        acc = 0
        for parts in _splits(n, tuple(left[s] for s in seats)):
            after = list(left)
            many = _FACTORIAL[n]
            for s, k in zip(seats, parts, strict=True):
                after[s] -= k
                many //= _FACTORIAL[k]
            rest = self._ways(i + 1, tuple(after))
            if rest:
                acc += many * rest
                cum.append(acc)
                ways.append(parts)
        self._steps[(i, left)] = (cum, ways)
        return acc

    def draw(self, rng: random.Random) -> list[tuple[int, ...]]:
        """How many cards of each group each of its seats gets, drawn in proportion to the
        deals that share them so (``total`` must not be 0)."""
        left = self.need
        out: list[tuple[int, ...]] = []
        for i, (seats, _n) in enumerate(self.groups):
            cum, ways = self._steps[(i, left)]
            parts = ways[bisect_right(cum, rng.randrange(cum[-1]))]
            out.append(parts)
            after = list(left)
            for s, k in zip(seats, parts, strict=True):
                after[s] -= k
            left = tuple(after)
        return out


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
