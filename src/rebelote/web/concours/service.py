"""The concours on the web: stored through :class:`~rebelote.store.concours.ConcoursStore`,
changed through the core (:class:`~rebelote.concours.Concours`), private to the organiser's
secret; each table's phone counts its *partie* in a counter game of its own.

A table counted on a phone is a counter game created here, in the same database (its teams,
rules and target set from the concours; ``meta`` carries the *partie*'s number of deals and the
concours's id, name, partie and table). The counter tells the concours of each write to such a
game (:meth:`ConcoursService.phone_check` before it, :meth:`ConcoursService.phone_written`
after it, wired by the app: the counter knows nothing of the concours): the result settles
into the concours when the phone's game ends, follows the phone while the *partie* is open
(a deal undone takes it out again), and the phone is refused once the *partie* is closed.
A read never opens a counter game: it is one small query (the version) when the concours is
in this process's memory, else one read of the concours's row.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from rebelote.concours import Concours, counted_deals, phone_result
from rebelote.concours.model import Table
from rebelote.errors import InputError
from rebelote.match import Match, MatchResult
from rebelote.secret import new_secret, secret_hash, secret_matches
from rebelote.store import GameNotFoundError, GameStore, GameSummary
from rebelote.store.concours import (
    ConcoursConflictError,
    ConcoursNotFoundError,
    ConcoursStore,
)
from rebelote.web.calls import StoreCalls
from rebelote.web.errors import BusyError, ForbiddenError
from rebelote.web.limits import Limits, RateLimiter

__all__ = ["COUNTER_TARGET", "ConcoursBusyError", "ConcoursForbiddenError", "ConcoursService",
           "Loaded", "PhonesTooFastError", "counted_deals", "phone_link"]

#: The target of a table's counter game when the *partie* is a number of deals only: out of
#: reach (the deals end it).
COUNTER_TARGET: Final = 100_000
MAX_RETRIES: Final = 10
#: Concours kept parsed in memory (each checked against its stored version at every read).
CACHE_SIZE: Final = 64
_NAME: Final = 40
_log = logging.getLogger("rebelote.concours")


class ConcoursForbiddenError(ForbiddenError):
    """The caller does not hold the concours's secret (answered 403)."""

    def __init__(self, concours_id: str, secret: str | None) -> None:
        super().__init__(concours_id, secret, what="concours")


class PhonesTooFastError(Exception):
    """This address opened more counter games for tables' phones than ``games_per_minute``
    allows (answered 429, with the seconds to wait)."""

    def __init__(self, wait: float) -> None:
        self.wait = wait
        super().__init__(f"rate: too many counter games opened for tables' phones from your "
                         f"address: try again in {wait:g} s")


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
    #: What was computed from this version once (answers, the ranking), kept with it.
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def to_json(self, private: bool = False) -> dict[str, Any]:
        """The answer of ``GET /api/concours/{id}``; ``private`` (the organiser) adds each
        table's counter link. Computed once per version: the caller must not change it."""
        key = "private" if private else "public"
        if key in self.memo:
            return dict(self.memo[key])
        out = {"id": self.id, "view": self.view_id, "version": self.version,
               **self.concours.view_json()}
        if private:
            out["parties"] = [dict(p) for p in out["parties"]]
            for p, partie in zip(out["parties"], self.concours.parties, strict=True):
                p["tables"] = [dict(t) for t in p["tables"]]
                for t, table in zip(p["tables"], partie.tables, strict=True):
                    t["counter"] = (f"/join/{table.game}?key={table.key}"
                                    if table.game and table.key else None)
        self.memo[key] = out
        return dict(out)

    def body(self, private: bool = False) -> bytes:
        """:meth:`to_json` as the JSON bytes of an answer (made once per version)."""
        key = "private-body" if private else "public-body"
        if key not in self.memo:
            self.memo[key] = json.dumps(self.to_json(private), ensure_ascii=False,
                                        allow_nan=False, separators=(",", ":")).encode()
        body: bytes = self.memo[key]
        return body

    def standings(self) -> list[Any]:
        """The ranking of this version (computed once)."""
        if "standings" not in self.memo:
            self.memo["standings"] = self.concours.standings()
        found: list[Any] = self.memo["standings"]
        return found


def _games(c: Concours) -> set[str]:
    return {t.game for p in c.parties for t in p.tables if t.game}


def phone_link(meta: Mapping[str, Any]) -> tuple[str, int, int] | None:
    """The concours, *partie* and table a counter game counts (its ``meta``), if any."""
    link = meta.get("concours")
    if not isinstance(link, Mapping):
        return None
    cid, k, t = link.get("id"), link.get("partie"), link.get("table")
    if not isinstance(cid, str) or not isinstance(k, int) or not isinstance(t, int):
        return None
    return cid, k, t


def _side_name(c: Concours, side: tuple[int, ...]) -> str:
    names = [c.entry(n).name for n in side]
    text = " / ".join(names) if len(names) > 1 else names[0]
    text = f"{'+'.join(map(str, side))}. {text}"
    return text if len(text) <= _NAME else text[: _NAME - 1] + "…"


class ConcoursService:
    """Concours read and written through the core, with a version check on every write.

    ``limits``: the concours's bounds (:class:`~rebelote.web.limits.Limits`: teams, counter
    games a concours opens, the body of a creation; the creations per client are counted by
    the site's limit store, ``creation_wait`` in the concours's API)."""

    def __init__(self, store: ConcoursStore, games: GameStore, *, inline: bool,
                 limits: Limits | None = None) -> None:
        self.store = store
        self.games = games
        self.call = StoreCalls(inline)
        self.limits = limits = limits or Limits()
        #: The counter games opened for tables' phones, per address: they count as games
        #: (``games_per_minute``), like the counter's own creations.
        self.phone_games = RateLimiter(limits.games_per_minute, limits.burst_minutes)
        self._cache: OrderedDict[str, Loaded] = OrderedDict()
        self._lock = threading.Lock()

    # -- reading ------------------------------------------------------------------------------
    def _remember(self, loaded: Loaded) -> Loaded:
        with self._lock:
            self._cache[loaded.id] = loaded
            self._cache.move_to_end(loaded.id)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return loaded

    def _load(self, concours_id: str) -> Loaded:
        """The concours as stored now: this process's copy when its version is still the
        stored one (one small query), else read and parsed once."""
        if not (0 < len(concours_id) <= 32 and concours_id.isalnum()):
            raise ConcoursNotFoundError(concours_id)
        cached = self._cache.get(concours_id)
        if cached is not None and cached.version == self.store.version(concours_id):
            return cached
        stored = self.store.get(concours_id)
        return self._remember(Loaded(stored.id, stored.version,
                                     Concours.from_json(stored.data), stored.view_id,
                                     stored.secret_hash))

    def get(self, concours_id: str, secret: str | None = None, *, check: bool = False
            ) -> Loaded:
        """The concours now (its phones' results are in it already); with ``check`` only for
        the holder of its secret."""
        loaded = self._load(concours_id)
        if check:
            self._authorize(loaded, secret)
        return loaded

    def version(self, concours_id: str) -> int:
        """The stored version of the concours (one small query)."""
        if not (0 < len(concours_id) <= 32 and concours_id.isalnum()):
            raise ConcoursNotFoundError(concours_id)
        return self.store.version(concours_id)

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
    def check_size(self, obj: Any) -> None:
        """A new concours's entries within ``Limits.concours_teams``."""
        teams = obj.get("teams") if isinstance(obj, Mapping) else None
        if isinstance(teams, list) and len(teams) > self.limits.concours_teams:
            raise InputError("teams", f"at most {self.limits.concours_teams} entries")

    def create(self, obj: Any) -> tuple[Loaded, str]:
        """A new concours and its organiser's secret (the seed, when not given, is drawn
        here and shown to all)."""
        self.check_size(obj)
        concours = Concours.from_new(obj, seed=secrets.token_hex(3))
        token = new_secret()
        stored = self.store.create(concours.to_json(), concours.settings.name,
                                   concours.settings.game, secret_hash(token))
        return self._remember(Loaded(stored.id, 1, concours, stored.view_id,
                                     stored.secret_hash)), token

    def change(self, concours_id: str, secret: str | None,
               change: Callable[[Concours], Concours], *, organiser: bool = True) -> Loaded:
        """Apply ``change`` to the concours and store it; a concurrent write is absorbed by
        reading again and applying the change again. The counter games of tables no longer in
        the concours (a draw redone, cancelled or changed) are removed. ``organiser=False``:
        a change of the concours's own (a phone's result), with no secret."""
        for _ in range(MAX_RETRIES):
            loaded = self._load(concours_id)
            if organiser:
                self._authorize(loaded, secret)
            new = change(loaded.concours)
            if new is loaded.concours:
                return loaded
            if len(new.entries) > max(len(loaded.concours.entries),
                                      self.limits.concours_teams):
                raise InputError("teams", f"at most {self.limits.concours_teams} entries")
            try:
                version = self.store.put(concours_id, loaded.version, new.to_json(),
                                         new.settings.name)
            except ConcoursConflictError:
                continue
            for gone in sorted(_games(loaded.concours) - _games(new)):
                with contextlib.suppress(GameNotFoundError):
                    self.games.delete(gone)
            return self._remember(Loaded(concours_id, version, new, loaded.view_id,
                                         loaded.secret_hash))
        raise ConcoursBusyError(concours_id)

    def clear_table(self, concours_id: str, secret: str | None, k: int, t: int) -> Loaded:
        """Forget table ``t``'s result in *partie* ``k``; a table counted on a phone then has
        the phone's result again, if its game is over (and the *partie* open)."""
        loaded = self.change(concours_id, secret, lambda c: c.clear(k, t))
        table = loaded.concours.partie(k).table(t)
        if table.game is None or loaded.concours.closed(k):
            return loaded
        try:
            stored = self.games.get(table.game)
            match = Match.from_json(stored.data)
        except (GameNotFoundError, InputError):
            return loaded
        found = phone_result(loaded.concours.settings, match,
                             _limit(stored.meta, loaded.concours))
        if found is None:
            return loaded
        return self.change(concours_id, secret, lambda c: c.settle(k, t, found.scores))

    # -- the phones -----------------------------------------------------------------------
    def open_tables(self, concours_id: str, secret: str | None, k: int,
                    client: str | None = None) -> Loaded:
        """Give every table of *partie* ``k`` without one a counter game (its link and QR
        code open the counter's form for that table); at most ``Limits.concours_games``
        games in a concours's life, and ``client``'s games within ``games_per_minute``
        (:class:`PhonesTooFastError`)."""
        loaded = self.get(concours_id, secret, check=True)
        c = loaded.concours
        partie = c.partie(k)
        if c.closed(k):
            raise InputError("partie", f"partie {k} is closed: its tables' phones are done")
        wanted = [t for t in partie.tables if t.game is None and t.result is None]
        if not wanted:
            return loaded
        if c.phones_made + len(wanted) > self.limits.concours_games:
            raise InputError("partie", f"a concours opens at most {self.limits.concours_games}"
                                       f" counter games for its tables' phones ({c.phones_made}"
                                       " so far): type the results from the paper sheets")
        if client is not None:
            for _ in wanted:
                wait = self.phone_games.take(client)
                if wait:
                    raise PhonesTooFastError(wait)
        made = {t.number: self._new_game(loaded, k, t) for t in wanted}

        def link(c: Concours) -> Concours:
            linked = 0
            for t, (game, key) in made.items():
                if c.partie(k).table(t).game is None:
                    c = c.link(k, t, game, key)
                    linked += 1
            return replace(c, phones_made=c.phones_made + linked)

        try:
            return self.change(concours_id, secret, link)
        finally:
            # The games a concurrent write kept from being linked are not kept either.
            now = _games(self._load(concours_id).concours)
            for game, _key in made.values():
                if game not in now:
                    with contextlib.suppress(GameNotFoundError):
                        self.games.delete(game)

    def _new_game(self, loaded: Loaded, k: int, table: Table) -> tuple[str, str]:
        c = loaded.concours
        s = c.settings
        teams = (_side_name(c, table.sides[0]), _side_name(c, table.sides[1]))
        match = Match(s.rules, s.target or COUNTER_TARGET, teams)
        meta: dict[str, Any] = {"concours": {"id": loaded.id, "name": s.name, "partie": k,
                                             "parties": s.parties, "table": table.number,
                                             "reserve_at_end": s.reserve_at_end}}
        if s.deals is not None:
            meta["deals"] = s.deals
        result = match.result()
        key = new_secret()
        stored = self.games.create(
            match.to_json(), GameSummary(s.game, teams, match.target, 0, result.totals, None),
            secret_hash(key), meta)
        return stored.id, key

    def _table_of(self, game_id: str, meta: Mapping[str, Any]
                  ) -> tuple[Loaded, int, int] | None:
        link = phone_link(meta)
        if link is None:
            return None
        cid, k, t = link
        try:
            loaded = self._load(cid)
            table = loaded.concours.partie(k).table(t)
        except (ConcoursNotFoundError, InputError):
            return None
        return (loaded, k, t) if table.game == game_id else None

    def phone_check(self, game_id: str, meta: Mapping[str, Any], old: Match, new: Match
                    ) -> None:
        """Before a write to a table's counter game: refuse it once the *partie* is closed
        (or the organiser has the table's result in hand), and a target the concours did not
        set."""
        found = self._table_of(game_id, meta)
        if found is None:
            return
        if new.target != old.target:
            raise InputError("target", "a concours table plays to the concours's target: it "
                                       "does not change on the phone")
        if new.deals == old.deals and new.teams == old.teams:
            return
        refused = _refusal(*found)
        if refused is not None:
            raise refused

    def phone_note(self, game_id: str, meta: Mapping[str, Any]) -> tuple[str, str] | None:
        """What a table's phone is told when it opens its game: its next deal would be
        refused (the *partie* closed, or the result in the organiser's hands)."""
        found = self._table_of(game_id, meta)
        refused = None if found is None else _refusal(*found)
        return None if refused is None else (refused.field, refused.reason)

    def phone_written(self, game_id: str, meta: Mapping[str, Any], match: Match,
                      result: MatchResult) -> None:
        """After a write to a table's counter game: its result settles into the concours when
        the game is over, and leaves it when a deal undone reopens the game (while the
        *partie* is open)."""
        found = self._table_of(game_id, meta)
        if found is None:
            return
        loaded, k, t = found
        if loaded.concours.closed(k):
            return
        phone = phone_result(loaded.concours.settings, match, _limit(meta, loaded.concours),
                             result)
        scores = None if phone is None else phone.scores
        try:
            self.change(loaded.id, None, lambda c: c.settle(k, t, scores), organiser=False)
        except InputError as e:  # closed meanwhile: the organiser's word stands
            _log.warning("concours %s, partie %s, table %s: the phone's result was not "
                         "taken (%s)", loaded.id, k, t, e)


def _refusal(loaded: Loaded, k: int, t: int) -> InputError | None:
    """Why a change of table ``t``'s game in *partie* ``k`` is refused, if it is."""
    c = loaded.concours
    if c.closed(k):
        return InputError("deals", f"the concours closed partie {k}: this table's result "
                                   "stays as the concours has it; ask the organiser to "
                                   "correct it")
    result = c.partie(k).table(t).result
    if result is not None and result.source != "counter":
        return InputError("deals", f"the organiser entered the result of table {t}: ask the "
                                   "organiser to correct it")
    return None


def _limit(meta: Mapping[str, Any], c: Concours) -> int | None:
    limit = meta.get("deals", c.settings.deals)
    return limit if isinstance(limit, int) and not isinstance(limit, bool) else None
