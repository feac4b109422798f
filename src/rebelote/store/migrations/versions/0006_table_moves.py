"""The play tables written as what each move adds, and their timers.

A table's row keeps its JSON as it was at version ``base`` (a snapshot, rewritten at each new
deal and at each change of seats or settings) and ``play_moves`` the moves written since, one
row per version: a move no longer rewrites the whole table. ``timers`` (JSON text) holds the
running turn clock and leave timers, restored when the server starts again.

Revision ID: 0006
Revises: 0005 (the concours)
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``base`` (the version of ``data``: the tables stored so far are whole) and
    ``timers`` to ``play_tables``; create ``play_moves``."""
    with op.batch_alter_table("play_tables") as batch:
        batch.add_column(sa.Column("base", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("timers", sa.Text(), nullable=True))
    op.execute("UPDATE play_tables SET base = version")
    op.create_table(
        "play_moves",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("moves", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    """Fold nothing back: drop ``play_moves`` (tables keep their snapshot) and the columns."""
    op.drop_table("play_moves")
    with op.batch_alter_table("play_tables") as batch:
        batch.drop_column("timers")
        batch.drop_column("base")
