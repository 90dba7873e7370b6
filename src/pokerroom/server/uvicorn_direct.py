"""Frames straight to uvicorn's socket: with server/uvicorn_read.py (the other direction), the only
modules of the server that know uvicorn's internals.

A frame for a client normally goes through the ASGI send (``websocket.send``): a coroutine, and under the
connection's writer task a wake-up and a task step, for every message. :class:`UvicornDirect` does what
uvicorn's own send does for a text message (frame it with the socket's websockets protocol, write the
bytes to the transport) in a plain call: connection.py's ``DirectWrite``, written at the end of the
loop's step (docs/server-speed.md, item 16). :func:`direct_writer` gives one for an accepted socket
whose protocol has everything it reads, and None for any other (another server, another of uvicorn's
WebSocket protocols, a uvicorn whose protocol changed): the connection then sends through the ASGI send,
as it always can.

What it reads, all on the protocol object the ASGI send is bound to (``send.__self__``, a class named
``WebSocketsSansIOProtocol``: ``uvicorn.protocols.websockets.websockets_sansio_impl``, which uvicorn's
default ``ws="auto"`` picks when websockets is installed; the send itself is its method ``send``):

- Once per socket, in :func:`direct_writer`: ``handshake_complete`` (the app accepted, or answered
  otherwise) and ``initial_response`` (None: it did not answer with an HTTP response instead),
  ``close_sent`` and ``disconnected`` (not closed yet), ``conn`` (a ``websockets.server.ServerProtocol``)
  and its ``state`` (``State.OPEN``).
- Bound once per socket: ``writable.is_set`` (the ``asyncio.Event`` that the protocol's
  ``pause_writing`` / ``resume_writing`` clear and set: flow control), ``transport.is_closing``,
  ``conn.send_text`` (frames a message, compressed when permessage-deflate was agreed),
  ``conn.data_to_send`` (the framed bytes) and ``transport.write``. uvicorn sets ``writable`` and
  ``conn`` when it makes the protocol and ``transport`` when the connection is made, and never replaces
  them, so the bound methods hold for the socket's life. (Bound: a message looks none of them up; the
  writer is on the server's hottest path.)
- For every message, in :meth:`UvicornDirect.ready`: ``close_sent`` (the app sent its close) and
  ``disconnected`` (the connection was lost).
- Of the websockets protocol (``conn``, 2026-12-06): ``extensions`` once (none agreed: no
  permessage-deflate), and for every message ``state``, ``writes`` (its buffer of framed bytes not yet
  taken) and ``expect_continuation_frame``. When the socket has no extension, is open, has nothing
  buffered and is not in a fragmented message, :meth:`UvicornDirect.write` frames the text itself: the two
  header bytes (or four, or ten, for a longer payload) that ``Frame.serialize`` writes for an unmasked
  final text frame, then the UTF-8 payload. Otherwise it calls ``send_text`` as below.

These are what uvicorn's ``send`` reads for a ``websocket.send`` text message: it waits for
``writable``, raises when ``disconnected``, sends only while ``not close_sent and initial_response is
None``, and then calls ``conn.send_text(text.encode())`` and ``transport.write(b"".join(
conn.data_to_send()))``. The direct writer does not wait: :meth:`~UvicornDirect.ready` is False (and the
connection's writer task sends through the ASGI send, which waits) while the socket is paused, closed or
closing.

Tested with uvicorn 0.53.0, 0.54.0 and 0.55.0 (their websockets-sansio protocols have all of the above,
used as described) on websockets 17.4; ``pyproject.toml`` pins uvicorn to ``>=0.53,<0.56``. Before
widening the pin, read the new version's ``websockets_sansio_impl.py`` for these names and run
tests/server/test_uvicorn_direct.py, which runs a real uvicorn and checks that the direct path and the
ASGI path put the same bytes on the wire, and that a protocol lacking what the writer reads gets the
ASGI send.
"""

from __future__ import annotations

import struct
from typing import Any

from websockets.protocol import State
from websockets.server import ServerProtocol

__all__ = ["UvicornDirect", "direct_writer"]

OPEN = State.OPEN
_LEN16 = struct.Struct("!BBH").pack  # a frame header with a 16-bit payload length
_LEN64 = struct.Struct("!BBQ").pack  # ... and with a 64-bit one


class UvicornDirect:
    """A direct writer (connection.DirectWrite) on uvicorn's websockets-sansio protocol: what its ASGI
    send does for a text message (frame it, write it to the transport), without the coroutine (made by
    :func:`direct_writer`)."""

    __slots__ = ("_closing", "_conn", "_data", "_frame", "_plain", "_writable", "_write", "proto")

    def __init__(self, proto: Any) -> None:
        self.proto = proto
        # (bound once: these are looked up for every message; the socket keeps them for its life)
        self._writable = proto.writable.is_set
        self._closing = proto.transport.is_closing
        self._conn = proto.conn
        self._frame = proto.conn.send_text
        self._data = proto.conn.data_to_send
        self._write = proto.transport.write
        # No extension agreed (no permessage-deflate): a text message is one unmasked frame that
        # :meth:`write` can build itself (RFC 6455 section 5.2), as websockets would build it. (Read here,
        # so that a websockets without what :meth:`write` reads gets the ASGI send, not a failed socket.)
        self._plain = not proto.conn.extensions
        _ = proto.conn.writes, proto.conn.expect_continuation_frame

    def ready(self) -> bool:
        """Open and not paused. (Accepted, with no HTTP answer instead: checked when it was made. A
        connection the client began to close makes :meth:`write` raise, as the ASGI send would.)"""
        p = self.proto
        return not p.close_sent and not p.disconnected and self._writable() and not self._closing()

    def write(self, text: str) -> None:
        conn = self._conn
        if self._plain and conn.state is OPEN and not conn.writes and not conn.expect_continuation_frame:
            # The frame websockets' ``send_text`` would make (FIN, opcode 1, no mask: a server's frame),
            # without its Frame object, checks and buffer: the writer's largest cost after the system call.
            data = text.encode()
            n = len(data)
            head = (
                bytes((0x81, n)) if n < 126 else _LEN16(0x81, 126, n) if n < 65536 else _LEN64(0x81, 127, n)
            )
            self._write(head + data)
            return
        self._frame(text.encode())  # (a compressed socket, or not open: websockets frames it, or raises)
        self._write(b"".join(self._data()))


def direct_writer(send: object) -> UvicornDirect | None:
    """The direct writer for the accepted socket behind ``send`` (the server's ASGI send, as the security
    middleware kept it), when the server is uvicorn's websockets-sansio protocol with every attribute the
    writer reads; else None, and the connection sends through the ASGI send (another uvicorn's class of
    that name, lacking one, gets the ASGI send as before, not a failed connection)."""
    proto: Any = getattr(send, "__self__", None)
    uvicorns = (c.__name__ == "WebSocketsSansIOProtocol" for c in type(proto).__mro__)  # (or a subclass:
    if not any(uvicorns) or getattr(send, "__name__", "") != "send":  # server/uvicorn_read.py's)
        return None
    try:
        if not proto.handshake_complete or proto.initial_response is not None:
            return None
        if proto.close_sent or proto.disconnected:
            return None
        if not isinstance(proto.conn, ServerProtocol) or proto.conn.state is not State.OPEN:
            return None
        return UvicornDirect(proto)
    except AttributeError:
        return None
