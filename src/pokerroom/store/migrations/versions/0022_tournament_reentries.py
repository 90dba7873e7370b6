"""Re-entry (issue 35): a player's entries in a tournament are numbered, each a row

``tournament_entries`` gets ``entry`` (1 for every existing row: a player's first entry) and its primary
key becomes (tournament_id, player_id, entry): a busted player who re-enters (RULES.md §11.3, R261) has a
new row with its own stack and place. ``bounty``: the entry's bounty now (a bounty tournament, RULES.md
§11.3), so that a restart pays each player still in his own bounty exactly.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_entries", recreate="always") as batch:
        batch.add_column(sa.Column("entry", sa.Integer(), server_default="1", nullable=False))
        batch.add_column(sa.Column("bounty", sa.BigInteger(), nullable=True))
        batch.drop_constraint("pk_tournament_entries", type_="primary")
        batch.create_primary_key("pk_tournament_entries", ["tournament_id", "player_id", "entry"])


def downgrade() -> None:
    op.execute("DELETE FROM tournament_entries WHERE entry > 1")  # (re-entries cannot be kept)
    with op.batch_alter_table("tournament_entries", recreate="always") as batch:
        batch.drop_constraint("pk_tournament_entries", type_="primary")
        batch.create_primary_key("pk_tournament_entries", ["tournament_id", "player_id"])
        batch.drop_column("bounty")
        batch.drop_column("entry")
