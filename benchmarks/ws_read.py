"""Reading clients' frames: the room's FastReadProtocol (server/uvicorn_read.py) against uvicorn's own
websockets-sansio protocol, side by side in one run.

Each protocol gets a socket opened on a stand-in transport, then the same stream of masked text frames,
a typical ``act`` message each, in reads of one frame (as the load test's bots send them); after each
read the application's side takes the message off the protocol's queue as uvicorn's ``receive`` does.
CPU time (``time.process_time``) per frame, the two alternated in pairs; prints the medians and the
ratio. The load test (``benchmarks/server.py``) measures the whole server, where this is a few per cent
and the machine's noise between rounds is larger (docs/server-speed.md, item 28).

    python benchmarks/ws_read.py [--frames 20000] [--pairs 7]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

import orjson
import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode

from pokerroom.server.uvicorn_read import FastReadProtocol

REQUEST = (
    b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)
MESSAGE = orjson.dumps(
    {
        "type": "act",
        "table": "holdem-nl-17",
        "hand_id": "h-0123456789abcdef",
        "action_no": 12,
        "action": {"type": "raise_to", "amount": 1200},
        "ref": "a-4411",
    }
)


class Transport:
    def write(self, data: bytes) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        pass

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(name, default)


async def _opened(cls: type[WebSocketsSansIOProtocol], done: asyncio.Event) -> WebSocketsSansIOProtocol:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await done.wait()  # (the benchmark takes the messages off the queue itself)

    config = uvicorn.Config(app, ws_max_size=65536, ws_per_message_deflate=False, ws_ping_interval=None)
    config.load()
    proto = cls(config=config, server_state=ServerState(), app_state={}, _loop=asyncio.get_running_loop())
    proto.connection_made(Transport())  # type: ignore[arg-type]
    proto.data_received(REQUEST)
    while not proto.handshake_complete:
        await asyncio.sleep(0)
    return proto


def _read(proto: WebSocketsSansIOProtocol, frames: list[bytes]) -> float:
    """CPU seconds per frame: each read handed to the protocol, its message taken off the queue."""
    queue = proto.queue
    began = time.process_time()
    for frame in frames:
        proto.data_received(frame)
        queue.get_nowait()
        proto.read_paused = False  # (what uvicorn's receive does once the queue is empty)
    return (time.process_time() - began) / len(frames)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20_000)
    parser.add_argument("--pairs", type=int, default=7)
    args = parser.parse_args()
    frames = [Frame(Opcode.TEXT, MESSAGE).serialize(mask=True) for _ in range(args.frames)]
    done = asyncio.Event()
    plain, fast = await _opened(WebSocketsSansIOProtocol, done), await _opened(FastReadProtocol, done)
    _read(plain, frames[:1000]), _read(fast, frames[:1000])  # (warm-up)
    theirs: list[float] = []
    ours: list[float] = []
    for _ in range(args.pairs):
        theirs.append(_read(plain, frames))
        ours.append(_read(fast, frames))
    a, b = statistics.median(theirs), statistics.median(ours)
    print(f"{args.frames} frames of {len(MESSAGE)} bytes, {args.pairs} pairs, CPU time per frame (medians)")
    print(f"  uvicorn's websockets-sansio protocol  {a * 1e6:7.2f} us")
    print(f"  FastReadProtocol                      {b * 1e6:7.2f} us   x{b / a:.2f} of the time")
    paired = statistics.median(o / t for o, t in zip(ours, theirs, strict=True))
    print(f"  paired median ratio                   x{paired:.2f}")
    done.set()
    for proto in (plain, fast):
        for task in list(proto.tasks):
            await task


if __name__ == "__main__":
    asyncio.run(main())
