"""E-mail addresses, their verification, and password-reset codes players use themselves (issue 29):
``account_emails`` (one address per account, verified by a link) and ``password_codes`` (codes sent by
e-mail: SHA-256 at rest, short-lived, single-use; store/account_mail.py).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_emails",
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("address_key", sa.String(length=254), nullable=False),
        sa.Column("verified_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("verify_hash", sa.String(length=64), nullable=True),
        sa.Column("verify_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_account_emails_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_account_emails")),
    )
    op.create_index("ix_account_emails_address_key", "account_emails", ["address_key"])
    op.create_index("ix_account_emails_verify_hash", "account_emails", ["verify_hash"])
    op.create_table(
        "password_codes",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False, server_default="0"),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_password_codes_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_password_codes")),
    )
    op.create_index("ix_password_codes_player_created", "password_codes", ["player_id", "created_at"])


def downgrade() -> None:
    op.drop_table("password_codes")
    op.drop_table("account_emails")
