"""The counter's secrets: each game gets the hash of its write secret and a read-only view id.

Games saved before this revision get a fresh view id and a secret nobody holds: they stay
readable through no link and are listed for nobody (the counter had no secrets then, so any
visitor could change them; nothing can tell their owner from a passer-by).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import hashlib
import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``secret_hash`` and ``view_id`` (both unique) to ``counter_games``."""
    with op.batch_alter_table("counter_games") as batch:
        batch.add_column(sa.Column("secret_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("view_id", sa.String(32), nullable=True))
    games = sa.table("counter_games", sa.column("id", sa.String),
                     sa.column("secret_hash", sa.String), sa.column("view_id", sa.String))
    conn = op.get_bind()
    for (game_id,) in conn.execute(sa.select(games.c.id)).all():
        unknown = hashlib.sha256(secrets.token_bytes(32)).hexdigest()
        conn.execute(sa.update(games).where(games.c.id == game_id).values(
            secret_hash=unknown, view_id=secrets.token_hex(8)))
    with op.batch_alter_table("counter_games") as batch:
        batch.alter_column("secret_hash", existing_type=sa.String(64), nullable=False)
        batch.alter_column("view_id", existing_type=sa.String(32), nullable=False)
    op.create_index("ix_counter_games_secret_hash", "counter_games", ["secret_hash"],
                    unique=True)
    op.create_index("ix_counter_games_view_id", "counter_games", ["view_id"], unique=True)


def downgrade() -> None:
    """Drop the secrets."""
    op.drop_index("ix_counter_games_view_id", table_name="counter_games")
    op.drop_index("ix_counter_games_secret_hash", table_name="counter_games")
    with op.batch_alter_table("counter_games") as batch:
        batch.drop_column("view_id")
        batch.drop_column("secret_hash")
