"""Issue 28, item 2: no actor halts for ever. An unexpected exception in a table, pool or tournament (a bug,
not a store fault) voids the hands in progress exactly as a restart does (stakes back), is logged and
counted, and the actor deals the next hand; the same error three hands in a row suspends the actor with a
reason that readiness, the lobby and the console show, until an operator resumes it.

On the server's harness (manual clock, no sockets). A bug is injected by patching a function the actor
calls while it settles a hand (cash tables, Rush pools) or while it plays one (tournaments)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from pokerroom.engine import Betting, RakeRule, Stakes
from pokerroom.rooms import TableConfig, Timing
from pokerroom.rooms.points import PointsPolicy
from pokerroom.rooms.rush_rules import PoolConfig, RushTiming
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server import cash, history_glue, pool
from pokerroom.server.faults import REPEATS_TO_SUSPEND
from pokerroom.server.front import LocalFront
from pokerroom.server.operations import ready_report
from pokerroom.server.room import RoomSettings
from pokerroom.store import StoreUnavailable, verify_ledger

from .harness import Harness

pytestmark = pytest.mark.allow_errors(
    "pokerroom.faults",
    reason="each test injects a bug: the actor logs each one, and the suspension, as errors",
)

TIMING = Timing(action=10.0, time_bank=5.0, between_hands=1.0, disconnect_grace=600, sit_out_limit=3600)
TABLE = TableConfig(
    table_id="t",
    name="Table",
    variant="holdem",
    betting=Betting.NO_LIMIT,
    stakes=Stakes.blinds(10, 20),
    seats=6,
    rake=RakeRule(500, 60),
    timing=TIMING,
)
POOL = PoolConfig(
    "r",
    "Rush",
    "holdem",
    Betting.NO_LIMIT,
    Stakes.blinds(10, 20),
    6,
    rake=RakeRule(500, 60),
    timing=RushTiming(action=10.0, reduced_action=5.0, time_bank=5.0, disconnect_grace=600),
)


class Bug:
    """Wraps ``target`` (a function the actor calls): raises while ``armed`` (``times`` calls, or for
    ever with ``None``), remembering the hand each failure was in."""

    def __init__(self, target: Any) -> None:
        self.target = target
        self.armed = False
        self.times: int | None = None
        self.hands: list[str] = []

    def arm(self, times: int | None) -> None:
        self.armed, self.times = True, times

    def __call__(self, record: Any, *args: Any, **kw: Any) -> Any:
        if self.armed and (self.times is None or self.times > 0):
            if self.times is not None:
                self.times -= 1
            self.hands.append(record.hand_id)
            raise RuntimeError("injected bug")
        return self.target(record, *args, **kw)


@pytest.fixture
def cash_bug(monkeypatch: pytest.MonkeyPatch) -> Iterator[Bug]:
    bug = Bug(history_glue.histories_of)
    monkeypatch.setattr(cash, "histories_of", bug)
    yield bug


@pytest.fixture
def pool_bug(monkeypatch: pytest.MonkeyPatch) -> Iterator[Bug]:
    bug = Bug(history_glue.histories_of)
    monkeypatch.setattr(pool, "histories_of", bug)
    yield bug


async def _voided(h: Harness, hand_id: str) -> None:
    record = await h.store.journal.hand(hand_id)
    assert record.status == "cancelled", (hand_id, record.status)
    assert record.result["mismatches"] == [], record.result


async def _stopped_and_resumed(h: Harness, actor: Any, gid: str, bug: Bug) -> None:
    """The same bug every hand: suspended after three, shown by readiness and the lobby, refused to
    newcomers; resumed by the operator once the bug is gone, it deals on."""
    bug.arm(None)
    await h.run(lambda: actor.suspended is not None, seconds=3600)
    assert actor.errors_in_a_row == REPEATS_TO_SUSPEND
    assert "RuntimeError" in actor.suspended
    assert actor.state == "suspended"
    stopped = h.room.stopped()
    assert any(gid in line and "suspended" in line for line in stopped), stopped
    report = await ready_report(LocalFront(h.room))
    assert not report["ready"] and any(gid in r for r in report["reasons"]), report
    assert actor.summary()["state"] == "suspended"
    played = actor.hands_played
    await h.quiet()
    assert not actor.live_hands()  # the voided hands are gone and no new one starts
    bug.armed = False
    assert await h.room.resume_actor(gid)
    assert actor.suspended is None and actor.state == "playing"
    await h.run(lambda: actor.hands_played >= played + 2, seconds=3600)
    assert (await ready_report(LocalFront(h.room)))["ready"]


@pytest.mark.asyncio
async def test_a_bug_in_a_cash_hands_settlement_voids_it_and_the_table_deals_on(
    tmp_path: Path, cash_bug: Bug
) -> None:
    h = await Harness.open(tmp_path, RoomSettings(tables=(TABLE,)), seed=2)
    try:
        actor = h.room.tables["t"]
        for i in range(3):
            await h.cash_bot(f"bot{i}", "t", "caller", seed=i)
        await h.run(lambda: actor.hands_played >= 2, seconds=3600)
        cash_bug.arm(1)
        await h.run(lambda: actor.errors == 1, seconds=3600)
        played = actor.hands_played
        await h.run(lambda: actor.hands_played >= played + 2, seconds=3600)
        assert actor.suspended is None and actor.errors_in_a_row == 0
        await _voided(h, cash_bug.hands[0])
        errors = h.room.metrics.actor_errors.labels("cash")._value.get()
        assert errors == 1
        await _stopped_and_resumed(h, actor, "t", cash_bug)
        for hand in cash_bug.hands:
            await _voided(h, hand)
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_suspended_table_refuses_a_new_player(tmp_path: Path, cash_bug: Bug) -> None:
    h = await Harness.open(tmp_path, RoomSettings(tables=(TABLE,)), seed=2)
    try:
        actor = h.room.tables["t"]
        for i in range(2):
            await h.cash_bot(f"bot{i}", "t", "caller", seed=i)
        cash_bug.arm(None)
        await h.run(lambda: actor.suspended is not None, seconds=3600)
        me = await h.player("late")
        client = h.connect("late", me)
        await h.send(client, {"type": "subscribe", "table": "t"})
        await h.send(client, {"type": "sit", "table": "t", "seat": 5, "buy_in": 1_000, "ref": "s"})
        await h.quiet()
        errors = client.of("error", ref="s")
        assert errors and errors[0]["code"] == "table_suspended", client.frames[-3:]
        assert actor.table.seat_of(str(me.id)) is None
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_bug_in_a_rush_hands_settlement_voids_the_pools_hands_and_it_deals_on(
    tmp_path: Path, pool_bug: Bug
) -> None:
    settings = RoomSettings(pools=(POOL,), points=PointsPolicy(tz=UTC))
    h = await Harness.open(tmp_path, settings, seed=4)
    try:
        actor = h.room.pools["r"]
        for i in range(12):
            await h.pool_bot(f"bot{i}", "r", ("random", "caller")[i % 2], seed=i)
        await h.run(lambda: actor.hands_played >= 4, seconds=3600)
        pool_bug.arm(1)
        await h.run(lambda: actor.errors == 1, seconds=3600)
        played = actor.hands_played
        await h.run(lambda: actor.hands_played >= played + 4, seconds=3600)
        assert actor.suspended is None
        await _voided(h, pool_bug.hands[0])
        await h.quiet()
        # every seat session open in the ledger is an entry's in the pool: none was lost by the void
        assert set(actor.sessions) == set(actor.pool.entries)
        open_sessions = await h.store.ledger.sessions(table_id="r", open_only=True)
        assert {x.id for x in open_sessions} == set(actor.sessions.values())
        await _stopped_and_resumed(h, actor, "r", pool_bug)
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


def _sng(players: int) -> TournamentConfig:
    return TournamentConfig(
        "sng",
        "SNG",
        kind="sng",
        variant="holdem",
        betting=Betting.NO_LIMIT,
        buy_in=100,
        fee=10,
        starting_stack=1_500,
        table_size=players,
        max_players=players,
        level_minutes=10.0,
        timing=TIMING,
    )


@pytest.mark.asyncio
async def test_a_bug_during_a_tournament_hand_voids_it_and_the_tournament_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(_sng(4),)), seed=5)
    try:
        (tid,) = list(h.room.tournaments)
        actor = h.room.tournaments[tid]
        for i in range(4):
            await h.tournament_bot(f"player{i}", tid, "caller", seed=i)
        await h.run(lambda: actor.hands_played >= 2, seconds=7200)
        table = next(iter(actor.director.tables.values()))
        voided: list[tuple[str, dict[str, int]]] = []
        original = actor.do_item
        failures = {"left": 1}

        async def do_item(item: object, step: Any) -> None:
            from pokerroom.rooms import TurnClock

            if isinstance(item, TurnClock) and failures["left"] and table.in_hand:
                failures["left"] -= 1
                assert table.hand is not None
                voided.append((table.hand.hand_id, dict(table._starting)))
                raise RuntimeError("injected bug")
            await original(item, step)

        monkeypatch.setattr(actor, "do_item", do_item)
        await h.run(lambda: actor.errors == 1, seconds=7200)
        hand_id, starting = voided[0]
        # the hand is void: every player has the chips he had when it started, and nothing is lost
        for p in table.seats.values():
            assert p.stack == starting.get(p.player, p.stack)
        assert sum(e.stack for e in actor.director.entrants.values()) == 4 * 1_500
        played = actor.hands_played
        await h.run(lambda: actor.hands_played >= played + 2, seconds=7200)
        assert actor.suspended is None
        assert hand_id not in {t.hand.hand_id for t in actor.director.tables.values() if t.hand is not None}
        failures["left"] = 10**6  # the same bug every hand now
        await h.run(lambda: actor.suspended is not None, seconds=7200)
        assert actor.summary()["state"] == "suspended"
        report = await ready_report(LocalFront(h.room))
        assert not report["ready"] and any(tid in r for r in report["reasons"]), report
        failures["left"] = 0
        played = actor.hands_played
        assert await h.room.resume_actor(tid)
        await h.run(lambda: actor.hands_played >= played + 2, seconds=7200)
        assert sum(e.stack for e in actor.director.entrants.values()) == 4 * 1_500
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


async def _suspended_by_storing(h: Harness, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, dict[str, bool]]:
    """A sit-and-go of three bots, one hand played, then storing its steps fails by a bug (while
    ``broken["on"]``): it is suspended with the step kept."""
    (tid,) = list(h.room.tournaments)
    actor = h.room.tournaments[tid]
    for i in range(3):
        await h.tournament_bot(f"player{i}", tid, "caller", seed=i)
    await h.run(lambda: actor.hands_played >= 1, seconds=7200)
    original = actor.bank.store_changes
    broken = {"on": True}

    async def store_changes(changes: Any) -> None:
        if broken["on"]:
            raise RuntimeError("injected bug")
        await original(changes)

    monkeypatch.setattr(actor.bank, "store_changes", store_changes)
    await h.run(lambda: actor.suspended is not None, seconds=7200)
    return actor, broken


@pytest.mark.asyncio
async def test_a_tournament_step_that_cannot_be_stored_suspends_it_and_is_stored_on_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(_sng(3),)), seed=6)
    try:
        actor, broken = await _suspended_by_storing(h, monkeypatch)
        tid = actor.tid
        assert actor.errors == 1 and actor.suspended is not None and "stored" in actor.suspended
        played = actor.hands_played
        await h.quiet()
        assert actor.hands_played == played  # it waits for the operator
        broken["on"] = False
        assert await h.room.resume_actor(tid)
        await h.run(lambda: actor.finished_at is not None, seconds=50_000)
        assert sum(actor.prizes.values()) == actor.director.pool
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_kept_step_is_stored_when_the_store_comes_back_after_the_operators_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The operator resumes a tournament suspended with a step it could not store while the store is
    away: the step is stored when the store answers again, before the tournament plays on."""
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(_sng(3),)), seed=6)
    try:
        actor, broken = await _suspended_by_storing(h, monkeypatch)
        tid = actor.tid
        away = {"on": True}
        real_ping = actor.services_ping

        async def ping() -> None:
            if away["on"]:
                raise StoreUnavailable("the store is away")
            await real_ping()

        monkeypatch.setattr(actor, "services_ping", ping)

        async def lose_the_store() -> None:
            actor._pause_at([], 0, StoreUnavailable("the store is away"))

        await actor.call(lose_the_store)
        broken["on"] = False
        assert await h.room.resume_actor(tid)
        assert actor._unstored is not None  # (kept: the store is still away)
        away["on"] = False
        await h.run(lambda: actor.finished_at is not None, seconds=50_000, limit=600)
        assert actor._unstored is None
        assert sum(actor.prizes.values()) == actor.director.pool
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()
