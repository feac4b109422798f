"""The bots' explanations of a play table's finished deals (*Pourquoi ce coup ?*).

Until now they lived only in the memory of the worker whose bots played: a restart lost them,
and another worker could not show them. ``table_explanations`` keeps them, one row per bot
decision (``table_id``, ``deal`` from 1, ``idx`` the deal's action, ``data`` the explanation's
JSON text), written once the deal is finished. A new table: no existing row changes.

Revision ID: 0008
Revises: 0007 (the concours's phone links)
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``table_explanations`` (empty: the explanations kept so far were in memory)."""
    op.create_table(
        "table_explanations",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column("idx", sa.Integer(), primary_key=True),
        sa.Column("data", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    """Drop ``table_explanations`` (the older code keeps explanations in memory only)."""
    op.drop_table("table_explanations")
