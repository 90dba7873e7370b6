"""The console's Tables and pools page: open a cash table or Rush pool from the fields of the
configuration file, pause and resume a table, close one after its hand (players cashed out), send a
message to a table, watch one as an observer (no hole cards). What the console changes is stored
(``store.games``) and wins over the configuration file at a restart or a reload (docs/console.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from pokerroom.rooms import TableConfig
from pokerroom.rooms.view import table_view
from pokerroom.server.config.parse import ConfigInvalid, game_from_fields
from pokerroom.server.console.access import Admin, Staff, audited, fail, room
from pokerroom.server.errors import Refused
from pokerroom.server.room import Room

__all__ = ["router"]

router = APIRouter(prefix="/api/console/tables", tags=["console"])


class OpenIn(BaseModel):
    kind: Literal["table", "pool"] = "table"
    fields: dict[str, Any] = Field(
        description="the keys of a [[table]] or [[pool]] of the configuration file"
    )


class MessageIn(BaseModel):
    text: Annotated[str, Field(min_length=1, max_length=200)]


def _state(r: Room, gid: str) -> str:
    actor: Any = r.tables.get(gid) or r.pools.get(gid)
    if actor is None:
        return "closed"
    if actor.closing:
        return "closing"
    if actor.suspended is not None:
        return "suspended"
    if gid in r.held:
        return "paused"
    return "store_paused" if actor.pause is not None else "playing"


def _row(r: Room, gid: str, kind: str) -> dict[str, Any]:
    actor: Any = r.tables.get(gid) or r.pools.get(gid)
    return {
        "id": gid,
        "kind": kind,
        "state": _state(r, gid),
        "reason": actor.suspended if actor else None,  # why repeated errors suspended it
        "summary": actor.summary() if actor else None,
    }


def _kind(r: Room, gid: str) -> str:
    if gid in r.tables:
        return "table"
    if gid in r.pools:
        return "pool"
    raise fail(404, "unknown_table", "no such table or pool", table=gid)


async def _keep(request: Request, r: Room, gid: str, kind: str, state: str) -> None:
    """Store the console's word on ``gid``: its fields if the console opened it, else none (the file's)."""
    games = r.store.games
    known = await games.get(gid)
    await games.save(gid, kind, known.spec if known else {}, state)


@router.get("")
async def games(me: Staff, request: Request) -> dict[str, Any]:
    """Every cash table and Rush pool with its state (playing, paused, suspended with its ``reason``,
    closing, store_paused) and what the console changed."""
    r = room(request)
    stored = {g.id: {"state": g.state, "opened_here": bool(g.spec)} for g in await r.store.games.all()}
    rows = [_row(r, t, "table") for t in sorted(r.tables)] + [_row(r, p, "pool") for p in sorted(r.pools)]
    for row in rows:
        row["console"] = stored.get(row["id"])
    return {"games": rows, "closed": [gid for gid, g in stored.items() if g["state"] == "closed"]}


@router.post("", status_code=201)
async def open_game(body: OpenIn, me: Admin, request: Request) -> dict[str, Any]:
    """Open a table (``kind`` "table") or Rush pool ("pool") from the keys of a ``[[table]]`` or
    ``[[pool]]`` of the configuration file, checked as the file is (``422 bad_config`` lists each
    problem by its key). The room's own bots do not sit at it."""
    r = room(request)
    try:
        cfg = game_from_fields(body.kind, body.fields)
    except ConfigInvalid as exc:
        problems = [f"{p.path}: {p.message}" for p in exc.problems]
        raise fail(422, "bad_config", "; ".join(problems), problems=problems) from None
    gid = cfg.table_id if isinstance(cfg, TableConfig) else cfg.pool_id
    try:
        await r.open_game(cfg)
    except ValueError as exc:
        raise fail(409, "game_exists", str(exc), table=gid) from None
    await r.store.games.save(gid, body.kind, body.fields, "open")
    await audited(request, me, f"{body.kind}.open", gid, before=None, after=body.fields)
    return _row(r, gid, body.kind)


@router.get("/{gid}")
async def watch(gid: str, me: Staff, request: Request) -> dict[str, Any]:
    """A table as an observer sees it (seats, stacks, the public cards: never a hole card), or a pool's
    summary."""
    r = room(request)
    kind = _kind(r, gid)
    if kind == "pool":
        return {**_row(r, gid, kind), "view": None}
    actor = r.tables[gid]
    return {**_row(r, gid, kind), "view": table_view(actor.table, None, r.clock.now())}


async def _pause(request: Request, me: Any, gid: str, held: bool) -> dict[str, Any]:
    r = room(request)
    if _kind(r, gid) != "table":
        raise fail(409, "not_a_table", "only a cash table pauses (close a pool instead)", table=gid)
    before = _state(r, gid)
    try:
        await r.hold_table(gid, held)
    except Refused as exc:
        raise fail(404, exc.code, exc.message, table=gid) from None
    await _keep(request, r, gid, "table", "paused" if held else "open")
    after = _state(r, gid)
    await audited(
        request,
        me,
        f"table.{'pause' if held else 'resume'}",
        gid,
        before={"state": before},
        after={"state": after},
    )
    return _row(r, gid, "table")


@router.post("/{gid}/pause")
async def pause(gid: str, me: Admin, request: Request) -> dict[str, Any]:
    """Pause a cash table after its hand in progress: the players keep their seats and chips."""
    return await _pause(request, me, gid, True)


@router.post("/{gid}/resume")
async def resume(gid: str, me: Admin, request: Request) -> dict[str, Any]:
    """Let a paused table deal again, or a table or pool that repeated errors suspended (the reason is
    in the audit log)."""
    r = room(request)
    kind = _kind(r, gid)
    actor: Any = r.tables.get(gid) or r.pools.get(gid)
    if actor.suspended is None:
        return await _pause(request, me, gid, False)
    before = {"state": _state(r, gid), "reason": actor.suspended}
    await r.resume_actor(gid)
    await audited(request, me, f"{kind}.resume", gid, before=before, after={"state": _state(r, gid)})
    if kind == "table" and gid in r.held:  # (paused by the operator too: that pause ends as well)
        return await _pause(request, me, gid, False)
    return _row(r, gid, kind)


@router.post("/{gid}/close")
async def close(gid: str, me: Admin, request: Request) -> dict[str, Any]:
    """Close a table or pool after its hand in progress, every player cashed out (his stack back to his
    wallet). It stays closed across restarts and reloads until the console opens it again."""
    r = room(request)
    kind = _kind(r, gid)
    before = _state(r, gid)
    await r.close_game(gid)
    await _keep(request, r, gid, kind, "closed")
    await audited(request, me, f"{kind}.close", gid, before={"state": before}, after={"state": "closed"})
    return {"id": gid, "kind": kind, "state": _state(r, gid)}


@router.post("/{gid}/message")
async def message(gid: str, body: MessageIn, me: Admin, request: Request) -> dict[str, Any]:
    """A message to everyone at a cash table and watching it (its chat, from the dealer: "Operator: ...")."""
    r = room(request)
    if _kind(r, gid) != "table":
        raise fail(409, "not_a_table", "messages go to cash tables", table=gid)
    await r.message_table(gid, body.text)
    await audited(request, me, "table.message", gid, after={"text": body.text})
    return {"ok": True}
