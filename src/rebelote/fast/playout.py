"""A deal played to its end with random legal cards, on a fast path.

:func:`playout` works on the fields of a :class:`~rebelote.deal.DealState` and builds the
finished state by position (``tests/test_deal.py`` pins the field order it relies on); the
result equals applying the same cards one by one through :meth:`DealState.apply`. The cards
are chosen by the compiled core (:func:`rebelote.fast._core.random_play`), from the same
``rng.random()`` draws as :func:`reference_playout`, its plain-Python twin, which the tests
hold it equal to.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rebelote.actions import OVER, PLAY
from rebelote.declarations import belote_holders
from rebelote.errors import IllegalActionError
from rebelote.fast.tables import BEATERS, cards_of, legal
from rebelote.rules import ABOVE, card_values

if TYPE_CHECKING:
    from rebelote.deal import DealState

try:
    from rebelote.fast import _core
except ImportError:  # a source tree whose compiled core is not built: the plain play-out
    _core = None  # type: ignore[assignment]

__all__ = ["playout", "reference_playout"]

_new = tuple.__new__


def playout(state: DealState, rng: random.Random) -> DealState:
    """``state`` (in its play) played to its end with random legal cards (and default
    declarations), each card drawn by one ``rng.random()``: :func:`reference_playout` with the
    cards chosen by the compiled core."""
    (rules, dealer, hands_now, auction, stock, turned, phase, _, trump, taker, leader,
     trick_now, _, tricks_now, points_now, winners, start, declared_now, best, belote_now,
     held_over, scores, _) = state
    if phase != PLAY:
        raise IllegalActionError("playout", "the deal is not in its play")
    if _core is None:
        return reference_playout(state, rng)
    rand = rng.random
    draws = [rand() for _ in range(32 - 4 * len(tricks_now) - len(trick_now))]
    played, leaders, ns, ew, won, leader, hands, belote = _core.random_play(
        hands_now, trump, leader, trick_now, rules.overtrump_partner,
        rules.must_undertrump, auction.step, ABOVE[trump],
        card_values(trump, rules.no_trump_aces, rules.all_trump_scale),
        _belote_cards(start, trump), draws)
    cards = (*trick_now, *played)
    tricks = (*tricks_now, *[(lead, cards[i:i + 4]) for i, lead in
                             zip(range(0, len(cards), 4), leaders, strict=True)])
    declared = tuple(best[s] if d is None else d for s, d in enumerate(declared_now))
    return _new(type(state), (
        rules, dealer, hands, auction, stock, turned, OVER, -1, trump, taker, leader, (), 0,
        tricks, (points_now[0] + ns, points_now[1] + ew), winners | won, start, declared, best,
        (*belote_now, *belote), held_over, scores, 0))


def _belote_cards(start: tuple[int, int, int, int], trump: int) -> int:
    """The K and Q of each belote, both in one starting hand."""
    out = 0
    for suit, holder in enumerate(belote_holders(start, trump)):
        if holder >= 0:
            out |= 0b0110_0000 << (suit * 8)
    return out


def reference_playout(state: DealState, rng: random.Random) -> DealState:
    """:func:`playout` in plain Python, card by card: each card ``choices[int(rng.random() *
    len(choices))]`` of the legal cards lowest first."""
    (rules, dealer, hands_now, auction, stock, turned, phase, p, trump, taker, leader, trick_now,
     win, tricks_now, points_now, winners, start, declared_now, best, belote_now, held_over,
     scores, _) = state
    if phase != PLAY:
        raise IllegalActionError("playout", "the deal is not in its play")
    step = auction.step
    ot, mu = rules.overtrump_partner, rules.must_undertrump
    values = card_values(trump, rules.no_trump_aces, rules.all_trump_scale)
    hands = list(hands_now)
    declared = list(declared_now)
    belote = list(belote_now)
    trick = list(trick_now)
    tricks = list(tricks_now)
    points = list(points_now)
    rand = rng.random
    beaters = BEATERS[trump]
    for s in range(4):  # every seat plays a card before the end: the default declarations
        if declared[s] is None:
            declared[s] = best[s]
    belote_cards = 0  # the K and Q of each belote, both in one starting hand
    for suit, holder in enumerate(belote_holders(start, trump)):
        if holder >= 0:
            belote_cards |= 0b0110_0000 << (suit * 8)
    while len(tricks) < 8:
        choices = cards_of(legal(hands[p], trick, win, trump, ot, mu))
        card = choices[int(rand() * len(choices))]
        if belote_cards >> card & 1:
            belote.append((p, card))
        hands[p] &= ~(1 << card)
        if trick and beaters[trick[win]] >> card & 1:
            win = len(trick)
        trick.append(card)
        if len(trick) < 4:
            p = (p + step) % 4
            continue
        winner = (leader + win * step) % 4
        points[winner & 1] += values[trick[0]] + values[trick[1]] + values[trick[2]] + \
            values[trick[3]]
        tricks.append((leader, tuple(trick)))
        winners |= 1 << winner
        trick = []
        win = 0
        p = leader = winner
    return _new(type(state), (
        rules, dealer, (hands[0], hands[1], hands[2], hands[3]), auction, stock, turned, OVER,
        -1, trump, taker, leader, (), 0, tuple(tricks), (points[0], points[1]), winners, start,
        tuple(declared), best, tuple(belote), held_over, scores, 0))
