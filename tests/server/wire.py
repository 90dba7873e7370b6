"""The helpers of the tests that talk to a live server over HTTP and WebSocket, in one place (issue 33):
register a player, read his wallet, read frames until one matches (naming it when it never comes), stop
bots. ``tests.waiting`` has the polling helper."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from typing import Any

import httpx
import orjson
import websockets

from pokerroom.store import PLAY, AccountKind, Store
from tests.waiting import describe, within

from .conftest import LiveServer

PASSWORD = "hunter-22-poker"  # (a password the policy accepts)

FramePredicate = Callable[[dict[str, Any]], object]  # (a truthy answer matches)


def auth(token: str) -> dict[str, str]:
    """Headers that log a WebSocket in with a session token: the session cookie (never ``?token=``)."""
    return {"Cookie": f"pokerroom_token={token}"}


def bearer(token: str) -> dict[str, str]:
    """Headers that log an HTTP request in with a session token."""
    return {"Authorization": f"Bearer {token}"}


async def register(s: LiveServer, name: str, password: str = PASSWORD) -> str:
    """Register ``name`` over HTTP; returns his session token."""
    async with httpx.AsyncClient(timeout=60) as http:  # (a password hash, on a busy machine)
        r = await http.post(f"{s.url}/api/register", json={"name": name, "password": password})
        assert r.status_code == 200, r.text
        return str(r.json()["token"])


async def balance(s: LiveServer, token: str, currency: str = PLAY) -> int:
    """The wallet of the player whose token this is, in ``currency``, as /api/account tells him."""
    async with httpx.AsyncClient(base_url=s.url, timeout=30) as http:
        r = await http.get("/api/account", headers=bearer(token))
        assert r.status_code == 200, r.text
        return int(r.json()["balances"][currency])


async def prize_pool(store: Store, tid: str) -> int:
    """What tournament ``tid``'s prize pool holds (PLAY)."""
    ledger = store.ledger
    return (await ledger.get_account(await ledger.account(AccountKind.PRIZE_POOL, PLAY, ref=tid))).balance


async def stop_bots(bots: Iterable[tuple[Any, asyncio.Task[Any]]]) -> None:
    """Stop bots started by ``start_bots`` and its kin, and wait until their tasks have ended."""
    for bot, task in bots:
        await bot.stop()
        task.cancel()
        with contextlib.suppress(BaseException):
            await task


class Frame:
    """A frame predicate that says what it waits for: ``Frame("snapshot", table="holdem-nl")`` matches a
    frame of that type (or of one of several types) whose fields have these values; ``a | b`` matches
    what either matches."""

    def __init__(self, kind: str | tuple[str, ...], **fields: object) -> None:
        self.kinds = (kind,) if isinstance(kind, str) else kind
        self.fields = fields

    def __call__(self, m: dict[str, Any]) -> bool:
        return m.get("type") in self.kinds and all(m.get(k) == v for k, v in self.fields.items())

    def __or__(self, other: Frame) -> AnyFrame:
        return AnyFrame(self, other)

    def __repr__(self) -> str:
        kinds = " or ".join(repr(k) for k in self.kinds)
        fields = ", ".join(f"{k}={v!r}" for k, v in self.fields.items())
        return f"a {kinds} frame" + (f" with {fields}" if fields else "")


class AnyFrame:
    """Frames that match any of several :class:`Frame` predicates."""

    def __init__(self, *frames: Frame) -> None:
        self.frames = frames

    def __call__(self, m: dict[str, Any]) -> bool:
        return any(f(m) for f in self.frames)

    def __repr__(self) -> str:
        return " or ".join(repr(f) for f in self.frames)


def _brief(frame: object, limit: int = 160) -> str:
    text = repr(frame)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _last(frames: list[dict[str, Any]], count: int = 8) -> str:
    if not frames:
        return "no frame at all"
    return "the last frames read: " + "; ".join(_brief(f) for f in frames[-count:])


async def recv_until(
    ws: Any, pred: FramePredicate, timeout: float = 30, what: str | None = None
) -> dict[str, Any]:
    """Read a raw websocket until a frame matches ``pred``; NotWithin names it (and the frames read)."""
    seen: list[dict[str, Any]] = []

    async def loop() -> dict[str, Any]:
        while True:
            msg: dict[str, Any] = orjson.loads(await ws.recv())
            seen.append(msg)
            if pred(msg):
                return msg

    return await within(loop(), timeout=timeout, what=what or describe(pred), show=lambda: _last(seen))


async def send(ws: Any, msg: dict[str, Any]) -> None:
    """Send ``msg`` as JSON on a raw websocket."""
    await ws.send(orjson.dumps(msg).decode())


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
        await w.until(Frame("welcome"))
        return w

    async def send(self, msg: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(msg if isinstance(msg, str | bytes) else orjson.dumps(msg).decode())

    async def until(
        self, pred: FramePredicate, timeout: float = 20, what: str | None = None
    ) -> dict[str, Any]:
        """The next frame that matches ``pred`` (the frames before it are read and kept in ``seen``); after
        ``timeout`` seconds NotWithin names what was awaited (``what``, else ``pred`` itself) and the last
        frames read. A connection closed meanwhile raises websockets' ConnectionClosed."""

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
                    return msg

        return await within(
            loop(), timeout=timeout, what=what or describe(pred), show=lambda: _last(self.seen)
        )

    async def reply(self, ref: str, timeout: float = 20) -> dict[str, Any]:
        """The ack or error answering the request sent with ``ref``."""
        return await self.until(Frame(("ack", "error"), ref=ref), timeout)

    async def close(self) -> None:
        await self.ws.close()


async def sit(w: Wire, table: str, seat: int, buy_in: int = 2000) -> dict[str, Any]:
    await w.send({"type": "subscribe", "table": table, "ref": f"sub{seat}"})
    await w.until(Frame("snapshot"))
    await w.send({"type": "sit", "table": table, "seat": seat, "buy_in": buy_in, "ref": f"sit{seat}"})
    return await w.reply(f"sit{seat}")
