"""The operator's console (issue 17): the ``support`` role (``players.staff``), operator locks and
password resets on accounts, the append-only audit log, and the tables, pools and tournaments changed
from the console.

Revision ID: 0008
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0006"
branch_labels = None
depends_on = None

_FROZEN_PG = """
CREATE OR REPLACE FUNCTION audit_log_frozen() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only';
END;
$$ LANGUAGE plpgsql
"""


def upgrade() -> None:
    # Columns added in place: changing the CHECK of ``players.role`` would rebuild the table on SQLite,
    # which the foreign keys to it forbid; a support account keeps role 'player' and staff 'support'.
    op.add_column("players", sa.Column("staff", sa.String(length=16), nullable=True))
    op.add_column("players", sa.Column("locked_by", sa.Text(), nullable=True))
    op.add_column("players", sa.Column("reset_hash", sa.String(length=64), nullable=True))
    op.add_column("players", sa.Column("reset_until", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "audit_log",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.BigInteger(), nullable=True),
        sa.Column("actor_name", sa.String(length=40), nullable=False),
        sa.Column("action", sa.String(length=48), nullable=False),
        sa.Column("target", sa.String(length=128), nullable=True),
        sa.Column("before", sa.Text(), nullable=True),
        sa.Column("after", sa.Text(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    op.create_index("ix_audit_log_action", "audit_log", ["action"])
    op.create_index("ix_audit_log_target", "audit_log", ["target"])
    op.create_table(
        "console_games",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "kind IN ('table', 'pool', 'tournament', 'promotions')", name=op.f("ck_console_games_kind")
        ),
        sa.CheckConstraint("state IN ('open', 'paused', 'closed')", name=op.f("ck_console_games_state")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_console_games")),
    )
    if op.get_bind().dialect.name == "sqlite":
        for what in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER audit_log_no_{what.lower()} BEFORE {what} ON audit_log "
                "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"
            )
    else:
        op.execute(_FROZEN_PG)
        op.execute(
            "CREATE TRIGGER audit_log_frozen BEFORE UPDATE OR DELETE ON audit_log "
            "FOR EACH ROW EXECUTE FUNCTION audit_log_frozen()"
        )


def downgrade() -> None:
    op.drop_table("console_games")
    if op.get_bind().dialect.name != "sqlite":
        op.execute("DROP TRIGGER IF EXISTS audit_log_frozen ON audit_log")
        op.execute("DROP FUNCTION IF EXISTS audit_log_frozen()")
    op.drop_table("audit_log")
    for column in ("reset_until", "reset_hash", "locked_by", "staff"):
        op.drop_column("players", column)
