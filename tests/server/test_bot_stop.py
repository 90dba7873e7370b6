"""A stopped bot, or one whose run task is cancelled, leaves no thinking task pending (a pending one was
destroyed at the interpreter's exit with an asyncio error in the log)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from pokerroom.bots.client import BotClient
from pokerroom.bots.pool import PoolBot
from pokerroom.bots.strategies import PassiveCaller
from pokerroom.bots.tournament import TournamentBot


@pytest.mark.asyncio
@pytest.mark.parametrize("how", ["stopped", "cancelled"])
@pytest.mark.parametrize("kind", ["table", "pool", "tournament"])
async def test_a_stopped_bot_cancels_the_decisions_it_was_thinking_over(kind: str, how: str) -> None:
    strategy = PassiveCaller()
    url = "http://127.0.0.1:1"
    bots: dict[str, Callable[[], BotClient]] = {
        "table": lambda: BotClient(url, "b1", strategy, "t1"),
        "pool": lambda: PoolBot(url, "b1", strategy, "rush", 100),
        "tournament": lambda: TournamentBot(url, "b1", strategy, "sng-1"),
    }
    bot: BotClient = bots[kind]()
    thinking = asyncio.create_task(asyncio.sleep(3600))
    bot._tasks.add(thinking)
    thinking.add_done_callback(bot._tasks.discard)
    if how == "stopped":
        await bot.stop()
    else:  # what the load test and the fault tests do: the run task is cancelled (no server there)
        running = asyncio.create_task(bot.run())
        await asyncio.sleep(0)
        running.cancel()
        await asyncio.wait([running], timeout=10)
    await asyncio.wait([thinking], timeout=10)
    assert thinking.cancelled()
    assert not bot._tasks
