"""Deals at the final table in the director (issue 35; RULES.md §11.3, R256-R258): the tournament pauses
at the end of the hand in progress, the amounts are offered, every player must accept within the time
limit; a unanimous deal pays exactly the pool (to the chip) and ends the tournament, or leaves the money
kept to be played for; a refusal or the time out resumes play (R258); the operator can turn deals off."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from pokerroom.engine import BetDecision, Call, Check
from pokerroom.rooms import TableError
from pokerroom.rooms.tournament import (
    Finished,
    TournamentConfig,
    TournamentDealPaid,
    TournamentDirector,
    TournamentPrize,
)
from pokerroom.rooms.tournament.deal import DealAccepted, DealClosed, DealOffered, DealProposed
from pokerroom.rooms.tournament.icm import deal_amounts

from .tourney_driver import Field, check_end, play

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def sng(**kw: object) -> TournamentDirector:
    cfg = TournamentConfig("s", "SNG", kind="sng", max_players=3, buy_in=1000, fee=100, **kw)  # type: ignore[arg-type]
    d = TournamentDirector(cfg, random.Random(4))
    for p in ("a", "b", "c"):
        d.register(p, p, T0)
    d.tick(T0)
    assert d.status == "running" and d.tables[1].in_hand
    return d


def finish_hand(d: TournamentDirector, now: datetime) -> list[object]:
    out: list[object] = []
    table = d.tables[1]
    while table.in_hand:
        assert table.hand is not None
        pending = table.hand.pending
        assert isinstance(pending, BetDecision)
        cmd = Check(pending.seat) if pending.check else Call(pending.seat)
        out += d.act(table.seats[pending.seat].player, cmd, now)
    return out


def offered(d: TournamentDirector, method: str = "icm") -> tuple[DealOffered, datetime]:
    now = T0 + timedelta(seconds=5)
    out = d.propose_deal("b", method, now)  # type: ignore[arg-type]
    assert out == [DealProposed("s", "b", method)]  # during the hand: nothing offered yet
    out = finish_hand(d, now)
    [offer] = [x for x in out if isinstance(x, DealOffered)]
    assert not d.tables[1].in_hand and d.table_states(now) == {1: "deal"}
    assert d.tick(now + timedelta(seconds=30)) == [] and not d.tables[1].in_hand  # paused
    return offer, now


@pytest.mark.parametrize("method", ["icm", "chip_chop"])
def test_a_unanimous_deal_pays_exactly_the_pool_and_ends_the_tournament(method: str) -> None:
    d = sng()
    offer, now = offered(d, method)
    stacks = [d.entrants[p].stack for p in offer.players]
    assert list(offer.stacks) == stacks == sorted(stacks, reverse=True)
    prizes = [*d.prizes, 0][:3]  # 3,000: 1,950 and 1,050, nothing for 3rd
    assert list(offer.amounts) == deal_amounts(stacks, prizes, method)  # type: ignore[arg-type]
    assert offer.deadline == now + timedelta(seconds=60)
    out: list[object] = []
    for p in offer.players:
        out += d.answer_deal(p, True, now + timedelta(seconds=10))
    paid = {x.player: x.amount for x in out if isinstance(x, TournamentDealPaid)}
    assert sum(paid.values()) == d.pool == 3000  # to the chip
    assert DealClosed("s", True, "accepted") in out and any(isinstance(x, Finished) for x in out)
    assert not [x for x in out if isinstance(x, TournamentPrize)]
    assert d.status == "finished"
    assert [d.entrants[p].place for p in offer.players] == [1, 2, 3]  # the standings: by stack
    assert {r["player"]: r["deal"] for r in d.standings()} == {p: paid.get(p, 0) for p in "abc"}


def test_a_refused_deal_resumes_play_with_the_next_hand() -> None:
    d = sng()
    offer, now = offered(d)
    d.answer_deal(offer.players[0], True, now)
    out = d.answer_deal(offer.players[1], False, now + timedelta(seconds=1))
    assert out == [DealClosed("s", False, "refused", offer.players[1])]
    d.tick(now + timedelta(seconds=2))
    assert d.tables[1].in_hand and d.deal is None and d.status == "running"


def test_r258_a_deal_accepted_by_two_of_three_within_the_time_is_not_made() -> None:
    d = sng()
    offer, now = offered(d)
    for p in offer.players[:2]:
        assert d.answer_deal(p, True, now + timedelta(seconds=30)) == [DealAccepted(d.tid, p)]
    assert d.next_deadline(now) == offer.deadline
    out = d.tick(offer.deadline)
    assert DealClosed("s", False, "timeout") in out
    assert not [x for x in out if isinstance(x, TournamentDealPaid)]
    assert d.tables[1].in_hand  # play resumes with the next hand
    with pytest.raises(TableError):
        d.answer_deal(offer.players[2], True, offer.deadline)  # too late: there is no deal


def test_a_deal_with_part_of_the_pool_left_to_play_for_finishes_correctly() -> None:
    """500 of the 3,000 kept to play for: 2,500 dealt now; play goes on and its winner takes the 500."""
    d = sng(deal_keep=500)
    offer, now = offered(d)
    assert offer.keep == 500 and sum(offer.amounts) == 2500
    out: list[object] = []
    for p in offer.players:
        out += d.answer_deal(p, True, now)
    assert d.status == "running" and d.prizes == [500]
    run = play(d, now, random.Random(2), Field(shove=0.9), out)
    check_end(run)  # deals + prizes = the pool exactly, every place given
    [prize] = [x for x in run.out if isinstance(x, TournamentPrize)]
    assert (prize.place, prize.amount) == (1, 500) and d.entrants[prize.player].place == 1


def test_the_operator_can_turn_deals_off_and_deals_are_for_the_final_table() -> None:
    d = sng(deals=False)
    with pytest.raises(TableError):
        d.propose_deal("a", "icm", T0)
    cfg = TournamentConfig("m", "MTT", buy_in=1000, start_time=T0, table_size=6)
    m = TournamentDirector(cfg, random.Random(1))
    for i in range(12):
        m.register(f"p{i}", f"p{i}", T0 - timedelta(minutes=1))
    m.tick(T0)
    assert len(m.tables) == 2
    with pytest.raises(TableError):
        m.propose_deal("p0", "icm", T0)
    d = sng()
    d.propose_deal("a", "icm", T0)
    with pytest.raises(TableError):
        d.propose_deal("c", "chip_chop", T0)  # one at a time


def test_the_page_shows_both_methods_figures_and_the_offer_with_who_accepted_r256_r257() -> None:
    """``deal_view`` (what ``GET /api/tournaments/{id}`` carries as ``deal``): before a proposal, the
    figures of both methods for the stacks now (R256, R257: ``deal_amounts``); once offered, the amounts,
    who accepted and the seconds left; a repeated acceptance is not told twice."""
    d = sng()
    now = T0 + timedelta(seconds=1)
    view = d.deal_view(now)
    assert view["allowed"] is True and view["blocked"] is None and "current" not in view
    preview = view["preview"]
    assert isinstance(preview, dict)
    stacks = [d.entrants[p].stack for p in sorted(d.entrants, key=lambda p: -d.entrants[p].stack)]
    prizes = [*d.prizes, 0][:3]
    assert preview["stacks"] == stacks and preview["keep"] == 0
    assert preview["icm"] == deal_amounts(stacks, prizes, "icm")
    assert preview["chip_chop"] == deal_amounts(stacks, prizes, "chip_chop")
    offer, now = offered(d, "chip_chop")
    first = offer.players[0]
    assert d.answer_deal(first, True, now) == [DealAccepted("s", first)]
    assert d.answer_deal(first, True, now) == []  # (once)
    current = d.deal_view(now + timedelta(seconds=15))["current"]
    assert current == {
        "state": "offered",
        "method": "chip_chop",
        "player": "b",
        "keep": 0,
        "players": list(offer.players),
        "stacks": list(offer.stacks),
        "amounts": list(offer.amounts),
        "accepted": [first],
        "expires_in": 45.0,
    }
    assert d.deal_view(now)["blocked"] == "proposed"


def test_the_operator_forbids_deals_and_a_pending_deal_ends() -> None:
    """The console's switch (``set_deals``): off, a deal proposed and not made ends (``void``) and play
    resumes; no deal may be proposed until deals are allowed again."""
    d = sng()
    _, now = offered(d)
    out = d.set_deals(False, now)
    assert out == [DealClosed("s", False, "void")] and d.deal is None and not d.config.deals
    assert d.deal_view(now)["blocked"] == "off" and "preview" not in d.deal_view(now)
    d.tick(now + timedelta(seconds=1))
    assert d.tables[1].in_hand  # play resumed
    with pytest.raises(TableError):
        d.propose_deal("a", "icm", now)
    assert d.set_deals(True, now) == [] and d.config.deals
    assert d.propose_deal("a", "icm", now)[0] == DealProposed("s", "a", "icm")
