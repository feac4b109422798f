"""The counter's operations: read, score and write games through the core and the store.

No rule lives here: a deal is read by :meth:`DealSummary.from_json`, a game by
:meth:`Match.from_json`, and every answer comes from :meth:`Match.result`. The service keeps the
last games it handled in memory (parsed and scored) keyed by id and checked against the stored
version, so a busy game is neither re-parsed nor re-scored on every request, and several server
processes sharing one database still agree (a stale copy loses its conditional write and is
reloaded).
"""

from __future__ import annotations

import builtins
import dataclasses
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, TypeVar

from rebelote.cards import SEATS, TEAMS
from rebelote.errors import InputError
from rebelote.match import Match, MatchResult
from rebelote.metrics import COUNTER_WRITES
from rebelote.rules import next_seat
from rebelote.secret import new_secret, secret_hash, secret_matches
from rebelote.store import GameConflictError, GameNotFoundError, GameRow, GameStore, GameSummary
from rebelote.summary import DealSummary
from rebelote.web.calls import StoreCalls
from rebelote.web.errors import DealNotFoundError, ForbiddenError, GameBusyError

T = TypeVar("T")
_log = logging.getLogger("rebelote.counter")

CACHE_SIZE: Final = 2048
#: The most deals a counter game holds (a real game has a few dozen).
MAX_DEALS: Final = 500
#: The largest target and starting score (and their negatives for starts).
MAX_POINTS: Final = 100_000
#: The largest correction (an adjustment line), either sign: more than any deal is worth.
MAX_ADJUST: Final = 5_000
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
    view_id: str
    secret_hash: str = dataclasses.field(repr=False)
    #: What the counter keeps beside the rules and deals (:func:`read_meta`): ``dealer``, the
    #: seat that dealt the first deal, and ``players``, names by seat.
    meta: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        """The game answer of ``rebelote score`` plus ``id``, ``teams``, ``target``, ``version``
        (and the rules, the start, the running totals and the times)."""
        out = self.result.to_json(explain)
        rules = self.match.rules
        options = rules.changed_options()
        options.pop("target", None)
        out.update(
            id=self.id,
            view=self.view_id,
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
            players=self.players,
            dealer=self.meta.get("dealer"),
            dealers=self.dealers,
        )
        return out

    def to_view_json(self, explain: bool = False) -> dict[str, Any]:
        """The game answer of the read-only view: :meth:`to_json` without the game's ``id``."""
        out = self.to_json(explain)
        del out["id"]
        return out

    @property
    def deal_limit(self) -> int | None:
        """The number of deals the game is played in (``meta["deals"]``: a concours's table
        whose *partie* is a number of deals), if any."""
        limit = self.meta.get("deals")
        return limit if isinstance(limit, int) and not isinstance(limit, bool) else None

    @property
    def deals_counted(self) -> int:
        """The deals played (a passed deal is dealt again, a correction is not a deal)."""
        return sum(d.kind == "deal" for d in self.match.deals)

    @property
    def is_over(self) -> bool:
        """A team has won, or the game's number of deals is played: no more deals can be
        added."""
        limit = self.deal_limit
        return self.result.winner is not None or (limit is not None
                                                  and self.deals_counted >= limit)

    @property
    def players(self) -> dict[str, str]:
        """The players' names by seat (``N``, ``E``, ``S``, ``W``), those given."""
        players = self.meta.get("players")
        return dict(players) if isinstance(players, Mapping) else {}

    @property
    def dealers(self) -> list[str]:
        """Who dealt each deal, then who deals the next one (empty while the first dealer is
        not known). The deal moves in the direction of play after each deal, passed ones
        included; a correction line is not a deal."""
        dealer = self.meta.get("dealer")
        if dealer not in SEATS:
            return []
        out = []
        for deal in self.match.deals:
            out.append(dealer)
            if deal.kind != "adjust":
                dealer = next_seat(dealer, self.match.rules)
        out.append(dealer)
        return out


def _summary(match: Match, result: MatchResult) -> GameSummary:
    return GameSummary(
        game=match.rules.game, teams=match.teams, target=match.target,
        deal_count=len(match.deals), totals=result.totals, winner=result.winner,
    )


def read_deal(obj: Any, match: Match) -> DealSummary:
    """A deal summary of this game (docs/interfaces.md, without ``game``); errors name the field."""
    if not isinstance(obj, Mapping):
        raise InputError("body", "a deal summary is a JSON object")
    for key in ("rules", "options"):
        if key in obj:
            raise InputError(key, "a game's deals share the game's rules; leave it out")
    if "game" in obj and obj["game"] != match.rules.game:
        raise InputError("game", f"this game is {match.rules.game}, not {obj['game']!r}")
    deal = DealSummary.from_json(obj, match.rules)
    if deal.generale and match.rules.has_auction and deal.contract != "generale":
        # The core scores a générale only as a contract: a ticked box on another contract
        # would be ignored without a word.
        raise InputError("generale", "a générale is a contract: choose générale as the "
                                     f"contract (this deal's contract is {deal.contract})")
    return deal


#: The longest player name.
MAX_NAME: Final = 40
META_KEYS: Final = ("dealer", "players")


def read_meta(obj: Mapping[str, Any], meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``meta`` changed by the ``dealer`` and ``players`` of ``obj`` (the keys it has):
    ``"dealer": "N"`` (or ``null``: not known), ``"players": {"N": "Anne", ...}`` (an empty
    name removes one). Errors name the field."""
    out: dict[str, Any] = dict(meta or {})
    if "dealer" in obj:
        dealer = obj["dealer"]
        if dealer is None or dealer == "":
            out.pop("dealer", None)
        elif isinstance(dealer, str) and dealer.upper() in SEATS:
            out["dealer"] = dealer.upper()
        else:
            raise InputError("dealer", f"{str(dealer)[:20]!r} is not a seat: N, E, S or W (or "
                                       "null)")
    if "players" in obj:
        given = obj["players"]
        if not isinstance(given, Mapping):
            raise InputError("players", 'the players\' names are an object of seats, like '
                                        '{"N": "Anne"}')
        players = dict(out.get("players") or {})
        for seat, name in given.items():
            if seat not in SEATS:
                raise InputError("players", f"{str(seat)[:20]!r} is not a seat: N, E, S or W")
            if name is None:
                name = ""
            if not isinstance(name, str):
                raise InputError(f"players.{seat}", "a name is a string")
            name = " ".join(name.split())
            if len(name) > MAX_NAME:
                raise InputError(f"players.{seat}", f"a name has at most {MAX_NAME} "
                                                    "characters")
            try:
                name.encode("utf-8")
            except UnicodeEncodeError:
                raise InputError(f"players.{seat}", "not a text (a lone surrogate)") from None
            if name:
                players[seat] = name
            else:
                players.pop(seat, None)
        if players:
            out["players"] = {seat: players[seat] for seat in SEATS if seat in players}
        else:
            out.pop("players", None)
    return out


def _game_over_error(view: GameView) -> InputError:
    if view.result.winner is None:
        return InputError("deals", f"the game is over: its {view.deal_limit} deals are "
                                   "played; edit or undo a deal")
    winner = view.result.winner
    name = view.match.teams[TEAMS.index(winner)]
    return InputError(
        "deals",
        f"the game is over: {name} ({winner}) won after deal {view.result.won_after_deal}; "
        "start a new game, or edit or undo a deal",
    )


class CounterService:
    """Games of the counter: parsed through the core, scored by it, kept by a :class:`GameStore`.

    Every operation on a game by its id takes the secret the caller presents: a wrong or missing
    one is a :class:`ForbiddenError` (an unknown game a :class:`GameNotFoundError` first). The
    read-only view (:meth:`get_view`) needs no secret: its id is the capability.

    ``inline``: the store is called on the event loop (SQLite, answering in microseconds);
    otherwise :meth:`call` runs it in the thread pool.
    """

    def __init__(self, store: GameStore, cache_size: int = CACHE_SIZE, *,
                 inline: bool = True) -> None:
        self.store = store
        self.inline = inline
        #: ``await service.call(fn, *args)``: the one way every route calls the service, on
        #: the event loop (inline) or in the thread pool (:class:`StoreCalls`).
        self.call = StoreCalls(inline)
        self._cache: OrderedDict[str, GameView] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        # Writes to one game from this process go one at a time (striped locks, bounded):
        # conflicts are then left to other processes sharing the database.
        self._write_locks = tuple(threading.Lock() for _ in range(LOCK_STRIPES))
        self._listeners: dict[str, set[Callable[[GameView], None]]] = {}
        #: Called before each write with the game's id, its meta, the game and the game the
        #: write makes: an :class:`InputError` refuses the write (the app wires the concours's
        #: check of its tables' games here: the counter knows nothing of the concours).
        self.checks: builtins.list[Callable[[str, Mapping[str, Any], Match, Match], None]] = []
        #: Called after each write with the game's id, its meta, the game and its scores (the
        #: concours takes a table's result in when its game ends).
        self.written: builtins.list[
            Callable[[str, Mapping[str, Any], Match, MatchResult], None]] = []
        #: Asked when a game's page is shown, with the game's id and meta: a refusal its next
        #: write would meet, as an input error's ``(field, reason)``, else ``None`` (the
        #: concours's: the table's partie is closed).
        self.notes: builtins.list[
            Callable[[str, Mapping[str, Any]], tuple[str, str] | None]] = []

    def note(self, view: GameView) -> tuple[str, str] | None:
        """What the :attr:`notes` say of ``view`` (the first that says something)."""
        for note in self.notes:
            found = note(view.id, view.meta)
            if found is not None:
                return found
        return None

    # -- live updates ----------------------------------------------------------------------
    def subscribe(self, game_id: str, listener: Callable[[GameView], None]) -> None:
        """Call ``listener`` with the game after each write made by this process."""
        with self._lock:
            self._listeners.setdefault(game_id, set()).add(listener)

    def unsubscribe(self, game_id: str, listener: Callable[[GameView], None]) -> None:
        """Stop calling ``listener``."""
        with self._lock:
            found = self._listeners.get(game_id)
            if found is not None:
                found.discard(listener)
                if not found:
                    del self._listeners[game_id]

    def _notify(self, view: GameView) -> None:
        with self._lock:
            listeners = list(self._listeners.get(view.id, ()))
        for listener in listeners:
            listener(view)

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
            stored.updated_at, stored.view_id, stored.secret_hash, stored.meta,
        ))

    @staticmethod
    def _check(view: GameView, secret: str | None) -> GameView:
        if not secret_matches(secret, view.secret_hash):
            raise ForbiddenError(view.id, secret)
        return view

    # -- reading ---------------------------------------------------------------------------
    def _fresh(self, game_id: str) -> GameView:
        cached = self._cache.get(game_id)
        if cached is not None and cached.version == self.store.version(game_id):
            return cached
        return self._load(game_id)

    def get(self, game_id: str, secret: str | None) -> GameView:
        """The game ``game_id`` as stored now, for the holder of its secret;
        :class:`GameNotFoundError` if there is none."""
        return self._check(self._fresh(game_id), secret)

    def version(self, game_id: str) -> int:
        """The stored version of ``game_id`` (one small query)."""
        return self.store.version(game_id)

    def get_view(self, view_id: str) -> GameView:
        """The game whose read-only view is ``view_id`` (no secret needed)."""
        if not _is_id(view_id):
            raise GameNotFoundError(view_id)
        return self._fresh(self.store.game_of_view(view_id))

    def list(self, secrets: Collection[str], limit: int = 100, offset: int = 0,
             archived: bool | None = False) -> list[GameRow]:
        """The saved games whose secrets are among ``secrets``, the latest first: those not
        archived, the archived ones (``archived=True``) or all (``None``)."""
        return self.store.list({secret_hash(s) for s in secrets}, limit, offset, archived)

    def _current(self, game_id: str) -> GameView:
        """The cached game, trusted: a conditional write checks it is still current."""
        cached = self._cache.get(game_id)
        return cached if cached is not None else self._load(game_id)

    # -- writing ---------------------------------------------------------------------------
    def create(self, obj: Any) -> tuple[GameView, str]:
        """A new game from ``{"game", "rules", "options"?, "target", "teams"?, "dealer"?,
        "players"?}`` (or a whole game input with its deals, as exported), and its secret."""
        if not isinstance(obj, Mapping):
            raise InputError("body", "a game is a JSON object like {\"game\": \"belote\"}")
        data = {k: v for k, v in obj.items() if k not in META_KEYS}
        meta = read_meta(obj)
        data.setdefault("deals", [])
        if isinstance(data["deals"], list) and len(data["deals"]) > MAX_DEALS:
            raise InputError("deals", _too_many(len(data["deals"])))
        return self.create_match(Match.from_json(data), meta)

    def create_match(self, match: Match, meta: Mapping[str, Any] | None = None
                     ) -> tuple[GameView, str]:
        """Store a new game; it answers with its secret (only its hash is kept)."""
        check_limits(match)
        result = match.result()
        secret = new_secret()
        stored = self.store.create(match.to_json(), _summary(match, result), secret_hash(secret),
                                   meta)
        COUNTER_WRITES.labels("create").inc()
        view = self._remember(GameView(
            stored.id, stored.version, match, result, stored.created_at, stored.updated_at,
            stored.view_id, stored.secret_hash, stored.meta,
        ))
        return view, secret

    def _write(
        self, game_id: str, secret: str | None, if_match: int | None,
        change: Callable[[GameView], Match],
        change_meta: Callable[[GameView], Mapping[str, Any]] | None = None,
    ) -> GameView:
        """Apply ``change`` to the current game and store it with a version check.

        With ``if_match`` an old version is a :class:`GameConflictError`; without it a
        concurrent write is absorbed by reading the game again and applying the change again.
        """
        with self._write_locks[hash(game_id) % LOCK_STRIPES]:
            for _ in range(MAX_RETRIES):
                view = self._check(self._current(game_id), secret)
                if if_match is not None and if_match != view.version:
                    view = self._load(game_id)
                    if if_match != view.version:
                        raise GameConflictError(game_id, if_match, view.version)
                match = change(view)
                meta = view.meta if change_meta is None else change_meta(view)
                check_limits(match)
                for check in self.checks:
                    check(game_id, meta, view.match, match)
                result = match.result()
                try:
                    stored = self.store.put(
                        game_id, view.version, match.to_json(), _summary(match, result), meta
                    )
                except GameConflictError:
                    self._forget(game_id)
                    if if_match is not None:
                        raise
                    continue
                written = self._remember(GameView(
                    game_id, stored.version, match, result, stored.created_at,
                    stored.updated_at, view.view_id, view.secret_hash, stored.meta,
                ))
                COUNTER_WRITES.labels("change").inc()
                self._notify(written)
                for hook in self.written:
                    try:
                        hook(game_id, written.meta, match, result)
                    except Exception:  # the game is written: a hook's fault is only logged
                        _log.exception("after the write of game %s", game_id)
                return written
        raise GameBusyError(game_id)

    def add_deal(self, game_id: str, secret: str | None, obj: Any,
                 if_match: int | None = None) -> GameView:
        """Add a deal; an error if the game is already won or holds :data:`MAX_DEALS`."""

        def change(view: GameView) -> Match:
            if view.is_over:
                raise _game_over_error(view)
            if len(view.match.deals) >= MAX_DEALS:
                raise InputError("deals", _too_many(len(view.match.deals) + 1))
            return view.match.add(read_deal(obj, view.match))

        return self._write(game_id, secret, if_match, change)

    def replace_deal(
        self, game_id: str, secret: str | None, n: int, obj: Any, if_match: int | None = None
    ) -> GameView:
        """Replace deal ``n`` (from 1); the deals after it are scored again."""

        def change(view: GameView) -> Match:
            if not 1 <= n <= len(view.match.deals):
                raise DealNotFoundError(n, len(view.match.deals))
            return view.match.replace(n, read_deal(obj, view.match))

        return self._write(game_id, secret, if_match, change)

    def undo(self, game_id: str, secret: str | None, if_match: int | None = None) -> GameView:
        """Remove the last deal."""
        return self._write(game_id, secret, if_match, lambda view: view.match.undo())

    def update_settings(self, game_id: str, secret: str | None, obj: Any,
                        if_match: int | None = None) -> GameView:
        """Rename the teams, change the target, name the players or who dealt first:
        ``{"teams"?: {...}, "target"?: n, "players"?: {...}, "dealer"?: "N"}``."""
        if not isinstance(obj, Mapping):
            raise InputError("body", "settings are a JSON object like {\"teams\": {...}}")
        extra = sorted(set(obj) - {"teams", "target", *META_KEYS})
        if extra:
            raise InputError(extra[0], "only teams, target, players and dealer can change in a "
                                       "started game; start a new game to change the rules")
        read_meta(obj)  # checked before any write

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

        return self._write(game_id, secret, if_match, change,
                           lambda view: read_meta(obj, view.meta))

    def delete(self, game_id: str, secret: str | None, if_match: int | None = None) -> None:
        """Forget a game (only at version ``if_match`` when given)."""
        view = self._check(self._fresh(game_id), secret)
        if if_match is not None and if_match != view.version:
            raise GameConflictError(game_id, if_match, view.version)
        self.store.delete(game_id)
        COUNTER_WRITES.labels("delete").inc()
        self._forget(game_id)

    def archive(self, game_id: str, secret: str | None, archived: bool = True) -> None:
        """Hide a game from the list of saved games (``archived=False``: show it again)."""
        self._check(self._fresh(game_id), secret)
        self.store.set_archived(game_id, archived)
        COUNTER_WRITES.labels("archive").inc()

    def drop_untouched(self, secrets: Collection[str], keep: str | None = None
                       ) -> builtins.list[str]:
        """Forget the games of ``secrets`` left empty since they were started (none of their
        deals, names or settings ever written), but ``keep``; their ids."""
        gone = self.store.delete_untouched({secret_hash(s) for s in secrets}, keep)
        for game_id in gone:
            self._forget(game_id)
        return gone

    def health(self) -> str:
        """``"writable"``, or what is wrong with the store (for ``/healthz``)."""
        return self.store.health()

    def games_of(self, secrets: Mapping[str, str]) -> builtins.list[GameView]:
        """Every game (archived ones too) whose ``{id: secret}`` is in ``secrets``, parsed and
        scored, the latest first: what statistics are counted from."""
        rows = self.store.list({secret_hash(s) for s in secrets.values()}, len(secrets) or 1,
                               0, archived=None)
        return [self._fresh(row.id) for row in rows]


def check_limits(match: Match) -> None:
    """A counter game stays within bounds: at most :data:`MAX_DEALS` deals, a target, a start
    and corrections of at most :data:`MAX_POINTS` points."""
    if len(match.deals) > MAX_DEALS:
        raise InputError("deals", _too_many(len(match.deals)))
    if match.target > MAX_POINTS:
        raise InputError("target", f"{match.target} is more than the counter's {MAX_POINTS} "
                                   "points")
    for team, value in zip(TEAMS, match.start, strict=True):
        if abs(value) > MAX_POINTS:
            raise InputError(f"start.{team}", f"{value} is beyond the counter's ±{MAX_POINTS} "
                                              "points")
    for n, deal in enumerate(match.deals, start=1):
        for team, value in zip(TEAMS, deal.adjust, strict=True):
            if abs(value) > MAX_ADJUST:
                raise InputError(f"deals[{n}].adjust.{team}",
                                 f"{value} is beyond a correction's ±{MAX_ADJUST} points")


def _too_many(count: int) -> str:
    return (f"{count} deals is more than a counter game holds ({MAX_DEALS}; a real game has a "
            "few dozen): start a new game")


def _is_id(text: str) -> bool:
    return 0 < len(text) <= 32 and all(c in "0123456789abcdef" for c in text)


__all__ = [
    "MAX_DEALS",
    "CounterService",
    "GameConflictError",
    "GameNotFoundError",
    "GameView",
    "check_limits",
    "read_deal",
    "read_meta",
]
