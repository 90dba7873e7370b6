"""The operator's console (issue 17): HTTP endpoints under ``/api/console`` for administrators (every
change) and support (read-only, plus locking an account), each change written to the audit log.
docs/console.md describes the pages and the endpoints."""

from __future__ import annotations

from fastapi import APIRouter

from pokerroom.server.console import (
    auditlog,
    dashboard,
    games,
    integrity,
    players,
    promotions,
    reports,
    reset,
    tournaments,
)

__all__ = ["router"]

router = APIRouter()
for _module in (dashboard, players, games, tournaments, promotions, reports, auditlog, reset, integrity):
    router.include_router(_module.router)
