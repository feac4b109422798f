"""The oracle of play: legal cards, trick winner and trick points (docs/rules.md sections 2, 3, 9).

Cards are the two-letter strings of docs/interfaces.md (``"JH"``); trumps are the names
``spades`` .. ``clubs``, ``no-trump``, ``all-trump``. Options are the dict of
:func:`oracle.scoring.rules_of`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from oracle.scoring import SUIT_TRUMPS, scale

RANKS = "789TJQKA"
SUITS = "SHDC"
DECK = tuple(r + s for s in SUITS for r in RANKS)

# Strength, higher is stronger, by rank index 7 8 9 T J Q K A.
TRUMP_POWER = (0, 1, 6, 4, 7, 2, 3, 5)  # J 9 A 10 K Q 8 7
PLAIN_POWER = (0, 1, 2, 6, 3, 4, 5, 7)  # A 10 K Q J 9 8 7

CLOCKWISE = ("N", "E", "S", "W")
COUNTERCLOCKWISE = ("N", "W", "S", "E")


def suit(card: str) -> str:
    return card[1]


def rank(card: str) -> int:
    return RANKS.index(card[0])


def trump_suit(trump: str) -> str | None:
    """The trump suit letter, or None in no-trump and all-trump."""
    return SUITS[SUIT_TRUMPS.index(trump)] if trump in SUIT_TRUMPS else None


def is_trump(card: str, trump: str) -> bool:
    return trump == "all-trump" or suit(card) == trump_suit(trump)


def power(card: str, trump: str, led: str) -> int:
    """Strength of a card in a trick led in suit ``led``: trumps above the led suit above the rest.

    In all-trump only the led suit can win, with the trump order.
    """
    if trump == "all-trump":
        return 100 + TRUMP_POWER[rank(card)] if suit(card) == led else -1
    if is_trump(card, trump):
        return 200 + TRUMP_POWER[rank(card)]
    if suit(card) == led:
        return 100 + PLAIN_POWER[rank(card)]
    return -1


def trick_winner(trick: Sequence[str], trump: str) -> int:
    """The index (in play order) of the card that wins the (possibly partial) trick."""
    led = suit(trick[0])
    best = 0
    for i, c in enumerate(trick):
        if power(c, trump, led) > power(trick[best], trump, led):
            best = i
    return best


def card_value(card: str, trump: str, opts: Mapping[str, Any]) -> int:
    return scale(trump, opts, suit(card) == trump_suit(trump))[rank(card)]


def trick_points(trick: Sequence[str], trump: str, opts: Mapping[str, Any]) -> int:
    """The card points of a trick (no dix de der)."""
    return sum(card_value(c, trump, opts) for c in trick)


def legal_cards(hand: Sequence[str], trick: Sequence[str], trump: str,
                opts: Mapping[str, Any]) -> set[str]:
    """The cards of ``hand`` the next player may play to ``trick`` (docs/rules.md section 3)."""
    hand = list(hand)
    if not trick:
        return set(hand)
    led = suit(trick[0])
    follow = [c for c in hand if suit(c) == led]
    winning = trick_winner(trick, trump)
    partner_winning = len(trick) >= 2 and winning == len(trick) - 2
    if trump == "no-trump":
        return set(follow) if follow else set(hand)
    if trump == "all-trump":
        if not follow:
            return set(hand)
        if partner_winning and not opts["overtrump_partner"]:
            return set(follow)
        best = max(power(c, trump, led) for c in trick if suit(c) == led)
        higher = [c for c in follow if power(c, trump, led) > best]
        return set(higher or follow)
    ts = trump_suit(trump)
    trumps = [c for c in hand if suit(c) == ts]
    if led == ts:
        if not follow:
            return set(hand)
        if partner_winning and not opts["overtrump_partner"]:
            return set(follow)
        best = max(power(c, trump, led) for c in trick if suit(c) == ts)
        higher = [c for c in follow if power(c, trump, led) > best]
        return set(higher or follow)
    if follow:
        return set(follow)
    if partner_winning or not trumps:
        return set(hand)
    trick_trumps = [c for c in trick if suit(c) == ts]
    if not trick_trumps:
        return set(trumps)
    best = max(power(c, trump, led) for c in trick_trumps)
    higher = [c for c in trumps if power(c, trump, led) > best]
    if higher:
        return set(higher)
    if opts["undertrump"] == "must":
        return set(trumps)
    return set(hand)


def next_seat(seat: str, opts: Mapping[str, Any]) -> str:
    order = CLOCKWISE if opts["direction"] == "clockwise" else COUNTERCLOCKWISE
    return order[(order.index(seat) + 1) % 4]
