"""A player's reads on other players and his table preferences over HTTP (issue 31; docs/protocol.md,
"Reads and preferences"). Every endpoint but the public ``/api/avatars`` is the logged-in player's own:
there is no way to name another owner, so nobody reads or changes anybody else's notes or settings. The
store checks every value (store/reads.py): a bad one is a typed ``400`` and changes nothing."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request

from pokerroom.server.http import Me, body_schema, read_body
from pokerroom.store import Store
from pokerroom.store.reads import AVATARS, CARD_BACKS, NOTE_MAX, NOTES_MAX, TAG_COLORS, TAG_NAME_MAX, THEMES

__all__ = ["router"]

router = APIRouter(tags=["reads"])

_NOTE_BODY = body_schema(dict[str, Any])


def _store(request: Request) -> Store:
    store: Store = request.app.state.front.store
    return store


@router.get("/api/notes")
async def my_notes(me: Me, request: Request) -> dict[str, Any]:
    """The player's reads: ``notes`` (``player``, ``name``, ``text``, ``tag``, ``updated_at``), the
    palette (``colors``), his names for its colours (``tag_names``) and the limits."""
    reads = _store(request).reads
    notes = await reads.notes(me.id)
    prefs = await reads.prefs(me.id)
    return {
        "notes": [n.to_dict() for n in notes],
        "colors": list(TAG_COLORS),
        "tag_names": prefs["tag_names"],
        "limits": {"note": NOTE_MAX, "notes": NOTES_MAX, "tag_name": TAG_NAME_MAX},
    }


@router.put("/api/notes/players/{name}", openapi_extra=_NOTE_BODY)
async def set_note(name: str, me: Me, request: Request) -> dict[str, Any]:
    """Keep a note (``text``, at most 2,000 characters) and a tag (``tag``: a colour of the palette or
    null) on player ``name``; an empty note with no tag forgets him (``{"note": null}``)."""
    body = await read_body(request, dict[str, Any])
    note = await _store(request).reads.set_note(me.id, name, body.get("text", ""), body.get("tag"))
    return {"note": None if note is None else note.to_dict()}


@router.delete("/api/notes/players/{name}")
async def remove_note(name: str, me: Me, request: Request) -> dict[str, Any]:
    """Forget the read on ``name``; ``removed`` is false when there was none."""
    return {"removed": await _store(request).reads.remove_note(me.id, name)}


@router.put("/api/notes/tags", openapi_extra=_NOTE_BODY)
async def name_tags(me: Me, request: Request) -> dict[str, Any]:
    """Name tag colours: ``{"red": "maniac", ...}`` (at most 24 characters; "" gives back the default)."""
    body = await read_body(request, dict[str, Any])
    prefs = await _store(request).reads.set_prefs(me.id, {"tag_names": body})
    return {"tag_names": prefs["tag_names"]}


@router.get("/api/prefs")
async def my_prefs(me: Me, request: Request) -> dict[str, Any]:
    """The player's preferences (the defaults for what he never set): ``tag_names``, ``presets``,
    ``avatar``, ``theme``, ``card_back``, and the choices the room offers (``choices``)."""
    prefs = await _store(request).reads.prefs(me.id)
    return {
        **prefs,
        "choices": {"avatar": list(AVATARS), "theme": list(THEMES), "card_back": list(CARD_BACKS)},
    }


@router.patch("/api/prefs", openapi_extra=_NOTE_BODY)
async def change_prefs(me: Me, request: Request) -> dict[str, Any]:
    """Change some preferences (``presets``: ``preflop`` in big blinds, ``postflop`` in per cent of the
    pot, 1-4 each), ``avatar`` (one of the room's, or null), ``theme``, ``card_back``; the others stay.
    Answers the whole set."""
    body = await read_body(request, dict[str, Any])
    return await _store(request).reads.set_prefs(me.id, body)


@router.get("/api/avatars")
async def avatars(
    request: Request, name: Annotated[list[str], Query(description="player names (20 at most)")]
) -> dict[str, str]:
    """The avatars of these players (public, as every table shows them): name -> avatar, for those who
    chose one. At most 20 names."""
    if len(name) > 20:
        raise HTTPException(400, detail={"code": "invalid_field", "message": "at most 20 names"})
    return await _store(request).reads.avatars([n for n in name if isinstance(n, str) and len(n) <= 40])
