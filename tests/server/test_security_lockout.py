"""Issue 19, defect 2: anyone could lock anyone out (three wrong passwords locked an account for 15 minutes,
even against the right password, from anywhere). Now repeated failures lock a name only for devices it
was never logged in from: the owner's known device still logs in, an operator lifts the lock, and a name
with no account answers and locks exactly as one with an account (status, body, headers, password checks)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from pokerroom.server.security import SecuritySettings
from pokerroom.store import LockPolicy, Role

from .securityhelpers import FakeMonotonic, SecureServer, client, register, secure_server
from .wire import PASSWORD

pytestmark = pytest.mark.asyncio
LOCK = LockPolicy()
ALICE = {"name": "alice", "password": PASSWORD}


@pytest_asyncio.fixture
async def clock() -> FakeMonotonic:
    return FakeMonotonic()


@pytest_asyncio.fixture
async def room(tmp_path: Path, clock: FakeMonotonic) -> AsyncIterator[SecureServer]:
    async with secure_server(tmp_path, SecuritySettings(clock=clock)) as s:
        yield s


async def _attack(
    room: SecureServer, clock: FakeMonotonic, name: str, tries: int, source: str = "127.0.0.2"
) -> list[httpx.Response]:
    """Wrong passwords for ``name``, waiting out every throttle delay in between (the attacker is
    patient): what is left is the lock."""
    out = []
    async with client(room, source) as attacker:
        for _ in range(tries):
            clock.advance(3600)
            out.append(await attacker.post("/api/login", json={"name": name, "password": "guess-" * 3}))
    return out


async def test_a_lock_out_attempt_does_not_lock_the_real_user_out(room: SecureServer, clock: Any) -> None:
    alice = await register(room, "alice")  # her browser: it keeps the known-device cookie
    answers = await _attack(room, clock, "alice", LOCK.max_failures + 3)
    assert [r.status_code for r in answers] == [401] * LOCK.max_failures + [423] * 3
    locked = answers[-1].json()
    assert locked["code"] == "account_locked" and "device" in locked["message"]
    # a new device, even with the right password, meets the lock ...
    async with client(room, "127.0.0.3") as stranger:
        r = await stranger.post("/api/login", json={"name": "alice", "password": PASSWORD})
        assert r.status_code == 423
    # ... alice's own browser does not
    r = await alice.post("/api/login", json={"name": "alice", "password": PASSWORD})
    assert r.status_code == 200, r.text
    assert r.json()["player"]["name"] == "alice"
    await alice.aclose()


async def test_an_operator_lifts_the_lock(room: SecureServer, clock: Any) -> None:
    await (await register(room, "alice")).aclose()
    boss = await register(room, "boss")
    await room.room.store.accounts.set_role((await room.room.store.accounts.find("boss")).id, Role.ADMIN)
    await _attack(room, clock, "alice", LOCK.max_failures)
    async with client(room, "127.0.0.3") as phone:
        assert (await phone.post("/api/login", json=ALICE)).status_code == 423
        # only an administrator may lift it
        assert (await phone.post("/api/admin/unlock", json={"name": "alice"})).status_code == 401
        r = await boss.post("/api/admin/unlock", json={"name": "alice"})
        assert r.status_code == 200, r.text
        assert (await phone.post("/api/login", json=ALICE)).status_code == 200
        r = await phone.post("/api/admin/unlock", json={"name": "boss"})  # alice is no administrator
        assert r.status_code == 403
    await boss.aclose()


def _shape(r: httpx.Response) -> tuple[int, str, str, list[str], str | None]:
    body = r.json()
    message = body["message"].split(" until ")[0]  # the lock's time is the same moment for both
    cookies = sorted(k for k in r.headers.get_list("set-cookie"))
    return r.status_code, body["code"], message, cookies, r.headers.get("retry-after")


async def test_an_unknown_name_answers_like_a_wrong_password(room: SecureServer, clock: Any) -> None:
    await (await register(room, "alice")).aclose()
    room.hasher.checks = 0
    known = await _attack(room, clock, "alice", LOCK.max_failures + 2)
    known_checks, room.hasher.checks = room.hasher.checks, 0
    unknown = await _attack(room, clock, "nobody", LOCK.max_failures + 2, source="127.0.0.4")
    assert [_shape(r) for r in known] == [_shape(r) for r in unknown]
    assert [r.status_code for r in unknown] == [401] * LOCK.max_failures + [423] * 2
    # the same work: one argon2 check per attempt that reached the password, none once locked
    assert known_checks == room.hasher.checks == LOCK.max_failures
    assert sorted(known[0].headers.keys()) == sorted(unknown[0].headers.keys())
    assert sorted(known[-1].headers.keys()) == sorted(unknown[-1].headers.keys())
