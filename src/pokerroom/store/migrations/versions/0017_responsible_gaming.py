"""Responsible gaming: limits players set on themselves, cool-off and self-exclusion (issue 29).

``gaming_limits``: one row per player, kind and currency (the limit in force and a raise or removal
waiting out its cooling period); ``gaming_exclusions``: every cool-off and self-exclusion, never changed
or deleted (store/gaming.py). The same DDL on SQLite and PostgreSQL.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gaming_limits",
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("currency", sa.String(length=8), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=True),
        sa.Column("pending", sa.BigInteger(), nullable=True),
        sa.Column("pending_from", sa.DateTime(timezone=True), nullable=True),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_gaming_limits_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", "kind", "currency", name=op.f("pk_gaming_limits")),
    )
    op.create_table(
        "gaming_exclusions",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("kind IN ('cool_off', 'self_exclusion')", name=op.f("ck_gaming_exclusions_kind")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_gaming_exclusions_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gaming_exclusions")),
    )
    op.create_index("ix_gaming_exclusions_player_id_ends_at", "gaming_exclusions", ["player_id", "ends_at"])


def downgrade() -> None:
    op.drop_table("gaming_exclusions")
    op.drop_table("gaming_limits")
