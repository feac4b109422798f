"""The play tables.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``play_tables``."""
    op.create_table(
        "play_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("code", sa.String(12), nullable=False, unique=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("over", sa.Boolean(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_play_tables_updated_at", "play_tables", ["updated_at"])


def downgrade() -> None:
    """Drop ``play_tables``."""
    op.drop_index("ix_play_tables_updated_at", table_name="play_tables")
    op.drop_table("play_tables")
