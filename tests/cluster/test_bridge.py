"""What a browser gets through a gateway is what one process would send it (issue 33):

- a table's frames cross from the host to the gateway with their table and number, wherever the frame
  writes them: a ``seat`` frame with a long player name or a long dealer ``chat`` carries ``table`` and
  ``seq`` after its first 160 characters, and the "table is moving" notice the gateway makes up during a
  failover must still get the next number (the browser drops a number it has seen as old);
- a player's ``last_hand`` asked through a gateway is the one-process answer, deck proof included
  (docs/protocol.md), and so is the ``last_hands`` list.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import orjson
import pytest

from pokerroom.engine import Betting, Stakes
from pokerroom.history import parse_proof
from pokerroom.rooms import TableConfig, Timing
from pokerroom.rooms.rush_rules import PoolConfig, RushTiming
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server import protocol as p
from pokerroom.server.cluster.gateway import MOVING, Gateway
from pokerroom.server.cluster.host import Host
from pokerroom.server.cluster.remote import Outbox, RemoteConnection
from pokerroom.server.cluster.subjects import Subjects
from pokerroom.server.connection import Connection
from pokerroom.server.core import TableCore, Watch
from pokerroom.server.room import RoomSettings
from tests.server.harness import Harness

TIMING = Timing(action=10.0, time_bank=5.0, between_hands=1.0, disconnect_grace=600, sit_out_limit=3600)


class _Browser:
    """A gateway's client connection: the texts it was sent, as the socket would write them."""

    def __init__(self, player: str | None = None, name: str = "") -> None:
        self.player = player
        self.name = name
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.texts.append(text)


LONG_NAME = "Sir " + "Reginald-" * 14  # a long display name: the seat frame's keys go past 160 characters
SEAT = {
    "type": "seat",
    "seat": 3,
    "player": "17",
    "name": LONG_NAME,
    "stack": 2000,
    "status": "playing",
    "markers": ["sitting_out_next"],
}
DEALER = {"type": "chat", "from": "dealer", "text": "Operator: " + "the room closes for maintenance " * 6}


@pytest.mark.asyncio
@pytest.mark.parametrize("long_frame", [SEAT, DEALER], ids=["seat", "dealer_chat"])
async def test_a_gateway_keeps_the_number_of_a_long_frame_for_its_moving_notice(
    long_frame: dict[str, Any],
) -> None:
    # the gateway, with one browser watching table a (its connection id on the bus: the gateway's)
    gw = Gateway(None, None, None, Subjects("club"), "g1")  # type: ignore[arg-type]
    browser = _Browser()
    cid = gw._cid(browser)  # type: ignore[arg-type]
    gw.watching[cid] = {"table:a": {"a"}}
    # the host: a real table core sends to that connection, through the outbox to the gateway
    batches: list[bytes] = []

    async def to_gateway(data: bytes) -> None:
        batches.append(data)

    made: list[str] = []  # every text the core made, for the byte-for-byte comparison
    core = TableCore("a", seat_of=lambda player: None)
    remote = RemoteConnection("g1", cid, Outbox(to_gateway))
    core.watch(remote, Watch(remote.send, None))
    core.watch("recorder", Watch(lambda text, head: made.append(text), None))
    core.broadcast({"type": "chat", "from": "ann", "text": "hi"})  # seq 1: short
    core.broadcast(dict(long_frame))  # seq 2: "table" and "seq" after 160 characters
    assert len(made[1]) > 160 and made[1].index('"seq":') > 160
    while not batches:
        await asyncio.sleep(0)
    for batch in batches:
        await gw._frames(SimpleNamespace(data=batch))  # type: ignore[arg-type]
    assert browser.texts == made  # the browser gets the host's frames byte for byte

    gw._moving("table:a")  # the host went silent: the gateway tells the watcher the table is moving
    notice = browser.texts[-1]
    assert (
        notice
        == orjson.dumps(
            {"type": "table_status", "table": "a", "seq": 3, "status": "paused", "reason": MOVING}
        ).decode()
    )


class _Wire:
    """A bus between one gateway and one host in this process: the gateway's questions to all hosts
    reach the host's handler, its answers come back to the gateway."""

    def __init__(self) -> None:
        self.host: Host | None = None
        self.sent: dict[str, list[bytes]] = {}
        self._inboxes = 0

    def down_for(self) -> float:
        return 0.0

    async def publish(self, subject: str, payload: bytes, reply: str = "") -> None:
        self.sent.setdefault(subject, []).append(payload)

    async def gather(self, subject: str, payload: bytes, *, expect: int, timeout: float = 1.0) -> list[bytes]:
        assert self.host is not None
        self._inboxes += 1
        inbox = f"_INBOX.{self._inboxes}"
        await self.host._ask(SimpleNamespace(subject=subject, data=payload, reply=inbox))  # type: ignore[arg-type]
        return self.sent.pop(inbox, [])


@pytest.mark.asyncio
async def test_a_last_hand_through_a_gateway_is_the_one_process_answer_with_its_deck_proof(
    tmp_path: Path,
) -> None:
    cfg = TableConfig("t", "T", "holdem", Betting.NO_LIMIT, Stakes.blinds(10, 20), 3, timing=TIMING)
    h = await Harness.open(tmp_path, RoomSettings(tables=(cfg,)), seed=3)
    try:
        clients = [await h.cash_bot(f"player{i}", "t", "caller", seed=i) for i in range(2)]
        actor = h.room.tables["t"]
        await h.run(lambda: actor.hands_played >= 2, seconds=3600)
        ann = clients[0]
        player = ann.conn.player
        assert player is not None
        hand_id = h.room.last_hands.hands(player)[0].hand_id

        # one process: the room's own answers
        await h.send(ann, {"type": "last_hands"})
        await h.send(ann, {"type": "last_hands", "hand_id": hand_id})
        await h.run(lambda: bool(ann.of("last_hand")), seconds=60)
        one_list, one_hand = ann.of("last_hands")[-1], ann.of("last_hand")[-1]

        # a cluster: the same room as a host's, asked through a gateway
        wire = _Wire()
        subjects = Subjects("club")
        wire.host = Host(h.room, wire, subjects, "h1")  # type: ignore[arg-type]
        gw = Gateway(h.store, RoomSettings(), wire, subjects, "g1")  # type: ignore[arg-type]
        browser = _Browser(player, ann.name)
        await gw.handle(browser, p.LastHands(type="last_hands"))  # type: ignore[arg-type]
        await gw.handle(browser, p.LastHands(type="last_hands", hand_id=hand_id))  # type: ignore[arg-type]
        cluster_list, cluster_hand = browser.texts

        assert one_hand["proof"] is not None
        assert parse_proof(one_hand["proof"]["proof"]).root == one_hand["proof"]["commitment"]
        assert cluster_hand == orjson.dumps(one_hand).decode()  # the same frame, byte for byte
        assert cluster_list == orjson.dumps(one_list).decode()
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_every_table_frame_leaves_its_maker_with_its_type_table_and_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cash tables, Rush pools and tournament tables, watchers and players: each frame a connection is
    handed carries the head (type, table, seq) its text holds, or none when it has no table number; the
    gateway routes by the head alone (issue 33, item 4)."""
    sent: list[tuple[str, Any]] = []
    hands: dict[str, set[str]] = {}  # the hands begun at each table
    plain = Connection.send

    def recording(self: Connection, text: str, head: Any = None) -> None:
        sent.append((text, head))
        if '"hand_started"' in text:
            frame = orjson.loads(text)
            hands.setdefault(frame["table"], set()).add(frame["hand_id"])
        plain(self, text, head)

    monkeypatch.setattr(Connection, "send", recording)
    cash = TableConfig("t", "T", "holdem", Betting.NO_LIMIT, Stakes.blinds(10, 20), 3, timing=TIMING)
    rush = RushTiming(action=10.0, reduced_action=5.0, time_bank=5.0, disconnect_grace=600)
    pool = PoolConfig("r", "R", "holdem", Betting.NO_LIMIT, Stakes.blinds(10, 20), 6, timing=rush)
    sng = TournamentConfig(
        "s", "SNG", kind="sng", variant="holdem", betting=Betting.NO_LIMIT, buy_in=100, fee=10,
        starting_stack=1_500, table_size=3, max_players=3, level_minutes=10.0,
    )  # fmt: skip
    settings = RoomSettings(tables=(cash,), pools=(pool,), tournaments=(sng,))
    h = await Harness.open(tmp_path, settings, seed=5)
    try:
        for i in range(2):
            await h.cash_bot(f"cash{i}", "t", "caller", seed=i)
        watcher = h.connect("watcher", None)
        await h.send(watcher, {"type": "subscribe", "table": "t"})
        for i in range(3):
            await h.pool_bot(f"rush{i}", "r", "random", seed=i)
        (tid,) = list(h.room.tournaments)
        for i in range(3):
            await h.tournament_bot(f"sng{i}", tid, "caller", seed=i)
        tables, rushing = h.room.tournaments[tid].director.tables, h.room.pools["r"].pool

        def played(at: Callable[[str], bool]) -> int:
            return sum(len(v) for k, v in hands.items() if at(k))

        def enough() -> bool:
            cash, pool = played("t".__eq__), played(rushing.names_table)
            tourney = {t.tid for t in tables.values()}
            return cash >= 3 and pool >= 3 and played(tourney.__contains__) >= 2

        await h.run(enough, seconds=50_000, limit=60)
        for game in ("t", "r"):  # closed after their hands: their watchers get table_closed
            await h.room.close_game(game)
        await h.run(lambda: "t" not in h.room.tables and "r" not in h.room.pools, seconds=3600)
    finally:
        await h.close()
    kinds: set[str] = set()
    for text, head in sent:
        frame = orjson.loads(text)
        table_no = isinstance(frame.get("table"), str) and type(frame.get("seq")) is int
        if table_no:
            kinds.add(frame["type"])
        assert head == ((frame["type"], frame["table"], frame["seq"]) if table_no else None), text[:200]
    assert {"event", "turn", "snapshot", "seat", "pool_move", "table_closed"} <= kinds, kinds
