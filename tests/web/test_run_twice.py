"""Run it twice in chromium (issue 20, R-RIT): a heads-up cash table that allows it, a calling bot, and the
browser player who moves all-in. The action bar asks "Run it twice?" with Yes and No buttons; after Yes
(the bot agrees too) the second board is drawn under the first and the hand log names each run."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pokerroom.bots.runner import start_bots
from pokerroom.engine import Betting, Stakes
from pokerroom.rooms import TableConfig
from pokerroom.server.room import RoomSettings
from tests.server.conftest import LiveServer, serve_room
from tests.web.conftest import TIMING, Room, _need_browser, room_in_thread
from tests.web.player import Player

TABLE = "rit-holdem"
CONFIG = TableConfig(
    TABLE, "Run It Twice Hold'em NL", "holdem", Betting.NO_LIMIT, Stakes.blinds(10, 20), 2,
    timing=replace(TIMING, between_hands=4.0), run_it_twice=True,  # time to look at the two boards
)  # fmt: skip


@contextlib.asynccontextmanager
async def _served(tmp: Path) -> AsyncIterator[LiveServer]:
    async with serve_room(tmp, RoomSettings(tables=(CONFIG,))) as live:
        yield live


@pytest.fixture(scope="module")
def rit_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    _need_browser()

    async def setup(r: Room) -> None:  # a caller: calls every bet and always agrees to run twice
        r.bots += await start_bots(
            r.url, 1, ("caller",), tables=[TABLE], think=(0.05, 0.2), prefix="rit", seed=1
        )

    with room_in_thread("rit-room", _served(tmp_path_factory.mktemp("rit-room")), setup) as r:
        yield r


def test_the_player_is_asked_and_sees_two_boards(rit_room: Room, page: Any, screenshots: Path) -> None:
    player = Player(page, rit_room.url)
    player.register()
    tile = player.open_and_sit(TABLE)
    asked = False
    deadline = time.monotonic() + 120
    boxes = None  # the two boards' tops, read at once (the next hand clears the table soon after)
    measure = f"""(() => {{
      const tile = document.querySelector('.tile[data-table="{TABLE}"]');
      const two = tile && tile.querySelector('.board2');
      if (!two || two.querySelectorAll('.card').length < 5) return null;
      const one = tile.querySelector('.center > .board:not(.board2)');
      return [one.getBoundingClientRect().top, two.getBoundingClientRect().top,
              one.querySelectorAll('.card').length];
    }})()"""
    while (boxes := page.evaluate(measure)) is None:
        assert time.monotonic() < deadline, f"no second board (asked: {asked}, errors: {player.errors})"
        bar = tile.locator(".actionbar[data-kind]")
        if bar.count() == 0:
            if tile.locator(".sit-in-btn").count():
                tile.locator(".sit-in-btn").first.dispatch_event("click")
            page.wait_for_timeout(80)
            continue
        kind = bar.get_attribute("data-kind")
        with contextlib.suppress(Exception):  # the hand may move on while we click
            if kind == "run_twice":
                assert bar.locator(".run-twice-question").inner_text() == "Run it twice?"
                assert bar.locator('button[data-action="run_twice_no"]').count() == 1
                bar.locator('button[data-action="run_twice_yes"]').dispatch_event("click")
                asked = True
            elif bar.locator('button[data-preset="max"]').count():  # all-in
                bar.locator('button[data-preset="max"]').dispatch_event("click")
                bar.locator('button[data-action="raise"]').dispatch_event("click")
            else:
                for name in ("call", "check"):
                    button = bar.locator(f'button[data-action="{name}"]')
                    if button.count():
                        button.first.dispatch_event("click")
                        break
        page.wait_for_timeout(60)
    assert asked
    assert any('"action":{"type":"run_twice","agree":true}' in text for text in player.sent)
    assert not player.errors
    page.screenshot(path=str(screenshots / "run-twice.png"))
    first_top, second_top, first_cards = boxes
    assert second_top > first_top and first_cards == 5  # the second board under the first
    # the pots, paid per run once the run-out has played (a beat per street)
    tile.locator(".result", has_text="(second run)").first.wait_for(timeout=15_000)
    results = tile.locator(".result").all_inner_texts()
    assert any("(first run)" in t for t in results), results
    page.screenshot(path=str(screenshots / "run-twice-paid.png"))
