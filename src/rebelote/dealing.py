"""The dealing (docs/rules.md section 2): the shuffle and cut, the packets, the belote stock.

The one home of where each card of a deck goes: the engine deals with it
(:meth:`rebelote.deal.DealState.from_deck`, the stock at the end of a belote auction), and the
determinization lays out a sampled deal's stock with it (:mod:`rebelote.determinize`).

>>> packet_places("coinche", 1, 1)[1]  # East, after a North dealer: cards 0-2, 12-13, 20-22
(0, 1, 2, 12, 13, 20, 21, 22)
>>> stock_places(1, 1, 2)  # the stock from East, 3 cards each, 2 for the taker South
((8, 9, 10), (0, 1, 2), (3, 4), (5, 6, 7))
>>> stock_order([(2, 3, 4), (5, 6, 7), (8, 9), (10, 11, 12)], 1, 1, 2)
(5, 6, 7, 8, 9, 10, 11, 12, 2, 3, 4)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from rebelote.rules import seats_from

__all__ = ["packet_places", "shuffle_and_cut", "stock_order", "stock_places"]


def shuffle_and_cut(rng: random.Random) -> list[int]:
    """A shuffled 32-card deck (Fisher-Yates on ``rng.random()``), then cut at a random place
    (the bottom part goes on top)."""
    deck = list(range(32))
    rand = rng.random
    for i in range(31, 0, -1):
        j = int(rand() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    cut = 3 + int(rand() * 27)
    return deck[cut:] + deck[:cut]


@cache
def packet_places(game: str, first: int, step: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the places in the deck of the cards it is dealt: packets of 3-2-3 in
    coinche, 3-2 in belote, from ``first`` in the direction of play."""
    places: list[list[int]] = [[], [], [], []]
    pos = 0
    for size in (3, 2) if game == "belote" else (3, 2, 3):
        for seat in seats_from(first, step):
            places[seat].extend(range(pos, pos + size))
            pos += size
    return tuple(tuple(p) for p in places)


@cache
def stock_places(first: int, step: int, taker: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the places in the belote stock of the cards it gets after the auction:
    3 each (the taker 2) from ``first`` in the direction of play."""
    places: list[tuple[int, ...]] = [(), (), (), ()]
    pos = 0
    for seat in seats_from(first, step):
        n = 2 if seat == taker else 3
        places[seat] = tuple(range(pos, pos + n))
        pos += n
    return tuple(places)


def stock_order(received: Sequence[Sequence[int]], first: int, step: int, taker: int
                ) -> tuple[int, ...]:
    """The belote stock in dealing order that gives each seat the cards ``received[seat]``
    after the auction (3 each, the taker 2, in the order given): :func:`stock_places`
    read backwards."""
    stock = [0] * 11
    for seat, places in enumerate(stock_places(first, step, taker)):
        cards = received[seat]
        if len(cards) != len(places):
            raise ValueError(f"seat {seat} receives {len(places)} cards of the stock, "
                             f"not {len(cards)}")
        for i, c in zip(places, cards, strict=True):
            stock[i] = c
    return tuple(stock)
