"""Players' copies of a hand written when first asked for (docs/server-speed.md): ``player_hands`` and
``tournament_player_hands`` keep the player's ``seat`` and may hold no texts yet (``phh`` and
``pokerstars`` NULL until the store writes them from the hand's audit PHH).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_TABLES = ("player_hands", "tournament_player_hands")


def upgrade() -> None:
    for table in _TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("seat", sa.Integer(), nullable=True))
            batch.alter_column("phh", existing_type=sa.Text(), nullable=True)
            batch.alter_column("pokerstars", existing_type=sa.Text(), nullable=True)


def downgrade() -> None:
    # A copy not written yet cannot be kept under NOT NULL: it goes (the hand's audit PHH stays).
    for table in _TABLES:
        op.execute(sa.text(f"DELETE FROM {table} WHERE phh IS NULL OR pokerstars IS NULL"))
        with op.batch_alter_table(table) as batch:
            batch.alter_column("pokerstars", existing_type=sa.Text(), nullable=False)
            batch.alter_column("phh", existing_type=sa.Text(), nullable=False)
            batch.drop_column("seat")
