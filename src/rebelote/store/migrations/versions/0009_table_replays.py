"""Le robot à votre place of a play table's finished deals (the deal played again with the
table's level in a human's seat).

Until now they lived only in the memory of the worker that saved the deal's end: a restart
lost them, and another worker could not show them. ``table_replays`` keeps them, one row per
deal and human seat (``table_id``, ``deal`` from 1, ``seat`` 0 to 3, ``data`` the comparison's
JSON text), written once the deal is finished and its replay done. A new table: no existing
row changes.

Revision ID: 0009
Revises: 0008 (the bots' explanations)
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``table_replays`` (empty: the replays made so far were in memory)."""
    op.create_table(
        "table_replays",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("data", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    """Drop ``table_replays`` (the older code keeps the replays in memory only)."""
    op.drop_table("table_replays")
