"""Reading the clients' frames off uvicorn's socket (server/uvicorn_read.py): over random streams of client
frames (text of every length class, binary, pings, pongs, fragmented messages, invalid UTF-8, unmasked or
oversized frames, closes) cut into random chunks, :class:`FastReadProtocol` gives the application the
same ASGI events, writes the same bytes back (pongs, closes) and ends in the same state as uvicorn's own
websockets-sansio protocol. The protocols run on a stand-in transport on the test's loop; the test waits
only for the application to have read what was queued."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Any

import pytest
import uvicorn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode

from pokerroom.server.uvicorn_read import FastReadProtocol, ws_protocol

MAX_SIZE = 1_000  # the servers' ws_max_size here: frames around it test the limit
REQUEST = (
    b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


@dataclass
class Transport:
    """What the protocols ask of a transport, keeping what they write and do."""

    written: list[bytes] = field(default_factory=list)
    closed: bool = False
    paused: int = 0

    def write(self, data: bytes) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        self.paused += 1

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(name, default)

    def set_protocol(self, protocol: Any) -> None:
        pass


@dataclass
class Outcome:
    events: list[dict[str, Any]]
    written: bytes
    closed: bool
    state: str
    raised: list[str]
    fast: bool | None  # (FastReadProtocol: it still read the socket itself at the end)

    def failed(self) -> bool:
        """The socket was failed by the server (a close code other than a clean end or a lost link), or
        reading it raised (uvicorn's own behaviour on some broken streams)."""
        return bool(self.raised) or self.events[-1].get("code") not in (1000, 1005, 1006)

    def received(self) -> list[str | bytes | None]:
        return [e.get("text", e.get("bytes")) for e in self.events if e["type"] == "websocket.receive"]

    def same_as(self, plain: Outcome) -> bool:
        """The same events, bytes and state as uvicorn's. With one difference where a read holds a frame
        that breaks the protocol: uvicorn fails the socket before handing on any message of that read,
        while the fast reader has handed on the frames before it (and one of those may fail the socket
        first, an invalid UTF-8 text with 1007 rather than the broken frame's 1002). Then uvicorn's
        messages are the first of the fast reader's, and both fail the socket and close it."""
        if (self.events, self.written, self.closed, self.state, self.raised) == (
            plain.events,
            plain.written,
            plain.closed,
            plain.state,
            plain.raised,
        ):
            return True
        prefix = self.received()[: len(plain.received())] == plain.received()
        return plain.failed() and self.failed() and prefix


async def _run(cls: type[WebSocketsSansIOProtocol], chunks: list[bytes], early: bytes = b"") -> Outcome:
    """Open a socket on ``cls``, hand it ``chunks`` one by one (each once the application read what came
    before), and return what the application got and what the protocol wrote. ``early``: bytes the
    client sends before the server accepted."""
    got: list[dict[str, Any]] = []
    accept = asyncio.Event()
    done = asyncio.Event()  # the application returned (after its disconnect)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()  # websocket.connect
        await accept.wait()
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            got.append(message)
            if message["type"] == "websocket.disconnect":
                done.set()
                return

    config = uvicorn.Config(app, ws_max_size=MAX_SIZE, ws_per_message_deflate=False, ws_ping_interval=None)
    config.load()
    proto = cls(config=config, server_state=ServerState(), app_state={}, _loop=asyncio.get_running_loop())
    transport = Transport()
    proto.connection_made(transport)  # type: ignore[arg-type]
    proto.data_received(REQUEST)
    if early:
        proto.data_received(early)
    accept.set()
    await _until(lambda: proto.handshake_complete)
    raised: list[str] = []
    for chunk in chunks:
        try:
            proto.data_received(chunk)
        except Exception as exc:  # (uvicorn's own, on some broken streams: the transport then ends)
            raised.append(type(exc).__name__)
            break
        await _until(lambda: proto.queue.empty() or done.is_set())
    proto.connection_lost(None)
    await _until(done.is_set)
    for task in list(proto.tasks):
        await task
    fast = getattr(proto, "_fast", None)
    return Outcome(got, b"".join(transport.written), transport.closed, proto.conn.state.name, raised, fast)


async def _until(condition: Any, limit: float = 20.0) -> None:
    """Let the loop run until ``condition()`` holds (a bound, never a pause)."""
    deadline = asyncio.get_running_loop().time() + limit
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the protocol did not get there"
        await asyncio.sleep(0)


def _frame(opcode: Opcode, data: bytes, fin: bool = True, *, masked: bool = True) -> bytes:
    return Frame(opcode, data, fin).serialize(mask=masked)


texts = st.text(max_size=40) | st.sampled_from([125, 126, 127, MAX_SIZE - 8, MAX_SIZE]).map(lambda n: "x" * n)
frames = st.one_of(
    texts.map(lambda t: _frame(Opcode.TEXT, t.encode())),
    texts.map(lambda t: _frame(Opcode.TEXT, t.encode())),  # (text twice as likely: the usual message)
    st.binary(max_size=30).map(lambda b: _frame(Opcode.BINARY, b)),
    st.binary(max_size=20).map(lambda b: _frame(Opcode.PING, b)),
    st.binary(max_size=20).map(lambda b: _frame(Opcode.PONG, b)),
    st.tuples(texts, texts).map(
        lambda ab: _frame(Opcode.TEXT, ab[0].encode(), fin=False) + _frame(Opcode.CONT, ab[1].encode())
    ),
    st.just(_frame(Opcode.TEXT, b"\xff\xfe bad utf-8")),
    st.just(_frame(Opcode.TEXT, b'{"type":"ping"}', masked=False)),
    st.just(_frame(Opcode.TEXT, b"y" * (MAX_SIZE + 1))),
    st.just(_frame(Opcode.CLOSE, b"\x03\xe8bye")),
    st.just(bytes([0x83, 0x80, 1, 2, 3, 4])),  # an unknown opcode
    st.just(bytes([0xC1, 0x82, 1, 2, 3, 4, 5, 6])),  # an extension bit nobody agreed to
)


def _cut(stream: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(stream) + 1) for c in cuts} | {0, len(stream)})
    return [stream[a:b] for a, b in itertools.pairwise(points) if b > a]


@pytest.mark.asyncio
@pytest.mark.allow_errors("uvicorn.error", reason="uvicorn logs the invalid UTF-8 frames the test sends")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(frames, max_size=12), st.lists(st.integers(min_value=0, max_value=100_000), max_size=8))
async def test_the_fast_reader_gives_what_uvicorn_gives(stream: list[bytes], cuts: list[int]) -> None:
    data = b"".join(stream)
    chunks = _cut(data, cuts)
    plain = await _run(WebSocketsSansIOProtocol, chunks)
    fast = await _run(FastReadProtocol, chunks)
    assert fast.same_as(plain), (fast, plain)


@pytest.mark.asyncio
async def test_texts_of_every_length_class_arrive_whole_byte_by_byte() -> None:
    """Payloads with 7-bit, 16-bit and 64-bit lengths... up to the limit, fed a byte at a time and all at
    once: the same texts, in order."""
    texts = ["", "a", "é" * 62, "x" * 126, "y" * MAX_SIZE, '{"type":"act"}']
    data = b"".join(_frame(Opcode.TEXT, t.encode()) for t in texts)
    for chunks in ([data], [data[i : i + 1] for i in range(len(data))]):
        fast = await _run(FastReadProtocol, chunks)
        assert fast.fast  # read here throughout, not by websockets
        assert [e.get("text") for e in fast.events[:-1]] == texts
        assert fast.events[-1]["type"] == "websocket.disconnect"


@pytest.mark.asyncio
async def test_bytes_before_the_handshake_leave_the_socket_to_websockets() -> None:
    """A client that sends a frame before the server accepted: websockets' parser has it, so the fast
    reader never reads that socket; both protocols give the same events."""
    early = _frame(Opcode.TEXT, b"too soon")
    later = [_frame(Opcode.TEXT, b"later")]
    plain = await _run(WebSocketsSansIOProtocol, later, early)
    fast = await _run(FastReadProtocol, later, early)
    assert fast.events == plain.events and fast.fast is False
    assert [e.get("text") for e in fast.events if e["type"] == "websocket.receive"] == ["too soon", "later"]


def test_the_room_serves_its_sockets_with_the_fast_reader() -> None:
    assert ws_protocol() is FastReadProtocol
