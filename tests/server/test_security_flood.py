"""Issue 19, defect 7: the flood counter of a connection never reset, so a long-lived client was dropped
after its 201st rate-limited frame in total, however slowly they came. Now the limit is per time window:
more than 200 refused frames within 60 seconds disconnect; older ones are forgiven."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
import websockets

from pokerroom.server.connection import FloodWindow
from pokerroom.server.room import RoomSettings
from pokerroom.server.security import SecuritySettings

from .securityhelpers import FakeMonotonic, SecureServer, secure_server
from .wire import Wire

pytestmark = pytest.mark.asyncio
SETTINGS = SecuritySettings()
BURST = int(RoomSettings().message_burst)


@pytest_asyncio.fixture
async def clock() -> FakeMonotonic:
    return FakeMonotonic()


@pytest_asyncio.fixture
async def room(tmp_path: Path, clock: FakeMonotonic) -> AsyncIterator[SecureServer]:
    async with secure_server(tmp_path, SecuritySettings(clock=clock)) as s:
        yield s


async def _burst(w: Wire, n: int) -> list[str]:
    """Send ``n`` pings at once; the answers' kinds (pong, or the error code)."""
    for i in range(n):
        await w.send({"type": "ping", "ref": f"p{i}"})
    got = [await w.until(lambda m: m["type"] in ("pong", "error")) for _ in range(n)]
    return [m.get("code", m["type"]) for m in got]


async def test_refused_frames_are_forgiven_after_the_window(room: SecureServer, clock: FakeMonotonic) -> None:
    w = await Wire.open(room)
    rounds = []
    for _ in range(8):  # 8 bursts of 30 refused frames: 240 in all, never more than 30 in a window
        rounds.append(await _burst(w, BURST + 30))
        clock.advance(SETTINGS.flood_window)
    assert all(kinds.count("pong") == BURST for kinds in rounds)
    refused = sum(kinds.count("rate_limited") for kinds in rounds)
    assert refused == 8 * 30 > SETTINGS.flood_strikes
    await w.send({"type": "ping", "ref": "alive"})
    assert (await w.until(lambda m: m["type"] == "pong"))["ref"] == "alive"
    await w.close()


async def test_a_flood_within_one_window_still_disconnects(room: SecureServer, clock: FakeMonotonic) -> None:
    w = await Wire.open(room)
    with pytest.raises(websockets.ConnectionClosed):
        for i in range(BURST + SETTINGS.flood_strikes + 1):
            await w.send({"type": "ping", "ref": f"f{i}"})
        await w.until(lambda m: False)


async def test_the_window_slides() -> None:
    flood = FloodWindow(limit=3, window=10.0)
    assert not any(flood.strike(t) for t in (0.0, 1.0, 2.0))
    assert flood.strike(3.0)  # a 4th within 10 s
    flood = FloodWindow(limit=3, window=10.0)
    assert not any(flood.strike(t) for t in (0.0, 1.0, 2.0, 10.0, 11.0, 12.0, 20.5))
    assert flood.strikes == 3
    with pytest.raises(ValueError):
        FloodWindow(limit=0)
