"""The event loop the room's processes run on: uvloop where it is installed (it comes with
``uvicorn[standard]``, a dependency), else asyncio's own. uvloop's transports and scheduling are written
in C; on the load test it takes a large share of the server's CPU per action off (docs/server-speed.md)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["loop_factory", "run"]

T = TypeVar("T")


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop factory, or None (asyncio's default) where uvloop cannot be imported or the
    environment says ``POKERROOM_LOOP=asyncio``."""
    if os.environ.get("POKERROOM_LOOP", "").lower() == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvloop comes with uvicorn[standard]
        return None
    return uvloop.new_event_loop


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on the room's event loop."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
