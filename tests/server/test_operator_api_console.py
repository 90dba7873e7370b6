"""The console's Operator API page (issue 29, item 3): administrators make keys (the secret shown once,
kept as a hash), list and revoke them; support and players may not; each change is audited without the
secret, and a revoked key is refused at its next call."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from pokerroom.store.models import ApiKeyRow

from .console.conftest import Console, console  # noqa: F401  (the fixture)

pytestmark = pytest.mark.asyncio
KEYS = "/api/console/api-keys"


async def test_only_administrators_manage_keys(console: Console) -> None:  # noqa: F811
    body = {"name": "club site", "scopes": ["accounts"]}
    assert (await console.http.get(KEYS, headers=console.support)).json()["keys"] == []  # support reads
    for who, status in ((None, 401), (console.player, 403), (console.support, 403)):
        if who is not console.support:
            assert (await console.http.get(KEYS, headers=who)).status_code == status
        assert (await console.http.post(KEYS, json=body, headers=who)).status_code == status
        assert (await console.http.post(f"{KEYS}/1/revoke", headers=who)).status_code == status
    assert await console.store.api_keys.keys() == []


async def test_a_key_is_made_shown_once_listed_and_revoked(console: Console) -> None:  # noqa: F811
    r = await console.http.post(
        KEYS, json={"name": "club site", "scopes": ["sso", "balances"]}, headers=console.admin
    )
    assert r.status_code == 201, r.text
    made = r.json()
    secret, key = made["secret"], made["key"]
    assert secret.startswith(f"prk_{key['prefix']}_") and key["scopes"] == ["balances", "sso"]
    assert key["created_by"] == "boss" and key["revoked_at"] is None
    listed = (await console.http.get(KEYS, headers=console.admin)).json()
    assert listed["keys"] == [key] and secret not in str(listed)
    async with console.store.db.read() as conn:
        rows = [dict(r._mapping) for r in (await conn.execute(select(ApiKeyRow))).all()]
    assert len(rows) == 1 and secret not in str(rows) and secret.split("_", 2)[2] not in str(rows)
    url = f"/api/v1/accounts/{console.player_id}/balances"
    assert (await console.http.get(url, headers={"Authorization": f"Bearer {secret}"})).status_code == 200
    r = await console.http.post(f"{KEYS}/{key['id']}/revoke", headers=console.admin)
    assert r.status_code == 200 and r.json()["key"]["revoked_by"] == "boss"
    r = await console.http.get(url, headers={"Authorization": f"Bearer {secret}"})
    assert (r.status_code, r.json()["code"]) == (401, "api_key_revoked")
    entries = [e.to_dict() for e in await console.store.audit.entries(action="apikey.")]
    assert [(e["action"], e["target"], e["actor"]["name"]) for e in entries] == [
        ("apikey.revoke", "club site", "boss"),
        ("apikey.create", "club site", "boss"),
    ]
    assert secret not in str(entries) and entries[1]["after"]["prefix"] == key["prefix"]
    r = await console.http.post(f"{KEYS}/{key['id']}/revoke", headers=console.admin)  # again: no new entry
    assert r.status_code == 200 and len(await console.store.audit.entries(action="apikey.")) == 2
    r = await console.http.post(f"{KEYS}/999/revoke", headers=console.admin)
    assert (r.status_code, r.json()["detail"]["code"]) == (404, "unknown_api_key")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": "club", "scopes": []}, None),
        ({"name": "club", "scopes": ["admin"]}, "invalid_scope"),
        ({"name": "x", "scopes": ["sso"]}, "invalid_name"),
        ({"name": "club", "scopes": "sso"}, None),
        ({"name": "club"}, None),
    ],
)
async def test_bad_keys_are_refused(console: Console, body: dict[str, object], code: str | None) -> None:  # noqa: F811
    r = await console.http.post(KEYS, json=body, headers=console.admin)
    assert 400 <= r.status_code < 500
    if code is not None:
        assert r.json()["code"] == code
    assert await console.store.api_keys.keys() == []


async def test_a_name_is_used_once(console: Console) -> None:  # noqa: F811
    assert (
        await console.http.post(KEYS, json={"name": "club", "scopes": ["sso"]}, headers=console.admin)
    ).status_code == 201
    r = await console.http.post(KEYS, json={"name": "CLUB", "scopes": ["sso"]}, headers=console.admin)
    assert (r.status_code, r.json()["detail"]["code"]) == (409, "api_key_name_taken")
