"""A room on several processes (docs/cluster.md): two table hosts and two gateways on PostgreSQL and NATS,
bots playing through both gateways. A host killed with SIGKILL: the other takes its tables over, voids
their interrupted hands as a restart does, seats their players again, and they deal on; the watchers see
the tables pause and play again without reconnecting; the ledger verifies, no player sits twice at a table,
and no client ever saw a card it may not see."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import websockets

from pokerroom.bots.client import BotStats
from pokerroom.bots.runner import start_bots, start_pool_bots, start_tournament_bots
from pokerroom.history import read_phh
from pokerroom.server.cluster.host import GATEWAY_SILENCE
from pokerroom.store import Store
from tests.cluster.nodes import TABLES, BusLink, Cluster, NatsServer, Node, room_file, until, until_value
from tests.cluster.watch import Watcher, hidden_cards_shown
from tests.store.storehelpers import PG_URL

TAKEOVER_LIMIT = 60.0  # seconds: generous, for a loaded machine (docs/cluster.md gives the measured time)


async def _lobby(url: str) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=10) as http:
        return (await http.get(f"{url}/api/lobby")).json()  # type: ignore[no-any-return]


def _record_leaks(bots: list[Any], leaks: list[tuple[str, str, str]]) -> None:
    """Every face-down card of a seat a bot did not hold (by its own reckoning) that a bot was shown."""
    for bot, _ in bots:

        def seen(msg: dict[str, Any], bot: Any = bot) -> None:
            own = bot.seat
            if msg.get("type") == "snapshot" and (msg.get("state") or {}).get("you") is not None:
                # a snapshot names the viewer's own seat: the bot's idea of it lags when a table moves
                # to another host, and a snapshot has no hand id to check its cards by the history
                own = msg["state"]["you"]
            if "entry" in msg and hasattr(bot, "entries"):  # a Rush entry's frame: that entry's seat
                entry = bot.entries.get(msg["entry"])
                own = entry.seat if entry is not None else None
            leaks.extend((bot.name, str(msg.get("hand_id") or ""), x) for x in hidden_cards_shown(msg, own))

        bot.on_event = seen


async def _real_leaks(schema: str, seen: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The cards of ``seen`` that were not the bot's own: a bot's idea of its seat can lag a frame
    behind when its table moves to another host, so each card is checked against the hand's stored
    history (every hole card, for the audit), which says who was dealt it."""
    store = Store.open(PG_URL, schema=schema)
    real = []
    try:
        for name, hand_id, shown in seen:
            card = shown.rsplit(" ", 1)[-1]
            try:
                history = read_phh(await store.histories.audit_phh(hand_id))
            except Exception:
                real.append((name, hand_id, shown))  # no history to prove it was his
                continue
            players = list(history.players)
            seat = players.index(name) + 1 if name in players else 0
            dealt = " ".join(a for a in history.fields["actions"] if a.startswith(f"d dh p{seat} "))
            if not seat or card not in dealt:
                real.append((name, hand_id, shown))
    finally:
        await store.close()
    return real


async def _verify_through(url: str, schema: str, bot: Any) -> bool:
    """``verify_hand`` for the bot's first stored hand, sent to a gateway: its ``ok``."""
    store = Store.open(PG_URL, schema=schema)
    try:
        hand_id = (await store.histories.player_hands(int(bot.player_id)))[0].hand_id
    finally:
        await store.close()
    headers = {"Cookie": f"pokerroom_token={bot.token}"}
    async with websockets.connect(url.replace("http", "ws") + "/ws", additional_headers=headers) as ws:
        await ws.send(orjson.dumps({"type": "verify_hand", "hand_id": hand_id, "ref": "v"}).decode())
        while True:
            msg = orjson.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg.get("ref") == "v" or msg["type"] == "hand_verified":
                assert msg["type"] == "hand_verified", msg
                return bool(msg["ok"])


async def _check_ledger(schema: str) -> None:
    store = Store.open(PG_URL, schema=schema)
    try:
        report = await store.verify()
        assert report.ok, report.render()
        seats = Counter((s.player_id, s.table_id) for s in await store.ledger.sessions())
        assert [k for k, n in seats.items() if n > 1] == [], "a player sits twice at one table"
    finally:
        await store.close()


async def _registering(url: str, series: str) -> str | None:
    async with httpx.AsyncClient(timeout=10) as http:
        groups = (await http.get(f"{url}/api/tournaments")).json()
    rows = [r for rows in groups.values() for r in rows]
    return next((r["tournament"] for r in rows if r["tournament"].startswith(f"{series}")), None)


async def _status(schema: str, tid: str) -> str | None:
    store = Store.open(PG_URL, schema=schema)
    try:
        return (await store.tournaments.statuses([tid])).get(tid)
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_killed_host_s_tables_deal_again_on_the_other_host(tmp_path: Path, services: None) -> None:
    config = room_file(tmp_path, extra=True)
    cluster = Cluster(tmp_path)
    tables = [t[0] for t in TABLES]
    bots: list[Any] = []
    watcher: Watcher | None = None
    leaks: list[tuple[str, str, str]] = []
    pool_stats = BotStats()
    try:
        h1 = cluster.start("host", "h1", config)
        h2 = cluster.start("host", "h2", config)
        g1 = cluster.start("gateway", "g1", config)
        g2 = cluster.start("gateway", "g2", config)
        for node in (h1, h2, g1, g2):
            await cluster.ready(node)

        async def all_held() -> bool:
            held = await cluster.leases()
            return all(f"table:{t}" in held for t in tables) and "pool:rush-e" in held

        await until(all_held, 60, "every table and the pool are leased")
        sng = await until_value(lambda: _registering(g2.url, "sng-f"), 60, "a sit-and-go registers")
        watcher = Watcher(g2.url)
        await watcher.open(tables)
        # Bots through both gateways at every table: each table's frames cross from a host to two gateways;
        # a Rush pool's through the first, a sit-and-go's through the second.
        bots += await start_bots(g1.url, 6, ["caller", "random"], think=(0, 0.05), seed=1, prefix="ga")
        bots += await start_bots(g2.url, 6, ["caller", "random"], think=(0, 0.05), seed=2, prefix="gb")
        bots += await start_pool_bots(
            g1.url, "rush-e", 4, ["caller"], think=(0, 0.05), seed=4, prefix="gp", stats=pool_stats
        )
        bots += await start_tournament_bots(g2.url, sng, 3, ["caller"], think=(0, 0.05), seed=5, prefix="gt")
        _record_leaks(bots, leaks)

        async def everything_deals() -> bool:
            dealing = all(len(watcher.hands_started(t, 0)) >= 3 for t in tables)
            return dealing and pool_stats.hands >= 3 and f"tournament:{sng}" in await cluster.leases()

        await until(everything_deals, 180, "every table and the pool deal three hands; the sit-and-go runs")

        held = await cluster.leases()
        counts = Counter(h for r, h in held.items() if r.startswith("table:"))
        victim_id = max(("h1", "h2"), key=lambda h: counts.get(h, 0))
        victim = h1 if victim_id == "h1" else h2
        survivor = "h2" if victim_id == "h1" else "h1"
        moved = sorted(
            r.partition(":")[2] for r, h in held.items() if h == victim_id and r.startswith("table:")
        )
        assert len(moved) >= 2, f"{victim_id} holds {moved}: {held}"

        # An operator moves one of the victim's tables to the survivor: handed over after its hand, no hand
        # voided, its players seated again on the new host.
        shifted = moved.pop()
        taker = h1 if survivor == "h1" else h2

        def took_over_lines() -> list[str]:
            return [line for line in taker.output().splitlines() if f"took over {shifted} " in line]

        # (the taker may have held the table before: the placement spreads tables, and moves them too)
        earlier = len(took_over_lines())
        cli = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "pokerroom", "cluster", "move", shifted, "--to", survivor,
            "--url", PG_URL, "--schema", cluster.schema, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, _ = await cli.communicate()
        assert cli.returncode == 0 and b"after its current hand" in out, out
        asked = time.monotonic()

        async def shifted_over() -> bool:
            return (await cluster.leases()).get(f"table:{shifted}") == survivor

        await until(shifted_over, 120, f"{shifted} moves to {survivor}")

        async def shifted_deals() -> bool:
            return len(watcher.hands_started(shifted, asked)) >= 2

        await until(shifted_deals, 120, f"{shifted} deals on {survivor}")

        # The lease, and hands the old host dealt before its handover, can come before the new host's line.
        async def took_over_line() -> str | None:
            lines = took_over_lines()
            return lines[earlier] if len(lines) > earlier else None

        took_line = await until_value(took_over_line, 60, f"{survivor} says it took {shifted} over")
        assert " 0 hand(s) voided" in took_line and " 0 player(s)" not in took_line, took_line
        victim.proc.send_signal(signal.SIGKILL)
        victim.proc.wait(10)
        killed = time.monotonic()

        async def taken_over() -> bool:
            leases = await cluster.leases()
            cash = all(leases.get(f"table:{t}") == survivor for t in tables)
            return cash and leases.get("pool:rush-e") == survivor and victim_id not in leases.values()

        took = await until(taken_over, TAKEOVER_LIMIT, f"{survivor} takes {moved} over")
        pool_hands = pool_stats.hands

        async def dealing_again() -> bool:
            cash = all(len(watcher.hands_started(t, killed)) >= 2 for t in tables)
            return cash and pool_stats.hands >= pool_hands + 2

        dealt_again = await until(dealing_again, 120, "every table deals again after the kill")
        print(f"\nleases taken {took:.1f} s after the kill; dealing again {dealt_again:.1f} s after")
        for table in moved:
            # the new holder's hands carry its fence in their ids; the watcher saw the pause and the return
            assert all("-f" in h and not h.endswith("-f1-1") for h in watcher.hands_started(table, killed))
            statuses = watcher.statuses(table, killed)
            assert "paused" in statuses, (table, statuses)
        for table in tables:  # every "moving" notice numbered after the table's frames (issue 33)
            assert watcher.stale_notices(table) == [], table
        lobby = await _lobby(g1.url)
        assert sorted(t["table"] for t in lobby["tables"]) == sorted(tables)
        assert [p["pool"] for p in lobby["pools"]] == ["rush-e"]

        # the sit-and-go: played on where it runs, or (its host killed) cancelled with every entry refunded
        # by the documented interrupted-tournament rule (docs/tournaments.md), never left hanging
        async def sng_settled() -> bool:
            status = await _status(cluster.schema, sng)
            holder = (await cluster.leases()).get(f"tournament:{sng}")
            return (status == "running" and holder == survivor) or status in ("cancelled", "finished")

        await until(sng_settled, TAKEOVER_LIMIT, f"the sit-and-go {sng} plays on or is settled")
    finally:
        for bot, task in bots:
            await bot.stop()
            task.cancel()
        if watcher is not None:
            await watcher.close()
        cluster.stop()
    try:
        assert await _real_leaks(cluster.schema, leaks) == []
        assert watcher is not None and watcher.leaks() == []
        await _check_ledger(cluster.schema)
    finally:
        await cluster.drop_schema()


def test_a_cluster_node_refuses_sqlite(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pokerroom.cli import app

    result = CliRunner().invoke(
        app,
        ["serve", "--no-open", "--port", "0", "--database", f"sqlite+aiosqlite:///{tmp_path}/x.db",
         "--cluster", "nats://127.0.0.1:4222", "--role", "host"],
    )  # fmt: skip
    assert result.exit_code == 2
    assert "PostgreSQL" in result.output


def test_a_node_s_role_is_checked() -> None:
    from typer.testing import CliRunner

    from pokerroom.cli import app

    result = CliRunner().invoke(app, ["serve", "--no-open", "--cluster", "nats://x:1", "--role", "dealer"])
    assert result.exit_code != 0
    assert "gateway, host or both" in result.output


@dataclass
class _SmallCluster:
    """One host and one gateway on a private nats-server (the gateway through a :class:`BusLink` when
    asked), a watcher of every table and 12 bots, all on the gateway, every table dealing."""

    nats: NatsServer
    link: BusLink | None
    cluster: Cluster
    h1: Node
    g1: Node
    watcher: Watcher
    bots: list[Any]
    tables: list[str]

    async def deal_again(self, what: str) -> float:
        """Wait until every table has dealt two hands from now (at most 120 s); the seconds it took."""
        back = time.monotonic()

        async def dealing_again() -> bool:
            return all(len(self.watcher.hands_started(t, back)) >= 2 for t in self.tables)

        return await until(dealing_again, 120, what)


@asynccontextmanager
async def _small_cluster(
    tmp_path: Path, *, seed: int, prefix: str, linked: bool = False
) -> AsyncIterator[_SmallCluster]:
    """A :class:`_SmallCluster`; afterwards every node and the bus are stopped and the ledger verified."""
    nats = NatsServer(tmp_path)
    if nats.binary() is None:
        pytest.skip("no nats-server binary (Debian's nats-server package)")
    nats.start()
    link = BusLink(nats.port) if linked else None
    if link is not None:
        await link.mend()
    config = room_file(tmp_path)
    cluster = Cluster(tmp_path, bus=nats.url)
    tables = [t[0] for t in TABLES]
    bots: list[Any] = []
    watcher: Watcher | None = None
    try:
        h1 = cluster.start("host", "h1", config)
        g1 = cluster.start("gateway", "g1", config, bus=link.url if link is not None else None)
        for node in (h1, g1):
            await cluster.ready(node)

        async def all_tables_held() -> bool:
            return len(await cluster.leases()) == len(tables)

        await until(all_tables_held, 60, "every table is leased")
        watcher = Watcher(g1.url)
        await watcher.open(tables)
        bots += await start_bots(g1.url, 12, ["caller", "random"], think=(0, 0.05), seed=seed, prefix=prefix)
        seen = watcher

        async def every_table_deals() -> bool:
            return all(len(seen.hands_started(t, 0)) >= 2 for t in tables)

        await until(every_table_deals, 180, "every table deals")
        yield _SmallCluster(nats, link, cluster, h1, g1, watcher, bots, tables)
    finally:
        for bot, task in bots:
            await bot.stop()
            task.cancel()
        if watcher is not None:
            await watcher.close()
        cluster.stop()
        if link is not None:
            await link.cut()
        nats.kill()
    try:
        await _check_ledger(cluster.schema)
    finally:
        await cluster.drop_schema()


@pytest.mark.asyncio
async def test_the_bus_killed_for_longer_than_a_gateway_s_silence(tmp_path: Path, services: None) -> None:
    """A private nats-server killed for 15 s (longer than the 10 s of silence after which a host drops a
    gateway's connections) under a host and a gateway with bots playing: both nodes reconnect by
    themselves, the host does not count the time it was off the bus itself as the gateway's silence (so
    nobody loses his connection), the tables deal again, nothing is booked twice and the ledger
    verifies."""
    async with _small_cluster(tmp_path, seed=3, prefix="gc") as c:
        c.nats.kill()
        await asyncio.sleep(GATEWAY_SILENCE + 5)  # the fault's length (the scenario), not a wait
        c.nats.start()
        again = await c.deal_again("every table deals again after the bus returns")
        print(f"\nevery table dealing again {again:.1f} s after the bus returned")
        # a player checks the deck of one of his hands through the gateway (docs/fairness.md)
        assert await _verify_through(c.g1.url, c.cluster.schema, c.bots[0][0]) is True
        assert c.h1.proc.poll() is None and c.g1.proc.poll() is None

        # The leases lapsed while the host was off the bus (it stops renewing after BUS_GRACE); it renews
        # them at its next renewal after the bus is back, RENEW seconds at most, which may come after the
        # tables were seen dealing (the frames of hands dealt during the outage reach the watcher when
        # the bus returns): wait for it, then h1 holds every lease again (nobody took one over).
        async def h1_renewed() -> bool:
            held = await c.cluster.leases()
            return all(held.get(f"table:{t}") == "h1" for t in c.tables) and set(held.values()) == {"h1"}

        await until(h1_renewed, 60, "h1 renews its leases after the bus returns")
        assert "is silent" not in c.h1.output(), "the host dropped the gateway for its own time off the bus"


@pytest.mark.asyncio
async def test_a_gateway_cut_off_the_bus_alone_gets_its_watchers_back(tmp_path: Path, services: None) -> None:
    """Only the gateway loses the bus, for longer than a gateway's allowed silence: the host (still on
    the bus) drops the gateway's connections, as it must for a gateway that may be gone. When the
    gateway is back, the host asks it by name for its connections, and the gateway subscribes its
    watchers again: the watchers and the bots (all on that gateway) see every table deal again without
    reconnecting, and the ledger verifies."""
    async with _small_cluster(tmp_path, seed=4, prefix="gp", linked=True) as c:
        assert c.link is not None
        await c.link.cut()

        async def dropped() -> bool:
            return "gateway g1 is silent" in c.h1.output()

        await until(dropped, 60, "the host drops the silent gateway's connections")
        await c.link.mend()
        again = await c.deal_again("every table deals again after the gateway is back")
        print(f"\nevery table dealing again {again:.1f} s after the gateway was back on the bus")
        assert c.h1.proc.poll() is None and c.g1.proc.poll() is None


@pytest.mark.asyncio
async def test_players_contributions_reach_the_host_through_a_gateway(tmp_path: Path, services: None) -> None:
    """docs/fairness.md: a player's contribution to the next hand's seed goes from his gateway to the host
    that deals at that table, and the hand is dealt from it: each table's audit histories show the
    players' own values (``player``), not only the server's defaults (before, a gateway refused every
    contribution with ``stale_seed``)."""
    async with _small_cluster(tmp_path, seed=6, prefix="gs") as c:
        since = time.monotonic()

        async def dealt() -> bool:
            return all(len(c.watcher.hands_started(t, since)) >= 4 for t in c.tables)

        await until(dealt, 120, "every table deals four more hands")
        store = Store.open(PG_URL, schema=c.cluster.schema)
        try:
            for table in c.tables:
                origins: list[str] = []
                for hand_id in c.watcher.hands_started(table, since)[:3]:  # (over: their histories kept)
                    history = read_phh(await store.histories.audit_phh(hand_id))
                    proof = orjson.loads(str(history.fields["_deck_proof"]))
                    origins += [origin for _, _, origin in proof["seed"]["contributions"]]
                assert "player" in origins, (table, origins)
        finally:
            await store.close()
