"""Tournaments survive a restart: registrations, running tournaments' chips and payouts, satellite tickets,
and tournament hand histories.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
When = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("series", sa.String(64), nullable=True),
        sa.Column("spec", sa.Text(), nullable=True),
        sa.Column("currency", sa.String(8), nullable=False),
        sa.Column("buy_in", sa.BigInteger(), nullable=False),
        sa.Column("fee", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("prizes", sa.Text(), nullable=True),
        sa.Column("created_at", When, nullable=False),
        sa.Column("updated_at", When, nullable=False),
        sa.CheckConstraint(
            "status IN ('registering', 'running', 'finished', 'cancelled')",
            name=op.f("ck_tournaments_status"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_tickets",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("satellite", sa.String(64), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("currency", sa.String(8), nullable=False),
        sa.Column("value", sa.BigInteger(), nullable=False),
        sa.Column("account_id", sa.BigInteger(), nullable=False),
        sa.Column("won_at", When, nullable=False),
        sa.Column("used_for", sa.String(64), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["ledger_accounts.id"],
            name=op.f("fk_tournament_tickets_account_id_ledger_accounts"),
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_tournament_tickets_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_tickets")),
    )
    op.create_index(op.f("ix_tournament_tickets_player_id"), "tournament_tickets", ["player_id"])
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.String(64), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("source_id", sa.BigInteger(), nullable=False),
        sa.Column("ticket_id", sa.BigInteger(), nullable=True),
        sa.Column("stack", sa.BigInteger(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("registered_at", When, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_tournament_entries_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["source_id"],
            ["ledger_accounts.id"],
            name=op.f("fk_tournament_entries_source_id_ledger_accounts"),
        ),
        sa.ForeignKeyConstraint(
            ["ticket_id"],
            ["tournament_tickets.id"],
            name=op.f("fk_tournament_entries_ticket_id_tournament_tickets"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_entries_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "player_id", name=op.f("pk_tournament_entries")),
    )
    op.create_table(
        "tournament_hands",
        sa.Column("id", sa.String(128), nullable=False),
        sa.Column("tournament_id", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(128), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("ended_at", When, nullable=False),
        sa.Column("full_phh", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_hands")),
    )
    op.create_index(op.f("ix_tournament_hands_tournament_id"), "tournament_hands", ["tournament_id"])
    op.create_table(
        "tournament_player_hands",
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("hand_id", sa.String(128), nullable=False),
        sa.Column("ended_at", When, nullable=False),
        sa.Column("phh", sa.Text(), nullable=False),
        sa.Column("pokerstars", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["hand_id"],
            ["tournament_hands.id"],
            name=op.f("fk_tournament_player_hands_hand_id_tournament_hands"),
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_tournament_player_hands_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", "hand_id", name=op.f("pk_tournament_player_hands")),
    )
    op.create_index(
        "ix_tournament_player_hands_player_id_ended_at", "tournament_player_hands", ["player_id", "ended_at"]
    )


def downgrade() -> None:
    for table in (
        "tournament_player_hands",
        "tournament_hands",
        "tournament_entries",
        "tournament_tickets",
        "tournaments",
    ):
        op.drop_table(table)
