"""Responsible gaming in the browser (issue 29, item 5), on a room of its own with a EUR cash table and a
EUR sit-and-go: a loss limit set on the Limits page blocks a buy-in and a tournament registration with a
clear message (nothing leaves the wallet); a cool-off set there with the password ends the session on
every device at once, and the login is then refused with the date the break ends."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pokerroom.server.demo import demo_tables, demo_tournaments
from pokerroom.server.room import RoomSettings
from pokerroom.store import Role
from tests.server.conftest import LiveServer, serve_room
from tests.server.wire import PASSWORD as ADMIN_PASSWORD

from .conftest import TIMING, Room, _need_browser, browser_page, room_in_thread
from .player import PASSWORD, Player

TABLE = "holdem-nl"
EUR = "EUR"


@contextlib.asynccontextmanager
async def eur_room(tmp: Path) -> AsyncIterator[LiveServer]:
    settings = RoomSettings(
        tables=tuple(replace(t, currency=EUR) for t in demo_tables(TIMING, games=("holdem",))),
        tournaments=tuple(replace(t, currency=EUR) for t in demo_tournaments(TIMING, 5.0)),
        currencies=("PLAY", EUR),
    )
    async with serve_room(tmp, settings) as live:
        yield live


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    _need_browser()

    async def setup(r: Room) -> None:
        await r.live.room.store.accounts.register("boss", ADMIN_PASSWORD, role=Role.ADMIN)

    with room_in_thread("gaming-room", eur_room(tmp_path_factory.mktemp("gaming-room")), setup) as r:
        yield r


def _in_room(room: Room, coro: Any) -> Any:
    return asyncio.run_coroutine_threadsafe(coro, room.loop).result(30)


def _fund(room: Room, name: str, amount: int) -> int:
    """Credit ``amount`` EUR cents to ``name`` (an administrator's deposit); returns his id."""
    store = room.live.room.store

    async def go() -> int:
        player = await store.accounts.find(name)
        admin = await store.accounts.find("boss")
        await store.ledger.deposit(player.id, EUR, amount, admin_id=admin.id, idempotency_key=f"fund-{name}")
        return player.id

    return int(_in_room(room, go()))


def _open_limits(page: Any) -> Any:
    page.click("#gaming-btn")
    dialog = page.locator("dialog.gaming")
    dialog.locator(".rg-limit-form").wait_for()
    return dialog


def test_a_loss_limit_blocks_a_buy_in_and_a_registration_with_a_clear_message(room: Room, page: Any) -> None:
    page.clock.install()  # the browser's timers on a clock the test moves (the session reminder)
    p = Player(page, room.url)
    p.register()
    pid = _fund(room, p.name, 100_000)
    dialog = _open_limits(page)
    form = dialog.locator(".rg-limit-form")
    form.locator("select[name=kind]").select_option("loss_day")
    form.locator("select[name=currency]").select_option(EUR)
    form.locator("input[name=amount]").fill("0.50")  # 50 cents: below any buy-in of the table
    form.locator("button.rg-set").click()
    row = dialog.locator('.rg-table tr[data-kind="loss_day"]')
    row.wait_for()
    assert "0.50" in row.inner_text() and EUR in row.inner_text()
    dialog.locator(".dialog-close").click()

    page.click(f'button.open-table[data-table="{TABLE}"]')
    tile = p.tile(TABLE)
    tile.locator(".sit-btn").first.click()
    page.locator("dialog.sit-dialog .sit-confirm").click()
    notice = tile.locator('.notice[data-code="limit_reached"]')
    notice.wait_for()
    text = notice.inner_text()
    assert "loss limit is 0.50 EUR per 1 day" in text, text
    assert tile.get_attribute("data-seated") != "yes"

    page.click("#lobby-toggle")
    page.click('.tab[data-tab="tournaments"]')
    turbo = page.locator('tr[data-tournament^="turbo6-"]').first
    turbo.locator("button.t-info").click()
    tdialog = page.locator("dialog.tournament-dialog")
    tdialog.locator("button.t-register").click()
    refusal = tdialog.locator(".t-actions .hint", has_text="loss limit")
    refusal.wait_for()
    assert "0.50 EUR" in refusal.inner_text()
    assert _in_room(room, room.live.room.store.ledger.balance(pid, EUR)) == 100_000  # nothing booked
    tdialog.locator(".dialog-close").click()

    # the session reminder: after the minutes chosen, the time played and the result, to go on or leave
    dialog = _open_limits(page)
    form.locator("select[name=kind]").select_option("session")
    assert form.locator("select[name=currency]").is_disabled()
    form.locator("input[name=amount]").fill("5")
    form.locator("button.rg-set").click()
    dialog.locator('.rg-table tr[data-kind="session"]', has_text="5 minutes").wait_for()
    dialog.locator(".dialog-close").click()
    reminder = page.locator("dialog.reminder")
    assert reminder.is_hidden()
    page.clock.fast_forward("05:05")
    reminder.locator(".rg-played", has_text="You have played for").wait_for()
    assert "Your result this session" in reminder.locator(".rg-net").inner_text()
    reminder.locator("button.rg-continue").click()
    reminder.wait_for(state="hidden")
    assert page.locator("#app").is_visible()  # continued: still logged in
    assert p.errors == []


def test_a_cool_off_ends_every_session_and_refuses_the_login_until_it_ends(
    room: Room, page: Any, browser: Any
) -> None:
    p = Player(page, room.url)
    p.register()
    with browser_page(browser) as phone:  # the same player on another device
        phone.goto(room.url + "/")
        form = phone.locator("#login-form")
        form.locator("input[name=name]").fill(p.name)
        form.locator("input[name=password]").fill(PASSWORD)
        phone.click("#login-btn")
        phone.wait_for_selector("#app:not([hidden])")

        dialog = _open_limits(page)
        brk = dialog.locator(".rg-break-form")
        brk.locator("select[name=length]").select_option("cool_off:7")
        brk.locator("input[name=password]").fill(PASSWORD)
        brk.locator("input[name=sure]").check()
        brk.locator("button.rg-exclude").click()
        for device in (page, phone):  # both sessions end at once: back to the login form
            device.wait_for_selector("#login:not([hidden])")
            assert device.locator("#app").is_hidden()

    form = page.locator("#login-form")
    form.locator("input[name=name]").fill(p.name)
    form.locator("input[name=password]").fill(PASSWORD)
    page.click("#login-btn")
    error = page.locator("#login-error")
    page.locator("#login-error", has_text="cool-off").wait_for()
    assert "until 20" in error.inner_text() and "UTC" in error.inner_text()
    assert page.locator("#app").is_hidden()
    assert p.errors == []
