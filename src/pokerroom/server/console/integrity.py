"""The console's Integrity pages (issue 30). Where players come from: an account's login history (when,
the address, the device id, the user agent) with the other accounts that share an address or a device,
and the room's addresses and devices that several accounts used. Chat kept civil: the chat log
(searchable), the word filter, the staff's mutes (for a time, with a reason) and players' reports. Staff
read; administrators change (audited)."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from pokerroom.server.console.access import Admin, Staff, audited, fail, store
from pokerroom.server.http import body_schema, read_body
from pokerroom.server.integrity.chat import ChatDesk
from pokerroom.server.integrity.logins import integrity_settings
from pokerroom.store import InvalidRecord, UnknownPlayer

__all__ = ["router"]

router = APIRouter(prefix="/api/console/integrity", tags=["console"])


@router.get("/shared")
async def shared(
    me: Staff, request: Request, limit: Annotated[int, Query(ge=1, le=500)] = 100
) -> dict[str, Any]:
    """The addresses and device ids that more than one account logged in from (in the kept logins), the
    most recently used first, each with its accounts."""
    rows = await store(request).logins.shared(limit=limit)
    settings = integrity_settings(request)
    return {
        "kept_days": settings.login_history_days,
        "separate_linked": settings.separate_linked,
        "shared": [
            {
                "kind": r.kind,
                "value": r.value,
                "players": [{"id": pid, "name": name} for pid, name in r.players],
                "last_seen": r.last_seen.isoformat(),
            }
            for r in rows
        ],
    }


@router.get("/players/{pid}/logins")
async def logins(
    pid: int, me: Staff, request: Request, limit: Annotated[int, Query(ge=1, le=500)] = 200
) -> dict[str, Any]:
    """An account's kept logins, newest first, and the other accounts whose logins share an address or a
    device with them (which ones, and when that account last came from one)."""
    s = store(request)
    try:
        player = await s.accounts.get(pid)
    except UnknownPlayer:
        raise fail(404, "unknown_player", "no such player", player=str(pid)) from None
    history = await s.logins.history(pid, limit=limit)
    links = await s.logins.links(pid)
    return {
        "player": {"id": player.id, "name": player.name},
        "kept_days": integrity_settings(request).login_history_days,
        "logins": [
            {"at": r.at.isoformat(), "address": r.address, "device": r.device, "user_agent": r.user_agent}
            for r in history
        ],
        "linked": [
            {
                "id": k.player_id,
                "name": k.name,
                "addresses": list(k.addresses),
                "devices": list(k.devices),
                "last_seen": k.last_seen.isoformat(),
            }
            for k in links
        ],
    }


# ------------------------------------------------------------------------------------ chat kept civil


class WordsIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    words: Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=500)]


class RoomMuteIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    player: Annotated[int, Field(ge=1)]
    minutes: Annotated[int | None, Field(ge=1, le=60 * 24 * 366)]  # None: until lifted
    reason: Annotated[str, Field(min_length=3, max_length=500)]


def _forget_words(request: Request) -> None:
    """The room of this process (if it runs one: a cluster's gateway does not) reads the filter again at
    its next line; the other hosts within :data:`~pokerroom.server.integrity.chat.WORDS_FOR`."""
    room = getattr(request.app.state, "room", None)
    desk = getattr(getattr(room, "services", None), "chat", None)
    if isinstance(desk, ChatDesk):
        desk.forget_words()


@router.get("/chat")
async def chat_log(
    me: Staff,
    request: Request,
    table: Annotated[str | None, Query(max_length=128)] = None,
    player: Annotated[str | None, Query(max_length=40)] = None,
    q: Annotated[str | None, Query(max_length=100)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """The chat log, newest first: at a table, of a player (by name), whose typed text contains ``q``; each
    line as typed and as shown (the word filter applied)."""
    rows = await store(request).chat.search(table=table, player=player, text=q, limit=limit, offset=offset)
    return {"lines": [r.to_dict() for r in rows]}


@router.get("/chat/words")
async def chat_words(me: Staff, request: Request) -> dict[str, Any]:
    """The word filter: each word is masked (``*``) in the chat lines the tables see."""
    return {"words": await store(request).chat.words()}


@router.put("/chat/words", openapi_extra=body_schema(WordsIn))
async def set_chat_words(me: Admin, request: Request) -> dict[str, Any]:
    """Replace the word filter (audited as ``chat.words``). In force at once in this process, within five
    seconds on every host of a cluster."""
    body = await read_body(request, WordsIn)
    try:
        before, after = await store(request).chat.set_words(body.words)
    except InvalidRecord as exc:
        raise fail(422, "bad_words", str(exc)) from None
    _forget_words(request)
    await audited(request, me, "chat.words", None, before=before, after=after)
    return {"words": after}


@router.get("/mutes")
async def room_mutes(me: Staff, request: Request) -> dict[str, Any]:
    """The players the staff muted for everyone, in force now."""
    return {"mutes": [m.to_dict() for m in await store(request).chat.room_mutes()]}


@router.post("/mutes", openapi_extra=body_schema(RoomMuteIn))
async def room_mute(me: Admin, request: Request) -> dict[str, Any]:
    """Mute a player's chat for everyone, for ``minutes`` (null: until lifted), with a reason (audited as
    ``chat.mute``). His lines are refused (``chat_muted``) until then."""
    body = await read_body(request, RoomMuteIn)
    s = store(request)
    try:
        player = await s.accounts.get(body.player)
    except UnknownPlayer:
        raise fail(404, "unknown_player", "no such player", player=str(body.player)) from None
    until = None if body.minutes is None else s.clock() + timedelta(minutes=body.minutes)
    mute = await s.chat.mute(None, player.id, until=until, reason=body.reason, by_name=me.name)
    await audited(request, me, "chat.mute", player.name, after=mute.to_dict(), reason=body.reason)
    return {"mute": mute.to_dict()}


@router.post("/mutes/{pid}/lift")
async def lift_room_mute(pid: int, me: Admin, request: Request) -> dict[str, Any]:
    """Lift the staff's mute of a player (audited as ``chat.unmute``); ``404 not_muted`` without one."""
    s = store(request)
    lifted = await s.chat.unmute(None, pid)
    if lifted is None:
        raise fail(404, "not_muted", "the player is not muted by the staff", player=str(pid))
    await audited(request, me, "chat.unmute", lifted.muted_name, before=lifted.to_dict())
    return {"ok": True}


@router.get("/reports")
async def reports(
    me: Staff,
    request: Request,
    status: Annotated[str | None, Query(pattern="^(open|closed)$")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """Players' reports of a chat line (with the line) or of a hand, newest first."""
    rows = await store(request).chat.reports(status=status, limit=limit, offset=offset)
    return {"reports": [r.to_dict() for r in rows]}


@router.post("/reports/{rid}/close")
async def close_report(rid: int, me: Admin, request: Request) -> dict[str, Any]:
    """Close an open report (audited as ``report.close``); ``404 unknown_report`` otherwise."""
    if not await store(request).chat.close_report(rid, me.name):
        raise fail(404, "unknown_report", "no open report has this id", report=str(rid))
    await audited(request, me, "report.close", f"report:{rid}")
    return {"ok": True}


# ------------------------------------------------------------------------------------ notes on accounts


class NoteIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    text: Annotated[str, Field(min_length=1, max_length=2000)]


async def _account(request: Request, pid: int) -> Any:
    try:
        return await store(request).accounts.get(pid)
    except UnknownPlayer:
        raise fail(404, "unknown_player", "no such player", player=str(pid)) from None


@router.get("/players/{pid}/notes")
async def notes(pid: int, me: Staff, request: Request) -> dict[str, Any]:
    """The operators' notes on an account (who wrote what, when; newest first), with its integrity flags:
    how many accounts share an address or a device with it, and the staff's chat mute in force."""
    await _account(request, pid)
    s = store(request)
    mute = await s.chat.room_mute(pid)
    return {
        "notes": [n.to_dict() for n in await s.notes.of(pid)],
        "flags": {
            "linked": len(await s.logins.links(pid)),
            "chat_muted": None if mute is None else mute.to_dict(),
        },
    }


@router.post("/players/{pid}/notes", status_code=201, openapi_extra=body_schema(NoteIn))
async def add_note(pid: int, me: Admin, request: Request) -> dict[str, Any]:
    """Write a note on an account (audited as ``player.note``). A note is never changed or removed: write
    another."""
    player = await _account(request, pid)
    body = await read_body(request, NoteIn)
    try:
        note = await store(request).notes.add(pid, me.id, me.name, body.text)
    except InvalidRecord as exc:
        raise fail(422, "bad_note", str(exc)) from None
    await audited(request, me, "player.note", player.name, after={"note": note.id, "text": note.text})
    return {"note": note.to_dict()}
