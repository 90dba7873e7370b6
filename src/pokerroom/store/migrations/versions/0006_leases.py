"""Leases of a cluster's tables, pools and tournaments (issue 16: a room on several processes).

Revision ID: 0006
Revises: 0005
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
    op.create_table(
        "leases",
        sa.Column("resource", sa.String(length=96), nullable=False),
        sa.Column("holder", sa.String(length=96), nullable=True),
        sa.Column("fence", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("hand_to", sa.String(length=96), nullable=True),
        sa.PrimaryKeyConstraint("resource", name=op.f("pk_leases")),
    )


def downgrade() -> None:
    op.drop_table("leases")
