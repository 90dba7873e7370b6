"""Accounts players manage (issue 29, item 4), the store's side: a password change that ends the other
sessions, an e-mail address verified by a link, reset codes sent to it (random, hashed at rest, short-lived,
single-use, voided by wrong guesses, limited per account), the operator's forced-reset code taking the same
road in, its login answer, and a pending reset never shown as a bot. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from pokerroom.store import (
    AccountLocked,
    BadCredentials,
    Store,
    UnknownToken,
    WeakPassword,
)
from pokerroom.store.account_mail import CODE_ALPHABET, CODE_LENGTH, check_email, normalize_code
from pokerroom.store.errors import InvalidEmail, InvalidLink, PasswordResetRequired, WrongPassword
from pokerroom.store.models import AccountEmailRow, PasswordCodeRow

from .storehelpers import PASSWORD, FakeClock

NEW = "a-fresh-long-pass-phrase-77"


async def verified(store: Store, name: str, address: str) -> int:
    """Register ``name`` with ``address`` verified; its id."""
    p = await store.accounts.register(name, PASSWORD)
    mail = await store.account_mail.set_email(p.id, PASSWORD, address)
    assert mail is not None
    await store.account_mail.verify_email(mail.token)
    return p.id


@pytest.mark.asyncio
async def test_change_password_ends_the_other_sessions_and_keeps_this_one(store: Store) -> None:
    p = await store.accounts.register("alice", PASSWORD)
    here = await store.accounts.login("alice", PASSWORD)
    there = await store.accounts.login("alice", PASSWORD)
    with pytest.raises(WrongPassword):
        await store.accounts.change_password(p.id, "not-the-password-at-all", NEW, keep_token=here.token)
    with pytest.raises(WeakPassword):
        await store.accounts.change_password(p.id, PASSWORD, "short", keep_token=here.token)
    await store.accounts.authenticate(there.token)  # nothing changed so far
    ended = await store.accounts.change_password(p.id, PASSWORD, NEW, keep_token=here.token)
    assert ended == 1
    assert (await store.accounts.authenticate(here.token)).id == p.id
    with pytest.raises(UnknownToken):
        await store.accounts.authenticate(there.token)
    with pytest.raises(BadCredentials):
        await store.accounts.login("alice", PASSWORD)
    await store.accounts.login("alice", NEW)


@pytest.mark.asyncio
async def test_wrong_current_passwords_lock_like_failed_logins(store: Store) -> None:
    p = await store.accounts.register("alice", PASSWORD)
    for _ in range(store.accounts.lock_policy.max_failures):
        with pytest.raises(WrongPassword):
            await store.accounts.check_password(p.id, "guess-guess-guess")
    with pytest.raises(AccountLocked):
        await store.accounts.check_password(p.id, PASSWORD)


@pytest.mark.asyncio
async def test_an_address_is_used_for_resets_only_once_verified(store: Store, clock: FakeClock) -> None:
    p = await store.accounts.register("alice", PASSWORD)
    with pytest.raises(WrongPassword):
        await store.account_mail.set_email(p.id, "wrong-password-here", "alice@example.com")
    for bad in (
        "alice",
        "a@b",
        "a b@example.com",
        "alice@example.com\r\nBcc: x@y.z",
        "x" * 250 + "@e.com",
        5,
    ):
        with pytest.raises(InvalidEmail):
            await store.account_mail.set_email(p.id, PASSWORD, bad)  # type: ignore[arg-type]
    assert await store.account_mail.email(p.id) is None
    mail = await store.account_mail.set_email(p.id, PASSWORD, " Alice@Example.com ")
    assert mail is not None and mail.address == "Alice@Example.com" and mail.player == "alice"
    assert (await store.account_mail.email(p.id)).to_dict() == {  # type: ignore[union-attr]
        "address": "Alice@Example.com",
        "verified": False,
    }
    assert await store.account_mail.request_reset("alice") == []  # unverified: no code
    assert await store.account_mail.request_reset("alice@example.com") == []
    async with store.db.read() as conn:  # the link's token is kept as its hash only
        kept = (await conn.execute(select(AccountEmailRow.verify_hash))).scalar_one()
    assert kept is not None and mail.token not in kept
    with pytest.raises(InvalidLink):
        await store.account_mail.verify_email(mail.token + "x")
    assert (await store.account_mail.verify_email(mail.token)).id == p.id
    assert (await store.account_mail.email(p.id)).verified  # type: ignore[union-attr]
    with pytest.raises(InvalidLink):  # used once
        await store.account_mail.verify_email(mail.token)
    assert await store.account_mail.set_email(p.id, PASSWORD, "Alice@Example.com") is None  # nothing new
    assert [m.player for m in await store.account_mail.request_reset("ALICE@example.COM")] == ["alice"]
    # a new address is unverified again, and its link expires
    late = await store.account_mail.set_email(p.id, PASSWORD, "alice@elsewhere.org")
    assert late is not None and not (await store.account_mail.email(p.id)).verified  # type: ignore[union-attr]
    clock.advance(store.account_mail.link_valid)
    with pytest.raises(InvalidLink):
        await store.account_mail.verify_email(late.token)
    await store.account_mail.set_email(p.id, PASSWORD, "")
    assert await store.account_mail.email(p.id) is None


@pytest.mark.asyncio
async def test_a_mailed_code_resets_once_and_every_session_ends(store: Store) -> None:
    pid = await verified(store, "alice", "alice@example.com")
    session = await store.accounts.login("alice", PASSWORD)
    [mail] = await store.account_mail.request_reset("alice")
    assert mail.address == "alice@example.com" and len(mail.code) == CODE_LENGTH
    assert set(mail.code) <= set(CODE_ALPHABET)
    async with store.db.read() as conn:  # hashed at rest
        stored = (await conn.execute(select(PasswordCodeRow.code_hash))).scalar_one()
    assert mail.code not in stored and mail.code.lower() not in stored
    with pytest.raises(WeakPassword):  # a weak password does not use the code up
        await store.account_mail.reset_password("alice", mail.code, "short")
    typed = f"{mail.code[:5].lower()} - {mail.code[5:]}"  # as a person may type it
    assert (await store.account_mail.reset_password("ALICE", typed, NEW)).id == pid
    with pytest.raises(UnknownToken):
        await store.accounts.authenticate(session.token)
    await store.accounts.login("alice", NEW)
    with pytest.raises(BadCredentials):  # single use
        await store.account_mail.reset_password("alice", mail.code, NEW + "-again")


@pytest.mark.asyncio
async def test_a_code_expires_on_the_clock(store: Store, clock: FakeClock) -> None:
    await verified(store, "alice", "alice@example.com")
    [mail] = await store.account_mail.request_reset("alice")
    clock.advance(store.account_mail.code_valid)
    with pytest.raises(BadCredentials):
        await store.account_mail.reset_password("alice", mail.code, NEW)
    await store.accounts.login("alice", PASSWORD)  # unchanged


@pytest.mark.asyncio
async def test_wrong_guesses_void_the_codes_of_an_account(store: Store) -> None:
    await verified(store, "alice", "alice@example.com")
    [mail] = await store.account_mail.request_reset("alice")
    wrong = "".join("2" if c != "2" else "3" for c in mail.code)
    for guess in [wrong] * store.account_mail.max_failures:
        with pytest.raises(BadCredentials):
            await store.account_mail.reset_password("alice", guess, NEW)
    with pytest.raises(BadCredentials):  # the right code no longer works
        await store.account_mail.reset_password("alice", mail.code, NEW)
    with pytest.raises(BadCredentials):  # nor on another account's name
        await store.account_mail.reset_password("nobody", mail.code, NEW)


@pytest.mark.asyncio
async def test_codes_are_limited_per_account_and_hour(store: Store, clock: FakeClock) -> None:
    await verified(store, "alice", "alice@example.com")
    per_hour = store.account_mail.codes_per_hour
    got = [await store.account_mail.request_reset("alice") for _ in range(per_hour + 2)]
    assert [len(g) for g in got] == [1] * per_hour + [0, 0]
    assert len({g[0].code for g in got[:per_hour]}) == per_hour  # random, not repeated
    clock.advance(timedelta(hours=1, seconds=1))
    assert len(await store.account_mail.request_reset("alice@example.com")) == 1


@pytest.mark.asyncio
async def test_unknown_names_addresses_and_bots_get_nothing(store: Store) -> None:
    await verified(store, "alice", "alice@example.com")
    await store.accounts.service_account("bot-t1-1")
    for who in ("nobody", "nobody@example.com", "bot-t1-1", "", "x" * 300, "<script>"):
        assert await store.account_mail.request_reset(who) == []


@pytest.mark.asyncio
async def test_the_forced_reset_code_works_through_the_same_reset(store: Store) -> None:
    p = await store.accounts.register("alice", PASSWORD)
    code = await store.operator.force_reset(p.id)
    with pytest.raises(PasswordResetRequired):  # the login says so, whatever the password
        await store.accounts.login("alice", PASSWORD)
    with pytest.raises(PasswordResetRequired):
        await store.accounts.login("alice", "anything-at-all-here")
    assert (await store.account_mail.reset_password("alice", code, NEW)).id == p.id
    assert not (await store.operator.detail(p.id)).reset_pending
    await store.accounts.login("alice", NEW)


@pytest.mark.asyncio
async def test_a_pending_reset_is_not_a_bot(store: Store) -> None:
    """It was: the console called an account with no password hash a bot, and a forced reset leaves a
    player's account with none."""
    p = await store.accounts.register("alice", PASSWORD)
    bot = await store.accounts.service_account("bot-t1-1")
    await store.operator.force_reset(p.id)
    detail = await store.operator.detail(p.id)
    assert detail.reset_pending and not detail.bot and detail.to_dict()["bot"] is False
    assert (await store.operator.detail(bot.id)).bot
    found = {d.player.name: d.bot for d in await store.operator.search("")}
    assert found == {"alice": False, "bot-t1-1": True}


def test_address_and_code_forms() -> None:
    assert check_email("  a.b+c@mail.example.org ") == "a.b+c@mail.example.org"
    assert normalize_code("abcde-fghjk") == "ABCDEFGHJK"
    assert normalize_code("ABCDE FGHJ1") is None  # 1 is not in the alphabet
    assert normalize_code("ABCD") is None and normalize_code(None) is None


@pytest.mark.asyncio
async def test_a_mailed_code_also_ends_a_pending_forced_reset(store: Store) -> None:
    pid = await verified(store, "alice", "alice@example.com")
    await store.operator.force_reset(pid)
    [mail] = await store.account_mail.request_reset("alice")
    await store.account_mail.reset_password("alice", mail.code, NEW)
    assert not (await store.operator.detail(pid)).reset_pending
    await store.accounts.login("alice", NEW)  # no longer "reset required"
