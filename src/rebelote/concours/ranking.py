"""The ranking, computed from the settings and the results every time, never stored: a
corrected result re-ranks at once.

Each entry's line: ``points`` (its sides' points at every scored table, plus what its
*exempts* score), ``wins`` (*parties* won: more points than the other side; an *exempt* scored
as a win counts one), ``against`` (the other sides' points), ``difference`` (points made at
tables minus ``against``: an *exempt* counts in neither), ``best`` (its best *partie* at a
table). The order: ``points``, or ``wins`` then ``points``, then the tie-breaks in their
announced order (higher difference, higher best *partie*, fewer points against, the seeded
draw). With the ``last`` withdrawal rule, withdrawn entries come after all the others.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rebelote.concours.model import Entry, Partie
from rebelote.concours.settings import Settings

__all__ = ["Line", "draw_key", "exempt_points", "rank", "standings"]


@dataclass(frozen=True, slots=True)
class Line:
    """One entry's line of the ranking."""

    rank: int
    entry: int
    name: str
    points: int
    wins: int
    against: int
    difference: int
    best: int
    played: int
    exempts: int
    withdrawn: bool

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "team": self.entry, "name": self.name, "points": self.points,
                "wins": self.wins, "against": self.against, "difference": self.difference,
                "best": self.best, "played": self.played, "exempts": self.exempts,
                "withdrawn": self.withdrawn}


def draw_key(seed: str, entry: int) -> str:
    """The seeded draw of the last tie-break: the SHA-256 of ``"<seed>:draw:<entry>"``; the
    smaller comes first. Anyone holding the seed can recompute it."""
    return hashlib.sha256(f"{seed}:draw:{entry}".encode()).hexdigest()


def exempt_points(settings: Settings, partie: Partie) -> int:
    """What an *exempt* of ``partie`` scores: half a *partie*, the mean of the points scored at
    its tables so far (rounded half up), the fixed score of a win, or nothing."""
    if settings.exempt == "half":
        return settings.half_partie
    if settings.exempt == "win":
        return settings.win_score
    if settings.exempt == "average":
        scores = [s for t in partie.tables if t.result for s in t.result.scores]
        return (2 * sum(scores) + len(scores)) // (2 * len(scores)) if scores else 0
    return 0


@dataclass(slots=True)
class _Tally:
    points: int = 0
    made: int = 0
    against: int = 0
    wins: int = 0
    best: int = 0
    played: int = 0
    exempts: int = 0


def _tallies(settings: Settings, entries: Sequence[Entry], parties: Sequence[Partie]
             ) -> dict[int, _Tally]:
    tally = {e.number: _Tally() for e in entries}
    for partie in parties:
        for table in partie.tables:
            if table.result is None:
                continue
            for side, other in ((0, 1), (1, 0)):
                mine, theirs = table.result.scores[side], table.result.scores[other]
                for n in table.sides[side]:
                    t = tally[n]
                    t.points += mine
                    t.made += mine
                    t.against += theirs
                    t.wins += mine > theirs
                    t.best = max(t.best, mine)
                    t.played += 1
        bonus = exempt_points(settings, partie)
        for n in partie.exempt:
            t = tally[n]
            t.exempts += 1
            t.points += bonus
            t.wins += settings.exempt == "win"
    return tally


def _key(settings: Settings, entry: Entry, t: _Tally) -> tuple[Any, ...]:
    key: list[Any] = []
    if settings.withdrawal == "last":
        key.append(entry.withdrawn is not None)
    if settings.ranking == "wins":
        key.append(-t.wins)
    key.append(-t.points)
    for tb in settings.tiebreaks:
        if tb == "difference":
            key.append(t.against - t.made)
        elif tb == "best":
            key.append(-t.best)
        elif tb == "against":
            key.append(t.against)
        else:
            key.append(draw_key(settings.seed, entry.number))
    return tuple(key)


def standings(settings: Settings, entries: Sequence[Entry], parties: Sequence[Partie]
              ) -> list[Line]:
    """The ranking of every entry, first to last. Entries equal on every criterion share a
    rank (only when the seeded draw is not among the tie-breaks)."""
    tally = _tallies(settings, entries, parties)
    keyed = sorted((_key(settings, e, tally[e.number]), e.number, e) for e in entries)
    lines: list[Line] = []
    previous: tuple[Any, ...] | None = None
    rank_now = 0
    for i, (key, _n, e) in enumerate(keyed, start=1):
        if key != previous:
            rank_now, previous = i, key
        t = tally[e.number]
        lines.append(Line(rank_now, e.number, e.name, t.points, t.wins, t.against,
                          t.made - t.against, t.best, t.played, t.exempts,
                          e.withdrawn is not None))
    return lines


def rank(settings: Settings, entries: Sequence[Entry], parties: Sequence[Partie]) -> list[int]:
    """The entries' numbers in ranking order."""
    return [line.entry for line in standings(settings, entries, parties)]
