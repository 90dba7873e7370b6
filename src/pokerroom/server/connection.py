"""One client connection: an outbound queue (written straight to the socket when it can be, else by the
connection's own task), and rate limits on what comes in."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from pokerroom.server.ids import PlayerKey

__all__ = [
    "SESSION_ENDED",
    "Connection",
    "DirectWrite",
    "FloodWindow",
    "Head",
    "TokenBucket",
    "head_of",
    "send_frame",
]

SESSION_ENDED = 4401  # the close code of a socket whose login session ended (logout, expiry)

Head = tuple[str, str, int]
"""A table frame's type, table and ``seq``, said by whoever made the frame: what carries it between
processes (docs/cluster.md) without anybody reading its text again."""


def head_of(frame: Mapping[str, Any]) -> Head | None:
    """The head of a frame being made (a dict, not text): None for a frame without a table number."""
    table, seq = frame.get("table"), frame.get("seq")
    if type(table) is str and type(seq) is int:
        return frame["type"], table, seq
    return None


def send_frame(send: Callable[[str, Head | None], None], frame: Mapping[str, Any]) -> None:
    """Encode ``frame`` and send it with its head."""
    send(orjson.dumps(frame).decode(), head_of(frame))


@dataclass(slots=True)
class TokenBucket:
    """``rate`` tokens per second up to ``burst``; :meth:`take` is False when the bucket is empty."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class FloodWindow:
    """Counts a connection's refused (rate-limited) frames over a sliding window: :meth:`strike` is True
    once more than ``limit`` of them fell within the last ``window`` seconds. Strikes older than the window
    are forgiven, so a long-lived client that is slowed now and then is never dropped for its total."""

    __slots__ = ("_times", "limit", "window")

    def __init__(self, limit: int = 200, window: float = 60.0) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("a flood window needs limit >= 1 and window > 0")
        self.limit = limit
        self.window = window
        self._times: deque[float] = deque()

    def strike(self, now: float) -> bool:
        """Record one refused frame at ``now`` (monotonic seconds); True when the client is flooding."""
        times = self._times
        while times and now - times[0] >= self.window:
            times.popleft()
        times.append(now)
        return len(times) > self.limit

    @property
    def strikes(self) -> int:
        """Strikes recorded and not yet forgiven (as of the last :meth:`strike`)."""
        return len(self._times)


MAX_BATCH = 256  # frames in one batched message at most


class DirectWrite(Protocol):
    """A socket that takes a text message at once, without a coroutine: :meth:`ready` says whether
    :meth:`write` can hand one to the transport now (open, accepted, not closing, not paused by flow
    control). server/uvicorn_direct.py makes one for uvicorn's WebSocket protocol (server/ws.py asks it
    for every accepted socket); any other socket has none and gets the ASGI send."""

    def ready(self) -> bool: ...

    def write(self, text: str) -> None: ...


class Connection:
    """A WebSocket client as the room sees it. ``send`` never blocks: frames are queued and written later
    (below); a client that does not read (queue over ``max_queue``) is disconnected.

    A client that asked for ``batch`` (in its ``hello``) gets the frames that are queued together (one
    action's events and turn frames, a hand's end) as one WebSocket message, a JSON array in order: one
    write instead of one per frame, the largest single cost of the server per action (docs/server-speed.md).

    With a ``direct`` writer, the frames queued while the writer task is idle are written by one callback
    at the end of the loop's current step (the same frames go together as the task would have sent
    together), straight to the socket: no task step, future and coroutine chain per message. Whenever
    the socket cannot take them at once (flow control, closing) or a close is queued, the writer task
    takes over, and the callback writes nothing until the task is idle again, so the order holds.
    """

    def __init__(
        self,
        send_text: Callable[[str], Awaitable[None]],
        close: Callable[[int], Awaitable[None]],
        *,
        max_queue: int = 2000,
        direct: DirectWrite | None = None,
    ) -> None:
        self._send_text = send_text
        self._close = close
        self._direct = direct
        self._flush_due = False  # the direct writer's callback is scheduled
        self._out: deque[str | None] = deque()  # (None: close after what is before it)
        self._wake: asyncio.Future[None] | None = None  # the writer waits on it while nothing is queued
        self.max_queue = max_queue
        self.player: PlayerKey | None = None  # the logged-in player (server.ids)
        self.name: str = ""
        self.session_token: str | None = None  # set while the socket is logged in (sessions.SessionSockets)
        self.close_code: int | None = None  # the close code :meth:`end` asked for
        self.tables: set[str] = set()
        self.messages = TokenBucket(rate=20, burst=40)
        self.chats = TokenBucket(rate=0.5, burst=3)
        self.closed = False
        self.batch = False  # frames queued together go out as one JSON array (the client asked for it)
        self._writer: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._writer = self._loop.create_task(self._drain())

    def send(self, text: str, head: Head | None = None) -> None:
        """Queue ``text`` for the socket (``head``: the frame's table and number, for a connection that
        forwards frames to another process; a socket has no use for it)."""
        if self.closed:
            return
        if len(self._out) >= self.max_queue:
            self.closed = True
            self._put(None)
            return
        self._put(text)

    @property
    def pending(self) -> int:
        """Frames queued and not yet handed to the socket."""
        return len(self._out)

    def _put(self, item: str | None) -> None:
        """Queue ``item`` and wake the writer (a deque and one future: less work per frame than an
        ``asyncio.Queue``, whose put and get showed in the server's profile)."""
        self._out.append(item)
        if self._wake is None:  # the writer is busy (or not started): it takes what is queued
            return
        if item is not None and self._direct is not None and self._loop is not None:
            if not self._flush_due:
                self._flush_due = True
                self._loop.call_soon(self._flush)
            return
        self._wake_writer()

    def _flush(self) -> None:
        """The direct writer's callback: write what is queued while the writer task is idle; hand the
        rest to the task when the socket cannot take it now or a close is queued."""
        self._flush_due = False
        direct = self._direct
        out = self._out
        if self._wake is None or direct is None:  # the task is writing: it takes the queue in order
            return
        try:
            while out and out[0] is not None and direct.ready():
                direct.write(self._take())
        except Exception:  # the socket went away; the writer task closes it
            self.closed = True
            self._wake_writer()
            return
        if out:
            self._wake_writer()

    def _wake_writer(self) -> None:
        wake, self._wake = self._wake, None
        if wake is not None and not wake.done():
            wake.set_result(None)

    def _take(self) -> str:
        """The next message: one frame, or (batch) the frames queued up to a close or MAX_BATCH as a JSON
        array (a lone frame goes bare). The head of the queue is a frame, not a close."""
        out = self._out
        if not self.batch or len(out) == 1 or out[1] is None:
            text = out.popleft()
            assert text is not None
            return text
        texts: list[str] = []
        while out and out[0] is not None and len(texts) < MAX_BATCH:
            text = out.popleft()
            assert text is not None
            texts.append(text)
        return "[" + ",".join(texts) + "]"

    async def _drain(self) -> None:
        out = self._out
        loop = asyncio.get_running_loop()
        try:
            while True:
                if not out:
                    self._wake = loop.create_future()
                    await self._wake
                    continue
                if out[0] is None:
                    break
                await self._send_text(self._take())
        except Exception:  # the socket went away; the reader notices and cleans up
            self.closed = True
        finally:
            with contextlib.suppress(Exception):
                code = self.close_code if self.close_code is not None else 1008 if self.closed else 1000
                await self._close(code)

    def end(self, frame: str, code: int) -> None:
        """Send ``frame``, then close the socket with ``code`` (what is queued before it still goes out)."""
        if self.closed:
            return
        self._put(frame)
        self.close_code = code
        self.closed = True
        self._put(None)

    async def stop(self) -> None:
        self.closed = True
        self._put(None)
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._writer, 2)
