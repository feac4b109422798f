"""The counter's games.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``counter_games``."""
    op.create_table(
        "counter_games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("team_ns", sa.String(80), nullable=False),
        sa.Column("team_ew", sa.String(80), nullable=False),
        sa.Column("target", sa.Integer(), nullable=False),
        sa.Column("deal_count", sa.Integer(), nullable=False),
        sa.Column("total_ns", sa.Integer(), nullable=False),
        sa.Column("total_ew", sa.Integer(), nullable=False),
        sa.Column("winner", sa.String(2), nullable=True),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_counter_games_updated_at", "counter_games", ["updated_at"])


def downgrade() -> None:
    """Drop ``counter_games``."""
    op.drop_index("ix_counter_games_updated_at", table_name="counter_games")
    op.drop_table("counter_games")
