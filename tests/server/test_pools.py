"""Rush pools (issue 8, RULES.md §8): join with entries, quick fold and move, no observers (R212), money
through the ledger, bots playing a pool.

How a pool plays runs on the server's harness (tests/server/harness.py: a manual clock, no sockets); the
lobby and the pool's page over HTTP, and a player quick-folding among bots over real WebSockets, run on a
live server."""

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
from pokerroom.rooms.rush_rules import RushTiming
from pokerroom.server.demo import demo_pools
from pokerroom.server.room import RoomSettings
from pokerroom.store import PLAY, AccountKind, Database, Store, verify_ledger
from tests.waiting import until

from .conftest import LiveServer, serve_room
from .harness import Client, Harness
from .wire import PASSWORD, auth, recv_until, register, send, stop_bots

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


async def open_pool(tmp_path: Path, timing: RushTiming = FAST, **settings: Any) -> Harness:
    return await Harness.open(tmp_path, RoomSettings(pools=tuple(demo_pools(timing)), **settings), seed=7)


async def pool_bots(
    h: Harness, count: int, strategies: list[str], *, seed: int, entries: int = 1, quick_fold: float = 0.3
) -> list[Client]:
    """``count`` bots in the pool (named as ``start_pool_bots`` names them live: rushbot1, ...)."""
    return [
        await h.pool_bot(
            f"rushbot{i + 1}",
            POOL,
            strategies[i % len(strategies)],
            seed=seed + i,
            entries=entries,
            quick_fold=quick_fold,
        )
        for i in range(count)
    ]


async def test_r212_a_rush_table_cannot_be_observed(tmp_path: Path) -> None:
    h = await open_pool(tmp_path)
    try:
        await pool_bots(h, 3, ["caller"], seed=1)
        actor = h.room.pools[POOL]
        await h.run(lambda: bool(actor.pool.tables), seconds=60)  # the pool forms a table
        table = next(iter(actor.pool.tables))
        watcher = await h.login("watcher")
        for target in (table, POOL):
            err = await h.ask(watcher, {"type": "subscribe", "table": target, "ref": "s"})
            assert err["type"] == "error" and err["code"] == "no_observers" and err["ref"] == "s"
        anonymous = h.connect("anonymous", None)  # not logged in either
        await h.send(anonymous, {"type": "subscribe", "table": table})
        await h.run(lambda: bool(anonymous.of("error")), seconds=0)
        assert anonymous.of("error")[0]["code"] == "no_observers"
    finally:
        await h.close()


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
        lambda: _empty(actor),
        timeout=60,
        what="the pool is empty: no table, book, entry or session left",
        show=lambda: (actor.pool.tables, actor.books, actor.pool.entries, actor.sessions),
    )
    assert actor.pool.dealing and not actor.pool.entries, (actor.pool.entries, actor.pool.tables)
    await _balanced(s.room.store)


def _empty(actor: Any) -> bool:
    """No table, book, entry or session left in the pool."""
    return not actor.pool.tables and not actor.books and not actor.pool.entries and not actor.sessions


async def _balanced(store: Store) -> None:
    report = await verify_ledger(store.db)
    assert report.ok, report.problems
    assert report.totals[PLAY].by_kind.get(AccountKind.ESCROW, 0) == 0  # every escrow paid out


async def settled(h: Harness) -> None:
    """The pool empties (every bot has left) and its money is where it belongs."""
    actor = h.room.pools[POOL]
    await h.run(lambda: _empty(actor), seconds=600)
    assert actor.pool.dealing and not actor.pool.entries, (actor.pool.entries, actor.pool.tables)
    await _balanced(h.store)


async def stop_all(h: Harness, clients: list[Client]) -> None:
    for c in clients:
        await h.stop_bot(c)


async def test_bots_play_a_pool_chips_are_conserved_and_the_ledger_verifies(tmp_path: Path) -> None:
    h = await open_pool(tmp_path)
    try:
        clients = await pool_bots(h, 7, ["caller", "random"], seed=3, entries=2, quick_fold=0.5)
        actor = h.room.pools[POOL]
        await h.run(lambda: actor.hands_played >= 30, seconds=3600)
        assert sum(c.bot.quick_folds for c in clients) > 0
        assert not h.stats.error_codes.get("internal_error")
        await stop_all(h, clients)
        await settled(h)
        ledger = h.store.ledger
        left = await ledger.sessions(table_id=POOL, open_only=True)
        assert not left, (actor.sessions, [(x.id, x.player_id, x.balance) for x in left])  # all cashed out
        bot = await h.store.accounts.find("rushbot1")
        hands = await h.store.histories.player_hands(bot.id, limit=50)
        assert hands and "Rush" in hands[0].pokerstars
        for x in hands:  # R196: two entries of one player never sit at one table
            seats = (await h.store.journal.hand(x.hand_id)).start.seats
            players = [seat.player_id for seat in seats]
            assert len(players) == len(set(players))
    finally:
        await h.close()


async def test_a_disconnected_entry_is_folded_and_leaves_after_the_grace(tmp_path: Path) -> None:
    h = await open_pool(tmp_path)
    try:
        clients = await pool_bots(h, 3, ["caller"], seed=4)
        gone = await h.login("gone")
        await h.send(gone, {"type": "pool_join", "pool": POOL, "entries": 1, "buy_in": 2000})
        await h.run(lambda: bool(gone.of("pool_move")), seconds=60)
        await h.drop(gone)
        actor = h.room.pools[POOL]
        assert gone.player is not None
        player = str(gone.player.id)
        # the disconnected entry leaves the pool and its session ends (after the grace of the room's time)
        await h.run(
            lambda: (
                not actor.pool.entries_of(player)
                and not any(e.startswith(f"{player}#") for e in actor.sessions)
            ),
            seconds=60,
        )
        assert not await h.store.ledger.sessions(player_id=int(player), open_only=True)
        await stop_all(h, clients)
        await settled(h)
    finally:
        await h.close()


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
    h = await open_pool(tmp_path, slow)
    try:
        await pool_bots(h, 3, ["caller"], seed=3)
        alice = await h.login("alice")
        assert alice.player is not None
        before = await h.balance(alice.player)
        await h.send(alice, {"type": "pool_join", "pool": POOL, "entries": 1, "buy_in": 2000, "ref": "j"})
        await h.run(
            lambda: any(f.get("pool") == POOL and f.get("decision") for f in alice.of("turn")), seconds=60
        )
        left_at = h.clock.now()
        await h.send(alice, {"type": "pool_leave", "pool": POOL, "entry": 1, "ref": "l"})
        # not after its 30-second clock: within 10 s of the room's time
        await h.run(lambda: bool(alice.of("pool_entry", status="left")), seconds=10)
        assert (h.clock.now() - left_at).total_seconds() < 30
        left = alice.of("pool_entry", status="left")[0]
        actor = h.room.pools[POOL]
        assert actor.pool.dealing and f"{alice.player.id}#1" not in actor.pool.entries
        assert await h.balance(alice.player) == before - 2000 + left["stack"]
        report = await verify_ledger(h.store.db)
        assert report.ok, report.problems
    finally:
        await h.close()


async def test_a_hand_end_that_failed_on_the_store_is_booked_when_the_store_is_back(tmp_path: Path) -> None:
    """A pool hand's end record that the store could not take (a lost connection) is written when the pool
    resumes: the settlement is booked, the pool deals on and its stacks still match the ledger. (The
    retried step used to find the hand's book already gone: the settlement was skipped and the pool's next
    hand was refused for its stacks, StackMismatch, halting the pool for good.)"""
    h = await open_pool(tmp_path)
    try:
        journal = h.store.journal
        real = journal.end_hand
        failed: list[str] = []

        async def end_hand(hand_id: str, **kw: Any) -> Any:
            if not failed:
                failed.append(hand_id)
                raise ConnectionResetError("the connection to the store was lost")
            return await real(hand_id, **kw)

        journal.end_hand = end_hand  # type: ignore[method-assign]
        clients = await pool_bots(h, 6, ["caller"], seed=4, quick_fold=0.0)
        actor = h.room.pools[POOL]
        # a hand's end fails to be stored, then the pool deals on (six hands, no pause)
        await h.run(lambda: bool(failed) and actor.pause is None and actor.hands_played >= 6, seconds=3600)
        assert not actor.broken
        ended = await journal.hand(failed[0])
        assert ended.status == "ended" and ended.ended_at is not None  # settled once the store was back
        await stop_all(h, clients)
        await settled(h)
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()
