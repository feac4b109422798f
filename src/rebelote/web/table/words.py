"""The play table's words in French and English: the page's labels, cards and calls as a
screen reader says them. The words are written in English here and in the templates; their
French is in the project's one translation system, the gettext catalogs
(``rebelote/locale/fr/LC_MESSAGES/rebelote.po``, context ``table``). The result card's lines
come from the counter's catalog (:func:`rebelote.web.i18n.line_text`), so both say the same."""

from __future__ import annotations

import re
from typing import Final

from rebelote.bots import level_of_spec
from rebelote.cards import RANKS, SEATS, SUITS
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


#: A seat's bot as the table names it beside the seat, short, when its spec is no level for
#: people (a table made through the API with ``random``).
_BOT_SHORT: Final = {"random": "random bot", "heuristic": "heuristic bot", "pimc": "search bot"}


def bot_short(spec: str, lang: str) -> str:
    """A seat's bot, short: its level's name as the start form offered it (``robot fort``,
    ``strong bot`` for ``pimc``); else its kind (``robot au hasard`` for ``random``, ``search
    bot`` for ``pimc:infer``); a spec the table does not know: ``robot`` and the spec.

    >>> bot_short("pimc", "fr"), bot_short("heuristic", "en"), bot_short("random", "fr")
    ('robot fort', 'beginner bot', 'robot au hasard')
    >>> bot_short("pimc:infer", "en"), bot_short("odd:9", "fr")
    ('search bot', 'robot odd:9')
    """
    level = level_of_spec(spec)
    if level is not None:
        name = level.name(lang)
        return f"{tr(lang, 'bot')} {name}" if lang == "fr" else f"{name} {tr(lang, 'bot')}"
    kind = spec.partition(":")[0]
    if kind in _BOT_SHORT:
        return tr(lang, _BOT_SHORT[kind])
    return f"{tr(lang, 'bot')} {spec}"


def bid_words(bid: str, lang: str) -> str:
    """A call as said: ``90 cœur``, ``passe``, ``capot pique``, ``coinche``."""
    return " ".join(tr(lang, w) for w in bid.split())


def seat_word(seat: str, lang: str) -> str:
    return tr(lang, SEAT_WORDS[seat])


assert set(_RANK_EN) == set(RANKS)


# -- the engine's refusals, in the page's language ----------------------------------------------
# A refused move reaches the page as the engine's sentence (English, seats as absolute letters,
# the API answers it as it is): ``S 7D: must follow hearts``, ``S pass: it is N's turn, not
# S's``, ``S 80 spades: a bid must be above the current contract (90 hearts)``. Each pattern
# below reads one rule's sentence; the first that matches gives the page's sentence (English
# here, French in the catalog, context ``table``), with the card said in words, the call as the
# page says it and the seat as the viewer sees it (the viewer sits South).
_CARD = r"(?P<card>[789TJQKA][SHDC])"
_SEAT = r"[NESW]"
_SUIT = r"(?P<suit>spades|hearts|diamonds|clubs)"
_BID = r"(?P<bid>[\w -]+?)"
REFUSALS: Final[tuple[tuple[str, str], ...]] = (
    (rf"{_SEAT} .+?: this seat is yours from deal (?P<n>\d+); its bot plays deal \d+",
     "You watch this deal: your seat is yours from deal %(n)s."),
    (rf"{_SEAT} .+?: it is (?P<turn>{_SEAT})'s turn, not {_SEAT}'s",
     "It is not your turn: %(turn)s is to play."),
    (rf"{_SEAT} {_CARD} is not in the hand", "%(card)s: this card is not in your hand."),
    (rf"{_SEAT} {_CARD}: must follow {_SUIT}", "%(card)s: you must follow suit (%(suit)s)."),
    (rf"{_SEAT} {_CARD}: must play higher than the best {_SUIT} in the trick",
     "%(card)s: you must play higher than the best %(suit)s in the trick."),
    (rf"{_SEAT} {_CARD}: void in {_SUIT}, must trump \(the opponents are winning\)",
     "%(card)s: you have no %(suit)s and the opponents are winning the trick: you must trump."),
    (rf"{_SEAT} {_CARD}: must overtrump", "%(card)s: you must overtrump."),
    (rf"{_SEAT} {_CARD}: (not allowed here|illegal)", "%(card)s: this card may not be played now."),
    (rf"{_SEAT} \S+: cards are played after the auction",
     "Cards are played after the auction: make a call."),
    (rf"{_SEAT} {_BID}: the auction is over, play a card", "The auction is over: play a card."),
    (rf"(?:{_SEAT} )?{_BID}: the auction is over", "The auction is over: play a card."),
    (rf"{_SEAT} {_BID}: in the second round, name another suit or pass",
     "In the second round, name another suit or pass."),
    (rf"{_SEAT} {_BID}: in the first round, take the turned suit or pass",
     "In the first round, take the turned card's suit or pass."),
    (rf"{_SEAT} {_BID}: the second round names a suit other than the turned one",
     "The second round names a suit other than the turned card's."),
    (rf"{_SEAT} {_BID}: no-trump and all-trump are not bids of this rule set",
     "No-trump and all-trump are not played under these rules."),
    (rf"{_SEAT} {_BID}: not a belote bid .*",
     "In belote, take, pass, or name a suit in the second round."),
    (rf"{_SEAT} {_BID}: a coinche bid names a value and a trump.*",
     "In coinche, a bid names a value and a trump, like 90 hearts."),
    (rf"{_SEAT} coinche: there is no contract to coinche", "There is no contract to coinche."),
    (rf"{_SEAT} coinche: the contract is already coinched",
     "The contract is already coinched."),
    (rf"{_SEAT} coinche: only an opponent of the bidder may coinche.*",
     "Only an opponent of the bidder may coinche."),
    (rf"{_SEAT} coinche: a capot may not be coinched.*",
     "A capot may not be coinched under these rules."),
    (rf"{_SEAT} surcoinche: only a coinched contract.*",
     "Only a coinched contract may be surcoinched."),
    (rf"{_SEAT} surcoinche: only the coinched team.*",
     "Only the coinched team may surcoinche."),
    (rf"{_SEAT} {_BID}: no bid after a coinche, only pass or surcoinche",
     "No bid after a coinche: pass or surcoinche."),
    (rf"{_SEAT} {_BID}: the generale is not played under these rules",
     "The générale is not played under these rules."),
    (rf"{_SEAT} {_BID}: a bid must be above the current contract \((?P<best>[\w -]+)\)",
     "%(bid)s: a bid must be above the current contract (%(best)s)."),
    (r".*: the game is over.*", "The game is over."),
    (r".*: the deal is over", "The deal is over."),
    (r"action: missing.*", "Choose a call or a card."),
    (r".*",  # any other refusal of the engine: a move it does not read (a form tampered with)
     "This move is not allowed here."),
)


def refusal_text(message: str, lang: str, viewer: int) -> str:
    """The engine's refusal ``message`` (its English sentence, seats as absolute letters) as
    the table's page says it in ``lang`` to the seat ``viewer`` (0..3, who sits South on its
    page).

    >>> refusal_text("S 7D: must follow hearts", "fr", 2)
    'Sept de carreau\xa0: vous devez fournir à la couleur demandée (cœur).'
    >>> refusal_text("E pass: it is N's turn, not E's", "fr", 1)  # E sees N on its right
    'Ce n’est pas votre tour\xa0: c’est à Est de jouer.'
    >>> refusal_text("S 80 spades: a bid must be above the current contract (90 hearts)",
    ...              "en", 2)
    '80 spades: a bid must be above the current contract (90 hearts).'
    """
    for pattern, sentence in REFUSALS:
        found = re.fullmatch(pattern, message.strip(), flags=re.S)
        if not found:
            continue
        values: dict[str, str] = {}
        for key, raw in found.groupdict().items():
            if raw is None:
                continue
            if key == "card":
                values[key] = card_words(raw, lang)
            elif key == "suit":
                values[key] = tr(lang, raw)
            elif key == "n":
                values[key] = raw
            elif key == "turn":
                rel = SEATS[(SEATS.index(raw) - viewer + 2) % 4]
                values[key] = tr(lang, "your partner") if rel == "N" else seat_word(rel, lang)
            else:
                values[key] = bid_words(raw, lang)
        text = tr(lang, sentence) % values
        return text[:1].upper() + text[1:]
    return message  # pragma: no cover  (the last pattern matches anything)
