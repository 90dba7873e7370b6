"""A player's side of a password reset: a new password with a code, the one the operator handed him after
a forced reset, or one the room mailed him ("forgot password?", server/http_account.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from pokerroom.server.console.access import store
from pokerroom.server.http_account import check_reset_attempt
from pokerroom.server.sessions import SessionSockets

__all__ = ["router"]

router = APIRouter(prefix="/api/account", tags=["accounts"])


class ResetIn(BaseModel):
    model_config = ConfigDict(strict=True)
    name: Annotated[str, Field(min_length=1, max_length=40)]
    code: Annotated[str, Field(min_length=1, max_length=100)]
    password: Annotated[str, Field(min_length=1, max_length=200)]


@router.post("/reset-password")
async def reset_password(body: ResetIn, request: Request) -> dict[str, Any]:
    """Set a new password with a reset code: the operator's (a forced reset) or one sent by e-mail. A
    wrong name or code, or one used or expired, answers ``401 bad_credentials`` (not told apart); a weak
    password ``400 weak_password`` (the code still works). Every session of the account ends. Tries are
    throttled per client address (``429 too_many_resets``). Then log in as usual."""
    check_reset_attempt(request)
    player = await store(request).account_mail.reset_password(body.name, body.code, body.password)
    sockets: SessionSockets = request.app.state.sessions
    await sockets.recheck_now()
    return {"ok": True, "player": {"id": str(player.id), "name": player.name}}
