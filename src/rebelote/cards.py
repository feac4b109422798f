"""Cards, suits, ranks, seats and teams.

A card is a plain ``int`` from 0 to 31: ``suit * 8 + rank``, suits in the order spades, hearts,
diamonds, clubs and ranks in the order 7 8 9 10 J Q K A. A hand is a 32-bit mask with bit ``card``
set for every card it holds. :func:`parse_card` reads the forms players type; :func:`card_str`
writes the two-letter form used in every JSON interface.

>>> parse_card("JH"), card_str(parse_card("10s")), card_str(parse_card("J♥"))
(12, 'TS', 'JH')
>>> mask_cards(cards_mask([parse_card("AS"), parse_card("7S")]))
[0, 7]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, Literal

from rebelote.errors import CardError, InputError

__all__ = [
    "ACE",
    "CLUBS",
    "DIAMONDS",
    "EIGHT",
    "FULL_DECK",
    "HEARTS",
    "JACK",
    "KING",
    "NINE",
    "QUEEN",
    "RANKS",
    "SEATS",
    "SEVEN",
    "SPADES",
    "SUITS",
    "SUIT_MASKS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "TEAMS",
    "TEN",
    "Card",
    "Mask",
    "Seat",
    "Team",
    "card_pretty",
    "card_str",
    "cards_mask",
    "iter_mask",
    "make_card",
    "mask_cards",
    "other_belote_card",
    "other_team",
    "parse_card",
    "parse_cards",
    "parse_seat",
    "parse_team",
    "popcount",
    "rank_of",
    "read_card",
    "suit_of",
]


Card = int
Mask = int

SUITS: Final = ("S", "H", "D", "C")
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS: Final = ("♠", "♥", "♦", "♣")
RANKS: Final = ("7", "8", "9", "T", "J", "Q", "K", "A")

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

FULL_DECK: Final[Mask] = (1 << 32) - 1
SUIT_MASKS: Final = tuple(0xFF << (8 * s) for s in range(4))

Seat = Literal["N", "E", "S", "W"]
Team = Literal["NS", "EW"]
SEATS: Final[tuple[Seat, ...]] = ("N", "E", "S", "W")
TEAMS: Final[tuple[Team, ...]] = ("NS", "EW")

_SUIT_ALIASES: Final = {
    "S": 0, "♠": 0, "♤": 0,
    "H": 1, "♥": 1, "♡": 1,
    "D": 2, "♦": 2, "♢": 2,
    "C": 3, "♣": 3, "♧": 3,
}
_RANK_ALIASES: Final = {
    "7": 0, "8": 1, "9": 2, "T": 3, "10": 3, "J": 4, "V": 4, "Q": 5, "D": 5, "K": 6, "R": 6,
    "A": 7,
}


def make_card(suit: int, rank: int) -> Card:
    """The card of ``suit`` (0..3) and ``rank`` (0..7, 7 up to ace)."""
    return suit * 8 + rank


def suit_of(card: Card) -> int:
    return card >> 3


def rank_of(card: Card) -> int:
    return card & 7


def other_belote_card(card: Card) -> Card:
    """The king for a queen, the queen for a king, of the same suit (the belote's pair)."""
    return make_card(suit_of(card), QUEEN + KING - rank_of(card))


def parse_card(text: str) -> Card:
    """Read a card: ``JH``, ``TS``, ``10S``, ``J♥``, ``j♥``; a clear :class:`CardError` otherwise.

    French letters are read too where they cannot be mistaken (``V`` valet, ``R`` roi).
    """
    if not isinstance(text, str):
        raise CardError("", f"a card is a string like 'JH', not {text!r}")
    s = text.strip().upper()
    if len(s) < 2:
        raise CardError("", f"{text!r} is not a card: write rank then suit, like 'JH' or '10S'")
    suit = _SUIT_ALIASES.get(s[-1])  # the suit is the last character
    rank_txt = s[:-1]
    if suit is None:
        raise CardError("", f"{text!r} is not a card: unknown suit {text.strip()[-1]!r} (S H D C)")
    rank = _RANK_ALIASES.get(rank_txt)
    if rank is None:
        raise CardError(
            "", f"{text!r} is not a card: unknown rank {text.strip()[:-1]!r} (7 8 9 T J Q K A)"
        )
    return make_card(suit, rank)


def card_str(card: Card) -> str:
    """The two-letter form, rank then suit: ``'JH'``."""
    if not 0 <= card < 32:
        raise CardError("", f"{card!r} is not a card number (0..31)")
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def card_pretty(card: Card) -> str:
    """A form for people: ``'J♥'``, ``'10♠'``."""
    rank = "10" if rank_of(card) == TEN else RANKS[rank_of(card)]
    return rank + SUIT_SYMBOLS[suit_of(card)]


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [parse_card(t) for t in texts]


def read_card(where: str, text: object, seen: dict[Card, str]) -> Card:
    """A card of a JSON input at ``where`` (``hand[2]``, ``trick[0]``), refused with an
    :class:`InputError` naming ``where`` if it cannot be read or if it stands already at a
    place of ``seen`` (which then records this one): one card cannot be in two places.

    >>> seen: dict[Card, str] = {}
    >>> card_str(read_card("hand[0]", "JH", seen)), seen
    ('JH', {12: 'hand[0]'})
    >>> read_card("trick[0]", "J♥", seen)
    Traceback (most recent call last):
    ...
    rebelote.errors.InputError: trick[0]: JH is also hand[0]
    """
    try:
        card = parse_card(text)  # type: ignore[arg-type]  # refused below if not a string
    except CardError as e:
        raise InputError(where, str(e)) from None
    if card in seen:
        raise InputError(where, f"{card_str(card)} is also {seen[card]}")
    seen[card] = where
    return card


def cards_mask(cards: Iterable[Card]) -> Mask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def mask_cards(mask: Mask) -> list[Card]:
    """The cards of a mask, lowest first."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_mask(mask: Mask) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: Mask) -> int:
    return mask.bit_count()


def parse_seat(text: object) -> Seat:
    if isinstance(text, str) and text.strip().upper() in SEATS:
        return text.strip().upper()  # type: ignore[return-value]
    raise CardError("", f"{text!r} is not a seat (N, E, S, W)")


def parse_team(text: object) -> Team:
    if isinstance(text, str) and text.strip().upper() in TEAMS:
        return text.strip().upper()  # type: ignore[return-value]
    raise CardError("", f"{text!r} is not a team (NS, EW)")


def other_team(team: Team) -> Team:
    """The opponents of ``team``: EW for NS, NS for EW."""
    return "EW" if team == "NS" else "NS"
