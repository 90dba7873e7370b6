"""Issue 37, item 2: the console and reloads on a cluster.

Every console operation goes through a gateway, which runs no table: a command goes to the host that holds
what it names (one host for the room's own), the audit log records it once, and every host reads what the
console changed; a reload (SIGHUP on any node) opens the added tables on some host and closes the removed
ones after their hand. Real processes: two hosts and a gateway on PostgreSQL and NATS
(tests/cluster/nodes.py).
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.server.cluster.messages import decode
from pokerroom.server.commands import CommandDone, CommandFailed, CommandRefused, Outcome
from pokerroom.store import Role, Store
from tests.cluster.nodes import TABLE, TABLES, Cluster, room_file, until
from tests.server.wire import PASSWORD
from tests.store.storehelpers import PG_URL

NEW = {
    "id": "console-nl",
    "name": "Console NL",
    "game": "holdem",
    "betting": "NL",
    "stakes": {"small_blind": 10, "big_blind": 20},
    "seats": 6,
}
SNG = {
    "id": "c-sng",
    "kind": "sng",
    "variant": "holdem",
    "betting": "NL",
    "buy_in": 100,
    "fee": 10,
    "currency": "PLAY",
    "max_players": 6,
    "table_size": 6,
}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)
objects = st.dictionaries(st.text(max_size=8), json_values, max_size=3)


@given(
    st.builds(
        CommandDone, objects, st.none() | st.text(max_size=8), st.text(max_size=8), json_values, json_values
    )
)
def test_a_command_s_outcome_crosses_the_bus_unchanged(done: CommandDone) -> None:
    again = decode(done.encode(), CommandDone, CommandFailed)
    assert again == done
    assert isinstance(again, CommandDone)
    assert again.outcome() == Outcome(done.answer, done.action, done.target, done.before, done.after)


@given(st.integers(400, 599), st.text(max_size=8), st.text(max_size=8), objects)
def test_a_command_s_refusal_crosses_the_bus_with_its_status_and_code(
    status: int, code: str, message: str, details: dict[str, Any]
) -> None:
    failed = CommandFailed.of_refusal(CommandRefused(status, code, message, **details))
    again = decode(failed.encode(), CommandDone, CommandFailed)
    assert isinstance(again, CommandFailed)
    refused = again.refused()
    assert (refused.status, refused.code, refused.message, refused.details) == (
        status,
        code,
        message,
        details,
    )


async def _admin(http: httpx.AsyncClient, schema: str) -> dict[str, str]:
    r = await http.post("/api/register", json={"name": "boss", "password": PASSWORD})
    assert r.status_code == 200, r.text
    store = Store.open(PG_URL, schema=schema)
    try:
        player = await store.accounts.find("boss")
        await store.accounts.set_role(player.id, Role.ADMIN)
    finally:
        await store.close()
    http.cookies.clear()
    r = await http.post("/api/login", json={"name": "boss", "password": PASSWORD})
    assert r.status_code == 200, r.text
    http.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def _games(http: httpx.AsyncClient, admin: dict[str, str]) -> dict[str, dict[str, Any]]:
    r = await http.get("/api/console/tables", headers=admin)
    assert r.status_code == 200, r.text
    return {g["id"]: g for g in r.json()["games"]}


@pytest.mark.asyncio
async def test_the_console_runs_a_cluster_through_a_gateway(tmp_path: Path, services: None) -> None:
    config = room_file(tmp_path)
    tables = [t[0] for t in TABLES]
    cluster = Cluster(tmp_path)
    try:
        hosts = [cluster.start("host", "h1", config), cluster.start("host", "h2", config)]
        g1 = cluster.start("gateway", "g1", config)
        for node in (*hosts, g1):
            await cluster.ready(node)

        async def leased(*resources: str) -> bool:
            held = await cluster.leases()
            return all(r in held for r in resources)

        await until(lambda: leased(*(f"table:{t}" for t in tables)), 60, "every table is leased")
        async with httpx.AsyncClient(base_url=g1.url, timeout=30) as http:
            admin = await _admin(http, cluster.schema)

            # Read: every table with its state, from the hosts that run them.
            games = await _games(http, admin)
            assert set(games) == set(tables)
            assert all(g["state"] == "playing" and g["summary"]["table"] == g["id"] for g in games.values())

            # Pause, watch, message and resume a table that lives on a host (the gateway runs none).
            paused = tables[0]
            r = await http.post(f"/api/console/tables/{paused}/pause", headers=admin)
            assert r.status_code == 200 and r.json()["state"] == "paused", r.text
            assert (await _games(http, admin))[paused]["state"] == "paused"
            view = (await http.get(f"/api/console/tables/{paused}", headers=admin)).json()
            assert view["state"] == "paused" and view["view"]["table"] == paused
            r = await http.post(f"/api/console/tables/{paused}/message", json={"text": "hi"}, headers=admin)
            assert r.status_code == 200, r.text
            r = await http.post(f"/api/console/tables/{paused}/resume", headers=admin)
            assert r.status_code == 200 and r.json()["state"] == "playing", r.text
            audit = await http.get("/api/console/audit", params={"action": "table.pause"}, headers=admin)
            assert [e["target"] for e in audit.json()["entries"]] == [paused]  # recorded once
            r = await http.post("/api/console/tables/nowhere/pause", headers=admin)
            assert r.status_code == 404 and r.json()["detail"]["code"] == "unknown_table", r.text

            # Open a table: a host takes its lease and deals it.
            r = await http.post("/api/console/tables", json={"kind": "table", "fields": NEW}, headers=admin)
            assert r.status_code == 201, r.text
            await until(lambda: leased("table:console-nl"), 60, "a host takes the console's table")

            # Close one: after its hand its lease is let go, and no host takes it again.
            closed = tables[1]
            r = await http.post(f"/api/console/tables/{closed}/close", headers=admin)
            assert r.status_code == 200, r.text

            async def let_go() -> bool:
                return f"table:{closed}" not in await cluster.leases()

            await until(let_go, 60, f"{closed}'s lease is let go")

            # Schedule a tournament: a host opens it; the gateway's lobby lists it.
            r = await http.post("/api/console/tournaments", json=SNG, headers=admin)
            assert r.status_code == 201, r.text

            async def listed() -> bool:
                lobby = (await http.get("/api/tournaments")).json()
                return any(t.get("series") == "c-sng" or t["tournament"].startswith("c-sng")
                           for rows in lobby.values() for t in rows)  # fmt: skip

            await until(listed, 60, "the scheduled sit-and-go is in the lobby")

            # The dashboard adds the hosts' figures up.
            dash = (await http.get("/api/console/dashboard", headers=admin)).json()
            assert sum(row["count"] for row in dash["tables"] if row["kind"] == "cash") == len(tables)

            # A reload through SIGHUP on the gateway: a table added, one removed, across both hosts.
            removed = tables[2]
            added = TABLE.format(id="added-e", name="Added E", game="holdem", betting="NL",
                                 stakes="{ small_blind = 10, big_blind = 20 }")  # fmt: skip
            text = config.read_text()
            start = text.index(f'id = "{removed}"')
            block_start = text.rindex("[[table]]", 0, start)
            block_end = text.find("[[table]]", start)
            text = text[:block_start] + (text[block_end:] if block_end != -1 else "") + added
            config.write_text(text)
            os.kill(g1.proc.pid, signal.SIGHUP)

            async def reloaded() -> bool:
                held = await cluster.leases()
                return "table:added-e" in held and f"table:{removed}" not in held

            await until(reloaded, 90, f"added-e opens and {removed} closes after its hand")
            held = await cluster.leases()
            assert f"table:{closed}" not in held  # the console's close wins over the file
            assert "table:console-nl" in held and f"table:{tables[3]}" in held
            games = await _games(http, admin)
            assert set(games) == {tables[0], tables[3], "console-nl", "added-e"}
    finally:
        cluster.stop()
        await cluster.drop_schema()
