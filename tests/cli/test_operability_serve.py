"""Issue 29, item 6, on a real ``pokerroom serve`` process: a room's own file makes no demo account; a
reload of a broken file is refused by ``pokerroom reload`` (exit 1, each problem with its line and key)
and, sent as SIGHUP anyway, logged by the room as one JSON line; a good file reloads and is logged."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tests.cli.output import pump, wait_line
from tests.server.conftest import free_port

ROOM = """[room]
name = "club"

[[table]]
id = "t1"
name = "T1"
game = "holdem"
betting = "NL"
stakes = { small_blind = 10, big_blind = 20 }
seats = 6
"""
MORE = (
    ROOM
    + """
[[table]]
id = "t2"
name = "T2"
game = "omaha"
betting = "PL"
stakes = { small_blind = 10, big_blind = 20 }
seats = 6
"""
)
BROKEN = ROOM.replace("seats = 6", "seats = 60")


def _event(name: str) -> Any:
    def test(line: str) -> bool:
        try:
            return bool(json.loads(line).get("event") == name)
        except ValueError:
            return False

    return test


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pokerroom", *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_a_served_room_without_demo_account_and_its_reloads(tmp_path: Path) -> None:
    port = free_port()
    config = tmp_path / "club.toml"
    config.write_text(ROOM, encoding="utf-8")
    url = f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"
    env = dict(os.environ, HOME=str(tmp_path), POKERROOM_DATABASE_URL=url)
    env.pop("POKERROOM_CONFIG", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "pokerroom", "serve", "--config", str(config), "--port", str(port)]
        + ["--no-open", "--log-format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    seen: list[str] = []
    try:
        lines = pump(proc)
        wait_line(lines, lambda line: f"open http://127.0.0.1:{port}/" in line, 120, seen)
        wait_line(lines, lambda line: "room:" in line, 10, seen)
        assert not any("demo account" in line for line in seen)
        login = httpx.post(
            f"http://127.0.0.1:{port}/api/login",
            json={"name": "demo", "password": "play-poker-for-fun"},
            timeout=10,
        )
        assert login.status_code == 401, login.text  # no demo account in a room's own file

        config.write_text(BROKEN, encoding="utf-8")
        done = _cli("reload", env=env)  # (the room's --config is found from its command line)
        assert done.returncode == 1, done.stdout + done.stderr
        assert f"{config}:10: table[0].seats:" in done.stderr
        assert "was not reloaded" in done.stderr

        proc.send_signal(signal.SIGHUP)  # the room is sent the broken file anyway
        failed = json.loads(wait_line(lines, _event("config_reload_failed"), 60, seen))
        assert failed["level"] == "error" and failed["problems"][0]["line"] == 10
        assert failed["problems"][0]["key"] == "table[0].seats"

        config.write_text(MORE, encoding="utf-8")
        done = _cli("reload", env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        reloaded = json.loads(wait_line(lines, _event("config_reloaded"), 60, seen))
        assert reloaded["opened"] == ["t2"]
        opened = [json.loads(x) for x in seen if _event("table_opened")(x)]
        assert [(x["kind"], x["table"]) for x in opened] == [("cash", "t1"), ("cash", "t2")]
        lobby = httpx.get(f"http://127.0.0.1:{port}/api/lobby", timeout=10).json()
        assert {t["table"] for t in lobby["tables"]} == {"t1", "t2"}
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
