"""Rush: a seat can leave an open hand early (quick fold); ``hand_seats.released`` is its booked result.

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
    with op.batch_alter_table("hand_seats") as batch:
        batch.add_column(sa.Column("released", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hand_seats") as batch:
        batch.drop_column("released")
