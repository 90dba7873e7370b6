"""Bot fields that play a tournament director to the end on a fake clock, checking the director's
invariants after every step (issue 18): chips conserved, every table dealing or waiting for a stated
reason, places unique and final, and at the end prizes + tickets = the pool exactly, the overlay booked
once and only when the guarantee exceeds the contributions."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pokerroom.engine import BetDecision, Call, Check, Command, HandState, RaiseTo
from pokerroom.rooms import TableError
from pokerroom.rooms.tournament import (
    Finished,
    RushTournamentDirector,
    TournamentBounty,
    TournamentBuyIn,
    TournamentDealPaid,
    TournamentDirector,
    TournamentOverlay,
    TournamentPrize,
    TournamentTicket,
)
from pokerroom.rooms.tournament.payouts import prize_pool

from ..engine.helpers import random_command


def bot_command(hand: HandState, rng: random.Random, shove: float) -> Command:
    """All in (or call it) with probability ``shove``, else a random legal command."""
    p = hand.pending
    if isinstance(p, BetDecision) and rng.random() < shove:
        if p.raise_kind and p.allows(p.max_to, hand.structure.stakes.chip_unit):
            return RaiseTo(p.seat, p.max_to)
        if p.call:
            return Call(p.seat)
        if p.check:
            return Check(p.seat)
    return random_command(hand, rng)


@dataclass
class Field:
    """How the bots behave: how often they shove, rebuy, take the add-on, and how many enter late."""

    shove: float = 0.7
    rebuy: float = 0.5
    add_on: float = 0.5
    late: int = 0
    deal: float = 0.0  # per step at the final table: a player proposes a deal (issue 35)
    deal_yes: float = 0.9  # each player's chance to accept it (else he refuses, or lets it time out)
    reenter: float = 0.0  # per step: a busted player who may re-enter does (R261, issue 35)
    step: float = 3.0  # seconds of fake clock per step
    max_steps: int = 200_000


@dataclass
class Run:
    director: TournamentDirector
    out: list[object] = field(default_factory=list)
    steps: int = 0
    places: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def check_step(run: Run, now: datetime) -> None:
    d = run.director
    entries = sum(e.entries for e in d.entrants.values())
    if d.status == "running":
        chips = sum(e.stack for e in d.entrants.values())
        assert chips == d.config.starting_stack * entries, "chips are conserved"
        states = d.table_states(now)
        assert "stalled" not in states.values(), f"a table waits for nothing: {states}"
    for key, e in d.entrants.items():  # (a re-entered player's busted entry: its own key, R261)
        if e.place is None:
            continue
        before = run.places.setdefault(f"{e.player}/{e.entry}", e.place)
        if before != e.place and not d.config.is_satellite:
            raise AssertionError(f"{key}'s place changed from {before} to {e.place}")
        assert key == e.player or not e.out or e.place is not None or not d._field_closed
    shared = Counter(e.place for e in d.entrants.values() if e.place is not None)
    for place, n in shared.items():
        if n > 1:  # a tie: out in the same hand (or the satellite's seat winners, all first)
            rounds = {e.busted_at for e in d.entrants.values() if e.place == place}
            assert len(rounds) == 1, f"place {place} given {n} times in different rounds"


def act_all(run: Run, now: datetime, rng: random.Random, f: Field) -> None:
    d = run.director
    rush = getattr(d, "rush", None)
    if isinstance(d, RushTournamentDirector) and rush is not None:
        for t in list(rush.tables.values()):
            while d.rush is not None and t.table_id in d.rush.tables and t.hand.waiting_for():
                cmd = bot_command(t.hand, rng, f.shove)
                run.out += d.act(t.names[cmd.seat][0], cmd, now)
                check_step(run, now)
        return
    for t in list(d.tables.values()):
        while t.in_hand and t.number in d.tables and d.status == "running":
            assert t.hand is not None
            cmd = bot_command(t.hand, rng, f.shove)
            run.out += d.act(t.seats[cmd.seat].player, cmd, now)
            check_step(run, now)


def buy_more(run: Run, now: datetime, rng: random.Random, f: Field) -> None:
    d = run.director
    cfg = d.config
    for e in list(d.remaining):
        t = d.table_of(e.player)
        if t is not None and t.in_hand:
            continue
        if d.in_rebuy_period(now) and e.stack <= cfg.starting_stack and rng.random() < f.rebuy:
            run.out += d.rebuy(e.player, now)
        elif cfg.add_on and not e.add_on and d.rebuy_period_over_soon(now) and rng.random() < f.add_on:
            run.out += d.rebuy(e.player, now, add_on=True)


def reenter_some(run: Run, now: datetime, rng: random.Random, f: Field) -> None:
    """Busted players register again as new entries while they may (RULES.md §11.3, R261)."""
    d = run.director
    if not f.reenter or d.config.max_entries < 2 or d.status != "running":
        return
    for key, e in list(d.entrants.items()):
        if key == e.player and d.can_reenter(e.player, now) and rng.random() < f.reenter:
            run.out += d.register(e.player, e.name, now)
            assert d.entrants[e.player].entry == e.entry + 1 and d.entrants[e.player].stack > 0
            check_step(run, now)


def deal_some(run: Run, now: datetime, rng: random.Random, f: Field) -> None:
    """Deals at the final table (RULES.md §11.3): proposed at random, answered at random (accepted,
    refused, or left to time out)."""
    d = run.director
    if not f.deal or d.status != "running":
        return
    if d.deal is None and rng.random() < f.deal and d.remaining:
        proposer = rng.choice(d.remaining).player
        try:
            run.out += d.propose_deal(proposer, rng.choice(["icm", "chip_chop"]), now)
        except TableError:
            return
        check_step(run, now)
    deal = d.deal
    if deal is not None and deal.deadline is not None and rng.random() < 0.7:
        for player in deal.players:
            if d.deal is None:
                break
            if player not in deal.accepted and rng.random() < 0.8:
                run.out += d.answer_deal(player, rng.random() < f.deal_yes, now)
                check_step(run, now)


def play(
    d: TournamentDirector, start: datetime, rng: random.Random, f: Field, before: list[object] | None = None
) -> Run:
    """Tick, act, rebuy and register late until the tournament is over (or ``f.max_steps``); ``before``:
    what the registrations returned (a sit-and-go starts with its last one)."""
    run = Run(d, list(before or []))
    now = start
    late = 0
    run.out += d.tick(now)
    check_step(run, now)
    while d.status == "running" and run.steps < f.max_steps:
        run.steps += 1
        now += timedelta(seconds=f.step)
        if late < f.late and d.registration_open(now) and rng.random() < 0.8:
            late += 1
            run.out += d.register(f"late{late}", f"late{late}", now)
        buy_more(run, now, rng, f)
        reenter_some(run, now, rng, f)
        deal_some(run, now, rng, f)
        ticked = d.tick(now)
        run.out += ticked
        check_step(run, now)
        if d.status == "running":  # right after a tick every table whose hand is due has dealt
            assert "ready" not in d.table_states(now).values()
        rush = getattr(d, "rush", None)
        if (
            not ticked
            and d.status == "running"
            and rush is None
            and not any(t.in_hand for t in d.tables.values())
        ):
            assert d.next_deadline(now) is not None, "a tick changed nothing and nothing is due: a hang"
        act_all(run, now, rng, f)
    return run


def check_end(run: Run) -> None:
    """Over, with every place given once, and exactly the pool handed out (the overlay booked once)."""
    d = run.director
    cfg = d.config
    assert d.status == "finished", f"not over after {run.steps} steps: {d.table_states(datetime.max)}"
    assert sum(isinstance(x, Finished) for x in run.out) == 1
    assert all(e.place is not None for e in d.entrants.values())
    # places form a ranking: k players tied at place p, the next place is p + k (issue 35: a satellite
    # tie across the last seat once left its drawn non-winners on the group's best place, nobody last)
    expect = 1
    for place, n in sorted(Counter(e.place for e in d.entrants.values()).items()):
        assert place == expect, f"places skip or repeat: {place} after {expect - 1}"
        expect = place + n
    paid = Counter(
        (type(x), x.player, getattr(x, "entry", 1))
        for x in run.out
        if isinstance(x, TournamentPrize | TournamentTicket)
    )
    assert all(n == 1 for n in paid.values()), f"an entry paid twice: {paid.most_common(3)}"
    keys = Counter((e.player, e.entry) for e in d.entrants.values())
    assert all(n == 1 for n in keys.values()), "each entry is one entrant, numbered 1, 2, ... (R261)"
    for player, entry in keys:
        assert entry <= cfg.max_entries and all((player, k) in keys for k in range(1, entry))
    reentries = sum(1 for x in run.out if isinstance(x, TournamentBuyIn) and x.kind == "re_entry")
    assert reentries == sum(1 for _, entry in keys if entry > 1)
    bought = sum(x.prize for x in run.out if isinstance(x, TournamentBuyIn))  # rebuys, add-ons, late
    entries = sum(e.entries for e in d.entrants.values())
    contributions = (cfg.buy_in - d.bounty_part) * entries  # (the bounties apart: issue 35)
    assert contributions == d.contributions and bought <= cfg.buy_in * entries
    bounties = sum(x.amount for x in run.out if isinstance(x, TournamentBounty))
    assert bounties == d.bounty_in == d.bounty_part * entries, "every bounty is paid, exactly once"
    pool, overlay = prize_pool(contributions, guarantee=cfg.guarantee, freeroll=cfg.freeroll_pool)
    assert d.pool == pool
    overlays = [x.amount for x in run.out if isinstance(x, TournamentOverlay)]
    assert overlays == ([overlay] if overlay else []), "the overlay is booked once, only when owed"
    cash = sum(x.amount for x in run.out if isinstance(x, TournamentPrize | TournamentDealPaid))
    tickets = sum(x.value for x in run.out if isinstance(x, TournamentTicket))
    house_adds = d._satellite().house_adds if cfg.is_satellite else 0
    assert cash + tickets == pool + house_adds, "prizes and tickets are exactly the pool"
