"""Deals at the final table across a restart (issue 35; RULES.md §11.3, R256-R258; docs/tournaments.md,
"Deals at the final table"):

- the operator's switch (``SetTournamentDeals``, what ``POST /api/console/tournaments/{id}/deals`` sends)
  is stored: a room that restarts opens the tournament again with deals allowed or forbidden as the
  operator left them, whatever its configuration says, with or without registrations;
- what a deal paid each player is stored with his entry: after a restart the archived page of the
  tournament (``GET /api/tournaments/{id}``: the standings' ``deal``) shows each amount, equal to the
  ``tourney_deal`` ledger transactions, for a deal that ended the tournament and for one that left part
  of the pool to play for (the running tournament is then settled by the restart rule).

On the server's harness (tests/server/harness.py): a manual clock, bots as clients, ``restart``."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.commands import SetTournamentDeals
from pokerroom.server.errors import Refused
from pokerroom.server.room import RoomSettings
from pokerroom.server.tournament import TournamentActor
from pokerroom.store import StoreError, verify_ledger
from pokerroom.store.tournaments import TournamentStore

from .harness import EPOCH, Harness

CLOCK = Timing(action=1.0, time_bank=0.5, between_hands=0.5, disconnect_grace=2)


def trio(**kw: object) -> TournamentConfig:
    return TournamentConfig(
        "trio", "Trio", kind="sng", max_players=3, buy_in=1000, fee=100, level_minutes=30, timing=CLOCK,
        **kw,  # type: ignore[arg-type]
    )  # fmt: skip


def scheduled(tid: str, deals: bool) -> TournamentConfig:
    start = EPOCH + timedelta(days=2)
    return TournamentConfig(tid, tid, kind="mtt", buy_in=100, fee=10, start_time=start, deals=deals)


async def ledger_deals(h: Harness, tid: str) -> dict[str, int]:
    """Each player's ``tourney_deal`` amounts in the ledger (the memo names him and the tournament)."""
    async with h.store.db.read() as conn:
        rows = (
            await conn.execute(
                text(
                    "SELECT t.memo, p.amount FROM ledger_transactions t JOIN ledger_postings p "
                    "ON p.tx_id = t.id WHERE t.kind = 'tourney_deal' AND p.amount > 0"
                )
            )
        ).all()
    out: dict[str, int] = {}
    for memo, amount in rows:
        m = json.loads(memo)
        if m["tournament"] == tid:
            out[m["player"]] = out.get(m["player"], 0) + int(amount)
    return out


@pytest.mark.asyncio
async def test_the_operators_deal_switch_survives_a_restart(tmp_path: Path) -> None:
    """Two tournaments not started: ``on`` (configured with deals, one registration) is switched off,
    ``off`` (configured without deals, nobody registered) is switched on; after a restart each keeps the
    operator's word, in the director and in the page's summary, and a third one nobody touched keeps its
    configuration's."""
    settings = RoomSettings(
        tournaments=(scheduled("on", True), scheduled("off", False), scheduled("plain", False))
    )
    h = await Harness.open(tmp_path, settings, seed=5)
    try:
        alice = await h.player("alice")
        await h.front.tournament_request("on", "register", str(alice.id), "alice", False)
        await h.front.command(SetTournamentDeals("on", False))
        await h.front.command(SetTournamentDeals("off", True))
        assert h.room.tournaments["on"].director.config.deals is False
        assert h.room.tournaments["off"].director.config.deals is True
        await h.restart(settings)
        rooms = h.room.tournaments

        def settled() -> bool:
            return not any(rooms[t]._switch_unread for t in ("on", "off", "plain"))

        await h.run(settled, seconds=5)
        assert [e.name for e in rooms["on"].director.entrants.values()] == ["alice"]  # taken back
        assert rooms["on"].director.config.deals is False
        assert rooms["off"].director.config.deals is True
        assert rooms["plain"].director.config.deals is False  # (its configuration's word)
        for tid, allowed in (("on", False), ("off", True), ("plain", False)):
            details = await h.front.tournament_details(tid)
            assert details["summary"]["deals"] is allowed and details["deal"]["allowed"] is allowed, tid
        # The switch is the operator's until he changes it again: once more, then another restart.
        await h.front.command(SetTournamentDeals("on", True))
        await h.restart(settings)
        await h.run(lambda: not h.room.tournaments["on"]._switch_unread, seconds=5)
        assert h.room.tournaments["on"].director.config.deals is True
    finally:
        await h.close()


async def deal_made(h: Harness) -> TournamentActor:
    """Three bots play the sit-and-go until an ICM deal proposed by the second is accepted by all."""
    actor = next(a for a in h.room.tournaments.values() if a.series == "trio")
    for i in range(3):
        await h.tournament_bot(f"tbot{i + 1}", actor.tid, "caller", seed=i)
    await h.run(lambda: actor.hands_played >= 1, seconds=60)
    d = actor.director
    players = {e.name: p for p, e in d.entrants.items()}
    await h.front.tournament_request(actor.tid, "deal_icm", players["tbot2"], "tbot2", False)
    await h.run(lambda: d.deal is not None and d.deal.deadline is not None, seconds=60)
    for name, p in players.items():  # (no hand starts while the deal waits: the field cannot change)
        await h.front.tournament_request(actor.tid, "deal_answer", p, name, True)
    assert d.deals_made == 1 and d.deal is None
    return actor


@pytest.mark.asyncio
@pytest.mark.parametrize("keep", [0, 400])
async def test_deal_amounts_are_shown_after_a_restart(tmp_path: Path, keep: int) -> None:
    """``keep`` 0: the deal ends the tournament (finished, every place given); 400: play goes on for the
    money kept and the room restarts at once (the running tournament is cancelled by the restart rule,
    its players still holding chips listed without a place). Either way the archived standings show
    each player's deal, equal to the ledger's and to the standings before the restart."""
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(trio(deal_keep=keep),)), seed=3)
    try:
        actor = await deal_made(h)
        tid = actor.tid
        before = {str(r["player"]): int(str(r["deal"])) for r in actor.director.standings()}
        assert sum(before.values()) == actor.director.pool - (actor.director.prizes[0] if keep else 0)
        assert {p: v for p, v in before.items() if v} == await ledger_deals(h, tid)
        await h.restart()
        assert tid in h.room.archive and tid not in h.room.tournaments
        details = await h.front.tournament_details(tid)
        assert details["archived"] is True
        after = {r["player"]: r["deal"] for r in details["standings"]}
        assert after == before  # every player listed, each with what the deal paid him
        assert details["summary"]["status"] == ("finished" if not keep else "cancelled")
        if not keep:
            assert sorted(r["place"] for r in details["standings"]) == [1, 2, 3]
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_no_deal_is_proposed_while_the_operators_switch_is_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store cannot give the stored switch when the sit-and-go opens (the operator may have forbidden
    deals there): a proposal is refused with ``deal_refused`` and nothing is proposed, the configuration
    allowing deals or not. Once the switch is read (the store is back) the same proposal is made.
    Before the fix the configuration's word held meanwhile and the deal was proposed."""
    real = TournamentStore.deal_switches

    async def away(self: TournamentStore, ids: Iterable[str]) -> dict[str, bool]:
        if any(tid.startswith("trio") for tid in ids):  # (the sit-and-go's own read)
            raise StoreError("the store is away")
        return await real(self, ids)

    monkeypatch.setattr(TournamentStore, "deal_switches", away)
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(trio(),)), seed=3)
    try:
        actor = next(a for a in h.room.tournaments.values() if a.series == "trio")
        for i in range(3):
            await h.tournament_bot(f"tbot{i + 1}", actor.tid, "caller", seed=i)
        await h.run(lambda: actor.hands_played >= 1, seconds=60)
        d = actor.director
        players = {e.name: p for p, e in d.entrants.items()}
        assert actor._switch_unread and d.config.deals is True  # (the configuration allows them)
        with pytest.raises(Refused) as refused:
            await h.front.tournament_request(actor.tid, "deal_icm", players["tbot2"], "tbot2", False)
        assert refused.value.code == "deal_refused" and d.deal is None
        monkeypatch.setattr(TournamentStore, "deal_switches", real)
        await h.run(lambda: not actor._switch_unread, seconds=60)
        await h.front.tournament_request(actor.tid, "deal_icm", players["tbot2"], "tbot2", False)
        assert d.deal is not None and d.deal.proposer == players["tbot2"]
    finally:
        await h.close()
