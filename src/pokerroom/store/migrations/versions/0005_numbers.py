"""Global hand and tournament numbers, assigned by the database (issue 21: tracker-compatible histories).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "hand_numbers",
        sa.Column("number", BigId, autoincrement=True, nullable=False),
        sa.Column("hand_id", sa.String(length=128), nullable=False),
        sa.PrimaryKeyConstraint("number", name=op.f("pk_hand_numbers")),
        sa.UniqueConstraint("hand_id", name=op.f("uq_hand_numbers_hand_id")),
    )
    op.create_table(
        "tournament_numbers",
        sa.Column("number", BigId, autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("number", name=op.f("pk_tournament_numbers")),
        sa.UniqueConstraint("tournament_id", name=op.f("uq_tournament_numbers_tournament_id")),
    )


def downgrade() -> None:
    op.drop_table("tournament_numbers")
    op.drop_table("hand_numbers")
