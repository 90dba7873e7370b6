"""Issue 34, defect 8: a request body that drips in a byte a second was never timed out, so each such
client held a connection (and a task) for as long as it liked. Now all of a body must arrive within
``SecuritySettings.body_timeout`` (10 s by default): past it the room answers ``408 body_timeout`` and
closes the connection. Against a live server, with a raw socket."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import orjson
import pytest
import pytest_asyncio

from pokerroom.server.security import SecuritySettings

from .securityhelpers import SecureServer, secure_server

TIMEOUT = 0.5


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[SecureServer]:
    async with secure_server(tmp_path, SecuritySettings(body_timeout=TIMEOUT)) as s:
        yield s


async def _open(s: SecureServer, length: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    url = urlsplit(s.url)
    reader, writer = await asyncio.open_connection(url.hostname, url.port)
    head = (
        f"POST /api/login HTTP/1.1\r\nHost: {url.netloc}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    )
    writer.write(head.encode())
    await writer.drain()
    return reader, writer


def _parse(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


@pytest.mark.asyncio
async def test_a_dripping_body_is_timed_out(room: SecureServer) -> None:
    reader, writer = await _open(room, 1000)
    started = time.monotonic()
    answer = b""
    try:
        # one byte every 50 ms (the body would take 50 s), until the room answers: at most 20 s
        while time.monotonic() - started < 20:
            writer.write(b"{")
            await writer.drain()
            try:
                answer = await asyncio.wait_for(reader.read(65536), 0.05)
                break
            except TimeoutError:
                continue
        assert answer, "the room never answered a body that drips in"
        elapsed = time.monotonic() - started
        while b"\r\n\r\n" not in answer or len(_parse(answer)[2]) < int(_parse(answer)[1]["content-length"]):
            more = await asyncio.wait_for(reader.read(65536), 5)
            assert more, answer
            answer += more
        status, headers, body = _parse(answer)
        assert status == 408
        assert orjson.loads(body)["code"] == "body_timeout"
        assert headers["connection"] == "close"
        assert TIMEOUT <= elapsed < TIMEOUT + 5
        # and the connection is closed: the rest of the drip goes nowhere
        assert await asyncio.wait_for(reader.read(65536), 5) == b""
    finally:
        writer.close()


@pytest.mark.asyncio
async def test_a_body_that_arrives_in_time_is_served(room: SecureServer) -> None:
    body = orjson.dumps({"name": "nobody", "password": "a-password-of-some-length"})
    reader, writer = await _open(room, len(body))
    try:
        for k in range(0, len(body), 8):  # in pieces, but well within the time allowed
            writer.write(body[k : k + 8])
            await writer.drain()
        answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        assert _parse(answer)[0] == 401  # (a wrong password: the body was read and the login tried)
    finally:
        writer.close()


def test_the_default_timeout_is_short() -> None:
    assert 1 <= SecuritySettings().body_timeout <= 30
