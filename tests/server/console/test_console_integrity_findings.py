"""Issue 30, items 2, 3 and 5 in the console over HTTP: the Findings page runs the integrity report (the
same document as ``pokerroom integrity report --json``, made by that command in a child process: the
database URL in its environment, not its arguments; killed at its time limit and when the room stops) for
the last 1-31 days, one run at a time; each section lists its rows (capped; no session lists) with the
accounts they name (notes and linked accounts counted) and their hands, which open in the console's
replayer with every card once the hand is over (each read audited). Staff only; a bad period is typed; a
failed run says its error's type, not its text."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
from sqlalchemy import insert, update
from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.server.console import findings
from pokerroom.server.demo import demo_tables
from pokerroom.server.integrity.report import brief_document
from pokerroom.server.room import RoomSettings
from pokerroom.store import Role, Store
from pokerroom.store.db import ENV_URL
from pokerroom.store.models import HandRow, TournamentHandRow, TournamentRow
from tests.waiting import until

from ..conftest import serve_room
from .conftest import FAST, Console, account
from .planted import plant_a_machine

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def planted(tmp_path: Path) -> AsyncIterator[tuple[Console, str]]:
    """The console's room served on a store where the timing field played 20 hands (3 honest bots and a
    machine) within the last day; the machine's name."""
    machine = await plant_a_machine(tmp_path / "room.db")
    settings = RoomSettings(tables=tuple(demo_tables(FAST, games=("holdem",))))
    async with (
        serve_room(tmp_path, settings, durable=False) as s,
        httpx.AsyncClient(base_url=s.url, timeout=60) as http,
    ):
        admin, _ = await account(http, s, "boss", Role.ADMIN)
        support, _ = await account(http, s, "helpdesk", Role.SUPPORT)
        player, pid = await account(http, s, "alice", Role.PLAYER)
        http.cookies.clear()
        yield Console(s, http, admin, support, player, pid), machine


async def finished(c: Console, r: httpx.Response, headers: dict[str, str]) -> dict[str, Any]:
    """The run of a report answer, asked for again by its id until it has finished."""
    while r.status_code == 202:
        r = await c.http.get(f"/api/console/integrity/report/{r.json()['run']['id']}", headers=headers)
    assert r.status_code == 200, r.text
    run: dict[str, Any] = r.json()["run"]
    assert run["state"] in ("done", "failed") and run["finished_at"] is not None
    return run


async def ask(c: Console, path: str, headers: dict[str, str]) -> dict[str, Any]:
    return await finished(c, await c.http.get(path, headers=headers), headers)


async def test_the_report_lists_a_planted_machine_with_its_notes_and_hands_in_the_replayer(
    planted: tuple[Console, str],
) -> None:
    c, machine = planted
    s = c.store
    bot = await s.accounts.find(machine)
    boss = await s.accounts.find("boss")
    await s.notes.add(bot.id, boss.id, "boss", "plays all night, always one second")
    r = await c.http.get("/api/console/integrity/report?days=1", headers=c.support)  # support reads it
    run = await finished(c, r, c.support)
    assert (run["state"], run["days"], run["by"]) == ("done", 1, "helpdesk")
    report = run["report"]
    assert report["hands_read"] >= 15 and report["flagged"] == 1
    assert report["figures"]["hands_read"] == report["hands_read"] and "thresholds" in report["figures"]
    sections = {x["key"]: x for x in report["sections"]}
    assert {"bots_by_timing", "chip_dumping", "soft_play", "collusive_betting"} <= set(sections)
    timing = sections["bots_by_timing"]
    assert (timing["title"], timing["flagged"], timing["rows"]) == ("Bots by timing", 1, 4)
    top = timing["shown"][0]
    assert top["flagged"] and top["name"] == machine and top["median_seconds"] == 1.0
    assert [x["name"] for x in timing["shown"][1:]] and not any(x["flagged"] for x in timing["shown"][1:])
    assert report["accounts"][machine] == {"id": bot.id, "name": machine, "notes": 1, "linked": 0}
    # every supporting hand opens in the console's replayer, with every hole card (the audit copy)
    assert len(top["hands"]) == 10
    for hand_id in top["hands"][:3]:
        r = await c.http.get(f"/api/console/integrity/hands/{hand_id}/replay", headers=c.support)
        assert r.status_code == 200, r.text
        hand = r.json()
        assert hand["hand_id"] == hand_id and machine in hand["players"].values()
        dealt = [e for e in hand["events"] if e["type"] == "cards_dealt"]
        assert {str(e["seat"]) for e in dealt} == set(hand["players"])  # every seat's hole cards
        assert all(len(e["cards"]) == 2 and "??" not in e["cards"] for e in dealt)
        assert sum(hand["nets"].values()) <= 0  # chips conserved (less the rake)
        (seen,) = await s.audit.entries(action="hand.view", target=hand_id)  # every read is audited
        assert (seen.actor_name, seen.action, seen.target) == ("helpdesk", "hand.view", hand_id)
    r = await c.http.get(f"/api/console/integrity/hands/{top['hands'][0]}/replay", headers=c.player)
    assert r.status_code == 403
    assert len(await s.audit.entries(action="hand.view")) == 3  # (a refused read is none)


async def test_the_console_report_is_the_command_lines(planted: tuple[Console, str]) -> None:
    """The console's document is ``pokerroom integrity report --json``'s for the same period."""
    c, machine = planted
    s: Store = c.store
    since = (datetime.now(UTC) - timedelta(days=1)).replace(microsecond=0)
    mine = await findings.report_document(s, since)
    out = await asyncio.to_thread(
        CliRunner().invoke,
        app,
        ["integrity", "report", "--url", c.s.room.store.db.url,
         "--since", since.strftime("%Y-%m-%dT%H:%M:%S"), "--json"],
    )  # fmt: skip
    assert out.exit_code == 1, out.output  # (one flagged)
    assert brief_document(json.loads(out.output)) == mine  # (its console form: the lists cut)
    assert mine["section_counts"]["bots_by_timing"] == {"rows": 4, "flagged": 1}
    assert [r["name"] for r in mine["bots_by_timing"] if r["flagged"]] == [machine]


async def test_the_report_is_the_staffs_and_a_bad_period_is_refused(console: Console) -> None:
    http = console.http
    assert (await http.get("/api/console/integrity/report?days=1")).status_code == 401
    r = await http.get("/api/console/integrity/report?days=1", headers=console.player)
    assert r.status_code == 403 and r.json()["detail"]["code"] == "forbidden"
    assert (await http.get("/api/console/integrity/hands/x/replay")).status_code == 401
    for bad in ("0", "32", "367", "abc", "1.5", "-3", "", "\u00b2", "\u0661", "+7", " 7"):
        r = await http.get(f"/api/console/integrity/report?days={bad}", headers=console.admin)
        assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_period", bad
    assert (await http.get("/api/console/integrity/report/r1")).status_code == 401
    r = await http.get("/api/console/integrity/report/r1", headers=console.player)
    assert r.status_code == 403 and r.json()["detail"]["code"] == "forbidden"
    r = await http.get("/api/console/integrity/report/r1", headers=console.admin)  # nothing started
    assert r.status_code == 404 and r.json()["detail"]["code"] == "unknown_run"
    r = await http.get("/api/console/integrity/report/r404", headers=console.admin)
    assert r.status_code == 404 and r.json()["detail"]["code"] == "unknown_run"
    r = await http.get("/api/console/integrity/hands/no-such-hand/replay", headers=console.admin)
    assert r.status_code == 404 and r.json()["detail"]["code"] == "unknown_hand"
    # an empty room: every section empty, nothing flagged
    run = await ask(console, "/api/console/integrity/report", console.admin)
    assert run["days"] == 1 and run["report"]["flagged"] == 0 and run["report"]["hands_read"] == 0
    assert all(x["rows"] == 0 and x["shown"] == [] for x in run["report"]["sections"])


async def test_one_run_at_a_time_the_same_period_joins_it_and_any_section_is_shown(
    console: Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run for another period while one runs is refused (409, typed); one for the same period joins it.
    A section the report gains (a new score) is listed like the others, with the accounts it names."""
    gate = asyncio.Event()
    asked: list[datetime] = []

    async def build(s: Store, since: datetime) -> dict[str, Any]:
        asked.append(since)
        await gate.wait()
        return {
            "bots_by_timing": [],
            "rush_together": [
                {"players": ["alice", "nobody-renamed"], "together": 9, "expected": 1.5, "z": 4.2,
                 "flagged": True, "hands": ["h-1", "h-2"]},
                {"players": ["alice", "helpdesk"], "together": 2, "expected": 1.9, "z": 0.1,
                 "flagged": False, "hands": []},
            ],
            "hands_read": 12,
            "hands_unreadable": ["h-bad"],
            "flagged": 1,
        }  # fmt: skip

    monkeypatch.setattr(findings, "report_document", build)
    monkeypatch.setattr(findings, "WAIT_S", 0.05)
    http, admin = console.http, console.admin
    first = await http.get("/api/console/integrity/report?days=7", headers=admin)
    assert first.status_code == 202 and first.json()["run"]["state"] == "running"
    rid = first.json()["run"]["id"]
    r = await http.get("/api/console/integrity/report?days=30", headers=console.support)
    assert r.status_code == 409 and r.json()["detail"]["code"] == "report_running"
    assert r.json()["detail"]["details"]["days"] == 7 and r.json()["detail"]["details"]["run"] == rid
    r = await http.get("/api/console/integrity/report?days=7", headers=console.support)
    assert r.status_code == 202 and r.json()["run"]["id"] == rid  # joined, not started again
    assert len(asked) == 1
    now = console.s.room.clock.now()
    assert abs((now - asked[0]).total_seconds() - 7 * 86400) < 60
    gate.set()
    run = await ask(console, f"/api/console/integrity/report/{rid}", admin)
    assert run["state"] == "done" and run["error"] is None
    report = run["report"]
    assert (report["hands_read"], report["hands_unreadable"], report["flagged"]) == (12, ["h-bad"], 1)
    assert report["figures"] == {"hands_read": 12, "flagged": 1}
    (timing, rush) = report["sections"]
    assert timing["key"] == "bots_by_timing" and timing["rows"] == 0
    assert (rush["title"], rush["rows"], rush["flagged"], rush["left_out"]) == ("Rush together", 2, 1, 0)
    assert rush["shown"][0]["together"] == 9 and rush["shown"][0]["hands"] == ["h-1", "h-2"]
    assert set(report["accounts"]) == {"alice", "helpdesk"}  # (a name no account has is left out)
    assert report["accounts"]["alice"]["id"] == console.player_id
    # the period is free again: another one runs
    gate.clear()
    r = await http.get("/api/console/integrity/report?days=30", headers=admin)
    assert r.status_code == 202 and r.json()["run"]["id"] != rid
    gate.set()
    assert (await finished(console, r, admin))["days"] == 30


@pytest.mark.allow_errors("pokerroom.server.console.findings", reason="the report fails on purpose")
async def test_a_failed_run_says_why_and_the_next_one_runs(
    console: Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = 0

    async def build(s: Store, since: datetime) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("the disk is on fire")
        return {"hands_read": 0, "hands_unreadable": [], "flagged": 0}

    monkeypatch.setattr(findings, "report_document", build)
    admin = console.admin
    run = await ask(console, "/api/console/integrity/report?days=2", admin)
    assert run["state"] == "failed" and run["report"] is None
    # the page gets the error's type, not its text (a store's error names SQL and its parameters)
    assert "RuntimeError" in run["error"] and "the disk is on fire" not in run["error"]
    run = await ask(console, "/api/console/integrity/report?days=2", admin)
    assert run["state"] == "done" and run["report"]["sections"] == []


# ------------------------------------------------------------------------------ the sections' rows


async def test_a_section_caps_its_flagged_rows_and_leaves_out_the_session_lists() -> None:
    rows = [
        {"name": f"p{i}", "flagged": True, "hours": i, "session_list": [{"hours": 1}] * 50}
        for i in range(250)
    ]
    rows += [{"name": f"q{i}", "flagged": False, "session_list": []} for i in range(30)]
    (x,) = findings.sections_of({"bots_by_sessions": rows, "hands_read": 1})
    assert (x["rows"], x["flagged"]) == (280, 250)
    assert len(x["shown"]) == findings.SHOWN_FLAGGED + findings.SHOWN_UNFLAGGED == 210
    assert x["left_out"] == 280 - 210
    assert [r["name"] for r in x["shown"][:3]] == ["p0", "p1", "p2"] and x["shown"][-1]["name"] == "q9"
    assert not any("session_list" in r for r in x["shown"]) and x["shown"][0]["hours"] == 0
    # the child's console form: the lists already cut, the counts beside them; the same sections
    brief = brief_document({"bots_by_sessions": rows, "hands_read": 1, "hands_unreadable": ["u"] * 300})
    assert len(brief["bots_by_sessions"]) == 210 and len(brief["hands_unreadable"]) == 200
    assert brief["section_counts"] == {"bots_by_sessions": {"rows": 280, "flagged": 250}}
    (y,) = findings.sections_of(brief)
    assert y == x


# ------------------------------------------------------------------------------ the child process


def _script(code: str, *args: str) -> list[str]:
    return [sys.executable, "-c", code, *args]


async def _pid_in(path: Path) -> int:
    """The pid a child wrote in ``path`` (waited for: a child starts slowly on a busy machine)."""
    text = await until(
        lambda: path.exists() and path.read_text().strip(), timeout=120, what=f"a child's pid in {path}"
    )
    return int(text)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


# A child that writes its pid and then waits for a signal (a report that does not end by itself).
SLEEPER = "import os, signal, sys; open(sys.argv[1], 'w').write(str(os.getpid())); signal.pause()"


@pytest.mark.allow_errors("pokerroom.server.console.findings", reason="a child fails on purpose")
async def test_the_report_runs_in_a_child_with_the_database_url_in_its_environment_only(
    console: Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = console.store
    since = datetime(2026, 12, 1, 8, 30, tzinfo=UTC)
    argv = findings.report_command(since)
    assert argv[:3] == [sys.executable, "-m", "pokerroom"]
    assert argv[3:7] == ["integrity", "report", "--json", "--console"]
    assert argv[-2:] == ["--since", "2026-12-01T08:30:00"]
    assert not any(s.db.url in a or "sqlite" in a for a in argv)  # (what ps shows)
    echo = (
        "import json, os, sys; print(json.dumps({'argv': sys.argv[1:], 'url': os.environ.get(sys.argv[1])}))"
    )
    monkeypatch.setattr(findings, "report_command", lambda since: _script(echo, ENV_URL))
    got = await findings.report_document(s, since)
    assert got == {"argv": [ENV_URL], "url": s.db.url}
    # an answer that is not a JSON object, or an exit status other than 0 and 1: a typed failure
    for code, why in (("print('[1]')", "JSON object"), ("import sys; sys.exit(3)", "status 3")):
        monkeypatch.setattr(findings, "report_command", lambda since, code=code: _script(code))
        with pytest.raises(findings.ReportFailed, match=why):
            await findings.report_document(s, since)


async def test_a_child_is_killed_at_its_time_limit_and_when_its_run_is_cancelled(
    console: Console, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    s = console.store
    now = datetime.now(UTC)
    first, second = tmp_path / "first.pid", tmp_path / "second.pid"
    monkeypatch.setattr(findings, "report_command", lambda since: _script(SLEEPER, str(first)))
    task = asyncio.create_task(findings.report_document(s, now))
    pid = await _pid_in(first)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _gone(pid)  # killed and reaped with the cancelled run
    monkeypatch.setattr(findings, "report_command", lambda since: _script(SLEEPER, str(second)))
    with pytest.raises(findings.ReportFailed, match="longer than 3 s"):
        await findings.report_document(s, now, limit_s=3)
    if second.exists() and second.read_text():  # (it had started when its time ran out)
        assert _gone(int(second.read_text()))


async def test_a_run_in_progress_is_cancelled_and_its_child_killed_when_the_room_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    desks: list[findings.FindingsDesk] = []

    class Desk(findings.FindingsDesk):
        def __init__(self) -> None:
            super().__init__()
            desks.append(self)

    pid_file = tmp_path / "child.pid"
    monkeypatch.setattr(findings, "FindingsDesk", Desk)
    monkeypatch.setattr(findings, "WAIT_S", 0.05)
    monkeypatch.setattr(findings, "report_command", lambda since: _script(SLEEPER, str(pid_file)))
    settings = RoomSettings(tables=tuple(demo_tables(FAST, games=("holdem",))))
    async with (
        serve_room(tmp_path, settings, durable=False) as s,
        httpx.AsyncClient(base_url=s.url, timeout=60) as http,
    ):
        admin, _ = await account(http, s, "boss", Role.ADMIN)
        r = await http.get("/api/console/integrity/report?days=31", headers=admin)
        assert r.status_code == 202 and r.json()["run"]["state"] == "running"
        pid = await _pid_in(pid_file)
    (desk,) = desks
    (run,) = desk.runs.values()
    assert run.state == "cancelled" and run.finished_at is not None and run.error is not None
    assert run.to_dict()["state"] == "cancelled"
    assert _gone(pid)


# ------------------------------------------------------------------------------ the replayer


async def test_the_replayer_refuses_a_hand_not_over_and_audits_every_read(console: Console) -> None:
    s, http, admin = console.store, console.http, console.admin
    now = datetime.now(UTC)
    async with s.db.write() as conn:
        await conn.execute(
            insert(HandRow).values(
                id="cash-open", table_id="holdem-nl", game="holdem", currency="chips", status="open",
                started_at=now, deck_commitment="0" * 64, start_fingerprint="0" * 64,
            )
        )  # fmt: skip
        await conn.execute(
            insert(TournamentRow).values(
                id="cup", currency="chips", buy_in=0, fee=0, status="running", created_at=now, updated_at=now
            )
        )
        await conn.execute(
            insert(TournamentHandRow).values(
                id="cup-h1", tournament_id="cup", table_id="cup-1", game="holdem", ended_at=now, full_phh="x"
            )
        )
    r = await http.get("/api/console/integrity/hands/cash-open/replay", headers=console.support)
    assert r.status_code == 409 and r.json()["detail"]["code"] == "hand_in_play"
    r = await http.get("/api/console/integrity/hands/cup-h1/replay", headers=admin)
    assert r.status_code == 409 and r.json()["detail"]["code"] == "hand_in_play"
    assert r.json()["detail"]["details"]["tournament"] == "cup"
    assert await s.audit.entries(action="hand.view") == []  # (a refused read is none)
    async with s.db.write() as conn:
        await conn.execute(update(TournamentRow).where(TournamentRow.id == "cup").values(status="finished"))
    r = await http.get("/api/console/integrity/hands/cup-h1/replay", headers=admin)
    assert (
        r.status_code == 409 and r.json()["detail"]["code"] == "unreadable_hand"
    )  # (read: its text is junk)
    (seen,) = await s.audit.entries(action="hand.view")
    assert (seen.actor_name, seen.target) == ("boss", "cup-h1")
