"""Batched frames (docs/protocol.md, "Batches"): a client that asks for them in its ``hello`` gets the
frames that are ready together as one WebSocket message, a JSON array in order; any other client gets one
frame per message, as before."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import orjson
import pytest
import pytest_asyncio
from websockets.protocol import State
from websockets.server import ServerProtocol

from pokerroom.server import ws as ws_module
from pokerroom.server.connection import MAX_BATCH, Connection
from pokerroom.server.demo import demo_tables
from pokerroom.server.protocol import PROTOCOL_VERSION
from pokerroom.server.uvicorn_direct import UvicornDirect, direct_writer

from .conftest import FAST, LiveServer, live_server
from .test_frames import validate
from .wire import Wire, register

pytestmark = pytest.mark.asyncio


class Sink:
    def __init__(self) -> None:
        self.messages: list[str] = []
        self.closed: list[int] = []

    async def send(self, text: str) -> None:
        self.messages.append(text)

    async def close(self, code: int) -> None:
        self.closed.append(code)


async def _drained(conn: Connection) -> None:
    await conn.stop()


async def test_frames_queued_together_go_as_one_array_in_order() -> None:
    sink = Sink()
    conn = Connection(sink.send, sink.close)
    conn.batch = True
    for k in range(3):
        conn.send(orjson.dumps({"type": "chat", "n": k}).decode())
    conn.start()
    await _drained(conn)
    assert len(sink.messages) == 1
    assert [m["n"] for m in orjson.loads(sink.messages[0])] == [0, 1, 2]


async def test_without_batch_every_frame_is_its_own_message() -> None:
    sink = Sink()
    conn = Connection(sink.send, sink.close)
    for k in range(3):
        conn.send(orjson.dumps({"type": "chat", "n": k}).decode())
    conn.start()
    await _drained(conn)
    assert [orjson.loads(m)["n"] for m in sink.messages] == [0, 1, 2]


async def test_a_lone_frame_is_not_wrapped_and_a_batch_is_bounded() -> None:
    sink = Sink()
    conn = Connection(sink.send, sink.close, max_queue=10_000)
    conn.batch = True
    conn.start()
    conn.send('{"type":"pong","ref":null}')
    while not sink.messages:
        await asyncio.sleep(0)
    assert sink.messages == ['{"type":"pong","ref":null}']
    for k in range(MAX_BATCH + 5):
        conn.send(orjson.dumps({"n": k}).decode())
    await _drained(conn)
    sizes = [len(orjson.loads(m)) for m in sink.messages[1:]]
    assert sizes == [MAX_BATCH, 5]


async def test_the_frames_before_an_end_go_out_then_the_socket_closes() -> None:
    sink = Sink()
    conn = Connection(sink.send, sink.close)
    conn.batch = True
    conn.send('{"n":1}')
    conn.end('{"n":2}', 4401)
    conn.send('{"n":3}')  # (after the end: dropped)
    conn.start()
    await _drained(conn)
    assert [f["n"] for f in orjson.loads(sink.messages[0])] == [1, 2]
    assert sink.closed == [4401]


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[LiveServer]:
    async with live_server(tmp_path, demo_tables(FAST, games=("holdem",))) as s:
        yield s


async def test_a_live_hand_comes_batched_and_every_frame_matches_the_schema(room: LiveServer) -> None:
    wires = []
    for k, name in enumerate(("alice", "bob")):
        w = await Wire.open(room, await register(room, name))
        await w.send({"type": "hello", "version": PROTOCOL_VERSION, "batch": True})
        assert (await w.until(lambda m: m["type"] == "welcome"))["batch"] is True
        await w.send({"type": "subscribe", "table": "holdem-nl"})
        await w.until(lambda m: m["type"] == "snapshot")
        await w.send({"type": "sit", "table": "holdem-nl", "seat": k + 1, "buy_in": 2000, "ref": "s"})
        assert (await w.reply("s"))["type"] == "ack"
        wires.append(w)
    alice = wires[0]
    await alice.until(lambda m: m["type"] == "event" and m["event"]["type"] == "hand_started", timeout=60)
    await alice.until(lambda m: m["type"] == "turn", timeout=60)
    assert any(isinstance(orjson.loads(raw), list) for raw in alice.raw)  # the hand's start, batched
    seqs = [m["seq"] for m in alice.seen if m.get("table") == "holdem-nl" and "seq" in m]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    _, problems = validate([orjson.dumps(m).decode() for m in alice.seen])
    assert problems == []
    plain = await Wire.open(room)  # no hello: one frame per message, as before
    await plain.send({"type": "subscribe", "table": "holdem-nl"})
    await plain.until(lambda m: m["type"] == "snapshot")
    assert all(isinstance(orjson.loads(raw), dict) for raw in plain.raw)
    for w in (*wires, plain):
        await w.close()


async def test_an_actions_ack_comes_in_the_same_message_as_its_event(room: LiveServer) -> None:
    """The ack is queued inside the table's job, after the events (and the next turn) the action caused:
    a batching client gets them as one message, in that order, not the ack in a message of its own."""
    wires = []
    for k, name in enumerate(("dave", "erin")):
        w = await Wire.open(room, await register(room, name))
        await w.send({"type": "hello", "version": PROTOCOL_VERSION, "batch": True})
        await w.until(lambda m: m["type"] == "welcome")
        await w.send({"type": "subscribe", "table": "holdem-nl"})
        await w.until(lambda m: m["type"] == "snapshot")
        await w.send({"type": "sit", "table": "holdem-nl", "seat": k + 1, "buy_in": 2000, "ref": "s"})
        assert (await w.reply("s"))["type"] == "ack"
        wires.append(w)

    def my_turn(m: dict[str, object]) -> bool:
        return m["type"] == "turn" and bool(m.get("decision"))

    turns = [asyncio.ensure_future(w.until(my_turn, timeout=60)) for w in wires]
    done, _ = await asyncio.wait(turns, return_when=asyncio.FIRST_COMPLETED)
    first = next(t for t in turns if t in done)
    actor = wires[turns.index(first)]
    for t in turns:
        if t is not first:
            t.cancel()
    turn = first.result()
    decision = turn["decision"]
    action = {"type": "check"} if decision.get("check") else {"type": "call"}
    act = {"type": "act", "table": "holdem-nl", "hand_id": turn["hand_id"], "action_no": turn["action_no"]}
    await actor.send({**act, "action": action, "ref": "a1"})
    ack = await actor.reply("a1")
    assert ack == {"type": "ack", "ref": "a1", "duplicate": False}
    message = orjson.loads(actor.raw[-1])
    assert isinstance(message, list) and message[-1] == ack
    mine = {"type": "action", "seat": turn["seat"], "action": action["type"]}
    events = [f["event"] for f in message if f["type"] == "event"]
    assert any(mine.items() <= e.items() for e in events), message
    for w in wires:
        await w.close()


async def test_a_client_that_does_not_read_is_cut_off_at_the_queue_limit() -> None:
    """The writer is stuck in a send that does not finish (the client reads nothing): once ``max_queue``
    frames wait, the connection closes (1008, policy) and queues nothing more."""
    release = asyncio.Event()
    sent: list[str] = []
    closed: list[int] = []

    async def stuck(text: str) -> None:
        sent.append(text)
        await release.wait()

    async def close(code: int) -> None:
        closed.append(code)

    conn = Connection(stuck, close, max_queue=5)
    conn.start()
    conn.send('{"n":0}')
    while not sent:
        await asyncio.sleep(0)
    for k in range(1, 6):
        conn.send(f'{{"n":{k}}}')
    assert not conn.closed
    conn.send('{"n":6}')  # the sixth waiting frame: over the limit
    assert conn.closed
    conn.send('{"n":7}')
    release.set()
    await conn.stop()
    assert sent == [f'{{"n":{k}}}' for k in range(6)] and closed == [1008]


class Direct:
    """A direct writer (connection.DirectWrite) whose socket can be paused, and can fail."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.open = True
        self.fail = False

    def ready(self) -> bool:
        return self.open

    def write(self, text: str) -> None:
        if self.fail:
            raise ConnectionResetError("gone")
        self.written.append(text)


async def _settled(conn: Connection) -> None:
    """Until nothing is queued (the writer task or the direct callback has taken every frame)."""
    for _ in range(1000):
        if not conn.pending:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"{conn.pending} frames still queued")


async def test_a_direct_writer_sends_the_frames_of_one_step_as_one_message_without_the_task() -> None:
    sink, direct = Sink(), Direct()
    conn = Connection(sink.send, sink.close, direct=direct)
    conn.batch = True
    conn.start()
    await asyncio.sleep(0)  # the writer task is idle
    for k in range(3):
        conn.send(orjson.dumps({"n": k}).decode())
    await _settled(conn)
    conn.send('{"n":3}')
    await _settled(conn)
    assert [orjson.loads(m) for m in direct.written] == [[{"n": 0}, {"n": 1}, {"n": 2}], {"n": 3}]
    assert sink.messages == []
    await conn.stop()
    assert len(sink.closed) == 1 and sink.messages == []


async def test_a_paused_socket_hands_the_queue_to_the_writer_task_and_the_order_holds() -> None:
    """Flow control: while the socket cannot take a message, the task sends (it waits for the socket);
    once it is idle again the direct writer goes on, after everything the task sent."""
    sink, direct = Sink(), Direct()
    conn = Connection(sink.send, sink.close, direct=direct)
    conn.start()
    await asyncio.sleep(0)
    conn.send('{"n":0}')
    await _settled(conn)
    direct.open = False
    conn.send('{"n":1}')
    conn.send('{"n":2}')
    await _settled(conn)
    direct.open = True
    conn.send('{"n":3}')
    await _settled(conn)
    assert direct.written == ['{"n":0}', '{"n":3}'] and sink.messages == ['{"n":1}', '{"n":2}']
    await conn.stop()


async def test_a_direct_writer_leaves_a_close_to_the_task_after_the_frames_before_it() -> None:
    sink, direct = Sink(), Direct()
    conn = Connection(sink.send, sink.close, direct=direct)
    conn.batch = True
    conn.start()
    await asyncio.sleep(0)
    conn.send('{"n":1}')
    conn.end('{"n":2}', 4401)
    conn.send('{"n":3}')  # (after the end: dropped)
    await conn.stop()
    assert [f["n"] for f in orjson.loads((direct.written + sink.messages)[0])] == [1, 2]
    assert len(direct.written + sink.messages) == 1 and sink.closed == [4401]


async def test_a_socket_that_fails_a_direct_write_closes_the_connection() -> None:
    sink, direct = Sink(), Direct()
    direct.fail = True
    conn = Connection(sink.send, sink.close, direct=direct)
    conn.start()
    await asyncio.sleep(0)
    conn.send('{"n":1}')
    await conn.stop()
    assert conn.closed and direct.written == [] and sink.closed == [1008]


async def test_the_room_writes_to_uvicorn_sockets_directly(
    room: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under uvicorn (websockets-sansio) every connection gets the direct writer, and what it writes
    reaches the client as the ASGI send would have sent it."""
    made: list[object] = []

    def spy(send: object) -> object:
        made.append(direct_writer(send))
        return made[-1]

    monkeypatch.setattr(ws_module, "direct_writer", spy)
    wire = await Wire.open(room, await register(room, "carol"))
    await wire.send({"type": "hello", "version": PROTOCOL_VERSION, "batch": True})
    await wire.until(lambda m: m["type"] == "welcome")
    await wire.send({"type": "subscribe", "table": "holdem-nl"})
    await wire.until(lambda m: m["type"] == "snapshot")
    await wire.close()
    assert made and all(isinstance(d, UvicornDirect) for d in made)


class _FakeTransport:
    def __init__(self) -> None:
        self.closing = False
        self.data: list[bytes] = []

    def is_closing(self) -> bool:
        return self.closing

    def write(self, data: bytes) -> None:
        self.data.append(data)


class _FakeConn(ServerProtocol):
    """websockets' server connection, open, framing each text as <text>."""

    def __init__(self) -> None:
        super().__init__()
        self.state = State.OPEN
        self.frames: list[bytes] = []

    def send_text(self, data: bytes | bytearray | memoryview[int], fin: bool = True) -> None:
        self.frames.append(bytes(data))

    def data_to_send(self) -> list[bytes]:
        out, self.frames = self.frames, []
        return [b"<" + f + b">" for f in out]


class WebSocketsSansIOProtocol:
    """A stand-in named as uvicorn's protocol class: an accepted, open socket."""

    def __init__(self) -> None:
        self.handshake_complete = True
        self.initial_response = None
        self.close_sent = False
        self.disconnected = False
        self.writable: object = asyncio.Event()
        self.transport = _FakeTransport()
        self.conn = _FakeConn()

    async def send(self, message: object) -> None:
        return None


async def test_the_uvicorn_direct_writer_is_ready_only_while_the_socket_is_open_and_not_paused() -> None:
    proto = WebSocketsSansIOProtocol()
    assert isinstance(proto.writable, asyncio.Event)
    proto.writable.set()
    direct = direct_writer(proto.send)
    assert direct is not None
    assert direct.ready()
    direct.write("héllo")  # (no extension agreed: the writer frames it itself, RFC 6455 section 5.2)
    assert proto.transport.data == [b"\x81\x06" + "héllo".encode()]
    # with an extension agreed (permessage-deflate, say), websockets frames it
    proto.conn.extensions = [object()]  # type: ignore[list-item]
    direct = direct_writer(proto.send)
    assert direct is not None
    direct.write("bye")
    assert proto.transport.data[1:] == [b"<bye>"]
    proto.writable.clear()  # flow control paused the transport
    assert not direct.ready()
    proto.writable.set()
    assert direct.ready()
    for flag in ("close_sent", "disconnected"):
        setattr(proto, flag, True)
        assert not direct.ready()
        setattr(proto, flag, False)
    proto.transport.closing = True
    assert not direct.ready()


async def test_a_protocol_without_what_the_direct_writer_reads_gets_the_asgi_send() -> None:
    """Another uvicorn's protocol class under the same name, lacking what the direct writer binds: no
    direct writer (the frames go through the ASGI send), not a failed connection."""
    proto = WebSocketsSansIOProtocol()
    proto.writable = object()  # no is_set
    assert direct_writer(proto.send) is None
    proto.writable = asyncio.Event()
    del proto.close_sent
    assert direct_writer(proto.send) is None
    proto.close_sent = False
    assert isinstance(direct_writer(proto.send), UvicornDirect)
