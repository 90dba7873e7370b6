"""Who may use the console, and the audit of what they do.

Every console endpoint depends on :data:`Staff` (an administrator or support: read-only pages, and
locking an account) or :data:`Admin` (every change). Anonymous callers get ``401 login_required`` (from
``current_player``), players ``403 forbidden``. :func:`audited` writes an entry of the audit log."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request

from pokerroom.server.commands import Command, CommandRefused
from pokerroom.server.front import Front
from pokerroom.server.http import current_player
from pokerroom.store import AuditEntry, Player, Store

__all__ = ["Admin", "Staff", "audited", "fail", "front", "store"]


def _forbidden(what: str) -> HTTPException:
    return HTTPException(403, detail={"code": "forbidden", "message": f"{what} only"})


async def staff_player(player: Annotated[Player, Depends(current_player)]) -> Player:
    if not player.is_staff:
        raise _forbidden("administrators and support")
    return player


async def admin_player(player: Annotated[Player, Depends(current_player)]) -> Player:
    if not player.is_admin:
        raise _forbidden("administrators")
    return player


Staff = Annotated[Player, Depends(staff_player)]
Admin = Annotated[Player, Depends(admin_player)]


def front(request: Request) -> Front:
    f: Front = request.app.state.front
    return f


def store(request: Request) -> Store:
    return front(request).store


def fail(status: int, code: str, message: str, **details: Any) -> HTTPException:
    return HTTPException(status, detail={"code": code, "message": message, "details": details})


async def audited(
    request: Request,
    who: Player,
    action: str,
    target: str | None,
    *,
    before: Any = None,
    after: Any = None,
    reason: str | None = None,
) -> AuditEntry:
    return await store(request).audit.record(
        who.id, who.name, action, target, before=before, after=after, reason=reason
    )


async def command(request: Request, who: Player, cmd: Command) -> dict[str, Any]:
    """Send an operator's command (server/commands.py) to where it runs, record it in the audit log, and
    answer what it did; a refusal becomes its HTTP error (and records nothing)."""
    try:
        outcome = await front(request).command(cmd)
    except CommandRefused as exc:
        raise fail(exc.status, exc.code, exc.message, **exc.details) from None
    if outcome.action is not None:
        await audited(
            request, who, outcome.action, outcome.target, before=outcome.before, after=outcome.after
        )
    return outcome.answer
