"""The NATS connection of a node. It connects (and reconnects, for ever) by itself; callers see whether
it is up (:attr:`Bus.up`, :meth:`Bus.down_for`) and get :class:`BusUnavailable` from a request that
cannot be answered now (no host holds the table, or the bus is down)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import nats
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.errors import ConnectionClosedError, NoRespondersError, NoServersError
from nats.errors import TimeoutError as NatsTimeout

__all__ = ["Bus", "BusUnavailable", "Msg"]

log = logging.getLogger("pokerroom.bus")

Handler = Callable[[Msg], Awaitable[None]]


class BusUnavailable(Exception):
    """Nobody answered on the bus: the table's host is gone (another takes it over within seconds) or the
    bus itself is down."""

    code = "room_unavailable"


class Bus:
    def __init__(self, url: str, name: str) -> None:
        self.url = url
        self.name = name
        self.nc: Client | None = None
        self.up = False
        self._down_since: float | None = time.monotonic()
        self.up_since = 0.0  # when it last (re)connected (time.monotonic)
        self._subs: list[tuple[str, str, Handler]] = []
        self.on_reconnect: Callable[[], Awaitable[None]] | None = None

    async def connect(self, *, attempts: int | None = None) -> None:
        """Connect, trying every second (``attempts`` times, or for ever)."""
        tried = 0
        while True:
            try:
                self.nc = await nats.connect(
                    self.url,
                    name=self.name,
                    allow_reconnect=True,
                    max_reconnect_attempts=-1,
                    reconnect_time_wait=0.5,
                    connect_timeout=2,
                    ping_interval=2,
                    max_outstanding_pings=2,
                    disconnected_cb=self._disconnected,
                    reconnected_cb=self._reconnected,
                    error_cb=self._error,
                )
                break
            except (TimeoutError, OSError, NoServersError, NatsTimeout) as exc:
                tried += 1
                if attempts is not None and tried >= attempts:
                    raise BusUnavailable(f"cannot reach NATS at {self.url}: {exc}") from None
                log.warning("cannot reach NATS at %s (%s); trying again", self.url, type(exc).__name__)
                await asyncio.sleep(1.0)
        self.up, self._down_since, self.up_since = True, None, time.monotonic()
        for subject, queue, handler in self._subs:
            await self.nc.subscribe(subject, queue=queue, cb=handler)

    def down_for(self) -> float:
        """Seconds since the bus went down (0 while it is up)."""
        return 0.0 if self._down_since is None else time.monotonic() - self._down_since

    async def _disconnected(self) -> None:
        if self.up:
            log.warning("%s lost the bus", self.name)
        self.up = False
        self._down_since = self._down_since or time.monotonic()

    async def _reconnected(self) -> None:
        log.warning("%s reconnected to the bus", self.name)
        self.up, self._down_since, self.up_since = True, None, time.monotonic()
        if self.on_reconnect is not None:
            await self.on_reconnect()

    async def _error(self, exc: Exception) -> None:
        log.info("bus: %s", exc)

    async def subscribe(self, subject: str, handler: Handler, *, queue: str = "") -> Any:
        """Subscribe now (and again after a fresh connect). Messages of one subscription are handled one
        at a time, in order."""
        self._subs.append((subject, queue, handler))
        assert self.nc is not None
        return await self.nc.subscribe(subject, queue=queue, cb=handler)

    async def unsubscribe(self, subject: str, subscription: Any) -> None:
        self._subs = [x for x in self._subs if x[0] != subject]
        with contextlib.suppress(Exception):
            await subscription.unsubscribe()

    async def publish(self, subject: str, payload: bytes, reply: str = "") -> None:
        """Send (buffered while the bus reconnects; dropped when it is closed)."""
        if self.nc is None or self.nc.is_closed:
            return
        try:
            await self.nc.publish(subject, payload, reply=reply)
        except (ConnectionClosedError, OSError) as exc:
            log.info("bus: could not publish on %s (%s)", subject, type(exc).__name__)

    async def request(self, subject: str, payload: bytes, timeout: float = 5.0) -> bytes:
        if self.nc is None or not self.up:
            raise BusUnavailable("the bus is down")
        try:
            msg = await self.nc.request(subject, payload, timeout=timeout)
        except (TimeoutError, NoRespondersError, NatsTimeout, ConnectionClosedError) as exc:
            raise BusUnavailable(f"no answer on {subject} ({type(exc).__name__})") from None
        return bytes(msg.data)

    async def gather(self, subject: str, payload: bytes, *, expect: int, timeout: float = 1.0) -> list[bytes]:
        """Ask every subscriber of ``subject`` and collect the answers: ``expect`` of them, or what came
        within ``timeout``."""
        if self.nc is None or not self.up:
            return []
        inbox = self.nc.new_inbox()
        answers: list[bytes] = []
        done = asyncio.Event()

        async def collect(msg: Msg) -> None:
            answers.append(bytes(msg.data))
            if len(answers) >= expect:
                done.set()

        sub = await self.nc.subscribe(inbox, cb=collect)
        try:
            await self.nc.publish(subject, payload, reply=inbox)
            if expect > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(done.wait(), timeout)
        finally:
            await sub.unsubscribe()
        return answers

    def stats(self) -> dict[str, int]:
        """Messages and bytes in and out since the start (the NATS client's counts)."""
        return {k: int(v) for k, v in (self.nc.stats if self.nc is not None else {}).items()}

    async def close(self) -> None:
        if self.nc is not None and not self.nc.is_closed:
            try:
                await asyncio.wait_for(self.nc.drain(), 5)
            except Exception:  # closing anyway
                await self.nc.close()
        self.up = False
