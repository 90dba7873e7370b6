"""Game integrity, where players come from (issue 30): every login kept for a while (``login_history``):
when, the client address, the browser's device id and its user agent (store/integrity.py).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_history",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("device", sa.String(length=64), nullable=True),
        sa.Column("user_agent", sa.String(length=256), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_login_history_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_history")),
    )
    op.create_index("ix_login_history_player_at", "login_history", ["player_id", "at"])
    op.create_index("ix_login_history_address", "login_history", ["address"])
    op.create_index("ix_login_history_device", "login_history", ["device"])
    op.create_index("ix_login_history_at", "login_history", ["at"])


def downgrade() -> None:
    op.drop_table("login_history")
