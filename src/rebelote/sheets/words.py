"""How a deal is written on paper: trump symbols, contracts, outcomes, one-line summaries.

>>> from rebelote.summary import DealSummary
>>> deal = DealSummary(game="coinche", taker="NS", trump=0, points=(97, 65), contract=90,
...                    coinche=2)
>>> trump_short("fr", deal.trump), contract_short("fr", deal), contract_short("en", deal)
('♠', '90 ×2', '90 ×2')
>>> describe("fr", deal)
'NS 90 ♠ ×2\xa0: NS 97, EW 65'
"""

from __future__ import annotations

from typing import Final

from rebelote.cards import SUIT_SYMBOLS
from rebelote.catalogs import colon
from rebelote.rules import NO_TRUMP, TrumpMode
from rebelote.sheets.labels import text
from rebelote.summary import DealSummary

RED_SUITS: Final = frozenset({1, 2})


def trump_short(lang: str, trump: TrumpMode) -> str:
    """``♠ ♥ ♦ ♣`` for a suit, ``SA``/``TA`` (``NT``/``AT`` in English) otherwise."""
    if trump < NO_TRUMP:
        return SUIT_SYMBOLS[trump]
    return text(lang, f"trump.short.{trump}")


def trump_long(lang: str, trump: TrumpMode) -> str:
    """The trump's name: ``cœur``, ``sans-atout``; ``hearts``, ``no-trump``."""
    return text(lang, f"trump.{trump}")


def contract_short(lang: str, deal: DealSummary, multiplier: int | None = None) -> str:
    """A contract as written on a sheet: ``100``, ``capot ×2``, ``générale``; ``multiplier``
    is the rule set's for the deal's coinche (a surcoinche may be ×3)."""
    if deal.contract is None:
        return ""
    if isinstance(deal.contract, str):
        value = text(lang, f"contract.{deal.contract}")
    else:
        value = str(deal.contract)
    return f"{value} ×{multiplier or deal.coinche}" if deal.coinche > 1 else value


def outcome_word(lang: str, outcome: str) -> str:
    """``réussi``, ``chute``, ``litige``, ``donne nulle``, ``ajustement`` (or English)."""
    return text(lang, f"outcome.{outcome}")


def describe(lang: str, deal: DealSummary) -> str:
    """A deal in one line, as a counter would say it: taker, contract, and each team's points.

    Declarations and belote follow the points of the team that has them.
    """
    head = f"{deal.taker or ''} "
    if isinstance(deal.contract, str):
        head += text(lang, f"contract.{deal.contract}") + " "
    elif deal.contract is not None:
        head += f"{deal.contract} "
    head += trump_short(lang, deal.trump)
    if deal.coinche > 1:
        head += f" ×{deal.coinche}"
    sep = colon(lang) + " "
    parts = []
    for i, team in enumerate(("NS", "EW")):
        part = f"{team} {deal.points[i]}"
        if deal.declarations[i]:
            part += f" + {text(lang, 'word.declarations')} {deal.declarations[i]}"
        if deal.belote[i]:
            part += f" + {text(lang, 'word.belote')}"
        parts.append(part)
    return head + sep + ", ".join(parts)
