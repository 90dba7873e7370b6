"""A gateway's client connection as a table host sees it, and the frames on their way back.

A host's actors work exactly as in a one-process room: they send each viewer's frame to the viewer's
:class:`~pokerroom.server.connection.Connection`. On a host that connection is a
:class:`RemoteConnection`, whose ``send`` puts the frame in its gateway's :class:`Outbox`; the outbox sends
everything of one event-loop tick to the gateway as one bus message, the same text written once with the
list of connections it is for. The projection for each viewer happened on the host, so a gateway never
receives a card its viewers may not see.

Each batch is a :class:`~.messages.FrameBatch`: every item carries, besides its text and its connections,
the frame's type, table and ``seq`` as headers (:func:`frame_label`, read here once per text, where the
frame was made), so that a gateway routes the frames and keeps each table's number without reading them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import orjson

from pokerroom.server.cluster.messages import FrameBatch, FrameItem
from pokerroom.server.connection import Connection

__all__ = ["Outbox", "RemoteConnection", "frame_label"]


def frame_label(text: str) -> tuple[str | None, str | None, int | None]:
    """The type, table and ``seq`` of a frame this host made (each None when it has none): its batch
    item's headers."""
    try:
        frame = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None, None, None
    if not isinstance(frame, dict):
        return None, None, None
    kind, table, seq = frame.get("type"), frame.get("table"), frame.get("seq")
    return (
        kind if isinstance(kind, str) else None,
        table if isinstance(table, str) else None,
        seq if isinstance(seq, int) and not isinstance(seq, bool) else None,
    )


class Outbox:
    """The frames for one gateway's connections, sent once per loop tick."""

    def __init__(self, send: Callable[[bytes], Coroutine[Any, Any, None]]) -> None:
        self._send = send
        self._groups: list[tuple[str, list[str]]] = []
        self._scheduled = False
        self._tasks: set[asyncio.Task[None]] = set()

    def put(self, conn_id: str, text: str) -> None:
        groups = self._groups
        if groups and groups[-1][0] is text:  # a broadcast: the same text to many watchers
            groups[-1][1].append(conn_id)
        else:
            groups.append((text, [conn_id]))
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        groups, self._groups = self._groups, []
        if groups:
            items = tuple(FrameItem(text, tuple(conns), *frame_label(text)) for text, conns in groups)
            batch = FrameBatch(items)
            task = asyncio.get_running_loop().create_task(self._send(batch.encode()))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)


class RemoteConnection(Connection):
    """A connection of a gateway (``gateway``, ``conn_id``); what is sent to it goes to the outbox."""

    def __init__(self, gateway: str, conn_id: str, outbox: Outbox) -> None:
        super().__init__(_nothing, _no_close)
        self.gateway = gateway
        self.conn_id = conn_id
        self.outbox = outbox

    def start(self) -> None:  # no writer task: the outbox writes
        return

    def send(self, text: str) -> None:
        if not self.closed:
            self.outbox.put(self.conn_id, text)

    def end(self, frame: str, code: int) -> None:
        self.send(frame)

    async def stop(self) -> None:
        self.closed = True


async def _nothing(text: str) -> None:
    return


async def _no_close(code: int) -> None:
    return
