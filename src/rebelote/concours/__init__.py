"""The club tournament: a *concours de belote*, *de coinche* or *tournoi de contrée* (pure
core: no IO, no clock; randomness only from the seed shown to all).

- :mod:`~rebelote.concours.settings`: what is announced (game and rules, the *partie*, the
  format, ranking and tie-breaks, *exempt* and withdrawal rules, the draw, the seed);
- :mod:`~rebelote.concours.model`: entries, tables, *parties*, results;
- :mod:`~rebelote.concours.tirage`: the draw (no rematch while one can be avoided, the *exempt*
  in turn);
- :mod:`~rebelote.concours.ranking`: the ranking, computed, never stored;
- :mod:`~rebelote.concours.sheet`: the check of a paper sheet's sum;
- :mod:`~rebelote.concours.phones`: a table's phone's game as its result;
- :mod:`~rebelote.concours.concours`: :class:`Concours`, which holds them together.
"""

from rebelote.concours.concours import MAX_ENTRIES, MAX_SCORE, Concours
from rebelote.concours.model import Entry, Partie, Result, Table
from rebelote.concours.phones import PhoneResult, counted_deals, phone_result
from rebelote.concours.ranking import Line, draw_key, exempt_points, standings
from rebelote.concours.settings import (
    DRAWS,
    EXEMPTS,
    MODES,
    RANKINGS,
    RESERVES,
    TIEBREAKS,
    WITHDRAWALS,
    Settings,
)
from rebelote.concours.sheet import SheetCheck, check_sheet, checkable
from rebelote.concours.tirage import Draw, draw, draw_order

__all__ = [
    "DRAWS",
    "EXEMPTS",
    "MAX_ENTRIES",
    "MAX_SCORE",
    "MODES",
    "RANKINGS",
    "RESERVES",
    "TIEBREAKS",
    "WITHDRAWALS",
    "Concours",
    "Draw",
    "Entry",
    "Line",
    "Partie",
    "PhoneResult",
    "Result",
    "Settings",
    "SheetCheck",
    "Table",
    "check_sheet",
    "checkable",
    "counted_deals",
    "draw",
    "draw_key",
    "draw_order",
    "exempt_points",
    "phone_result",
    "standings",
]
