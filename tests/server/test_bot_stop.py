"""A stopped bot leaves no thinking task pending (a pending one was destroyed at the interpreter's exit
with an asyncio error in the log)."""

from __future__ import annotations

import asyncio

import pytest

from pokerroom.bots.client import BotClient
from pokerroom.bots.pool import PoolBot
from pokerroom.bots.strategies import PassiveCaller


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["table", "pool"])
async def test_a_stopped_bot_cancels_the_decisions_it_was_thinking_over(kind: str) -> None:
    strategy = PassiveCaller()
    bot: BotClient = (
        BotClient("http://127.0.0.1:1", "b1", strategy, "t1")
        if kind == "table"
        else PoolBot("http://127.0.0.1:1", "b1", strategy, "rush", 100)
    )
    thinking = asyncio.create_task(asyncio.sleep(3600))
    bot._tasks.add(thinking)
    thinking.add_done_callback(bot._tasks.discard)
    await bot.stop()
    await asyncio.wait([thinking], timeout=10)
    assert thinking.cancelled()
    assert not bot._tasks
