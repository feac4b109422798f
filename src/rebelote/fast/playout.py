"""A deal played to its end with random legal cards, on a fast path.

:func:`playout` works on the fields of a :class:`~rebelote.deal.DealState` and builds the
finished state by position (``tests/test_deal.py`` pins the field order it relies on); the
result equals applying the same cards one by one through :meth:`DealState.apply`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rebelote.actions import OVER, PLAY
from rebelote.declarations import belote_holders
from rebelote.errors import IllegalActionError
from rebelote.fast.tables import BEATERS, cards_of, legal
from rebelote.rules import card_values

if TYPE_CHECKING:
    from rebelote.deal import DealState

__all__ = ["playout"]

_new = tuple.__new__


def playout(state: DealState, rng: random.Random) -> DealState:
    """``state`` (in its play) played to its end with random legal cards (and default
    declarations), each card drawn by one ``rng.random()``."""
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
