"""The console's Tables and pools page: open a cash table or Rush pool from the fields of the
configuration file, pause and resume a table, close one after its hand (players cashed out), send a
message to a table, watch one as an observer (no hole cards). What the console changes is stored
(``store.games``) and wins over the configuration file at a restart or a reload (docs/console.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from pokerroom.server.commands import CloseGame, HoldTable, MessageTable, OpenGame, ResumeActor
from pokerroom.server.console.access import Admin, Staff, command, fail, front
from pokerroom.server.errors import Refused

__all__ = ["router"]

router = APIRouter(prefix="/api/console/tables", tags=["console"])


class OpenIn(BaseModel):
    kind: Literal["table", "pool"] = "table"
    fields: dict[str, Any] = Field(
        description="the keys of a [[table]] or [[pool]] of the configuration file"
    )


class MessageIn(BaseModel):
    text: Annotated[str, Field(min_length=1, max_length=200)]


async def _row(request: Request, gid: str) -> dict[str, Any]:
    """The table's or pool's row (its kind, state, reason and summary), wherever it runs."""
    row = next((g for g in await front(request).console_games() if g["id"] == gid), None)
    if row is None:
        raise fail(404, "unknown_table", "no such table or pool", table=gid)
    return row


@router.get("")
async def games(me: Staff, request: Request) -> dict[str, Any]:
    """Every cash table and Rush pool with its state (playing, paused, suspended with its ``reason``,
    closing, store_paused) and what the console changed."""
    f = front(request)
    stored = {g.id: {"state": g.state, "opened_here": bool(g.spec)} for g in await f.store.games.all()}
    rows = await f.console_games()
    for row in rows:
        row["console"] = stored.get(row["id"])
    return {"games": rows, "closed": [gid for gid, g in stored.items() if g["state"] == "closed"]}


@router.post("", status_code=201)
async def open_game(body: OpenIn, me: Admin, request: Request) -> dict[str, Any]:
    """Open a table (``kind`` "table") or Rush pool ("pool") from the keys of a ``[[table]]`` or
    ``[[pool]]`` of the configuration file, checked as the file is (``422 bad_config`` lists each
    problem by its key). The room's own bots do not sit at it."""
    return await command(request, me, OpenGame(body.kind, body.fields))


@router.get("/{gid}")
async def watch(gid: str, me: Staff, request: Request) -> dict[str, Any]:
    """A table as an observer sees it (seats, stacks, the public cards: never a hole card), or a pool's
    summary."""
    row = await _row(request, gid)
    if row["kind"] == "pool":
        return {**row, "view": None}
    try:
        details = await front(request).table_details(gid)
    except Refused as exc:
        raise fail(404 if exc.code == "unknown_table" else 503, exc.code, exc.message, table=gid) from None
    return {**row, "view": details["state"]}


@router.post("/{gid}/pause")
async def pause(gid: str, me: Admin, request: Request) -> dict[str, Any]:
    """Pause a cash table after its hand in progress: the players keep their seats and chips."""
    return await command(request, me, HoldTable(gid, True))


@router.post("/{gid}/resume")
async def resume(gid: str, me: Admin, request: Request) -> dict[str, Any]:
    """Let a paused table deal again, or a table or pool that repeated errors suspended (the reason is
    in the audit log)."""
    kind = (await _row(request, gid))["kind"]
    return await command(request, me, ResumeActor(kind, gid))


@router.post("/{gid}/close")
async def close(gid: str, me: Admin, request: Request) -> dict[str, Any]:
    """Close a table or pool after its hand in progress, every player cashed out (his stack back to his
    wallet). It stays closed across restarts and reloads until the console opens it again."""
    kind = (await _row(request, gid))["kind"]
    return await command(request, me, CloseGame(kind, gid))


@router.post("/{gid}/message")
async def message(gid: str, body: MessageIn, me: Admin, request: Request) -> dict[str, Any]:
    """A message to everyone at a cash table and watching it (its chat, from the dealer: "Operator: ...")."""
    return await command(request, me, MessageTable(gid, body.text))
