"""Waiting on a condition in the live tests: poll it until it holds, and when it never does, fail naming
what was waited for and the last thing seen (issue 33), never "gave up waiting" or a bare TimeoutError.

``until`` is for asynchronous tests (the condition may be a plain or an async function), ``wait_until`` for
synchronous ones (the browser tests, whose ``pause`` lets Playwright run its events while they wait).
Both return the first truthy value the condition gave, so a condition can hand back what it found.
``within`` bounds one awaitable (a frame read) the same way.

A wait that times out raises :class:`NotWithin`: an AssertionError, so the test fails saying what it waited
for, and a TimeoutError, so code that waits a little on purpose and goes on can still catch it."""

from __future__ import annotations

import ast
import asyncio
import inspect
import linecache
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, overload

__all__ = ["NotWithin", "describe", "until", "wait_until", "within"]

T = TypeVar("T")

_NOTHING = object()


class NotWithin(AssertionError, TimeoutError):
    """What was waited for did not come in time (the message says what, and what was seen instead)."""


def describe(check: Callable[..., object]) -> str:
    """A condition in words for a timeout's message: its own ``repr`` when it has one (a frame matcher),
    a lambda's source text, else its name."""
    if not inspect.isroutine(check) and "__repr__" in vars(type(check)):
        return repr(check)
    code = getattr(check, "__code__", None)
    if code is not None and code.co_name == "<lambda>":
        try:
            source = "".join(linecache.getlines(code.co_filename))
            found = [
                n
                for n in ast.walk(ast.parse(source))
                if isinstance(n, ast.Lambda) and n.lineno == code.co_firstlineno
            ]
            text = ast.get_source_segment(source, found[0]) if len(found) == 1 else None
            if text:
                return " ".join(text.split())
        except (SyntaxError, ValueError):
            pass
    return str(getattr(check, "__qualname__", repr(check)))


def _failure(what: str, timeout: float, last: object, error: BaseException | None, show: str | None) -> str:
    text = f"not within {timeout:g} s: {what}"
    if error is not None:
        text += f"\n  the last check raised {type(error).__name__}: {error}"
    elif last is not _NOTHING and last is not False and last is not None:
        text += f"\n  the last check gave {last!r}"
    if show is not None:
        text += f"\n  state: {show}"
    return text


def _text(state: object) -> str:
    return state if isinstance(state, str) else repr(state)


def _shown(show: Callable[[], object] | None) -> str | None:
    if show is None:
        return None
    try:
        return _text(show())
    except Exception as exc:  # (the state of a thing that broke: say so rather than hide the timeout)
        return f"<could not show it: {type(exc).__name__}: {exc}>"


async def _shown_async(show: Callable[[], object] | None) -> str | None:
    """``_shown`` for asynchronous waits, where ``show`` may be a coroutine function too."""
    if show is None:
        return None
    try:
        state = show()
        if inspect.isawaitable(state):
            state = await state
        return _text(state)
    except Exception as exc:
        return f"<could not show it: {type(exc).__name__}: {exc}>"


@overload
async def until(
    check: Callable[[], Awaitable[T]],
    *,
    timeout: float,
    what: str,
    every: float = ...,
    show: Callable[[], object] | None = ...,
    ignore: tuple[type[BaseException], ...] = ...,
) -> T: ...


@overload
async def until(
    check: Callable[[], T],
    *,
    timeout: float,
    what: str,
    every: float = ...,
    show: Callable[[], object] | None = ...,
    ignore: tuple[type[BaseException], ...] = ...,
) -> T: ...


async def until(
    check: Callable[[], Any],
    *,
    timeout: float,
    what: str,
    every: float = 0.05,
    show: Callable[[], object] | None = None,
    ignore: tuple[type[BaseException], ...] = (),
) -> Any:
    """Poll ``check()`` (a function or a coroutine function) every ``every`` seconds until it gives a truthy
    value, and return that value. After ``timeout`` seconds raise NotWithin naming ``what``, the last
    value the check gave (or the exception it raised, when it is one of ``ignore``: errors that mean "not
    yet", such as a connection refused while a server starts) and ``show()``, the state it looked at."""
    deadline = time.monotonic() + timeout
    last: object = _NOTHING
    error: BaseException | None = None
    while True:
        try:
            value = check()
            if inspect.isawaitable(value):
                value = await value
        except ignore as exc:
            error = exc
        else:
            error = None
            if value:
                return value
            last = value
        if time.monotonic() >= deadline:
            raise NotWithin(_failure(what, timeout, last, error, await _shown_async(show)))
        await asyncio.sleep(every)


def wait_until(
    check: Callable[[], T],
    *,
    timeout: float,
    what: str,
    every: float = 0.1,
    show: Callable[[], object] | None = None,
    pause: Callable[[float], object] = time.sleep,
) -> T:
    """``until`` for synchronous tests: ``pause(seconds)`` waits between checks (a browser test passes one
    that lets the page run, ``lambda s: page.wait_for_timeout(s * 1000)``)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise NotWithin(_failure(what, timeout, value, None, _shown(show)))
        pause(every)


async def within(
    wait: Awaitable[T], *, timeout: float, what: str, show: Callable[[], object] | None = None
) -> T:
    """``await wait``, at most ``timeout`` seconds; then NotWithin naming ``what`` and ``show()``."""
    try:
        return await asyncio.wait_for(wait, timeout)
    except TimeoutError:
        raise NotWithin(_failure(what, timeout, _NOTHING, None, await _shown_async(show))) from None
