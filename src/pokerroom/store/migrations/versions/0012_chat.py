"""Game integrity, chat kept civil (issue 30): the chat log of every table (``chat_log``), the word filter
(``chat_words``), mutes (``chat_mutes``) and players' reports (``integrity_reports``): store/chat.py.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _player_fk(table: str, column: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], ["players.id"], name=op.f(f"fk_{table}_{column}_players"))


def upgrade() -> None:
    op.create_table(
        "chat_log",
        sa.Column("id", _ID, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_id", sa.String(length=128), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("shown", sa.Text(), nullable=False),
        _player_fk("chat_log", "player_id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_log")),
    )
    op.create_index("ix_chat_log_table_at", "chat_log", ["table_id", "at"])
    op.create_index("ix_chat_log_player_at", "chat_log", ["player_id", "at"])
    op.create_table(
        "chat_words",
        sa.Column("word", sa.String(length=64), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("word", name=op.f("pk_chat_words")),
    )
    op.create_table(
        "chat_mutes",
        sa.Column("id", _ID, nullable=False),
        sa.Column("owner_id", sa.BigInteger(), nullable=True),
        sa.Column("muted_id", sa.BigInteger(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("by_name", sa.String(length=40), nullable=False),
        _player_fk("chat_mutes", "owner_id"),
        _player_fk("chat_mutes", "muted_id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_mutes")),
    )
    op.create_index("ix_chat_mutes_muted_id", "chat_mutes", ["muted_id"])
    op.create_index("ix_chat_mutes_owner_id", "chat_mutes", ["owner_id"])
    op.create_table(
        "integrity_reports",
        sa.Column("id", _ID, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reporter_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("table_id", sa.String(length=128), nullable=True),
        sa.Column("line_id", sa.BigInteger(), nullable=True),
        sa.Column("hand_id", sa.String(length=128), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("closed_by", sa.String(length=40), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("kind IN ('chat', 'hand')", name=op.f("ck_integrity_reports_kind")),
        sa.CheckConstraint("status IN ('open', 'closed')", name=op.f("ck_integrity_reports_status")),
        _player_fk("integrity_reports", "reporter_id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_integrity_reports")),
    )
    op.create_index("ix_integrity_reports_status", "integrity_reports", ["status"])


def downgrade() -> None:
    for table in ("integrity_reports", "chat_mutes", "chat_words", "chat_log"):
        op.drop_table(table)
