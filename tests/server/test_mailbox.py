"""An actor's mailbox (server/mailbox.py): a stopped actor refuses what it will never do, so that no caller
waits for ever on a mailbox nobody serves (issue 37: a dropped table's queued request held up a gateway)."""

from __future__ import annotations

import asyncio
import gc

import pytest

from pokerroom.server.clock import SystemClock
from pokerroom.server.mailbox import ActorStopped, Mailbox


async def _until(check: object, what: str) -> None:
    for _ in range(10_000):  # turns of the event loop, not time
        if check():  # type: ignore[operator]
            return
        await asyncio.sleep(0)
    raise AssertionError(what)


@pytest.mark.asyncio
async def test_stop_refuses_the_job_in_hand_the_queued_ones_and_any_later() -> None:
    actor = Mailbox(SystemClock())
    actor.start()
    release = asyncio.Event()
    began = asyncio.Event()

    async def busy() -> str:  # the job in hand: its task is cancelled under it
        began.set()
        await release.wait()
        return "done"

    async def later() -> str:
        return "never"

    running = asyncio.ensure_future(actor.call(busy))
    queued = [asyncio.ensure_future(actor.call(later)) for _ in range(2)]
    await asyncio.wait_for(began.wait(), 10)
    await _until(lambda: len(actor.inbox) == 2, "both jobs queued behind the one in hand")

    await actor.stop("t1 moved to another host; try again")

    for fut in (running, *queued):  # (before: the one in hand waited for ever, and the queued ones)
        with pytest.raises(ActorStopped) as refused:
            await asyncio.wait_for(fut, 10)
        assert refused.value.code == "room_unavailable"
        assert refused.value.message.startswith("t1 moved to another host; try again")
        # the one cut off while it ran may have taken effect, and says so; the queued ones never ran
        cut_off = "may have taken effect: look again before repeating it" in refused.value.message
        assert cut_off == (fut is running), refused.value.message
    assert not actor.inbox
    with pytest.raises(ActorStopped):  # asked after the stop: refused at once, never queued
        await asyncio.wait_for(actor.call(later), 10)
    assert not actor.inbox


@pytest.mark.asyncio
async def test_a_stopped_actor_leaves_answered_jobs_as_they_were() -> None:
    actor = Mailbox(SystemClock())
    actor.start()

    async def job() -> int:
        return 7

    assert await asyncio.wait_for(actor.call(job), 10) == 7
    await actor.stop()
    with pytest.raises(ActorStopped) as refused:
        await actor.call(job)
    assert refused.value.code == "room_unavailable" and "Mailbox stopped" in refused.value.message


@pytest.mark.asyncio
async def test_a_job_nobody_waits_for_is_refused_without_an_unread_exception() -> None:
    """``queue_first`` (a tournament's first job) has no caller: its refusal at a stop must not be logged as
    an exception nobody retrieved (which a room restart did, at ERROR)."""
    actor = Mailbox(SystemClock())
    seen: list[dict[str, object]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: seen.append(context))
    try:

        async def first() -> None:
            return None

        actor.queue_first(first)  # (not started: it stays queued until the stop refuses it)
        (job,) = actor.inbox
        fut = job[1]
        await actor.stop()
        assert fut.done() and not fut.cancelled()  # refused (its exception is not read here)
        del job, fut
        gc.collect()
        await asyncio.sleep(0)
        assert seen == []
    finally:
        loop.set_exception_handler(None)


@pytest.mark.asyncio
async def test_an_operator_command_at_a_stopped_actor_is_refused_as_unavailable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A console command reaching a table, pool or tournament that stopped meanwhile (a move to another
    host, a restart): ``503 room_unavailable``, to try again, not an unhandled error (a bare 500, or a
    cluster host's request left unanswered)."""
    from pokerroom.server import operator
    from pokerroom.server.commands import CommandRefused, HoldTable

    async def stopped(r: object, cmd: object) -> object:
        raise ActorStopped("t1 moved to another host; try again")

    monkeypatch.setattr(operator, "_execute", stopped)
    with pytest.raises(CommandRefused) as refused:
        await operator.execute(None, HoldTable(table="t1", held=True))  # type: ignore[arg-type]
    assert (refused.value.status, refused.value.code) == (503, "room_unavailable")
    assert refused.value.message == "t1 moved to another host; try again"
