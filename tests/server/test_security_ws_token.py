"""Issue 19, defect 6: the session token travelled in the WebSocket URL (``/ws?token=``), where proxy and
server logs keep it. Now a socket logs in with the session cookie or a ``hello`` frame; a token in the URL
is not used (the client is told ``token_in_url``), and neither the browser nor the bots put it there."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import websockets

from pokerroom.bots import client as bot_client
from pokerroom.bots.client import BotClient
from pokerroom.bots.pool import PoolBot
from pokerroom.bots.runner import start_bots
from pokerroom.bots.tournament import TournamentBot
from pokerroom.server.app import WEB_DIR
from pokerroom.server.protocol import PROTOCOL_VERSION
from tests.waiting import until

from .securityhelpers import SecureServer, register, secure_server
from .wire import Wire

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[SecureServer]:
    async with secure_server(tmp_path) as s:
        yield s


async def test_a_token_in_the_url_logs_nobody_in(room: SecureServer) -> None:
    http = await register(room, "alice")
    token = http.cookies["pokerroom_token"]
    async with websockets.connect(f"{room.ws}?token={token}") as ws:
        w = Wire(ws)
        assert (await w.until(lambda m: m["type"] == "welcome"))["player"] is None
        assert (await w.until(lambda m: m["type"] == "error"))["code"] == "token_in_url"
        await w.send({"type": "sit", "table": "holdem-nl", "seat": 1, "buy_in": 2000, "ref": "s"})
        assert (await w.reply("s"))["code"] == "login_required"
    await http.aclose()


async def test_the_cookie_or_a_hello_frame_logs_in(room: SecureServer) -> None:
    http = await register(room, "alice")
    token = http.cookies["pokerroom_token"]
    by_cookie = await Wire.open(room, token)
    assert by_cookie.seen[0]["player"]["name"] == "alice"
    by_hello = await Wire.open(room)
    await by_hello.send({"type": "hello", "version": PROTOCOL_VERSION, "token": token, "ref": "h"})
    welcome = await by_hello.until(lambda m: m["type"] == "welcome")
    assert welcome["player"]["name"] == "alice"
    for w in (by_cookie, by_hello):
        await w.close()
    await http.aclose()


async def test_bots_log_in_without_the_token_in_the_url(room: SecureServer, monkeypatch: Any) -> None:
    opened: list[tuple[str, dict[str, str]]] = []
    real = websockets.connect

    def spy(url: str, **kw: Any) -> Any:
        opened.append((url, dict(kw.get("additional_headers") or {})))
        return real(url, **kw)

    monkeypatch.setattr(websockets, "connect", spy)  # (the module the bots' client connects with)
    started = await start_bots(room.url, 1, ["caller"], tables=["holdem-nl"], think=(0, 0.01), prefix="robot")
    try:
        bot = started[0][0]
        await until(lambda: bot.seat is not None, timeout=30, what="the bot is logged in and takes a seat")
        assert bot.player_id is not None
    finally:
        for b, t in started:
            await b.stop()
            t.cancel()
    assert opened and all("token" not in url and "?" not in url for url, _ in opened)
    assert all(h["Cookie"].startswith("pokerroom_token=") for _, h in opened)
    # the pool and tournament bots open their sockets the same way
    assert PoolBot.connect is BotClient.connect and TournamentBot.connect is BotClient.connect
    for source in Path(bot_client.__file__).parent.glob("*.py"):
        assert "?token=" not in source.read_text(), source.name


async def test_the_browser_opens_the_socket_without_the_token() -> None:
    socket_js = (WEB_DIR / "js" / "socket.js").read_text()
    assert "new WebSocket(`${proto}//${location.host}/ws`)" in socket_js
    assert "token" not in socket_js
