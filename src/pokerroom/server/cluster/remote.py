"""A gateway's client connection as a table host sees it, and the frames on their way back.

A host's actors work exactly as in a one-process room: they send each viewer's frame to the viewer's
:class:`~pokerroom.server.connection.Connection`. On a host that connection is a
:class:`RemoteConnection`, whose ``send`` puts the frame in its gateway's :class:`Outbox`; the outbox sends
everything of one event-loop tick to the gateway as one bus message, the same text written once with the
list of connections it is for. The projection for each viewer happened on the host, so a gateway never
receives a card its viewers may not see.

Each batch is a :class:`~.messages.FrameBatch`: every item carries, besides its text and its connections,
the head its maker gave the frame (:data:`~pokerroom.server.connection.Head`: type, table and ``seq``),
so that a gateway routes the frames and keeps each table's number without reading them, and no process
reads a frame's text after it was made.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from pokerroom.server.cluster.messages import FrameBatch, FrameItem
from pokerroom.server.connection import Connection, Head

__all__ = ["Outbox", "RemoteConnection"]


NO_HEAD = (None, None, None)  # the headers of a frame that has no table number


class Outbox:
    """The frames for one gateway's connections, sent once per loop tick."""

    def __init__(self, send: Callable[[bytes], Coroutine[Any, Any, None]], host: str | None = None) -> None:
        self._send = send
        self.host = host  # (named in each batch: a gateway hears a table only from the host that holds it)
        self._groups: list[tuple[str, Head | None, list[str]]] = []
        self._scheduled = False
        self._tasks: set[asyncio.Task[None]] = set()

    def put(self, conn_id: str, text: str, head: Head | None = None) -> None:
        groups = self._groups
        if groups and groups[-1][0] is text:  # a broadcast: the same text to many watchers
            groups[-1][2].append(conn_id)
        else:
            groups.append((text, head, [conn_id]))
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        groups, self._groups = self._groups, []
        if groups:
            items = tuple(FrameItem(text, tuple(conns), *(head or NO_HEAD)) for text, head, conns in groups)
            batch = FrameBatch(items, self.host)
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

    def send(self, text: str, head: Head | None = None) -> None:
        if not self.closed:
            self.outbox.put(self.conn_id, text, head)

    def end(self, frame: str, code: int) -> None:
        self.send(frame)

    async def stop(self) -> None:
        self.closed = True


async def _nothing(text: str) -> None:
    return


async def _no_close(code: int) -> None:
    return
