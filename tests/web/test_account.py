"""The forgot-password page in chromium (issue 29, item 4): in a room without [mail] the page says to ask
the operator; after the operator's forced reset, the login opens the page (it said "bad name or password"
before), the operator's code and a new password set the password there, and the player logs in with it
and changes it again in the account dialog."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from pokerroom.server.room import RoomSettings
from tests.server.conftest import serve_room
from tests.web.conftest import Room, _need_browser, room_in_thread
from tests.web.player import PASSWORD

NEW = "a-brand-new-pass-phrase-42"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """A room with no tables and no [mail], and the player alice."""
    _need_browser()
    manager = serve_room(tmp_path_factory.mktemp("account-room"), RoomSettings(), durable=False)

    async def setup(r: Room) -> None:
        await r.live.room.store.accounts.register("alice", PASSWORD)

    with room_in_thread("account-room", manager, setup) as r:
        yield r


def test_the_forced_reset_code_sets_a_new_password_on_the_forgot_password_page(room: Room, page: Any) -> None:
    store = room.live.room.store
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(room.url)
    # a room that sends no mail says whom to ask
    page.click("#forgot-btn")
    page.wait_for_selector("#reset-page:not([hidden]) #mail-off")
    assert "ask the operator" in page.inner_text("#mail-off")
    assert page.locator("#forgot-form").count() == 0
    page.click("#reset-back")
    page.wait_for_selector("#login:not([hidden])")

    alice = asyncio.run_coroutine_threadsafe(store.accounts.find("alice"), room.loop).result(30)
    code = asyncio.run_coroutine_threadsafe(store.operator.force_reset(alice.id), room.loop).result(30)
    page.fill("#login-form input[name=name]", "alice")
    page.fill("#login-form input[name=password]", PASSWORD)
    page.click("#login-btn")
    page.wait_for_selector("#reset-page:not([hidden]) #reset-forced")  # not "bad name or password"
    assert page.input_value("#reset-form input[name=name]") == "alice"
    page.fill("#reset-form input[name=code]", "not-the-code")
    page.fill("#reset-form input[name=password]", NEW)
    page.fill("#reset-form input[name=repeat]", NEW)
    page.click("#reset-submit")
    page.wait_for_selector("#reset-error:has-text('Wrong name or code')")
    page.fill("#reset-form input[name=code]", code)
    page.click("#reset-submit")
    page.wait_for_selector("#login:not([hidden])")
    assert "log in with it" in page.inner_text("#login-error")
    assert page.input_value("#login-form input[name=name]") == "alice"
    page.fill("#login-form input[name=password]", NEW)
    page.click("#login-btn")
    page.wait_for_selector("#app:not([hidden])")
    assert page.inner_text("#me") == "alice"
    # and the account dialog changes it again (this session stays)
    page.click("#account-btn")
    page.fill("#password-form input[name=old]", NEW)
    page.fill("#password-form input[name=password]", NEW + "-too")
    page.fill("#password-form input[name=repeat]", NEW + "-too")
    page.click("#password-form button[type=submit]")
    page.wait_for_selector(".account-dialog :text('Password changed')")
    assert page.locator("#app").is_visible()
    assert errors == []
