"""Game integrity, operators' notes on an account (issue 30): ``account_notes``, who wrote what, when
(store/integrity.py).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_notes",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("author_id", sa.BigInteger(), nullable=True),
        sa.Column("author_name", sa.String(length=40), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_account_notes_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_notes")),
    )
    op.create_index("ix_account_notes_player_at", "account_notes", ["player_id", "at"])


def downgrade() -> None:
    op.drop_table("account_notes")
