"""Wallets in every configured currency and the cashier's deposit and withdrawal requests (issue 29):
``cashier_requests`` (store/cashier.py). Wallets need no schema: a wallet is a ledger account per currency.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cashier_requests",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("currency", sa.String(length=8), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("reference", sa.String(length=200), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=False),
        sa.Column("method", sa.String(length=32), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decided_by", sa.BigInteger(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("hold_account_id", sa.BigInteger(), nullable=True),
        sa.Column("tx_id", sa.BigInteger(), nullable=True),
        sa.Column("decision_tx_id", sa.BigInteger(), nullable=True),
        sa.CheckConstraint("kind IN ('deposit', 'withdrawal')", name=op.f("ck_cashier_requests_kind")),
        sa.CheckConstraint(
            "state IN ('pending', 'approved', 'declined')", name=op.f("ck_cashier_requests_state")
        ),
        sa.CheckConstraint("amount > 0", name=op.f("ck_cashier_requests_amount_positive")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_cashier_requests_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["hold_account_id"],
            ["ledger_accounts.id"],
            name=op.f("fk_cashier_requests_hold_account_id_ledger_accounts"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cashier_requests")),
    )
    op.create_index(
        "ux_cashier_requests_player_request", "cashier_requests", ["player_id", "request_id"], unique=True
    )
    op.create_index("ix_cashier_requests_state", "cashier_requests", ["state", "id"])


def downgrade() -> None:
    op.drop_table("cashier_requests")
