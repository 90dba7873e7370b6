"""Issue 34, defect 8: a session had no idle timeout (only its 12-hour expiry). Now a session unused for
``Accounts.session_idle`` (30 minutes by default) is over: a request carrying its token is a use, and so
is a socket open with it (the server looks those sessions up every 30 seconds: ``ended_sessions``)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pokerroom.store import Store, TokenExpired

from .storehelpers import PASSWORD, FakeClock

pytestmark = pytest.mark.asyncio
IDLE = timedelta(minutes=30)


async def test_an_unused_session_ends_after_the_idle_timeout(store: Store, clock: FakeClock) -> None:
    assert store.accounts.session_idle == IDLE  # the default
    await store.accounts.register("alice", PASSWORD)
    used = await store.accounts.login("alice", PASSWORD)
    left = await store.accounts.login("alice", PASSWORD)
    for _ in range(6):  # an hour and a half of use, a request every quarter of an hour
        clock.advance(timedelta(minutes=15))
        assert (await store.accounts.authenticate(used.token)).name == "alice"
    with pytest.raises(TokenExpired) as ended:
        await store.accounts.authenticate(left.token)
    assert "unused for 30 minutes" in str(ended.value)
    # it is gone for good: asking again, even at once, finds no session
    with pytest.raises(Exception) as again:
        await store.accounts.authenticate(left.token)
    assert getattr(again.value, "code", None) == "unknown_token"
    # the used one lives until the idle timeout after its last use
    clock.advance(IDLE - timedelta(seconds=1))
    assert (await store.accounts.authenticate(used.token)).name == "alice"
    clock.advance(IDLE)
    with pytest.raises(TokenExpired):
        await store.accounts.authenticate(used.token)


async def test_an_open_socket_keeps_its_session_in_use(store: Store, clock: FakeClock) -> None:
    await store.accounts.register("alice", PASSWORD)
    at_table = await store.accounts.login("alice", PASSWORD)
    idle = await store.accounts.login("alice", PASSWORD)
    for _ in range(120):  # an hour of the server's rechecks of the sockets' sessions
        clock.advance(timedelta(seconds=30))
        assert await store.accounts.ended_sessions([at_table.token]) == {}
    assert await store.accounts.ended_sessions([at_table.token, idle.token]) == {idle.token: "expired"}
    assert (await store.accounts.authenticate(at_table.token)).name == "alice"
    assert await store.accounts.purge_expired_sessions() == 1  # the idle one


async def test_the_idle_timeout_is_a_setting(store: Store, clock: FakeClock) -> None:
    store.accounts.session_idle = timedelta(minutes=5)
    await store.accounts.register("alice", PASSWORD)
    s = await store.accounts.login("alice", PASSWORD)
    clock.advance(timedelta(minutes=5))
    with pytest.raises(TokenExpired):
        await store.accounts.authenticate(s.token)
    store.accounts.session_idle = None  # no idle timeout: the expiry alone
    s = await store.accounts.login("alice", PASSWORD)
    clock.advance(store.accounts.session_ttl - timedelta(seconds=1))
    assert (await store.accounts.authenticate(s.token)).name == "alice"
