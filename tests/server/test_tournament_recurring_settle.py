"""A console series edited or removed: how its occurrences open and not started are settled (issue 35;
docs/tournaments.md "Recurring tournaments", docs/console.md), the review's findings on the first version:

- a satellite seat is a seat in that very occurrence (docs/tournaments.md, "Satellite tickets whose
  target is gone"): an occurrence a satellite still plays for, or whose ticket a winner holds unused,
  is kept as announced like one with registrations, never withdrawn with its tickets stranded;
- an occurrence an earlier edit kept is the console's tournament: a second edit leaves it as it is (its
  start, its stored fields), and the fields kept are its live configuration's;
- the change is stored before any occurrence is touched: a store that fails leaves the series and every
  occurrence as they were, and nothing is audited;
- on a cluster (each host holding some occurrences) edit and removal are refused
  (``409 recurring_on_cluster``, docs/cluster.md);
- those following a withdrawn occurrence's page get ``tournament_status`` ``cancelled``; its stored
  row is stored as cancelled once the series is removed, and a restart opens nothing of it again.

On the server's harness (tests/server/harness.py): a manual clock starting at 12:00 UTC, bots as
clients, ``restart``."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.commands import (
    AddRecurring,
    CancelTournament,
    CommandRefused,
    EditRecurring,
    RemoveRecurring,
)
from pokerroom.server.room import RoomSettings
from pokerroom.server.tournament import TournamentActor
from pokerroom.store import StoreError, verify_ledger

from .harness import EPOCH, Harness

NIGHTLY: dict[str, Any] = {
    "kind": "mtt",
    "buy_in": 100,
    "fee": 10,
    "currency": "PLAY",
    "repeat": "daily",
    "timezone": "UTC",
    "id": "nightly",
    "name": "Nightly",
    "at": "20:00",
}
TODAY, TOMORROW = (
    "nightly-" + EPOCH.date().isoformat(),
    "nightly-" + (EPOCH + timedelta(days=1)).date().isoformat(),
)
OPEN = ("announced", "registering")  # (open for registration: the director's and the store's words)
CLOCK = Timing(action=1.0, time_bank=0.5, between_hands=0.5, disconnect_grace=2)


def satellite() -> TournamentConfig:
    """Two players, a seat worth tomorrow's buy-in and fee (110 of its 200 pool)."""
    return TournamentConfig(
        "sat", "Satellite", kind="sng", max_players=2, buy_in=100, seat_value=110, target=TOMORROW,
        level_minutes=0.03, timing=CLOCK,
    )  # fmt: skip


def open_copy(h: Harness) -> TournamentActor:
    return next(
        a
        for a in h.room.tournaments.values()
        if a.series == "sat" and a.director.status in ("announced", "registering")
    )


def start_of(h: Harness, tid: str) -> str:
    cfg = h.room.tournaments[tid].director.config
    assert cfg.start_time is not None
    return cfg.start_time.strftime("%d %H:%M")


@pytest.mark.asyncio
async def test_an_occurrence_a_satellite_plays_for_is_kept_and_a_second_edit_leaves_it(
    tmp_path: Path,
) -> None:
    """A satellite for tomorrow's occurrence is registering (nobody in it yet, nobody registered for
    tomorrow): an edit to 21:00 keeps tomorrow at 20:00 (its seats are still to be won) and withdraws
    today's. A second edit (22:00, another name) leaves the kept one as it is, stored fields too: it is
    not the series' any more. A restart keeps it so."""
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(satellite(),)), seed=3)
    try:
        await h.front.command(AddRecurring(dict(NIGHTLY)))
        assert {TODAY, TOMORROW} <= set(h.room.tournaments)
        assert open_copy(h).director.config.target == TOMORROW
        out = await h.front.command(EditRecurring("nightly", {**NIGHTLY, "at": "21:00"}))
        assert (out.answer["kept"], out.answer["withdrawn"]) == ([TOMORROW], [TODAY])
        assert start_of(h, TOMORROW) == "02 20:00" and start_of(h, TODAY) == "01 21:00"
        stored = await h.store.games.get(TOMORROW)
        assert stored is not None and stored.spec["start"].startswith("2026-12-02T20:00")
        first = dict(stored.spec)
        assert first["name"] == "Nightly" and first["buy_in"] == 100 and first["fee"] == 10
        out = await h.front.command(EditRecurring("nightly", {**NIGHTLY, "at": "22:00", "name": "Late"}))
        assert TOMORROW not in out.answer["kept"] + out.answer["withdrawn"]  # (the console's now)
        assert out.answer["withdrawn"] == [TODAY]
        assert start_of(h, TOMORROW) == "02 20:00" and start_of(h, TODAY) == "01 22:00"
        assert h.room.tournaments[TOMORROW].director.config.name == "Nightly"
        again = await h.store.games.get(TOMORROW)
        assert again is not None and again.spec == first  # not rebuilt from the newer series
        await h.restart(RoomSettings(tournaments=(satellite(),)))
        assert start_of(h, TOMORROW) == "02 20:00" and start_of(h, TODAY) == "01 22:00"
        assert h.room.tournaments[TOMORROW].director.config.name == "Nightly"
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_second_edit_leaves_an_occurrence_kept_by_the_first(tmp_path: Path) -> None:
    """Alice registers for today's. The first edit (21:00, "Nightly II") keeps hers as announced, stored
    with the fields it was announced with; the second (22:00, "Late") leaves it alone: before the fix it
    was "kept" again and stored with the first edit's fields, so a restart named it "Nightly II"."""
    h = await Harness.open(tmp_path, RoomSettings(), seed=8)
    try:
        await h.front.command(AddRecurring(dict(NIGHTLY)))
        alice = await h.player("alice")
        await h.front.tournament_request(TODAY, "register", str(alice.id), "alice", False)
        out = await h.front.command(
            EditRecurring("nightly", {**NIGHTLY, "at": "21:00", "name": "Nightly II"})
        )
        assert out.answer["kept"] == [TODAY]
        first = await h.store.games.get(TODAY)
        assert first is not None and first.spec["name"] == "Nightly"
        out = await h.front.command(EditRecurring("nightly", {**NIGHTLY, "at": "22:00", "name": "Late"}))
        assert TODAY not in out.answer["kept"] + out.answer["withdrawn"]
        again = await h.store.games.get(TODAY)
        assert again is not None and again.spec == first.spec
        await h.restart(RoomSettings())
        cfg = h.room.tournaments[TODAY].director.config
        assert (cfg.name, start_of(h, TODAY)) == ("Nightly", "01 20:00")
        assert [e.name for e in h.room.tournaments[TODAY].director.entrants.values()] == ["alice"]
        assert (h.room.tournaments[TOMORROW].director.config.name, start_of(h, TOMORROW)) == (
            "Late",
            "02 22:00",
        )
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_an_occurrence_whose_ticket_is_held_is_kept_when_the_series_is_removed(tmp_path: Path) -> None:
    """The satellite is played: its winner is registered for tomorrow with his ticket and unregisters
    (the ticket comes back, unused); the satellite's next copy is cancelled, so only the ticket holds a
    seat. Removing the series keeps tomorrow as announced (before the fix it was withdrawn and the
    ticket stranded: no target left to use it or to cash it); the winner registers with it again."""
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(satellite(),)), seed=4)
    try:
        await h.front.command(AddRecurring(dict(NIGHTLY)))
        sat = open_copy(h)
        for i in range(2):
            await h.tournament_bot(f"tbot{i + 1}", sat.tid, "random", seed=i)
        await h.run(lambda: sat.finished_at is not None, seconds=20_000)
        [winner] = sorted(sat.tickets_won)
        target = h.room.tournaments[TOMORROW]
        await h.run(lambda: winner in target.director.entrants, seconds=15)
        await target.call(lambda: target.unregister(winner))
        assert not target.director.entrants
        assert [t.value for t in await h.store.tournaments.tickets(int(winner), target=TOMORROW)] == [110]
        await h.front.command(CancelTournament(open_copy(h).tid))  # (no satellite plays for it now)
        out = await h.front.command(RemoveRecurring("nightly"))
        assert out.answer["kept"] == [TOMORROW] and TODAY in out.answer["withdrawn"]
        assert h.room.tournaments[TOMORROW].director.status in OPEN
        name = sat.director.entrants[winner].name
        await h.front.tournament_request(TOMORROW, "register", winner, name, True)  # (his ticket)
        assert winner in target.director.entrants  # with the ticket he won
        assert not await h.store.tournaments.tickets(int(winner), target=TOMORROW)
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_store_that_fails_leaves_the_series_and_its_occurrences(tmp_path: Path) -> None:
    """``store.games.save`` fails: edit and removal raise, the series is still the console's as it was,
    both occurrences are still open for registration, and nothing is audited (before the fix both
    were withdrawn first). (No outcome: the console audits none.)"""
    h = await Harness.open(tmp_path, RoomSettings(), seed=5)
    try:
        await h.front.command(AddRecurring(dict(NIGHTLY)))
        store_save = h.store.games.save

        async def away(*args: Any, **kw: Any) -> None:
            raise StoreError("the store is away")

        h.store.games.save = away  # type: ignore[method-assign,assignment]
        try:
            for cmd in (EditRecurring("nightly", {**NIGHTLY, "at": "21:00"}), RemoveRecurring("nightly")):
                with pytest.raises((StoreError, CommandRefused)):
                    await h.front.command(cmd)
                for tid in (TODAY, TOMORROW):
                    assert h.room.tournaments[tid].director.status in OPEN, (cmd, tid)
                assert start_of(h, TODAY) == "01 20:00"
                assert h.room.console.series["nightly"][0].at.hour == 20
        finally:
            h.store.games.save = store_save  # type: ignore[method-assign]
        stored = await h.store.games.get("nightly")
        assert stored is not None and stored.spec == NIGHTLY and stored.state == "open"
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_cluster_host_refuses_to_edit_or_remove_a_series(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, RoomSettings(), seed=6)
    try:
        await h.front.command(AddRecurring(dict(NIGHTLY)))
        h.room.hosted = True  # (as a cluster's host: server/cluster/host.py)
        for cmd in (EditRecurring("nightly", {**NIGHTLY, "at": "21:00"}), RemoveRecurring("nightly")):
            with pytest.raises(CommandRefused) as refused:
                await h.front.command(cmd)
            assert (refused.value.status, refused.value.code) == (409, "recurring_on_cluster")
        h.room.hosted = False
        assert {TODAY, TOMORROW} <= set(h.room.tournaments) and start_of(h, TODAY) == "01 20:00"
        stored = await h.store.games.get("nightly")
        assert stored is not None and stored.spec == NIGHTLY and stored.state == "open"
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_withdrawn_occurrence_tells_its_followers_and_stays_gone(tmp_path: Path) -> None:
    """Bob follows tomorrow's page; Alice registered for it and left (its row is stored). Removing the
    series withdraws it: Bob gets ``tournament_status`` ``cancelled``, its row is stored as cancelled,
    and after a restart nothing of the series is open."""
    h = await Harness.open(tmp_path, RoomSettings(), seed=7)
    try:
        await h.front.command(AddRecurring(dict(NIGHTLY)))
        alice = await h.player("alice")
        await h.front.tournament_request(TOMORROW, "register", str(alice.id), "alice", False)
        target = h.room.tournaments[TOMORROW]
        await target.call(lambda: target.unregister(str(alice.id)))
        await h.quiet()
        assert (await h.store.tournaments.statuses([TOMORROW])).get(TOMORROW) == "registering"
        bob = await h.login("bob")
        answer = await h.ask(bob, {"type": "tournament_follow", "tournament": TOMORROW, "follow": True})
        assert answer["type"] == "ack", answer
        out = await h.front.command(RemoveRecurring("nightly"))
        assert TOMORROW in out.answer["withdrawn"] and out.answer["kept"] == []
        await h.run(lambda: bool(bob.of("tournament_status", tournament=TOMORROW)), seconds=5)
        assert [f["status"] for f in bob.of("tournament_status", tournament=TOMORROW)] == ["cancelled"]
        assert (await h.store.tournaments.statuses([TOMORROW])).get(TOMORROW) == "cancelled"
        await h.restart(RoomSettings())
        assert not [t for t in h.room.tournaments if t.startswith("nightly-")]
        assert (await h.store.tournaments.statuses([TOMORROW])).get(TOMORROW) == "cancelled"
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()
