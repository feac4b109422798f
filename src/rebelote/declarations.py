"""Declarations (annonces) and the belote (docs/rules.md section 4).

A :class:`Combo` is one declaration: a sequence (tierce, cinquante, cent) or a carré. A hand
declares its best set of disjoint combos (:func:`best_declarations`); only the team that shows
the strongest single combo scores (:func:`declaring_team`).

>>> from rebelote.cards import cards_mask, parse_cards
>>> from rebelote.cards import HEARTS
>>> from rebelote.rules import NO_TRUMP
>>> hand = cards_mask(parse_cards(["9H", "TH", "JH", "JS", "JD", "JC", "7C", "AS"]))
>>> [(c.kind, c.points) for c in best_declarations(hand, HEARTS)]
[('carre', 200)]
>>> [(c.kind, c.points) for c in best_declarations(cards_mask(parse_cards(
...     ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"])), NO_TRUMP)]
[('cent', 100), ('tierce', 20)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from rebelote.cards import Mask, card_str, cards_mask, iter_mask, parse_card, rank_of, suit_of
from rebelote.errors import CardError, InputError
from rebelote.rules import ALL_TRUMP, NO_TRUMP, PLAIN_ORDER, TrumpMode

__all__ = [
    "CARRE_POINTS",
    "CARRE_POINTS_NO_TRUMP",
    "COMBO_KINDS",
    "Combo",
    "ComboKind",
    "Strength",
    "belote_holders",
    "best_declarations",
    "candidates",
    "carre",
    "check_declarations",
    "combo_from_json",
    "declaring_team",
    "sequence",
    "sequence_kind",
    "sequence_points",
]


ComboKind = Literal["tierce", "cinquante", "cent", "carre"]
COMBO_KINDS: Final[tuple[ComboKind, ...]] = ("tierce", "cinquante", "cent", "carre")

# Carré points by rank index 7 8 9 T J Q K A.
CARRE_POINTS: Final = (0, 0, 150, 100, 200, 100, 100, 100)
CARRE_POINTS_NO_TRUMP: Final = (0, 0, 100, 150, 100, 100, 100, 200)
_RANK_ALL_SUITS: Final = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))


def sequence_points(length: int) -> int:
    """Tierce 20, cinquante 50, cent 100 (5 cards or more)."""
    return 20 if length == 3 else 50 if length == 4 else 100 if length >= 5 else 0


def sequence_kind(length: int) -> ComboKind:
    return "tierce" if length == 3 else "cinquante" if length == 4 else "cent"


#: The comparison key of a combo (see :meth:`Combo.strength`).
Strength = tuple[int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class Combo:
    """One declaration: its ``kind``, its ``cards`` (a mask) and its ``points``.

    ``suit`` is the suit of a sequence (-1 for a carré); ``length`` its number of cards;
    ``top`` the rank index (7..A = 0..7) of a sequence's top card or of a carré's rank.
    """

    kind: ComboKind
    cards: Mask
    points: int
    suit: int
    length: int
    top: int

    def strength(self, trump: TrumpMode) -> Strength:
        """The comparison key of docs/rules.md section 4: points, carré over sequence, longer
        sequence, higher top card (carrés in the order A 10 K Q J 9), a sequence in trump."""
        if self.kind == "carre":
            return (self.points, 1, 0, PLAIN_ORDER[self.top], 0)
        in_trump = 1 if self.suit == trump or trump == ALL_TRUMP else 0
        return (self.points, 0, self.length, self.top, in_trump)

    def to_json(self) -> dict[str, object]:
        """``{"kind": "tierce", "cards": ["9H", "TH", "JH"]}``."""
        return {"kind": self.kind, "cards": [card_str(c) for c in iter_mask(self.cards)]}

    def __str__(self) -> str:
        return f"{self.kind} {' '.join(card_str(c) for c in iter_mask(self.cards))}"


def carre(rank: int, trump: TrumpMode) -> Combo:
    """The carré of ``rank`` (its points in this trump mode; 0 for 8s and 7s)."""
    table = CARRE_POINTS_NO_TRUMP if trump == NO_TRUMP else CARRE_POINTS
    return Combo("carre", _RANK_ALL_SUITS[rank], table[rank], -1, 4, rank)


def sequence(suit: int, low: int, length: int) -> Combo:
    """The sequence of ``length`` cards of ``suit`` from rank index ``low`` up."""
    cards = ((1 << length) - 1) << (suit * 8 + low)
    return Combo(sequence_kind(length), cards, sequence_points(length), suit, length,
                 low + length - 1)


#: The cards that may start a sequence of three inside their suit (7 to J of each suit).
_RUN_STARTS: Final = 0x3F3F_3F3F


def candidates(hand: Mask, trump: TrumpMode) -> list[Combo]:
    """Every combo the hand holds: carrés worth points and every sequence of 3+ cards."""
    out: list[Combo] = []
    fours = hand & hand >> 8 & hand >> 16 & hand >> 24 & 0xFC  # ranks 9..A held in every suit
    runs = hand & hand >> 1 & hand >> 2 & _RUN_STARTS  # the low cards of three in sequence
    if not fours | runs:  # most hands: nothing to declare
        return out
    for rank in range(2, 8):  # carrés of 8s and 7s are worth nothing
        if fours >> rank & 1:
            out.append(carre(rank, trump))
    for suit in range(4):
        bits = hand >> (suit * 8) & 0xFF
        starts = runs >> (suit * 8) & 0xFF
        while starts:
            low = (starts & -starts).bit_length() - 1
            starts &= starts - 1
            length = 3
            while low + length < 8 and bits >> (low + length) & 1:
                length += 1
            out.extend(sequence(suit, low, n) for n in range(3, length + 1))
    return out


def best_declarations(hand: Mask, trump: TrumpMode) -> tuple[Combo, ...]:
    """The hand's best set of disjoint combos: most points, then the strongest combos.

    It depends only on the hand's cards that lie in some combo (every card of a carré of 9s
    to aces, every card of three in sequence): computed once for each set of them
    (:func:`_best_of`, the last few thousand kept), as the search asks it for every hand of
    every world it deals, and those of a position share their combos."""
    fours = hand & hand >> 8 & hand >> 16 & hand >> 24 & 0xFC
    runs = hand & hand >> 1 & hand >> 2 & _RUN_STARTS
    if not fours | runs:  # most hands: nothing to declare
        return ()
    return _best_of(runs | runs << 1 | runs << 2 | fours | fours << 8 | fours << 16
                    | fours << 24, trump)


@lru_cache(maxsize=8192)
def _best_of(hand: Mask, trump: TrumpMode) -> tuple[Combo, ...]:
    """:func:`best_declarations` of the cards of a hand that lie in some combo."""
    cands = candidates(hand, trump)
    if not cands:
        return ()
    if len(cands) == 1:
        return (cands[0],)
    strengths = [c.strength(trump) for c in cands]
    union = 0
    for c in cands:
        union |= c.cards
    if union.bit_count() == sum(c.cards.bit_count() for c in cands):
        # pairwise disjoint: every combo is worth points, so the best set holds them all
        chosen = list(range(len(cands)))
    else:
        chosen = _best_subset(cands, strengths)
    chosen.sort(key=strengths.__getitem__, reverse=True)
    return tuple(cands[i] for i in chosen)


def _best_subset(cands: list[Combo], strengths: list[Strength]) -> list[int]:
    """The indexes of the best set of disjoint combos among ``cands``: most points, then the
    strongest combos (strengths sorted, compared in turn); the first found of equal ones."""
    best: list[int] = []
    best_key: tuple[int, list[Strength]] = (0, [])
    n = len(cands)

    def search(i: int, used: Mask, total: int, chosen: list[int]) -> None:
        nonlocal best, best_key
        if i == n:
            if total >= best_key[0]:  # a smaller total cannot be better
                key = (total, sorted((strengths[j] for j in chosen), reverse=True))
                if key > best_key:
                    best, best_key = list(chosen), key
            return
        c = cands[i]
        if not used & c.cards:
            chosen.append(i)
            search(i + 1, used | c.cards, total + c.points, chosen)
            chosen.pop()
        search(i + 1, used, total, chosen)

    search(0, 0, 0, [])
    return best


def check_declarations(combos: Sequence[Combo], hand: Mask, trump: TrumpMode) -> str | None:
    """``None`` if ``combos`` is a set a hand may declare, else why not (a sentence).

    Every combo must be held, worth points, and disjoint from the others, and the set must be
    worth the hand's best set (a hand declares its best set or nothing).
    """
    used = 0
    for c in combos:
        if c.cards & ~hand:
            return f"{c} is not in the hand"
        if c.cards & used:
            return f"{c} shares a card with another declaration"
        if c.points == 0:
            return f"{c} is worth nothing"
        used |= c.cards
    if combos:
        best = sum(c.points for c in best_declarations(hand, trump))
        if sum(c.points for c in combos) != best:
            return f"the hand's best declarations are worth {best}, not what was declared"
    return None


def combo_from_json(obj: object, trump: TrumpMode) -> Combo:
    """Read ``{"kind": "tierce", "cards": [...]}``; :class:`InputError` naming what is wrong."""
    if not isinstance(obj, Mapping):
        raise InputError("", "a declaration is an object with 'kind' and 'cards'")
    kind = obj.get("kind")
    cards = obj.get("cards")
    if kind not in COMBO_KINDS:
        raise InputError("kind", f"{kind!r} is not a declaration ({', '.join(COMBO_KINDS)})")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise InputError("cards", "must be a list of cards like 'JH'")
    try:
        parsed = [parse_card(c) for c in cards]
    except CardError as exc:
        raise InputError("cards", f"{exc}") from None
    mask = cards_mask(parsed)
    if mask.bit_count() != len(parsed):
        raise InputError("cards", "a card is listed twice")
    if kind == "carre":
        ranks = {rank_of(c) for c in parsed}
        if len(parsed) != 4 or len(ranks) != 1:
            raise InputError("cards", "a carré is the four cards of one rank")
        return carre(ranks.pop(), trump)
    suits = {suit_of(c) for c in parsed}
    low = min(rank_of(c) for c in parsed)
    length = len(parsed)
    if len(suits) != 1 or length < 3:
        raise InputError("cards", "a sequence is three or more cards of one suit")
    combo = sequence(suits.pop(), low, length)
    if combo.cards != mask:
        raise InputError("cards", "the cards of a sequence follow each other (7 8 9 T J Q K A)")
    if combo.kind != kind:
        raise InputError("kind", f"{length} cards in sequence make a {combo.kind}, not a {kind}")
    return combo


def declaring_team(declared: Sequence[Sequence[Combo]], trump: TrumpMode, first: int, step: int,
                   tie: str = "nobody") -> int:
    """The team (0 NS, 1 EW) whose declarations count, or -1 for nobody.

    ``declared`` holds each seat's declared combos (N E S W). The team showing the strongest
    single combo wins; a perfect tie goes to nobody, or with ``tie="first"`` to the team of the
    seat that speaks first from ``first`` (the first leader) in the direction ``step``.
    """
    best: list[tuple[tuple[int, int, int, int, int], int] | None] = [None, None]
    order = [(first + i * step) % 4 for i in range(4)]
    for seat in order:
        for c in declared[seat]:
            key = c.strength(trump)
            cur = best[seat & 1]
            if cur is None or key > cur[0]:
                best[seat & 1] = (key, seat)
    a, b = best
    if a is None and b is None:
        return -1
    if a is None:
        return 1
    if b is None:
        return 0
    if a[0] != b[0]:
        return 0 if a[0] > b[0] else 1
    if tie == "first":
        return 1 if order.index(a[1]) > order.index(b[1]) else 0
    return -1


def belote_holders(hands: Sequence[Mask], trump: TrumpMode) -> tuple[int, ...]:
    """For each suit whose K and Q count as a belote (the trump; every suit in all-trump;
    none in no-trump), the seat holding both, else -1. Indexed by suit."""
    out = [-1, -1, -1, -1]
    if trump == NO_TRUMP:
        return tuple(out)
    suits = range(4) if trump == ALL_TRUMP else (trump,)
    for s in suits:
        pair = 0b0110_0000 << (s * 8)
        for seat, hand in enumerate(hands):
            if hand & pair == pair:
                out[s] = seat
    return tuple(out)
