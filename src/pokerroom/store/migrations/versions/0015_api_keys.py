"""Operator API keys, scoped, hashed at rest, revocable (issue 29): ``api_keys`` and the one-time sign-on
links they make, ``sso_tokens`` (store/api_keys.py).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=40), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("scopes", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(length=40), nullable=False),
        sa.Column("created_by_id", sa.BigInteger(), nullable=True),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_by", sa.String(length=40), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
    )
    op.create_index("ux_api_keys_name_key", "api_keys", ["name_key"], unique=True)
    op.create_index("ux_api_keys_prefix", "api_keys", ["prefix"], unique=True)
    op.create_table(
        "sso_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("key_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_sso_tokens_player_id_players")),
        sa.ForeignKeyConstraint(["key_id"], ["api_keys.id"], name=op.f("fk_sso_tokens_key_id_api_keys")),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_sso_tokens")),
    )
    op.create_index("ix_sso_tokens_expires_at", "sso_tokens", ["expires_at"])


def downgrade() -> None:
    op.drop_table("sso_tokens")
    op.drop_table("api_keys")
