"""Issue 30, item 1: every login is kept with the client address the room believes (the trusted proxy's
``X-Forwarded-For``, never a header from anybody else), the browser's device id (a first-party cookie of
its own, the same for every account of that browser) and its user agent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from pokerroom.server.integrity.logins import BROWSER_COOKIE
from pokerroom.store import Store

from .securityhelpers import SecureServer, client, secure_server
from .wire import PASSWORD

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[SecureServer]:
    # 127.0.0.1 is the reverse proxy the operator declared trusted (pokerroom serve --trusted-proxy)
    options: dict[str, Any] = {"proxy_headers": True, "forwarded_allow_ips": "127.0.0.1"}
    async with secure_server(tmp_path, **options) as s:
        yield s


def _store(s: SecureServer) -> Store:
    return s.room.store


async def test_a_login_keeps_the_forwarded_address_the_device_and_the_agent(room: SecureServer) -> None:
    browser = {"X-Forwarded-For": "203.0.113.7", "User-Agent": "Mozilla/5.0 (test) Firefox/140.0"}
    async with client(room) as http:
        r = await http.post("/api/register", json={"name": "ann", "password": PASSWORD}, headers=browser)
        assert r.status_code == 200
        cookie = r.headers.get_list("set-cookie")
        mine = next(c for c in cookie if c.startswith(f"{BROWSER_COOKIE}="))
        assert "HttpOnly" in mine and "SameSite=strict" in mine and "Max-Age=34560000" in mine
        device = http.cookies[BROWSER_COOKIE]
        # a second account logs in from the same browser: the same device id
        r = await http.post("/api/register", json={"name": "bob", "password": PASSWORD}, headers=browser)
        assert r.status_code == 200 and http.cookies[BROWSER_COOKIE] == device
        r = await http.post("/api/login", json={"name": "ann", "password": PASSWORD}, headers=browser)
        assert r.status_code == 200
    ann = await _store(room).accounts.find("ann")
    bob = await _store(room).accounts.find("bob")
    rows = await _store(room).logins.history(ann.id)
    assert len(rows) == 2  # the registration's login and the login
    assert {(x.address, x.device, x.user_agent) for x in rows} == {
        ("203.0.113.7", device, "Mozilla/5.0 (test) Firefox/140.0")
    }
    links = await _store(room).logins.links(ann.id)
    assert [(k.player_id, k.addresses, k.devices) for k in links] == [(bob.id, ("203.0.113.7",), (device,))]


async def test_a_forwarding_header_from_anybody_but_the_trusted_proxy_is_not_believed(
    room: SecureServer,
) -> None:
    async with client(room, "127.0.0.2") as http:  # a client (or a proxy) the room was not told about
        r = await http.post(
            "/api/register",
            json={"name": "eve", "password": PASSWORD},
            headers={"X-Forwarded-For": "198.51.100.99", "Forwarded": "for=198.51.100.98"},
        )
        assert r.status_code == 200
    eve = await _store(room).accounts.find("eve")
    (row,) = await _store(room).logins.history(eve.id)
    assert row.address == "127.0.0.2" and row.user_agent is not None


async def test_a_forged_device_cookie_is_replaced_and_a_failed_login_keeps_nothing(
    room: SecureServer,
) -> None:
    async with client(room) as http:
        r = await http.post("/api/register", json={"name": "fay", "password": PASSWORD})
        assert r.status_code == 200
    fay = await _store(room).accounts.find("fay")
    async with client(room) as http:
        http.cookies.set(BROWSER_COOKIE, "' OR 1=1 --", domain="127.0.0.1")
        r = await http.post("/api/login", json={"name": "fay", "password": "wrong-" + PASSWORD})
        assert r.status_code == 401
        assert len(await _store(room).logins.history(fay.id)) == 1
        r = await http.post("/api/login", json={"name": "fay", "password": PASSWORD})
        assert r.status_code == 200
    rows = await _store(room).logins.history(fay.id)
    assert len(rows) == 2 and rows[0].device is not None and len(rows[0].device) == 32
    assert rows[0].device != "' OR 1=1 --"
