"""The play table's words in French and English: the page's labels, cards and calls as a
screen reader says them. The words are written in English here and in the templates; their
French is in the project's one translation system, the gettext catalogs
(``rebelote/locale/fr/LC_MESSAGES/rebelote.po``, context ``table``). The result card's lines
come from the counter's catalog (:func:`rebelote.web.i18n.line_text`), so both say the same."""

from __future__ import annotations

from typing import Final

from rebelote.cards import RANKS, SUITS
from rebelote.catalogs import pgettext

_RANK_EN: Final = {"7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack",
                   "Q": "queen", "K": "king", "A": "ace"}
_RANK_SHOWN: Final = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "V", "Q": "D", "K": "R",
                      "A": "A"}
_RANK_SHOWN_EN: Final = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "J", "Q": "Q",
                         "K": "K", "A": "A"}
_SUIT_SYMBOL: Final = dict(zip(SUITS, ("♠", "♥", "♦", "♣"), strict=True))
_SUIT_WORD: Final = dict(zip(SUITS, ("spades", "hearts", "diamonds", "clubs"), strict=True))
SEAT_WORDS: Final = {"N": "North", "E": "East", "S": "South", "W": "West"}


def tr(lang: str, text: str) -> str:
    """``text`` (English) in ``lang``, from the project's gettext catalogs (context ``table``).

    >>> tr("fr", "Your turn"), tr("en", "Your turn"), tr("fr", "jack")
    ('À vous', 'Your turn', 'valet')
    """
    return pgettext(lang, "table", text)


def card_face(card: str, lang: str) -> str:
    """A card as printed on it: ``V♥``, ``10♠`` (``J♥`` in English)."""
    ranks = _RANK_SHOWN if lang == "fr" else _RANK_SHOWN_EN
    return ranks[card[0]] + _SUIT_SYMBOL[card[1]]


def card_words(card: str, lang: str) -> str:
    """A card as a screen reader says it: ``valet de cœur``, ``jack of hearts``."""
    if lang == "fr":
        return f"{tr(lang, _RANK_EN[card[0]])} de {tr(lang, _SUIT_WORD[card[1]])}"
    return f"{_RANK_EN[card[0]]} of {_SUIT_WORD[card[1]]}"


def is_red(card: str) -> bool:
    return card[1] in ("H", "D")


#: The bots of the registry as the start form names them (a spec it does not know is shown as
#: it is written).
_BOT_WORDS: Final = {"random": "random play", "heuristic": "heuristic (quick)",
                     "pimc": "search (pimc)"}
_LEVEL_WORDS: Final = {"default": "about a quarter of a second a card", "fast": "fast",
                       "strong": "strong"}


def bot_words(spec: str, lang: str) -> str:
    """A bot's spec as the start form says it: ``recherche (pimc) · rapide`` for ``pimc:fast``.

    >>> bot_words("pimc:fast", "fr"), bot_words("heuristic", "en"), bot_words("odd:9", "fr")
    ('recherche (pimc) · rapide', 'heuristic (quick)', 'odd · 9')
    """
    name, _, level = spec.partition(":")
    out = tr(lang, _BOT_WORDS.get(name, name))
    if level:
        out += " · " + tr(lang, _LEVEL_WORDS.get(level, level))
    return out


def bid_words(bid: str, lang: str) -> str:
    """A call as said: ``90 cœur``, ``passe``, ``capot pique``, ``coinche``."""
    return " ".join(tr(lang, w) for w in bid.split())


def seat_word(seat: str, lang: str) -> str:
    return tr(lang, SEAT_WORDS[seat])


assert set(_RANK_EN) == set(RANKS)
