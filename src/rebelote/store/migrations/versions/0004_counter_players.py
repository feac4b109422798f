"""The counter's table talk: who deals first and the players' names (``meta``, JSON text), and
games archived from the list (``archived``).

Revision ID: 0004
Revises: 0003 (the play tables)
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``meta`` (``{}`` for the games already saved) and ``archived`` (false)."""
    with op.batch_alter_table("counter_games") as batch:
        batch.add_column(sa.Column("meta", sa.Text(), nullable=False, server_default="{}"))
        batch.add_column(sa.Column("archived", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("counter_games") as batch:
        batch.drop_column("archived")
        batch.drop_column("meta")
