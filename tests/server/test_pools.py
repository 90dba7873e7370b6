"""Rush pools online (issue 8, RULES.md §8): join with entries, quick fold and move, no observers (R212),
money through the ledger, bots playing a pool over the live server."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import pytest_asyncio
import websockets

from pokerroom.bots.runner import start_pool_bots
from pokerroom.rooms.points import PointsPolicy
from pokerroom.rooms.rush_rules import RushTiming
from pokerroom.server.demo import demo_pools
from pokerroom.server.room import RoomSettings
from pokerroom.store import PLAY, AccountKind, Database, Store, verify_ledger
from tests.waiting import until

from .conftest import LiveServer, serve_room
from .wire import PASSWORD, Frame, auth, recv_until, register, send, stop_bots

pytestmark = pytest.mark.asyncio

FAST = RushTiming(action=2.0, reduced_action=1.0, time_bank=0.5, disconnect_grace=2.0)
POOL = "rush-holdem-nl-6max"


@contextlib.asynccontextmanager
async def pool_server(tmp: Path) -> AsyncIterator[LiveServer]:
    async with serve_room(tmp, RoomSettings(pools=tuple(demo_pools(FAST))), durable=False) as s:
        yield s


@pytest_asyncio.fixture
async def pools(tmp_path: Path) -> AsyncIterator[LiveServer]:
    async with pool_server(tmp_path) as s:
        yield s


async def test_the_lobby_lists_pools_with_game_stakes_and_players(pools: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=pools.url) as http:
        rows = (await http.get("/api/lobby")).json()["pools"]
    row = next(r for r in rows if r["pool"] == POOL)
    assert row["variant"] == "holdem" and row["betting"] == "NL" and row["table_size"] == 6
    assert row["stakes"] == {"small_blind": 10, "big_blind": 20} and row["players"] == 0
    assert {r["table_size"] for r in rows} == {6, 9}


async def test_join_with_entries_books_a_buy_in_each_and_refuses_a_fifth(pools: LiveServer) -> None:
    token = await register(pools, "alice")
    async with websockets.connect(pools.ws, additional_headers=auth(token)) as ws:
        await recv_until(ws, lambda m: m["type"] == "welcome")
        player = str((await pools.room.store.accounts.find("alice")).id)
        before = await pools.room.store.ledger.balance(int(player), PLAY)
        await send(ws, {"type": "pool_join", "pool": POOL, "entries": 3, "buy_in": 2000, "ref": "j"})
        joined = await recv_until(ws, lambda m: m["type"] == "pool_joined")
        assert joined["entries"] == [1, 2, 3] and joined["ref"] == "j"
        assert await pools.room.store.ledger.balance(int(player), PLAY) == before - 3 * 2000
        sessions = await pools.room.store.ledger.sessions(player_id=int(player), table_id=POOL)
        assert sorted(s.balance for s in sessions) == [2000, 2000, 2000]
        async with httpx.AsyncClient(
            base_url=pools.url, headers={"Authorization": f"Bearer {token}"}
        ) as http:
            mine = (await http.get(f"/api/pools/{POOL}")).json()["entries"]
        assert sorted(e["entry"] for e in mine) == [1, 2, 3] and all(e["stack"] == 2000 for e in mine)
        await send(ws, {"type": "pool_join", "pool": POOL, "entries": 2, "buy_in": 2000, "ref": "j2"})
        err = await recv_until(ws, lambda m: m["type"] == "error")
        assert err["code"] == "too_many_entries" and err["ref"] == "j2"
        await send(ws, {"type": "pool_join", "pool": POOL, "entries": 1, "buy_in": 10, "ref": "j3"})
        err = await recv_until(ws, lambda m: m["type"] == "error")
        assert err["code"] == "buy_in_out_of_range"
        await send(ws, {"type": "pool_leave", "pool": POOL, "ref": "l"})
        await recv_until(ws, lambda m: m["type"] == "ack" and m["ref"] == "l")
        assert await pools.room.store.ledger.balance(int(player), PLAY) == before
    async with httpx.AsyncClient(base_url=pools.url) as http:
        row = next(r for r in (await http.get("/api/lobby")).json()["pools"] if r["pool"] == POOL)
    assert row["entries"] == 0


async def test_r212_a_rush_table_cannot_be_observed(pools: LiveServer) -> None:
    bots = await start_pool_bots(pools.url, POOL, 3, ["caller"], think=(0, 0.01), seed=1)
    try:
        actor = pools.room.pools[POOL]
        await until(lambda: actor.pool.tables, timeout=30, what="the pool forms a table")
        table = next(iter(actor.pool.tables))
        token = await register(pools, "watcher")
        async with websockets.connect(pools.ws, additional_headers=auth(token)) as ws:
            await recv_until(ws, lambda m: m["type"] == "welcome")
            for target in (table, POOL):
                await send(ws, {"type": "subscribe", "table": target, "ref": "s"})
                err = await recv_until(ws, lambda m: m["type"] == "error")
                assert err["code"] == "no_observers" and err["ref"] == "s"
        async with websockets.connect(pools.ws) as ws:  # not logged in either
            await recv_until(ws, lambda m: m["type"] == "welcome")
            await send(ws, {"type": "subscribe", "table": table})
            assert (await recv_until(ws, lambda m: m["type"] == "error"))["code"] == "no_observers"
    finally:
        await stop_bots(bots)


async def test_a_player_quick_folds_and_is_moved_to_a_new_table(pools: LiveServer) -> None:
    """R213 over the wire: with bots filling two tables, the user's entry quick-folds facing the big blind
    and gets a new table (a new hand id) at once; its fold is booked and chips stay conserved."""
    bots = await start_pool_bots(pools.url, POOL, 11, ["caller"], think=(0.02, 0.1), quick_fold=0.0, seed=2)
    token = await register(pools, "quick")
    try:
        async with websockets.connect(pools.ws, additional_headers=auth(token)) as ws:
            await recv_until(ws, lambda m: m["type"] == "welcome")
            await send(ws, {"type": "pool_join", "pool": POOL, "entries": 1, "buy_in": 2000, "ref": "j"})
            await recv_until(ws, lambda m: m["type"] == "pool_joined")
            folded_from = None
            for _ in range(40):
                move = await recv_until(ws, lambda m: m["type"] == "pool_move", timeout=60)
                if folded_from is not None:
                    assert move["table"] != folded_from and move["entry"] == 1
                    break

                def acting(m: dict[str, Any], hand: str = move["hand_id"]) -> bool:
                    """A turn of this hand that lets the entry quick-fold or act."""
                    return (
                        m["type"] == "turn"
                        and m.get("pool") == POOL
                        and m["hand_id"] == hand
                        and bool(m["can_quick_fold"] or m.get("decision"))
                    )

                turn = await recv_until(ws, acting, timeout=60)
                if turn["can_quick_fold"]:
                    await send(ws, {"type": "quick_fold", "pool": POOL, "entry": 1, "ref": "qf"})
                    ack = await recv_until(ws, lambda m: m.get("ref") == "qf")
                    if ack["type"] == "ack":
                        folded_from = move["table"]
                    continue
                d = turn["decision"]
                action = {"type": "check"} if d.get("check") else {"type": "fold"}
                await send(
                    ws,
                    {
                        "type": "pool_act",
                        "pool": POOL,
                        "entry": 1,
                        "hand_id": turn["hand_id"],
                        "action_no": turn["action_no"],
                        "action": action,
                    },
                )
            assert folded_from is not None, "never got to quick-fold"
    finally:
        await stop_bots(bots)
    await _settled(pools)


async def _settled(s: LiveServer) -> None:
    actor = s.room.pools[POOL]
    await until(
        lambda: not actor.pool.tables and not actor.books and not actor.pool.entries and not actor.sessions,
        timeout=60,
        what="the pool is empty: no table, book, entry or session left",
        show=lambda: (actor.pool.tables, actor.books, actor.pool.entries, actor.sessions),
    )
    assert actor.pool.dealing and not actor.pool.entries, (actor.pool.entries, actor.pool.tables)
    report = await verify_ledger(s.room.store.db)
    assert report.ok, report.problems
    assert report.totals[PLAY].by_kind.get(AccountKind.ESCROW, 0) == 0  # every escrow paid out


async def test_bots_play_a_pool_chips_are_conserved_and_the_ledger_verifies(pools: LiveServer) -> None:
    bots = await start_pool_bots(
        pools.url, POOL, 7, ["caller", "random"], think=(0, 0.02), entries=2, quick_fold=0.5, seed=3
    )
    try:
        actor = pools.room.pools[POOL]
        await until(
            lambda: actor.hands_played >= 30, timeout=60, what="30 hands", show=lambda: actor.hands_played
        )
        assert sum(b.quick_folds for b, _ in bots) > 0
        assert not any(b.stats.error_codes.get("internal_error") for b, _ in bots)
    finally:
        await stop_bots(bots)
    await _settled(pools)
    ledger = pools.room.store.ledger
    left = await ledger.sessions(table_id=POOL, open_only=True)
    assert not left, (actor.sessions, [(x.id, x.player_id, x.balance) for x in left])  # all cashed out
    bot = await pools.room.store.accounts.find("rushbot1")
    hands = await pools.room.store.histories.player_hands(bot.id, limit=50)
    assert hands and "Rush" in hands[0].pokerstars
    for h in hands:  # R196: two entries of one player never sit at one table
        seats = (await pools.room.store.journal.hand(h.hand_id)).start.seats
        players = [s.player_id for s in seats]
        assert len(players) == len(set(players))


async def test_a_disconnected_entry_is_folded_and_leaves_after_the_grace(pools: LiveServer) -> None:
    bots = await start_pool_bots(pools.url, POOL, 3, ["caller"], think=(0, 0.01), seed=4)
    token = await register(pools, "gone")
    try:
        async with websockets.connect(pools.ws, additional_headers=auth(token)) as ws:
            await recv_until(ws, lambda m: m["type"] == "welcome")
            await send(ws, {"type": "pool_join", "pool": POOL, "entries": 1, "buy_in": 2000})
            await recv_until(ws, lambda m: m["type"] == "pool_move")
        actor = pools.room.pools[POOL]
        player = str((await pools.room.store.accounts.find("gone")).id)
        await until(
            lambda: (
                not actor.pool.entries_of(player)
                and not any(e.startswith(f"{player}#") for e in actor.sessions)
            ),
            timeout=30,
            what="the disconnected entry leaves the pool and its session ends",
            show=lambda: (actor.pool.entries_of(player), list(actor.sessions)),
        )
        assert not await pools.room.store.ledger.sessions(player_id=int(player), open_only=True)
    finally:
        await stop_bots(bots)
    await _settled(pools)


class _Window:
    """A client connection as the room sees it, keeping what it was sent."""

    def __init__(self, player: str, name: str) -> None:
        self.player, self.name = player, name
        self.frames: list[dict[str, Any]] = []

    def send(self, text: str, head: object = None) -> None:
        self.frames.append(orjson.loads(text))


@pytest.mark.asyncio
async def test_r204_the_others_see_a_quick_fold_only_when_the_action_reaches_the_seat(tmp_path: Path) -> None:
    """In process, on a real store: twelve entries fill two 6-max tables; an entry quick-folds before its
    turn. It leaves the hand at once (its result booked into the escrow), while the other players at the
    table get no frame about it until the action reaches its seat; then everybody sees the fold."""
    from argon2 import PasswordHasher

    from pokerroom.engine import BetDecision
    from pokerroom.rooms.rush import RushPool
    from pokerroom.server.pool import PoolActor
    from pokerroom.server.room import Room

    store = Store(
        Database(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}", sqlite_synchronous="OFF"),
        hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1),
    )
    await store.db.upgrade()
    cfg = demo_pools(RushTiming(action=600, reduced_action=600, time_bank=0))[0]
    room = Room(store, RoomSettings())
    actor = PoolActor(room.services, RushPool(cfg, random.Random(5)))  # not started: the test drives it
    windows: dict[str, _Window] = {}
    for i in range(12):
        p = await store.accounts.register(f"player{i}", PASSWORD)
        await store.ledger.play_money_top_up(p.id, idempotency_key=f"welcome:{p.id}")
        w = _Window(str(p.id), p.name)
        windows[w.player] = w
        room.players.add(w)  # type: ignore[arg-type]
        await actor.join(w, 1, 2000)  # type: ignore[arg-type]
    assert actor.pool.tables == {}
    await actor.process(actor.pool.deal(datetime.now(UTC)))
    assert len(actor.pool.tables) == 2
    t = next(iter(actor.pool.tables.values()))
    hand = t.hand
    pending = hand.pending
    assert isinstance(pending, BetDecision)
    folder = next(s for s in t.entries if s != pending.seat and hand.can_quick_fold(s))
    folder_player = t.names[folder][0]
    others = [windows[t.names[s][0]] for s in t.entries if s != folder]
    for w in windows.values():
        w.frames.clear()
    await actor.quick_fold(windows[folder_player], 1)  # type: ignore[arg-type]
    assert hand.players[folder].quick_folded and not hand.is_over
    escrow = await store.ledger.system_balance(AccountKind.ESCROW, PLAY, ref=hand.hand_id)
    assert escrow == hand.players[folder].paid  # its result is booked at once
    mine = windows[folder_player].frames
    assert [f["status"] for f in mine if f["type"] == "pool_entry"] == ["waiting"]
    assert all(f["type"] != "event" for f in mine)
    for w in others:
        assert w.frames == []  # nothing at all: the fold is not visible yet
    # A player reconnecting now gets his window back: the table, the hand as his seat sees it, the clock.
    back = others[0]
    seat = next(s for s, (p, _) in t.names.items() if p == back.player)
    actor.connect(back)  # type: ignore[arg-type]
    kinds = [f["type"] for f in back.frames]
    assert kinds == ["pool_move", "snapshot"] and back.frames[0]["seat"] == seat
    state = back.frames[1]["state"]
    assert state["kind"] == "rush" and state["you"] == seat and back.frames[1]["entry"] == 1
    cards = {s: p["cards"] for s, p in state["hand"]["players"].items()}
    assert all((int(s) == seat) != ("??" in c) for s, c in cards.items() if c)  # his cards only
    assert state["hand"]["players"][str(folder)]["folded"] is False  # the quick fold is not seen yet
    assert str(pending.seat) in state["clocks"]
    back.frames.clear()

    def folds(w: _Window) -> list[dict[str, Any]]:
        return [
            f
            for f in w.frames
            if f["type"] == "event"
            and f.get("pool") == cfg.pool_id
            and f["event"]["type"] == "action"
            and f["event"]["seat"] == folder
            and f["table"] == t.table_id
        ]

    while not hand.is_over and not hand.players[folder].folded:
        d = hand.pending
        assert isinstance(d, BetDecision) and d.seat != folder
        player = t.names[d.seat][0]
        action = {"type": "call"} if d.call else {"type": "check"}
        assert not any(folds(w) for w in others)
        await actor.act(windows[player], 1, hand.hand_id, len(hand.commands), action)  # type: ignore[arg-type]
    assert hand.players[folder].folded and all(folds(w) for w in others)  # seen when reached
    assert folds(windows[folder_player]) == []  # the folder had left the hand
    await store.close()


async def test_leaving_mid_hand_does_not_keep_the_table_waiting(tmp_path: Path) -> None:
    """§8.2 (docs/decisions.md): an entry that leaves at its turn, with no quick fold open to it (a pool of
    four entries cannot form two tables), has that turn and any later one timed out at once, not after its
    30-second clock, and leaves with its stack back in the wallet; the pool deals on."""
    slow = RushTiming(action=30.0, reduced_action=30.0, time_bank=0.0, disconnect_grace=60.0)
    async with serve_room(tmp_path, RoomSettings(pools=tuple(demo_pools(slow))), durable=False) as s:
        bots = await start_pool_bots(s.url, POOL, 3, ["caller"], think=(0, 0.01), seed=3)
        try:
            token = await register(s, "alice")
            player = int((await s.room.store.accounts.find("alice")).id)
            before = await s.room.store.ledger.balance(player, PLAY)
            async with websockets.connect(s.ws, additional_headers=auth(token)) as ws:
                await recv_until(ws, lambda m: m["type"] == "welcome")
                await send(ws, {"type": "pool_join", "pool": POOL, "entries": 1, "buy_in": 2000, "ref": "j"})
                await recv_until(
                    ws, lambda m: m["type"] == "turn" and m.get("pool") == POOL and m.get("decision")
                )
                await send(ws, {"type": "pool_leave", "pool": POOL, "entry": 1, "ref": "l"})
                left = await recv_until(
                    ws, lambda m: m["type"] == "pool_entry" and m["status"] == "left", timeout=10
                )
            actor = s.room.pools[POOL]
            assert actor.pool.dealing and f"{player}#1" not in actor.pool.entries
            assert await s.room.store.ledger.balance(player, PLAY) == before - 2000 + left["stack"]
        finally:
            await stop_bots(bots)
        report = await verify_ledger(s.room.store.db)
        assert report.ok, report.problems


async def test_a_hand_end_that_failed_on_the_store_is_booked_when_the_store_is_back(
    pools: LiveServer,
) -> None:
    """A pool hand's end record that the store could not take (a lost connection) is written when the pool
    resumes: the settlement is booked, the pool deals on and its stacks still match the ledger. (The
    retried step used to find the hand's book already gone: the settlement was skipped and the pool's next
    hand was refused for its stacks, StackMismatch, halting the pool for good.)"""
    journal = pools.room.store.journal
    real = journal.end_hand
    failed: list[str] = []

    async def end_hand(hand_id: str, **kw: Any) -> Any:
        if not failed:
            failed.append(hand_id)
            raise ConnectionResetError("the connection to the store was lost")
        return await real(hand_id, **kw)

    journal.end_hand = end_hand  # type: ignore[method-assign]
    bots = await start_pool_bots(pools.url, POOL, 6, ["caller"], think=(0, 0.02), quick_fold=0.0, seed=4)
    try:
        actor = pools.room.pools[POOL]
        await until(
            lambda: failed and actor.pause is None and actor.hands_played >= 6,
            timeout=90,
            what="a hand's end fails to be stored, then the pool deals on (six hands, no pause)",
            show=lambda: (failed, actor.pause, actor.hands_played),
        )
        assert not actor.broken
        ended = await journal.hand(failed[0])
        assert ended.status == "ended" and ended.ended_at is not None  # settled once the store was back
    finally:
        await stop_bots(bots)
        journal.end_hand = real  # type: ignore[method-assign]
    await _settled(pools)
    assert (await verify_ledger(pools.room.store.db)).ok


async def test_quick_fold_then_leave_ten_times_the_pool_deals_on(tmp_path: Path) -> None:
    """Issue 28: a player quick-folds and closes his window at once (leaves the pool), ten times in a row,
    among bots that play and quick-fold too; the hands he left end without him and are settled (rake,
    points, history), the pool keeps dealing for everybody, and the ledger verifies."""
    settings = RoomSettings(pools=tuple(demo_pools(FAST)), points=PointsPolicy(tz=UTC))
    async with serve_room(tmp_path, settings, durable=False) as s:
        bots = await start_pool_bots(
            s.url, POOL, 11, ["caller", "random"], think=(0, 0.05), quick_fold=0.3, seed=5
        )
        token = await register(s, "leaver")
        actor = s.room.pools[POOL]
        left: list[str] = []
        try:
            async with websockets.connect(s.ws, additional_headers=auth(token)) as ws:
                await recv_until(ws, lambda m: m["type"] == "welcome")
                for round_no in range(10):
                    ref = f"j{round_no}"
                    await send(
                        ws, {"type": "pool_join", "pool": POOL, "entries": 1, "buy_in": 2000, "ref": ref}
                    )
                    await recv_until(ws, Frame("pool_joined", ref=ref))
                    hand = await _quick_fold_and_leave(ws)
                    left.append(hand)

                    def dealt_on(done: int = actor.hands_played) -> bool:
                        return actor.hands_played >= done + 2

                    await until(dealt_on, timeout=60, what="two more hands after he left")
                    assert actor.state == "playing", actor.suspended
        finally:
            await stop_bots(bots)
        await _settled(s)
        assert actor.errors == 0
        for hand in left:
            record = await s.room.store.journal.hand(hand)
            assert record.status == "ended", (hand, record.status)
        report = await verify_ledger(s.room.store.db)
        assert report.ok, report.problems


async def _quick_fold_and_leave(ws: Any) -> str:
    """Play the entry's hands (check or fold) until it may Quick Fold; then Quick Fold and leave at once.
    The hand it quick-folded out of."""
    move: dict[str, Any] | None = None
    for _ in range(1000):
        msg = await recv_until(
            ws,
            lambda m: m["type"] == "pool_move" or (m["type"] == "turn" and m.get("pool") == POOL),
            timeout=60,
        )
        if msg["type"] == "pool_move":
            move = msg
            continue
        if move is None or msg["hand_id"] != move["hand_id"]:
            continue
        if msg["can_quick_fold"]:
            await send(ws, {"type": "quick_fold", "pool": POOL, "entry": 1, "ref": "qf"})
            await send(ws, {"type": "pool_leave", "pool": POOL, "entry": 1, "ref": "bye"})
            await recv_until(ws, lambda m: m["type"] == "pool_entry" and m["status"] == "left", timeout=60)
            return str(move["hand_id"])
        d = msg.get("decision")
        if not d:
            continue
        action = {"type": "check"} if d.get("check") else {"type": "fold"}
        await send(
            ws,
            {
                "type": "pool_act",
                "pool": POOL,
                "entry": 1,
                "hand_id": msg["hand_id"],
                "action_no": msg["action_no"],
                "action": action,
            },
        )
    raise AssertionError("never got to quick-fold")
