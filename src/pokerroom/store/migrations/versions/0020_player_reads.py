"""Players' private notes and tags on others, and table preferences (issue 31)

``player_notes``: one row per player and player he keeps a read on (a note and a colour tag);
``player_prefs``: one row per player, his tag names, bet-sizing presets, avatar, theme and card back as
a JSON object (store/reads.py). The same DDL on SQLite and PostgreSQL.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_notes",
        sa.Column("owner_id", sa.BigInteger(), nullable=False),
        sa.Column("target_id", sa.BigInteger(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("tag", sa.String(length=16), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["players.id"], name=op.f("fk_player_notes_owner_id_players")),
        sa.ForeignKeyConstraint(
            ["target_id"], ["players.id"], name=op.f("fk_player_notes_target_id_players")
        ),
        sa.PrimaryKeyConstraint("owner_id", "target_id", name=op.f("pk_player_notes")),
    )
    op.create_index("ix_player_notes_target_id", "player_notes", ["target_id"])
    op.create_table(
        "player_prefs",
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("prefs", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_player_prefs_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_player_prefs")),
    )


def downgrade() -> None:
    op.drop_table("player_prefs")
    op.drop_index("ix_player_notes_target_id", table_name="player_notes")
    op.drop_table("player_notes")
