"""Issue 29, item 6, in chromium: the console's rake report shows a Rush pool as one row (``kind`` rush, the
pool's id), however many short-lived tables dealt its hands, with the stakes the hands were dealt at."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pokerroom.bots.runner import start_pool_bots
from pokerroom.server.demo import demo_pools
from pokerroom.server.room import RoomSettings
from pokerroom.store import Role
from tests.server.conftest import serve_room
from tests.waiting import wait_until
from tests.web.conftest import Room, _need_browser, room_in_thread
from tests.web.player import PASSWORD
from tests.web.test_console import console

ADMIN = "consoleboss"
POOL = "rush-holdem-nl-6max"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    _need_browser()
    tmp = tmp_path_factory.mktemp("rake-room")
    pools = tuple(p for p in demo_pools() if p.pool_id == POOL)
    manager = serve_room(tmp, RoomSettings(pools=pools), durable=False)

    async def setup(r: Room) -> None:
        await r.live.room.store.accounts.register(ADMIN, PASSWORD, role=Role.ADMIN)
        r.bots += await start_pool_bots(r.url, POOL, 7, ["caller"], think=(0, 0.05), quick_fold=0.0, seed=9)

    with room_in_thread("rake-room", manager, setup) as r:
        yield r


def test_the_rake_report_has_one_row_for_the_rush_pool(room: Room, page: Any) -> None:
    pool = room.live.room.pools[POOL]
    wait_until(lambda: pool.hands_played >= 3, timeout=120, what="three Rush hands")
    errors = console(page, room, "reports")
    rows = page.locator("#report-rake tr", has_text=POOL)
    rows.first.wait_for()
    text = rows.first.inner_text()
    assert "rush" in text and "10/20" in text, text
    assert page.locator("#report-rake tr", has_text=f"{POOL}-t").count() == 0  # no row per Rush table
    assert rows.count() == 1
    assert errors == []
