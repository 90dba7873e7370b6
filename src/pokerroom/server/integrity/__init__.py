"""Game integrity (issue 30): where players come from (the login history and the same-table rule).
docs/integrity.md describes what it keeps and what the operator sees."""

from __future__ import annotations

from pokerroom.server.integrity.seating import SeatRule, check_seat
from pokerroom.server.integrity.settings import IntegritySettings

__all__ = ["IntegritySettings", "SeatRule", "check_seat"]
