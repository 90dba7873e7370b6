"""HTTP hardening of the room (docs/security.md): security headers on every response, a size limit on
request bodies, and the ``Origin`` check of WebSocket upgrades and state-changing requests.

A pure ASGI middleware, so it covers the API, the static files, the error pages and the WebSocket
handshake alike. The scheme (http or https) and the client address are what the ASGI server says: behind
a reverse proxy, declare the proxy trusted to the server (``pokerroom serve --trusted-proxy``; uvicorn's
``forwarded_allow_ips``), which then takes them from ``X-Forwarded-Proto`` / ``X-Forwarded-For``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import orjson

from pokerroom.server.throttle import LoginLimits, RegisterLimits

__all__ = [
    "CSP",
    "DOCS_CSP",
    "SESSION_COOKIE",
    "SecurityMiddleware",
    "SecuritySettings",
    "allowed_origin",
    "local_client",
    "normalize_origin",
    "request_origin",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# The browser client: its own scripts and styles only (no inline script, no inline style attribute), its
# own WebSocket, nothing framed, no plugins. ``data:`` images: the page's empty favicon.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# FastAPI's interactive API pages (/docs, /redoc) load their script from a CDN and start it inline.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "font-src 'self' https://fonts.gstatic.com; img-src 'self' data: https://fastapi.tiangolo.com "
    "https://cdn.redoc.ly; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
_DOCS_PATHS = ("/docs", "/redoc")
SESSION_COOKIE = "pokerroom_token"  # the session token's cookie (server/http.py sets it)
_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class SecuritySettings:
    """What the operator tells the room about how it is reached, and its limits (docs/security.md).

    - ``origins``: the room's own origins (``https://poker.example.com``). Empty: the origin the request
      itself names (its scheme and ``Host``), which is right when nothing rewrites ``Host``.
    - ``max_body``: bytes an HTTP request body may have (413 past it).
    - ``body_timeout``: seconds a request body may take to arrive, all of it (408 past it): a client
      that sends its body a byte at a time does not hold a connection for long.
    - ``login``: the login throttle; ``register``: the registration throttle; ``flood_strikes`` /
      ``flood_window``: a WebSocket client with more than this many rate-limited frames within this many
      seconds is disconnected.
    - ``session_recheck``: seconds between look-ups of the sessions that have open sockets.
    - ``metrics_token``: a bearer token that reads ``/metrics`` (Prometheus' ``authorization``); without
      it only the room's own machine and the console's staff read them.
    - ``clock``: monotonic seconds for the throttles and the frame rate limits (tests inject one)."""

    origins: tuple[str, ...] = ()
    max_body: int = 64 * 1024
    body_timeout: float = 10.0
    login: LoginLimits = field(default_factory=LoginLimits)
    register: RegisterLimits = field(default_factory=RegisterLimits)
    flood_strikes: int = 200
    flood_window: float = 60.0
    session_recheck: float = 30.0
    metrics_token: str | None = field(default=None, repr=False)
    clock: Callable[[], float] = time.monotonic


def normalize_origin(text: str) -> str | None:
    """``scheme://host[:port]`` in lower case with the default port left out, or None if not an origin."""
    try:
        parts = urlsplit(text.strip())
        scheme, host, port = parts.scheme.lower(), parts.hostname, parts.port
    except ValueError:
        return None
    if scheme not in _DEFAULT_PORTS or not host or parts.path not in ("", "/") or parts.query:
        return None
    if ":" in host:  # IPv6
        host = f"[{host}]"
    return f"{scheme}://{host}" + ("" if port in (None, _DEFAULT_PORTS[scheme]) else f":{port}")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def request_origin(scope: Scope) -> str | None:
    """The origin a request was sent to: its scheme (``ws``/``wss`` count as ``http``/``https``) and Host."""
    host = _header(scope, b"host")
    if not host:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
    return normalize_origin(f"{scheme}://{host}")


def allowed_origin(scope: Scope, settings: SecuritySettings) -> bool:
    """True if the request carries no ``Origin`` (not a browser) or one of the room's own origins."""
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    got = normalize_origin(origin)
    if got is None:
        return False  # "null" (a sandboxed frame, a file: page) or garbage
    if settings.origins:
        return got in {normalize_origin(o) for o in settings.origins}
    return got == request_origin(scope)


_FORWARDED = (b"forwarded", b"x-forwarded-for", b"x-real-ip")


def local_client(scope: Scope) -> bool:
    """A request from the room's own machine: a loopback client address, and no forwarding header (a
    request that came through a reverse proxy on this machine carries one; behind a proxy the operator
    declared trusted, the ASGI server has made the client the address the proxy names)."""
    client = scope.get("client")
    host = client[0] if client else None
    try:
        loopback = host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
    return loopback and not any(bytes(k).lower() in _FORWARDED for k, _ in scope.get("headers", ()))


class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


SOCKET_SEND = "pokerroom.socket_send"  # a WebSocket scope's ASGI send, below Starlette's wrappers
SOCKET_RECEIVE = "pokerroom.socket_receive"  # ... and its ASGI receive


class SecurityMiddleware:
    def __init__(self, app: ASGIApp, settings: SecuritySettings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not allowed_origin(scope, self.settings):
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008, "reason": "foreign origin"})
                return
            scope[SOCKET_SEND] = send  # (server/ws.py sends its frames straight to it)
            scope[SOCKET_RECEIVE] = receive  # (and reads the client's from it once accepted)
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = self._with_headers(scope, send)
        if scope["method"] in _UNSAFE and not allowed_origin(scope, self.settings):
            await _json(send, 403, "bad_origin", "this request came from a page of another site")
            return
        try:
            body = await self._read_body(scope, receive)
        except _TooLarge:
            await _json(
                send, 413, "body_too_large", f"a request body may have {self.settings.max_body} bytes"
            )
            return
        except _TooSlow:
            seconds = f"{self.settings.body_timeout:g}"
            await _json(send, 408, "body_timeout", f"a request body must arrive within {seconds} s")
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes:
        limit = self.settings.max_body
        length = _header(scope, b"content-length")
        if length is not None and (not length.strip().isdigit() or int(length) > limit):
            raise _TooLarge
        try:
            async with asyncio.timeout(self.settings.body_timeout):
                return await self._receive_body(receive, limit)
        except TimeoutError:
            raise _TooSlow from None

    async def _receive_body(self, receive: Receive, limit: int) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return b""
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise _TooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _with_headers(self, scope: Scope, send: Send) -> Send:
        path: str = scope.get("path", "")
        https = scope.get("scheme") == "https"
        csp = DOCS_CSP if path in _DOCS_PATHS else CSP
        extra = [
            (b"content-security-policy", csp.encode()),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
            (b"cross-origin-opener-policy", b"same-origin"),
        ]
        if path.startswith("/api/"):
            extra.append((b"cache-control", b"no-store"))
        if https:
            extra.append((b"strict-transport-security", b"max-age=31536000"))

        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {bytes(k).lower() for k, _ in headers}
                headers += [(k, v) for k, v in extra if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        return wrapped


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # http.disconnect when the client goes

    return replay


async def _json(send: Send, status: int, code: str, message: str) -> None:
    body = orjson.dumps({"code": code, "message": message})
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
