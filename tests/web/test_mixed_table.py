"""A H.O.R.S.E. table in chromium (issue 36, RULES.md §11.1): rounds of one hand, a calling bot and the
browser player, who checks or calls. The lobby names the mix with its game now and next; the table's
header names the mix, the game now, the next game and the hands left in the round; after the game changes
it names the new game, and the player is dealt its cards (four in Omaha hi/lo, after two in hold'em)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from pokerroom.bots.runner import start_bots
from pokerroom.engine import Betting, Stakes
from pokerroom.rooms import TableConfig
from pokerroom.server.room import RoomSettings
from tests.server.conftest import LiveServer, serve_room
from tests.web.conftest import TIMING, Room, _need_browser, room_in_thread
from tests.web.player import Player, Seen

TABLE = "horse-mix"
CONFIG = TableConfig(
    TABLE, "H.O.R.S.E.", "holdem", Betting.FIXED_LIMIT, Stakes.fixed_limit(20, 40), 2, timing=TIMING,
    mix="horse", round_hands=1,
)  # fmt: skip


@contextlib.asynccontextmanager
async def _served(tmp: Path) -> AsyncIterator[LiveServer]:
    async with serve_room(tmp, RoomSettings(tables=(CONFIG,))) as live:
        yield live


@pytest.fixture(scope="module")
def horse_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    _need_browser()

    async def setup(r: Room) -> None:
        r.bots += await start_bots(
            r.url, 1, ("caller",), tables=[TABLE], think=(0.05, 0.2), prefix="horse", seed=1
        )

    with room_in_thread("horse-room", _served(tmp_path_factory.mktemp("horse-room")), setup) as r:
        yield r


def test_the_header_follows_the_game_change(horse_room: Room, page: Any, screenshots: Path) -> None:
    player = Player(page, horse_room.url)
    player.register()
    row = page.locator(".lobby-table tbody tr", has_text="H.O.R.S.E.: FL ")  # the mix, its game now and next
    row.first.wait_for(timeout=10_000)
    assert ", then FL " in row.first.inner_text()
    tile = player.open_and_sit(TABLE)
    mix = tile.locator(".mix")
    mix.wait_for(timeout=20_000)
    seen: list[str] = []
    dealt: set[tuple[str, int]] = set()  # (the game the header names, the player's cards)

    def omaha_dealt(_: Seen, tile: Any) -> bool:
        """Notes the header and the cards at each look; true once four cards come in Omaha hi/lo."""
        text = mix.inner_text()
        if not seen or seen[-1] != text:
            seen.append(text)
        cards = tile.locator(".seat.mine .cards .card").count()
        for game in ("Texas Hold'em", "Omaha Hi/Lo"):
            if f"FL {game} now" in text and cards:
                dealt.add((game, cards))
        if tile.locator(".sit-in-btn").count():  # a timeout sat us out: come back
            tile.locator(".sit-in-btn").first.dispatch_event("click")
        return ("Omaha Hi/Lo", 4) in dealt

    player.play(TABLE, Seen(), until=omaha_dealt, timeout=120, raise_once=False)  # checks or calls
    # rounds of one hand: each hand is its round's last
    assert "H.O.R.S.E.: FL Texas Hold'em now, FL Omaha Hi/Lo next hand" in seen, seen
    assert "H.O.R.S.E.: FL Omaha Hi/Lo now, FL Razz next hand" in seen, seen
    assert ("Texas Hold'em", 2) in dealt
    assert not player.errors
    page.screenshot(path=str(screenshots / "horse-mix.png"))
