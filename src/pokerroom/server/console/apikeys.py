"""The console's Operator API page (issue 29; docs/operator-api.md): administrators make scoped keys for
the club's website (the secret shown once) and revoke them; support reads the list. Each change is
audited, never with the secret."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from pokerroom.server.console.access import Admin, Staff, audited, fail, store
from pokerroom.store.api_keys import SCOPES, ApiKeyNameTaken, UnknownApiKey

__all__ = ["router"]

router = APIRouter(prefix="/api/console/api-keys", tags=["console"])


class KeyIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    name: Annotated[str, Field(min_length=1, max_length=40)]
    scopes: Annotated[list[str], Field(min_length=1, max_length=len(SCOPES))]


@router.get("")
async def keys(me: Staff, request: Request) -> dict[str, Any]:
    """Every key (revoked ones too; support reads them as every page), newest first: name, prefix,
    scopes, who made it and when, when it was last used (to the minute), its revocation. Never a secret:
    the room does not have them."""
    return {"keys": [k.to_dict() for k in await store(request).api_keys.keys()], "scopes": list(SCOPES)}


@router.post("", status_code=201)
async def create(body: KeyIn, me: Admin, request: Request) -> dict[str, Any]:
    """Make a key: ``secret`` in the answer is the whole key, shown this once (the room keeps its hash
    only). ``invalid_name``, ``invalid_scope``, ``api_key_name_taken`` (409)."""
    keys = store(request).api_keys
    try:
        made = await keys.create(body.name, body.scopes, created_by=me.name, created_by_id=me.id)
    except ApiKeyNameTaken as exc:
        raise fail(409, exc.code, str(exc)) from None
    key = made.key.to_dict()
    await audited(
        request, me, "apikey.create", made.key.name,
        after={"prefix": made.key.prefix, "scopes": key["scopes"]},
    )  # fmt: skip
    return {"key": key, "secret": made.secret}


@router.post("/{key_id}/revoke")
async def revoke(key_id: int, me: Admin, request: Request) -> dict[str, Any]:
    """Revoke a key: its next call is refused (``401 api_key_revoked``), in every process of the room."""
    s = store(request)
    try:
        before = await s.api_keys.get(key_id)
    except UnknownApiKey:
        raise fail(404, "unknown_api_key", "no such API key", key=str(key_id)) from None
    after = await s.api_keys.revoke(key_id, by=me.name)
    if not before.revoked:
        await audited(
            request, me, "apikey.revoke", after.name,
            before={"revoked_at": None}, after={"revoked_at": after.to_dict()["revoked_at"]},
        )  # fmt: skip
    return {"key": after.to_dict()}
