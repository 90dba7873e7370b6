"""A bot whose action the room could not take (a cluster's bus down: ``room_unavailable``) sends it again,
as a player clicks again, while the turn is still its own; an acknowledged action, or one whose turn has
passed, is not sent again. Before this a pool bot waited out its whole time bank after a bus outage, and
the pool dealt again 35 s after the bus was back (issue 37's fault sequence)."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest

from pokerroom.bots import client as bot_client
from pokerroom.bots.client import BotClient
from pokerroom.bots.pool import PoolBot
from pokerroom.bots.strategies import PassiveCaller
from tests.waiting import until


class _Socket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(orjson.loads(text))


def _bot(kind: str) -> tuple[BotClient, _Socket]:
    strategy = PassiveCaller()
    bot: BotClient = (
        PoolBot("http://127.0.0.1:1", "b1", strategy, "rush", 100)
        if kind == "pool"
        else BotClient("http://127.0.0.1:1", "b1", strategy, "t1")
    )
    ws = _Socket()
    bot._ws = ws
    return bot, ws


async def _feed(bot: BotClient, msg: dict[str, Any]) -> None:
    handler = bot._on_pool_message if isinstance(bot, PoolBot) else bot._on_message
    await handler(msg)


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["table", "pool"])
async def test_an_action_the_room_could_not_take_is_sent_again_while_it_is_the_bots_turn(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot_client, "RESEND_AFTER", 0.0)
    bot, ws = _bot(kind)
    turn = [True]
    act = {"type": "act", "table": "t1", "hand_id": "h1", "action_no": 3, "action": {"type": "check"}}
    await bot.send_action({**act, "ref": "r1"}, lambda: turn[0])
    await _feed(bot, {"type": "error", "code": "room_unavailable", "ref": "r1", "message": "bus down"})
    await until(lambda: len(ws.sent) == 2, timeout=30, what="the action sent again")
    assert ws.sent[1] == ws.sent[0]  # the same action, number and ref: a repeat is harmless
    await _feed(bot, {"type": "error", "code": "room_unavailable", "ref": "r1", "message": "bus down"})
    await until(lambda: len(ws.sent) == 3, timeout=30, what="sent a third time")
    await _feed(bot, {"type": "ack", "ref": "r1"})
    await _feed(bot, {"type": "error", "code": "room_unavailable", "ref": "r1", "message": "late"})
    await bot.send_action({**act, "action_no": 4, "ref": "r2"}, lambda: turn[0])
    turn[0] = False  # the turn passed (timed out): nothing is sent again
    await _feed(bot, {"type": "error", "code": "room_unavailable", "ref": "r2", "message": "bus down"})
    await _feed(bot, {"type": "error", "code": "not_your_turn", "ref": "r3", "message": "other"})
    await asyncio.gather(*bot._tasks)
    assert [m["ref"] for m in ws.sent] == ["r1", "r1", "r1", "r2"]
    assert bot._unacked == {}


@pytest.mark.asyncio
async def test_a_bot_not_seated_looks_again_after_the_room_could_not_take_its_subscribe_or_sit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cluster moved the table between hosts as the bot subscribed and sat (issue 37's fault sequence:
    three tables never dealt, their bots having given up): the bot subscribes again, once for the two
    refusals, and sits from the snapshot that answers it."""
    monkeypatch.setattr(bot_client, "LOOK_AGAIN_AFTER", 0.0)
    bot, ws = _bot("table")
    await bot._send({"type": "subscribe", "table": "t1"})
    await bot._send({"type": "sit", "table": "t1", "seat": 2, "buy_in": 100})
    for sent in list(ws.sent):  # both refused: one subscribe again
        await _feed(
            bot, {"type": "error", "code": "room_unavailable", "ref": sent["ref"], "message": "moved"}
        )
    await asyncio.gather(*bot._tasks)
    assert [m["type"] for m in ws.sent] == ["subscribe", "sit", "subscribe"]
    # A late refusal of something else (an action already acknowledged) is no reason to look again.
    await _feed(bot, {"type": "ack", "ref": ws.sent[2]["ref"]})
    await _feed(bot, {"type": "error", "code": "room_unavailable", "ref": ws.sent[2]["ref"], "message": "x"})
    await _feed(bot, {"type": "error", "code": "room_unavailable", "ref": "r9", "message": "late"})
    await asyncio.gather(*bot._tasks)
    assert len(ws.sent) == 3


@pytest.mark.asyncio
@pytest.mark.parametrize("code", ["store_unavailable", "room_unavailable"])
async def test_a_pool_bot_joins_again_after_a_join_refused_for_now(
    code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pool_join refused because the pool waits for its store, or is moving between a cluster's hosts
    (or stopped): the bot joins again, as a player would; refused for another reason, it does not."""
    from pokerroom.bots import pool as bot_pool

    monkeypatch.setattr(bot_pool, "JOIN_AGAIN", 0.0)
    bot, ws = _bot("pool")
    assert isinstance(bot, PoolBot)
    await bot._join(1)
    await _feed(bot, {"type": "error", "code": code, "ref": ws.sent[0]["ref"], "message": "not now"})
    await asyncio.gather(*bot._tasks)
    assert [m["type"] for m in ws.sent] == ["pool_join", "pool_join"]
    await _feed(
        bot, {"type": "error", "code": "insufficient_funds", "ref": ws.sent[1]["ref"], "message": "no"}
    )
    await asyncio.gather(*bot._tasks)
    assert len(ws.sent) == 2
