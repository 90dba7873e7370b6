"""tournaments keep the operator's deal switch and each entry's deal (issue 35)

``tournament_switches``: the operator's word on deals in one tournament (the console's
``POST /api/console/tournaments/{id}/deals``), read by the tournament when it opens, so that a restart
(or a cluster's host taking it over) keeps deals allowed or forbidden as the operator left them; a row
of its own, since a tournament nobody registered for has no ``tournaments`` row. ``tournament_entries.deal``:
what a deal at the final table paid that entry (RULES.md §11.3), so that the archived page of a
tournament shows it after a restart.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_switches",
        sa.Column("tournament_id", sa.String(64), nullable=False),
        sa.Column("deals", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_tournament_switches")),
    )
    with op.batch_alter_table("tournament_entries") as batch:
        batch.add_column(sa.Column("deal", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_entries") as batch:
        batch.drop_column("deal")
    op.drop_table("tournament_switches")
