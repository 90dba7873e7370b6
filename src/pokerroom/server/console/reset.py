"""A player's side of a forced password reset: a new password with the code the operator handed him."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from pokerroom.server.console.access import store

__all__ = ["router"]

router = APIRouter(prefix="/api/account", tags=["accounts"])


class ResetIn(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=40)]
    code: Annotated[str, Field(min_length=1, max_length=100)]
    password: Annotated[str, Field(min_length=1, max_length=200)]


@router.post("/reset-password")
async def reset_password(body: ResetIn, request: Request) -> dict[str, Any]:
    """Set a new password after an operator forced a reset, with the one-time code he gave. A wrong
    name or code, or one used or expired, answers ``401 bad_credentials`` (not told apart); a weak
    password ``400 weak_password``. Then log in as usual."""
    player = await store(request).operator.reset_password(body.name, body.code, body.password)
    return {"ok": True, "player": {"id": str(player.id), "name": player.name}}
