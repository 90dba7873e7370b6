"""A bot that learns from a snapshot that it sits out plays again, as it does from a ``seat`` frame.

Found by the cluster's spread test (tests/cluster/test_spread.py): a table moved between hosts deals its
first hand on the new host before the gateway has subscribed the players there; a bot busted in that
hand missed the ``seat`` frame that sat it out with no chips, then got the new host's snapshot saying so,
and stayed sitting out: its heads-up table never dealt again."""

from __future__ import annotations

import pytest

from pokerroom.rooms.view import table_view
from tests.rooms.helpers import at, holdem_table
from tests.server.test_bot_resend import _bot, _feed


def _snapshot(stack: int, sitting_out: bool) -> dict[str, object]:
    """The room's own snapshot of table t1 for player 7 at seat 2 (another player at seat 5)."""
    table = holdem_table()
    table.restore("7", "b1", 2, 1_000, at(0))
    table.restore("8", "b2", 5, 1_000, at(0))
    table.seats[2].stack = stack
    if sitting_out:
        table.sit_out("7", at(0))
    return {"type": "snapshot", "table": "t1", "state": table_view(table, "7", at(1))}


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("stack", "sitting_out", "sent"),
    [
        (0, True, ["top_up", "sit_in"]),  # busted: buys chips again, then sits in
        (400, True, ["sit_in"]),
        (400, False, []),  # playing: nothing to do
    ],
)
async def test_a_bot_sitting_out_in_a_snapshot_plays_again(
    stack: int, sitting_out: bool, sent: list[str]
) -> None:
    bot, ws = _bot("table")
    await _feed(bot, _snapshot(stack, sitting_out))
    assert [m["type"] for m in ws.sent] == sent
    assert bot.seat == 2
    top_up = [m for m in ws.sent if m["type"] == "top_up"]
    assert all(m["amount"] > 0 and m["table"] == "t1" for m in top_up)
