"""The concours (club tournaments): each kept as its JSON, private to its organiser's secret.

Revision ID: 0005
Revises: 0004 (the counter's table talk)
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``concours``."""
    op.create_table(
        "concours",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("view_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_concours_view_id", "concours", ["view_id"], unique=True)
    op.create_index("ix_concours_secret_hash", "concours", ["secret_hash"])


def downgrade() -> None:
    """Drop ``concours``."""
    op.drop_index("ix_concours_secret_hash", table_name="concours")
    op.drop_index("ix_concours_view_id", table_name="concours")
    op.drop_table("concours")
