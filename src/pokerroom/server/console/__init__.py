"""The operator's console (issue 17): HTTP endpoints under ``/api/console`` for administrators (every
change) and support (read-only, plus locking an account), each change written to the audit log.
docs/console.md describes the pages and the endpoints."""

from __future__ import annotations

from types import ModuleType

from fastapi import APIRouter

from pokerroom.server.console import (
    auditlog,
    cashier,
    dashboard,
    findings,
    games,
    gaming,
    integrity,
    players,
    promotions,
    reports,
    reset,
    tournaments,
)

__all__ = ["router"]

router = APIRouter()
_PAGES: tuple[ModuleType, ...] = (dashboard, players, games, tournaments, promotions, reports, auditlog)
_PAGES += (reset, integrity, cashier)
_PAGES += (gaming,)  # responsible gaming (issue 29)
_PAGES += (findings,)  # the integrity report's findings (issue 30)
for _module in _PAGES:
    router.include_router(_module.router)
