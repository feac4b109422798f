"""A concours: its settings, its entries in registration order, its drawn *parties* and their
results. Immutable: every change returns a new :class:`Concours`; the ranking is computed from
it each time (:meth:`Concours.standings`), never stored.

>>> c = Concours.from_new({"name": "Concours de la Saint-Jean", "game": "belote",
...                        "parties": 2, "deals": 12, "ranking": "points", "exempt": "half",
...                        "teams": [{"name": "Les As"}, {"name": "Les Rois"},
...                                  {"name": "Les Dames"}]}, seed="abc")
>>> c = c.draw_next()
>>> (t,) = c.parties[0].tables
>>> a, b = t.entries
>>> c = c.record(1, 1, {str(a): 1204, str(b): 740})
>>> [(line.rank, line.points) for line in c.standings()]
[(1, 1204), (2, 972), (3, 740)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from rebelote.concours.model import Entry, Partie, Result, Table
from rebelote.concours.ranking import Line, exempt_points, standings
from rebelote.concours.settings import SETTING_KEYS, Settings, check_name
from rebelote.concours.sheet import SheetCheck, check_sheet
from rebelote.concours.tirage import Sides, draw, history, repeats_of
from rebelote.errors import InputError

__all__ = ["MAX_ENTRIES", "MAX_SCORE", "Concours"]

#: The most entries a concours takes (150 doublettes is a big one; à la mêlée 4 per table).
MAX_ENTRIES: Final = 1000
#: The most points a side scores in one *partie*.
MAX_SCORE: Final = 100_000
_PLAYERS_MAX: Final = 4
_SOURCES: Final = ("typed", "counter")
#: How a result came: from a paper sheet, the table's phone, or the organiser's correction of
#: the phone's.
SOURCES: Final = ("typed", "counter", "corrected")


def _entry_from_json(obj: Any, field: str, number: int, arrived: int, melee: bool) -> Entry:
    if isinstance(obj, str):
        obj = {"name": obj}
    if not isinstance(obj, Mapping):
        raise InputError(field, "a team is an object like {\"name\": \"Les As\", "
                                "\"players\": [\"Anne\", \"Marc\"]}")
    unknown = sorted(k for k in obj if k not in ("name", "players", "paid"))
    if unknown:
        raise InputError(f"{field}.{unknown[0]}", "unknown field of a team (known: name, "
                                                 "players, paid)")
    name = check_name(obj.get("name"), f"{field}.name")
    raw_players = obj.get("players") or []
    if not isinstance(raw_players, list) or len(raw_players) > _PLAYERS_MAX:
        raise InputError(f"{field}.players", f"must be a list of at most {_PLAYERS_MAX} names")
    if melee and raw_players:
        raise InputError(f"{field}.players", "à la mêlée each entry is one player: its name")
    players = tuple(check_name(p, f"{field}.players[{i}]", 40)
                    for i, p in enumerate(raw_players))
    paid = obj.get("paid", False)
    if not isinstance(paid, bool):
        raise InputError(f"{field}.paid", "must be true or false")
    return Entry(number, name, players, paid, arrived)


def _score(raw: Any, field: str) -> int:
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= MAX_SCORE:
        raise InputError(field, f"must be a whole number of points from 0 to {MAX_SCORE}, not "
                                f"{str(raw)[:20]!r}")
    return raw


def _count(obj: Mapping[str, Any], key: str, limit: int) -> int | None:
    raw = obj.get(key)
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= limit:
        raise InputError(key, f"must be a whole number from 0 to {limit}")
    return raw


@dataclass(frozen=True, slots=True)
class Concours:
    """A concours; its entries are numbered from 1 in registration order."""

    settings: Settings
    entries: tuple[Entry, ...] = ()
    parties: tuple[Partie, ...] = ()
    #: The prize of each rank (the first for rank 1), typed by the organiser.
    prizes: tuple[str, ...] = ()
    #: The counter games opened so far for its tables' phones (those of a draw undone too):
    #: what bounds them.
    phones_made: int = 0

    # -- creation -------------------------------------------------------------------------
    @classmethod
    def from_new(cls, obj: Mapping[str, Any], seed: str | None = None) -> Concours:
        """A concours from the body of ``POST /api/concours`` (settings and ``teams``)."""
        if not isinstance(obj, Mapping):
            raise InputError("", "a concours is a JSON object")
        unknown = sorted(k for k in obj if k not in SETTING_KEYS | {"teams"})
        if unknown:
            raise InputError(str(unknown[0])[:40], "unknown field of a concours (known: "
                             + ", ".join(sorted(SETTING_KEYS | {"teams"})) + ")")
        settings = Settings.from_json(obj, seed)
        raw_teams = obj.get("teams") or []
        if not isinstance(raw_teams, list):
            raise InputError("teams", "must be a list of teams like {\"name\": \"Les As\"}")
        if len(raw_teams) > MAX_ENTRIES:
            raise InputError("teams", f"at most {MAX_ENTRIES} entries")
        melee = settings.mode == "melee"
        entries = tuple(_entry_from_json(t, f"teams[{i}]", i + 1, 0, melee)
                        for i, t in enumerate(raw_teams))
        return cls(settings, entries)

    # -- reading --------------------------------------------------------------------------
    def entry(self, number: int) -> Entry:
        if isinstance(number, bool) or not isinstance(number, int) \
                or not 1 <= number <= len(self.entries):
            raise InputError("team", f"there is no team {str(number)[:20]} (teams are numbered"
                                     f" 1 to {len(self.entries)})")
        return self.entries[number - 1]

    def partie(self, k: int) -> Partie:
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= len(self.parties):
            raise InputError("partie", f"there is no partie {str(k)[:20]} ({len(self.parties)} "
                                       "drawn)")
        return self.parties[k - 1]

    @property
    def active(self) -> list[Entry]:
        return [e for e in self.entries if e.withdrawn is None]

    @property
    def ranked(self) -> bool:
        """A result is in (before it, every entry is level at 0: nobody is ranked yet)."""
        return any(t.result is not None for p in self.parties for t in p.tables)

    def closed(self, k: int) -> bool:
        """*Partie* ``k`` is closed: the next one is drawn (or the concours is over). Its
        results change only by the organiser's correction, no longer from a table's phone."""
        self.partie(k)
        return k < len(self.parties) or self.over

    @property
    def over(self) -> bool:
        """Every announced *partie* is drawn and scored."""
        return len(self.parties) >= self.settings.parties and all(
            p.complete for p in self.parties)

    def standings(self) -> list[Line]:
        """The ranking now (:mod:`rebelote.concours.ranking`)."""
        return standings(self.settings, self.entries, self.parties)

    def repeats(self, k: int) -> int:
        """The tables of *partie* ``k`` whose sides had met before."""
        partie = self.partie(k)
        return repeats_of(self.settings, (t.sides for t in partie.tables),
                          history(self.settings, self.parties[: k - 1]))

    def check(self, k: int, t: int) -> SheetCheck | None:
        """The sheet check of table ``t``'s result in *partie* ``k`` (``None``: none possible
        or no result)."""
        result = self.partie(k).table(t).result
        if result is None:
            return None
        return check_sheet(self.settings, result.scores, result.deals, result.belotes,
                           result.capots)

    # -- registration ---------------------------------------------------------------------
    def add_entry(self, obj: Any) -> Concours:
        """A new team (or player) at the door; it plays from the next *partie* drawn."""
        if len(self.entries) >= MAX_ENTRIES:
            raise InputError("teams", f"at most {MAX_ENTRIES} entries")
        entry = _entry_from_json(obj, "team", len(self.entries) + 1, len(self.parties),
                                 self.settings.mode == "melee")
        return replace(self, entries=(*self.entries, entry))

    def update_entry(self, number: int, obj: Any) -> Concours:
        """Correct a team's name, players or fee."""
        old = self.entry(number)
        new = _entry_from_json(obj, "team", number, old.arrived, self.settings.mode == "melee")
        new = replace(new, withdrawn=old.withdrawn)
        entries = list(self.entries)
        entries[number - 1] = new
        return replace(self, entries=tuple(entries))

    def withdraw(self, number: int) -> Concours:
        """The team leaves: it is in no *partie* drawn from now on (its points kept, or ranked
        last: the ``withdrawal`` setting)."""
        entry = self.entry(number)
        if entry.withdrawn is not None:
            raise InputError("team", f"team {number} withdrew already (after partie "
                                     f"{entry.withdrawn})")
        entries = list(self.entries)
        entries[number - 1] = replace(entry, withdrawn=len(self.parties))
        return replace(self, entries=tuple(entries))

    def reinstate(self, number: int) -> Concours:
        """Take a withdrawal back, while no *partie* was drawn since it (the team then plays
        the next one as if it had never left)."""
        entry = self.entry(number)
        if entry.withdrawn is None:
            raise InputError("team", f"team {number} has not withdrawn")
        if entry.withdrawn != len(self.parties):
            raise InputError("team", f"team {number} withdrew after partie {entry.withdrawn} "
                                     f"and partie {entry.withdrawn + 1} is drawn since: "
                                     "register it again")
        entries = list(self.entries)
        entries[number - 1] = replace(entry, withdrawn=None)
        return replace(self, entries=tuple(entries))

    def set_parties(self, parties: int) -> Concours:
        """Add *parties*, or end the concours early (not below those already drawn)."""
        if isinstance(parties, int) and not isinstance(parties, bool) \
                and parties < len(self.parties):
            raise InputError("parties", f"{len(self.parties)} parties are drawn already")
        return replace(self, settings=self.settings.with_parties(parties))

    # -- the draw -------------------------------------------------------------------------
    def draw_next(self) -> Concours:
        """Draw the next *partie* (the previous one must be fully scored)."""
        k = len(self.parties) + 1
        if k > self.settings.parties:
            raise InputError("partie", f"the concours has {self.settings.parties} parties, "
                                       "all drawn (add one in the settings to play more)")
        if self.parties and not self.parties[-1].complete:
            missing = [t.number for t in self.parties[-1].tables if t.result is None]
            raise InputError("partie", f"partie {k - 1} is not over: table "
                                       f"{', '.join(map(str, missing[:10]))} has no result yet")
        return replace(self, parties=(*self.parties, self._drawn(k, 0)))

    def _drawn(self, k: int, attempt: int) -> Partie:
        d = draw(self.settings, self.entries, self.parties[: k - 1], attempt)
        tables = tuple(Table(i, sides) for i, sides in enumerate(d.tables, start=1))
        return Partie(k, tables, d.exempt, attempt)

    def _open_last(self, k: int, what: str) -> Partie:
        partie = self.partie(k)
        if k != len(self.parties):
            raise InputError("partie", f"only the last partie drawn ({len(self.parties)}) can be"
                                       f" {what}")
        if partie.started:
            raise InputError("partie", f"partie {k} has a result already: it cannot be {what}")
        return partie

    def redraw(self, k: int) -> Concours:
        """Draw *partie* ``k`` again (the last, before its first result), from the next seed:
        teams that came or left since take part or not."""
        partie = self._open_last(k, "drawn again")
        return replace(self, parties=(*self.parties[:-1], self._drawn(k, partie.attempt + 1)))

    def cancel(self, k: int) -> Concours:
        """Forget the draw of *partie* ``k`` (the last, before its first result)."""
        self._open_last(k, "cancelled")
        return replace(self, parties=self.parties[:-1])

    def swap(self, k: int, a: int, b: int) -> Concours:
        """Exchange the places of teams ``a`` and ``b`` in *partie* ``k`` (the last, before its
        first result); either may be the *exempt*."""
        partie = self._open_last(k, "changed")
        self.entry(a)
        self.entry(b)
        if a == b:
            raise InputError("team", "swap two different teams")
        placed = {n for t in partie.tables for n in t.entries} | set(partie.exempt)
        for n in (a, b):
            if n not in placed:
                raise InputError("team", f"team {n} is not in partie {k}")

        def moved(n: int) -> int:
            return b if n == a else a if n == b else n

        tables = tuple(replace(t, sides=(tuple(map(moved, t.sides[0])),
                                         tuple(map(moved, t.sides[1]))), game=None,
                               key=None)
                       for t in partie.tables)
        exempt = tuple(sorted(map(moved, partie.exempt)))
        return self._with_partie(replace(partie, tables=tables, exempt=exempt))

    def _with_partie(self, partie: Partie) -> Concours:
        parties = list(self.parties)
        parties[partie.number - 1] = partie
        return replace(self, parties=tuple(parties))

    # -- results --------------------------------------------------------------------------
    def read_scores(self, k: int, t: int, raw: Any) -> tuple[int, int]:
        """A table's two scores from ``{"3": 1204, "7": 740}`` (by team number; à la mêlée any
        player of the pair) or ``[1204, 740]`` (in the table's order)."""
        table = self.partie(k).table(t)
        if isinstance(raw, list):
            if len(raw) != 2:
                raise InputError("scores", "two scores, one per side of the table")
            return _score(raw[0], "scores[0]"), _score(raw[1], "scores[1]")
        if not isinstance(raw, Mapping):
            raise InputError("scores", "must be an object of each team's points, like "
                             + "{" + ", ".join(f'"{s[0]}": 0' for s in table.sides) + "}")
        got: list[int | None] = [None, None]
        for key, value in raw.items():
            try:
                n = int(str(key).strip())
            except ValueError:
                n = -1
            side = next((i for i, s in enumerate(table.sides) if n in s), None)
            if side is None:
                teams = " and ".join("+".join(map(str, s)) for s in table.sides)
                raise InputError(f"scores.{str(key)[:20]}", f"not at table {t} of partie {k} "
                                                            f"(it seats {teams})")
            if got[side] is not None:
                raise InputError(f"scores.{str(key)[:20]}", "this side's score is given twice")
            got[side] = _score(value, f"scores.{str(key)[:20]}")
        if got[0] is None or got[1] is None:
            missing = table.sides[0 if got[0] is None else 1][0]
            raise InputError(f"scores.{missing}", "missing: both sides' points")
        return got[0], got[1]

    def record(self, k: int, t: int, scores: Any, *, source: str = "typed",
               sheet: Mapping[str, Any] | None = None) -> Concours:
        """Enter (or correct) table ``t``'s result in *partie* ``k``; ``sheet`` may give the
        deals, belotes and capots written on the paper sheet (for its check)."""
        partie = self.partie(k)
        table = partie.table(t)
        pair = self.read_scores(k, t, scores)
        if source not in _SOURCES:
            raise InputError("source", f"one of {', '.join(_SOURCES)}")
        sheet = sheet or {}
        from rebelote.concours.settings import MAX_DEALS

        old = table.result
        phone = None
        if source == "typed" and old is not None and old.source in ("counter", "corrected"):
            # The organiser corrects what the phone counted: the page shows both.
            phone = old.phone if old.source == "corrected" else old.scores
            source = "corrected" if phone != pair else "counter"
            if source == "counter":
                phone = None
        result = Result(pair, source, _count(sheet, "deals", MAX_DEALS),
                        _count(sheet, "belotes", MAX_DEALS), _count(sheet, "capots", MAX_DEALS),
                        phone)
        tables = tuple(replace(x, result=result) if x.number == table.number else x
                       for x in partie.tables)
        return self._with_partie(replace(partie, tables=tables))

    def clear(self, k: int, t: int) -> Concours:
        """Forget table ``t``'s result in *partie* ``k``."""
        partie = self.partie(k)
        partie.table(t)
        tables = tuple(replace(x, result=None) if x.number == t else x for x in partie.tables)
        return self._with_partie(replace(partie, tables=tables))

    def settle(self, k: int, t: int, scores: tuple[int, int] | None) -> Concours:
        """The result that table ``t``'s phone counted in *partie* ``k`` (``None``: its partie
        is not over on the phone, e.g. a deal undone): the concours follows the phone until the
        *partie* is closed (:meth:`closed`), then refuses it. A result the organiser typed or
        corrected is the organiser's: the phone no longer changes it."""
        if self.closed(k):
            raise InputError("partie", f"partie {k} of the concours is closed (the next one is "
                                       "drawn): its results change only by the organiser's "
                                       "correction")
        old = self.partie(k).table(t).result
        if old is not None and old.source != "counter":
            return self
        if scores is None:
            return self if old is None else self.clear(k, t)
        if old is not None and old.scores == scores:
            return self
        return self.record(k, t, list(scores), source="counter")

    def link(self, k: int, t: int, game: str | None, key: str | None = None) -> Concours:
        """Table ``t`` of *partie* ``k`` is counted by the counter game ``game`` (whose secret
        is ``key``)."""
        partie = self.partie(k)
        partie.table(t)
        tables = tuple(replace(x, game=game, key=key) if x.number == t else x
                       for x in partie.tables)
        return self._with_partie(replace(partie, tables=tables))

    def set_prizes(self, prizes: Any) -> Concours:
        """The prize of each rank, from the first: a list of short texts (empty: none)."""
        if not isinstance(prizes, list) or len(prizes) > MAX_ENTRIES:
            raise InputError("prizes", f"a list of at most {MAX_ENTRIES} prizes, the first for "
                                       "rank 1")
        out = []
        for i, p in enumerate(prizes):
            if not isinstance(p, str) or len(p) > 120 or any(ord(c) < 32 for c in p):
                raise InputError(f"prizes[{i}]", "a prize is a text of at most 120 characters")
            out.append(" ".join(p.split()))
        while out and not out[-1]:
            out.pop()
        return replace(self, prizes=tuple(out))

    # -- JSON -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Everything, as :meth:`from_json` reads it back (what the store keeps)."""
        return {"settings": self.settings.to_json(),
                "entries": [e.to_json() for e in self.entries],
                "parties": [p.to_json() for p in self.parties],
                "prizes": list(self.prizes), "phones_made": self.phones_made}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Concours:
        """Read :meth:`to_json` back."""
        settings = Settings.from_json(obj["settings"])
        entries = tuple(Entry(int(e["number"]), str(e["name"]), tuple(e.get("players", ())),
                              bool(e.get("paid", False)), int(e.get("arrived", 0)),
                              e.get("withdrawn")) for e in obj.get("entries", ()))
        parties = []
        for p in obj.get("parties", ()):
            tables = []
            for t in p["tables"]:
                r = t.get("result")
                phone = r.get("phone") if r is not None else None
                result = None if r is None else Result(
                    (int(r["scores"][0]), int(r["scores"][1])), str(r.get("source", "typed")),
                    r.get("deals"), r.get("belotes"), r.get("capots"),
                    None if phone is None else (int(phone[0]), int(phone[1])))
                sides: Sides = (tuple(t["sides"][0]), tuple(t["sides"][1]))
                tables.append(Table(int(t["table"]), sides, result, t.get("game"),
                                    t.get("key")))
            parties.append(Partie(int(p["partie"]), tuple(tables), tuple(p.get("exempt", ())),
                                  int(p.get("attempt", 0))))
        return cls(settings, entries, tuple(parties), tuple(obj.get("prizes", ())),
                   int(obj.get("phones_made", 0)))

    def side_json(self, side: Sequence[int]) -> int | list[int]:
        return side[0] if self.settings.side_size == 1 else list(side)

    def view_json(self) -> dict[str, Any]:
        """What ``GET /api/concours/{id}`` answers: the settings, the teams, the *parties*
        (each table's teams by number, its scores by team and its sheet check) and the
        ``ranking``."""
        parties = []
        for p in self.parties:
            tables = []
            for t in p.tables:
                scores = None
                if t.result is not None:
                    scores = {str(s[0]): t.result.scores[i] for i, s in enumerate(t.sides)}
                check = self.check(p.number, t.number)
                tables.append({
                    "table": t.number, "teams": [self.side_json(s) for s in t.sides],
                    "scores": scores, "source": t.result.source if t.result else None,
                    "phone": ({str(s[0]): t.result.phone[i] for i, s in enumerate(t.sides)}
                              if t.result is not None and t.result.phone is not None
                              else None),
                    "check": None if check is None else {"ok": check.ok,
                                                         "reason": check.reason},
                    "counted": t.game is not None,
                })
            parties.append({"partie": p.number, "tables": tables, "exempt": list(p.exempt),
                            "exempt_points": exempt_points(self.settings, p) if p.exempt
                            else None,
                            "repeats": self.repeats(p.number), "complete": p.complete,
                            "started": p.started, "attempt": p.attempt,
                            "closed": self.closed(p.number)})
        teams = [{"team": e.number, "name": e.name, "players": list(e.players), "paid": e.paid,
                  "from_partie": e.arrived + 1, "withdrawn": e.withdrawn is not None,
                  "withdrawn_after": e.withdrawn} for e in self.entries]
        return {**self.settings.to_json(), "teams": teams, "parties": parties,
                "drawn": len(self.parties), "over": self.over, "prizes": list(self.prizes),
                "ranked": self.ranked,
                "ranking": [line.to_json() for line in self.standings()]}
