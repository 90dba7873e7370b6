"""indexes the integrity report's period reads and the chat log's prune need (issue 30)

``chat_log(at)``: the prune deletes the lines older than ``[integrity] chat_log_days``, oldest first, in
batches. ``hands(status, started_at)``: the report's reads of the ended cash and Rush hands started in a
period (decision times, sessions, Rush pools, audit copies). ``tournament_hands(ended_at)``: its read of
the audit copies of the tournament hands that ended in a period.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_chat_log_at", "chat_log", ["at"])
    op.create_index("ix_hands_status_started_at", "hands", ["status", "started_at"])
    op.create_index("ix_tournament_hands_ended_at", "tournament_hands", ["ended_at"])


def downgrade() -> None:
    op.drop_index("ix_tournament_hands_ended_at", table_name="tournament_hands")
    op.drop_index("ix_hands_status_started_at", table_name="hands")
    op.drop_index("ix_chat_log_at", table_name="chat_log")
