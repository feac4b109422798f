"""The live table server's operations: tables created, joined, played and watched (lila's
``RoundAsyncActor`` and ``Env``).

No rule lives here: every action goes through :meth:`rebelote.table.Table.act` (the engine),
every answer to a player is :func:`rebelote.table.table_view` of that player's seat. The work is
split by concern, one collaborator each:

- :class:`~rebelote.tableserver.repo.TableRepo`: the tables kept in memory, their versions,
  load and save, the watchers woken at every change;
- :class:`~rebelote.tableserver.bots.BotRunner`: the bots' decisions, in a bounded pool, each
  with its own budget;
- :class:`~rebelote.tableserver.clock.TurnClock` and
  :class:`~rebelote.tableserver.presence.Presence`: the turn clock and who is at the table,
  their timers kept with the table and restored at start-up.

Every command that writes a table passes through that table's **actor**
(:meth:`TableService.serial`): one at a time per table, in the order they came, so that two
commands of this worker never race and are never retried. Each write is still checked against
the stored version (another worker may have written first, on PostgreSQL: then the command is
played once more on the table as stored).

A table **pauses** at the end of a deal when no human is at it (every human seat away, or none
left): its bots stop there, and it goes on when a player comes back.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any, Final, Protocol

from rebelote.bots import DEFAULT_LEVEL, level_of_spec, level_spec, player_level, player_levels
from rebelote.bots.explain import Explanation
from rebelote.cards import SEATS
from rebelote.errors import IllegalActionError, InputError, RulesError
from rebelote.metrics import TABLE_ACTIONS
from rebelote.rules import Rules
from rebelote.secret import new_secret, secret_hash
from rebelote.store.play_tables import (
    CodeTakenError,
    StoreDownError,
    TableConflictError,
    TableExistsError,
    TableNotFoundError,
    Tables,
    new_code,
    new_table_id,
)
from rebelote.table import Seat, Table, bot_spec, table_view
from rebelote.table.model import InviteError, NotYourTurnError, SeatTakenError
from rebelote.table.view import turn_seat
from rebelote.tableserver.bots import BotRunner, Decided, Superseded, release_seconds
from rebelote.tableserver.clock import Timers, TurnClock, clock_runs
from rebelote.tableserver.explained import Explained
from rebelote.tableserver.observe import decision_told
from rebelote.tableserver.presence import LEAVE_GRACE, Presence
from rebelote.tableserver.repo import Loaded, TableRepo
from rebelote.tableserver.robot import Robots
from rebelote.tableserver.watching import watch_info

log = logging.getLogger("rebelote.table")

MAX_PACE: Final = 5000
MAX_CLOCK: Final = 600
#: The longest pause between deals a table may ask for, in ms (``between``).
MAX_BETWEEN: Final = 60_000
MAX_NAME: Final = 24
#: The turn clock of a room (a table with seats kept for friends) when none is asked for:
#: a friend who walks away does not hold the table for ever.
ROOM_CLOCK: Final = 120
#: The highest target a table plays to: what real tables play, with room to spare (a table of
#: bots reaches about 64 deals at 10,000 points).
MAX_TARGET: Final = 10_000
#: Milliseconds between the moves a bot makes for a player who is away.
AWAY_PACE: Final = 700
#: The longest action's text (the longest real one, two declarations, is about 60
#: characters): a longer one is refused unread, and never echoed back in the error.
MAX_ACTION: Final = 120


class SeatForbiddenError(PermissionError):
    """The request does not hold the secret of a seat of this table."""


class TableFullError(RuntimeError):
    """Every seat of the room is taken."""


class Allowance(Protocol):
    """What a caller who may start a table takes just before it does (the web's count of
    tables started, ``rebelote.web.table.deps.TableStart``): awaited, it may refuse by
    raising; ``give_back`` when nothing was started after all."""

    async def __call__(self) -> None: ...

    async def give_back(self) -> None: ...


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


def _bool(obj: Mapping[str, Any], key: str, default: bool) -> bool:
    raw = obj.get(key, default)
    if not isinstance(raw, bool):
        raise InputError(key, f"{raw!r}: true or false")
    return raw


def _name(raw: Any, field: str) -> str:
    if raw is None:
        return ""
    if not isinstance(raw, str) or len(raw.strip()) > MAX_NAME:
        raise InputError(field, f"a name of at most {MAX_NAME} characters")
    return " ".join(raw.split())


def table_level(raw: object, field: str) -> tuple[str, str]:
    """A seat's bot as a table takes it, and as the table keeps it for its next game: the key
    of one of the levels offered to people (``débutant`` is ``debutant``) or the registry spec
    asked for, then the spec the seat is played by (:func:`table_bot`)."""
    try:
        level = player_level(raw).key
    except ValueError:
        level = ""
    spec = table_bot(raw, field)
    return level or spec, spec


def table_bot(raw: object, field: str) -> str:
    """A seat's bot as a table takes it: one of the levels offered to people (``débutant``,
    ``club``, ``fort``, ``expert``: the registry's :data:`~rebelote.bots.PLAYER_LEVELS`), or a
    registry spec with a **named** level (``heuristic``, ``pimc:fast``), its bidder said or not
    (``pimc:fast+tuned``, each level's own spec). Never a budget of the caller's choosing
    (``pimc:10000``, ``pimc:64-32-16+learned``): :class:`InputError` on ``field``."""
    spec = level_spec(raw)
    if spec is not None:
        return spec
    spec = bot_spec(raw, field)
    name, _, level = spec.partition(":")
    from rebelote.bots import bot_levels

    # a named level may carry its bidder (``pimc:fast+tuned``, the ``club`` level's own spec)
    if level and level.partition("+")[0] not in bot_levels(name):
        levels = ", ".join(lv.key for lv in player_levels())
        raise InputError(field, f"{raw!r}: a table's bots play at a named level ({levels}, "
                                f"or a bot's own named levels), not a budget")
    return spec


def table_from_request(obj: Any) -> tuple[Table, str]:
    """A new table from ``POST /api/tables``'s body, and the creator's secret (seat S).

    ``{"game", "rules"?, "options"?, "target"? (at most :data:`MAX_TARGET`), "bots"?: a level
    or {"N": level, ...} (the seats not said: :data:`~rebelote.bots.DEFAULT_LEVEL`),
    "friends"?: ["N", "E", "W"] (seats kept for friends, played by bots until taken),
    "name"?, "pace"? (ms), "clock"? (s), "between"? (ms after a deal before the next one; -1:
    until a player goes on; 0, the default: at once), "hints"? (the players may ask for a hint
    at their turn: true by default at a table alone, false in a room with friends)}``."""
    if not isinstance(obj, Mapping):
        raise InputError("body", "a table is a JSON object like {\"game\": \"coinche\"}")
    allowed = {"game", "rules", "options", "target", "bots", "friends", "name", "pace",
               "clock", "teams", "between", "hints"}
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
    target = _int(obj, "target", min(rules.target, MAX_TARGET), 1, MAX_TARGET)
    bots_raw = obj.get("bots") or DEFAULT_LEVEL
    per_seat: dict[int, object] = {}
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
    levels = {}
    for s in (0, 1, 3):
        b = per_seat.get(s, DEFAULT_LEVEL)
        levels[s], bots[s] = table_level(
            b, f"bots.{SEATS[s]}" if isinstance(bots_raw, Mapping) else "bots")
    friends = obj.get("friends") or []
    if not isinstance(friends, list) or any(f not in ("N", "E", "W") for f in friends):
        raise InputError("friends", "a list of the seats kept for friends: N, E, W")
    token = new_secret()
    seats = []
    for s in range(4):
        if s == 2:
            seats.append(Seat.human(token, bots[0], _name(obj.get("name"), "name")))
        elif SEATS[s] in friends:  # taken only with its own invitation
            seats.append(Seat.kept(bots[s], new_secret()))
        else:
            seats.append(Seat.bot_seat(bots[s]))
    table = Table.new(rules, target, seats, dealer=3,
                      pace=_int(obj, "pace", 0, 0, MAX_PACE),
                      clock=_int(obj, "clock", ROOM_CLOCK if friends else 0, 0, MAX_CLOCK),
                      host=secret_hash(token),
                      between=_int(obj, "between", 0, -1, MAX_BETWEEN),
                      levels=(levels[0], levels[1], levels[0], levels[3]),
                      hints=_bool(obj, "hints", not friends))
    return table, token


def settings_of(table: Table, seat: int) -> dict[str, Any]:
    """The body of a new table with ``table``'s settings, as its player at ``seat`` (who sits
    South at the new one) asked for them: its game, rules and target, the bots' levels as
    asked (a table stored before they were kept: the level each seat's spec stands for), its
    pace, clock and pause between deals, whether hints are allowed, the player's name."""
    def level(s: int) -> str:
        if len(table.levels) == 4 and table.levels[s]:
            return table.levels[s]
        found = level_of_spec(table.seats[s].bot)
        return found.key if found is not None else table.seats[s].bot

    return {"game": table.rules.game, "rules": table.rules.name,
            "options": {k: v for k, v in table.rules.changed_options().items()
                        if k != "target"},
            "target": table.target,
            "bots": {"N": level(0), "E": level(1), "W": level(3)},
            "pace": table.pace, "clock": table.clock, "between": table.between,
            "hints": table.hints, "name": table.seats[seat].name or None}


def next_game_of(table: Table) -> Table:
    """The next game of the finished ``table``: its settings as :func:`settings_of` reads them
    (the bots at the levels asked for), and the same seats. Each human keeps their seat, name
    and secret (its hash: the server never had the secret), so that every player of the room
    moves into it with their own secret and nobody else may take their seat; a seat handed
    back to its bot stays a bot's (its player may join again with the new game's code); a
    seat still kept for a friend stays kept, with a new invitation. The host stays the
    host."""
    fresh, _ = table_from_request(settings_of(table, 2))
    seats = []
    for old, new in zip(table.seats, fresh.seats, strict=True):
        if old.kind == "human" and old.token_hash:
            seats.append(Seat("human", new.bot, old.name, old.token_hash))
        elif old.kind == "open":
            seats.append(Seat.kept(new.bot, new_secret()))
        else:
            seats.append(Seat.bot_seat(new.bot))
    return dataclasses.replace(fresh, seats=(seats[0], seats[1], seats[2], seats[3]),
                               host=table.host, teams=table.teams)


def paused(table: Table) -> bool:
    """No human is at the table (every human seat away, or none left) and its deal in play has
    not begun: its bots wait there for a player to come back."""
    if table.is_over or table.deals[-1].actions:
        return False
    return all(s.away for s in table.seats if s.kind == "human")


def _back(seat: Seat) -> Seat:
    return dataclasses.replace(seat, away=False)


def _away(seat: Seat) -> Seat:
    return dataclasses.replace(seat, away=True)


class TableService:
    """The live tables of this worker: one actor per table through which every write passes,
    and one collaborator per concern (the repository, the bots, the clock, presence)."""

    def __init__(self, db: Tables, *, shared: bool = False, runner: BotRunner | None = None
                 ) -> None:
        """``db``: the store; ``shared``: other workers write the same tables (PostgreSQL),
        and tell of their writes (:meth:`changed` is called for each)."""
        self.repo = TableRepo(db, shared=shared)
        self.bots = runner or BotRunner()
        if decision_told not in self.bots.listeners:  # counted and logged (docs/ops-metrics.md)
            self.bots.listeners.append(decision_told)
        self.repo.on_change.append(self.bots.moved_on)
        self.timers = self.repo.timers = Timers(db)  # stored with each write of a table
        self.clock = TurnClock(self.timers, self._timed_out)
        self.presence = Presence(self.timers, self._left, LEAVE_GRACE)
        self._actors: dict[str, tuple[asyncio.Lock, int]] = {}
        self._drivers: dict[str, asyncio.Task[None]] = {}
        #: the tables whose driver was asked for again while it ran: it loads the table once
        #: more before it stops (it may have read the table before the write that asked)
        self._wake: set[str] = set()
        self._analyses: dict[str, list[Any]] = {}
        #: each bot move's explanation, given out once its deal is finished (analysis)
        self.explained = Explained()
        self._hints: dict[tuple[str, int, int, int], Explanation] = {}
        self.bots.listeners.append(self._explained)
        #: ... and stored with the deal once it is finished (one task a table at a time)
        self.repo.on_change.append(self._keep_explained)
        self._keeping: dict[str, asyncio.Task[None]] = {}
        #: le robot à votre place: each finished deal replayed with the level in a human's seat
        self.robots = Robots(self.bots, self.repo.db)
        self.repo.on_saved.append(self.robots.saved)
        #: Watchers' sockets open on this worker, per table (the players see how many).
        self.watching: dict[str, int] = {}

    # -- what the HTTP layer and the tests reach ----------------------------------------------
    @property
    def db(self) -> Tables:
        return self.repo.db

    @property
    def shared(self) -> bool:
        return self.repo.shared

    @property
    def bot_timeout(self) -> float:
        """Seconds one bot decision may think (:attr:`BotRunner.seconds`)."""
        return self.bots.seconds

    @bot_timeout.setter
    def bot_timeout(self, seconds: float) -> None:
        self.bots.seconds = seconds

    @property
    def leave_grace(self) -> float:
        return self.presence.grace

    @leave_grace.setter
    def leave_grace(self, seconds: float) -> None:
        self.presence.grace = seconds

    async def id_of_code(self, code: str) -> str:
        return await self.repo.id_of_code(code)

    async def load(self, table_id: str) -> Loaded:
        return await self.repo.load(table_id)

    async def load_latest(self, table_id: str) -> Loaded:
        return await self.repo.load_latest(table_id)

    def changed(self, table_id: str, version: int, digest: str | None = None,
                moves: str | None = None) -> None:
        self.repo.changed(table_id, version, digest, moves)

    async def catch_up(self) -> None:
        await self.repo.catch_up()

    def watch(self, table_id: str) -> asyncio.Event:
        return self.repo.watch(table_id)

    def unwatch(self, table_id: str, wake: asyncio.Event) -> None:
        self.repo.unwatch(table_id, wake)

    def known_version(self, table_id: str) -> int:
        return self.repo.known_version(table_id)

    def connected(self, table_id: str, seat: int) -> None:
        self.presence.connected(table_id, seat)

    def disconnected(self, table_id: str, seat: int) -> None:
        self.presence.disconnected(table_id, seat)

    # -- the actor ----------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def serial(self, table_id: str) -> AsyncIterator[None]:
        """Hold ``table_id``'s actor: the commands that write it run one at a time, in the
        order they came (an :class:`asyncio.Lock` serves its waiters first come, first
        served)."""
        lock, users = self._actors.get(table_id) or (asyncio.Lock(), 0)
        self._actors[table_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._actors[table_id]
            if users <= 1:
                del self._actors[table_id]
            else:
                self._actors[table_id] = (lock, users - 1)

    async def _command(self, table_id: str, change: Callable[[Loaded], Table | None],
                       bots: bool = True) -> Loaded:
        """``change`` applied to the latest table through its actor and saved, then the bots
        answer (``bots``). When another worker wrote first, the stored table is read and
        ``change`` applied to it once more (that is the only retry)."""
        async with self.serial(table_id):
            loaded = await self.repo.load_latest(table_id)
            for attempt in (1, 2):
                try:
                    table = change(loaded)
                    if table is None or table is loaded.table:
                        return loaded
                    if bots:
                        table = await self._answers(loaded, table)
                    saved = await self.repo.save(loaded, table)
                except (SeatForbiddenError, IllegalActionError, TableConflictError):
                    # the version held in memory may be behind another worker's write
                    fresh = await self.repo.load(table_id)
                    if attempt == 2 or fresh.version == loaded.version:
                        raise
                    loaded = fresh
                    continue
                return await self.after_write(saved) if bots else saved
        raise AssertionError("unreachable")  # pragma: no cover

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
        """:meth:`view` as JSON text, built and encoded once per table version, seat and
        number of watchers."""
        return self.repo.view_text(loaded, seat, lambda: self.view(loaded, seat),
                                   self.watchers(loaded.id))

    def watchers(self, table_id: str) -> int:
        """How many watch ``table_id`` (their sockets on this worker)."""
        return self.watching.get(table_id, 0)

    def watcher_moved(self, table_id: str, step: int) -> None:
        """A watcher came (``step`` 1) or went (-1): the players' sockets are woken."""
        n = self.watching.get(table_id, 0) + step
        if n > 0:
            self.watching[table_id] = n
        else:
            self.watching.pop(table_id, None)
        self.repo.wake(table_id)

    async def write(self, table_id: str, change: Callable[[Loaded], Table | None]) -> Loaded:
        """``change`` applied to the latest table through its actor and saved (the bots do not
        answer: a change of settings, not a move)."""
        return await self._command(table_id, change, bots=False)

    def view(self, loaded: Loaded, seat: int) -> dict[str, Any]:
        out = table_view(loaded.table, seat)
        out["id"] = loaded.id
        out["version"] = loaded.version
        out["code"] = loaded.code
        out["pace"] = loaded.table.pace
        out["clock"] = loaded.table.clock
        out["between"] = loaded.table.between
        taken = self._hints.get(self._hint_key(loaded, seat))
        if taken is not None:  # the seat's own hint at this decision (its own observation's)
            out["hint"] = taken.to_record()
        out["hints"] = {"allowed": loaded.table.hints,
                        "taken": {turn_seat(s, seat): n
                                  for s, n in enumerate(loaded.table.hints_taken)}}
        out["paused"] = paused(loaded.table) and loaded.table.bot_to_play
        out["free_seats"] = [turn_seat(s, seat) for s in self.free_seats(loaded.table)]
        out["watch"] = watch_info(loaded, seat, self.watchers(loaded.id))
        if loaded.table.next_game:  # the room's next game: each player's seat kept in it
            out["next_game"] = loaded.table.next_game
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
        return await self._create(table), token

    async def _create(self, table: Table, table_id: str | None = None) -> Loaded:
        """Store ``table`` under a new join code (and ``table_id`` if given: else a new one)
        and let its bots play up to a human. :class:`TableExistsError` if a table has that
        id."""
        for _ in range(5):
            table = dataclasses.replace(table, code=new_code())
            try:
                loaded = await self.repo.create(table, table_id)
                break
            except CodeTakenError:  # a code taken already: draw another
                continue
        else:
            raise RuntimeError("no free join code")
        async with self.serial(loaded.id):
            return await self.after_write(loaded)

    async def again(self, table_id: str, token: str | None) -> tuple[Loaded, int]:
        """The next game of the finished table ``table_id``, started by one of its players
        (``token``: the secret of a human's seat at it), and that player's seat there.

        The new game keeps the seats (:func:`next_game_of`): every player of the room sits
        at the same seat with the same secret, and finds the new game from the finished one
        (:attr:`~rebelote.table.Table.next_game`, in each seat's view, its sockets woken).
        Started once: a second call, by anyone of the room, answers the same game.
        :class:`SeatForbiddenError` for anyone else, :class:`IllegalActionError` while the
        game goes on."""
        nxt, seat, _ = await self.start_next_game(table_id, token)
        return nxt, seat

    async def start_next_game(self, table_id: str, token: str | None,
                              starting: Allowance | None = None) -> tuple[Loaded, int, bool]:
        """:meth:`again`, and whether this call started the next game (``False``: another
        player of the room, or an earlier call, did). ``starting`` is awaited just before the
        next game is started, only then (the web's count of tables started: it may raise, and
        nothing is made); its ``give_back`` when another worker's call started it first.

        One next game per finished table, whatever the workers: the finished table first
        names its next game's id (a new id, written with the check of its version: of two
        presses at once, by two workers, one writes it and the other reads it), then the
        game is made under that id (:meth:`_next_of`: by whoever reads it first, once)."""
        started = False
        async with self.serial(table_id):
            loaded = await self.repo.load_latest(table_id)
            self._player_of_finished(loaded, token)
            if not loaded.table.next_game:
                if not loaded.table.is_over:
                    raise IllegalActionError("again: the game goes on; a new game starts "
                                             "once it is over")
                if starting is not None:
                    await starting()
                try:
                    loaded = await self.repo.save(
                        loaded, loaded.table.with_next_game(new_table_id()))
                    started = True
                except TableConflictError:
                    # another worker wrote first (PostgreSQL): its next game if it named one
                    loaded = await self.repo.load(table_id)
                    if not loaded.table.next_game:
                        raise
                    if starting is not None:
                        await starting.give_back()  # this call started nothing
        nxt, seat = await self._next_of(loaded, token)
        return nxt, seat, started

    def _player_of_finished(self, loaded: Loaded, token: str | None) -> int:
        """The seat of ``token`` at ``loaded``, the table whose next game it asks for; a
        :class:`SeatForbiddenError` naming the rule for anyone else (a stranger, a player
        who handed their seat back)."""
        seat = loaded.table.seat_of(token)
        if seat is None:
            raise SeatForbiddenError(
                "Authorization: only a player seated at this table starts or joins its next "
                "game, and this secret holds none of its seats (a player who handed their seat "
                "back to its bot stays out of it)")
        return seat

    async def next_game(self, table_id: str, token: str | None) -> tuple[Loaded, int]:
        """The next game another player of the room started at the finished table
        ``table_id`` (:meth:`again`), and the seat of ``token`` there: it starts none.
        :class:`SeatForbiddenError` for anyone not seated at the finished table,
        :class:`IllegalActionError` before a next game was started."""
        loaded = await self.repo.load_latest(table_id)
        self._player_of_finished(loaded, token)
        if not loaded.table.next_game:
            raise IllegalActionError("next-game: no new game was started at this table")
        return await self._next_of(loaded, token)

    async def _next_of(self, loaded: Loaded, token: str | None) -> tuple[Loaded, int]:
        """The next game the finished table ``loaded`` names, and the seat of ``token`` there;
        made now (:func:`next_game_of`, under that id) if nobody made it yet: the press that
        named it is about to, or its server stopped before it did. Two makers at once (two
        workers): the store keeps one, the other reads it."""
        next_id = loaded.table.next_game
        try:
            nxt = await self.repo.load(next_id)
        except TableNotFoundError:
            try:
                nxt = await self._create(next_game_of(loaded.table), next_id)
            except TableExistsError:
                nxt = await self.repo.load(next_id)
        return nxt, self.seat_of(nxt, token)

    async def act(self, table_id: str, token: str | None, action: Any,
                  expected: int | None = None) -> tuple[Loaded, int]:
        """``action`` by the seat whose secret is ``token``; the bots answer when the table
        plays at once (pace 0), each decision with its own budget."""
        if not isinstance(action, str):
            raise InputError("action", "missing: a bid or a card as text, like \"pass\", "
                                       "\"90 hearts\" or \"JH\"")
        if len(action) > MAX_ACTION:
            raise InputError("action", f"{len(action):,} characters: an action is at most "
                                       f"{MAX_ACTION} (a bid like \"90 hearts\", or a card)")
        seats: list[int] = []

        def change(loaded: Loaded) -> Table:
            seat = self.seat_of(loaded, token)
            if expected is not None and expected != loaded.version:
                raise TableConflictError(table_id, expected)
            seats.append(seat)
            table = loaded.table
            if table.seats[seat].away:  # back at the table
                table = table.with_seat(seat, _back(table.seats[seat]))
            return table.play(seat, action)

        loaded = await self._command(table_id, change)
        TABLE_ACTIONS.labels("player").inc()
        return loaded, seats[-1]

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
        table_id = await self.repo.id_of_code(code)
        token = new_secret()
        taken: list[int] = []

        def change(loaded: Loaded) -> Table:
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
            try:
                seated = table.sit(seat, token, _name(name, "name"), invite)
            except SeatTakenError as e:
                raise TableFullError(str(e)) from None
            taken.append(seat)
            return seated

        loaded = await self._command(table_id, change)
        return loaded, token, taken[-1]

    async def fill(self, table_id: str, token: str | None) -> Loaded:
        """Hand every seat still kept for a friend to its bot (any player may)."""
        def change(loaded: Loaded) -> Table:
            self.seat_of(loaded, token)
            table = loaded.table
            for s, seat in enumerate(table.seats):
                if seat.kind == "open":
                    table = table.with_seat(s, Seat.bot_seat(seat.bot))
            return table

        return await self._command(table_id, change)

    async def release(self, table_id: str, token: str | None) -> Loaded:
        """Hand the caller's seat back to its bot (the secret stops working)."""
        def change(loaded: Loaded) -> Table:
            seat = self.seat_of(loaded, token)
            return loaded.table.hand_back(seat)

        return await self._command(table_id, change)

    async def hand_back(self, table_id: str, token: str | None, seat_name: str) -> Loaded:
        """The table's host hands ``seat_name``'s seat back to its bot (a player who stalls
        the room, a seat kept for a friend who does not come): its secret stops working, and a
        newcomer may take it from the next deal."""
        if seat_name not in ("N", "E", "W", "S"):
            raise InputError("seat", f"{seat_name!r}: a seat is N, E, S or W")
        seat = SEATS.index(seat_name)

        def change(loaded: Loaded) -> Table | None:
            host = self.seat_of(loaded, token)
            if not loaded.table.is_host(host):
                raise SeatForbiddenError("Authorization: only the table's host (who started "
                                         "it) may hand a seat back to its bot")
            if seat == host:
                raise InputError("seat", "your own seat: hand it back with /release")
            if loaded.table.seats[seat].kind == "bot":
                return None
            return loaded.table.hand_back(seat)

        return await self._command(table_id, change)

    async def back(self, table_id: str, token: str | None) -> Loaded:
        """A player who was away takes the seat back from its bot (a paused table goes on)."""
        def change(loaded: Loaded) -> Table | None:
            seat = self.seat_of(loaded, token)
            if not loaded.table.seats[seat].away:
                return None
            return loaded.table.with_seat(seat, _back(loaded.table.seats[seat]))

        return await self._command(table_id, change)

    async def after_write(self, loaded: Loaded) -> Loaded:
        """(In the table's actor.) Let the bots play: at once (pace 0, answered in this
        request) or at the table's pace in the background, unless the table pauses. Start the
        turn clock of a human to act."""
        table = loaded.table
        if table.bot_to_play and not paused(table):
            self.clock.stop(loaded.id)
            if table.pace == 0 and not any(seat.away for seat in table.seats):
                return await self.run_bots(loaded)
            self.start_driver(loaded.id)
        else:
            self._set_clock(loaded)
        return loaded

    def _set_clock(self, loaded: Loaded) -> None:
        table = loaded.table
        if clock_runs(table):
            self.clock.start(loaded.id, loaded.version, table.clock)
        else:
            self.clock.stop(loaded.id)

    # -- bots ---------------------------------------------------------------------------------
    async def run_bots(self, loaded: Loaded) -> Loaded:
        """(In the table's actor.) Every bot move up to a human's turn (or the table's pause),
        saved in one write (:meth:`_answers`)."""
        table = await self._answers(loaded, loaded.table, always=True)
        if table is not loaded.table:
            loaded = await self.repo.save(loaded, table)
        self._set_clock(loaded)
        return loaded

    async def _answers(self, loaded: Loaded, table: Table, always: bool = False) -> Table:
        """``table`` (a command's result on ``loaded``) after the bots' answers up to a
        human's turn or the table's pause, when the table plays at once (pace 0, nobody away;
        ``always``: whatever the pace): the quick bots' on the event loop, the others' in the
        bot pool, each move with its own budget."""
        if not always and (table.pace != 0 or any(s.away for s in table.seats)):
            return table
        rng = self.bots.rng()
        while table.bot_to_play and not paused(table):
            if self.bots.is_quick(table):
                table = self.bots.quick_moves(table, rng, paused, loaded.id)
                if self.bots.is_quick(table) and not paused(table):
                    await asyncio.sleep(0)  # a table of bots only: let the loop serve others
                continue
            try:
                action = await self.bots.decide(loaded.id, loaded.version, table)
            except Superseded:
                break
            table = table.act(table.turn, action)
        return table

    def start_driver(self, table_id: str) -> None:
        task = self._drivers.get(table_id)
        if task is None or task.done():
            self._drivers[table_id] = asyncio.get_running_loop().create_task(
                self._drive(table_id))
        else:  # a driver reading the table before this write must not stop on what it read
            self._wake.add(table_id)

    async def _drive(self, table_id: str) -> None:
        """Bots' moves one at a time, ``pace`` ms apart, until a human is to act or the table
        pauses. A move is decided outside the actor and written through it, only if the table
        is still at the version it was decided on."""
        try:
            while True:
                self._wake.discard(table_id)
                loaded = await self.repo.load_latest(table_id)
                table = loaded.table
                if not table.bot_to_play or paused(table):
                    if table_id in self._wake:  # a write meanwhile asked for the bots
                        continue
                    self._set_clock(loaded)
                    return
                away = table.seats[table.turn].away
                pace = max(table.pace, AWAY_PACE if away else 0) / 1000
                # the bot thinks during the pace (or its level's decision time, if longer), and
                # its move leaves then whether it had a choice or not: a forced move is held
                # as long as a searched one (no timing channel, table-attack #12 and F10)
                release = time.monotonic() + max(
                    pace, release_seconds(table.seats[table.turn].bot))
                thinking = asyncio.ensure_future(
                    self.bots.decide(table_id, loaded.version, table, release))
                try:
                    await asyncio.sleep(pace)
                    action = await thinking
                except Superseded:
                    continue
                finally:
                    thinking.cancel()
                async with self.serial(table_id):
                    current = await self.repo.load_latest(table_id)
                    if current.version != loaded.version:
                        continue
                    with contextlib.suppress(TableConflictError, IllegalActionError):
                        await self.repo.save(current, table.act(table.turn, action))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bots of table %s stopped", table_id)
        finally:
            if self._drivers.get(table_id) is asyncio.current_task():
                del self._drivers[table_id]
                self._wake.discard(table_id)

    # -- timers -------------------------------------------------------------------------------
    async def _timed_out(self, table_id: str, version: int) -> None:
        """The clock of the human to act at ``version`` ran out: the seat's bot plays for them
        (``away``) until they act again."""
        def change(loaded: Loaded) -> Table | None:
            table = loaded.table
            if loaded.version != version or table.turn < 0 or table.bot_to_play:
                return None
            return table.with_seat(table.turn, _away(table.seats[table.turn]))

        with contextlib.suppress(TableConflictError, TableNotFoundError):
            await self._command(table_id, change)

    async def _left(self, table_id: str, seat: int) -> None:
        """``seat``'s player left (no live page for the grace time): its bot plays for them."""
        def change(loaded: Loaded) -> Table | None:
            old = loaded.table.seats[seat]
            if old.kind != "human" or old.away or loaded.table.is_over:
                return None
            return loaded.table.with_seat(seat, _away(old))

        with contextlib.suppress(TableConflictError, TableNotFoundError):
            await self._command(table_id, change)

    async def start(self) -> None:
        """At start-up: the turn clocks and leave timers that ran when the server stopped run
        on, with the time they had left."""
        try:
            stored = await self.timers.stored()
        except Exception as e:  # a damaged store still serves what it can read
            log.error("the tables' timers cannot be read (%s): none is restored", e)
            return
        for table_id, book in stored:
            turn = book.get("turn")
            if isinstance(turn, list) and len(turn) == 2:
                await self._restore_clock(table_id, int(turn[0]), float(turn[1]))
            leave = book.get("leave")
            if isinstance(leave, dict):
                for seat, ends in leave.items():
                    if str(seat) in ("0", "1", "2", "3"):
                        self.presence.restore(table_id, int(seat), float(ends))

    async def _restore_clock(self, table_id: str, version: int, ends: float) -> None:
        """A turn clock stored when the server stopped runs on with the time it had left. One
        stored for an older version of its table cannot run out for the turn now: that turn,
        if a human is to act, gets its whole clock again rather than none. A write stores the
        clock it starts with its version (:meth:`Timers.for_write`); an older one is found in
        rows written by earlier versions (the clock's write followed the table's) and, on
        PostgreSQL with several workers, where a worker wrote a leave timer with the clock of
        a version another worker had moved on from."""
        try:
            loaded = await self.repo.load_latest(table_id)
        except TableNotFoundError:
            return
        except Exception as e:  # a table that cannot be read: its clock as stored
            log.error("table %s cannot be read at start-up (%s): its clock as stored", table_id, e)
            self.clock.restore(table_id, version, ends)
            return
        if loaded.version == version:
            self.clock.restore(table_id, version, ends)
        else:
            self._set_clock(loaded)

    # -- analysis -----------------------------------------------------------------------------
    async def analysis(self, table_id: str, token: str | None, n: int) -> tuple[Loaded, int,
                                                                                list[Any]]:
        """The solver's analysis of finished deal ``n`` (computed once, in the bot pool)."""
        from rebelote.table.analysis import analyse, solver_available

        loaded = await self.repo.load(table_id)
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
        done: list[Any] = await asyncio.wait_for(self.bots.run(analyse, finished[n - 1]), 120)
        self._analyses[key] = done
        while len(self._analyses) > 512:
            self._analyses.pop(next(iter(self._analyses)))
        return loaded, seat, done

    # -- hints ---------------------------------------------------------------------------------
    async def hint(self, table_id: str, token: str | None) -> tuple[Loaded, int, Explanation]:
        """Un conseil: the move the table's level would make at the seat's turn and why, from
        the seat's observation alone (:func:`rebelote.table.hint.hint_for`, in the bot pool),
        counted once a decision on the table's sheet. Refused: a table whose creator did not
        allow hints (:class:`InputError`), out of the seat's turn (:class:`NotYourTurnError`)."""
        from rebelote.table.hint import hint_for

        loaded = await self.repo.load_latest(table_id)
        seat = self.seat_of(loaded, token)
        table = loaded.table
        if not table.hints:
            raise InputError("hints", "this table's creator did not allow hints")
        if table.turn != seat or not table.holds(seat) or table.by_bot(seat):
            raise NotYourTurnError("hint: a hint is given at your turn only")
        obs = table.deal.observation(seat)
        key = self._hint_key(loaded, seat)
        got = self._hints.get(key)
        if got is None:
            why = await asyncio.wait_for(self.bots.run(hint_for, obs, table.seats[seat].bot),
                                         120)
            got = self._hints[key] = why
            while len(self._hints) > 512:
                self._hints.pop(next(iter(self._hints)))

            def change(current: Loaded) -> Table:
                return current.table.hint_taken(seat)

            loaded = await self._command(table_id, change, bots=False)
        return loaded, seat, got

    @staticmethod
    def _hint_key(loaded: Loaded, seat: int) -> tuple[str, int, int, int]:
        table = loaded.table
        return (loaded.id, table.deal_number, len(table.current.actions), seat)

    def _explained(self, decided: Decided) -> None:
        if decided.why is not None:
            self.explained.add(decided.table_id, decided.table, decided.why)

    def _keep_explained(self, table_id: str, version: int) -> None:
        """After a change of ``table_id``: the explanations this worker holds of the deals
        finished now are written to the store (never before: they name a bot's cards)."""
        if not self.explained.unwritten(table_id) or table_id in self._keeping:
            return
        table = self.repo.cached(table_id, version)
        if table is not None and not self.explained.finished(table_id,
                                                             len(table.replay.finished)):
            return
        try:
            task = asyncio.get_running_loop().create_task(
                self._write_explained(table_id, table), name=f"explained-{table_id}")
        except RuntimeError:  # no loop: the next change writes them
            return
        self._keeping[table_id] = task
        task.add_done_callback(lambda _: self._keeping.pop(table_id, None))

    async def _write_explained(self, table_id: str, table: Table | None) -> None:
        """Write the explanations of the finished deals of ``table_id`` this worker holds
        (``table``: the table now, read if ``None``)."""
        try:
            if table is None:
                table = (await self.repo.load(table_id)).table
            for n in self.explained.finished(table_id, len(table.replay.finished)):
                self.explained.written(table_id, n)
                try:
                    await self.db.put_explanations(table_id, n,
                                                   self.explained.rows(table_id, n))
                except BaseException:
                    self.explained.written(table_id, n, done=False)
                    raise
        except Exception as e:  # the store down, the table gone: tried at its next change
            log.warning("table %s: the bots' explanations not stored: %s", table_id, e)

    async def explanations(self, table_id: str, n: int) -> list[dict[str, Any]]:
        """The bots' explanations of deal ``n``, which the caller checked is finished, as a
        deal's record holds them (:meth:`Explained.stored`): read from the store once (the
        memory is their cache), with those this worker holds not written yet."""
        if not self.explained.is_read(table_id, n):
            try:
                rows = await self.db.explanations(table_id, n)
            except StoreDownError as e:
                log.warning("table %s: the bots' explanations not read: %s", table_id, e)
                rows = []
            if rows:
                self.explained.load(table_id, n, rows)
        return self.explained.stored(table_id, n)

    async def explanations_in(self, table_id: str, n: int, lang: str) -> list[dict[str, Any]]:
        """:meth:`explanations` written in ``lang`` (:meth:`Explained.of`)."""
        await self.explanations(table_id, n)
        return self.explained.of(table_id, n, lang)

    async def close(self) -> None:
        """Stop the bots at once, then the background tasks (the timers stay stored)."""
        await self.robots.close()
        self.bots.close()
        for keeping in list(self._keeping.values()):  # the explanations being stored
            with contextlib.suppress(BaseException):
                await keeping
        drivers = list(self._drivers.values())
        for task in drivers:
            task.cancel()
        for task in drivers:
            with contextlib.suppress(BaseException):
                await task
        await self.clock.close()
        await self.presence.close()
        await self.timers.close()


__all__ = ["MAX_ACTION", "MAX_BETWEEN", "MAX_TARGET", "ROOM_CLOCK", "InviteError",
           "SeatForbiddenError", "TableFullError", "TableService", "paused", "settings_of",
           "table_bot", "table_from_request", "table_level"]
