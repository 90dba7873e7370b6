"""console games keep recurring series (issue 35)

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


OLD = "kind IN ('table', 'pool', 'tournament', 'promotions')"
NEW = "kind IN ('table', 'pool', 'tournament', 'promotions', 'recurring')"


def _kinds(condition: str) -> None:
    # (SQLite cannot alter a constraint: the batch copies the table)
    with op.batch_alter_table("console_games") as batch:
        batch.drop_constraint(op.f("ck_console_games_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_console_games_kind"), sa.text(condition))


def upgrade() -> None:
    _kinds(NEW)


def downgrade() -> None:
    op.execute("DELETE FROM console_games WHERE kind = 'recurring'")
    _kinds(OLD)
