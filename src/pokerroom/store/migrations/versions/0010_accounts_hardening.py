"""Accounts that hold against the next round of attacks (issue 34): the room's own bots marked as service
accounts (``players.kind``), the last use of a session for its idle timeout (``auth_sessions.last_seen``),
and the audit log made a hash chain (``audit_log.prev_hash`` and ``row_hash``).

The accounts the room made for its bots before (their password hash is the marker ``!no-password``, which
no registration can produce) become service accounts; every other account stays a player's, whatever its
name. The rows already in the audit log are chained in id order (store/audit.py), with the append-only
trigger lifted for that one update and put back.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from pokerroom.store.audit import GENESIS, row_hash
from pokerroom.store.models import UTCDateTime

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_AUDIT = sa.table(
    "audit_log",
    sa.column("id", sa.BigInteger()),
    sa.column("at", UTCDateTime()),
    sa.column("actor_id", sa.BigInteger()),
    sa.column("actor_name", sa.String()),
    sa.column("action", sa.String()),
    sa.column("target", sa.String()),
    sa.column("before", sa.Text()),
    sa.column("after", sa.Text()),
    sa.column("reason", sa.Text()),
    sa.column("prev_hash", sa.String()),
    sa.column("row_hash", sa.String()),
)
_SQLITE_TRIGGER = (
    "CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log "
    "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"
)


def upgrade() -> None:
    op.add_column("players", sa.Column("kind", sa.String(length=16), nullable=False, server_default="player"))
    op.execute("UPDATE players SET kind = 'service' WHERE password_hash = '!no-password'")
    op.add_column("auth_sessions", sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True))
    op.add_column("audit_log", sa.Column("prev_hash", sa.String(length=64), nullable=True))
    op.add_column("audit_log", sa.Column("row_hash", sa.String(length=64), nullable=True))
    _chain_existing_rows()


def _chain_existing_rows() -> None:
    bind = op.get_bind()
    rows = bind.execute(sa.select(_AUDIT).order_by(_AUDIT.c.id)).mappings().all()
    if not rows:
        return
    sqlite = bind.dialect.name == "sqlite"
    if sqlite:
        op.execute("DROP TRIGGER audit_log_no_update")
    else:
        op.execute("ALTER TABLE audit_log DISABLE TRIGGER audit_log_frozen")
    prev = GENESIS
    for row in rows:
        digest = row_hash(prev, dict(row))
        bind.execute(
            sa.update(_AUDIT).where(_AUDIT.c.id == row["id"]).values(prev_hash=prev, row_hash=digest)
        )
        prev = digest
    if sqlite:
        op.execute(_SQLITE_TRIGGER)
    else:
        op.execute("ALTER TABLE audit_log ENABLE TRIGGER audit_log_frozen")


def downgrade() -> None:
    op.drop_column("audit_log", "row_hash")
    op.drop_column("audit_log", "prev_hash")
    op.drop_column("auth_sessions", "last_seen")
    op.drop_column("players", "kind")
