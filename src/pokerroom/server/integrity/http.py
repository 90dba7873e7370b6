"""The players' side of chat kept civil (issue 30): mute another player for yourself, list and lift your
mutes, and report a chat line or a hand to the room's staff. docs/integrity.md."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from pokerroom.server.front import Front
from pokerroom.server.http import Me, body_schema, read_body
from pokerroom.store import InvalidRecord, Player, Store, UnknownHand, UnknownPlayer

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["chat"])


class MuteIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=40)]


class ReportIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    kind: Literal["chat", "hand"]
    line: Annotated[int | None, Field(ge=1)] = None  # a chat line (``line`` of a ``chat`` frame)
    hand: Annotated[str | None, Field(min_length=1, max_length=128)] = None  # one of the reporter's hands
    reason: Annotated[str, Field(min_length=3, max_length=500)]


def _store(request: Request) -> Store:
    front: Front = request.app.state.front
    return front.store


def _fail(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status, detail={"code": code, "message": message})


async def _named(store: Store, name: str) -> Player:
    """The player called ``name``: 404 ``unknown_player`` when there is none."""
    try:
        return await store.accounts.find(name)
    except UnknownPlayer:
        raise _fail(404, "unknown_player", "no such player") from None


@router.get("/chat/mutes")
async def my_mutes(me: Me, request: Request) -> dict[str, Any]:
    """The players you muted: their chat lines reach you without their text."""
    rows = await _store(request).chat.mutes_of(me.id)
    return {"muted": [{"name": m.muted_name, "since": m.at.isoformat()} for m in rows]}


@router.post("/chat/mutes", openapi_extra=body_schema(MuteIn))
async def mute(me: Me, request: Request) -> dict[str, Any]:
    """Mute a player (by name) for yourself, at every table, until you lift it. Nobody is told."""
    body = await read_body(request, MuteIn)
    s = _store(request)
    other = await _named(s, body.name)
    try:
        await s.chat.mute(me.id, other.id, by_name=me.name)
    except InvalidRecord as exc:
        raise _fail(422, "invalid_record", str(exc)) from None
    return {"ok": True, "muted": other.name}


@router.post("/chat/unmute", openapi_extra=body_schema(MuteIn))
async def unmute(me: Me, request: Request) -> dict[str, Any]:
    """Lift your mute of a player (by name)."""
    body = await read_body(request, MuteIn)
    s = _store(request)
    other = await _named(s, body.name)
    lifted = await s.chat.unmute(me.id, other.id)
    return {"ok": True, "lifted": lifted is not None}


@router.post("/reports", status_code=201, openapi_extra=body_schema(ReportIn))
async def report(me: Me, request: Request) -> dict[str, Any]:
    """Report a chat line (``kind: "chat"``, ``line``) or one of your hands (``kind: "hand"``, ``hand``) to
    the room's staff, with a reason. The answer says only that it was received."""
    body = await read_body(request, ReportIn)
    s = _store(request)
    if body.kind == "chat":
        if body.line is None:
            raise _fail(422, "invalid_field", "a report of a chat line names the line")
        line = await s.chat.line(body.line)
        if line is None:
            raise _fail(404, "unknown_line", "no chat line has this number")
        rid = await s.chat.report(me.id, "chat", body.reason, table_id=line.table_id, line_id=line.id)
    else:
        if body.hand is None:
            raise _fail(422, "invalid_field", "a report of a hand names the hand")
        try:
            hand = await s.histories.player_hand(me.id, body.hand)
        except UnknownHand:
            raise _fail(404, "unknown_hand", "that hand is not one of yours") from None
        rid = await s.chat.report(me.id, "hand", body.reason, table_id=hand.table_id, hand_id=body.hand)
    return {"ok": True, "report": rid}
