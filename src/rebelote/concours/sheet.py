"""The check of a paper *feuille de table*'s totals, where the rules allow one.

In belote with no declarations and no rounding every deal gives out 162 points (cards and dix
de der), a belote 20 more and a capot 90 more (252 instead of 162): the two totals of a sheet
sum to ``162 × deals + 20 × belotes + 90 × capots`` (1944 for 12 deals without either). A sum
that no count of belotes and capots explains asks to check the sheet (a forgotten belote, a
capot, a slip of the pen). Coinche and contrée marks depend on the contracts: no check.

>>> from rebelote.concours.settings import Settings
>>> s = Settings.from_json({"name": "x", "game": "belote", "options": {"declarations": False},
...                         "parties": 4, "deals": 12}, seed="s")
>>> check_sheet(s, (1204, 740)).ok, check_sheet(s, (1204, 750)).ok
(True, False)
>>> check_sheet(s, (1204, 780), belotes=2).ok
True
"""

from __future__ import annotations

from dataclasses import dataclass

from rebelote.concours.settings import DEAL_POINTS, Settings
from rebelote.rules import BELOTE_POINTS, CAPOT_LAST_TRICK, DIX_DE_DER

__all__ = ["CAPOT_EXTRA", "SheetCheck", "check_sheet", "checkable"]

#: What a capot adds to a deal's 162: 252 - 162.
CAPOT_EXTRA = CAPOT_LAST_TRICK - DIX_DE_DER


@dataclass(frozen=True, slots=True)
class SheetCheck:
    """``ok`` when the sum is one a sheet of ``deals`` deals can have; ``expected`` the sum
    the belotes and capots written on it give (when both were given)."""

    ok: bool
    total: int
    deals: int
    expected: int | None
    reason: str


def checkable(settings: Settings) -> bool:
    """The rules fix a sheet's sum: belote, no declarations, no rounding."""
    rules = settings.rules
    return rules.game == "belote" and not rules.declarations and rules.rounding == "none"


def check_sheet(settings: Settings, scores: tuple[int, int], deals: int | None = None,
                belotes: int | None = None, capots: int | None = None) -> SheetCheck | None:
    """Check a sheet's two totals; ``None`` when the rules or the partie leave the sum open
    (the number of deals unknown in a partie to a target)."""
    if not checkable(settings):
        return None
    if deals is None:
        if settings.target is not None:
            return None
        deals = settings.deals
    if deals is None:
        return None
    total = scores[0] + scores[1]
    base = DEAL_POINTS * deals
    b_range = [belotes] if belotes is not None else list(range(deals + 1))
    c_range = [capots] if capots is not None else list(range(deals + 1))
    ok = any(base + BELOTE_POINTS * b + CAPOT_EXTRA * c == total for b in b_range
             for c in c_range)
    expected = (base + BELOTE_POINTS * belotes + CAPOT_EXTRA * capots
                if belotes is not None and capots is not None else None)
    if ok:
        reason = f"{scores[0]} + {scores[1]} = {total}: a sheet of {deals} deals"
    elif expected is not None:
        reason = (f"{scores[0]} + {scores[1]} = {total}, and {deals} deals with {belotes} "
                  f"belotes and {capots} capots make {expected}: check the sheet")
    else:
        reason = (f"{scores[0]} + {scores[1]} = {total}, and {deals} deals make "
                  f"{DEAL_POINTS} × {deals} = {base} plus 20 a belote and 90 a capot: "
                  "check the sheet")
    return SheetCheck(ok, total, deals, expected, reason)
