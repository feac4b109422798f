"""The counter games of a concours's tables name their concours (no schema change).

A table counted on a phone now tells the concours of each write (its result settles when the
game ends, instead of being pulled from every game at every read of the concours): its
``meta.concours`` needs the concours's ``id``. The games opened before this carry the name,
partie and table only; the id is added here from each concours's own record of its tables'
games (and the ``reserve_at_end`` of the concours's settings, ``defence`` when it had none).

Revision ID: 0007
Revises: 0006 (the play tables' moves)
Create Date: 2026-12-07
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``id`` (and ``reserve_at_end``) to the ``meta.concours`` of every table's game."""
    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT id, data FROM concours")).all()
    for cid, data in rows:
        try:
            concours = json.loads(data)
        except ValueError:
            continue
        reserve = concours.get("settings", {}).get("reserve_at_end", "defence")
        games = [t["game"] for p in concours.get("parties", ()) for t in p.get("tables", ())
                 if t.get("game")]
        for game in games:
            found = bind.execute(sa.text("SELECT meta FROM counter_games WHERE id = :g"),
                                 {"g": game}).scalar()
            if found is None:
                continue
            try:
                meta = json.loads(found or "{}")
            except ValueError:
                continue
            link = meta.get("concours")
            if not isinstance(link, dict) or "id" in link:
                continue
            link["id"] = cid
            link.setdefault("reserve_at_end", reserve)
            bind.execute(sa.text("UPDATE counter_games SET meta = :m WHERE id = :g"),
                         {"m": json.dumps(meta, ensure_ascii=False, separators=(",", ":"),
                                          sort_keys=True), "g": game})


def downgrade() -> None:
    """Nothing to undo: the older code reads the games' ``meta`` without the new keys."""
