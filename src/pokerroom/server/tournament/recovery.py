"""Tournaments after a restart (docs/decisions.md, "Tournaments"): nothing the store kept is lost.

- A tournament that had not started opens again with its registrations (its money is still in its prize
  pool) when the room still offers it (the same id in the settings, a copy of a sit-and-go series of the
  settings, or an admin-scheduled one, whose request was kept) at the same buy-in; otherwise every
  registration is refunded, buy-in and fee, to the account it came from.
- A tournament that was running cannot go on (its hands and clocks lived in memory): it is cancelled and
  what is left in its prize pool goes to the players still holding chips after their last finished hand
  (``interrupted_shares``: the lowest prize they were sure of, the rest by chips), with their fee back.
  In a bounty tournament each of them first gets his own bounty as the store kept it after that hand
  (the rest of the pool is then the prize part only, shared as above): every bounty exact (issue 35).
- Satellite tickets live in the store; those for a tournament cancelled here are paid to their holders'
  wallets (docs/tournaments.md, "Satellite tickets whose target is gone").

Each tournament is settled in one transaction with idempotency keys, so a crash during the recovery
itself is recovered the next time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.rooms.tournament.payouts import interrupted_shares
from pokerroom.server.schedule import ScheduleError, tournament_from_dict
from pokerroom.server.tournament.actor import TournamentActor
from pokerroom.server.tournament.money import cash_tickets_for
from pokerroom.store import AccountKind, Booking, Refund, Store, StoredTournament, TournamentChanges

# Opens a stored tournament again: (config, rush, series, spec) -> its actor.
Opener = Callable[[TournamentConfig, bool, "str | None", "dict[str, Any] | None"], TournamentActor]

__all__ = ["config_for", "recover_one", "recover_tournaments", "settings_by_id"]

log = logging.getLogger("pokerroom.tournament")


async def recover_tournaments(
    store: Store, settings: dict[str, tuple[TournamentConfig, bool]], open_tournament: Opener
) -> set[str]:
    """Deal with every tournament the store holds as registering or running; returns the settings ids
    (tournament ids, sit-and-go series) the room must not open afresh: taken back, or over already."""
    kept: set[str] = set()
    for rec in await store.tournaments.live():
        if await recover_one(store, rec, settings, open_tournament):
            kept.add(rec.series or rec.id)
    fixed = [tid for tid, (c, _) in settings.items() if c.kind != "sng"]
    kept |= set(await store.tournaments.statuses(fixed))  # taken back above, or over
    return kept


async def recover_one(
    store: Store,
    rec: StoredTournament,
    settings: dict[str, tuple[TournamentConfig, bool]],
    open_tournament: Opener,
) -> bool:
    """Deal with one stored tournament as above (a restart, or a cluster's host taking it over); True
    when it opened again with its registrations."""
    if rec.status == "running":
        await _cancel_interrupted(store, rec)
        return False
    found = config_for(rec, settings)
    if found is None:
        await _refund_all(store, rec, "it is not offered any more")
        return False
    cfg, rush = found
    if (cfg.currency, cfg.buy_in, cfg.fee) != (rec.currency, rec.buy_in, rec.fee):
        await _refund_all(store, rec, "its buy-in changed")
        return False
    actor = open_tournament(cfg, rush, rec.series, rec.spec)
    await actor.call(partial(actor.restore, list(rec.entries)))
    log.warning("tournament %s: %d registration(s) taken back", rec.id, len(rec.entries))
    return True


def settings_by_id(
    tournaments: Sequence[TournamentConfig], rush_tournaments: Sequence[TournamentConfig]
) -> dict[str, tuple[TournamentConfig, bool]]:
    """The room's tournaments and sit-and-go series by id, each with whether it is a Rush tournament. Of
    two with one id the first given wins: the room gives its own tournaments before a recurring series'
    occurrences, so that an occurrence kept as announced when its series was edited (the console's
    tournament, server/tournament/recurring.py) is taken back as announced."""
    out: dict[str, tuple[TournamentConfig, bool]] = {}
    for c in tournaments:
        out.setdefault(c.tournament_id, (c, False))
    for c in rush_tournaments:
        out.setdefault(c.tournament_id, (c, True))
    return out


def config_for(
    rec: StoredTournament, settings: dict[str, tuple[TournamentConfig, bool]]
) -> tuple[TournamentConfig, bool] | None:
    """The configuration of a stored tournament and whether it is a Rush tournament: its own (an admin's
    request, kept with it) or that of the settings' tournament or series it came from; None when neither
    exists any more."""
    if rec.spec is not None:
        spec = dict(rec.spec)
        rush = bool(spec.pop("rush", False))
        try:
            cfg = tournament_from_dict(spec)
        except ScheduleError:
            return None
        return replace(cfg, tournament_id=rec.id), rush
    key = rec.series or rec.id
    if key not in settings:
        return None
    cfg, rush = settings[key]
    return replace(cfg, tournament_id=rec.id), rush


async def _refund_all(store: Store, rec: StoredTournament, why: str) -> None:
    ledger = store.ledger
    pool = await ledger.account(AccountKind.PRIZE_POOL, rec.currency, ref=rec.id)
    house = await ledger.account(AccountKind.HOUSE, rec.currency)
    refunds = [Refund(e.player_id, pool, house, f"trecover:{rec.id}:{e.player_id}") for e in rec.entries]
    cash = await cash_tickets_for(store, rec.id, "cancelled")
    changes = TournamentChanges(refunds=refunds, status="cancelled", cash_tickets=cash)
    await store.tournaments.apply(rec.id, changes)
    log.warning(
        "tournament %s cancelled after a restart (%s): %d buy-in(s) refunded", rec.id, why, len(refunds)
    )


async def _cancel_interrupted(store: Store, rec: StoredTournament) -> None:
    ledger = store.ledger
    pool = await ledger.account(AccountKind.PRIZE_POOL, rec.currency, ref=rec.id)
    left = (await ledger.get_account(pool)).balance
    stacks: dict[str, int] = {}  # (a re-entered player's busted entries hold 0: R261)
    for e in rec.entries:
        if e.place is None:
            stacks[str(e.player_id)] = stacks.get(str(e.player_id), 0) + (e.stack or 0)
    bookings = []
    for e in rec.entries:  # a bounty tournament: each player holding chips gets his own bounty first
        if e.place is None and e.stack and e.bounty and e.bounty <= left:
            wallet = await ledger.account(AccountKind.WALLET, rec.currency, owner_id=e.player_id)
            player = str(e.player_id)
            memo = {"tournament": rec.id, "player": player, "victim": player, "ended": "restart"}
            key = f"tinterrupted:{rec.id}:bounty:{player}:{e.entry}"
            bookings.append(Booking("tourney_bounty", key, [(pool, -e.bounty), (wallet, e.bounty)], memo))
            left -= e.bounty
    shares = interrupted_shares(left, stacks, rec.prizes)
    postings: list[tuple[int, int]] = [(pool, -left)]
    if shares:
        house = await ledger.account(AccountKind.HOUSE, rec.currency)
        for player, amount in sorted(shares.items()):
            wallet = await ledger.account(AccountKind.WALLET, rec.currency, owner_id=int(player))
            postings += [(wallet, amount + rec.fee), (house, -rec.fee)]
    elif left:  # nobody holds chips (the last hand was never stored): the house keeps nothing of it
        postings.append((await ledger.account(AccountKind.PROMOTIONS, rec.currency), left))
    bookings.append(Booking("tourney_cancel", f"tinterrupted:{rec.id}", postings, {"tournament": rec.id}))
    cash = await cash_tickets_for(store, rec.id, "cancelled")
    changes = TournamentChanges(bookings=bookings, status="cancelled", cash_tickets=cash)
    await store.tournaments.apply(rec.id, changes)
    log.warning(
        "tournament %s was running when the room stopped: cancelled, %d paid from its pool to %d player(s)",
        rec.id,
        left,
        len(shares),
    )
