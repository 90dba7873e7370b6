"""Initial store schema: players and sessions, the double-entry ledger, the hand journal, histories.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
When = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("failed_logins", sa.Integer(), nullable=False),
        sa.Column("locked_until", When, nullable=True),
        sa.Column("created_at", When, nullable=False),
        sa.CheckConstraint("role IN ('player', 'admin')", name=op.f("ck_players_role")),
        sa.CheckConstraint("failed_logins >= 0", name=op.f("ck_players_failed_logins")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("name_key", name=op.f("uq_players_name_key")),
    )
    op.create_table(
        "auth_sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", When, nullable=False),
        sa.Column("expires_at", When, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_auth_sessions_player_id_players")
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_auth_sessions")),
    )
    op.create_index(op.f("ix_auth_sessions_player_id"), "auth_sessions", ["player_id"])
    op.create_table(
        "ledger_accounts",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("currency", sa.String(8), nullable=False),
        sa.Column("owner_id", sa.BigInteger(), nullable=True),
        sa.Column("ref", sa.String(64), nullable=True),
        sa.Column("key", sa.String(160), nullable=True),
        sa.Column("balance", sa.BigInteger(), nullable=True),
        sa.Column("opened_at", When, nullable=False),
        sa.Column("closed_at", When, nullable=True),
        sa.CheckConstraint(
            "balance IS NULL OR balance >= 0", name=op.f("ck_ledger_accounts_balance_not_negative")
        ),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["players.id"], name=op.f("fk_ledger_accounts_owner_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_accounts")),
        sa.UniqueConstraint("key", name=op.f("uq_ledger_accounts_key")),
    )
    op.create_index(op.f("ix_ledger_accounts_owner_id"), "ledger_accounts", ["owner_id"])
    op.create_index(op.f("ix_ledger_accounts_ref"), "ledger_accounts", ["ref"])
    op.create_table(
        "ledger_transactions",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("idem_key", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("created_at", When, nullable=False),
        sa.Column("memo", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_transactions")),
        sa.UniqueConstraint("idem_key", name=op.f("uq_ledger_transactions_idem_key")),
    )
    op.create_table(
        "ledger_postings",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("tx_id", sa.BigInteger(), nullable=False),
        sa.Column("account_id", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(8), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("amount <> 0", name=op.f("ck_ledger_postings_amount_not_zero")),
        sa.ForeignKeyConstraint(
            ["account_id"], ["ledger_accounts.id"], name=op.f("fk_ledger_postings_account_id_ledger_accounts")
        ),
        sa.ForeignKeyConstraint(
            ["tx_id"], ["ledger_transactions.id"], name=op.f("fk_ledger_postings_tx_id_ledger_transactions")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_postings")),
    )
    op.create_index(op.f("ix_ledger_postings_account_id"), "ledger_postings", ["account_id"])
    op.create_index(op.f("ix_ledger_postings_tx_id"), "ledger_postings", ["tx_id"])
    op.create_table(
        "hands",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("currency", sa.String(8), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("started_at", When, nullable=False),
        sa.Column("ended_at", When, nullable=True),
        sa.Column("deck_commitment", sa.String(64), nullable=False),
        sa.Column("start_fingerprint", sa.String(64), nullable=False),
        sa.Column("deck", sa.Text(), nullable=True),
        sa.Column("salt", sa.String(128), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("tx_id", sa.BigInteger(), nullable=True),
        sa.CheckConstraint("status IN ('open', 'ended', 'cancelled')", name=op.f("ck_hands_status")),
        sa.ForeignKeyConstraint(
            ["tx_id"], ["ledger_transactions.id"], name=op.f("fk_hands_tx_id_ledger_transactions")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hands")),
    )
    op.create_index("ix_hands_status", "hands", ["status"])
    op.create_index(op.f("ix_hands_table_id"), "hands", ["table_id"])
    op.create_table(
        "hand_seats",
        sa.Column("hand_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("session_id", sa.BigInteger(), nullable=False),
        sa.Column("stack", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name=op.f("fk_hand_seats_hand_id_hands")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_hand_seats_player_id_players")),
        sa.ForeignKeyConstraint(
            ["session_id"], ["ledger_accounts.id"], name=op.f("fk_hand_seats_session_id_ledger_accounts")
        ),
        sa.PrimaryKeyConstraint("hand_id", "seat", name=op.f("pk_hand_seats")),
    )
    op.create_index(op.f("ix_hand_seats_session_id"), "hand_seats", ["session_id"])
    op.create_table(
        "hand_commands",
        sa.Column("hand_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("command", sa.Text(), nullable=False),
        sa.Column("recorded_at", When, nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name=op.f("fk_hand_commands_hand_id_hands")),
        sa.PrimaryKeyConstraint("hand_id", "seq", name=op.f("pk_hand_commands")),
    )
    op.create_table(
        "hand_histories",
        sa.Column("hand_id", sa.String(64), nullable=False),
        sa.Column("full_phh", sa.Text(), nullable=False),
        sa.Column("stored_at", When, nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name=op.f("fk_hand_histories_hand_id_hands")),
        sa.PrimaryKeyConstraint("hand_id", name=op.f("pk_hand_histories")),
    )
    op.create_table(
        "player_hands",
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("hand_id", sa.String(64), nullable=False),
        sa.Column("ended_at", When, nullable=False),
        sa.Column("phh", sa.Text(), nullable=False),
        sa.Column("pokerstars", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name=op.f("fk_player_hands_hand_id_hands")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_player_hands_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", "hand_id", name=op.f("pk_player_hands")),
    )
    op.create_index("ix_player_hands_player_id_ended_at", "player_hands", ["player_id", "ended_at"])


def downgrade() -> None:
    for table in (
        "player_hands",
        "hand_histories",
        "hand_commands",
        "hand_seats",
        "hands",
        "ledger_postings",
        "ledger_transactions",
        "ledger_accounts",
        "auth_sessions",
        "players",
    ):
        op.drop_table(table)
