"""The NATS connection of a node. It connects (and reconnects, for ever) by itself; callers see whether
it is up (:attr:`Bus.up`, :meth:`Bus.down_for`) and get :class:`BusUnavailable` from a request that
cannot be answered now (no host holds the table, or the bus is down).

On a closed bus (docs/cluster.md, "A closed bus") the connection is TLS with the node's certificate
(:mod:`.access`), and the bus must be TLS: a server that would let the node speak in clear is left at
once (a misconfigured server, or someone in the middle). The answers to the node's requests come on its
own inbox prefix, which the bus lets no other node read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
import time
from collections.abc import Awaitable, Callable
from typing import Any

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


def encrypted(nc: Client) -> bool:
    """Whether the client's connection to NATS is TLS (read from the asyncio transport under nats-py's)."""
    writer = getattr(getattr(nc, "_transport", None), "_io_writer", None)
    get = getattr(writer, "get_extra_info", None)
    return get is not None and get("ssl_object") is not None


class Bus:
    def __init__(
        self, url: str, name: str, *, tls: ssl.SSLContext | None = None, inbox: str | None = None
    ) -> None:
        self.url = url
        self.name = name
        self.tls = tls  # a closed bus: TLS, with this node's certificate
        self.inbox = inbox  # the prefix of the answers to this node's requests
        self.nc: Client | None = None
        self.up = False
        self._down_since: float | None = time.monotonic()
        self.up_since = 0.0  # when it last (re)connected (time.monotonic)
        self._subs: list[tuple[str, str, Handler]] = []
        self.on_reconnect: Callable[[], Awaitable[None]] | None = None
        self._refused: asyncio.Future[str] | None = None  # while connecting: why NATS refuses this node
        self._warned: dict[str, float] = {}  # a refusal's text -> when it was last logged

    async def connect(self, *, attempts: int | None = None) -> None:
        """Connect, trying every second (``attempts`` times, or for ever). A server that refuses this node
        (its certificate is no user there, or the TLS handshake fails) or speaks in clear to a node with a
        certificate: :class:`BusUnavailable` at once, saying so (trying again would change nothing)."""
        tried = 0
        options: dict[str, Any] = {
            "name": self.name,
            "allow_reconnect": True,
            "max_reconnect_attempts": -1,
            "reconnect_time_wait": 0.5,
            "connect_timeout": 2,
            "ping_interval": 2,
            "max_outstanding_pings": 2,
            "disconnected_cb": self._disconnected,
            "reconnected_cb": self._reconnected,
            "error_cb": self._error,
        }
        if self.tls is not None:
            options["tls"] = self.tls
        if self.inbox is not None:
            options["inbox_prefix"] = self.inbox
        while True:
            nc = Client()
            refused: asyncio.Future[str] = asyncio.get_running_loop().create_future()
            self._refused = refused
            attempt = asyncio.ensure_future(nc.connect(self.url, **options))
            try:
                either: set[asyncio.Future[Any]] = {attempt, refused}
                await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
                if not attempt.done():  # (the client tries again by itself, for ever: stop it)
                    attempt.cancel()
                    with contextlib.suppress(BaseException):
                        await attempt
                    with contextlib.suppress(Exception):
                        await nc.close()
                    raise BusUnavailable(refused.result())
                attempt.result()
                self.nc = nc
                break
            except (TimeoutError, OSError, NoServersError, NatsTimeout) as exc:
                tried += 1
                if attempts is not None and tried >= attempts:
                    raise BusUnavailable(f"cannot reach NATS at {self.url}: {exc}") from None
                log.warning("cannot reach NATS at %s (%s); trying again", self.url, type(exc).__name__)
                await asyncio.sleep(1.0)
            finally:
                self._refused = None
        if self.tls is not None and not encrypted(nc):
            await nc.close()
            raise BusUnavailable(f"NATS at {self.url} does not use TLS: this node does not speak in clear")
        self.up, self._down_since, self.up_since = True, None, time.monotonic()
        for subject, queue, handler in self._subs:
            await nc.subscribe(subject, queue=queue, cb=handler)

    def down_for(self) -> float:
        """Seconds since the bus went down (0 while it is up)."""
        return 0.0 if self._down_since is None else time.monotonic() - self._down_since

    async def _disconnected(self) -> None:
        if self.up:
            log.warning("%s lost the bus", self.name)
        self.up = False
        self._down_since = self._down_since or time.monotonic()

    async def _reconnected(self) -> None:
        if self.tls is not None and self.nc is not None and not encrypted(self.nc):
            log.error("%s: NATS at %s no longer uses TLS: leaving it", self.name, self.url)
            asyncio.get_running_loop().create_task(self._reopen())
            return
        log.warning("%s reconnected to the bus", self.name)
        self.up, self._down_since, self.up_since = True, None, time.monotonic()
        if self.on_reconnect is not None:
            await self.on_reconnect()

    async def _reopen(self) -> None:
        """Leave a connection that is not TLS, and connect again (to a server that is)."""
        self.up, self._down_since = False, self._down_since or time.monotonic()
        if self.nc is not None:
            with contextlib.suppress(Exception):
                await self.nc.close()
        while True:
            try:
                await self.connect()
                break
            except BusUnavailable as exc:
                log.error("%s: %s; trying again", self.name, exc)
                await asyncio.sleep(1.0)
        if self.on_reconnect is not None:
            await self.on_reconnect()

    async def _error(self, exc: Exception) -> None:
        text = str(exc).lower()
        refused = None
        if "authorization violation" in text:
            refused = (
                f"NATS at {self.url} refused this node ({self.name}): its certificate is not one of the "
                "server's users (docs/cluster.md, 'A closed bus')"
            )
        elif isinstance(exc, ssl.SSLError):
            refused = f"TLS with NATS at {self.url} failed ({self.name}): {exc}"
        if refused is not None and self._refused is not None and not self._refused.done():
            self._refused.set_result(refused)  # (connecting: give up, saying why)
        elif refused is not None or "permissions violation" in text:  # this node may not do that
            now = time.monotonic()
            if now - self._warned.get(refused or text, -60.0) >= 60.0:  # (once a minute each)
                self._warned[refused or text] = now
                log.warning("%s: the bus refused: %s (docs/cluster.md, 'A closed bus')", self.name, exc)
        else:
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
        if self.tls is not None and self.nc.is_connected and not encrypted(self.nc):
            return  # (a server in clear, which this node is leaving)
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
