"""Operator API keys in the store (issue 29, item 3; docs/operator-api.md): made with a secret shown once,
kept as a hash only, scoped, revocable at once; one-time sign-on tokens. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from pokerroom.store import InvalidName, Store
from pokerroom.store.api_keys import (
    SCOPES,
    ApiKeyNameTaken,
    ApiKeyRevoked,
    BadApiKey,
    InvalidScope,
    SsoLinkInvalid,
    UnknownApiKey,
)
from pokerroom.store.models import ApiKeyRow, SsoTokenRow
from pokerroom.store.util import hash_token

from .storehelpers import PASSWORD, FakeClock

pytestmark = pytest.mark.asyncio


async def test_a_key_is_shown_once_and_kept_as_a_hash_only(store: Store) -> None:
    made = await store.api_keys.create("club site", ["balances", "accounts"], created_by="boss")
    assert made.secret.startswith(f"prk_{made.key.prefix}_")
    assert len(made.secret) > 50  # 256 random bits after the prefix
    assert made.key.scopes == ("accounts", "balances")  # in the order of SCOPES
    async with store.db.read() as conn:
        rows = (await conn.execute(select(ApiKeyRow))).all()
    assert len(rows) == 1
    stored = {c.name: getattr(rows[0], c.name) for c in ApiKeyRow.__table__.columns}
    assert all(made.secret not in str(v) for v in stored.values())
    secret_part = made.secret.split("_", 2)[2]
    assert all(secret_part not in str(v) for v in stored.values())
    assert rows[0].secret_hash == hash_token(made.secret)
    listed = await store.api_keys.keys()
    assert [k.to_dict() for k in listed] == [made.key.to_dict()]
    assert "secret" not in listed[0].to_dict() and made.secret not in str(listed[0].to_dict())


async def test_two_keys_get_different_secrets_and_prefixes(store: Store) -> None:
    a = await store.api_keys.create("site-a", SCOPES, created_by="boss")
    b = await store.api_keys.create("site-b", SCOPES, created_by="boss")
    assert a.secret != b.secret and a.key.prefix != b.key.prefix


async def test_authenticate_finds_the_key_and_refuses_anything_else(store: Store, clock: FakeClock) -> None:
    made = await store.api_keys.create("club", ["sso"], created_by="boss", created_by_id=7)
    key = await store.api_keys.authenticate(made.secret)
    assert (key.id, key.name, key.scopes, key.created_by_id) == (made.key.id, "club", ("sso",), 7)
    assert key.last_used_at == clock.now
    wrong = made.secret[:-2] + ("AA" if not made.secret.endswith("AA") else "BB")
    for bad in (wrong, "", "prk_", "prk_zzzzzzzz_abc", f"prk_{made.key.prefix}", "Bearer x", "x" * 500):
        with pytest.raises(BadApiKey):
            await store.api_keys.authenticate(bad)


async def test_last_used_is_written_at_most_once_a_minute(store: Store, clock: FakeClock) -> None:
    made = await store.api_keys.create("club", ["sso"], created_by="boss")
    first = clock.now
    await store.api_keys.authenticate(made.secret)
    clock.advance(timedelta(seconds=30))
    assert (await store.api_keys.authenticate(made.secret)).last_used_at == first
    clock.advance(timedelta(seconds=31))
    await store.api_keys.authenticate(made.secret)
    assert (await store.api_keys.get(made.key.id)).last_used_at == clock.now


async def test_a_revoked_key_is_refused_at_once(store: Store, clock: FakeClock) -> None:
    made = await store.api_keys.create("club", ["accounts"], created_by="boss")
    await store.api_keys.authenticate(made.secret)
    revoked = await store.api_keys.revoke(made.key.id, by="boss")
    assert revoked.revoked and revoked.revoked_by == "boss" and revoked.revoked_at == clock.now
    with pytest.raises(ApiKeyRevoked) as caught:
        await store.api_keys.authenticate(made.secret)
    assert caught.value.key.name == "club" and caught.value.code == "api_key_revoked"
    clock.advance(timedelta(minutes=5))
    again = await store.api_keys.revoke(made.key.id, by="other")  # changes nothing
    assert (again.revoked_at, again.revoked_by) == (revoked.revoked_at, "boss")
    with pytest.raises(UnknownApiKey):
        await store.api_keys.revoke(999, by="boss")


@pytest.mark.parametrize(
    "scopes", [[], ["admin"], ["accounts", "everything"], ["ACCOUNTS"], [1], [None], [True]]
)
async def test_scopes_must_exist(store: Store, scopes: list[object]) -> None:
    with pytest.raises(InvalidScope):
        await store.api_keys.create("club", scopes, created_by="boss")
    assert await store.api_keys.keys() == []


@pytest.mark.parametrize("name", ["", "x", " club", "club ", "a" * 33, "<script>", "club\n", 5, None])
async def test_names_are_checked(store: Store, name: object) -> None:
    with pytest.raises(InvalidName):
        await store.api_keys.create(name, ["sso"], created_by="boss")  # type: ignore[arg-type]


async def test_names_are_unique_whatever_the_case_revoked_keys_included(store: Store) -> None:
    made = await store.api_keys.create("Club", ["sso"], created_by="boss")
    await store.api_keys.revoke(made.key.id, by="boss")
    with pytest.raises(ApiKeyNameTaken):
        await store.api_keys.create("club", ["sso"], created_by="boss")
    assert len(await store.api_keys.keys()) == 1


async def test_a_sign_on_token_works_once(store: Store) -> None:
    p = await store.accounts.register("alice", PASSWORD)
    made = await store.api_keys.create("club", ["sso"], created_by="boss")
    token, expires = await store.api_keys.issue_sso(p.id, made.key.id, seconds=60)
    assert expires == store.clock() + timedelta(seconds=60)
    async with store.db.read() as conn:
        hashes = (await conn.execute(select(SsoTokenRow.token_hash))).scalars().all()
    assert hashes == [hash_token(token)]  # the token itself is not kept
    assert await store.api_keys.redeem_sso(token) == p.id
    with pytest.raises(SsoLinkInvalid):
        await store.api_keys.redeem_sso(token)
    for bad in ("", "short", "x" * 43, token + "x"):
        with pytest.raises(SsoLinkInvalid):
            await store.api_keys.redeem_sso(bad)


async def test_a_sign_on_token_expires(store: Store, clock: FakeClock) -> None:
    p = await store.accounts.register("alice", PASSWORD)
    made = await store.api_keys.create("club", ["sso"], created_by="boss")
    token, _ = await store.api_keys.issue_sso(p.id, made.key.id, seconds=60)
    late, _ = await store.api_keys.issue_sso(p.id, made.key.id, seconds=60)
    clock.advance(timedelta(seconds=59))
    assert await store.api_keys.redeem_sso(token) == p.id
    clock.advance(timedelta(seconds=1))
    with pytest.raises(SsoLinkInvalid):
        await store.api_keys.redeem_sso(late)
    clock.advance(timedelta(days=2))
    await store.api_keys.issue_sso(p.id, made.key.id, seconds=60)  # old tokens are cleared away
    async with store.db.read() as conn:
        assert len((await conn.execute(select(SsoTokenRow.token_hash))).all()) == 1
