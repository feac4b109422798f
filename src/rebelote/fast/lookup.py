"""Look-up tables of the hot paths, each derived from :mod:`rebelote.rules`.

>>> from rebelote.cards import parse_card
>>> cards_of(0b1001 << 8)  # the 7 and the 10 of hearts
(8, 11)
>>> [str(p) for p in plays_of(1 << parse_card("JH") | 1 << parse_card("AS"))]
['AS', 'JH']
"""

from __future__ import annotations

from typing import Final

from rebelote.actions import PLAYS, Play
from rebelote.cards import Mask
from rebelote.rules import ALL_TRUMP, NO_TRUMP

__all__ = ["BELOTE_MASKS", "CARDS8", "PLAYS8", "cards_of", "plays_of"]

#: ``CARDS8[suit][byte]``: the cards of one suit's byte of a mask, lowest first.
CARDS8: Final = tuple(
    tuple(tuple(suit * 8 + r for r in range(8) if byte >> r & 1) for byte in range(256))
    for suit in range(4)
)
#: ``PLAYS8[suit][byte]``: the :class:`~rebelote.actions.Play` actions of those cards.
PLAYS8: Final = tuple(tuple(tuple(PLAYS[c] for c in cards) for cards in suit) for suit in CARDS8)
#: For each trump mode, the cards that may make a belote (K and Q of trump, of every suit in
#: all-trump, none in no-trump).
BELOTE_MASKS: Final = tuple(
    0 if t == NO_TRUMP else sum(0b0110_0000 << (8 * s) for s in range(4)
                                if t == ALL_TRUMP or s == t)
    for t in range(6))

def cards_of(mask: Mask) -> tuple[int, ...]:
    """The cards of a mask, lowest first (four table look-ups)."""
    return (CARDS8[0][mask & 255] + CARDS8[1][mask >> 8 & 255] + CARDS8[2][mask >> 16 & 255]
            + CARDS8[3][mask >> 24 & 255])


def plays_of(mask: Mask) -> list[Play]:
    """The :class:`~rebelote.actions.Play` actions of the cards of a mask, lowest first."""
    return [*PLAYS8[0][mask & 255], *PLAYS8[1][mask >> 8 & 255], *PLAYS8[2][mask >> 16 & 255],
            *PLAYS8[3][mask >> 24]]
