"""The benchmarks give figures only from runs that measured what they claim (issue 32): the engine's PHH
line compares the files both sides replay and names the others; the server benchmark refuses a run whose
players did not all sit or made no action; the load test's warm-up waits for everyone to sit."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pokerroom.bots.load import seat_limit, wait_seated

ROOT = Path(__file__).resolve().parents[1]
PHH = ROOT / "tests" / "fixtures" / "phh" / "wsop-2023-43-5"
UNREPLAYABLE_BY_POKERKIT = PHH / "85.phh"  # pokerroom replays it; PokerKit 0.7 cannot repair it


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def engine() -> ModuleType:
    return _load("engine")


@pytest.fixture(scope="module")
def server() -> ModuleType:
    return _load("server")


# ------------------------------------------------------------------------------------ engine.py PHH


def test_phh_line_compares_only_the_files_both_replay_and_names_the_others(engine: ModuleType) -> None:
    pytest.importorskip("pokerkit")
    files = {"80.phh": (PHH / "80.phh").read_text(), "85.phh": UNREPLAYABLE_BY_POKERKIT.read_text()}
    lines = engine.phh_lines(files, 1)
    assert lines[0] == "PHH files: 2; pokerroom replays 2, PokerKit replays 1"
    assert "  PokerKit could not replay 85.phh" in lines
    assert not any("pokerroom could not" in line for line in lines)
    assert lines[-1].startswith("PHH replay (1 files, parse + replay)") and "| x" in lines[-1]


def test_phh_line_names_a_file_pokerroom_cannot_replay(engine: ModuleType) -> None:
    files = {
        "good.phh": (PHH / "80.phh").read_text(),
        "broken.phh": "variant = 'NT'\nactions = ['d dh p9']\n",
    }
    lines = engine.phh_lines(files, 1)
    assert lines[0].startswith("PHH files: 2; pokerroom replays 1")
    assert "  pokerroom could not replay broken.phh" in lines
    assert lines[-1].startswith("PHH replay (1 files, parse + replay)")


def test_phh_line_without_a_common_file_measures_nothing(engine: ModuleType) -> None:
    lines = engine.phh_lines({"broken.phh": "not toml ["}, 1)
    assert lines[0].startswith("PHH files: 1; pokerroom replays 0")
    assert lines[-1] == "PHH replay: no file that both replay; not measured"


def test_the_engine_benchmark_entry_point_runs_its_phh_line_on_two_files() -> None:
    pytest.importorskip("pokerkit")
    argv = [sys.executable, "benchmarks/engine.py", "--quick", "--phh", str(PHH / "80.phh"),
            str(UNREPLAYABLE_BY_POKERKIT)]  # fmt: skip
    out = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "PokerKit replays 1" in out.stdout
    assert f"PokerKit could not replay {UNREPLAYABLE_BY_POKERKIT}" in out.stdout
    assert "PHH replay (1 files, parse + replay)" in out.stdout


# ------------------------------------------------------------------------------------- server.py


def _report(seated: int = 1000, actions: int = 5000) -> dict[str, Any]:
    return {"seated": seated, "actions": actions, "duration": 20.0, "p50": 40.0, "p99": 90.0, "errors": 0,
            "hands": 100, "cpu_ms": 0.5, "rate": actions / 20.0}  # fmt: skip


def _args(
    players: int = 1000, warmup: float | None = None, rounds: int = 3, mix: str = ""
) -> argparse.Namespace:
    return argparse.Namespace(players=players, warmup=warmup, duration=20.0, think="0-0", rounds=rounds,
                              base="HEAD", new=None, mix=mix)  # fmt: skip


def test_a_run_in_which_not_everybody_sat_or_nobody_acted_gives_no_figure(server: ModuleType) -> None:
    assert server.run_problem(_report(), 1000) is None
    assert server.run_problem(_report(seated=151), 1000) == "only 151 of 1000 players sat"
    assert server.run_problem(_report(seated=999), 1000) == "only 999 of 1000 players sat"
    assert server.run_problem(_report(actions=0), 1000) == "no action was made in the measured window"
    late = {**_report(), "seated_at_start": 359}  # all sat by the end, but not for the whole window
    assert server.run_problem(late, 1000) == "only 359 of 1000 players sat before the measured window"
    assert server.run_problem({**_report(), "seated_at_start": 1000}, 1000) is None
    assert server.run_problem({**_report(), "seated_at_start": None}, 1000) is None  # an older load test


def test_a_failed_run_is_run_once_more_with_twice_the_warmup_and_said(server: ModuleType) -> None:
    warmups: list[float | None] = []
    said: list[str] = []
    reports = iter([_report(seated=359), _report()])

    def run(warmup: float | None) -> dict[str, Any]:
        warmups.append(warmup)
        return next(reports)

    assert server.checked_run("base", _args(), run, said.append) == _report()
    assert warmups == [None, 40.0]  # the default warm-up at 1,000 players is 20 s
    assert said == [
        "  base  no figure: only 359 of 1000 players sat; running it once more with a 40 s warm-up"
    ]


def test_a_run_that_fails_twice_stops_the_benchmark(server: ModuleType) -> None:
    warmups: list[float | None] = []

    def run(warmup: float | None) -> dict[str, Any]:
        warmups.append(warmup)
        return _report(actions=0)

    with pytest.raises(server.RunFailed, match=r"no action was made .* again, with a 50 s warm-up"):
        server.checked_run("new", _args(warmup=25.0), run, lambda _: None)
    assert warmups == [None, 50.0]


def test_the_second_run_warms_up_at_least_twice_the_default(server: ModuleType) -> None:
    warmups: list[float | None] = []

    def run(warmup: float | None) -> dict[str, Any]:
        warmups.append(warmup)
        return _report(seated=0) if warmup is None else _report()

    server.checked_run("base", _args(warmup=0.0), run, lambda _: None)
    assert warmups == [None, 40.0]


def test_a_good_run_is_run_once(server: ModuleType) -> None:
    calls: list[float | None] = []

    def run(warmup: float | None) -> dict[str, Any]:
        calls.append(warmup)
        return _report()

    assert server.checked_run("new", _args(), run, print) == _report()
    assert calls == [None]


def test_the_benchmark_exits_non_zero_and_prints_no_ratio_when_players_never_sat(
    server: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(server, "checkout_base", lambda rev, into: "a stub")
    monkeypatch.setattr(server, "run_side", lambda src, args, warmup=None: _report(seated=151))
    monkeypatch.setattr(sys, "argv", ["server.py", "--base", "HEAD", "--players", "1000", "--rounds", "1"])
    with pytest.raises(SystemExit) as stopped:
        server.main()
    assert (
        stopped.value.code
        == "error: base: only 151 of 1000 players sat again, with a 40 s warm-up; no figure from it"
    )
    out = capsys.readouterr().out
    assert "once more" in out and "this tree / base" not in out and " = x" not in out


def test_both_sides_run_the_mix_asked_for(server: ModuleType) -> None:
    """``--mix ha``: each side's load test gets mixed tables of that mix; without it, the default tables."""
    mixed, plain = server.load_code(_args(mix="ha")), server.load_code(_args())
    assert "run_load(1000, 20.0, (0.0, 0.0), warmup=None, mix='ha')" in mixed
    assert "run_load(1000, 20.0, (0.0, 0.0), warmup=None)" in plain
    for code in (mixed, plain):
        compile(code, "<load>", "exec")


def test_the_medians_say_what_they_are(server: ModuleType) -> None:
    assert "mean of the two middle runs" in server.median_words(2)
    assert "mean" not in server.median_words(3)
    assert server.median_words(1).startswith("one round")


# --------------------------------------------------------------------------------------- load.py


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def pause(self, seconds: float) -> None:
        self.now += seconds


def test_the_warmup_lasts_its_planned_length_even_when_everybody_sits_early() -> None:
    clock = _Clock()
    assert wait_seated(12, lambda: 12, lambda: True, 1010.0, 60.0, clock=clock, pause=clock.pause) == 12
    assert 1010.0 <= clock.now < 1010.3


def test_the_warmup_waits_past_its_planned_length_until_everybody_sits() -> None:
    clock = _Clock()

    def seated() -> int:  # one more player sits every second
        return min(1000, int(clock.now - 1000.0) * 10)

    assert (
        wait_seated(1000, seated, lambda: True, 1020.0, seat_limit(1000), clock=clock, pause=clock.pause)
        == 1000
    )
    assert 1100.0 <= clock.now < 1100.3  # 100 s to seat them all, past the planned 20 s


def test_the_warmup_gives_up_at_its_limit_and_says_how_many_sat() -> None:
    clock = _Clock()
    assert wait_seated(1000, lambda: 151, lambda: True, 1020.0, 160.0, clock=clock, pause=clock.pause) == 151
    assert 1180.0 <= clock.now < 1180.3


def test_the_warmup_ends_when_a_bot_process_died() -> None:
    clock = _Clock()
    assert wait_seated(1000, lambda: 3, lambda: clock.now < 1030.0, 1020.0, 160.0, clock=clock,
                       pause=clock.pause) == 3  # fmt: skip
    assert 1030.0 <= clock.now < 1030.3


def test_the_seat_limit_is_generous() -> None:
    assert seat_limit(12) >= 60 and seat_limit(1000) >= 150


# ------------------------------------------------------------------------------------ ws_read.py


def test_the_frame_reading_benchmark_reads_every_frame_on_both_sides() -> None:
    """benchmarks/ws_read.py takes each frame's message off the protocol's queue (a protocol that did not
    deliver one would fail the run, not speed it up) and prints both sides and their ratio."""
    argv = [sys.executable, "benchmarks/ws_read.py", "--frames", "300", "--pairs", "1"]
    out = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "uvicorn's websockets-sansio protocol" in out.stdout and "FastReadProtocol" in out.stdout
    assert "paired median ratio" in out.stdout


def test_the_cpu_per_server_hand_line_times_whole_hands_that_the_store_keeps(tmp_path: Path) -> None:
    """benchmarks/store.py's CPU line times start and end records that the journal really holds: every
    hand it ran is ended, with its 24 commands, and the books balance (the line asserts the verify report)."""
    from sqlalchemy import func, select

    from pokerroom.store import Database, Store
    from pokerroom.store.models import HandCommandRow, HandRow

    bench = _load("store")
    store = Store(Database(f"sqlite+aiosqlite:///{tmp_path}/bench.db"), hasher=bench._hasher())

    async def run() -> tuple[float, list[str], int]:
        try:
            cpu = await bench._server_hand_cpu(store, 5)
            async with store.db.read() as conn:
                is_ended = select(func.count()).where(HandRow.status == "ended")
                ended = (await conn.execute(is_ended)).scalar_one()
                counted = select(func.count()).select_from(HandCommandRow)
                commands = (await conn.execute(counted)).scalar_one()
            assert commands == bench.SERVER_COMMANDS * ended
            return cpu, [h.hand_id for h in await store.journal.open_hands()], int(ended)
        finally:
            await store.close()

    cpu, open_hands, ended = asyncio.run(run())
    assert cpu > 0
    assert open_hands == []
    assert ended == 6  # one warm-up hand and the five timed
