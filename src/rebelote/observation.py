"""What one seat knows of a deal: :class:`Observation`, built by :func:`observe`.

An observation holds the seat's own cards and everything public, never another seat's hidden
cards. It is what a bot acts on and what the play table shows; :meth:`Observation.constraints`
says what the seat can infer of the other hands, for determinization
(:mod:`rebelote.determinize`).

>>> import random
>>> from rebelote.deal import DealState
>>> from rebelote.rules import Rules
>>> state = DealState.new(Rules.preset("official", "coinche"), dealer=3, seed=7)
>>> for text in ("80 hearts", "pass", "pass", "pass", "KD"):
...     state = state.apply(text)
>>> obs = state.observation(1)
>>> obs.hand == state.hands[1], obs.to_json()["trick"]
(True, ['N', 'KD'])
>>> sample = DealState.from_observation(obs, random.Random(0))
>>> sample.observation(1) == obs and sample.hands[1] == state.hands[1]
True
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from operator import attrgetter
from typing import Final, NamedTuple, Protocol

from rebelote.actions import AUCTION, OVER, PHASE_NAMES, Action
from rebelote.auction import Auction, Bid
from rebelote.cards import (
    FULL_DECK,
    KING,
    QUEEN,
    SEATS,
    Mask,
    card_str,
    iter_mask,
    other_belote_card,
    rank_of,
    suit_of,
)
from rebelote.declarations import Combo
from rebelote.errors import IllegalActionError
from rebelote.rules import ALL_TRUMP, BEATERS, TRUMP_NAMES, Rules, legal_mask, seat_step

__all__ = ["DealView", "Observation", "PlayedCard", "observe", "played_cards"]


class DealView(Protocol):
    """What :func:`observe` reads of a deal, by name: the deal engine's
    :class:`~rebelote.deal.DealState` is one. The engine builds on this module and never the
    other way round, so the observation knows the state by these names only (OpenSpiel's
    observers read a state the same way)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def dealer(self) -> int: ...
    @property
    def hands(self) -> tuple[Mask, Mask, Mask, Mask]: ...
    @property
    def auction(self) -> Auction: ...
    @property
    def turned(self) -> int: ...
    @property
    def phase(self) -> int: ...
    @property
    def player(self) -> int: ...
    @property
    def trump(self) -> int: ...
    @property
    def taker(self) -> int: ...
    @property
    def leader(self) -> int: ...
    @property
    def trick(self) -> tuple[int, ...]: ...
    @property
    def tricks(self) -> tuple[tuple[int, tuple[int, ...]], ...]: ...
    @property
    def points(self) -> tuple[int, int]: ...
    @property
    def declared(self) -> tuple[tuple[Combo, ...] | None, ...]: ...
    @property
    def belote(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def held_over(self) -> int: ...
    @property
    def scores(self) -> tuple[int, int]: ...
    def legal_actions(self) -> list[Action]: ...
    def declaring_team(self) -> int: ...
    def auction_hand(self, seat: int) -> Mask: ...


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

    # -- what the seat can infer -------------------------------------------------------------
    def constraints(self) -> tuple[list[Mask], list[Mask]]:
        """For each seat, the unplayed cards it must hold (shown declarations, the other
        belote card, the turned card) and the cards it cannot hold (voids and refusals to
        trump or overtrump revealed by its plays). Public facts only: the same for every
        seat's observation of a position, and for every deal of its hidden cards (kept for
        the last positions asked: the search replays the same public plays in each world)."""
        if self.phase == AUCTION:
            return [0, 0, 0, 0], [0, 0, 0, 0]
        must, forbid = _constraints(self.rules, self.trump, self.tricks, self.leader,
                                    self.trick, self.shown, self.belote, self.turned,
                                    self.taker)
        return list(must), list(forbid)


class PlayedCard(NamedTuple):
    """A card played, in the trick it fell in (:func:`played_cards`)."""

    seat: int
    card: int
    #: the trick's cards played before it (empty: it led)
    before: tuple[int, ...]
    #: which of ``before`` was winning the trick when it was played (0 when it led)
    win: int
    #: the tricks finished before its own
    done: int


def played_cards(trump: int, step: int, tricks: tuple[tuple[int, tuple[int, ...]], ...],
                 leader: int, trick: tuple[int, ...]) -> Iterator[PlayedCard]:
    """Every card played so far, in order (the finished ``tricks``, each its leader and cards,
    then the ``trick`` led by ``leader``; seats turn by ``step``): who played it, and the
    trick as it stood then. The public walk that the constraints and the learned model of the
    players (:func:`rebelote.bots.playmodel.moments`) read."""
    beaters = BEATERS[trump]
    for done, (first, cards) in enumerate((*tricks, (leader, trick))):
        win = 0
        for i, c in enumerate(cards):
            yield PlayedCard((first + i * step) % 4, c, cards[:i], win, done)
            if i and beaters[cards[win]] >> c & 1:
                win = i


@lru_cache(maxsize=4096)
def _constraints(rules: Rules, trump: int, tricks: tuple[tuple[int, tuple[int, ...]], ...],
                 leader: int, trick: tuple[int, ...], shown: tuple[tuple[int, Combo], ...],
                 belote: tuple[tuple[int, int], ...], turned: int, taker: int
                 ) -> tuple[tuple[Mask, ...], tuple[Mask, ...]]:
    """:meth:`Observation.constraints` in the play, from the public facts it reads."""
    must = [0, 0, 0, 0]
    forbid = [0, 0, 0, 0]
    played_all = 0
    ot, mu = rules.overtrump_partner, rules.must_undertrump
    for s, c, before, win, _done in played_cards(trump, seat_step(rules), tricks, leader, trick):
        if before:
            possible = FULL_DECK & ~played_all & ~(1 << c)
            excluded = 0
            allowed = legal_mask(possible | 1 << c, before, win, trump, ot, mu)
            while not allowed >> c & 1:
                excluded |= allowed
                possible &= ~allowed
                allowed = legal_mask(possible | 1 << c, before, win, trump, ot, mu)
            forbid[s] |= excluded
        played_all |= 1 << c
        if rank_of(c) in (QUEEN, KING) and (s, c) not in belote \
                and (trump == ALL_TRUMP or suit_of(c) == trump):
            # played the K or Q of trump without a belote: not holding the other one
            forbid[s] |= 1 << other_belote_card(c)
    for s, combo in shown:
        must[s] |= combo.cards
    for s, card in belote:
        must[s] |= 1 << other_belote_card(card)
    if turned >= 0 and taker >= 0:
        must[taker] |= 1 << turned
    for s in range(4):
        must[s] &= ~played_all
    return tuple(must), tuple(forbid)


#: Builds an :class:`Observation` from a tuple of all its fields in one step.
_new: Final = tuple.__new__
#: The fields of a :class:`DealView` that :func:`observe` reads, by name, in one call.
_read: Final = attrgetter("rules", "dealer", "hands", "auction", "turned", "phase", "player",
                          "trump", "taker", "leader", "trick", "tricks", "points", "declared",
                          "belote", "held_over", "scores")


def observe(state: DealView, seat: int) -> Observation:
    """The :class:`Observation` of ``seat`` in ``state``: the state's public fields and the
    seat's own cards, copied (never a reference to the state itself)."""
    if not 0 <= seat < 4:
        raise IllegalActionError("seat", f"{seat!r} is not a seat index 0..3")
    (rules, dealer, hands, auction, turned, phase, player, trump, taker, leader, trick, tricks,
     points, declared, belote, held_over, scores) = _read(state)
    hand = hands[seat]
    if phase == AUCTION or auction.is_void:
        auction_hand = hand
        own: tuple[Combo, ...] | None = None
        announced: tuple[tuple[int, tuple[str, ...]], ...] = ()
        shown: tuple[tuple[int, Combo], ...] = ()
    else:
        auction_hand = state.auction_hand(seat)
        own = declared[seat]
        if declared == (None, None, None, None):
            announced, shown = (), ()
        else:
            announced, shown = _announced_shown(state, declared, bool(tricks) or phase == OVER)
    legal = tuple(state.legal_actions()) if player == seat and phase != OVER else ()
    return _new(Observation, (
        seat, rules, dealer, phase, player if phase != OVER else -1, hand, auction_hand,
        turned, auction.history, trump, taker, auction.best, auction.multiplier, tricks,
        leader, trick, own, announced, shown, belote, points, held_over, scores, legal))


_Shown = tuple[tuple[tuple[int, tuple[str, ...]], ...], tuple[tuple[int, Combo], ...]]
#: The declarations announced and shown last computed, with the (immutable) tuple of the
#: seats' declarations and the facts they were read with: within a deal that tuple is the same
#: object from the moment every seat has played a card, and the four seats' observations of a
#: state share it. One immutable triple, replaced in one assignment: threads (bots, the views)
#: that share it each read a whole entry, never one thread's key with another's value.
_shown_cache: tuple[object, object, _Shown] = (None, None, ((), ()))


def _announced_shown(state: DealView, declared: tuple[tuple[Combo, ...] | None, ...],
                     after_first: bool) -> _Shown:
    """The kinds each seat announced, and (once the first trick is over) the combos shown."""
    global _shown_cache
    auction = state.auction
    key = (state.trump, auction.first, auction.step, state.rules.declaration_tie, after_first)
    cached = _shown_cache  # read once
    if cached[0] is declared and cached[1] == key:
        return cached[2]
    announced = tuple((s, tuple(c.kind for c in d)) for s, d in enumerate(declared) if d)
    shown: list[tuple[int, Combo]] = []
    if after_first:
        team = state.declaring_team()
        if team >= 0:
            for s in range(team, 4, 2):
                shown.extend((s, c) for c in declared[s] or ())
    out = (announced, tuple(shown))
    _shown_cache = (declared, key, out)
    return out
