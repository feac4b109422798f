"""What one seat knows of a deal (:class:`Observation`), and determinization: dealing the
hidden cards again so that the same auction and cards replay and the seat sees the same.

>>> import random
>>> from rebelote.deal import DealState
>>> from rebelote.rules import Rules
>>> state = DealState.new(Rules.preset("official", "coinche"), dealer=3, seed=7)
>>> for text in ("80 hearts", "pass", "pass", "pass", "KD"):
...     state = state.apply(text)
>>> obs = state.observation(1)
>>> obs.hand == state.hands[1], obs.to_json()["trick"]
(True, ['N', 'KD'])
>>> sample = obs.sample(random.Random(0))
>>> sample.observation(1) == obs and sample.hands[1] == state.hands[1]
True
"""

from __future__ import annotations

import random
from typing import Final, NamedTuple

from rebelote.auction import Bid, seat_step
from rebelote.cards import SEATS, Mask, card_str, iter_mask, mask_cards
from rebelote.deal import (
    AUCTION,
    NO_DECLARATION,
    OVER,
    PHASE_NAMES,
    PLAY,
    PLAYS,
    Action,
    DealState,
    beats,
    deal_order,
    fast_legal,
)
from rebelote.declarations import Combo, best_declarations, candidates
from rebelote.rules import ALL_TRUMP, TRUMP_NAMES, IllegalActionError, Rules


class Observation(NamedTuple):
    """What one seat knows of a deal: its own cards and everything public.

    ``hand`` is the seat's cards now and ``auction_hand`` its cards during the auction (5 in
    belote); ``auction`` the calls ``(seat, bid)``; ``tricks`` and ``trick`` the cards played;
    ``announced`` the declarations each seat announced with its first card, as kinds
    (``(seat, ("tierce",))``); ``shown`` the combos shown at the second trick, those of the team
    that scores them; ``belote`` the belote announcements ``(seat, card)``; ``legal`` the
    seat's legal actions when it is its turn. Another seat's hidden cards are never here.

    A named tuple, like :class:`~rebelote.deal.DealState`: the engine makes one for every
    decision of every bot, and :func:`observe` builds it in one step from the state's fields
    (a frozen dataclass's ``__init__`` alone cost more than the engine's step).
    """

    seat: int
    rules: Rules
    dealer: int
    phase: int
    player: int
    hand: Mask
    auction_hand: Mask
    turned: int
    auction: tuple[tuple[int, Bid], ...]
    trump: int
    taker: int
    contract: Bid | None
    multiplier: int
    tricks: tuple[tuple[int, tuple[int, ...]], ...]
    leader: int
    trick: tuple[int, ...]
    own_declared: tuple[Combo, ...] | None
    announced: tuple[tuple[int, tuple[str, ...]], ...]
    shown: tuple[tuple[int, Combo], ...]
    belote: tuple[tuple[int, int], ...]
    points: tuple[int, int]
    held_over: int
    scores: tuple[int, int]
    legal: tuple[Action, ...]

    @property
    def step(self) -> int:
        return seat_step(self.rules)

    @property
    def first(self) -> int:
        return (self.dealer + self.step) % 4

    def played_by(self) -> list[Mask]:
        """The cards each seat has played in this deal."""
        out = [0, 0, 0, 0]
        step = self.step
        for leader, cards in (*self.tricks, (self.leader, self.trick)):
            for i, c in enumerate(cards):
                out[(leader + i * step) % 4] |= 1 << c
        return out

    def to_json(self) -> dict[str, object]:
        """A JSON view (the play table's): cards in the two-letter form, seats as letters."""
        def cards(mask: Mask) -> list[str]:
            return [card_str(c) for c in iter_mask(mask)]

        return {
            "seat": SEATS[self.seat],
            "game": self.rules.game,
            "rules": self.rules.name,
            "dealer": SEATS[self.dealer],
            "phase": PHASE_NAMES[self.phase],
            "turn": SEATS[self.player] if self.player >= 0 else None,
            "hand": cards(self.hand),
            "turned": card_str(self.turned) if self.turned >= 0 else None,
            "auction": [[SEATS[s], str(b)] for s, b in self.auction],
            "trump": TRUMP_NAMES[self.trump] if self.trump >= 0 else None,
            "taker": SEATS[self.taker] if self.taker >= 0 else None,
            "contract": str(self.contract) if self.contract is not None else None,
            "coinche": self.multiplier,
            "tricks": [[SEATS[lead], *(card_str(c) for c in cs)] for lead, cs in self.tricks],
            "trick": [SEATS[self.leader], *(card_str(c) for c in self.trick)],
            "declarations": {SEATS[s]: list(kinds) for s, kinds in self.announced},
            "shown": [{"seat": SEATS[s], **c.to_json()} for s, c in self.shown],
            "belote": [[SEATS[s], card_str(c)] for s, c in self.belote],
            "points": {"NS": self.points[0], "EW": self.points[1]},
            "scores": {"NS": self.scores[0], "EW": self.scores[1]},
            "held_over": self.held_over,
            "legal": [str(a) for a in self.legal],
        }

    # -- determinization ----------------------------------------------------------------------
    def constraints(self) -> tuple[list[Mask], list[Mask]]:
        """For each seat, the unplayed cards it must hold (shown declarations, the other
        belote card, the turned card) and the cards it cannot hold (voids and refusals to
        trump or overtrump revealed by its plays)."""
        must = [0, 0, 0, 0]
        forbid = [0, 0, 0, 0]
        if self.phase == AUCTION:
            return must, forbid
        played_all = 0
        step = self.step
        rules = self.rules
        ot, mu = rules.overtrump_partner, rules.undertrump == "must"
        for leader, cards in (*self.tricks, (self.leader, self.trick)):
            win = 0
            for i, c in enumerate(cards):
                s = (leader + i * step) % 4
                if i:
                    trick = cards[:i]
                    possible = ~played_all & 0xFFFF_FFFF & ~(1 << c)
                    excluded = 0
                    legal = fast_legal(possible | 1 << c, trick, win, self.trump, ot, mu)
                    while not legal >> c & 1:
                        excluded |= legal
                        possible &= ~legal
                        legal = fast_legal(possible | 1 << c, trick, win, self.trump, ot, mu)
                    forbid[s] |= excluded
                    if beats(c, cards[win], cards[0] >> 3, self.trump):
                        win = i
                played_all |= 1 << c
                if c & 7 in (5, 6) and (self.trump == ALL_TRUMP or c >> 3 == self.trump) \
                        and (s, c) not in self.belote:
                    forbid[s] |= 1 << (c ^ 0b11)  # played K or Q of trump without a belote
        for s, combo in self.shown:
            must[s] |= combo.cards
        for s, card in self.belote:
            must[s] |= 1 << (card ^ 0b11)  # Q (5) <-> K (6)
        if self.turned >= 0 and self.taker >= 0:
            must[self.taker] |= 1 << self.turned
        for s in range(4):
            must[s] &= ~played_all
        return must, forbid

    def sample(self, rng: random.Random, tries: int = 200) -> DealState:
        """A full deal consistent with this observation, hidden cards dealt at random, with
        the same auction and cards played (STYLE.md: ``determinize``)."""
        if self.phase == AUCTION or self.taker < 0:  # in the auction, or voided by passes
            return self._sample_auction(rng)
        played = self.played_by()
        must, forbid = self.constraints()
        me = self.seat
        played_all = played[0] | played[1] | played[2] | played[3]
        known = self.hand | played_all
        for s in range(4):
            if s != me:
                known |= must[s]
        pool = mask_cards(0xFFFF_FFFF & ~known)
        need = [8 - played[s].bit_count() - must[s].bit_count() for s in range(4)]
        need[me] = 0
        fallback: DealState | None = None
        for attempt in range(tries):
            if attempt < tries // 4 or not self.announced:
                hidden = _assign(pool, need, forbid, rng)
            else:
                hidden = self._assign_announced(pool, need, forbid, must, played, rng)
            if hidden is None or not self._announcements_fit(hidden, must, played):
                continue
            state = self._replay(self._start_hands(hidden, must, played), rng)
            if observe(state, me) == self:
                return state
            fallback = state
        if fallback is not None:
            return fallback  # the announcements were too rare to match in ``tries`` deals
        hidden = _assign_exact(pool, need, forbid)
        if hidden is None:
            raise IllegalActionError("determinize: no deal fits what this seat knows")
        return self._replay(self._start_hands(hidden, must, played), rng)

    def _start_hands(self, hidden: list[Mask], must: list[Mask], played: list[Mask]
                     ) -> list[Mask]:
        start = [hidden[s] | must[s] | played[s] for s in range(4)]
        start[self.seat] = self.hand | played[self.seat]
        return start

    def _assign_announced(self, pool: list[int], need: list[int], forbid: list[Mask],
                          must: list[Mask], played: list[Mask], rng: random.Random
                          ) -> list[Mask] | None:
        """A random deal that first gives each announcing seat combos of the kinds it
        announced, then deals the rest."""
        pool_mask = sum(1 << c for c in pool)
        extra = [0, 0, 0, 0]
        for s, kinds in self.announced:
            if s == self.seat:
                continue
            for kind in kinds:
                avail = (pool_mask & ~forbid[s]) | played[s] | must[s] | extra[s]
                options = [c for c in candidates(avail, self.trump)
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

    def _announcements_fit(self, hidden: list[Mask], must: list[Mask], played: list[Mask]
                           ) -> bool:
        announced = dict(self.announced)
        shown: dict[int, set[Combo]] = {}
        for s, combo in self.shown:
            shown.setdefault(s, set()).add(combo)
        for s in range(4):
            if s == self.seat or s not in announced:
                continue
            start = hidden[s] | must[s] | played[s]
            best = best_declarations(start, self.trump)
            if s in shown:
                if set(best) != shown[s]:
                    return False
            elif sorted(c.kind for c in best) != sorted(announced[s]):
                return False
        return True

    def _sample_auction(self, rng: random.Random) -> DealState:
        rules = self.rules
        me = self.seat
        hidden = 0xFFFF_FFFF & ~self.hand
        if self.turned >= 0:
            hidden &= ~(1 << self.turned)
        pool = mask_cards(hidden)
        rng.shuffle(pool)
        size = 5 if rules.game == "belote" else 8
        hands = [0, 0, 0, 0]
        hands[me] = self.hand
        pos = 0
        for s in range(4):
            if s != me:
                for c in pool[pos:pos + size]:
                    hands[s] |= 1 << c
                pos += size
        state = DealState.from_hands(rules, self.dealer, hands, self.turned, pool[pos:],
                                     self.held_over, self.scores)
        for _, bid in self.auction:
            state = state.apply(bid)
        return state

    def _replay(self, start: list[Mask], rng: random.Random) -> DealState:
        rules = self.rules
        if rules.game == "belote":
            first_hands = [0, 0, 0, 0]
            stock: list[int] = []
            for s in deal_order(self.first, self.step):
                cards = mask_cards(start[s] & ~(1 << self.turned))
                if s == self.seat:
                    keep = mask_cards(self.auction_hand)
                else:
                    rng.shuffle(cards)
                    keep = cards[:5]
                rest = [c for c in cards if c not in keep]
                first_hands[s] = sum(1 << c for c in keep)
                stock.extend(rest)
            state = DealState.from_hands(rules, self.dealer, first_hands, self.turned, stock,
                                         self.held_over, self.scores)
        else:
            state = DealState.from_hands(rules, self.dealer, start, held_over=self.held_over,
                                         scores=self.scores)
        for _, bid in self.auction:
            state = state.apply(bid)
        announced = {s for s, _ in self.announced}
        for _, trick_cards in (*self.tricks, (self.leader, self.trick)):
            for c in trick_cards:
                p = state.player
                if state.declared[p] is None and state.best[p]:
                    silent = (self.own_declared == () if p == self.seat
                              else p not in announced)
                    if silent:
                        state = state.apply(NO_DECLARATION)
                state = state.apply(PLAYS[c])
        me = self.seat
        if self.own_declared == () and state.phase == PLAY and state.declared[me] is None:
            state = state.apply(NO_DECLARATION)  # declined, its first card still to come
        return state


#: Builds an :class:`Observation` from a tuple of all its fields in one step.
_new: Final = tuple.__new__
#: One-entry cache of the declarations announced and shown, keyed by the (immutable) tuple of
#: the seats' declarations: within a deal that tuple is the same object from the moment every
#: seat has played a card, and the four seats' observations of a state share it.
_shown_cache: list[object] = [None, None, None]


def observe(state: DealState, seat: int) -> Observation:
    """The :class:`Observation` of ``seat`` in ``state``: the state's public fields and the
    seat's own cards, copied (never a reference to the state itself)."""
    if not 0 <= seat < 4:
        raise IllegalActionError(f"seat: {seat!r} is not a seat index 0..3")
    (rules, dealer, hands, auction, stock, turned, phase, player, trump, taker, leader, trick,
     _, tricks, points, _, start, declared, _, belote, held_over, scores, _) = state
    hand = hands[seat]
    if phase == AUCTION or auction.is_void:
        auction_hand = hand
        own: tuple[Combo, ...] | None = None
        announced: tuple[tuple[int, tuple[str, ...]], ...] = ()
        shown: tuple[tuple[int, Combo], ...] = ()
    else:
        auction_hand = start[seat]
        if stock:  # belote: the cards dealt after the auction were not in the hand
            auction_hand &= ~_after_auction(stock, turned)
        own = declared[seat]
        if declared == (None, None, None, None):
            announced, shown = (), ()
        else:
            announced, shown = _announced_shown(state, declared, bool(tricks) or phase == OVER)
    legal = tuple(state.legal_actions()) if player == seat and phase != OVER else ()
    return _new(Observation, (
        seat, rules, dealer, phase, player if phase != OVER else -1, hand, auction_hand, turned,
        auction.history, trump, taker, auction.best, auction.multiplier, tricks, leader, trick,
        own, announced, shown, belote, points, held_over, scores, legal))


_after_cache: list[object] = [None, 0]


def _after_auction(stock: tuple[int, ...], turned: int) -> Mask:
    """The cards dealt after a belote auction: the turned card and the whole stock (cached for
    the deal's stock, the same tuple object in all of its states)."""
    cache = _after_cache
    if cache[0] is stock:
        return cache[1] | 1 << turned  # type: ignore[operator]
    m = 0
    for c in stock:
        m |= 1 << c
    cache[0], cache[1] = stock, m
    return m | 1 << turned


def _announced_shown(state: DealState, declared: tuple[tuple[Combo, ...] | None, ...],
                     after_first: bool
                     ) -> tuple[tuple[tuple[int, tuple[str, ...]], ...],
                                tuple[tuple[int, Combo], ...]]:
    """The kinds each seat announced, and (once the first trick is over) the combos shown."""
    cache = _shown_cache
    key = (state.trump, state.auction.first, state.auction.step, state.rules.declaration_tie,
           after_first)
    if cache[0] is declared and cache[1] == key:
        return cache[2]  # type: ignore[return-value]
    announced = tuple((s, tuple(c.kind for c in d)) for s, d in enumerate(declared) if d)
    shown: list[tuple[int, Combo]] = []
    if after_first:
        team = state.declaring_team()
        if team >= 0:
            for s in range(team, 4, 2):
                shown.extend((s, c) for c in declared[s] or ())
    out = (announced, tuple(shown))
    cache[0], cache[1], cache[2] = declared, key, out
    return out


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
