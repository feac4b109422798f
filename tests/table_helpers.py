"""Shared helpers of the table tests: deterministic seeds, and the scan of a view for cards its
viewer may not see."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

CARD = re.compile(r"\b[789TJQKA][SHDC]\b")
#: A card as a page prints it, French or English (their letters differ but for A): V♥, 10♠,
#: D♦, J♥, Q♠...
FACE = re.compile(r"(10|[789VDRAJQK])([♠♥♦♣])")
#: A card as a screen reader says it: ``valet de cœur``, ``jack of hearts``.
WORDS_FR = re.compile(r"\b(sept|huit|neuf|dix|valet|dame|roi|as) de (pique|cœur|carreau|trèfle)\b",
                      re.IGNORECASE)
WORDS_EN = re.compile(r"\b(seven|eight|nine|ten|jack|queen|king|ace) of "
                      r"(spades|hearts|diamonds|clubs)\b", re.IGNORECASE)
_RANKS = {"10": "T", "V": "J", "D": "Q", "R": "K"}
_SUITS = dict(zip("♠♥♦♣", "SHDC", strict=True))
_WORD_RANKS = dict(zip(("sept", "huit", "neuf", "dix", "valet", "dame", "roi", "as"), "789TJQKA",
                       strict=True)) | dict(zip(("seven", "eight", "nine", "ten", "jack", "queen",
                                                 "king", "ace"), "789TJQKA", strict=True))
_WORD_SUITS = dict(zip(("pique", "cœur", "carreau", "trèfle"), "SHDC", strict=True)) | dict(
    zip(("spades", "hearts", "diamonds", "clubs"), "SHDC", strict=True))


def cards_in_html(html: str) -> set[str]:
    """Every card a page names: as a code (``JH``), as printed (``V♥``, ``J♥`` in English) or
    in words for a screen reader (``valet de cœur``, ``jack of hearts``)."""
    out = set(CARD.findall(html))
    for rank, suit in FACE.findall(html):
        out.add(_RANKS.get(rank, rank) + _SUITS[suit])
    for rank, suit in (*WORDS_FR.findall(html), *WORDS_EN.findall(html)):
        out.add(_WORD_RANKS[rank.lower()] + _WORD_SUITS[suit.lower()])
    return out


def counting_entropy(start: int = 0) -> Any:
    """Seeds and salts 1, 2, 3... (hex, padded): a table that deals the same every run."""
    n = [start]

    def entropy() -> tuple[str, str]:
        n[0] += 1
        return f"{n[0]:032x}", f"{n[0] * 7919:032x}"

    return entropy


def strings(obj: Any) -> Iterator[str]:
    """Every string inside a JSON value (keys included)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from strings(v)


def cards_in(obj: Any) -> set[str]:
    """Every card named anywhere in a JSON value."""
    return {m for s in strings(obj) for m in CARD.findall(s)}


def public_cards(view: dict[str, Any]) -> set[str]:
    """The cards a view may name in its deal in play: its own hand, the cards played, the
    turned card, the declarations shown and the belote cards announced."""
    out = set(view["hand"])
    if view.get("turned"):
        out.add(view["turned"])
    for _, card in view["trick"]:
        out.add(card)
    for trick in view["tricks"]:
        out.update(c for _, c in trick["cards"])
    for shown in view["shown"]:
        out.update(shown["cards"])
    for item in view["belote"]:
        out.add(item[1])
    return out


def leaks(view: dict[str, Any], held: set[str]) -> set[str]:
    """Cards named by the view of the deal in play (its finished deals' records apart) that
    its viewer could not see: neither ``held`` (every card the viewer held this deal) nor
    public."""
    rest = {k: v for k, v in view.items() if k != "last_result"}
    allowed = held | public_cards(view)
    return cards_in(rest) - allowed
