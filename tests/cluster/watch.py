"""What a test's clients of a cluster saw: every frame, and a check that none shows a card its viewer may
not see (another player's face-down cards; for an observer, every face-down card)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

import orjson
import websockets


def hidden_cards_shown(frame: dict[str, Any], own_seat: int | None) -> list[str]:
    """Face-down cards of other seats that ``frame`` shows its viewer (seated at ``own_seat``)."""
    out: list[str] = []

    def check(seat: int, cards: list[Any], up: list[bool], shown: bool = False) -> None:
        if seat == own_seat or shown:
            return
        out.extend(f"seat {seat}: {c}" for c, u in zip(cards, up, strict=False) if c != "??" and not u)

    if frame.get("type") == "event":
        e = frame["event"]
        if e["type"] == "cards_dealt":
            check(e["seat"], e["cards"], e.get("up", []))
    elif frame.get("type") == "snapshot":
        hand = (frame.get("state") or {}).get("hand") or {}
        for seat, p in (hand.get("players") or {}).items():
            check(int(seat), p.get("cards", []), p.get("up", []), bool(p.get("shown")))
    return out


@dataclass
class Watcher:
    """An anonymous observer on a gateway, subscribed to tables, keeping every frame with its time."""

    url: str
    frames: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    _ws: Any = None
    _task: asyncio.Task[None] | None = None

    async def open(self, tables: list[str]) -> None:
        self._ws = await websockets.connect(self.url.replace("http", "ws") + "/ws", max_size=2**22)
        for table in tables:
            await self._ws.send(orjson.dumps({"type": "subscribe", "table": table}).decode())
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self._ws:
                self.frames.append((time.monotonic(), orjson.loads(raw)))

    def hands_started(self, table: str, since: float) -> list[str]:
        return [
            f["hand_id"]
            for t, f in self.frames
            if t >= since and f.get("type") == "event" and f.get("table") == table
            and f["event"]["type"] == "hand_started"
        ]  # fmt: skip

    def statuses(self, table: str, since: float) -> list[str]:
        return [
            f["status"]
            for t, f in self.frames
            if t >= since and f.get("type") == "table_status" and f.get("table") == table
        ]

    def stale_notices(self, table: str) -> list[tuple[int, int]]:
        """The gateway's "paused" notices of ``table`` whose ``seq`` is not above the number of the table's
        frame before it (a browser drops those as old): (the frame's seq, the notice's)."""
        out: list[tuple[int, int]] = []
        last: int | None = None
        for _, f in self.frames:
            if f.get("table") != table or not isinstance(f.get("seq"), int):
                continue
            if f["type"] == "table_status" and f.get("status") == "paused" and last is not None:
                if f["seq"] <= last:
                    out.append((last, f["seq"]))
            last = f["seq"]
        return out

    def leaks(self) -> list[str]:
        return [x for _, f in self.frames for x in hidden_cards_shown(f, None)]

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._task is not None:
            with contextlib.suppress(BaseException):
                await self._task
