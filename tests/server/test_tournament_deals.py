"""Deals at the final table in the room (issue 35; RULES.md §11.3, R256-R258): proposed and answered
through the room's front (what ``POST /api/tournaments/{id}/deal`` and ``.../deal/answer`` call), the
tournament pauses at the end of the hand, every entrant follows it with ``tournament_deal`` frames, a
unanimous deal is paid through the ledger (exactly the pool, a ``tourney_deal`` transaction with its memo
per player), recorded in the standings and the audit log; a refusal resumes play.

On the server's harness (tests/server/harness.py): a manual clock, bots as clients."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text

from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.errors import Refused
from pokerroom.server.room import RoomSettings
from pokerroom.server.schedule import tournament_from_dict
from pokerroom.server.tournament import TournamentActor
from pokerroom.store import PLAY, AccountKind, verify_ledger

from .harness import Client, Harness

CLOCK = Timing(action=1.0, time_bank=0.5, between_hands=0.5, disconnect_grace=2)


async def three_bots(h: Harness, **kw: object) -> tuple[TournamentActor, list[Client]]:
    actor = next(a for a in h.room.tournaments.values() if a.series == "trio")
    bots = [await h.tournament_bot(f"tbot{i + 1}", actor.tid, "caller", seed=i) for i in range(3)]
    await h.run(lambda: actor.hands_played >= 1, seconds=60)
    return actor, bots


def settings(**kw: object) -> RoomSettings:
    cfg = TournamentConfig(
        "trio", "Trio", kind="sng", max_players=3, buy_in=1000, fee=100, level_minutes=30, timing=CLOCK,
        **kw,  # type: ignore[arg-type]
    )  # fmt: skip
    return RoomSettings(tournaments=(cfg,))


@pytest.mark.asyncio
async def test_a_unanimous_deal_is_paid_through_the_ledger_and_recorded(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, settings(), seed=3)
    try:
        actor, bots = await three_bots(h)
        d = actor.director
        players = {e.name: p for p, e in d.entrants.items()}
        await h.front.tournament_request(actor.tid, "deal_icm", players["tbot2"], "tbot2", False)
        await h.run(lambda: d.deal is not None and d.deal.deadline is not None, seconds=60)
        ledger = h.store.ledger
        before = {p: await ledger.balance(int(p), PLAY) for p in players.values()}
        for name, p in players.items():
            await h.front.tournament_request(actor.tid, "deal_answer", p, name, True)
        await h.run(lambda: actor.finished_at is not None, seconds=60)
        assert d.status == "finished" and d.deals_made == 1
        paid = {p: await ledger.balance(int(p), PLAY) - before[p] for p in players.values()}
        assert sum(paid.values()) == d.pool == 3000
        pool = await ledger.account(AccountKind.PRIZE_POOL, PLAY, ref=actor.tid)
        assert (await ledger.get_account(pool)).balance == 0 and (await verify_ledger(h.store.db)).ok
        async with h.store.db.read() as conn:
            rows = (
                await conn.execute(text("SELECT memo FROM ledger_transactions WHERE kind = 'tourney_deal'"))
            ).all()
        memos = [json.loads(m) for (m,) in rows]
        assert {m["player"] for m in memos} == {p for p, v in paid.items() if v}
        assert all(m["deal"] == "icm" and m["tournament"] == actor.tid for m in memos)
        assert {r["player"]: r["deal"] for r in d.standings()} == paid
        frames = bots[0].of("tournament_deal")
        # every acceptance but the last (which makes the deal) is told to all, by name
        assert [f["state"] for f in frames] == ["proposed", "offered", "accepted", "accepted", "closed"]
        assert [f["player"] for f in frames[2:4]] == list(players)[:2]
        figures = frames[1]["figures"]  # both methods, to compare
        assert figures["icm"] == frames[1]["amounts"] and sum(figures["chip_chop"]) == 3000
        assert 0 < frames[1]["expires_in"] <= 60
        assert frames[1]["amounts"] and sum(frames[1]["amounts"]) == 3000 and frames[4]["made"] is True
        [entry] = await h.store.audit.entries(action="tournament.deal")
        assert entry.target == actor.tid and sum(entry.after["amounts"]) == 3000
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_refused_deal_resumes_play_and_deals_can_be_off(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, settings(), seed=4)
    try:
        actor, bots = await three_bots(h)
        d = actor.director
        players = {e.name: p for p, e in d.entrants.items()}
        await h.front.tournament_request(actor.tid, "deal_chip_chop", players["tbot1"], "tbot1", False)
        await h.run(lambda: d.deal is not None and d.deal.deadline is not None, seconds=60)
        with pytest.raises(Refused):  # one at a time
            await h.front.tournament_request(actor.tid, "deal_icm", players["tbot3"], "tbot3", False)
        hands = actor.hands_played
        await h.front.tournament_request(actor.tid, "deal_answer", players["tbot3"], "tbot3", False)
        await h.run(lambda: actor.hands_played > hands, seconds=60)  # play resumed
        assert d.deal is None and d.status == "running" and d.deals_made == 0
        closed = bots[0].of("tournament_deal", state="closed")
        assert closed == [
            {
                "type": "tournament_deal",
                "tournament": actor.tid,
                "state": "closed",
                "made": False,
                "reason": "refused",
                "player": "tbot3",
            }
        ]
    finally:
        await h.close()
    h = await Harness.open(tmp_path / "off", settings(deals=False), seed=4)
    try:
        actor, _ = await three_bots(h)
        p = next(iter(actor.director.entrants))
        with pytest.raises(Refused) as refused:
            await h.front.tournament_request(actor.tid, "deal_icm", p, "x", False)
        assert refused.value.code == "deal_refused"
    finally:
        await h.close()


def test_the_operator_sets_deals_per_tournament_in_its_configuration() -> None:
    """The fields of a ``[[tournament]]`` (the schedule file, the console's form)."""
    base = {"id": "t", "kind": "sng", "max_players": 6, "buy_in": 100}
    assert tournament_from_dict(base).deals
    cfg = tournament_from_dict({**base, "deals": False, "deal_seconds": 30, "deal_keep": 50})
    assert (cfg.deals, cfg.deal_seconds, cfg.deal_keep) == (False, 30, 50)
