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


# -- watchers (issue 34, item 5): a watch view against the engine's public cards at the time ----
def _state_cards(trick: tuple[int, tuple[int, ...]]) -> set[str]:
    from rebelote.cards import card_str

    return {card_str(c) for c in trick[1]}


def watch_allowed(table: Any, delay: int) -> tuple[set[str], set[str]]:
    """The cards of the deal in play a watcher may see now (the public cards as they were
    before the last trick, for one trick behind), and those it must not (the last trick's and
    the trick in play's, unless public before them): from the engine, not from the view."""
    from rebelote.actions import PLAY, parse_action
    from rebelote.cards import card_str
    from rebelote.table.model import NEXT, _start

    state = _start(table.rules, table.current,
                   table.replay.result if table.replay.finished else None)
    for text in table.current.actions:
        if text != NEXT:
            state = state.apply(parse_action(text))
    obs = state.observation(0)
    public = {card_str(obs.turned)} if obs.turned >= 0 else set()
    for trick in obs.tricks:
        public |= _state_cards(trick)
    public |= {card_str(c) for c in obs.trick}
    for _, combo in obs.shown:
        public |= set(combo.to_json()["cards"])
    public |= {card_str(c) for _, c in obs.belote}
    if delay == 0 or table.is_over:
        return public, set()
    if delay == -1:
        early = {card_str(obs.turned)} if obs.turned >= 0 else set()
        return early, public - early
    if state.phase != PLAY:
        return public, set()
    late = {card_str(c) for c in obs.trick}
    if obs.tricks:
        late |= _state_cards(obs.tricks[-1])
    early = {card_str(obs.turned)} if obs.turned >= 0 else set()
    for trick in obs.tricks[:-1]:
        early |= _state_cards(trick)
    for _, combo in obs.shown:  # shown once the first trick is over, before the last one
        if len(obs.tricks) >= 2:
            early |= set(combo.to_json()["cards"])
    return early, late - early


def watch_leaks(view: dict[str, Any], table: Any, delay: int) -> set[str]:
    """The cards a watch view (:func:`rebelote.table.watching.watch_view`) of ``table`` names
    that its watcher may not see now (its last deal's result apart, public once over); a
    hand, or a count of cards that is not a number, fails at once."""
    assert "hand" not in view and "hands" not in view and "legal" not in view
    rest = {k: v for k, v in view.items() if k not in ("last_result", "id")}
    allowed, forbidden = watch_allowed(table, delay)
    for seat in "NESW":  # how many cards each seat has left, never which
        assert isinstance(view["seats"][seat]["cards"], int)
    if view["last_result"]:
        assert view["last_result"]["deal"] < view["deal"] or view["over"]
    shown = cards_in(rest)
    return (shown - allowed) | (shown & forbidden)
