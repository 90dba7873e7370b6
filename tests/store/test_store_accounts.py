"""Accounts: registration, argon2 login, lock-out with timed unlock that a known device passes, expiring
hashed tokens, roles."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from sqlalchemy import select, text

from pokerroom.store import (
    AccountLocked,
    Accounts,
    BadCredentials,
    InvalidName,
    LockPolicy,
    NameTaken,
    Role,
    Store,
    StoreError,
    TokenExpired,
    UnknownPlayer,
    UnknownToken,
    WeakPassword,
    errors,
)
from pokerroom.store.models import AuthSessionRow, PlayerRow

from .storehelpers import CHEAP_HASHER, PASSWORD, FakeClock

pytestmark = pytest.mark.asyncio


async def test_every_error_has_its_own_stable_code() -> None:
    classes = [c for c in vars(errors).values() if isinstance(c, type) and issubclass(c, StoreError)]
    codes = [c.code for c in classes if c is not StoreError]
    assert len(codes) == len(set(codes)) >= 20
    assert all(code and code.islower() and " " not in code for code in codes)


async def test_register_and_find_case_insensitively(store: Store) -> None:
    p = await store.accounts.register("Alice_1", PASSWORD)
    assert p.name == "Alice_1" and p.role is Role.PLAYER and not p.is_admin
    assert (await store.accounts.find("aLICE_1")).id == p.id
    assert (await store.accounts.get(p.id)).name == "Alice_1"


@pytest.mark.parametrize("taken", ["alice", "ALICE", "Alice"])
async def test_a_taken_name_is_refused_whatever_its_case(store: Store, taken: str) -> None:
    await store.accounts.register("alice", PASSWORD)
    with pytest.raises(NameTaken) as err:
        await store.accounts.register(taken, "another-long-passphrase")
    assert err.value.code == "name_taken"
    assert await store.accounts.count() == 1


@pytest.mark.parametrize("name", ["ab", "a" * 21, "al ice", "alice!", "élise", "", "a.b.c"])
async def test_bad_names_are_refused(store: Store, name: str) -> None:
    with pytest.raises(InvalidName) as err:
        await store.accounts.register(name, PASSWORD)
    assert err.value.code == "invalid_name"
    assert await store.accounts.count() == 0


@pytest.mark.parametrize("name", ["abc", "a" * 20, "A-b_9", "123"])
async def test_names_of_3_to_20_letters_digits_underscore_dash_are_fine(store: Store, name: str) -> None:
    assert (await store.accounts.register(name, PASSWORD)).name == name


@pytest.mark.parametrize(
    "password",
    [
        "short1!",
        "fourteen-chars",  # 14: NIST SP 800-63B-4 asks 15 of a password that is the only factor
        "password12345678",  # common (breach lists)
        "1234567890123456",
        "qwertyuiopasdfgh",  # a keyboard row
        "aaaaaaaaaaaaaaaa",  # a repeat
        "alicealicealice1",  # the account's name
        "pokerpokerpoker1",  # the room's own words
        "x" * 129,
    ],
)
async def test_weak_passwords_are_refused(store: Store, password: str) -> None:
    with pytest.raises(WeakPassword) as err:
        await store.accounts.register("alice", password)
    assert err.value.code == "weak_password" and err.value.reason
    assert await store.accounts.count() == 0


@pytest.mark.parametrize(
    "password",
    ["quiet river stones", "correct horse battery staple", "ZEBRAKITEMANGOFLUTE", "ünïcödé-wörds-ok"],
)
async def test_no_composition_rules_only_length_and_guessability(store: Store, password: str) -> None:
    """Letters only, spaces, capitals only, accents: all fine when long and not guessable."""
    assert (await store.accounts.register("alice", password)).name == "alice"
    assert (await store.accounts.login("alice", password)).player.name == "alice"


async def test_passwords_are_compared_after_nfkc_normalization(store: Store) -> None:
    composed = "caf\u00e9 au lait du matin"  # é as one code point
    decomposed = "cafe\u0301 au lait du matin"  # e + combining acute
    await store.accounts.register("alice", composed)
    assert (await store.accounts.login("alice", decomposed)).player.name == "alice"


async def test_the_password_is_stored_as_an_argon2_hash(store: Store) -> None:
    await store.accounts.register("alice", PASSWORD)
    async with store.db.read() as conn:
        stored = (await conn.execute(select(PlayerRow.password_hash))).scalar_one()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


async def test_login_checks_the_password(store: Store) -> None:
    p = await store.accounts.register("alice", PASSWORD)
    session = await store.accounts.login("ALICE", PASSWORD)
    assert session.player.id == p.id
    assert session.token not in repr(session)
    with pytest.raises(BadCredentials) as err:
        await store.accounts.login("alice", "wrong-pass1")
    assert err.value.code == "bad_credentials"
    with pytest.raises(BadCredentials):
        await store.accounts.login("nobody", PASSWORD)


LOCK = LockPolicy()


async def test_failed_logins_in_a_row_lock_the_account_until_the_lock_runs_out(
    store: Store, clock: FakeClock
) -> None:
    await store.accounts.register("alice", PASSWORD)
    for _ in range(LOCK.max_failures):
        with pytest.raises(BadCredentials):
            await store.accounts.login("alice", "wrong-pass1")
    with pytest.raises(AccountLocked) as err:
        await store.accounts.login("alice", PASSWORD)  # even the right password, from a new device
    assert err.value.code == "account_locked"
    assert err.value.until == clock.now + LockPolicy().lock_for
    clock.advance(LockPolicy().lock_for - timedelta(seconds=1))
    with pytest.raises(AccountLocked):
        await store.accounts.login("alice", PASSWORD)
    clock.advance(timedelta(seconds=1))
    assert (await store.accounts.login("alice", PASSWORD)).player.name == "alice"


async def test_a_success_resets_the_failure_count(store: Store) -> None:
    await store.accounts.register("alice", PASSWORD)
    for _ in range(2):
        with pytest.raises(BadCredentials):
            await store.accounts.login("alice", "wrong-pass1")
    await store.accounts.login("alice", PASSWORD)
    for _ in range(2):
        with pytest.raises(BadCredentials):
            await store.accounts.login("alice", "wrong-pass1")
    await store.accounts.login("alice", PASSWORD)


async def test_after_an_unlock_the_count_starts_again(store: Store, clock: FakeClock) -> None:
    await store.accounts.register("alice", PASSWORD)
    for _ in range(LOCK.max_failures):
        with pytest.raises(BadCredentials):
            await store.accounts.login("alice", "wrong-pass1")
    clock.advance(timedelta(hours=1))
    for _ in range(LOCK.max_failures - 1):
        with pytest.raises(BadCredentials):
            await store.accounts.login("alice", "wrong-pass1")
    await store.accounts.login("alice", PASSWORD)


async def test_the_lock_policy_is_configurable_and_an_admin_can_unlock(
    store: Store, clock: FakeClock
) -> None:
    accounts = Accounts(
        store.db, clock=clock, hasher=CHEAP_HASHER, lock_policy=LockPolicy(5, timedelta(minutes=1))
    )
    p = await accounts.register("alice", PASSWORD)
    for _ in range(4):
        with pytest.raises(BadCredentials):
            await accounts.login("alice", "wrong-pass1")
    await accounts.login("alice", PASSWORD)  # 4 failures do not lock under this policy
    for _ in range(5):
        with pytest.raises(BadCredentials):
            await accounts.login("alice", "wrong-pass1")
    with pytest.raises(AccountLocked):
        await accounts.login("alice", PASSWORD)
    await accounts.unlock(p.id)
    await accounts.login("alice", PASSWORD)


async def test_a_known_device_passes_the_lock_and_a_new_device_does_not(store: Store) -> None:
    await store.accounts.register("alice", PASSWORD)
    device = (await store.accounts.login("alice", PASSWORD)).device
    bob_device = (await store.accounts.register("bob", PASSWORD), await store.accounts.login("bob", PASSWORD))
    for _ in range(LOCK.max_failures):  # an attacker, from his own machine
        with pytest.raises(BadCredentials):
            await store.accounts.login("alice", "wrong-pass1")
    with pytest.raises(AccountLocked):
        await store.accounts.login("alice", PASSWORD)
    with pytest.raises(AccountLocked):  # another account's device token is no key to alice's
        await store.accounts.login("alice", PASSWORD, devices=[bob_device[1].device])
    with pytest.raises(AccountLocked):  # nor is a forged one
        await store.accounts.login("alice", PASSWORD, devices=[device[:-4] + "0000", "d1.x.y", "junk"])
    again = await store.accounts.login("alice", PASSWORD, devices=["junk", device])
    assert again.player.name == "alice"
    assert again.device.split(".")[1] == device.split(".")[1]  # the same device, a fresh token
    # the owner's login lifted the lock: a new device logs in again
    assert (await store.accounts.login("alice", PASSWORD)).player.name == "alice"


async def test_a_known_device_needs_the_password_and_is_distrusted_after_wrong_ones(store: Store) -> None:
    await store.accounts.register("alice", PASSWORD)
    device = (await store.accounts.login("alice", PASSWORD)).device
    for _ in range(LOCK.device_failures):  # a stolen device cookie guessing
        with pytest.raises((BadCredentials, AccountLocked)):
            await store.accounts.login("alice", "wrong-pass1", devices=[device])
    for _ in range(LOCK.max_failures):
        with pytest.raises((BadCredentials, AccountLocked)):
            await store.accounts.login("alice", "wrong-pass1")
    with pytest.raises(AccountLocked):  # the device is no longer trusted
        await store.accounts.login("alice", PASSWORD, devices=[device])


async def test_a_new_password_voids_the_known_devices(store: Store) -> None:
    p = await store.accounts.register("alice", PASSWORD)
    device = (await store.accounts.login("alice", PASSWORD)).device
    await store.accounts.set_password(p.id, "another-long-passphrase")
    for _ in range(LOCK.max_failures):
        with pytest.raises(BadCredentials):
            await store.accounts.login("alice", "wrong-pass1")
    with pytest.raises(AccountLocked):
        await store.accounts.login("alice", "another-long-passphrase", devices=[device])
    with pytest.raises(WeakPassword):
        await store.accounts.set_password(p.id, "short")


async def test_an_unknown_name_fails_and_locks_exactly_like_a_known_one(
    store: Store, clock: FakeClock
) -> None:
    """Nothing tells a name with an account from one without: the same errors, in the same order, the
    same lock time, the same number of password checks (one each)."""
    await store.accounts.register("alice", PASSWORD)
    calls: list[str] = []
    verify = store.accounts._verify

    def counted(pw_hash: str, password: str) -> bool:
        calls.append(password)
        return verify(pw_hash, password)

    store.accounts._verify = counted  # type: ignore[method-assign]

    async def attempts(name: str) -> list[tuple[str, object]]:
        out: list[tuple[str, object]] = []
        for _ in range(LOCK.max_failures + 2):
            try:
                await store.accounts.login(name, "wrong-pass1")
            except (BadCredentials, AccountLocked) as exc:
                out.append((exc.code, getattr(exc, "until", None)))
        return out

    known = await attempts("alice")
    known_checks, calls[:] = len(calls), []
    unknown = await attempts("nobody")
    assert known == unknown
    assert [c for c, _ in known] == ["bad_credentials"] * LOCK.max_failures + ["account_locked"] * 2
    assert known_checks == len(calls) == LOCK.max_failures
    clock.advance(LOCK.lock_for)
    assert await attempts("alice") == await attempts("nobody")


async def test_tokens_are_stored_hashed_and_expire(store: Store, clock: FakeClock) -> None:
    p = await store.accounts.register("alice", PASSWORD)
    session = await store.accounts.login("alice", PASSWORD)
    async with store.db.read() as conn:
        stored = (await conn.execute(select(AuthSessionRow.token_hash))).scalar_one()
        dump = str((await conn.execute(text("SELECT * FROM auth_sessions"))).all())
    assert stored == hashlib.sha256(session.token.encode()).hexdigest()
    assert session.token not in dump
    assert (await store.accounts.authenticate(session.token)).id == p.id
    assert session.expires_at == clock.now + store.accounts.session_ttl
    clock.advance(store.accounts.session_ttl)
    with pytest.raises(TokenExpired) as err:
        await store.accounts.authenticate(session.token)
    assert err.value.code == "token_expired"
    with pytest.raises(UnknownToken):  # an expired token is gone for good
        await store.accounts.authenticate(session.token)


async def test_unknown_and_logged_out_tokens(store: Store) -> None:
    await store.accounts.register("alice", PASSWORD)
    with pytest.raises(UnknownToken) as err:
        await store.accounts.authenticate("not-a-token")
    assert err.value.code == "unknown_token"
    session = await store.accounts.login("alice", PASSWORD)
    await store.accounts.logout(session.token)
    with pytest.raises(UnknownToken):
        await store.accounts.authenticate(session.token)
    with pytest.raises(UnknownToken):
        await store.accounts.logout(session.token)


async def test_expired_sessions_can_be_purged(store: Store, clock: FakeClock) -> None:
    store.accounts.session_idle = None  # (the expiry alone: test_store_idle.py has the idle timeout)
    await store.accounts.register("alice", PASSWORD)
    await store.accounts.login("alice", PASSWORD)
    clock.advance(timedelta(hours=1))
    fresh = await store.accounts.login("alice", PASSWORD)
    clock.advance(store.accounts.session_ttl - timedelta(minutes=30))
    assert await store.accounts.purge_expired_sessions() == 1
    assert (await store.accounts.authenticate(fresh.token)).name == "alice"


async def test_roles(store: Store) -> None:
    admin = await store.accounts.register("boss", PASSWORD, role=Role.ADMIN)
    assert admin.is_admin
    p = await store.accounts.register("alice", PASSWORD)
    assert (await store.accounts.set_role(p.id, Role.ADMIN)).role is Role.ADMIN
    assert (await store.accounts.login("alice", PASSWORD)).player.is_admin
    with pytest.raises(UnknownPlayer):
        await store.accounts.set_role(999, Role.ADMIN)
    with pytest.raises(UnknownPlayer):
        await store.accounts.find("nobody")


async def test_ended_sessions_answers_for_many_tokens_in_one_go(store: Store, clock: FakeClock) -> None:
    store.accounts.session_idle = None  # (the expiry alone: test_store_idle.py has the idle timeout)
    await store.accounts.register("alice", PASSWORD)
    old = await store.accounts.login("alice", PASSWORD)
    clock.advance(timedelta(hours=1))
    live = await store.accounts.login("alice", PASSWORD)
    gone = await store.accounts.login("alice", PASSWORD)
    await store.accounts.logout(gone.token)
    clock.advance(store.accounts.session_ttl - timedelta(minutes=30))  # (old expired, live not)
    many = [live.token, old.token, gone.token, "not-a-token", ""] + [f"t{k}" for k in range(1200)]
    ended = await store.accounts.ended_sessions(many)
    assert ended[old.token] == "expired"
    assert ended[gone.token] == ended["not-a-token"] == ended[""] == ended["t1199"] == "revoked"
    assert live.token not in ended and len(ended) == len(many) - 1
    assert (await store.accounts.authenticate(live.token)).name == "alice"  # (nothing changed)
