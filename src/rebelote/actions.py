"""The vocabulary of the deal engine: the phases of a deal and the actions a seat takes.

Actions are small frozen values with a text form (:func:`parse_action`): bids
(:class:`~rebelote.auction.Bid`), cards (:class:`Play`) and declarations (:class:`Declare`,
:data:`NO_DECLARATION` for the choice not to declare).

>>> [str(parse_action(t)) for t in ("90 hearts", "jh", "no-declaration")]
['90 hearts', 'JH', 'no-declaration']
>>> Phase.PLAY, PHASE_NAMES[Phase.OVER]
(<Phase.PLAY: 1>, 'over')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from rebelote.auction import Bid
from rebelote.cards import card_str, parse_card
from rebelote.declarations import Combo
from rebelote.errors import CardError, IllegalActionError

__all__ = [
    "AUCTION",
    "NO_DECLARATION",
    "OVER",
    "PHASE_NAMES",
    "PLAY",
    "PLAYS",
    "Action",
    "Declare",
    "Phase",
    "Play",
    "parse_action",
]


class Phase(IntEnum):
    """The phase of a deal: the auction, the play, over (also voided by passes)."""

    AUCTION = 0
    PLAY = 1
    OVER = 2


AUCTION: Final = Phase.AUCTION
PLAY: Final = Phase.PLAY
OVER: Final = Phase.OVER
#: The phases' names in the JSON views.
PHASE_NAMES: Final = tuple(p.name.lower() for p in Phase)


@dataclass(frozen=True, slots=True)
class Play:
    """Playing a card (0..31); its text form is the card, ``JH``."""

    card: int

    def __str__(self) -> str:
        return card_str(self.card)


@dataclass(frozen=True, slots=True)
class Declare:
    """A seat's declarations, made with its first card. ``combos`` empty: it declares nothing.

    Playing the first card without a ``Declare`` declares the hand's best set (the default).
    """

    combos: tuple[Combo, ...] = ()

    def __str__(self) -> str:
        if not self.combos:
            return "no-declaration"
        return "declare " + "; ".join(str(c) for c in self.combos)


Action = Bid | Play | Declare
#: Declaring nothing (the text ``no-declaration``).
NO_DECLARATION: Final = Declare(())
#: The action of playing each card, by card number: ``PLAYS[card]``.
PLAYS: Final = tuple(Play(c) for c in range(32))


def parse_action(text: str) -> Action:
    """An action from its text: a bid (``pass``, ``90 hearts``...), a card (``JH``) or
    ``no-declaration``; :class:`IllegalActionError` naming the problem otherwise."""
    if not isinstance(text, str):
        raise IllegalActionError("action", f"{text!r} is not an action")
    t = text.strip()
    if t.lower() in ("no-declaration", "no declaration", "nodeclaration", "no-declare"):
        return NO_DECLARATION
    if len(t) in (2, 3):  # a card; with a space inside it is no card, parse_card says so
        try:
            return PLAYS[parse_card(t)]
        except CardError:
            pass
    return Bid.parse(t)
