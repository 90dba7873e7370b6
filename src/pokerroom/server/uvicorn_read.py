"""Clients' text frames read straight off uvicorn's socket: the reading half of server/uvicorn_direct.py.

uvicorn's websockets-sansio protocol hands every byte a client sends to websockets' sans-I/O parser (a
generator that reads a frame's header, its length, its mask and its payload through a stream reader,
builds a ``Frame``, checks it, and queues it as an event) and then dispatches the events one by one.
Reading a frame here takes two thirds of the CPU time it takes there (``benchmarks/ws_read.py``: about
3.1 against 4.8 us, delivery included; docs/server-speed.md, item 28).
:class:`FastReadProtocol` is that protocol with one difference: once the socket is open, a complete,
final, masked text frame without extension bits (every message of the room's clients) is unmasked here
and given to uvicorn's own ``send_receive_event_to_app``, exactly as uvicorn's ``handle_text`` gives it
(the same UTF-8 check, the same ASGI event, the same pause of reading). Every other frame (a ping, a
pong, a close, a binary or fragmented message, one too large, one that breaks the protocol) is handed
to websockets whole, so its parser always starts at a frame boundary and answers it as before; the
bytes of a frame that has not fully arrived wait here until it has (at most ``ws_max_size`` and a
header: a longer one goes to websockets at once, which refuses it).

The fast path engages only at a frame boundary of an open socket that websockets' parser has seen
nothing of but the opening request: bytes a client sends before the handshake is answered, or any state
websockets is in that this module does not follow (a fragmented message in progress, a failed parse, a
closing handshake), give the socket to websockets for good. What it reads, checked for each socket (a
version without them gets the plain protocol's reading): uvicorn's ``handshake_initiated``,
``handshake_complete``, ``close_sent``, ``curr_msg_data_type``, ``frames`` and
``send_receive_event_to_app`` (uvicorn's ``handle_text`` sets the two before and calls the last), and of
its websockets protocol ``conn``: ``state``, ``parser_exc``, ``current_size``, ``max_message_size`` and
``max_fragment_size``. Tested with uvicorn 0.55.0 and websockets 17.4 (``pyproject.toml`` admits uvicorn
0.53-0.55: read a new version's ``websockets_sansio_impl.py`` for these names before widening it).
tests/server/test_uvicorn_read.py holds the two protocols to the same events, bytes written and closes
over random streams of frames cut at random places.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State
from websockets.utils import apply_mask

__all__ = ["FastReadProtocol", "ws_protocol"]

OPEN = State.OPEN
_CONN_READS = ("state", "parser_exc", "current_size", "max_message_size", "max_fragment_size")
_PROTOCOL_READS = (
    "handshake_initiated",
    "handshake_complete",
    "close_sent",
    "curr_msg_data_type",
    "frames",
    "send_receive_event_to_app",
)
_TEXT_FINAL = 0x81  # FIN, no extension bits, opcode 1 (text)
_MASKED = 0x80


class FastReadProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol, reading the clients' text frames itself (module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # websockets' parser is at a frame boundary and sees only what is handed to it (and the installed
        # uvicorn and websockets have everything the fast path reads: else the plain protocol, always)
        self._fast = all(hasattr(self.conn, name) for name in _CONN_READS) and all(
            hasattr(self, name) for name in _PROTOCOL_READS
        )
        self._partial = b""  # the start of a frame that has not fully arrived
        # the largest frame websockets takes outside a fragmented message (its ``max_size``, uvicorn's
        # ``ws_max_size``): set when the protocol is made, so found once, not at every read
        sizes = [getattr(self.conn, n, None) for n in ("max_message_size", "max_fragment_size")]
        self._limit: int | None = min((s for s in sizes if s is not None), default=None)

    def data_received(self, data: bytes) -> None:
        if not self._fast or not self.handshake_complete:
            if self.handshake_initiated:  # bytes sent before the handshake was answered: websockets'
                self._fast = False
            super().data_received(data)
            return
        if self._partial:
            data = self._partial + data
            self._partial = b""
        self._frames(data)

    def _open(self) -> bool:
        conn = self.conn
        return (
            conn.state is OPEN
            and conn.parser_exc is None
            and conn.current_size is None
            and not self.close_sent
        )

    def _frames(self, data: bytes) -> None:
        """Take every complete frame of ``data`` in turn (module doc); keep the start of an incomplete one."""
        size = len(data)
        pos = 0
        limit = self._limit
        while pos < size:
            if not self._open():
                self._fast = False
                super().data_received(data[pos:])
                return
            if size - pos < 2:
                break
            first, second = data[pos], data[pos + 1]
            length = second & 0x7F
            head = 2
            if length == 126:
                if size - pos < 4:
                    break
                length = int.from_bytes(data[pos + 2 : pos + 4], "big")
                head = 4
            elif length == 127:
                if size - pos < 10:
                    break
                length = int.from_bytes(data[pos + 2 : pos + 10], "big")
                head = 10
            masked = second & _MASKED
            if not masked or (limit is not None and length > limit):
                # websockets refuses it from its header (masking, size): the rest is its own
                self._fast = False
                super().data_received(data[pos:])
                return
            end = pos + head + 4 + length
            if end > size:
                break
            if first == _TEXT_FINAL:
                key = data[pos + head : pos + head + 4]
                payload = data[pos + head + 4 : end]
                self.curr_msg_data_type = "text"
                self.frames = [apply_mask(payload, key) if length else b""]
                self.send_receive_event_to_app()
            else:  # any other frame, whole: websockets parses it and answers as it always does
                super().data_received(data[pos:end])
            pos = end
        if pos < size:
            self._partial = data[pos:]


def ws_protocol() -> type[WebSocketsSansIOProtocol]:
    """What a server's ``uvicorn.Config(ws=...)`` takes for the room's sockets (``pokerroom serve``, a
    cluster's gateway, the load test's server)."""
    return FastReadProtocol
