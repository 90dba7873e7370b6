"""Fairness: the per-hand seeds and player entropy of the provably fair deal (issue 34).

No schema change: a hand's full opening (every position's card and salt, the server seed and the
players' contributions) is written into its audit history (``hand_histories.full_phh``,
``tournament_hands.full_phh``: server side only, docs/fairness.md), and the pending seeds of the next
hands live in the process that deals them. The revision keeps the chain whole.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06
"""

from __future__ import annotations

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
