"""The counter's operations: read, score and write games through the core and the store.

No rule lives here: a deal is read by :meth:`DealSummary.from_json`, a game by
:meth:`Match.from_json`, and every answer comes from :meth:`Match.result`. The service keeps the
last games it handled in memory (parsed and scored) keyed by id and checked against the stored
version, so a busy game is neither re-parsed nor re-scored on every request, and several server
processes sharing one database still agree (a stale copy loses its conditional write and is
reloaded).
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from rebelote.cards import TEAMS
from rebelote.errors import InputError
from rebelote.match import Match, MatchResult
from rebelote.scoring import DealSummary
from rebelote.store import GameConflictError, GameNotFoundError, GameStore, GameSummary

CACHE_SIZE: Final = 2048
MAX_RETRIES: Final = 20
LOCK_STRIPES: Final = 64


@dataclass(frozen=True, slots=True)
class GameView:
    """A stored game, parsed and scored: what every route answers from."""

    id: str
    version: int
    match: Match
    result: MatchResult
    created_at: datetime
    updated_at: datetime

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        """The game answer of ``rebelote score`` plus ``id``, ``teams``, ``target``, ``version``
        (and the rules, the start, the running totals and the times)."""
        out = self.result.to_json(explain)
        rules = self.match.rules
        options = rules.changed_options()
        options.pop("target", None)
        out.update(
            id=self.id,
            version=self.version,
            game=rules.game,
            rules=rules.name,
            options=options,
            target=self.match.target,
            teams={"NS": self.match.teams[0], "EW": self.match.teams[1]},
            start={"NS": self.match.start[0], "EW": self.match.start[1]},
            running=[{"NS": ns, "EW": ew} for ns, ew in self.result.running],
            created=self.created_at.isoformat(),
            updated=self.updated_at.isoformat(),
        )
        return out

    @property
    def is_over(self) -> bool:
        """A team has won: no more deals can be added."""
        return self.result.winner is not None


def _summary(match: Match, result: MatchResult) -> GameSummary:
    return GameSummary(
        game=match.rules.game, teams=match.teams, target=match.target,
        deal_count=len(match.deals), totals=result.totals, winner=result.winner,
    )


def read_deal(obj: Any, match: Match) -> DealSummary:
    """A deal summary of this game (INTERFACES.md, without ``game``); errors name the field."""
    if not isinstance(obj, Mapping):
        raise InputError("body", "a deal summary is a JSON object")
    for key in ("rules", "options"):
        if key in obj:
            raise InputError(key, "a game's deals share the game's rules; leave it out")
    if "game" in obj and obj["game"] != match.rules.game:
        raise InputError("game", f"this game is {match.rules.game}, not {obj['game']!r}")
    return DealSummary.from_json(obj, match.rules)


def _game_over_error(view: GameView) -> InputError:
    winner = view.result.winner or "NS"
    name = view.match.teams[TEAMS.index(winner)]
    return InputError(
        "deals",
        f"the game is over: {name} ({winner}) won after deal {view.result.won_after_deal}; "
        "start a new game, or edit or undo a deal",
    )


class CounterService:
    """Games of the counter: parsed through the core, scored by it, kept by a :class:`GameStore`."""

    def __init__(self, store: GameStore, cache_size: int = CACHE_SIZE) -> None:
        self.store = store
        self._cache: OrderedDict[str, GameView] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        # Writes to one game from this process go one at a time (striped locks, bounded):
        # conflicts are then left to other processes sharing the database.
        self._write_locks = tuple(threading.Lock() for _ in range(LOCK_STRIPES))

    # -- cache -----------------------------------------------------------------------------
    def _remember(self, view: GameView) -> GameView:
        with self._lock:
            self._cache[view.id] = view
            self._cache.move_to_end(view.id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return view

    def _forget(self, game_id: str) -> None:
        with self._lock:
            self._cache.pop(game_id, None)

    def _load(self, game_id: str) -> GameView:
        stored = self.store.get(game_id)
        match = Match.from_json(stored.data)
        return self._remember(GameView(
            stored.id, stored.version, match, match.result(), stored.created_at,
            stored.updated_at,
        ))

    # -- reading ---------------------------------------------------------------------------
    def get(self, game_id: str) -> GameView:
        """The game ``game_id`` as stored now; :class:`GameNotFoundError` if there is none."""
        cached = self._cache.get(game_id)
        if cached is not None and cached.version == self.store.version(game_id):
            return cached
        return self._load(game_id)

    def _current(self, game_id: str) -> GameView:
        """The cached game, trusted: a conditional write checks it is still current."""
        cached = self._cache.get(game_id)
        return cached if cached is not None else self._load(game_id)

    # -- writing ---------------------------------------------------------------------------
    def create(self, obj: Any) -> GameView:
        """A new game from ``{"game", "rules", "options"?, "target", "teams"?}`` (or a whole
        game input with its deals, as exported)."""
        if not isinstance(obj, Mapping):
            raise InputError("body", "a game is a JSON object like {\"game\": \"belote\"}")
        data = dict(obj)
        data.setdefault("deals", [])
        return self.create_match(Match.from_json(data))

    def create_match(self, match: Match) -> GameView:
        """Store a new game."""
        result = match.result()
        stored = self.store.create(match.to_json(), _summary(match, result))
        return self._remember(GameView(
            stored.id, stored.version, match, result, stored.created_at, stored.updated_at,
        ))

    def _write(
        self, game_id: str, if_match: int | None, change: Callable[[GameView], Match]
    ) -> GameView:
        """Apply ``change`` to the current game and store it with a version check.

        With ``if_match`` an old version is a :class:`GameConflictError`; without it a
        concurrent write is absorbed by reading the game again and applying the change again.
        """
        with self._write_locks[hash(game_id) % LOCK_STRIPES]:
            for _ in range(MAX_RETRIES):
                view = self._current(game_id)
                if if_match is not None and if_match != view.version:
                    view = self._load(game_id)
                    if if_match != view.version:
                        raise GameConflictError(game_id, if_match, view.version)
                match = change(view)
                result = match.result()
                try:
                    stored = self.store.put(
                        game_id, view.version, match.to_json(), _summary(match, result)
                    )
                except GameConflictError:
                    self._forget(game_id)
                    if if_match is not None:
                        raise
                    continue
                return self._remember(GameView(
                    game_id, stored.version, match, result, stored.created_at,
                    stored.updated_at,
                ))
        raise GameBusyError(game_id)

    def add_deal(self, game_id: str, obj: Any, if_match: int | None = None) -> GameView:
        """Add a deal; an error if the game is already won."""

        def change(view: GameView) -> Match:
            if view.is_over:
                raise _game_over_error(view)
            return view.match.add(read_deal(obj, view.match))

        return self._write(game_id, if_match, change)

    def replace_deal(
        self, game_id: str, n: int, obj: Any, if_match: int | None = None
    ) -> GameView:
        """Replace deal ``n`` (from 1); the deals after it are scored again."""

        def change(view: GameView) -> Match:
            if not 1 <= n <= len(view.match.deals):
                raise DealNotFoundError(n, len(view.match.deals))
            return view.match.replace(n, read_deal(obj, view.match))

        return self._write(game_id, if_match, change)

    def undo(self, game_id: str, if_match: int | None = None) -> GameView:
        """Remove the last deal."""
        return self._write(game_id, if_match, lambda view: view.match.undo())

    def update_settings(self, game_id: str, obj: Any, if_match: int | None = None) -> GameView:
        """Rename the teams or change the target: ``{"teams"?: {...}, "target"?: n}``."""
        if not isinstance(obj, Mapping):
            raise InputError("body", "settings are a JSON object like {\"teams\": {...}}")
        extra = sorted(set(obj) - {"teams", "target"})
        if extra:
            raise InputError(extra[0], "only teams and target can change in a started game; "
                                       "start a new game to change the rules")

        def change(view: GameView) -> Match:
            data = view.match.to_json()
            data["deals"] = []
            if "teams" in obj:
                teams = obj["teams"]
                if isinstance(teams, Mapping):
                    data["teams"] = {**data["teams"], **teams}
                else:
                    data["teams"] = teams
            if "target" in obj:
                data["target"] = obj["target"]
            fresh = Match.from_json(data)
            return dataclasses.replace(
                view.match, teams=fresh.teams, target=fresh.target
            )

        return self._write(game_id, if_match, change)

    def delete(self, game_id: str) -> None:
        """Forget a game."""
        self.store.delete(game_id)
        self._forget(game_id)


class GameBusyError(RuntimeError):
    """Other processes kept changing the game while this write was being made."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"id: game {game_id} is being changed by other writers at this very "
                         "moment; nothing was changed, try again")


class DealNotFoundError(LookupError):
    """A deal number outside the game."""

    def __init__(self, n: int, count: int) -> None:
        self.n = n
        super().__init__(f"n: there is no deal {n} (the game has {count})")


__all__ = [
    "CounterService",
    "DealNotFoundError",
    "GameBusyError",
    "GameConflictError",
    "GameNotFoundError",
    "GameView",
    "read_deal",
]
