"""Small helpers for tests that talk to a live server over HTTP and WebSocket."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import orjson
import websockets

from .conftest import LiveServer


def auth(token: str) -> dict[str, str]:
    """Headers that log a WebSocket in with a session token: the session cookie (never ``?token=``)."""
    return {"Cookie": f"pokerroom_token={token}"}


async def register(s: LiveServer, name: str, password: str = "hunter-22-poker") -> str:
    async with httpx.AsyncClient(timeout=60) as http:  # (a password hash, on a busy machine)
        r = await http.post(f"{s.url}/api/register", json={"name": name, "password": password})
        assert r.status_code == 200, r.text
        return str(r.json()["token"])


class Wire:
    """One WebSocket client: send dicts or raw frames, read until a frame matches."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self.raw: list[str | bytes] = []  # every message as it came (a batch is one)
        self.pending: list[dict[str, Any]] = []  # frames of a batch not read yet

    @classmethod
    async def open(cls, s: LiveServer, token: str | None = None) -> Wire:
        headers = auth(token) if token else None
        w = cls(await websockets.connect(s.ws, max_size=2**22, additional_headers=headers))
        await w.until(lambda m: m["type"] == "welcome")
        return w

    async def send(self, msg: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(msg if isinstance(msg, str | bytes) else orjson.dumps(msg).decode())

    async def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
        async def loop() -> dict[str, Any]:
            while True:
                if not self.pending:
                    raw = await self.ws.recv()
                    self.raw.append(raw)
                    data = orjson.loads(raw)
                    self.pending.extend(data if isinstance(data, list) else [data])  # (a batch, in order)
                msg = self.pending.pop(0)
                self.seen.append(msg)
                if pred(msg):
                    return msg  # type: ignore[no-any-return]

        return await asyncio.wait_for(loop(), timeout)

    async def reply(self, ref: str, timeout: float = 20) -> dict[str, Any]:
        """The ack or error answering the request sent with ``ref``."""
        return await self.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == ref, timeout)

    async def close(self) -> None:
        await self.ws.close()


async def sit(w: Wire, table: str, seat: int, buy_in: int = 2000) -> dict[str, Any]:
    await w.send({"type": "subscribe", "table": table, "ref": f"sub{seat}"})
    await w.until(lambda m: m["type"] == "snapshot")
    await w.send({"type": "sit", "table": table, "seat": seat, "buy_in": buy_in, "ref": f"sit{seat}"})
    return await w.reply(f"sit{seat}")
