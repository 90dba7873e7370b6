"""Issue 31, defect 9, in chromium: the login page of a room with ``[room] demo_account`` says that the
account exists, with its documented password (GET /api/room); test_table_pass2_small checks that a room
without one says nothing of it."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from tests.server.conftest import LiveServer, serve_room
from tests.web.conftest import TIMING, Room, _need_browser, room_in_thread
from tests.web.test_table_pass2_small import login_hint

DEMO = ("demo", "play-poker-for-fun")


@contextlib.asynccontextmanager
async def _demo_room(tmp: Path) -> AsyncIterator[LiveServer]:
    settings = RoomSettings(tables=tuple(demo_tables(TIMING))[:1], demo_account=DEMO)
    async with serve_room(tmp, settings) as live:
        yield live


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """A room of one table with the demo account on."""
    _need_browser()

    async def setup(r: Room) -> None:
        return None

    with room_in_thread("demo-room", _demo_room(tmp_path_factory.mktemp("demo-room")), setup) as r:
        yield r


def test_the_login_page_names_the_demo_account(room: Room, browser: Any) -> None:
    shown, text = login_hint(browser, room.url)
    assert shown and "demo" in text and "play-poker-for-fun" in text, text
