"""Issue 33, items 1 and 2: every client message has one address (a table, a pool, a tournament or the
room) and one handler; handlers find endpoints in the room's index, which actors fill as they open and
close, so no route asks what kind of actor answers."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import pytest

from pokerroom.engine import Betting, Stakes
from pokerroom.rooms.rush_rules import PoolConfig, RushTiming
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server import protocol as p
from pokerroom.server import routes
from pokerroom.server.address import ROOM, Address, address_of
from pokerroom.server.errors import Refused
from pokerroom.server.room import RoomSettings

from .harness import Harness

SAMPLES: dict[type, dict[str, Any]] = {
    p.Subscribe: {"table": "t1"},
    p.Act: {"table": "t1", "hand_id": "h", "action_no": 0, "action": {"type": "fold"}},
    p.PoolJoin: {"pool": "r1", "buy_in": 100},
    p.QuickFold: {"pool": "r1", "entry": 1},
    p.TournamentRegister: {"tournament": "x1"},
    p.LastHands: {},
}


def test_every_client_message_has_a_handler_or_is_answered_at_once() -> None:
    answered_at_once = {p.Ping, p.Hello}
    assert set(p.CLIENT_MESSAGES) == set(routes.HANDLERS) | answered_at_once


def test_every_client_message_has_one_address() -> None:
    for cls in p.CLIENT_MESSAGES:
        fields = cls.model_fields
        kind = next((k for k in ("table", "pool", "tournament") if k in fields), None)
        if cls in SAMPLES:
            msg = p.parse_client(json.dumps({"type": _type(cls), **SAMPLES[cls]}))
            assert type(msg) is cls
            expected = Address(kind, SAMPLES[cls][kind]) if kind else ROOM
            assert address_of(msg) == expected, cls
        # every class is known to address_of (a message type added without an address fails here)
        assert any(cls in group for group in _groups()), cls


def test_routes_never_ask_what_kind_of_actor_answers() -> None:
    source = inspect.getsource(routes)
    for word in ("CashActor", "PoolActor", "TournamentActor", "isinstance(actor"):
        assert word not in source, word


def _type(cls: type) -> str:
    return str(cls.model_fields["type"].annotation.__args__[0])  # type: ignore[attr-defined]


def _groups() -> tuple[tuple[type, ...], ...]:
    from pokerroom.server import address

    return (address._TABLE, address._POOL, address._TOURNAMENT, address._ROOM)


@pytest.mark.asyncio
async def test_the_index_follows_tables_pools_and_tournament_tables(tmp_path: Path) -> None:
    timing = RushTiming(action=10.0, reduced_action=5.0, time_bank=5.0, disconnect_grace=600)
    pool = PoolConfig("r", "R", "holdem", Betting.NO_LIMIT, Stakes.blinds(10, 20), 6, timing=timing)
    sng = TournamentConfig(
        "s",
        "SNG",
        kind="sng",
        variant="holdem",
        betting=Betting.NO_LIMIT,
        buy_in=100,
        fee=10,
        starting_stack=1_500,
        table_size=3,
        max_players=3,
        level_minutes=10.0,
    )
    h = await Harness.open(tmp_path, RoomSettings(pools=(pool,), tournaments=(sng,)), seed=3)
    try:
        index = h.room.endpoints
        assert index.pool("r") is h.room.pools["r"]
        with pytest.raises(Refused) as refused:
            index.table("nowhere")
        assert refused.value.code == "unknown_table"
        (tid,) = list(h.room.tournaments)
        actor = h.room.tournaments[tid]
        for i in range(3):
            await h.tournament_bot(f"player{i}", tid, "caller", seed=i)
        await h.run(lambda: bool(actor.director.tables), seconds=600)
        table = next(iter(actor.director.tables.values())).tid
        ep = index.table(table)
        assert ep.owner is actor
        with pytest.raises(Refused) as refused:
            await ep.sit(h.clients[0].conn, 1, 100, False)
        assert refused.value.code == "tournament_table"
        await h.run(lambda: actor.finished_at is not None, seconds=50_000)
        await h.quiet()
        assert table not in index.tables  # its table closed with the tournament
        await h.room.close_game("r")
        await h.run(lambda: "r" not in h.room.pools, seconds=600)
        with pytest.raises(Refused) as refused:
            index.pool("r")
        assert refused.value.code == "unknown_pool"
    finally:
        await h.close()
