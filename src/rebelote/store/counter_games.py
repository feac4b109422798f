"""The game store: create, read, update with a version check, list.

Every write is one conditional ``UPDATE ... WHERE version = ?``: two writers never both win, and a
writer that read an old version learns it (:class:`GameConflictError`). The store keeps JSON text
and summary columns; it knows nothing of the rules.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, cast

from sqlalchemy import Engine, Table, bindparam, delete, func, insert, select, update

from rebelote.store.db import KeptConnection
from rebelote.store.models import CounterGame

_TABLE = cast(Table, CounterGame.__table__)
#: Seconds between two checks of an SQLite file's pages by :meth:`GameStore.health`.
CHECK_EVERY: Final = 60.0


class GameNotFoundError(LookupError):
    """No stored game has this id."""


class GameConflictError(RuntimeError):
    """The game changed since the version the writer read."""

    def __init__(self, game_id: str, expected: int, current: int) -> None:
        self.expected = expected
        self.current = current
        super().__init__(
            f"If-Match: game {game_id} is at version {current}, not {expected}; "
            "reload it and try again"
        )


@dataclass(frozen=True, slots=True)
class GameSummary:
    """The columns copied from a game and its result at every write."""

    game: str
    teams: tuple[str, str]
    target: int
    deal_count: int
    totals: tuple[int, int]
    winner: str | None


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A stored game: its JSON input (``data``) and its metadata."""

    id: str
    version: int
    data: Mapping[str, Any]
    created_at: datetime
    updated_at: datetime
    secret_hash: str
    view_id: str
    meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameRow:
    """One line of the list of saved games."""

    id: str
    version: int
    summary: GameSummary
    created_at: datetime
    updated_at: datetime
    archived: bool = False


_SUMMARY_COLUMNS: Final = ("game", "team_ns", "team_ew", "target", "deal_count", "total_ns",
                            "total_ew", "winner")
# Built once: a conditional write is the hot path of the counter.
_PUT: Final = (
    update(_TABLE)
    .where(_TABLE.c.id == bindparam("gid"), _TABLE.c.version == bindparam("expected"))
    .values(version=bindparam("new_version"), data=bindparam("data"),
            updated_at=bindparam("updated_at"), meta=bindparam("meta"),
            **{name: bindparam(name) for name in _SUMMARY_COLUMNS})
    .returning(_TABLE.c.created_at)
)
_GET: Final = select(
    _TABLE.c.version, _TABLE.c.data, _TABLE.c.created_at, _TABLE.c.updated_at,
    _TABLE.c.secret_hash, _TABLE.c.view_id, _TABLE.c.meta,
).where(_TABLE.c.id == bindparam("gid"))
_BY_VIEW: Final = select(_TABLE.c.id).where(_TABLE.c.view_id == bindparam("view"))
_VERSION: Final = select(_TABLE.c.version).where(_TABLE.c.id == bindparam("gid"))


def new_game_id() -> str:
    """A random, URL-safe, unguessable id (16 hex digits)."""
    return secrets.token_hex(8)


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    """SQLite gives naive datetimes back; they were stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _dump(meta: Mapping[str, Any]) -> str:
    return json.dumps(meta, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _summary_values(summary: GameSummary) -> dict[str, Any]:
    return {
        "game": summary.game,
        "team_ns": summary.teams[0][:80],
        "team_ew": summary.teams[1][:80],
        "target": summary.target,
        "deal_count": summary.deal_count,
        "total_ns": summary.totals[0],
        "total_ew": summary.totals[1],
        "winner": summary.winner,
    }


class GameStore(KeptConnection):
    """Games kept in one database (any SQLAlchemy engine).

    ``single_thread``: every call comes from one thread (the event loop, with SQLite), so one
    connection is kept open and reused instead of being taken from the pool at each call; each
    call is still its own transaction.
    """

    def __init__(self, engine: Engine, *, single_thread: bool = False) -> None:
        super().__init__(engine, single_thread=single_thread)
        self._checked = -CHECK_EVERY

    def create(self, data: Mapping[str, Any], summary: GameSummary, secret_hash: str,
               meta: Mapping[str, Any] | None = None) -> StoredGame:
        """Store a new game at version 1, writable with the secret whose SHA-256 is
        ``secret_hash``; it gets a fresh id and a fresh view id."""
        now = _now()
        game_id = new_game_id()
        view_id = new_game_id()
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        meta = dict(meta or {})
        with self._begin() as conn:
            conn.execute(
                insert(_TABLE).values(
                    id=game_id, version=1, data=text, created_at=now, updated_at=now,
                    secret_hash=secret_hash, view_id=view_id, meta=_dump(meta),
                    archived=False, **_summary_values(summary),
                )
            )
        return StoredGame(game_id, 1, data, now, now, secret_hash, view_id, meta)

    def get(self, game_id: str) -> StoredGame:
        """The stored game ``game_id``; :class:`GameNotFoundError` if there is none."""
        with self._begin() as conn:
            row = conn.execute(_GET, {"gid": game_id}).first()
        if row is None:
            raise GameNotFoundError(game_id)
        return StoredGame(
            game_id, row.version, json.loads(row.data), _aware(row.created_at),
            _aware(row.updated_at), row.secret_hash, row.view_id, json.loads(row.meta or "{}"),
        )

    def game_of_view(self, view_id: str) -> str:
        """The id of the game whose read-only view is ``view_id``."""
        with self._begin() as conn:
            game_id = conn.execute(_BY_VIEW, {"view": view_id}).scalar()
        if game_id is None:
            raise GameNotFoundError(view_id)
        return str(game_id)

    def version(self, game_id: str) -> int:
        """The current version of ``game_id``."""
        with self._begin() as conn:
            version = conn.execute(_VERSION, {"gid": game_id}).scalar()
        if version is None:
            raise GameNotFoundError(game_id)
        return int(version)

    def put(
        self, game_id: str, expected: int, data: Mapping[str, Any], summary: GameSummary,
        meta: Mapping[str, Any] | None = None,
    ) -> StoredGame:
        """Replace the game (and its ``meta``) if it is still at version ``expected``; it is
        then at ``expected+1``.

        :class:`GameConflictError` if another write came first, :class:`GameNotFoundError` if
        the game does not exist.
        """
        now = _now()
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        meta = dict(meta or {})
        params = {"gid": game_id, "expected": expected, "new_version": expected + 1,
                  "data": text, "updated_at": now, "meta": _dump(meta),
                  **_summary_values(summary)}
        with self._begin() as conn:
            created = conn.execute(_PUT, params).scalar()
        if created is None:
            raise GameConflictError(game_id, expected, self.version(game_id))
        return StoredGame(game_id, expected + 1, data, _aware(created), now, "", "", meta)

    def set_archived(self, game_id: str, archived: bool) -> None:
        """Hide the game from the list (or show it again); its version does not change."""
        with self._begin() as conn:
            found = conn.execute(update(_TABLE).where(_TABLE.c.id == game_id)
                                 .values(archived=archived)).rowcount
        if not found:
            raise GameNotFoundError(game_id)

    def delete_untouched(self, secret_hashes: Collection[str], keep: str | None = None
                         ) -> list[str]:
        """Forget the games of ``secret_hashes`` that were never written after their creation
        and hold no deal (but ``keep``); their ids."""
        if not secret_hashes:
            return []
        where = (_TABLE.c.secret_hash.in_(sorted(secret_hashes)), _TABLE.c.version == 1,
                 _TABLE.c.deal_count == 0, _TABLE.c.id != (keep or ""))
        with self._begin() as conn:
            ids = [str(i) for i in conn.execute(select(_TABLE.c.id).where(*where)).scalars()]
            if ids:
                conn.execute(delete(_TABLE).where(_TABLE.c.id.in_(ids), *where))
        return ids

    def delete(self, game_id: str) -> None:
        """Forget a game; :class:`GameNotFoundError` if there is none."""
        with self._begin() as conn:
            gone = conn.execute(delete(_TABLE).where(_TABLE.c.id == game_id)).rowcount
        if not gone:
            raise GameNotFoundError(game_id)

    def health(self) -> str:
        """``"writable"`` when the database takes a write now (an empty update in a
        transaction rolled back), else what is wrong (:func:`~rebelote.store.db.store_fault`:
        ``"damaged"``, ``"locked"``, ``"down"``). On SQLite the file's pages are checked too
        (``PRAGMA quick_check``) at most once a minute: a damaged page the write did not touch
        is found."""
        from sqlalchemy.exc import DBAPIError

        from rebelote.store.db import store_fault

        try:
            with self._begin() as conn:
                conn.execute(update(_TABLE).where(_TABLE.c.id == "").values(version=0))
                if self.engine.dialect.name == "sqlite" and \
                        time.monotonic() - self._checked > CHECK_EVERY:
                    self._checked = time.monotonic()
                    found = conn.exec_driver_sql("PRAGMA quick_check(1)").scalar()
                    if found != "ok":
                        return "damaged"
        except DBAPIError as e:
            return store_fault(e) or "down"
        return "writable"

    def count(self) -> int:
        """How many games are stored."""
        with self._begin() as conn:
            return int(conn.execute(select(func.count()).select_from(_TABLE)).scalar() or 0)

    def list(self, secret_hashes: Collection[str], limit: int = 100, offset: int = 0,
             archived: bool | None = False) -> list[GameRow]:
        """The saved games whose secrets hash to one of ``secret_hashes``, the most recently
        updated first, in one query: those not archived (``archived=False``), the archived
        ones (``True``) or all (``None``)."""
        if not secret_hashes:
            return []
        stmt = select(_TABLE).where(_TABLE.c.secret_hash.in_(sorted(secret_hashes)))
        if archived is not None:
            stmt = stmt.where(_TABLE.c.archived == archived)
        stmt = (
            stmt
            .order_by(_TABLE.c.updated_at.desc(), _TABLE.c.id)
            .limit(limit).offset(offset)
        )
        with self._begin() as conn:
            rows = conn.execute(stmt).all()
        return [
            GameRow(
                r.id, r.version,
                GameSummary(r.game, (r.team_ns, r.team_ew), r.target, r.deal_count,
                            (r.total_ns, r.total_ew), r.winner),
                _aware(r.created_at), _aware(r.updated_at), bool(r.archived),
            )
            for r in rows
        ]
