"""The direct writer on uvicorn's socket (server/uvicorn_direct.py) against a real uvicorn on a loopback
port: for the same frames, a connection with the direct writer and one through the ASGI send put the
same bytes on the wire (single frames, batches as JSON arrays, a close after queued frames), with and
without permessage-deflate; and a uvicorn protocol lacking what the writer reads gets the ASGI send.

The client is websockets' sans-I/O protocol on a bare TCP stream, so the test keeps every byte the server
sent, frame headers and (compressed) payloads included. It waits only on what it reads."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import orjson
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from uvicorn.protocols.websockets.websockets_sansio_impl import (
    WebSocketsSansIOProtocol as UvicornSansIOProtocol,
)
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import enable_client_permessage_deflate
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from pokerroom.server import ws as ws_module
from pokerroom.server.connection import MAX_BATCH, Connection
from pokerroom.server.security import SOCKET_SEND, SecurityMiddleware, SecuritySettings
from pokerroom.server.uvicorn_direct import UvicornDirect, direct_writer

pytestmark = pytest.mark.asyncio

TIMEOUT = 20.0  # seconds: a bound on every wait, never a pause


@dataclass(frozen=True)
class Step:
    """What the server queues when the client asks for this step: ``frames`` in one step of the loop,
    batched or not; with ``end``, the last one goes with :meth:`Connection.end` (then the close)."""

    frames: tuple[str, ...]
    batch: bool
    end: int | None = None


def _frame(step: int, n: int, text: str = "") -> str:
    return orjson.dumps({"type": "chat", "step": step, "n": n, "text": text}).decode()


SCRIPT = (
    Step((_frame(0, 0),), batch=False),  # a frame alone
    # one message per frame; non-ASCII text; a payload over 125 bytes (a 16-bit length)
    Step((_frame(1, 0, "héllo ♠♥♦♣ 10♣"), _frame(1, 1, "x" * 300), _frame(1, 2)), batch=False),
    Step((_frame(2, 0),), batch=True),  # a lone frame goes bare
    Step(tuple(_frame(3, n, "y" * 40 * n) for n in range(5)), batch=True),  # one JSON array
    Step(tuple(_frame(4, n) for n in range(MAX_BATCH + 3)), batch=True),  # two arrays: 256, then 3
    Step((_frame(5, 0), _frame(5, 1), _frame(5, 2, "bye")), batch=True, end=4401),  # then the close
)


def _messages(step: Step) -> list[str]:
    """The messages a client gets for ``step`` (connection.py's batching)."""
    if not step.batch:
        return list(step.frames)
    out: list[str] = []
    for k in range(0, len(step.frames), MAX_BATCH):
        chunk = step.frames[k : k + MAX_BATCH]
        out.append(chunk[0] if len(chunk) == 1 else "[" + ",".join(chunk) + "]")
    return out


EXPECTED = [m for step in SCRIPT for m in _messages(step)]


@dataclass
class Socket:
    """What the server did for one connection."""

    direct: UvicornDirect | None = None
    asgi_messages: int = 0  # messages sent through the ASGI send


def _app(sockets: dict[str, Socket]) -> Any:
    """An endpoint wired as ws.websocket_endpoint wires a connection (the ASGI send below Starlette's,
    the adapter's direct writer) that plays :data:`SCRIPT`, a step per client message. At
    ``/ws/asgi`` the adapter is left out: the ASGI path for that connection."""

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        seen = sockets[ws.query_params["id"]] = Socket()
        asgi_send = ws_module._sender(ws)

        async def send_text(text: str) -> None:
            seen.asgi_messages += 1
            await asgi_send(text)

        if ws.path_params["mode"] == "direct":
            seen.direct = direct_writer(ws.scope.get(SOCKET_SEND))
        conn = Connection(send_text, lambda code: ws.close(code), direct=seen.direct)
        conn.start()
        try:
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                step = SCRIPT[int(message["text"])]
                conn.batch = step.batch
                if step.end is None:
                    for frame in step.frames:
                        conn.send(frame)
                else:
                    for frame in step.frames[:-1]:
                        conn.send(frame)
                    conn.end(step.frames[-1], step.end)
        finally:
            await conn.stop()

    return SecurityMiddleware(Starlette(routes=[WebSocketRoute("/ws/{mode}", endpoint)]), SecuritySettings())


@contextlib.asynccontextmanager
async def _serving(sockets: dict[str, Socket], *, deflate: bool, ws: Any = "auto") -> AsyncIterator[int]:
    """uvicorn on a loopback port, listening before this yields (a client can connect at once; no wait
    for the server's start). No keepalive pings: nothing but the script's frames goes out."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    config = uvicorn.Config(
        _app(sockets),
        log_level="error",
        lifespan="off",
        ws=ws,
        ws_per_message_deflate=deflate,
        ws_ping_interval=None,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[listener]))
    try:
        yield int(listener.getsockname()[1])
    finally:
        server.should_exit = True
        await task


class RawClient:
    """A WebSocket client (websockets' sans-I/O protocol) on a bare TCP stream: it keeps every byte the
    server sent, and the text messages and close code those bytes carry."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, proto: ClientProtocol):
        self.reader = reader
        self.writer = writer
        self.proto = proto
        self.raw = b""
        self.response: Response | None = None
        self.messages: list[str] = []
        self.eof = False

    @classmethod
    async def connect(cls, port: int, path: str, *, deflate: bool) -> RawClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        extensions = enable_client_permessage_deflate(None) if deflate else None
        proto = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}{path}"), extensions=extensions)
        proto.send_request(proto.connect())
        client = cls(reader, writer, proto)
        client._write()
        await client.until(lambda: client.response is not None)
        assert client.response is not None and client.response.status_code == 101
        return client

    @property
    def wire(self) -> bytes:
        """Every byte the server sent after its handshake response (whose date and accept key differ
        between two connections)."""
        return self.raw[self.raw.index(b"\r\n\r\n") + 4 :]

    @property
    def close_code(self) -> int | None:
        return None if self.proto.close_rcvd is None else self.proto.close_rcvd.code

    def send(self, text: str) -> None:
        self.proto.send_text(text.encode())
        self._write()

    def _write(self) -> None:
        for data in self.proto.data_to_send():
            if data:  # (b"": the end of the stream, which the server's close of TCP makes anyway)
                self.writer.write(data)

    async def until(self, done: Callable[[], bool]) -> None:
        """Read until ``done()``; an end of the stream before it fails."""
        async with asyncio.timeout(TIMEOUT):
            while not done():
                assert not self.eof, f"the server closed the connection; messages: {len(self.messages)}"
                await self._read()

    async def until_messages(self, count: int) -> None:
        await self.until(lambda: len(self.messages) >= count)

    async def _read(self) -> None:
        data = await self.reader.read(65536)
        if data:
            self.raw += data
            self.proto.receive_data(data)
        else:
            self.eof = True
            self.proto.receive_eof()
        for event in self.proto.events_received():
            if isinstance(event, Response):
                self.response = event
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                assert event.fin  # (uvicorn sends a message as one frame)
                self.messages.append(bytes(event.data).decode())
        self._write()  # (the reply to the server's close)

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()


async def _play(port: int, mode: str, name: str, *, deflate: bool) -> RawClient:
    """One connection at ``/ws/<mode>`` through :data:`SCRIPT`: each step asked for once the messages
    of the one before it have arrived, then read until the server closes the stream."""
    client = await RawClient.connect(port, f"/ws/{mode}?id={name}", deflate=deflate)
    try:
        want = 0
        for k, step in enumerate(SCRIPT):
            want += len(_messages(step))
            client.send(str(k))
            await client.until_messages(want)
        await client.until(lambda: client.eof)
    finally:
        await client.close()
    return client


@pytest.mark.parametrize("deflate", [False, True], ids=["plain", "permessage-deflate"])
async def test_the_direct_path_and_the_asgi_path_put_the_same_bytes_on_the_wire(deflate: bool) -> None:
    sockets: dict[str, Socket] = {}
    async with _serving(sockets, deflate=deflate) as port:
        direct = await _play(port, "direct", "d", deflate=deflate)
        asgi = await _play(port, "asgi", "a", deflate=deflate)
    # each connection went the way it was meant to: uvicorn's default protocol gets the direct writer,
    # and the direct writer sent every message but the last (a close is queued behind it: the
    # connection's task sends it, and then the close, through the ASGI send)
    assert isinstance(sockets["d"].direct, UvicornDirect) and sockets["d"].asgi_messages == 1
    assert sockets["a"].direct is None and sockets["a"].asgi_messages == len(EXPECTED)
    for client in (direct, asgi):
        assert client.response is not None
        agreed = client.response.headers.get("Sec-WebSocket-Extensions") or ""
        assert ("permessage-deflate" in agreed) is deflate
        assert client.messages == EXPECTED
        assert client.close_code == 4401
    assert direct.wire == asgi.wire  # byte for byte: frame headers, payloads, the close frame


class _Writable:
    """Flow control as uvicorn's protocol uses it (set, clear, wait), without the ``is_set`` that the
    direct writer binds."""

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self._event.set()

    def set(self) -> None:
        self._event.set()

    def clear(self) -> None:
        self._event.clear()

    async def wait(self) -> bool:
        return await self._event.wait()


class WebSocketsSansIOProtocol(UvicornSansIOProtocol):
    """uvicorn's protocol under its own name, as a uvicorn that changed it might have it: its flow control
    lacks what the direct writer reads."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.writable = _Writable()  # type: ignore[assignment]


async def test_a_uvicorn_protocol_lacking_what_the_writer_reads_gets_the_asgi_send() -> None:
    sockets: dict[str, Socket] = {}
    async with _serving(sockets, deflate=False, ws=WebSocketsSansIOProtocol) as port:
        changed = await _play(port, "direct", "d", deflate=False)
    assert sockets["d"].direct is None and sockets["d"].asgi_messages == len(EXPECTED)
    assert changed.messages == EXPECTED and changed.close_code == 4401
    async with _serving(sockets, deflate=False) as port:
        asgi = await _play(port, "asgi", "a", deflate=False)
    assert changed.wire == asgi.wire


class _Transport:
    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.sent.append(data)

    def is_closing(self) -> bool:
        return False


def _stand_in(deflate: bool = False) -> tuple[Any, _Transport]:
    """What :class:`UvicornDirect` reads of uvicorn's protocol, around a real open websockets protocol."""
    from types import SimpleNamespace

    from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
    from websockets.protocol import State
    from websockets.server import ServerProtocol

    conn = ServerProtocol(state=State.OPEN)
    if deflate:
        conn.extensions = [ServerPerMessageDeflateFactory().process_request_params([], [])[1]]
    transport = _Transport()
    writable = asyncio.Event()
    writable.set()
    proto = SimpleNamespace(
        writable=writable, transport=transport, conn=conn, close_sent=False, disconnected=False
    )
    return proto, transport


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65_535, 65_536, 70_000])
async def test_the_writers_own_frame_is_the_frame_websockets_makes(size: int) -> None:
    """RFC 6455 section 5.2: the 7-bit, 16-bit and 64-bit payload lengths, at their edges."""
    proto, transport = _stand_in()
    text = "é" + "x" * (size - 2) if size >= 2 else "x" * size  # (a two-byte character where it fits)
    assert len(text.encode()) == size
    UvicornDirect(proto).write(text)
    assert transport.sent == [Frame(Opcode.TEXT, text.encode()).serialize(mask=False)]
    assert proto.conn.data_to_send() == []  # (nothing left in websockets' own buffer)


async def test_a_compressed_socket_is_framed_by_websockets() -> None:
    proto, transport = _stand_in(deflate=True)
    text = _frame(9, 0, "z" * 500)
    UvicornDirect(proto).write(text)
    (sent,) = transport.sent
    assert sent[0] & 0x40  # RSV1: the payload is compressed (permessage-deflate)
    assert len(sent) < len(text)


async def test_a_closing_socket_raises_as_the_asgi_send_would() -> None:
    from websockets.exceptions import InvalidState
    from websockets.protocol import State

    proto, transport = _stand_in()
    proto.conn.state = State.CLOSING
    with pytest.raises(InvalidState):
        UvicornDirect(proto).write(_frame(9, 1))
    assert transport.sent == []


async def test_a_websockets_without_what_the_writers_own_frames_read_is_refused_when_made() -> None:
    """The writer reads the protocol's ``writes`` and ``expect_continuation_frame`` for every message: a
    websockets without them fails when the writer is made (so the socket gets the ASGI send, see
    :func:`direct_writer`), never at the first message."""
    for missing in ("writes", "expect_continuation_frame"):
        proto, _transport = _stand_in()
        delattr(proto.conn, missing)
        with pytest.raises(AttributeError):
            UvicornDirect(proto)
