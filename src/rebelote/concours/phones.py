"""What a table's phone counted, as the concours's result of that table (pure: the counter game
is given already read).

A table counted on a phone is a counter game of the concours's rules and target; a *partie* of
N deals ends after N played deals (a passed deal is dealt again, a correction line is not a
deal; deals typed past the N-th do not count). When the *partie* ends on a litige, the points
it holds wait for a next deal that will not come: the ``reserve_at_end`` setting says who marks
them (the team that did not take, or nobody), so that nothing is lost without a word.

>>> from rebelote.concours.settings import Settings
>>> from rebelote.match import Match
>>> from rebelote.summary import DealSummary
>>> s = Settings.from_json({"name": "x", "game": "belote", "parties": 2, "deals": 2}, seed="s")
>>> m = Match(s.rules, 100_000, ("A", "B"))
>>> m = m.add(DealSummary.from_json({"taker": "NS", "points": {"NS": 100}}, s.rules))
>>> phone_result(s, m, 2) is None
True
>>> m = m.add(DealSummary.from_json({"taker": "EW", "points": {"EW": 81}}, s.rules))
>>> m.result().reserve, phone_result(s, m, 2)
(81, PhoneResult(scores=(262, 62), held=81, held_by=0))
"""

from __future__ import annotations

from dataclasses import dataclass

from rebelote.cards import TEAMS
from rebelote.concours.concours import MAX_SCORE
from rebelote.concours.settings import Settings
from rebelote.match import Match, MatchResult

__all__ = ["PhoneResult", "counted_deals", "phone_result"]


@dataclass(frozen=True, slots=True)
class PhoneResult:
    """The table's two scores (the game's order: NS, EW), with the litige's ``held`` points
    at the end and the side that marked them (``held_by``: 0, 1 or ``None``: nobody)."""

    scores: tuple[int, int]
    held: int = 0
    held_by: int | None = None


def counted_deals(match: Match) -> int:
    """The deals of a counter game that count toward a *partie* of N deals: those played
    (passed deals are dealt again, corrections are not deals)."""
    return sum(d.kind == "deal" for d in match.deals)


def phone_result(settings: Settings, match: Match, limit: int | None,
                 result: MatchResult | None = None) -> PhoneResult | None:
    """The result of a table's game once its *partie* is over (a team won, or ``limit`` deals
    are played), else ``None``. ``result``: the game's scores when the caller has them."""
    if limit is not None and counted_deals(match) > limit:
        kept, n = [], 0
        for d in match.deals:
            n += d.kind == "deal"
            if n > limit:
                break
            kept.append(d)
        match = Match(match.rules, match.target, match.teams, match.start, tuple(kept))
        result = None
    if result is None:
        result = match.result()
    over = result.winner is not None or (limit is not None and counted_deals(match) >= limit)
    if not over:
        return None
    totals = list(result.totals)
    held, held_by = result.reserve, None
    if held and settings.reserve_at_end == "defence":
        taker = next((d.taker for d in reversed(match.deals)
                      if d.kind == "deal" and d.taker is not None), None)
        if taker is not None:
            held_by = 1 - TEAMS.index(taker)
            totals[held_by] += held
    a, b = (max(0, min(MAX_SCORE, x)) for x in totals)
    return PhoneResult((a, b), held, held_by)
