"""The play table's operations on the server: tables created, joined, played and watched.

No rule lives here: every action goes through :meth:`rebelote.table.Table.act` (the engine),
every answer to a player is :func:`rebelote.table.table_view` of that player's seat. Each write
is checked against the table's stored version (:class:`TableConflictError` for the move that
comes second, whichever worker made it). Bots play in the server's event loop at the table's
pace, each move computed in a thread with a time limit: a bot that is slow or crashes is
replaced for that move by the random bot, and the table goes on.

The store is called as coroutines (:class:`~rebelote.store.play_tables.Tables`): SQLite on the event
loop (:class:`LocalTables`), PostgreSQL through asynchronous connections
(:class:`~rebelote.store.play_tables_pg.PgTables`), with no thread. An action is played on the
latest version this worker knows of the table and written with one statement checked against
that version; only when another write came first is the table read again and the action played
on it.

Watchers (the WebSockets) wait on an in-process event per table; with PostgreSQL every write
also sends ``NOTIFY rebelote_tables, '<id> <version>'`` so the other workers wake theirs
(:class:`~rebelote.store.play_tables_pg.PgListener`), and a worker that learns of a new version
replays only the actions it has not seen (:meth:`rebelote.table.Table.from_json`'s ``known``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from starlette.concurrency import run_in_threadpool

from rebelote.bots import Bot, make_bot
from rebelote.cards import SEATS
from rebelote.errors import IllegalActionError, InputError, RulesError
from rebelote.match import TARGETS
from rebelote.rules import Rules
from rebelote.store.play_tables import (
    CodeTakenError,
    StoreDownError,
    StoredTable,
    TableConflictError,
    TableNotFoundError,
    Tables,
    TableStore,
    new_code,
    table_text,
    text_digest,
)
from rebelote.table import Seat, Table, bot_spec, default_bot, table_view, token_hash
from rebelote.table.model import InviteError, SeatTakenError
from rebelote.table.view import turn_seat
from rebelote.web.calls import StoreCalls

log = logging.getLogger("rebelote.table")

CACHE_SIZE: Final = 512
#: Seconds a bot may think about one move before the random bot plays it instead.
BOT_TIMEOUT: Final = 5.0
MAX_PACE: Final = 5000
MAX_CLOCK: Final = 600
#: The longest pause between deals a table may ask for, in ms (``between``).
MAX_BETWEEN: Final = 60_000
MAX_NAME: Final = 24
#: The turn clock of a room (a table with seats kept for friends) when none is asked for:
#: a friend who walks away does not hold the table for ever.
ROOM_CLOCK: Final = 120
#: Milliseconds between the moves a bot makes for a player who is away.
AWAY_PACE: Final = 700
#: Seconds after a player's last live page closed before the seat's bot plays for them.
LEAVE_GRACE: Final = 30.0
#: Bots that do not search (a few hundredths of a millisecond a move, bounded): their moves are
#: played on the event loop, with no thread hop. Any other bot thinks in a thread, within
#: :data:`BOT_TIMEOUT`.
QUICK_BOTS: Final = frozenset({"random", "heuristic"})
#: Quick bots' moves played in a row before the event loop serves others (a table of bots only).
QUICK_CHUNK: Final = 12
#: Seat views kept encoded, by table, version and seat (the action's answer and the socket's
#: push of the same seat are then built and encoded once).
VIEW_CACHE_SIZE: Final = 1024


class SeatForbiddenError(PermissionError):
    """The request does not hold the secret of a seat of this table."""


class TableFullError(RuntimeError):
    """Every seat of the room is taken."""


@dataclass(frozen=True, slots=True)
class Loaded:
    id: str
    version: int
    table: Table
    code: str


def _text(obj: Mapping[str, Any], key: str, default: str, choices: tuple[str, ...]) -> str:
    raw = obj.get(key, default)
    if raw is None:
        raw = default
    if not isinstance(raw, str) or raw.strip().lower() not in choices:
        raise InputError(key, f"{raw!r} is not one of {', '.join(choices)}")
    return raw.strip().lower()


def _int(obj: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    raw = obj.get(key, default)
    if raw is None:
        raw = default
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise InputError(key, f"must be a whole number from {low} to {high}, not {raw!r}")
    return raw


def _name(raw: Any, field: str) -> str:
    if raw is None:
        return ""
    if not isinstance(raw, str) or len(raw.strip()) > MAX_NAME:
        raise InputError(field, f"a name of at most {MAX_NAME} characters")
    return " ".join(raw.split())


def table_from_request(obj: Any) -> tuple[Table, str]:
    """A new table from ``POST /api/tables``'s body, and the creator's secret (seat S).

    ``{"game", "rules"?, "options"?, "target"?, "bots"?: name or {"N": name, ...},
    "friends"?: ["N", "E", "W"] (seats kept for friends, played by bots until taken),
    "name"?, "pace"? (ms), "clock"? (s), "between"? (ms after a deal before the next one;
    -1: until a player goes on; 0, the default: at once)}``."""
    if not isinstance(obj, Mapping):
        raise InputError("body", "a table is a JSON object like {\"game\": \"coinche\"}")
    allowed = {"game", "rules", "options", "target", "bots", "friends", "name", "pace",
               "clock", "teams", "between"}
    unknown = sorted(k for k in obj if k not in allowed)
    if unknown:
        raise InputError(unknown[0], f"unknown field of a table (known: "
                                     f"{', '.join(sorted(allowed))})")
    game = _text(obj, "game", "coinche", ("belote", "coinche", "contree"))
    name = obj.get("rules") or "official"
    if not isinstance(name, str):
        raise InputError("rules", f"{name!r} is not a rule set's name, like \"official\"")
    options = obj.get("options") or {}
    if not isinstance(options, Mapping):
        raise InputError("options", "must be an object of rule options")
    try:
        rules = Rules.from_options(name.strip().lower(), game, dict(options))
    except RulesError as e:
        field = "rules" if str(e).startswith("rules") else "options"
        raise InputError(field, str(e).removeprefix("rules: ")) from None
    target = _int(obj, "target", rules.target, 1, 100_000)
    bots_raw = obj.get("bots") or default_bot()
    per_seat: dict[int, str] = {}
    if isinstance(bots_raw, str):
        per_seat = dict.fromkeys((0, 1, 3), bots_raw)
    elif isinstance(bots_raw, Mapping):
        for key, value in bots_raw.items():
            if key not in ("N", "E", "W"):
                raise InputError(f"bots.{key}", "bots sit at N, E or W (you sit S)")
            per_seat[SEATS.index(key)] = value
    else:
        raise InputError("bots", "a bot name, or an object {\"N\": name, \"E\": ..., \"W\": ...}")
    bots = {}
    for s in (0, 1, 3):
        b = per_seat.get(s, default_bot())
        bots[s] = bot_spec(b, f"bots.{SEATS[s]}" if isinstance(bots_raw, Mapping) else "bots")
    friends = obj.get("friends") or []
    if not isinstance(friends, list) or any(f not in ("N", "E", "W") for f in friends):
        raise InputError("friends", "a list of the seats kept for friends: N, E, W")
    token = secrets.token_urlsafe(24)
    seats = []
    for s in range(4):
        if s == 2:
            seats.append(Seat.human(token, bots[0], _name(obj.get("name"), "name")))
        elif SEATS[s] in friends:  # taken only with its own invitation
            seats.append(Seat.kept(bots[s], secrets.token_urlsafe(16)))
        else:
            seats.append(Seat.bot_seat(bots[s]))
    table = Table.new(rules, target, seats, dealer=3,
                      pace=_int(obj, "pace", 0, 0, MAX_PACE),
                      clock=_int(obj, "clock", ROOM_CLOCK if friends else 0, 0, MAX_CLOCK),
                      host=token_hash(token),
                      between=_int(obj, "between", 0, -1, MAX_BETWEEN))
    return table, token


class LocalTables:
    """A :class:`TableStore` (SQLAlchemy) called through the web layer's store calls: on the
    event loop for SQLite (``inline``), in the thread pool otherwise."""

    def __init__(self, store: TableStore, inline: bool) -> None:
        self.store = store
        self._call = StoreCalls(inline)  # the web layer's one way to call a store

    async def get_text(self, table_id: str) -> tuple[int, str]:
        return await self._call(self.store.get_text, table_id)

    async def id_of_code(self, code: str) -> str:
        return await self._call(self.store.id_of_code, code)

    async def create(self, data: Mapping[str, Any], *, game: str, code: str) -> StoredTable:
        return await self._call(self.store.create, data, game=game, code=code)

    async def put(self, table_id: str, expected: int, data: Mapping[str, Any], *, over: bool,
                  moves: str | None = None) -> int:
        return await self._call(self.store.put, table_id, expected, data, over=over)

    async def close(self) -> None:
        self.store.close()


class TableService:
    """Tables in a store, with the last ones kept replayed in memory (checked against the
    stored version), bots driven in the event loop, and watchers woken on every change."""

    def __init__(self, db: Tables, *, shared: bool = False) -> None:
        """``db``: the store; ``shared``: other workers write the same tables (PostgreSQL),
        and tell of their writes (:meth:`changed` is called for each)."""
        self.db = db
        self.shared = shared
        self._cache: OrderedDict[str, tuple[int, Table]] = OrderedDict()
        self._views: OrderedDict[tuple[str, int, int], str] = OrderedDict()
        self._versions: dict[str, int] = {}
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._clocks: dict[str, asyncio.Task[None]] = {}
        self._bots: dict[str, Bot] = {}
        self._analyses: dict[str, list[Any]] = {}
        self._sockets: dict[tuple[str, int], int] = {}
        self._leaving: dict[tuple[str, int], asyncio.Task[None]] = {}
        self.leave_grace = LEAVE_GRACE
        self._rng = random.Random(secrets.randbits(64))
        self.bot_timeout = BOT_TIMEOUT

    # -- loading and saving -------------------------------------------------------------------
    async def id_of_code(self, code: str) -> str:
        """The id of the table whose room code is ``code`` (:class:`TableNotFoundError` if
        none)."""
        return await self.db.id_of_code(code)

    async def load(self, table_id: str) -> Loaded:
        """The table as stored now. Its JSON is parsed and replayed only when this version is
        not in the cache (a version is written once: its table never changes)."""
        version, data = await self.db.get_text(table_id)
        return self._loaded(table_id, version, data)

    def _loaded(self, table_id: str, version: int, data: str) -> Loaded:
        """The table at ``version`` from its stored JSON ``data``: from the cache if it holds
        that version, else parsed, replaying only the actions after the version it holds."""
        table = self._cached(table_id, version)
        if table is not None:
            return Loaded(table_id, version, table, table.code)
        hit = self._cache.get(table_id)
        before = hit[1] if hit is not None and hit[0] < version else None
        table = Table.from_json(json.loads(data), known=before)
        self._put_cache(table_id, version, table)
        return Loaded(table_id, version, table, table.code)

    def _cached(self, table_id: str, version: int) -> Table | None:
        """The table at ``version`` if it is the one this worker holds."""
        hit = self._cache.get(table_id)
        if hit is None or hit[0] != version:
            return None
        self._cache.move_to_end(table_id)
        return hit[1]

    async def load_latest(self, table_id: str) -> Loaded:
        """The table at the latest version this worker knows of (its own writes, and the
        others' through NOTIFY) from the cache when it is there, else as stored: what a socket
        pushes after a change."""
        version = self._versions.get(table_id)
        table = self._cached(table_id, version) if version is not None else None
        if table is None:
            return await self.load(table_id)
        return Loaded(table_id, version or 0, table, table.code)

    def _put_cache(self, table_id: str, version: int, table: Table) -> None:
        """Hold ``table`` at ``version`` (the newest version of each table is held, for the
        :data:`CACHE_SIZE` tables used last)."""
        hit = self._cache.get(table_id)
        if hit is None or hit[0] <= version:
            self._cache[table_id] = (version, table)
            self._cache.move_to_end(table_id)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        if self._versions.get(table_id, 0) < version:
            self._versions[table_id] = version

    async def save(self, loaded: Loaded, table: Table) -> Loaded:
        """Write ``table`` over ``loaded`` if the table is still at ``loaded.version``
        (:class:`TableConflictError` otherwise); with PostgreSQL the write's transaction also
        sends ``NOTIFY`` (delivered at its commit) to the other workers."""
        version = await self.db.put(loaded.id, loaded.version, table.to_json(),
                                    over=table.is_over, moves=self._moves(loaded.table, table))
        self._put_cache(loaded.id, version, table)
        self.changed(loaded.id, version)
        return Loaded(loaded.id, version, table, loaded.code)

    # -- watchers -----------------------------------------------------------------------------
    def _moves(self, before: Table, after: Table) -> str | None:
        """The moves from ``before`` to ``after`` as JSON, for the other workers (``None``
        when no other worker shares the store, or the write was not only moves)."""
        if not self.shared:
            return None
        moves = after.moves_after(before)
        return None if moves is None else json.dumps(moves, separators=(",", ":"))

    def changed(self, table_id: str, version: int, digest: str | None = None,
                moves: str | None = None) -> None:
        """Wake whoever watches ``table_id`` (this worker's sockets). ``digest`` and ``moves``
        (another worker's ``NOTIFY``): when this worker holds the version before and watches
        the table, it plays the moves and keeps the table if its text has that digest (the
        socket then pushes it without reading the store)."""
        if digest is not None and moves is not None and table_id in self._watchers:
            self._play_moves(table_id, version, digest, moves)
        if self._versions.get(table_id, 0) < version:
            self._versions[table_id] = version
        for wake in self._watchers.get(table_id, ()):
            wake.set()

    def _play_moves(self, table_id: str, version: int, digest: str, moves: str) -> None:
        hit = self._cache.get(table_id)
        if hit is None or hit[0] != version - 1:
            return
        try:
            table = hit[1].with_moves(json.loads(moves))
        except Exception:  # moves that cannot be played: the table is read instead
            table = None
        if table is not None and text_digest(table_text(table.to_json())) == digest:
            self._put_cache(table_id, version, table)
        else:
            log.warning("table %s: the moves told for version %d do not give the table "
                        "written; it is read instead", table_id, version)

    def watch(self, table_id: str) -> asyncio.Event:
        """An event set at every change of ``table_id`` (a socket clears it and pushes the
        table as it is then; :meth:`unwatch` when the socket closes)."""
        wake = asyncio.Event()
        self._watchers.setdefault(table_id, set()).add(wake)
        return wake

    def unwatch(self, table_id: str, wake: asyncio.Event) -> None:
        watchers = self._watchers.get(table_id)
        if watchers is not None:
            watchers.discard(wake)
            if not watchers:
                del self._watchers[table_id]

    def known_version(self, table_id: str) -> int:
        """The newest version of ``table_id`` this worker knows of (0: none)."""
        return self._versions.get(table_id, 0)

    async def catch_up(self) -> None:
        """Read the version of every table watched on this worker and wake the watchers of
        those that moved on: what the other workers' ``NOTIFY`` would have said while this
        worker was not listening (PostgreSQL's listener calls it each time it listens again)."""
        for table_id in {tid for tid, _ in self._sockets}:
            try:
                version, data = await self.db.get_text(table_id)
                if version > self._versions.get(table_id, 0):
                    self._loaded(table_id, version, data)
                    self.changed(table_id, version)
            except (TableNotFoundError, StoreDownError):
                continue
            except Exception:  # one table that cannot be read holds up none of the others
                log.exception("catching up with table %s", table_id)

    def connected(self, table_id: str, seat: int) -> None:
        """A live page of ``seat`` opened (its player is here)."""
        key = (table_id, seat)
        self._sockets[key] = self._sockets.get(key, 0) + 1
        task = self._leaving.pop(key, None)
        if task is not None:
            task.cancel()

    def disconnected(self, table_id: str, seat: int) -> None:
        """A live page of ``seat`` closed: when none is left for :attr:`leave_grace` seconds,
        the player has left and the seat's bot plays for them (``away``)."""
        key = (table_id, seat)
        left = self._sockets.get(key, 1) - 1
        if left > 0:
            self._sockets[key] = left
            return
        self._sockets.pop(key, None)
        if key not in self._leaving:
            self._leaving[key] = asyncio.create_task(self._leave(table_id, seat))

    async def _leave(self, table_id: str, seat: int) -> None:
        try:
            await asyncio.sleep(self.leave_grace)
            self._leaving.pop((table_id, seat), None)
            if self._sockets.get((table_id, seat)):
                return
            loaded = await self.load(table_id)
            old = loaded.table.seats[seat]
            if old.kind != "human" or old.away or loaded.table.is_over:
                return
            away = Seat(old.kind, old.bot, old.name, old.token_hash, True)
            loaded = await self.save(loaded, loaded.table.with_seat(seat, away))
            await self.after_write(loaded)
        except (TableConflictError, asyncio.CancelledError):
            pass
        except Exception:
            log.exception("leaving table %s", table_id)

    # -- seats --------------------------------------------------------------------------------
    @staticmethod
    def seat_of(loaded: Loaded, token: str | None) -> int:
        seat = loaded.table.seat_of(token)
        if seat is None:
            raise SeatForbiddenError(
                "Authorization: this secret is not one of this table's seats (send "
                "'Authorization: Bearer <token>' with the token given when you sat down)")
        return seat

    def view_text(self, loaded: Loaded, seat: int) -> str:
        """:meth:`view` as JSON text, built and encoded once per table version and seat (the
        answer to an action and the socket's push to the same seat share it)."""
        key = (loaded.id, loaded.version, seat)
        out = self._views.get(key)
        if out is None:
            out = json.dumps(self.view(loaded, seat), ensure_ascii=False, allow_nan=False,
                             separators=(",", ":"))
            self._views[key] = out
            while len(self._views) > VIEW_CACHE_SIZE:
                self._views.popitem(last=False)
        return out

    def view(self, loaded: Loaded, seat: int) -> dict[str, Any]:
        out = table_view(loaded.table, seat)
        out["id"] = loaded.id
        out["version"] = loaded.version
        out["code"] = loaded.code
        out["pace"] = loaded.table.pace
        out["clock"] = loaded.table.clock
        out["between"] = loaded.table.between
        out["free_seats"] = [turn_seat(s, seat) for s in self.free_seats(loaded.table)]
        return out

    @staticmethod
    def free_seats(table: Table) -> list[int]:
        """Seats a newcomer may take: the ones kept for friends first (each with its own
        invitation), then the bots' (held from the next deal)."""
        return [s for kind in ("open", "bot") for s in (0, 1, 3)
                if table.seats[s].kind == kind]

    # -- operations ---------------------------------------------------------------------------
    async def create(self, body: Any) -> tuple[Loaded, str]:
        table, token = table_from_request(body)
        for _ in range(5):
            code = new_code()
            table = dataclasses.replace(table, code=code)
            try:
                stored = await self.db.create(table.to_json(), game=table.rules.game,
                                              code=code)
                break
            except CodeTakenError:  # a code taken already: draw another
                continue
        else:
            raise RuntimeError("no free join code")
        self._put_cache(stored.id, stored.version, table)
        loaded = await self.after_write(Loaded(stored.id, stored.version, table, table.code))
        return loaded, token

    async def act(self, table_id: str, token: str | None, action: Any,
                  expected: int | None = None) -> tuple[Loaded, int]:
        """``action`` by the seat whose secret is ``token``; the bots answer when the table
        plays at once (pace 0). Played on the latest version of the table this worker knows
        and written in one version-checked statement with the quick bots' answers; read again
        and played again only if another write came first (or the table is not in memory)."""
        if not isinstance(action, str):
            raise InputError("action", "missing: a bid or a card as text, like \"pass\", "
                                       "\"90 hearts\" or \"JH\"")
        known = self._versions.get(table_id)
        cached = self._cached(table_id, known) if known is not None else None
        loaded = Loaded(table_id, known, cached, cached.code) \
            if known is not None and cached is not None else None
        for attempt in range(3):
            fresh = loaded is None
            if loaded is None:
                loaded = await self.load(table_id)
            try:
                seat = self.seat_of(loaded, token)
                if expected is not None and expected != loaded.version:
                    raise TableConflictError(table_id, expected)
                saved = await self.save(loaded, self._acted(loaded.table, seat, action))
            except (SeatForbiddenError, IllegalActionError, TableConflictError) as e:
                # on the version held in memory the table may have moved on since: the answer
                # is the stored table's; a write that lost the race to another is played
                # again on the table as it is then, unless the caller named its version
                lost_race = isinstance(e, TableConflictError) and expected is None
                if fresh and not (lost_race and attempt < 2):
                    raise
                loaded = None
                continue
            return await self.after_write(saved), seat
        raise TableConflictError(table_id, expected or 0)  # pragma: no cover  (raised above)

    def _acted(self, table: Table, seat: int, action: str) -> Table:
        """The table after ``seat``'s ``action``, with the quick bots' answers up to the
        player's next turn when the table plays at once (pace 0)."""
        if table.seats[seat].away:  # back at the table
            table = table.with_seat(seat, _back(table.seats[seat]))
        table = table.play(seat, action)
        if table.pace == 0 and not any(s.away for s in table.seats):
            table = self.quick_moves(table, random.Random(self._rng.getrandbits(64)))
        return table

    async def join(self, code: str, name: Any, wanted: str | None = None,
                   invite: str | None = None) -> tuple[Loaded, str, int]:
        """A newcomer takes a seat of the room whose join code is ``code`` (never its id): a
        seat kept for a friend with its ``invite`` (held at once), else the one asked for
        (``N``, ``E``, ``W``) or the first bot's seat, held from the next deal
        (:meth:`rebelote.table.Table.sit`). :class:`TableFullError` when none is free,
        :class:`InviteError` for a kept seat asked for without its invitation."""
        if wanted is not None and wanted not in ("N", "E", "W"):
            raise InputError("seat", f"{wanted!r}: a friend sits at N, E or W")
        if invite is not None and not isinstance(invite, str):
            raise InputError("invite", "the invitation's secret, as text")
        table_id = await self.db.id_of_code(code)
        for _ in range(10):
            loaded = await self.load(table_id)
            table = loaded.table
            if table.is_over:
                raise TableNotFoundError(code)  # a code ends with its game
            invited = table.invited_seat(invite)
            if wanted is not None:
                seat = SEATS.index(wanted)
                if table.seats[seat].kind == "human":
                    raise TableFullError(f"seat: {wanted} is taken")
            elif invited is not None:
                seat = invited
            else:
                bots = [s for s in (0, 1, 3) if table.seats[s].kind == "bot"]
                if not bots:
                    if any(table.seats[s].kind == "open" for s in (0, 1, 3)):
                        raise InviteError("invite: the free seats are kept for friends: take "
                                          "yours with its own invitation link")
                    raise TableFullError("seat: every seat of this table is taken")
                seat = bots[0]
            token = secrets.token_urlsafe(24)
            try:
                seated = table.sit(seat, token, _name(name, "name"), invite)
            except SeatTakenError as e:
                raise TableFullError(str(e)) from None
            try:
                loaded = await self.save(loaded, seated)
            except TableConflictError:
                continue
            return await self.after_write(loaded), token, seat
        raise TableConflictError(table_id, 0)

    async def hand_back(self, table_id: str, token: str | None, seat_name: str) -> Loaded:
        """The table's host hands ``seat_name``'s seat back to its bot (a player who stalls
        the room, a seat kept for a friend who does not come): its secret stops working, and a
        newcomer may take it from the next deal."""
        loaded = await self.load(table_id)
        host = self.seat_of(loaded, token)
        if not loaded.table.is_host(host):
            raise SeatForbiddenError("Authorization: only the table's host (who started it) "
                                     "may hand a seat back to its bot")
        if seat_name not in ("N", "E", "W", "S"):
            raise InputError("seat", f"{seat_name!r}: a seat is N, E, S or W")
        seat = SEATS.index(seat_name)
        if seat == host:
            raise InputError("seat", "your own seat: hand it back with /release")
        if loaded.table.seats[seat].kind == "bot":
            return loaded
        loaded = await self.save(loaded, loaded.table.hand_back(seat))
        return await self.after_write(loaded)

    async def fill(self, table_id: str, token: str | None) -> Loaded:
        """Hand every seat still kept for a friend to its bot (any player may)."""
        loaded = await self.load(table_id)
        self.seat_of(loaded, token)
        table = loaded.table
        for s, seat in enumerate(table.seats):
            if seat.kind == "open":
                table = table.with_seat(s, Seat.bot_seat(seat.bot))
        if table is loaded.table:
            return loaded
        loaded = await self.save(loaded, table)
        return await self.after_write(loaded)

    async def release(self, table_id: str, token: str | None) -> Loaded:
        """Hand the caller's seat back to its bot (the secret stops working)."""
        loaded = await self.load(table_id)
        seat = self.seat_of(loaded, token)
        loaded = await self.save(loaded, loaded.table.hand_back(seat))
        return await self.after_write(loaded)

    async def back(self, table_id: str, token: str | None) -> Loaded:
        """A player who was away takes the seat back from its bot."""
        loaded = await self.load(table_id)
        seat = self.seat_of(loaded, token)
        if not loaded.table.seats[seat].away:
            return loaded
        loaded = await self.save(loaded, loaded.table.with_seat(seat, _back(
            loaded.table.seats[seat])))
        return await self.after_write(loaded)

    async def after_write(self, loaded: Loaded) -> Loaded:
        """Let the bots play: at once (pace 0, answered in this request) or at the table's
        pace in the background. Start the turn clock of a human to act."""
        table = loaded.table
        if table.bot_to_play:
            if table.pace == 0 and not any(seat.away for seat in table.seats):
                return await self.run_bots(loaded)
            self.start_driver(loaded.id)
        elif table.clock and table.turn >= 0:
            self.start_clock(loaded.id, loaded.version, table.clock)
        return loaded

    # -- bots ---------------------------------------------------------------------------------
    def _bot(self, name: str) -> Bot:
        bot = self._bots.get(name)
        if bot is None:
            bot = self._bots[name] = make_bot(name)
        return bot

    async def bot_move(self, table: Table) -> str:
        """The bot's move for the seat to act, in a thread, within :attr:`bot_timeout`; the
        random bot's if it is too slow or fails."""
        seat = table.seats[table.turn]
        rng = random.Random(self._rng.getrandbits(64))
        try:
            bot = self._bot(seat.bot)
            if self.is_quick(table):  # no search: on the event loop
                return table.bot_action(bot, rng)
            return await asyncio.wait_for(run_in_threadpool(table.bot_action, bot, rng),
                                          self.bot_timeout)
        except Exception as e:  # a slow or broken bot never blocks the table
            log.warning("bot %s failed at a table (%s): the random bot plays instead",
                        seat.bot, type(e).__name__)
            return table.bot_action(self._bot("random"), rng)

    @staticmethod
    def is_quick(table: Table) -> bool:
        """The seat to act is played by a bot that does not search (:data:`QUICK_BOTS`)."""
        return table.bot_to_play and table.seats[table.turn].bot.partition(":")[0] in QUICK_BOTS

    def quick_moves(self, table: Table, rng: random.Random) -> Table:
        """At most :data:`QUICK_CHUNK` moves of quick bots in a row, on the event loop; a bot
        that fails is replaced for that move by the random bot."""
        for _ in range(QUICK_CHUNK):
            if not self.is_quick(table):
                break
            seat = table.seats[table.turn]
            try:
                table = table.act(table.turn, table.bot_action(self._bot(seat.bot), rng))
            except Exception as e:  # a broken bot never blocks the table
                log.warning("bot %s failed at a table (%s): the random bot plays instead",
                            seat.bot, type(e).__name__)
                table = table.act(table.turn, table.bot_action(self._bot("random"), rng))
        return table

    async def quick_bots(self, table: Table) -> Table:
        """The quick bots' moves up to a human's turn or a searching bot's, played on the
        event loop (no thread hop: they take microseconds), :data:`QUICK_CHUNK` at a time."""
        rng = random.Random(self._rng.getrandbits(64))
        table = self.quick_moves(table, rng)
        while self.is_quick(table):  # a table of bots only: let the loop serve others
            await asyncio.sleep(0)
            table = self.quick_moves(table, rng)
        return table

    async def run_bots(self, loaded: Loaded) -> Loaded:
        """Every bot move up to a human's turn, saved in one write: the quick bots' on the
        event loop (:meth:`quick_bots`), the others' computed in one thread call. If these
        take longer than :attr:`bot_timeout` (or one fails), the moves made so far are kept
        and the random bot plays the move in hand; the bots then go on."""
        table = loaded.table
        start = table
        while table.bot_to_play:
            if self.is_quick(table):
                table = await self.quick_bots(table)
                continue
            done: list[Table] = []
            stop = threading.Event()
            rng = random.Random(self._rng.getrandbits(64))

            def work(first: Table, done: list[Table] = done, stop: threading.Event = stop,
                     rng: random.Random = rng) -> None:
                t = first
                while t.bot_to_play and not stop.is_set():
                    t = t.act(t.turn, t.bot_action(self._bot(t.seats[t.turn].bot), rng))
                    done.append(t)

            try:
                await asyncio.wait_for(run_in_threadpool(work, table), self.bot_timeout)
                if done:
                    table = done[-1]
            except Exception as e:  # a slow or broken bot never blocks the table
                stop.set()
                base = done[-1] if done else table
                log.warning("bot %s failed at a table (%s): the random bot plays instead",
                            base.seats[base.turn].bot, type(e).__name__)
                table = base.act(base.turn, base.bot_action(self._bot("random"), rng))
        if table is start:
            return loaded
        try:
            loaded = await self.save(loaded, table)
        except TableConflictError:  # a seat changed meanwhile: the bots play from there
            fresh = await self.load(loaded.id)
            if fresh.version == loaded.version:
                raise
            return await self.after_write(fresh)
        if table.clock and table.turn >= 0:
            self.start_clock(loaded.id, loaded.version, table.clock)
        return loaded

    def start_driver(self, table_id: str) -> None:
        task = self._drivers.get(table_id)
        if task is None or task.done():
            self._drivers[table_id] = asyncio.create_task(self._drive(table_id))

    async def _drive(self, table_id: str) -> None:
        """Bots' moves one at a time, ``pace`` ms apart, until a human is to act."""
        try:
            while True:
                loaded = await self.load(table_id)
                table = loaded.table
                if not table.bot_to_play:
                    if table.clock and table.turn >= 0:
                        self.start_clock(table_id, loaded.version, table.clock)
                    return
                away = table.seats[table.turn].away
                # the bot thinks during the pace, and its move is answered at the pace
                # whether it had a choice or not (no timing channel, table-attack #12)
                thinking = asyncio.ensure_future(self.bot_move(table))
                try:
                    await asyncio.sleep(max(table.pace, AWAY_PACE if away else 0) / 1000)
                    action = await thinking
                finally:
                    thinking.cancel()
                with contextlib.suppress(TableConflictError, IllegalActionError):
                    await self.save(loaded, table.act(table.turn, action))
        except Exception:
            log.exception("the bots of table %s stopped", table_id)
        finally:
            self._drivers.pop(table_id, None)

    def start_clock(self, table_id: str, version: int, seconds: int) -> None:
        old = self._clocks.pop(table_id, None)
        if old is not None:
            old.cancel()
        self._clocks[table_id] = asyncio.create_task(self._clock(table_id, version, seconds))

    async def _clock(self, table_id: str, version: int, seconds: int) -> None:
        """When a human lets the clock run out, the seat's bot plays for them (``away``) until
        they act again."""
        try:
            await asyncio.sleep(seconds)
            loaded = await self.load(table_id)
            table = loaded.table
            if loaded.version != version or table.turn < 0 or table.bot_to_play:
                return
            seat = table.seats[table.turn]
            table = table.with_seat(table.turn, Seat(seat.kind, seat.bot, seat.name,
                                                     seat.token_hash, True))
            loaded = await self.save(loaded, table)
            await self.after_write(loaded)
        except (TableConflictError, asyncio.CancelledError):
            pass
        except Exception:
            log.exception("the clock of table %s stopped", table_id)

    async def analysis(self, table_id: str, token: str | None, n: int) -> tuple[Loaded, int,
                                                                                list[Any]]:
        """The solver's analysis of finished deal ``n`` (computed once, in a thread)."""
        from rebelote.table.analysis import analyse, solver_available

        loaded = await self.load(table_id)
        seat = self.seat_of(loaded, token)
        finished = loaded.table.replay.finished
        if not 1 <= n <= len(finished):
            raise InputError("n", f"deal {n} of this table is not finished")
        if not solver_available():
            raise InputError("analysis", "the double-dummy solver is not part of this build")
        key = f"{table_id}:{n}"
        cached = self._analyses.get(key)
        if cached is not None:
            return loaded, seat, cached
        done: list[Any] = await asyncio.wait_for(run_in_threadpool(analyse, finished[n - 1]),
                                                 120)
        self._analyses[key] = done
        while len(self._analyses) > CACHE_SIZE:
            self._analyses.pop(next(iter(self._analyses)))
        return loaded, seat, done

    async def close(self) -> None:
        tasks = (*self._drivers.values(), *self._clocks.values(), *self._leaving.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task


def _back(seat: Seat) -> Seat:
    return Seat(seat.kind, seat.bot, seat.name, seat.token_hash, False)


__all__ = ["ROOM_CLOCK", "TARGETS", "InviteError", "LocalTables", "SeatForbiddenError",
           "TableFullError", "TableService", "table_from_request"]
