"""Issue 34, defects 2 and 7.

2. One client could keep every new device out: the global login bucket (4 a second, bursts of 20) was
   taken before anything else, and neither a success nor a 429 counted against the caller's address, so
   one address logging in to its own account in a tight loop left no token for anybody else. Now every
   attempt counts against its address's own rate first (allowed or refused), and only an attempt that
   every other limit lets through takes from the global bucket.
7. Registration was not throttled: 20 accounts in a row from one address, each an argon2 hash. Now an
   address registers a few accounts in a row, then one every few minutes (``429 too_many_registrations``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from pokerroom.server.security import SecuritySettings
from pokerroom.server.throttle import LoginGuard, LoginLimits, RegisterGuard, RegisterLimits

from .securityhelpers import FakeMonotonic, SecureServer, client, register, secure_server
from .wire import PASSWORD

ATTACKER = "203.0.113.66"


def test_one_address_logging_in_in_a_loop_does_not_keep_new_devices_out() -> None:
    """The issue's measurement, on the server's own throttle with a virtual clock: an attacker logging in
    to his own account every 10 ms for 60 s, and an honest user logging in once a second from a fresh
    address (a new device each time). Before: 0 of 60 honest logins went through."""
    clock = FakeMonotonic()
    guard = LoginGuard(LoginLimits(), clock=clock)
    honest = attacker = 0
    for tick in range(6000):
        if guard.check(ATTACKER, "mallory", known_device=False) == 0:
            attacker += 1
            guard.succeeded("mallory")  # the right password: his own account
        if tick % 100 == 50:
            address = f"198.51.{tick // 100 // 200}.{tick // 100 % 200 + 1}"
            if guard.check(address, "alice", known_device=False) == 0:
                honest += 1
                guard.succeeded("alice")
        clock.advance(0.01)
    assert honest == 60
    # the attacker got his address's burst, and nothing while he kept trying without waiting
    assert attacker == LoginLimits().address_burst


def test_a_refused_attempt_counts_against_its_address() -> None:
    clock = FakeMonotonic()
    limits = LoginLimits()
    guard = LoginGuard(limits, clock=clock)
    burst = int(limits.address_burst)
    waits = [guard.check(ATTACKER, f"user{i}", known_device=False) for i in range(burst)]
    assert waits == [0] * burst  # (successes, say: nothing else slows them)
    for _ in range(3):
        guard.succeeded("user0")
    told = [guard.check(ATTACKER, "user0", known_device=False) for _ in range(50)]
    assert all(w >= 1 for w in told)
    assert guard.bucket is not None  # the refused attempts took nothing from the global bucket
    assert guard.bucket.tokens == limits.burst - burst
    assert told == sorted(told)  # trying again without waiting only makes the wait longer ...
    clock.advance(told[0])
    assert guard.check(ATTACKER, "user0", known_device=False) >= 1  # ... and the first wait no longer does
    clock.advance(told[-1])
    assert guard.check(ATTACKER, "user0", known_device=False) == 0  # waiting what it was last told does
    # another address was never held up
    assert guard.check("198.51.100.7", "alice", known_device=False) == 0


def test_a_known_device_is_not_counted() -> None:
    clock = FakeMonotonic()
    guard = LoginGuard(LoginLimits(), clock=clock)
    assert all(guard.check(ATTACKER, "alice", known_device=True) == 0 for _ in range(100))
    assert guard.check(ATTACKER, "alice", known_device=False) == 0


def test_registrations_from_one_address_are_limited() -> None:
    clock = FakeMonotonic()
    limits = RegisterLimits()
    assert limits.rate is not None
    guard = RegisterGuard(limits, clock=clock)
    burst = int(limits.burst)
    answers = [guard.check(ATTACKER, local=False) for _ in range(20)]
    assert answers[:burst] == [0] * burst
    assert all(w >= 1 for w in answers[burst:])
    assert guard.check("198.51.100.7", local=False) == 0  # another address
    assert guard.check("127.0.0.1", local=True) == 0  # the room's own machine (pokerroom bots)
    clock.advance(answers[-1])
    assert guard.check(ATTACKER, local=False) == 0
    assert guard.check(ATTACKER, local=False) >= 1
    assert all(
        RegisterGuard(RegisterLimits(local=True)).check("127.0.0.1", local=True) == 0 for _ in range(5)
    )
    strict = RegisterGuard(RegisterLimits(local=True), clock=clock)
    assert [strict.check("127.0.0.1", local=True) for _ in range(burst + 1)][-1] >= 1


# ---------------------------------------------------------------------------------------- live server


@pytest_asyncio.fixture
async def clock() -> FakeMonotonic:
    return FakeMonotonic()


@pytest_asyncio.fixture
async def room(tmp_path: Path, clock: FakeMonotonic) -> AsyncIterator[SecureServer]:
    # 127.0.0.1 is a proxy the room trusts: its X-Forwarded-For names the client (an address on the internet)
    options: dict[str, Any] = {"proxy_headers": True, "forwarded_allow_ips": "127.0.0.1"}
    async with secure_server(tmp_path, SecuritySettings(clock=clock), **options) as s:
        yield s


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


@pytest.mark.asyncio
async def test_a_client_logging_in_in_a_loop_leaves_room_for_new_devices(
    room: SecureServer, clock: FakeMonotonic
) -> None:
    await (await register(room, "mallory")).aclose()
    await (await register(room, "alice")).aclose()
    creds = {"name": "mallory", "password": PASSWORD}
    async with client(room) as mallory:  # (no cookies kept between attempts: a new device each time)
        statuses = []
        for _ in range(40):
            r = await mallory.post("/api/login", json=creds, headers=_from(ATTACKER))
            mallory.cookies.clear()
            statuses.append(r.status_code)
    burst = int(LoginLimits().address_burst)
    assert statuses == [200] * burst + [429] * (40 - burst)
    # alice, on a phone she never used, logs in: the global bucket was not drained by one address
    async with client(room) as phone:
        r = await phone.post(
            "/api/login", json={"name": "alice", "password": PASSWORD}, headers=_from("198.51.100.20")
        )
        assert r.status_code == 200, r.text


@pytest.mark.asyncio
async def test_registration_is_throttled_per_address(room: SecureServer, clock: FakeMonotonic) -> None:
    limits = RegisterLimits()
    burst = int(limits.burst)
    async with client(room) as http:
        answers = []
        for i in range(20):
            r = await http.post(
                "/api/register", json={"name": f"spam{i}", "password": PASSWORD}, headers=_from(ATTACKER)
            )
            answers.append(r)
        assert [r.status_code for r in answers] == [200] * burst + [429] * (20 - burst)
        refused = answers[-1]
        assert refused.json()["code"] == "too_many_registrations"
        retry = int(refused.headers["Retry-After"])
        assert retry >= 1
        # nothing was made for a refused registration
        store = room.room.store
        assert await store.accounts.count() == burst
        # another address registers
        r = await http.post(
            "/api/register", json={"name": "alice", "password": PASSWORD}, headers=_from("198.51.100.20")
        )
        assert r.status_code == 200, r.text
        # after the time it was told, the address registers again
        clock.advance(retry)
        r = await http.post(
            "/api/register", json={"name": "spam99", "password": PASSWORD}, headers=_from(ATTACKER)
        )
        assert r.status_code == 200, r.text
        # the room's own machine (no proxy in between) is not limited: `pokerroom bots` registers there
        for i in range(burst + 2):
            r = await http.post("/api/register", json={"name": f"local{i}", "password": PASSWORD})
            assert r.status_code == 200, r.text
