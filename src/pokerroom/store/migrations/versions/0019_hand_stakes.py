"""Operability (issue 29): each hand keeps the stakes it was dealt at and, for Rush, its pool, so that the
rake report groups hands by the stakes of their time and Rush hands by pool (store/reports.py).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # (nullable columns: SQLite's ALTER TABLE ... ADD COLUMN and PostgreSQL's alike, no table rewrite)
    op.add_column("hands", sa.Column("stakes", sa.String(length=64), nullable=True))
    op.add_column("hands", sa.Column("pool_id", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("pool_id")
        batch.drop_column("stakes")
