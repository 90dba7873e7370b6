"""Issue 34, defect 8: ``/metrics`` answered anonymous callers on the players' port (players online, tables,
hands, errors: what an attacker would like to watch). Now it answers the operator only: a client on the
room's own machine (a loopback address, not through a proxy: a Prometheus on the host, as before), a
caller with the metrics token (``SecuritySettings.metrics_token``; ``pokerroom serve --metrics-token-file``),
or a logged-in administrator or support. Anybody else gets ``403 forbidden``, and no metric."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from pokerroom.server.security import SecuritySettings
from pokerroom.store import Role

from .securityhelpers import SecureServer, client, register, secure_server
from .wire import PASSWORD

pytestmark = pytest.mark.asyncio
TOKEN = "metrics-" + "k" * 32
OUTSIDE = {"X-Forwarded-For": "198.51.100.44"}  # a client on the internet, through the trusted proxy


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[SecureServer]:
    options: dict[str, Any] = {"proxy_headers": True, "forwarded_allow_ips": "127.0.0.1"}
    async with secure_server(tmp_path, SecuritySettings(metrics_token=TOKEN), **options) as s:
        yield s


def _refused(r: object) -> bool:
    import httpx

    assert isinstance(r, httpx.Response)
    return r.status_code == 403 and r.json()["code"] == "forbidden" and "pokerroom_" not in r.text


async def test_anonymous_callers_get_no_metrics(room: SecureServer) -> None:
    async with client(room) as http:
        assert _refused(await http.get("/metrics", headers=OUTSIDE))
        assert _refused(await http.get("/metrics", headers={**OUTSIDE, "Authorization": "Bearer wrong"}))
        assert _refused(await http.get("/metrics", headers={**OUTSIDE, "Authorization": f"Bearer {TOKEN}x"}))
    # a proxy on this machine that the room was not told about: its clients are not the operator
    async with client(room, "127.0.0.2") as proxied:
        assert _refused(await proxied.get("/metrics", headers={"X-Forwarded-For": "198.51.100.45"}))
        assert _refused(await proxied.get("/metrics", headers={"Forwarded": "for=198.51.100.45"}))


async def test_the_operator_reads_them(room: SecureServer) -> None:
    async with client(room) as local:  # the room's own machine (a Prometheus on the host)
        r = await local.get("/metrics")
        assert r.status_code == 200 and "pokerroom_connections" in r.text
        r = await local.get("/metrics", headers={**OUTSIDE, "Authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 200 and "pokerroom_connections" in r.text


async def test_staff_read_them_and_players_do_not(room: SecureServer) -> None:
    alice = await register(room, "alice")
    boss = await register(room, "boss")
    helper = await register(room, "helper")
    store = room.room.store
    await store.accounts.set_role((await store.accounts.find("boss")).id, Role.ADMIN)
    await store.accounts.set_role((await store.accounts.find("helper")).id, Role.SUPPORT)
    try:
        assert _refused(await alice.get("/metrics", headers=OUTSIDE))
        for staff in (boss, helper):
            r = await staff.get("/metrics", headers=OUTSIDE)
            assert r.status_code == 200 and "pokerroom_connections" in r.text
        token = (await alice.post("/api/login", json={"name": "alice", "password": PASSWORD})).json()["token"]
        assert _refused(await alice.get("/metrics", headers={**OUTSIDE, "Authorization": f"Bearer {token}"}))
    finally:
        for h in (alice, boss, helper):
            await h.aclose()


async def test_without_a_token_only_the_machine_and_staff_read_them(tmp_path: Path) -> None:
    options: dict[str, Any] = {"proxy_headers": True, "forwarded_allow_ips": "127.0.0.1"}
    async with secure_server(tmp_path, **options) as s, client(s) as http:
        assert SecuritySettings().metrics_token is None
        assert (await http.get("/metrics")).status_code == 200
        assert _refused(await http.get("/metrics", headers=OUTSIDE))
        assert _refused(await http.get("/metrics", headers={**OUTSIDE, "Authorization": "Bearer none"}))
