"""Issue 30, item 1 in chromium: the console's Integrity page lists the addresses and devices several
accounts logged in from and shows an account's login history with its linked accounts; and in a room that
keeps linked players apart, the table client tells a player why he cannot sit (``shared_connection``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from pokerroom.bots.runner import start_bots
from pokerroom.server.demo import demo_tables
from pokerroom.server.integrity import IntegritySettings
from pokerroom.server.room import RoomSettings
from pokerroom.store import Role
from tests.server.conftest import serve_room
from tests.waiting import until, wait_until
from tests.web.conftest import TIMING, Room, _need_browser, console_at, room_in_thread
from tests.web.player import PASSWORD, Player

ADMIN = "integrityboss"
TABLE = "holdem-nl"
DEVICE = "f" * 32


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """A room that keeps linked players apart, an administrator, two accounts of one household, and a
    bot at the no-limit table that once logged in from this machine (where the browser comes from)."""
    _need_browser()
    tmp = tmp_path_factory.mktemp("integrity-room")
    settings = RoomSettings(
        tables=tuple(demo_tables(TIMING, games=("holdem",))),
        integrity=IntegritySettings(separate_linked=True),
    )
    manager = serve_room(tmp, settings, durable=False)

    async def setup(r: Room) -> None:
        store = r.live.room.store
        await store.accounts.register(ADMIN, PASSWORD, role=Role.ADMIN)
        ann = await store.accounts.register("houseann", PASSWORD)
        bob = await store.accounts.register("housebob", PASSWORD)
        await store.logins.record(ann.id, "203.0.113.50", DEVICE, "Mozilla/5.0 AnnBrowser")
        await store.logins.record(bob.id, "198.51.100.60", DEVICE, "Mozilla/5.0 AnnBrowser")
        r.bots += await start_bots(
            r.url, 1, ["caller"], tables=[TABLE], think=(0.05, 0.2), prefix="ib", seed=5
        )
        bot = r.bots[0][0]
        table = r.live.room.tables[TABLE].table
        await until(lambda: bool(table.seats), timeout=30, what="the bot seated")
        account = await store.accounts.find(bot.name)
        await store.logins.record(account.id, "127.0.0.1", None, "pokerroom-bot")

    with room_in_thread("integrity-room", manager, setup) as r:
        yield r


def _console(page: Any, room: Room, where: str) -> list[str]:
    return console_at(page, room.url, where, ADMIN)


def test_the_integrity_page_shows_shared_devices_and_an_accounts_logins(room: Room, page: Any) -> None:
    errors = _console(page, room, "integrity")
    shared = page.locator("#shared-connections")
    row = shared.locator("tr", has_text=DEVICE)
    assert row.locator("a").all_inner_texts() == ["houseann", "housebob"]
    assert "device" in row.inner_text()
    assert "are kept apart" in page.locator("#integrity-settings").inner_text()
    row.locator("a", has_text="houseann").click()
    page.wait_for_selector("#integrity-account")
    history = page.locator("#login-history tr")
    assert history.count() == 2  # the header and the one login
    assert "203.0.113.50" in history.nth(1).inner_text() and "AnnBrowser" in history.nth(1).inner_text()
    linked = page.locator("#linked-accounts tr", has_text="housebob")
    assert DEVICE in linked.inner_text()
    linked.locator("a", has_text="housebob").click()
    page.wait_for_selector("#login-history >> text=198.51.100.60")
    assert errors == []


def test_a_player_linked_to_one_at_the_table_is_told_why_he_cannot_sit(room: Room, page: Any) -> None:
    player = Player(page, room.url)
    player.register()  # from this machine: the bot at the table logged in from here
    page.click(f'button.open-table[data-table="{TABLE}"]')
    tile = player.tile(TABLE)
    tile.locator(".sit-btn").first.click()
    page.locator("dialog.sit-dialog .sit-confirm").click()
    notice = tile.locator('.notice[data-code="shared_connection"]')
    notice.wait_for()
    assert "shares your address or device" in notice.inner_text()
    assert tile.get_attribute("data-seated") != "yes"
    live = room.live.room.tables[TABLE].table
    wait_until(lambda: len(live.seats) == 1, timeout=5, what="only the bot seated")
    assert player.errors == []


def test_the_chat_pages_search_the_log_edit_the_filter_mute_and_close_reports(room: Room, page: Any) -> None:
    async def seed() -> None:
        store = room.live.room.store
        bob = await store.accounts.find("housebob")
        ann = await store.accounts.find("houseann")
        await store.chat.record("holdem-pl", bob.id, "housebob", "nice hand ann", "nice hand ann")
        rude = await store.chat.record("holdem-pl", bob.id, "housebob", "you donkey", "you donkey")
        await store.chat.report(ann.id, "chat", "he insults me", table_id="holdem-pl", line_id=rude.id)

    asyncio.run_coroutine_threadsafe(seed(), room.loop).result(30)
    errors = _console(page, room, "chat")
    log = page.locator("#chat-log")
    log.locator("tr", has_text="you donkey").wait_for()
    form = page.locator("#chat-search")
    form.locator("input[name=q]").fill("NICE")
    form.locator("button").click()
    page.locator("#chat-log tr", has_text="you donkey").wait_for(state="detached")
    assert page.locator("#chat-log tr").count() == 2  # the header and the line
    assert "nice hand ann" in log.inner_text() and "donkey" not in log.inner_text()
    page.locator("#chat-words-form textarea").fill("donkey\nfish")
    page.locator("#chat-words-form button").click()
    page.wait_for_selector("#console-status >> text=Word filter saved")
    # (the page is drawn again after an action: read it afresh before filling the next form)
    page.reload()
    page.wait_for_selector('.console-page[data-page="chat"] #mute-form')
    assert page.locator("#chat-words-form textarea").input_value() == "donkey\nfish"
    mute = page.locator("#mute-form")
    mute.locator("input[name=name]").fill("housebob")
    mute.locator("input[name=minutes]").fill("30")
    mute.locator("input[name=reason]").fill("insults at holdem-pl")
    mute.locator("button").click()
    page.wait_for_selector("#console-status >> text=housebob muted")
    row = page.locator("#room-mutes tr", has_text="housebob")
    row.wait_for()
    assert "insults at holdem-pl" in row.inner_text() and ADMIN in row.inner_text()
    row.locator("button.lift-mute").click()
    page.wait_for_selector("#console-status >> text=housebob may chat again")
    page.locator("#room-mutes tr", has_text="housebob").wait_for(state="detached")

    page.goto(f"{room.url}/static/console.html#player-reports")
    report = page.locator("#player-reports tr", has_text="he insults me")
    report.wait_for()
    assert "housebob: you donkey" in report.inner_text() and "houseann" in report.inner_text()
    report.locator("button.close-report").click()
    page.wait_for_selector('#player-reports tr[data-status="closed"]')
    assert f"closed by {ADMIN}" in page.locator('#player-reports tr[data-status="closed"]').inner_text()
    page.goto(f"{room.url}/static/console.html#audit")
    audit = page.locator("#audit-log")
    audit.locator("tr", has_text="chat.mute").wait_for()
    assert "insults at holdem-pl" in audit.locator('tr[data-action="chat.mute"]').inner_text()
    assert audit.locator('tr[data-action="chat.words"]').count() == 1
    assert errors == []


def test_notes_are_written_and_shown_beside_the_account_and_its_flags(room: Room, page: Any) -> None:
    async def ids() -> tuple[int, int]:
        store = room.live.room.store
        ann = await store.accounts.find("houseann")
        boss = await store.accounts.find(ADMIN)
        await store.notes.add(ann.id, boss.id, ADMIN, "phoned: her brother plays from the same flat")
        return ann.id, boss.id

    ann, _ = asyncio.run_coroutine_threadsafe(ids(), room.loop).result(30)
    errors = _console(page, room, f"players/{ann}")
    page.wait_for_selector("#player-detail #notes-section")
    flags = page.locator("#player-flags")
    assert "1 account(s) share an address or a device" in flags.inner_text()  # housebob, by the device
    notes = page.locator("#player-notes li")
    assert notes.count() == 1 and "her brother plays from the same flat" in notes.first.inner_text()
    assert ADMIN in notes.first.inner_text()
    page.locator("#note-form textarea").fill("second note: warned about sharing the device")
    page.locator("#note-form button").click()
    page.wait_for_selector("#player-notes li >> text=second note: warned about sharing the device")
    assert (
        page.locator("#player-notes li")
        .first.inner_text()
        .endswith("second note: warned about sharing the device")
    )
    # the same notes beside the account's logins on the Integrity page
    flags.locator("a").click()
    page.wait_for_selector("#integrity-account #player-notes")
    assert page.locator("#integrity-account #player-notes li").count() == 2
    assert errors == []
