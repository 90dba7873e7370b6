"""Issue 15: what an operator runs the room with. A reload opens and closes tables with the money right (on
the server's harness: a manual clock, no sockets); /metrics speaks the Prometheus format and counts what
happens; /api/ready says why the room is not ready (a schema behind its code); the JSON log lines carry
their table and hand (a live server for what is HTTP)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from argon2 import PasswordHasher
from prometheus_client.parser import text_string_to_metric_families

from pokerroom.bots.runner import start_bots
from pokerroom.rooms import Timing
from pokerroom.server.demo import demo_tables
from pokerroom.server.logs import LOG_CONTEXT, JsonFormatter, log_context
from pokerroom.server.room import RoomSettings
from pokerroom.store import Database, verify_ledger
from tests.waiting import until

from .conftest import LiveServer, serve_room
from .harness import Harness

CLOCK = Timing(action=3.0, time_bank=0.0, between_hands=0.05, disconnect_grace=600, sit_out_limit=3600)


def metrics(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


async def scrape(s: LiveServer) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    async with httpx.AsyncClient(timeout=20) as http:
        r = await http.get(f"{s.url}/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain; version=0.0.4")
    return metrics(r.text)


@pytest.mark.asyncio
async def test_reload_opens_added_tables_and_closes_removed_ones_with_the_players_cashed_out(
    tmp_path: Path,
) -> None:
    holdem, stud = demo_tables(CLOCK, games=("holdem", "stud"))[:2]
    omaha = demo_tables(CLOCK, games=("omaha",))[0]
    h = await Harness.open(tmp_path, RoomSettings(tables=(holdem, stud)), seed=3)
    try:
        store = h.store
        bots = {
            t.table_id: [
                await h.cash_bot(f"bot{k}{i}", t.table_id, ("caller", "random")[i % 2], seed=10 * k + i)
                for i in range(3)
            ]
            for k, t in enumerate((holdem, stud))
        }
        watcher = await h.login("rail")
        await h.subscribe(watcher, stud.table_id)
        # both tables deal
        await h.run(lambda: all(a.hands_played >= 2 for a in h.room.tables.values()), seconds=600)
        seated_at_stud = {x.player_id for x in await store.ledger.sessions(table_id=stud.table_id)}
        assert len(seated_at_stud) == 3
        renamed = replace(holdem, name="Hold'em NL, renamed")
        report = await h.room.reconfigure(RoomSettings(tables=(renamed, omaha)))
        assert report["opened"] == [omaha.table_id]
        assert sorted(report["closing"]) == sorted([holdem.table_id, stud.table_id])
        assert omaha.table_id in h.room.tables

        await h.run(lambda: bool(watcher.of("table_closed")), seconds=600)
        closed = watcher.of("table_closed")[0]
        assert closed["table"] == stud.table_id and closed["reason"] == "closed"

        def settled() -> bool:
            back = h.room.tables.get(holdem.table_id)
            return (
                stud.table_id not in h.room.tables
                and back is not None
                and back.table.config.name == renamed.name
            )

        await h.run(settled, seconds=600)  # the removed table closes and the changed one reopens
        # Nobody is left at the removed table: every seat was cashed out into its wallet.
        assert await store.ledger.sessions(table_id=stud.table_id) == []
        for pid in seated_at_stud:
            closed_sessions = [
                x
                for x in await store.ledger.sessions(player_id=pid, open_only=False)
                if x.table_id == stud.table_id
            ]
            assert closed_sessions and all(x.closed_at is not None for x in closed_sessions)
        # the bots sit again at the reopened table and it deals
        await h.run(lambda: h.room.tables[holdem.table_id].hands_played >= 1, seconds=600)
        # the removed table's bots stopped instead of waiting for it, and it did not come back
        await h.run(lambda: all(c.bot.stopped for c in bots[stud.table_id]), seconds=600)
        await h.quiet()
        assert stud.table_id not in h.room.tables
        report_ok = await verify_ledger(store.db)
        assert report_ok.ok, report_ok
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_metrics_count_what_the_room_does(tmp_path: Path) -> None:
    tables = demo_tables(CLOCK, games=("holdem",))[:1]
    async with serve_room(tmp_path, RoomSettings(tables=tuple(tables))) as s:
        before = await scrape(s)
        assert before[("pokerroom_connections", ())] == 0
        assert before[("pokerroom_tables", (("kind", "cash"), ("state", "playing")))] == 1
        bots = await start_bots(s.url, 3, ["caller"], think=(0, 0.02), seed=4)
        try:

            async def hands() -> bool:
                return s.room.tables[tables[0].table_id].hands_played >= 3

            await until(hands, timeout=60, what="three hands")
            m = await scrape(s)
        finally:
            for bot, task in bots:
                bot.stopped = True
                task.cancel()
    assert m[("pokerroom_connections", ())] == 3
    assert m[("pokerroom_players_online", ())] == 3
    assert m[("pokerroom_players_seated", (("kind", "cash"),))] == 3
    assert m[("pokerroom_hands_total", (("kind", "cash"),))] >= 3
    actions = m[("pokerroom_actions_total", (("kind", "cash"),))]
    assert actions >= 3
    assert m[("pokerroom_action_seconds_count", (("kind", "cash"),))] == actions
    assert m[("pokerroom_action_seconds_bucket", (("kind", "cash"), ("le", "+Inf")))] == actions
    assert m[("pokerroom_journal_commit_seconds_count", ())] >= 1
    assert ("pokerroom_gc_pause_seconds_count", (("generation", "0"),)) in m
    assert m.get(("pokerroom_store_errors_total", (("kind", "cash"),)), 0) == 0


@pytest.mark.asyncio
async def test_ready_says_when_the_schema_is_behind_the_code(tmp_path: Path) -> None:
    async with (
        serve_room(tmp_path, RoomSettings(tables=tuple(demo_tables(CLOCK, games=("holdem",))[:1]))) as s,
        httpx.AsyncClient(timeout=20) as http,
    ):
        ok = await http.get(f"{s.url}/api/ready")
        assert ok.status_code == 200 and ok.json() == {"ready": True, "reasons": []}
        head = Database.head_revision()
        path = str(tmp_path / "room.db")
        with sqlite3.connect(path) as raw:  # as if an older release's database were given to this one
            raw.execute("UPDATE alembic_version SET version_num = '0001'")
        behind = await http.get(f"{s.url}/api/ready")
        assert behind.status_code == 503
        (reason,) = behind.json()["reasons"]
        assert "schema is at 0001" in reason and "pokerroom db upgrade" in reason
        with sqlite3.connect(path) as raw:
            raw.execute("UPDATE alembic_version SET version_num = ?", (head,))
        assert (await http.get(f"{s.url}/api/ready")).status_code == 200
        assert (await http.get(f"{s.url}/api/health")).json()["ok"] is True  # liveness, whatever the store


def test_json_log_lines_carry_the_table_and_the_hand() -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("pokerroom.test_json_log")
    logger.addHandler(handler)
    logger.propagate = False

    async def actor() -> None:
        log_context(table="holdem-nl")
        log_context(hand="holdem-nl-12")
        logger.warning("booking failed: %s", "timeout")

    try:
        asyncio.run(actor())
        logger.warning("outside any actor")
    finally:
        logger.removeHandler(handler)
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["table"] == "holdem-nl" and first["hand"] == "holdem-nl-12"
    assert first["message"] == "booking failed: timeout" and first["level"] == "warning"
    assert "table" not in second  # the context is the actor task's own
    assert LOG_CONTEXT.get() is None


class CountingHasher:
    """The store's password hasher, counting its hashes and checks."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls = 0

    def hash(self, password: str) -> str:
        self.calls += 1
        return str(self.inner.hash(password))

    def verify(self, stored: str, password: str) -> bool:
        self.calls += 1
        return bool(self.inner.verify(stored, password))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@pytest.mark.asyncio
async def test_the_rooms_bots_sit_without_a_password_hash_each_and_nobody_logs_in_as_them(
    tmp_path: Path,
) -> None:
    """Issue 15 §2: the room's bots were logged in one by one, an argon2 hash each (two minutes for the
    default room on a small machine). Now the room makes their accounts and sessions itself."""
    from pokerroom.cli.serve import RoomBots
    from pokerroom.server.config import BotPlan

    tables = demo_tables(CLOCK, games=("holdem", "omaha", "stud"))[:3]
    async with serve_room(tmp_path, RoomSettings(tables=tuple(tables))) as s:
        store = s.room.store
        counting = CountingHasher(store.accounts.hasher)
        store.accounts.hasher = cast(PasswordHasher, counting)  # (it stands in for one)
        bots = RoomBots(s.url, store, s.room)
        plan = BotPlan(tables={t.table_id: 3 for t in tables}, think=(0.0, 0.05), strategies=("caller",))
        try:
            await bots.seat(plan)
            assert len(bots.started) == 9

            async def seated() -> bool:
                return all(
                    len(a.table.free_seats()) == a.table.config.seats - 3 for a in s.room.tables.values()
                )

            await until(seated, timeout=60, what="three bots at each table")
            assert counting.calls == 0  # no password was hashed or checked for them
            again = RoomBots(s.url, store, s.room)  # a restart finds the same accounts
            assert await store.accounts.find("bot-t0-1") is not None
            async with httpx.AsyncClient(timeout=20) as http:
                r = await http.post(f"{s.url}/api/login", json={"name": "bot-t0-1", "password": ""})
                assert r.status_code in (400, 401, 422)
                r = await http.post(f"{s.url}/api/login", json={"name": "bot-t0-1", "password": "x" * 20})
                assert r.status_code == 401
            assert again.started == []
        finally:
            bots.stop()
