"""The console's Operator API page in chromium (issue 29, item 3): an administrator makes a key, sees its
secret once (not after a reload), the key works, and revoking it in the page refuses its next call."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pokerroom.server.room import RoomSettings
from pokerroom.store import Role
from tests.server.conftest import serve_room
from tests.waiting import wait_until
from tests.web.conftest import Room, _need_browser, browser, page, room_in_thread  # noqa: F401
from tests.web.player import PASSWORD

ADMIN = "keysboss"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """A room with no tables, an administrator and a player."""
    _need_browser()
    manager = serve_room(tmp_path_factory.mktemp("keys-room"), RoomSettings(), durable=False)

    async def setup(r: Room) -> None:
        await r.live.room.store.accounts.register(ADMIN, PASSWORD, role=Role.ADMIN)
        await r.live.room.store.accounts.register("keysplayer", PASSWORD)

    with room_in_thread("keys-room", manager, setup) as r:
        yield r


def _status(room: Room, secret: str) -> int:
    async def get() -> int:
        async with httpx.AsyncClient(base_url=room.url) as http:
            r = await http.get(
                "/api/v1/accounts?name=keysplayer", headers={"Authorization": f"Bearer {secret}"}
            )
            return r.status_code

    return asyncio.run_coroutine_threadsafe(get(), room.loop).result(30)


def test_the_console_makes_a_key_shows_it_once_and_revokes_it(room: Room, page: Any) -> None:  # noqa: F811
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{room.url}/static/console.html")
    form = page.locator("#console-login-form")
    form.locator("input[name=name]").fill(ADMIN)
    form.locator("input[name=password]").fill(PASSWORD)
    page.click("#console-login-btn")
    page.wait_for_selector("#console:not([hidden])")
    page.click('.console-nav a[data-page="api-keys"]')
    page.wait_for_selector("#apikey-form")
    page.locator("#apikey-form input[name=name]").fill("club site")
    page.locator('#apikey-form input[value="accounts"]').check()
    page.click("#apikey-form button[type=submit]")
    secret = page.locator("#apikey-secret-text").inner_text().strip()
    assert secret.startswith("prk_")
    row = page.locator('#apikey-list tr[data-key="club site"]')
    assert "accounts" in row.inner_text() and "active" in row.inner_text()
    assert secret not in page.locator("#apikey-list").inner_text()  # the list shows the prefix only
    assert _status(room, secret) == 200
    page.reload()
    page.wait_for_selector('#apikey-list tr[data-key="club site"]')
    assert page.locator("#apikey-secret").count() == 0  # shown once
    row.locator("button.revoke").click()
    wait_until(
        lambda: "revoked" in row.locator("td.state").inner_text(), timeout=15, what="the key shows as revoked"
    )
    assert _status(room, secret) == 401
    assert errors == []
