"""The concours on the web: stored through :class:`~rebelote.store.concours.ConcoursStore`,
changed through the core (:class:`~rebelote.concours.Concours`), private to the organiser's
secret; each table's phone counts its *partie* in a counter game of its own.

A table counted on a phone is a counter game created here, in the same database (its teams,
rules and target set from the concours; ``meta`` carries the *partie*'s number of deals and the
concours's name, partie and table). Its result comes back to the concours when the concours is
read and the game is over (a team won, or the *partie*'s deals are all counted): the concours
pulls it from the store, the counter knows nothing of the concours.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from rebelote.concours import MAX_SCORE, Concours
from rebelote.concours.model import Table
from rebelote.errors import InputError
from rebelote.match import Match
from rebelote.secret import new_secret, secret_hash, secret_matches
from rebelote.store import GameNotFoundError, GameStore, GameSummary
from rebelote.store.concours import (
    ConcoursConflictError,
    ConcoursNotFoundError,
    ConcoursStore,
)
from rebelote.web.calls import StoreCalls
from rebelote.web.errors import BusyError, ForbiddenError

__all__ = ["COUNTER_TARGET", "ConcoursBusyError", "ConcoursForbiddenError", "ConcoursService",
           "Loaded", "counted_deals"]

#: The target of a table's counter game when the *partie* is a number of deals only: out of
#: reach (the deals end it).
COUNTER_TARGET: Final = 100_000
MAX_RETRIES: Final = 10
_NAME: Final = 40


class ConcoursForbiddenError(ForbiddenError):
    """The caller does not hold the concours's secret (answered 403)."""

    def __init__(self, concours_id: str, secret: str | None) -> None:
        super().__init__(concours_id, secret, what="concours")


class ConcoursBusyError(BusyError):
    """Other writers kept changing the concours while this write was being made."""

    def __init__(self, concours_id: str) -> None:
        super().__init__(f"id: concours {concours_id} is being changed by other writers at "
                         "this very moment; nothing was changed, try again")


@dataclass(frozen=True, slots=True)
class Loaded:
    """A stored concours, read through the core."""

    id: str
    version: int
    concours: Concours
    view_id: str
    secret_hash: str

    def to_json(self, private: bool = False) -> dict[str, Any]:
        """The answer of ``GET /api/concours/{id}``; ``private`` (the organiser) adds each
        table's counter link."""
        out = {"id": self.id, "view": self.view_id, "version": self.version,
               **self.concours.view_json()}
        if not private:
            return out
        for p, partie in zip(out["parties"], self.concours.parties, strict=True):
            for t, table in zip(p["tables"], partie.tables, strict=True):
                t["counter"] = (f"/join/{table.game}?key={table.key}"
                                if table.game and table.key else None)
        return out


def counted_deals(match: Match) -> int:
    """The deals of a counter game that count toward a *partie* of N deals: those played
    (passed deals are dealt again, corrections are not deals)."""
    return sum(d.kind == "deal" for d in match.deals)


def _side_name(c: Concours, side: tuple[int, ...]) -> str:
    names = [c.entry(n).name for n in side]
    text = " / ".join(names) if len(names) > 1 else names[0]
    text = f"{'+'.join(map(str, side))}. {text}"
    return text if len(text) <= _NAME else text[: _NAME - 1] + "…"


class ConcoursService:
    """Concours read and written through the core, with a version check on every write."""

    def __init__(self, store: ConcoursStore, games: GameStore, *, inline: bool) -> None:
        self.store = store
        self.games = games
        self.call = StoreCalls(inline)

    # -- reading ------------------------------------------------------------------------------
    def _load(self, concours_id: str) -> Loaded:
        if not (0 < len(concours_id) <= 32 and concours_id.isalnum()):
            raise ConcoursNotFoundError(concours_id)
        stored = self.store.get(concours_id)
        return Loaded(stored.id, stored.version, Concours.from_json(stored.data),
                      stored.view_id, stored.secret_hash)

    def get(self, concours_id: str, secret: str | None = None, *, check: bool = False
            ) -> Loaded:
        """The concours now, its phones' finished *parties* taken in; with ``check`` only for
        the holder of its secret."""
        loaded = self._load(concours_id)
        if check:
            self._authorize(loaded, secret)
        return self._pull(loaded)

    def of_view(self, view_id: str) -> Loaded:
        """The concours whose room screen is ``view_id`` (no secret)."""
        if not (0 < len(view_id) <= 32 and view_id.isalnum()):
            raise ConcoursNotFoundError(view_id)
        return self.get(self.store.of_view(view_id))

    def mine(self, secrets_: list[str]) -> list[tuple[str, str]]:
        """The ids and names of the concours whose secrets are presented."""
        return self.store.list({secret_hash(s) for s in secrets_})

    @staticmethod
    def _authorize(loaded: Loaded, secret: str | None) -> None:
        if not secret_matches(secret, loaded.secret_hash):
            raise ConcoursForbiddenError(loaded.id, secret)

    # -- writing ------------------------------------------------------------------------------
    def create(self, obj: Any) -> tuple[Loaded, str]:
        """A new concours and its organiser's secret (the seed, when not given, is drawn
        here and shown to all)."""
        concours = Concours.from_new(obj, seed=secrets.token_hex(3))
        token = new_secret()
        stored = self.store.create(concours.to_json(), concours.settings.name,
                                   concours.settings.game, secret_hash(token))
        return Loaded(stored.id, 1, concours, stored.view_id, stored.secret_hash), token

    def change(self, concours_id: str, secret: str | None,
               change: Callable[[Concours], Concours]) -> Loaded:
        """Apply ``change`` to the concours and store it; a concurrent write is absorbed by
        reading again and applying the change again."""
        for _ in range(MAX_RETRIES):
            loaded = self._load(concours_id)
            self._authorize(loaded, secret)
            new = change(loaded.concours)
            try:
                version = self.store.put(concours_id, loaded.version, new.to_json(),
                                         new.settings.name)
            except ConcoursConflictError:
                continue
            return Loaded(concours_id, version, new, loaded.view_id, loaded.secret_hash)
        raise ConcoursBusyError(concours_id)

    # -- the phones -----------------------------------------------------------------------
    def open_tables(self, concours_id: str, secret: str | None, k: int) -> Loaded:
        """Give every table of *partie* ``k`` without one a counter game (its link and QR
        code open the counter's form for that table)."""
        loaded = self.get(concours_id, secret, check=True)
        partie = loaded.concours.partie(k)
        made: dict[int, tuple[str, str]] = {}
        for table in partie.tables:
            if table.game is None and table.result is None:
                made[table.number] = self._new_game(loaded.concours, k, table)
        if not made:
            return loaded

        def link(c: Concours) -> Concours:
            for t, (game, key) in made.items():
                if c.partie(k).table(t).game is None:
                    c = c.link(k, t, game, key)
            return c

        return self.change(concours_id, secret, link)

    def _new_game(self, c: Concours, k: int, table: Table) -> tuple[str, str]:
        s = c.settings
        teams = (_side_name(c, table.sides[0]), _side_name(c, table.sides[1]))
        match = Match(s.rules, s.target or COUNTER_TARGET, teams)
        meta: dict[str, Any] = {"concours": {"name": s.name, "partie": k, "parties": s.parties,
                                             "table": table.number}}
        if s.deals is not None:
            meta["deals"] = s.deals
        result = match.result()
        key = new_secret()
        stored = self.games.create(
            match.to_json(), GameSummary(s.game, teams, match.target, 0, result.totals, None),
            secret_hash(key), meta)
        return stored.id, key

    def _pull(self, loaded: Loaded) -> Loaded:
        """Take in the result of every counter game whose *partie* is over (and follow a
        counted result that the table corrected on its phone)."""
        c = loaded.concours
        found: list[tuple[int, int, tuple[int, int]]] = []
        for partie in c.parties:
            for table in partie.tables:
                if table.game is None or (table.result is not None
                                          and table.result.source != "counter"):
                    continue
                scores = self._finished(table.game, c.settings.deals)
                if scores is not None and (table.result is None
                                           or table.result.scores != scores):
                    found.append((partie.number, table.number, scores))
        if not found:
            return loaded
        for k, t, scores in found:
            c = c.record(k, t, list(scores), source="counter")
        try:
            version = self.store.put(loaded.id, loaded.version, c.to_json(), c.settings.name)
        except ConcoursConflictError:
            return loaded  # another writer came first: the next read takes them in
        return Loaded(loaded.id, version, c, loaded.view_id, loaded.secret_hash)

    def _finished(self, game_id: str, deals: int | None) -> tuple[int, int] | None:
        try:
            stored = self.games.get(game_id)
        except GameNotFoundError:
            return None
        try:
            match = Match.from_json(stored.data)
        except InputError:
            return None
        limit = stored.meta.get("deals", deals)
        if isinstance(limit, int) and counted_deals(match) > limit:
            kept, n = [], 0
            for d in match.deals:
                n += d.kind == "deal"
                if n > limit:
                    break
                kept.append(d)
            match = Match(match.rules, match.target, match.teams, match.start, tuple(kept))
        result = match.result()
        over = result.winner is not None or (isinstance(limit, int)
                                             and counted_deals(match) >= limit)
        if not over:
            return None
        a, b = (max(0, min(MAX_SCORE, x)) for x in result.totals)
        return a, b
