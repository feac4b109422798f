"""The concours store: a concours is kept as its JSON (:meth:`rebelote.concours.Concours.to_json`)
with a version bumped by every write, private to the holder of its organiser's secret (only
the secret's SHA-256 is kept), and a second id for the room screen's read-only view.

Every write is one conditional ``UPDATE ... WHERE version = ?``: two writers never both win
(:class:`ConcoursConflictError` for the second). The store knows nothing of the rules.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, cast

from sqlalchemy import (
    Connection,
    DateTime,
    Engine,
    Index,
    Integer,
    String,
    Table,
    Text,
    bindparam,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from rebelote.store.models import Base

__all__ = ["ConcoursConflictError", "ConcoursNotFoundError", "ConcoursRow", "ConcoursStore",
           "StoredConcours"]


class ConcoursRow(Base):
    """A concours: its JSON, the hash of its organiser's secret, the id of its room view."""

    __tablename__ = "concours"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    name: Mapped[str] = mapped_column(String(80), nullable=False)
    game: Mapped[str] = mapped_column(String(16), nullable=False)
    data: Mapped[str] = mapped_column(Text, nullable=False)
    secret_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    view_id: Mapped[str] = mapped_column(String(32), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)

    __table_args__ = (
        Index("ix_concours_view_id", "view_id", unique=True),
        Index("ix_concours_secret_hash", "secret_hash"),
    )


_TABLE = cast(Table, ConcoursRow.__table__)
_PUT: Final = (
    update(_TABLE)
    .where(_TABLE.c.id == bindparam("cid"), _TABLE.c.version == bindparam("expected"))
    .values(version=bindparam("new_version"), data=bindparam("data"), name=bindparam("name"),
            updated_at=bindparam("updated_at"))
)
_GET: Final = select(_TABLE).where(_TABLE.c.id == bindparam("cid"))
_BY_VIEW: Final = select(_TABLE.c.id).where(_TABLE.c.view_id == bindparam("view"))
_VERSION: Final = select(_TABLE.c.version).where(_TABLE.c.id == bindparam("cid"))


class ConcoursNotFoundError(LookupError):
    """No concours has this id."""


class ConcoursConflictError(RuntimeError):
    """The concours changed since the version the writer read."""

    def __init__(self, concours_id: str, expected: int) -> None:
        self.expected = expected
        super().__init__(f"concours {concours_id} changed since version {expected}; reload it")


@dataclass(frozen=True, slots=True)
class StoredConcours:
    """A stored concours: its JSON (``data``) and its metadata."""

    id: str
    version: int
    data: Mapping[str, Any]
    secret_hash: str
    view_id: str
    created_at: datetime
    updated_at: datetime


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _text(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class ConcoursStore:
    """Concours kept in one database (any SQLAlchemy engine)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    def create(self, data: Mapping[str, Any], name: str, game: str, secret_hash: str
               ) -> StoredConcours:
        """Store a new concours at version 1 with a fresh id and room view id."""
        now = datetime.now(UTC)
        cid, view = secrets.token_hex(8), secrets.token_hex(8)
        with self._begin() as conn:
            conn.execute(insert(_TABLE).values(
                id=cid, version=1, name=name[:80], game=game, data=_text(data),
                secret_hash=secret_hash, view_id=view, created_at=now, updated_at=now))
        return StoredConcours(cid, 1, data, secret_hash, view, now, now)

    def get(self, concours_id: str) -> StoredConcours:
        """The concours ``concours_id``; :class:`ConcoursNotFoundError` if there is none."""
        with self._begin() as conn:
            row = conn.execute(_GET, {"cid": concours_id}).first()
        if row is None:
            raise ConcoursNotFoundError(concours_id)
        return StoredConcours(row.id, row.version, json.loads(row.data), row.secret_hash,
                              row.view_id, _aware(row.created_at), _aware(row.updated_at))

    def version(self, concours_id: str) -> int:
        """The stored version of ``concours_id`` (one small query: a reader checks its copy
        with it); :class:`ConcoursNotFoundError` if there is none."""
        with self._begin() as conn:
            found = conn.execute(_VERSION, {"cid": concours_id}).scalar()
        if found is None:
            raise ConcoursNotFoundError(concours_id)
        return int(found)

    def of_view(self, view_id: str) -> str:
        """The id of the concours whose room view is ``view_id``."""
        with self._begin() as conn:
            found = conn.execute(_BY_VIEW, {"view": view_id}).scalar()
        if found is None:
            raise ConcoursNotFoundError(view_id)
        return str(found)

    def put(self, concours_id: str, expected: int, data: Mapping[str, Any], name: str
            ) -> int:
        """Replace the concours if it is still at version ``expected``; its new version."""
        params = {"cid": concours_id, "expected": expected, "new_version": expected + 1,
                  "data": _text(data), "name": name[:80], "updated_at": datetime.now(UTC)}
        with self._begin() as conn:
            changed = conn.execute(_PUT, params).rowcount
        if not changed:
            self.get(concours_id)  # ConcoursNotFoundError when it is gone
            raise ConcoursConflictError(concours_id, expected)
        return expected + 1

    def list(self, secret_hashes: Collection[str], limit: int = 50) -> list[tuple[str, str]]:
        """The ids and names of the concours whose secrets hash to ``secret_hashes``, the
        latest first."""
        if not secret_hashes:
            return []
        stmt = (select(_TABLE.c.id, _TABLE.c.name)
                .where(_TABLE.c.secret_hash.in_(sorted(secret_hashes)))
                .order_by(_TABLE.c.updated_at.desc()).limit(limit))
        with self._begin() as conn:
            return [(str(r.id), str(r.name)) for r in conn.execute(stmt)]
