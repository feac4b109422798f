"""The play tables' store: a table is kept as its JSON (rules, seats, and per deal its seed
and actions: :meth:`rebelote.table.Table.to_json`) with a version bumped by every write.

A table is written as what each move adds: its row holds its JSON as it was at version
``base`` (a snapshot: :meth:`TableStore.put`, at each new deal and at each change of seats or
settings) and ``play_moves`` the moves made since, one row per version
(:meth:`TableStore.append`, a few bytes). A reader plays the moves on the snapshot
(:class:`StoredText`).

Every write is one conditional ``UPDATE ... WHERE version = ?``: two moves are never applied
at once, by one worker or several (:class:`TableConflictError` for the one that comes second).
A table is found by its id, or by the short join code of its room. ``timers`` (JSON text)
holds a table's running turn clock and leave timers, for a restart: a write of the table
stores its turn clock in the same statement (``timers=``), so that a stored turn clock is the
one of the version stored with it; a leave timer that starts between two writes is stored alone
(:meth:`TableStore.change_timers`). Each worker writes only what it changed (a
:class:`TimersChange`), merged into what is stored in the same statement or transaction:
with several workers on PostgreSQL, one worker's write never erases the leave timer another
worker stored.
``table_explanations`` holds the bots' explanations of its finished deals, one row per decision
(:meth:`TableStore.put_explanations`, written once the deal is over), ``table_replays`` *le
robot à votre place* of each, one row per deal and human seat (:meth:`TableStore.put_replay`,
written once the deal is over and its replay done).

:class:`TableStore` is the store through SQLAlchemy (SQLite: the web server calls it on its
event loop); :class:`rebelote.store.play_tables_pg.PgTables` is the same store on PostgreSQL, called
asynchronously. Both answer the questions of :class:`Tables`.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, Protocol, cast

from sqlalchemy import (
    Connection,
    Table,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from rebelote.store.db import KeptConnection
from rebelote.store.models import PlayMove, PlayTable, TableExplanation, TableReplay

#: Join codes: 8 letters and digits a phone's keyboard types and a voice reads out without doubt
#: (no 0/O, 1/I/L): 31^8, about 8.5e11 codes (39.6 bits; 6 gave 29.7). With the failed joins
#: rate-limited per client (web/limits.py), guessing one of 10,000 live rooms takes an address
#: years. A code ends with its game: a finished table's code no longer finds it.
CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH: Final = 8


_TABLE = cast(Table, PlayTable.__table__)
_MOVES = cast(Table, PlayMove.__table__)
_EXPLAINED = cast(Table, TableExplanation.__table__)
_REPLAYS = cast(Table, TableReplay.__table__)
_PUT: Final = (
    update(_TABLE)
    .where(_TABLE.c.id == bindparam("tid"), _TABLE.c.version == bindparam("expected"))
    .values(version=bindparam("new_version"), base=bindparam("new_version"),
            data=bindparam("data"), over=bindparam("over"), updated_at=bindparam("updated_at"))
)
_BUMP: Final = (
    update(_TABLE)
    .where(_TABLE.c.id == bindparam("tid"), _TABLE.c.version == bindparam("expected"))
    .values(version=bindparam("new_version"), over=bindparam("over"),
            updated_at=bindparam("updated_at"))
)
#: The same writes with the table's timers, stored with the version they were set for.
_PUT_TIMED: Final = _PUT.values(timers=bindparam("timers"))
_BUMP_TIMED: Final = _BUMP.values(timers=bindparam("timers"))


class Keep:
    """The timers argument of a write that leaves the stored timers as they are."""


#: A write's ``timers`` left as stored (the default: a caller that does not keep timers).
KEEP: Final = Keep()


@dataclass(frozen=True, slots=True)
class TimersChange:
    """What one worker changed of a table's stored timers (``{"turn": [version, ends], "leave":
    {seat: ends}}``): ``turn`` (:data:`KEEP`: left as stored; ``None``: none runs; else
    ``[version, ends]``) and in ``leave`` each seat (``"0"`` to ``"3"``) whose leave timer
    started (its end) or stopped (``None``). The rest of the stored timers is left as it is:
    another worker's leave timers. ``turn_of``: the table's version whose clock this worker
    started or stopped, when the change is not a table's write; a stored clock of a later
    version (another worker's write) is then left as stored. A table's write (``None``) stores
    the clock of the version it writes whatever was stored."""

    turn: list[Any] | Keep | None = KEEP
    leave: Mapping[str, float | None] = field(default_factory=dict)
    turn_of: int | None = None

    def applied(self, text: str | None) -> str | None:
        """The stored timers ``text`` (JSON; ``None``: none) with this change made (``None``
        when none is left running). A stored text that does not parse counts as none."""
        try:
            book = json.loads(text) if text else {}
        except ValueError:
            book = {}
        if not isinstance(book, dict):
            book = {}
        if not isinstance(self.turn, Keep) and not self._older(book.get("turn")):
            if self.turn is None:
                book.pop("turn", None)
            else:
                book["turn"] = list(self.turn)
        if self.leave:
            leave = book.get("leave")
            leave = dict(leave) if isinstance(leave, dict) else {}
            for seat, ends in self.leave.items():
                if ends is None:
                    leave.pop(seat, None)
                else:
                    leave[seat] = ends
            if leave:
                book["leave"] = leave
            else:
                book.pop("leave", None)
        return json.dumps(book, separators=(",", ":")) if book else None

    def _older(self, stored: object) -> bool:
        """Whether this change's clock is of a version before the ``stored`` clock's."""
        if self.turn_of is None or not isinstance(stored, list) or not stored:
            return False
        version = stored[0]
        return (isinstance(version, int | float) and not isinstance(version, bool)
                and version > self.turn_of)
_GET: Final = select(_TABLE.c.version, _TABLE.c.base, _TABLE.c.data).where(
    _TABLE.c.id == bindparam("tid"))
_GET_MOVES: Final = select(_MOVES.c.moves).where(
    _MOVES.c.table_id == bindparam("tid"), _MOVES.c.version > bindparam("base"),
    _MOVES.c.version <= bindparam("version")).order_by(_MOVES.c.version)
_BY_CODE: Final = select(_TABLE.c.id).where(_TABLE.c.code == bindparam("code"),
                                            _TABLE.c.over.is_(False))


class TableNotFoundError(LookupError):
    """No table has this id (or join code)."""


class CodeTakenError(RuntimeError):
    """Another table has this join code (the caller draws another)."""


class TableExistsError(RuntimeError):
    """A table was created with an id another table has (a room's next game, whose id its
    finished table names before it is made: another worker made it first)."""


def new_table_id() -> str:
    """A new table's id: 64 random bits in hex."""
    return secrets.token_hex(8)


class StoreDownError(RuntimeError):
    """The database cannot be reached right now."""


class StoreDamagedError(RuntimeError):
    """What the database holds cannot be read back (a damaged file, a table that does not
    replay)."""


class TableDamagedError(StoreDamagedError):
    """One table's stored rows cannot be read back (its version is ahead of its stored moves):
    that table cannot be played nor shown; the rest of the store is sound."""

    def __init__(self, table_id: str, why: str) -> None:
        self.table_id = table_id
        super().__init__(f"id: table {table_id} is damaged ({why}): it cannot be played nor "
                         "shown; start a new table (the server's operator may restore it "
                         "from a backup)")


def moves_missing(base: int, version: int, found: int) -> str:
    """Why a table whose moves are not all stored is damaged, in words."""
    return (f"it is at version {version}, its snapshot at {base}, and {found} of the "
            f"{version - base} moves between are stored")


class TableConflictError(RuntimeError):
    """The table changed since the version the writer read."""

    def __init__(self, table_id: str, expected: int) -> None:
        self.expected = expected
        super().__init__(f"table {table_id} changed since version {expected} (another move "
                         "came first); reload it and try again")


@dataclass(frozen=True, slots=True)
class StoredTable:
    id: str
    version: int
    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class StoredText:
    """A table as read: ``data``, its JSON at version ``base``, then ``moves``, the moves of
    each later version up to ``version`` (JSON text each, in order)."""

    version: int
    base: int
    data: str
    moves: tuple[str, ...] = ()


def table_text(data: Mapping[str, Any]) -> str:
    """A table's JSON as the stores write it."""
    return json.dumps(data, separators=(",", ":"))


def text_digest(text: str) -> str:
    """A short fingerprint of a table's stored text (16 hex digits of its SHA-1): what a
    worker checks a table it played on from a ``NOTIFY`` against."""
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:16]


class Tables(Protocol):
    """What the web server asks of a tables' store, as coroutines (:class:`TableStore` behind
    the web layer's store calls, or :class:`~rebelote.store.play_tables_pg.PgTables`)."""

    async def read(self, table_id: str) -> StoredText: ...

    async def id_of_code(self, code: str) -> str: ...

    async def create(self, data: Mapping[str, Any], *, game: str, code: str,
                     timers: str | None = None, table_id: str | None = None
                     ) -> StoredTable: ...

    async def put(self, table_id: str, expected: int, data: Mapping[str, Any], *, over: bool,
                  moves: str | None = None, timers: TimersChange | Keep = KEEP) -> int: ...

    async def append(self, table_id: str, expected: int, moves: str, *, over: bool,
                     digest: str | None = None, told: str | None = None,
                     timers: TimersChange | Keep = KEEP) -> int: ...

    async def change_timers(self, table_id: str, change: TimersChange) -> None: ...

    async def put_explanations(self, table_id: str, deal: int,
                               rows: Sequence[tuple[int, str]]) -> None: ...

    async def explanations(self, table_id: str, deal: int) -> list[tuple[int, str]]: ...

    async def put_replay(self, table_id: str, deal: int, seat: int, data: str) -> None: ...

    async def replays(self, table_id: str) -> list[tuple[int, int, str]]: ...

    async def timed(self) -> list[tuple[str, str]]: ...

    async def close(self) -> None: ...


def _stored_timers(conn: Connection, table_id: str) -> str | None:
    """The table's stored timers, its row locked (``FOR UPDATE``; SQLite: one writer) until
    the transaction's end."""
    got = conn.execute(select(_TABLE.c.timers).where(_TABLE.c.id == table_id)
                       .with_for_update()).scalar()
    return None if got is None else str(got)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str:
    """A join code as typed (spaces, dashes, lower case) in its stored form."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


class TableStore(KeptConnection):
    """Play tables in one database (any SQLAlchemy engine). ``single_thread``: every call comes
    from one thread (SQLite on the event loop) and one connection is reused."""

    def create(self, data: Mapping[str, Any], *, game: str, code: str | None = None,
               timers: str | None = None, table_id: str | None = None) -> StoredTable:
        """Store a new table at version 1 (its ``code`` is stored too, and its ``timers``),
        under ``table_id`` if given (else a new id); :class:`TableExistsError` if a table has
        that id, :class:`CodeTakenError` if another table has that code."""
        chosen = table_id is not None
        table_id = table_id or new_table_id()
        code = code or new_code()
        now = datetime.now(UTC)
        try:
            with self._begin() as conn:
                conn.execute(insert(_TABLE).values(
                    id=table_id, code=code, version=1, base=1, game=game, over=False,
                    data=table_text(data), created_at=now, updated_at=now, timers=timers))
        except IntegrityError as e:
            if chosen:
                with self._begin() as conn:
                    if conn.execute(_GET, {"tid": table_id}).first() is not None:
                        raise TableExistsError(table_id) from e
            raise CodeTakenError(code) from e
        return StoredTable(table_id, 1, data)

    def get(self, table_id: str) -> StoredTable:
        """The table's version and its snapshot's JSON, parsed (the moves since not played)."""
        got = self.read(table_id)
        return StoredTable(table_id, got.version, json.loads(got.data))

    def read(self, table_id: str) -> StoredText:
        """The table's version, its snapshot and the moves since (for a reader who parses
        them only when that version is new to it)."""
        with self._begin() as conn:
            row = conn.execute(_GET, {"tid": table_id}).first()
            if row is None:
                raise TableNotFoundError(table_id)
            version, base = int(row.version), int(row.base)
            moves = () if base >= version else tuple(str(m) for m in conn.execute(
                _GET_MOVES, {"tid": table_id, "base": base, "version": version}).scalars())
        if len(moves) != version - base:
            raise TableDamagedError(table_id, moves_missing(base, version, len(moves)))
        return StoredText(version, base, str(row.data), moves)

    def id_of_code(self, code: str) -> str:
        """The id of the table whose join code is ``code``, while its game goes on."""
        with self._begin() as conn:
            found = conn.execute(_BY_CODE, {"code": normal_code(code)}).scalar()
        if found is None:
            raise TableNotFoundError(code)
        return str(found)

    def prune(self, before: datetime, *, dry_run: bool = False) -> int:
        """Delete the tables nobody played since ``before`` (their last write is older):
        answers how many (``dry_run``: how many would be, deleting none)."""
        old = _TABLE.c.updated_at < before
        with self._begin() as conn:
            if dry_run:
                return int(conn.execute(select(func.count()).where(old)).scalar_one())
            gone = select(_TABLE.c.id).where(old)
            conn.execute(delete(_MOVES).where(_MOVES.c.table_id.in_(gone)))
            conn.execute(delete(_EXPLAINED).where(_EXPLAINED.c.table_id.in_(gone)))
            conn.execute(delete(_REPLAYS).where(_REPLAYS.c.table_id.in_(gone)))
            return int(conn.execute(delete(_TABLE).where(old)).rowcount)

    def put(self, table_id: str, expected: int, data: Mapping[str, Any], *, over: bool,
            timers: TimersChange | Keep = KEEP) -> int:
        """Replace the table (a new snapshot) if still at version ``expected``, with the
        change of its ``timers`` unless :data:`KEEP`: answers its new version,
        ``expected + 1``; :class:`TableConflictError` if another write came first."""
        params = {"tid": table_id, "expected": expected, "new_version": expected + 1,
                  "data": table_text(data), "over": over,
                  "updated_at": datetime.now(UTC)}
        with self._begin() as conn:
            if not isinstance(timers, Keep):  # (a column named in the parameters is written)
                params["timers"] = timers.applied(_stored_timers(conn, table_id))
            done = conn.execute(_PUT if timers is KEEP else _PUT_TIMED, params).rowcount
            if done:
                conn.execute(delete(_MOVES).where(_MOVES.c.table_id == table_id))
        if not done:
            self.read(table_id)  # TableNotFoundError if it is gone
            raise TableConflictError(table_id, expected)
        return expected + 1

    def append(self, table_id: str, expected: int, moves: str, *, over: bool,
               timers: TimersChange | Keep = KEEP) -> int:
        """Add the moves that take the table from version ``expected`` to the next
        (``Table.moves_after``, JSON text) if it is still at ``expected``, with the change of
        its ``timers`` unless :data:`KEEP`: answers the new version;
        :class:`TableConflictError` if another write came first."""
        params = {"tid": table_id, "expected": expected, "new_version": expected + 1,
                  "over": over, "updated_at": datetime.now(UTC)}
        with self._begin() as conn:
            if not isinstance(timers, Keep):  # (a column named in the parameters is written)
                params["timers"] = timers.applied(_stored_timers(conn, table_id))
            done = conn.execute(_BUMP if timers is KEEP else _BUMP_TIMED, params).rowcount
            if done:
                conn.execute(insert(_MOVES).values(table_id=table_id, version=expected + 1,
                                                   moves=moves))
        if not done:
            self.read(table_id)
            raise TableConflictError(table_id, expected)
        return expected + 1

    def change_timers(self, table_id: str, change: TimersChange) -> None:
        """Make ``change`` to the table's stored timers (what one worker changed), in one
        transaction: the rest of them is left as stored."""
        with self._begin() as conn:
            conn.execute(update(_TABLE).where(_TABLE.c.id == table_id).values(
                timers=change.applied(_stored_timers(conn, table_id))))

    def put_explanations(self, table_id: str, deal: int, rows: Sequence[tuple[int, str]]
                         ) -> None:
        """Keep the explanations of the finished deal ``deal`` of the table: ``(index of the
        deal's action, JSON text)`` each; an index already stored (another worker's, the same
        decision) is left as it is."""
        with self._begin() as conn:
            have = set(conn.execute(select(_EXPLAINED.c.idx).where(
                _EXPLAINED.c.table_id == table_id, _EXPLAINED.c.deal == deal)).scalars())
            new = [{"table_id": table_id, "deal": deal, "idx": i, "data": text}
                   for i, text in rows if i not in have]
            if new:
                conn.execute(insert(_EXPLAINED), new)

    def explanations(self, table_id: str, deal: int) -> list[tuple[int, str]]:
        """The stored explanations of deal ``deal`` of the table, in the order of its
        actions: ``(index, JSON text)`` each."""
        with self._begin() as conn:
            rows = conn.execute(select(_EXPLAINED.c.idx, _EXPLAINED.c.data).where(
                _EXPLAINED.c.table_id == table_id, _EXPLAINED.c.deal == deal
            ).order_by(_EXPLAINED.c.idx)).all()
        return [(int(r.idx), str(r.data)) for r in rows]

    def put_replay(self, table_id: str, deal: int, seat: int, data: str) -> None:
        """Keep *le robot à votre place* of the finished deal ``deal`` at ``seat`` (JSON text);
        one already stored (another worker's, the same replay) is left as it is."""
        with self._begin() as conn:
            have = conn.execute(select(_REPLAYS.c.seat).where(
                _REPLAYS.c.table_id == table_id, _REPLAYS.c.deal == deal,
                _REPLAYS.c.seat == seat)).first()
            if have is None:
                conn.execute(insert(_REPLAYS).values(table_id=table_id, deal=deal, seat=seat,
                                                     data=data))

    def replays(self, table_id: str) -> list[tuple[int, int, str]]:
        """The stored replays of the table's finished deals: ``(deal, seat, JSON text)``
        each, by deal and seat."""
        with self._begin() as conn:
            rows = conn.execute(select(_REPLAYS.c.deal, _REPLAYS.c.seat, _REPLAYS.c.data).where(
                _REPLAYS.c.table_id == table_id
            ).order_by(_REPLAYS.c.deal, _REPLAYS.c.seat)).all()
        return [(int(r.deal), int(r.seat), str(r.data)) for r in rows]

    def timed(self) -> list[tuple[str, str]]:
        """The tables not over whose timers run: ``(id, timers)`` each."""
        with self._begin() as conn:
            rows = conn.execute(select(_TABLE.c.id, _TABLE.c.timers).where(
                _TABLE.c.timers.is_not(None), _TABLE.c.over.is_(False))).all()
        return [(str(r.id), str(r.timers)) for r in rows]


__all__ = ["CODE_ALPHABET", "CODE_LENGTH", "CodeTakenError", "PlayTable",
           "StoreDamagedError", "StoreDownError", "StoredTable", "StoredText",
           "TableConflictError", "TableDamagedError", "TableExistsError", "TableNotFoundError",
           "TableStore", "Tables", "TimersChange", "moves_missing", "new_code", "new_table_id",
           "normal_code", "table_text", "text_digest"]
