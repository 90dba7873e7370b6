"""Keeping each login (issue 30): the client address, the browser's device id and its user agent.

The address is the one the server sees: behind a reverse proxy the operator declared trusted
(``--trusted-proxy``), uvicorn has already made the client the address the proxy forwarded; otherwise it is
the connection's peer, and a forwarded header is not believed (docs/security.md). It is kept as the
throttles count it (:func:`~pokerroom.server.throttle.address_key`): an IPv4 address, or the /64 network
of an IPv6 one (a machine's IPv6 addresses change within its /64, and one household shares it).

The device id is a random id in a first-party cookie of its own (:data:`BROWSER_COOKIE`, HttpOnly,
SameSite=Strict, 400 days), set at the first login from a browser and kept by every later one: the same
id for every account that logs in from that browser. (A player who clears his cookies gets a new id; the
known-device tokens of ``pokerroom_device`` are per account and serve the login lock, not this.)"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from fastapi import Request, Response

from pokerroom.server.integrity.settings import IntegritySettings
from pokerroom.server.throttle import address_key
from pokerroom.store import LoginRecord, Store
from pokerroom.store.integrity import ADDRESS_MAX

__all__ = ["BROWSER_COOKIE", "BROWSER_MAX_AGE", "device_of", "integrity_settings", "record_login"]

BROWSER_COOKIE = "pokerroom_browser"
BROWSER_MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie
_DEVICE = re.compile(r"^[0-9a-f]{32}$")


def device_of(request: Request) -> str | None:
    """The browser's device id from its cookie (None: none, or not one we made)."""
    got = request.cookies.get(BROWSER_COOKIE) or ""
    return got if _DEVICE.match(got) else None


def integrity_settings(request: Request) -> IntegritySettings:
    settings = getattr(request.app.state.front.settings, "integrity", None)
    return settings if isinstance(settings, IntegritySettings) else IntegritySettings()


async def record_login(
    request: Request,
    response: Response,
    player_id: int,
    *,
    new_device: Callable[[], str] = lambda: secrets.token_hex(16),
) -> LoginRecord:
    """Keep this login (pruning the logins older than the room keeps them) and give the browser its device
    id cookie (again: each login renews its 400 days)."""
    store: Store = request.app.state.front.store
    device = device_of(request) or new_device()
    # (an address the store would refuse, e.g. a long socket name, is cut: a login never fails on it)
    address = address_key(request.client.host if request.client else None)[:ADDRESS_MAX] or "unknown"
    agent = request.headers.get("user-agent")
    record = await store.logins.record(
        player_id, address, device, agent, keep=integrity_settings(request).keep
    )
    response.set_cookie(
        BROWSER_COOKIE,
        device,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        max_age=BROWSER_MAX_AGE,
        path="/api/",
    )
    return record
