"""Issue 29, item 6 (operability): the demo account only where the configuration asks for it; a reload of
a broken file refused by ``pokerroom reload`` and logged as one JSON event by the room; the room's events
as JSON log lines; tournaments counted by their state in /metrics; sit-and-go copies with stable names;
``pokerroom bots --tournament <series>``."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.cli.config import RoomFiles, check_room_files, room_files
from pokerroom.cli.serve import DEMO_NAME, DEMO_PASSWORD, ServeOptions, demo_account, reread_room
from pokerroom.cli.tournament_target import TargetUnknown, pick_tournament
from pokerroom.engine import Betting
from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.config import ConfigInvalid, load_config, parse_config
from pokerroom.server.logs import EVENTS, JsonFormatter
from pokerroom.server.room import RoomSettings
from pokerroom.store import Database, Store, UnknownPlayer
from pokerroom.store.errors import WrongPassword
from pokerroom.store.owner import OwnerLock

from .harness import Harness

runner = CliRunner()
TIMING = Timing(action=10.0, time_bank=5.0, between_hands=1.0, disconnect_grace=600, sit_out_limit=3600)
BROKEN = """[room]
name = "club"
demo_account = "yes"

[[table]]
id = "t1"
name = "T1"
game = "holdem"
betting = "NL"
stakes = { small_blind = 10, big_blind = 20 }
seats = 12

[[table]]
id = "t2"
name = "T2"
game = "holdem"
betting = "NL"
stakes = { small_blind = 10, big_blind = "x" }
seats = 6
"""
GOOD = """[room]
name = "club"

[[table]]
id = "t1"
name = "T1"
game = "holdem"
betting = "NL"
stakes = { small_blind = 10, big_blind = 20 }
seats = 6
"""


@contextmanager
def json_lines(*loggers: str) -> Iterator[list[dict[str, Any]]]:
    """Every line the room's JSON format would write on these loggers while the block runs."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    found: list[dict[str, Any]] = []
    levels = {}
    for name in loggers:
        logger = logging.getLogger(name)
        levels[name] = logger.level
        logger.setLevel(logging.INFO)
        logger.addHandler(handler)
    try:
        yield found
    finally:
        for name in loggers:
            logging.getLogger(name).removeHandler(handler)
            logging.getLogger(name).setLevel(levels[name])
        found += [json.loads(line) for line in out.getvalue().splitlines()]


def _events(lines: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [x for x in lines if x.get("event") == name]


# ------------------------------------------------------------------------------------ demo account


def test_demo_account_is_off_unless_the_configuration_turns_it_on() -> None:
    assert parse_config(GOOD).demo_account is False  # a room's own file: no demo account
    assert load_config(None).demo_account is True  # the shipped example (pokerroom serve with no file)
    with pytest.raises(ConfigInvalid) as bad:
        parse_config(BROKEN)
    assert any(p.path == "room.demo_account" and p.line == 3 for p in bad.value.problems)


@pytest.mark.asyncio
async def test_a_start_leaves_the_accounts_alone_without_demo_account(tmp_path: Path) -> None:
    store = Store(Database(f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"))
    try:
        await store.db.upgrade()
        await demo_account(parse_config(GOOD))(store)
        with pytest.raises(UnknownPlayer):
            await store.accounts.find(DEMO_NAME)  # nothing made
        mine = await store.accounts.register(DEMO_NAME, "a-password-of-my-own")
        await demo_account(parse_config(GOOD))(store)
        await store.accounts.check_password(mine.id, "a-password-of-my-own")  # nothing reset
        await demo_account(load_config(None))(store)  # the shipped example resets it, as documented
        await store.accounts.check_password(mine.id, DEMO_PASSWORD)
        with pytest.raises(WrongPassword):
            await store.accounts.check_password(mine.id, "a-password-of-my-own")
    finally:
        await store.close()


# ------------------------------------------------------------------------------------------ reload


def test_room_files_are_read_from_the_rooms_command_line_and_environment(tmp_path: Path) -> None:
    proc = tmp_path / "proc"
    (proc / "42").mkdir(parents=True)
    (proc / "42" / "cmdline").write_bytes(b"python\0-m\0pokerroom\0serve\0--config\0room.toml\0--no-open\0")
    (proc / "42" / "environ").write_bytes(b"HOME=/root\0")
    (proc / "42" / "cwd").symlink_to(tmp_path)
    assert room_files(42, proc) == RoomFiles(str(tmp_path / "room.toml"), None)
    (proc / "42" / "cmdline").write_bytes(b"pokerroom\0serve\0--tournaments=/etc/t.toml\0")
    (proc / "42" / "environ").write_bytes(b"HOME=/root\0POKERROOM_CONFIG=/etc/room.toml\0")
    assert room_files(42, proc) == RoomFiles("/etc/room.toml", "/etc/t.toml")
    assert room_files(43, proc) is None  # not readable: the caller says so


def test_check_room_files_names_each_problem_with_its_line_and_key(tmp_path: Path) -> None:
    bad = tmp_path / "room.toml"
    bad.write_text(BROKEN, encoding="utf-8")
    problems = check_room_files(RoomFiles(str(bad), None))
    assert f"{bad}:3: room.demo_account: must be true or false" in problems
    assert f"{bad}:18: table[1].stakes.big_blind: must be a whole number of at least 0" in problems
    assert any(f"{bad}:11: table[0].seats" in p for p in problems)
    good = tmp_path / "good.toml"
    good.write_text(GOOD, encoding="utf-8")
    assert check_room_files(RoomFiles(str(good), None)) == []
    assert "No such file" in check_room_files(RoomFiles(str(good), str(tmp_path / "none.toml")))[0]


def test_reload_of_a_broken_file_exits_1_printing_each_problem_and_signals_nothing(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    bad = tmp_path / "room.toml"
    bad.write_text(BROKEN, encoding="utf-8")
    got: list[int] = []
    previous = signal.signal(signal.SIGHUP, lambda signum, frame: got.append(signum))
    lock = OwnerLock(url)  # this process plays the running room
    asyncio.run(lock.acquire())
    try:
        done = runner.invoke(app, ["reload", "--database", url, "--config", str(bad)])
        assert done.exit_code == 1, done.output
        assert f"{bad}:3: room.demo_account: must be true or false" in done.output
        assert f"{bad}:11: table[0].seats" in done.output
        assert "was not reloaded and goes on as it was" in done.output
        assert got == []  # the room was not asked to read a file it would refuse
        good = tmp_path / "good.toml"
        good.write_text(GOOD, encoding="utf-8")
        done = runner.invoke(app, ["reload", "--database", url, "--config", str(good)])
        assert done.exit_code == 0, done.output
        assert f"asked the room (pid {os.getpid()}) to read {good} again" in done.output
        assert got == [signal.SIGHUP]
    finally:
        asyncio.run(lock.release())
        signal.signal(signal.SIGHUP, previous)


@pytest.mark.allow_errors("pokerroom.events", reason="a reload of a broken file is logged at ERROR")
def test_the_room_logs_a_failed_reload_as_one_json_event_with_each_problem(tmp_path: Path) -> None:
    bad = tmp_path / "room.toml"
    bad.write_text(BROKEN, encoding="utf-8")
    with json_lines("pokerroom.events") as lines:
        assert reread_room(ServeOptions(config=str(bad))) is None
    (failed,) = _events(lines, "config_reload_failed")
    assert failed["level"] == "error" and failed["source"] == str(bad)
    keys = {(p["line"], p["key"]) for p in failed["problems"]}
    assert (3, "room.demo_account") in keys and (11, "table[0].seats") in keys
    good = tmp_path / "good.toml"
    good.write_text(GOOD, encoding="utf-8")
    with json_lines("pokerroom.events") as lines:
        assert reread_room(ServeOptions(config=str(good))) is not None
    assert lines == []


# ------------------------------------------------------------------------- events, metrics, copies


def _sng(players: int) -> TournamentConfig:
    return TournamentConfig(
        "sng",
        "SNG",
        kind="sng",
        variant="holdem",
        betting=Betting.NO_LIMIT,
        buy_in=100,
        fee=10,
        starting_stack=300,
        table_size=players,
        max_players=players,
        level_minutes=2.0,
        timing=TIMING,
    )


def _states(h: Harness) -> dict[str, int]:
    return {state: n for (kind, state), n in h.room._gauges()["tables"].items() if kind == "tournament"}


@pytest.mark.asyncio
async def test_sit_and_go_copies_keep_their_names_and_their_life_is_logged_and_counted(
    tmp_path: Path,
) -> None:
    with json_lines("pokerroom.events") as lines:
        h = await Harness.open(tmp_path, RoomSettings(tournaments=(_sng(2),)), seed=4)
        try:
            assert list(h.room.tournaments) == ["sng-1"]  # numbered, not random
            assert _states(h) == {"announced": 1} or _states(h) == {"registering": 1}
            await h.tournament_bot("ann", "sng-1", "caller", seed=1)
            await h.tournament_bot("bob", "sng-1", "random", seed=2)
            first = h.room.tournaments["sng-1"]
            await h.run(lambda: first.finished_at is not None, seconds=50_000)
            assert "sng-2" in h.room.tournaments  # the next copy opened when the first started
            states = _states(h)
            assert states.get("finished") == 1 and states.get("playing") is None, states  # (R: metrics)
            await h.restart()
            assert [t for t in h.room.tournaments if not h.room.tournaments[t].finished_at] == ["sng-2"]
            await h.room.cancel_tournament("sng-2")
            await h.quiet()
            assert _states(h).get("cancelled") == 1, _states(h)
        finally:
            await h.close()
    opened = _events(lines, "tournament_opened")
    assert [x["tournament"] for x in opened] == ["sng-1", "sng-2", "sng-2"]  # sng-2 again after the restart
    (started,) = _events(lines, "tournament_started")
    assert started["tournament"] == "sng-1" and started["series"] == "sng" and started["entrants"] == 2
    (finished,) = _events(lines, "tournament_finished")
    assert finished["tournament"] == "sng-1" and finished["winner"] in ("ann", "bob")
    (cancelled,) = _events(lines, "tournament_cancelled")
    assert cancelled["tournament"] == "sng-2"


@pytest.mark.asyncio
async def test_tables_opened_and_closed_and_console_actions_are_json_events(tmp_path: Path) -> None:
    from pokerroom.server.demo import demo_tables

    holdem, stud = demo_tables(TIMING, games=("holdem", "stud"))[:2]
    with json_lines("pokerroom.events") as lines:
        h = await Harness.open(tmp_path, RoomSettings(tables=(holdem,)), seed=3)
        try:
            await h.room.reconfigure(RoomSettings(tables=(stud,)))
            await h.run(lambda: holdem.table_id not in h.room.tables, seconds=600)
            await h.store.audit.record(
                None, "root", "table.pause", stud.table_id, before={"a": 1}, reason="x"
            )
        finally:
            await h.close()
    assert [(x["kind"], x["table"]) for x in _events(lines, "table_opened")] == [
        ("cash", holdem.table_id),
        ("cash", stud.table_id),
    ]
    (closed,) = _events(lines, "table_closed")
    assert closed["table"] == holdem.table_id and closed["reason"] == "closed"
    (action,) = _events(lines, "console_action")
    assert (
        action["action"] == "table.pause" and action["target"] == stud.table_id and action["actor"] == "root"
    )
    assert "before" not in action and "a" not in action  # the values stay in the audit log


@pytest.mark.asyncio
@pytest.mark.allow_errors("pokerroom.faults", reason="the test makes a table fail on purpose")
async def test_a_fault_is_a_json_event(tmp_path: Path) -> None:
    from pokerroom.server.demo import demo_tables

    (holdem,) = demo_tables(TIMING, games=("holdem",))[:1]
    with json_lines("pokerroom.faults") as lines:
        h = await Harness.open(tmp_path, RoomSettings(tables=(holdem,)), seed=3)
        try:
            actor = h.room.tables[holdem.table_id]
            await actor.call(lambda: actor.fail(RuntimeError("boom"), "a test"))
        finally:
            await h.close()
    (fault,) = _events(lines, "actor_error")
    assert fault["actor"] == f"table {holdem.table_id}" and fault["where"] == "a test"
    assert fault["error"].startswith("RuntimeError") and fault["level"] == "error"


def test_event_lines_keep_their_own_fields_and_never_overwrite_the_lines_own() -> None:
    record = logging.LogRecord("pokerroom.events", logging.INFO, __file__, 1, "hello", None, None)
    record.__dict__.update(
        {"event": "x", "event_fields": {"message": "no", "level": "no", "n": 3, "gone": None}}
    )
    data = json.loads(JsonFormatter().format(record))
    assert data["event"] == "x" and data["n"] == 3 and data["message"] == "hello" and data["level"] == "info"
    assert "gone" not in data
    assert EVENTS.name == "pokerroom.events"


# ---------------------------------------------------------------------------- bots --tournament


def test_bots_find_the_copy_of_a_series_that_registers_now() -> None:
    groups = {
        "upcoming": [
            {"tournament": "turbo6-12", "status": "registering"},
            {"tournament": "turbo6-9", "status": "registering"},
            {"tournament": "weekly", "status": "announced"},
        ],
        "running": [{"tournament": "turbo6-8", "status": "running"}],
        "finished": [{"tournament": "turbo6-7", "status": "finished"}],
    }
    assert pick_tournament(groups, "turbo6") == "turbo6-9"
    assert pick_tournament(groups, "turbo6-8") == "turbo6-8"  # an id is taken as it is
    assert pick_tournament(groups, "weekly") == "weekly"
    with pytest.raises(TargetUnknown, match="no tournament 'nope'"):
        pick_tournament(groups, "nope")
    with pytest.raises(TargetUnknown):
        pick_tournament(groups, "turbo6-7")  # over


@pytest.mark.asyncio
async def test_pokerroom_bots_tournament_series_registers_the_open_copy(tmp_path: Path) -> None:
    from .conftest import serve_room

    async with serve_room(tmp_path, RoomSettings(tournaments=(_sng(6),))) as s:
        args = ["bots", "--url", s.url, "--tournament", "sng", "--count", "2", "--duration", "1"]
        done = await asyncio.to_thread(runner.invoke, app, args)
        assert done.exit_code == 0, done.output
        assert "the bots register for sng-1" in done.output
        assert s.room.tournaments["sng-1"].director.status == "registering"
        assert len(s.room.tournaments["sng-1"].director.entrants) == 2
        args = ["bots", "--url", s.url, "--tournament", "nope", "--count", "1", "--duration", "1"]
        done = await asyncio.to_thread(runner.invoke, app, args)
        assert done.exit_code == 1 and "no tournament 'nope'" in done.output
        assert done.exception is None or isinstance(done.exception, SystemExit)
    assert threading.active_count() >= 1
