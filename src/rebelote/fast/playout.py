"""A deal played to its end with random legal cards, on a fast path.

:func:`playout` plays from the fields of a deal in its play (the hands, the trick, the trump,
the starting hands for the belotes) and returns what the cards did, :class:`Played`: the
engine turns that into the finished state (:meth:`rebelote.deal.DealState.playout`), which
equals applying the same cards one by one through :meth:`~rebelote.deal.DealState.apply`.
The cards are chosen by the compiled core (:func:`rebelote.fast._core.random_play`), from the
same ``rng.random()`` draws as :func:`reference_playout`, its plain-Python twin, which the
tests hold it equal to.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from rebelote.declarations import belote_holders
from rebelote.fast.lookup import cards_of
from rebelote.rules import ABOVE, BEATERS, Rules, card_values, legal_mask

try:
    from rebelote.fast import _core
except ImportError:  # a source tree whose compiled core is not built: the plain play-out
    _core = None  # type: ignore[assignment]

__all__ = ["Played", "playout", "reference_playout"]


class Played(NamedTuple):
    """What a play-out did: the tricks it completed ``(leader, cards)`` (the first one with
    the cards already in the trick), the last trick's winner, the card points NS and EW won
    in them (no dix de der), the mask of the seats that won one, the hands left (empty) and
    the belote announcements ``(seat, card)`` made, in order."""

    tricks: tuple[tuple[int, tuple[int, ...]], ...]
    leader: int
    points: tuple[int, int]
    won: int
    hands: tuple[int, int, int, int]
    belote: tuple[tuple[int, int], ...]


def playout(rules: Rules, hands: tuple[int, int, int, int], trump: int, leader: int,
            trick: tuple[int, ...], step: int, start: tuple[int, int, int, int],
            rng: random.Random) -> Played:
    """The play from ``hands`` and the cards of ``trick`` (led by ``leader``) to the end with
    random legal cards, each card drawn by one ``rng.random()``: :func:`reference_playout`
    with the cards chosen by the compiled core. ``start``: the hands when play began."""
    if _core is None:
        return reference_playout(rules, hands, trump, leader, trick, step, start, rng)
    rand = rng.random
    left = sum(h.bit_count() for h in hands)
    draws = [rand() for _ in range(left)]
    played, leaders, ns, ew, won, last, hands_left, belote = _core.random_play(
        hands, trump, leader, trick, rules.overtrump_partner, rules.must_undertrump, step,
        ABOVE[trump], card_values(trump, rules.no_trump_aces, rules.all_trump_scale),
        _belote_cards(start, trump), draws)
    cards = (*trick, *played)
    tricks = tuple((lead, cards[i:i + 4]) for i, lead in
                   zip(range(0, len(cards), 4), leaders, strict=True))
    return Played(tricks, last, (ns, ew), won, hands_left, tuple(belote))


def _belote_cards(start: tuple[int, int, int, int], trump: int) -> int:
    """The K and Q of each belote, both in one starting hand."""
    out = 0
    for suit, holder in enumerate(belote_holders(start, trump)):
        if holder >= 0:
            out |= 0b0110_0000 << (suit * 8)
    return out


def reference_playout(rules: Rules, hands: tuple[int, int, int, int], trump: int, leader: int,
                      trick: tuple[int, ...], step: int, start: tuple[int, int, int, int],
                      rng: random.Random) -> Played:
    """:func:`playout` in plain Python, card by card: each card ``choices[int(rng.random() *
    len(choices))]`` of the legal cards lowest first."""
    ot, mu = rules.overtrump_partner, rules.must_undertrump
    values = card_values(trump, rules.no_trump_aces, rules.all_trump_scale)
    beaters = BEATERS[trump]
    left = list(hands)
    cards = list(trick)
    win = 0  # the winning card of the trick in play
    for i in range(1, len(cards)):
        if beaters[cards[win]] >> cards[i] & 1:
            win = i
    p = (leader + len(cards) * step) % 4
    tricks: list[tuple[int, tuple[int, ...]]] = []
    points = [0, 0]
    won = 0
    belote: list[tuple[int, int]] = []
    belote_cards = _belote_cards(start, trump)
    rand = rng.random
    while left[0] | left[1] | left[2] | left[3]:
        choices = cards_of(legal_mask(left[p], cards, win, trump, ot, mu))
        card = choices[int(rand() * len(choices))]
        if belote_cards >> card & 1:
            belote.append((p, card))
        left[p] &= ~(1 << card)
        if cards and beaters[cards[win]] >> card & 1:
            win = len(cards)
        cards.append(card)
        if len(cards) < 4:
            p = (p + step) % 4
            continue
        winner = (leader + win * step) % 4
        points[winner & 1] += values[cards[0]] + values[cards[1]] + values[cards[2]] + \
            values[cards[3]]
        tricks.append((leader, tuple(cards)))
        won |= 1 << winner
        cards = []
        win = 0
        p = leader = winner
    return Played(tuple(tricks), leader, (points[0], points[1]), won,
                  (left[0], left[1], left[2], left[3]), tuple(belote))
