"""Issue 30, item 4 in chromium, at a table: the word filter masks a word in the line the other player
sees; he reports the line to the staff (kept with his reason) and mutes its speaker for himself, whose
next lines no longer reach him while they still reach the speaker."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from tests.server.conftest import serve_room
from tests.waiting import wait_until
from tests.web.conftest import TIMING, Room, _need_browser, browser_page, room_in_thread
from tests.web.player import Player

TABLE = "holdem-pl"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """A room of its own (the hold'em tables, no bots) whose word filter hides "darn"."""
    _need_browser()
    tmp = tmp_path_factory.mktemp("chat-room")
    manager = serve_room(
        tmp, RoomSettings(tables=tuple(demo_tables(TIMING, games=("holdem",)))), durable=False
    )

    async def setup(r: Room) -> None:
        await r.live.room.store.chat.set_words(["darn"])

    with room_in_thread("chat-room", manager, setup) as r:
        yield r


def _say(player: Player, text: str) -> None:
    tile = player.tile(TABLE)
    tile.locator(".chat-input").fill(text)
    tile.locator(".chat-form button").click()


def _line(player: Player, text: str) -> Any:
    return player.tile(TABLE).locator(".chat-log li", has_text=text)


def test_a_player_sees_the_filter_reports_a_line_and_mutes_its_speaker(room: Room, browser: Any) -> None:
    with (
        browser_page(browser, viewport={"width": 1280, "height": 900}) as page_a,
        browser_page(browser, viewport={"width": 1280, "height": 900}) as page_b,
    ):
        speaker, listener = Player(page_a, room.url), Player(page_b, room.url)
        for p in (speaker, listener):
            p.register()
            p.open_and_sit(TABLE)
        _say(speaker, "darn that river")
        seen = _line(listener, "**** that river")
        seen.wait_for()
        assert _line(speaker, "**** that river").count() == 1  # the speaker sees what the table saw
        assert speaker.tile(TABLE).locator(".chat-log li .chat-mute").count() == 0  # no tools on his own

        page_b.once("dialog", lambda d: d.accept("swearing at the table"))
        seen.locator(".chat-report").click()
        listener.tile(TABLE).locator(".notice", has_text="the room's staff will look at it").wait_for()

        async def reports() -> list[Any]:
            return await room.live.room.store.chat.reports()

        (report,) = asyncio.run_coroutine_threadsafe(reports(), room.loop).result(30)
        assert report.reason == "swearing at the table" and report.line is not None
        assert report.line.text == "darn that river" and report.reporter_name == listener.name

        seen.locator(".chat-mute").click()
        listener.tile(TABLE).locator(".notice", has_text=f"You muted {speaker.name}").wait_for()
        _say(speaker, "second line")
        _line(speaker, "second line").wait_for()
        _say(listener, "ping")  # after the speaker's line on the table's one ordered stream
        _line(listener, "ping").wait_for()
        assert _line(listener, "second line").count() == 0
        wait_until(
            lambda: _line(speaker, "ping").count() == 1, timeout=10, what="the speaker hears the listener"
        )
        assert speaker.errors == [] and listener.errors == []
