"""The room's integrity options (the configuration file's ``[integrity]``: docs/configuration.md)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

__all__ = ["IntegritySettings"]


@dataclass(frozen=True)
class IntegritySettings:
    # Keep players whose kept logins share an address or a device from one cash table, one Rush pool and
    # one tournament (docs/integrity.md). Off by default: a household or an office plays together.
    separate_linked: bool = False
    login_history_days: int = 90  # how long a login is kept (then pruned)
    chat_log_days: int = 90  # how long a chat line is kept (then pruned); 0: for ever

    @property
    def keep(self) -> timedelta:
        return timedelta(days=self.login_history_days)

    @property
    def chat_keep(self) -> timedelta | None:
        """How long a chat line is kept; None: for ever."""
        return timedelta(days=self.chat_log_days) if self.chat_log_days > 0 else None
