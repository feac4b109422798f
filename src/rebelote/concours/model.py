"""The records of a concours: the entries (teams, or players à la mêlée), the tables of each
*partie* and their results. Plain immutable data; :class:`~rebelote.concours.Concours` changes
them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Entry", "Partie", "Result", "Table"]


@dataclass(frozen=True, slots=True)
class Entry:
    """A registered team (doublettes formées) or player (à la mêlée), numbered from 1 in
    registration order. ``arrived``: the number of *parties* drawn when it registered (it plays
    from the next one); ``withdrawn``: the number drawn when it withdrew (it plays none after)."""

    number: int
    name: str
    players: tuple[str, ...] = ()
    paid: bool = False
    arrived: int = 0
    withdrawn: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "name": self.name, "players": list(self.players),
                "paid": self.paid, "arrived": self.arrived, "withdrawn": self.withdrawn}


@dataclass(frozen=True, slots=True)
class Result:
    """A table's result: each side's points (``scores``, in the table's order), how it came
    (``typed`` from a paper sheet, ``counter``: the table's phone, or ``corrected``: the
    organiser's correction of what the phone counted, kept in ``phone``) and, from a sheet,
    the deals, belotes and capots written on it (for the sum check)."""

    scores: tuple[int, int]
    source: str = "typed"
    deals: int | None = None
    belotes: int | None = None
    capots: int | None = None
    phone: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"scores": list(self.scores), "source": self.source}
        for key in ("deals", "belotes", "capots"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.phone is not None:
            out["phone"] = list(self.phone)
        return out


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a *partie*: its number and its two sides (a side is one team, or two
    players à la mêlée), with its result once known. ``game``: the counter game that counts it
    on a phone, if one was opened, and ``key`` its secret (kept for the organiser's links,
    never in the concours's public answers)."""

    number: int
    sides: tuple[tuple[int, ...], tuple[int, ...]]
    result: Result | None = None
    game: str | None = None
    key: str | None = None

    @property
    def entries(self) -> tuple[int, ...]:
        return self.sides[0] + self.sides[1]

    def to_json(self) -> dict[str, Any]:
        return {"table": self.number, "sides": [list(s) for s in self.sides],
                "result": self.result.to_json() if self.result else None, "game": self.game,
                "key": self.key}


@dataclass(frozen=True, slots=True)
class Partie:
    """A drawn *partie*: its tables (numbered from 1) and its *exempts*. ``attempt`` counts the
    organiser's redraws (each draws from its own seed)."""

    number: int
    tables: tuple[Table, ...]
    exempt: tuple[int, ...] = ()
    attempt: int = 0

    @property
    def started(self) -> bool:
        """A result was entered at one of its tables (no redraw or swap after that)."""
        return any(t.result is not None for t in self.tables)

    @property
    def complete(self) -> bool:
        return all(t.result is not None for t in self.tables)

    def table(self, number: int) -> Table:
        from rebelote.errors import InputError

        for t in self.tables:
            if t.number == number:
                return t
        raise InputError("table", f"partie {self.number} has no table {number} (it has "
                                  f"{len(self.tables)})")

    def to_json(self) -> dict[str, Any]:
        return {"partie": self.number, "tables": [t.to_json() for t in self.tables],
                "exempt": list(self.exempt), "attempt": self.attempt}
