"""players' lifetime statistics: per-hand figures read from their stored hands (issue 31)

One row per player and hand he was dealt into, written the first time he asks for his statistics
(store/mystats.py): the hand's game, stakes and currency, his result and the counts of VPIP, PFR, 3-bet,
the second street and the showdown. The statistics page sums these rows instead of reading every history
again.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_hand_figures",
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("hand_id", sa.String(length=128), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("ended_s", sa.BigInteger(), nullable=False),
        sa.Column("game", sa.String(length=64), nullable=False),
        sa.Column("betting", sa.String(length=8), nullable=False),
        sa.Column("currency", sa.String(length=8), nullable=False),
        sa.Column("stakes", sa.String(length=64), nullable=False),
        sa.Column("readable", sa.Integer(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        sa.Column("vpip", sa.Integer(), nullable=False),
        sa.Column("pfr", sa.Integer(), nullable=False),
        sa.Column("three_bet_chance", sa.Integer(), nullable=False),
        sa.Column("three_bet", sa.Integer(), nullable=False),
        sa.Column("saw_second", sa.Integer(), nullable=False),
        sa.Column("showdown", sa.Integer(), nullable=False),
        sa.Column("won_showdown", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_player_hand_figures_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", "hand_id", name=op.f("pk_player_hand_figures")),
    )
    op.create_index(
        "ix_player_hand_figures_player_id_ended_s", "player_hand_figures", ["player_id", "ended_s", "hand_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_player_hand_figures_player_id_ended_s", table_name="player_hand_figures")
    op.drop_table("player_hand_figures")
