"""Every console endpoint (issue 17): in the OpenAPI description, 401 for anonymous callers, 403 for
players, and 403 for support on every change but locking an account."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import Console

# Support may read every page and lock an account; nothing else that changes anything.
SUPPORT_MAY = {("POST", "/api/console/players/{pid}/lock")}


def console_endpoints(openapi: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted(
        (method.upper(), path)
        for path, ops in openapi["paths"].items()
        if path.startswith("/api/console")
        for method in ops
    )


def concrete(path: str, pid: int) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(pid) if m.group(1) == "pid" else "x1", path)


async def call(c: Console, method: str, path: str, headers: dict[str, str] | None) -> int:
    r = await c.http.request(method, concrete(path, c.player_id), json={}, headers=headers or {})
    return r.status_code


@pytest.mark.asyncio
async def test_every_console_endpoint_refuses_anonymous_callers_and_players(console: Console) -> None:
    openapi = (await console.http.get("/openapi.json")).json()
    endpoints = console_endpoints(openapi)
    assert len(endpoints) >= 10  # the description lists the console (a missing router fails here)
    bad = []
    for method, path in endpoints:
        if (anon := await call(console, method, path, None)) != 401:
            bad.append((method, path, "anonymous", anon))
        if (mine := await call(console, method, path, console.player)) != 403:
            bad.append((method, path, "player", mine))
    assert bad == []


@pytest.mark.asyncio
async def test_support_is_refused_every_change_but_a_lock(console: Console) -> None:
    openapi = (await console.http.get("/openapi.json")).json()
    bad = []
    for method, path in console_endpoints(openapi):
        status = await call(console, method, path, console.support)
        if method != "GET" and (method, path) not in SUPPORT_MAY and status != 403:
            bad.append((method, path, status))
        if (method == "GET" or (method, path) in SUPPORT_MAY) and status in (401, 403):
            bad.append((method, path, status))
    assert bad == []


@pytest.mark.asyncio
async def test_the_audit_log_has_no_endpoint_that_changes_it(console: Console) -> None:
    openapi = (await console.http.get("/openapi.json")).json()
    audit = [(m, p) for m, p in console_endpoints(openapi) if p.startswith("/api/console/audit")]
    assert audit and all(m == "GET" for m, _ in audit)
    for method in ("PUT", "PATCH", "DELETE", "POST"):
        r = await console.http.request(method, "/api/console/audit", headers=console.admin)
        assert r.status_code == 405
