"""A tournament's money in the ledger: buy-ins (or satellite tickets) to the prize pool and the house
*before* the director takes the registration (given back if it refuses), refunds, the guarantee's overlay
(from the promotions account), prizes, tickets and points, all from the director's effects; and what the
store keeps of the tournament (status, payouts, chips, places, hands) so that a restart loses nothing.
Tournament chips are not money: hands are not booked.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pokerroom.history import TournamentInfo
from pokerroom.rooms import HandFinished
from pokerroom.rooms.errors import TableError
from pokerroom.rooms.mixes import get_mix
from pokerroom.rooms.tournament import (
    TableHandEnded,
    TournamentBounty,
    TournamentDealPaid,
    TournamentDirector,
    TournamentOverlay,
    TournamentPrize,
    TournamentRefund,
    TournamentShare,
    TournamentTicket,
)
from pokerroom.server.errors import Refused
from pokerroom.server.history_glue import tournament_histories
from pokerroom.server.ids import store_id
from pokerroom.server.services import Services
from pokerroom.store import (
    AccountKind,
    Booking,
    CashTickets,
    NewTicket,
    Refund,
    StoredEntry,
    TournamentChanges,
    TournamentHand,
    TournamentRefused,
)

__all__ = ["StepChanges", "TournamentBank", "cash_tickets_for", "target_over"]


async def target_over(store: Any, target: str) -> bool:
    """Is this satellite target over: stored as cancelled or finished, or closed by the console (a
    tournament cancelled before anybody registered has no stored row)?"""
    status = (await store.tournaments.statuses([target])).get(target)
    if status in ("cancelled", "finished"):
        return True
    game = await store.games.get(target)
    return game is not None and game.kind == "tournament" and game.state == "closed"


async def cash_tickets_for(
    store: Any, target: str, reason: str, *, player: int | None = None
) -> CashTickets | None:
    """The tickets for ``target`` that its closing pays to their holders' wallets (all of them, or one
    player's); None when there are none (docs/tournaments.md, "Satellite tickets whose target is gone")."""
    wallets: dict[int, int] = {}
    for t in await store.tournaments.targeted(target):
        if t.used_for is None or t.used_for == target:  # (one used for it may come back with a refund)
            if player is None or t.player_id == player:
                wallets[t.player_id] = await store.ledger.account(
                    AccountKind.WALLET, t.currency, owner_id=t.player_id
                )
    return CashTickets(target, wallets, f"tcash:{target}", reason) if wallets else None


@dataclass(frozen=True)
class StepChanges:
    """One step's changes for the store, and the state they leave the store in."""

    changes: TournamentChanges
    status: str
    prizes: list[int]
    chips: dict[str, tuple[int, int | None]]
    tickets_closed: bool = False
    bounties: dict[str, int] = field(default_factory=dict)  # each player's live entry's bounty
    deals: dict[str, int] = field(default_factory=dict)  # what deals paid each player's live entry


class TournamentBank:
    def __init__(
        self,
        services: Services,
        director: TournamentDirector,
        *,
        series: str | None,
        spec: dict[str, Any] | None,
    ) -> None:
        self.services = services
        self.director = director
        self.tid = director.tid
        self.currency = director.config.currency
        self.series = series
        self.spec = spec
        self.run = secrets.token_hex(4)  # in idempotency keys: a tournament id may come back after a restart
        self._accounts: dict[str, int] = {}
        # What the store holds of this tournament (written when it changes): status, payouts, chips.
        self._saved_status = "registering"
        self._saved_prizes: list[int] = []
        self._saved_chips: dict[str, tuple[int, int | None]] = {}
        self._saved_bounties: dict[str, int] = {}  # (a bounty tournament: each live entry's bounty)
        self._saved_deals: dict[str, int] = {}  # (what deals at the final table paid each live entry)
        self._tickets_closed = False  # the unused tickets for it were cashed: it cannot take them now

    @property
    def store(self) -> Any:
        return self.services.store

    async def account(self, kind: AccountKind, *, owner: int | None = None, ref: str | None = None) -> int:
        key = f"{kind.value}:{owner}:{ref}"
        if key not in self._accounts:
            self._accounts[key] = await self.store.ledger.account(
                kind, self.currency, owner_id=owner, ref=ref
            )
        return self._accounts[key]

    async def prize_pool(self) -> int:
        return await self.account(AccountKind.PRIZE_POOL, ref=self.tid)

    async def entry_booking(self, player: str, source: int, key: str, kind: str, entry: int = 1) -> Booking:
        cfg = self.director.config
        house = await self.account(AccountKind.HOUSE)
        postings = [
            (source, -(cfg.buy_in + cfg.fee)),
            (await self.prize_pool(), cfg.buy_in),
            (house, cfg.fee),
        ]
        memo: dict[str, Any] = {"tournament": self.tid, "player": player, "kind": kind}
        if entry > 1:
            memo["entry"] = entry
        return Booking("tourney_buyin", key, postings, memo)

    async def refund(self, player: str, key: str) -> Refund:
        return Refund(store_id(player), await self.prize_pool(), await self.account(AccountKind.HOUSE), key)

    # ----------------------------------------------------------------------------- registration

    async def register(
        self, player: str, name: str, now: datetime, *, ticket: bool
    ) -> tuple[list[object], bool]:
        """Book the buy-in (wallet or ticket) and keep the registration in the store first, then register;
        a refusal gives the money back. Returns the director's output and whether a ticket paid."""
        d = self.director
        cfg = d.config
        if not d.registration_open(now):  # (``status``: not open yet, or no more)
            raise Refused("registration_closed", "registration is not open", status=d.status)
        entry = d.next_entry(player)  # 1, or a re-entry's number (R261)
        if entry == 0 and d.entrants[player].out and d.status == "running":
            raise Refused("no_reentry", "no more entries: re-entry is not offered, or you have used them all")
        if entry == 0:
            raise Refused("already_registered", "you are registered already")
        tournaments = self.store.tournaments
        ticket_id: int | None = None
        if ticket:
            found = [
                t
                for t in await tournaments.tickets(store_id(player), target=self.tid)
                if t.currency == self.currency and t.value == cfg.buy_in + cfg.fee
            ]
            if not found:
                raise Refused("no_ticket", "you have no ticket for this tournament")
            ticket_id, source = found[0].id, found[0].account_id
        else:
            source = await self.account(AccountKind.WALLET, owner=store_id(player))
        key = f"treg:{self.tid}:{player}:{secrets.token_hex(6)}"
        kind = "re_entry" if entry > 1 else "buy_in"
        try:
            await tournaments.register(
                self.tid,
                currency=self.currency,
                buy_in=cfg.buy_in,
                fee=cfg.fee,
                player_id=store_id(player),
                name=name,
                source_id=source,
                booking=await self.entry_booking(player, source, key, kind, entry),
                ticket_id=ticket_id,
                series=self.series,
                spec=self.spec,
                stack=cfg.starting_stack if d.status == "running" else None,
                entry=entry,
            )
        except TournamentRefused as exc:
            raise Refused("registration_closed", str(exc)) from None
        try:
            out = d.register(player, name, now, ticket=ticket_id is not None)
        except TableError:
            await tournaments.apply(
                self.tid, TournamentChanges(refunds=[await self.refund(player, f"{key}:undo")])
            )
            raise
        return out, ticket_id is not None

    async def restore(self, entries: Sequence[StoredEntry], now: datetime) -> list[object]:
        """After a restart: take back the registrations the store kept (their money is in the prize pool
        already); one the director refuses now is given back."""
        out: list[object] = []
        refunds = []
        for e in entries:
            try:
                out += self.director.register(str(e.player_id), e.name, now, ticket=e.ticket_id is not None)
            except TableError:
                refunds.append(await self.refund(str(e.player_id), f"trestore:{self.tid}:{e.player_id}"))
        if refunds:
            await self.store.tournaments.apply(self.tid, TournamentChanges(refunds=refunds))
        return out

    async def rebuy(self, player: str, now: datetime, *, add_on: bool) -> list[object]:
        """A rebuy (or the add-on) in its period: booked from the wallet first, given back if refused."""
        d = self.director
        e = d.entrants.get(player)
        if e is None or e.out:
            raise Refused("not_playing", "you are not in the tournament")
        cfg = d.config
        kind = "add_on" if add_on else "rebuy"
        source = await self.account(AccountKind.WALLET, owner=store_id(player))
        key = f"t{kind}:{self.tid}:{player}:{secrets.token_hex(6)}"
        tournaments = self.store.tournaments
        booking = await self.entry_booking(player, source, key, kind)
        await tournaments.add_chips(self.tid, store_id(player), cfg.starting_stack, booking)
        try:
            return d.rebuy(player, now, add_on=add_on)
        except TableError as exc:
            house = await self.account(AccountKind.HOUSE)
            back = [(source, cfg.buy_in + cfg.fee), (await self.prize_pool(), -cfg.buy_in), (house, -cfg.fee)]
            memo = {"tournament": self.tid, "player": player}
            undo = Booking("tourney_refund", f"{key}:undo", back, memo)
            await tournaments.add_chips(self.tid, store_id(player), -cfg.starting_stack, undo)
            raise Refused("rebuy_refused", str(exc)) from None

    # -------------------------------------------------------------------------------- the store

    async def store_step(self, out: Sequence[object], now: datetime) -> None:
        """Store what one step changed (money, chips, places, hands, status) in one transaction."""
        await self.store_changes(await self.changes_of(out, now))

    async def changes_of(self, out: Sequence[object], now: datetime) -> StepChanges:
        """What one step changed, with its idempotency keys chosen once: storing the same changes again
        (after a store fault) books nothing twice."""
        changes = TournamentChanges()
        for item in out:
            if isinstance(item, TournamentRefund):
                key = f"tref:{self.tid}:{item.player}:{secrets.token_hex(6)}"
                changes.refunds.append(await self.refund(item.player, key))
            elif isinstance(item, TournamentOverlay):
                promotions = await self.account(AccountKind.PROMOTIONS)
                changes.bookings.append(
                    Booking(
                        "tourney_overlay",
                        f"toverlay:{self.tid}:{self.run}",
                        [(promotions, -item.amount), (await self.prize_pool(), item.amount)],
                        {"tournament": self.tid},
                    )
                )
            elif isinstance(item, TournamentPrize):
                wallet = await self.account(AccountKind.WALLET, owner=store_id(item.player))
                changes.bookings.append(
                    Booking(
                        "tourney_prize",
                        f"tprize:{self.tid}:{self.run}:{item.player}:{item.entry}",
                        [(await self.prize_pool(), -item.amount), (wallet, item.amount)],
                        {
                            "tournament": self.tid,
                            "player": item.player,
                            "place": item.place,
                            "entry": item.entry,
                        },
                    )
                )
            elif isinstance(item, TournamentBounty):  # a knockout, or a player's own bounty
                wallet = await self.account(AccountKind.WALLET, owner=store_id(item.player))
                changes.bookings.append(
                    Booking(
                        "tourney_bounty",
                        f"tbounty:{self.tid}:{self.run}:{item.victim}.{item.entry}:{item.player}",
                        [(await self.prize_pool(), -item.amount), (wallet, item.amount)],
                        {"tournament": self.tid, "player": item.player, "victim": item.victim},
                    )
                )
            elif isinstance(item, TournamentDealPaid):  # a deal at the final table (RULES.md §11.3)
                wallet = await self.account(AccountKind.WALLET, owner=store_id(item.player))
                changes.bookings.append(
                    Booking(
                        "tourney_deal",
                        f"tdeal:{self.tid}:{self.run}:{self.director.deals_made}:{item.player}",
                        [(await self.prize_pool(), -item.amount), (wallet, item.amount)],
                        {
                            "tournament": self.tid,
                            "player": item.player,
                            "deal": item.method,
                            "stack": self.director.entrants[item.player].stack,
                        },
                    )
                )
            elif isinstance(item, TournamentShare):  # an ended tournament (docs/tournaments.md)
                wallet = await self.account(AccountKind.WALLET, owner=store_id(item.player))
                house = await self.account(AccountKind.HOUSE)
                postings = [(await self.prize_pool(), -item.amount), (house, -item.fee)]
                changes.bookings.append(
                    Booking(
                        "tourney_cancel",
                        f"tinterrupted:{self.tid}:{self.run}:{item.player}",
                        [*postings, (wallet, item.amount + item.fee)],
                        {"tournament": self.tid, "player": item.player, "ended": "operator"},
                    )
                )
            elif isinstance(item, TournamentTicket):
                changes.tickets.append(
                    NewTicket(
                        store_id(item.player),
                        self.tid,
                        item.target,
                        self.currency,
                        item.value,
                        await self.account(AccountKind.TICKET, ref=item.player),
                        await self.prize_pool(),
                        await self.account(AccountKind.PROMOTIONS),
                        f"tticket:{self.tid}:{self.run}:{item.player}",
                    )
                )
            elif isinstance(item, TableHandEnded | HandFinished):
                changes.hands.append(self.hand_record(item, now))
        d = self.director
        status = "registering" if d.status == "announced" else d.status
        if status != self._saved_status:
            changes.status = status
        if not self._tickets_closed and (
            d.status in ("cancelled", "finished") or (d.status == "running" and not d.registration_open(now))
        ):  # its tickets can no longer be used: their value to their holders (issue 35)
            reason = d.status if d.status != "running" else "registration closed"
            changes.cash_tickets = await cash_tickets_for(self.store, self.tid, reason)
            closed = True
        else:
            closed = self._tickets_closed
        if d.prizes != self._saved_prizes and status != "registering":
            changes.prizes = list(d.prizes)
        chips: dict[str, tuple[int, int | None]] = {}  # by the director's key of each entry
        if status != "registering":
            for key, e in d.entrants.items():
                held = (0 if e.out else e.stack, e.place)
                if self._saved_chips.get(key) != held:
                    chips[key] = held
                    if key != e.player:  # a re-entered player's earlier entry (R261)
                        changes.entry_places[(store_id(e.player), e.entry)] = e.place
                    else:
                        changes.chips[store_id(e.player)] = held
        bounties: dict[str, int] = {}  # kept so that a restart pays each his own bounty exactly
        if status == "running" and d.config.bounty:
            for key, e in d.entrants.items():
                if key == e.player and self._saved_bounties.get(key) != e.bounty:
                    bounties[key] = e.bounty
                    changes.bounties[store_id(key)] = e.bounty
        deals: dict[str, int] = {}  # kept so that the archived page shows them after a restart
        for key, e in d.entrants.items():
            if key == e.player and e.deal and self._saved_deals.get(key, 0) != e.deal:
                deals[key] = e.deal
                changes.deals[store_id(key)] = e.deal
        return StepChanges(changes, status, list(d.prizes), chips, closed, bounties, deals)

    async def store_changes(self, step: StepChanges) -> None:
        if step.changes:
            await self.store.tournaments.apply(self.tid, step.changes)
        self._saved_status = step.status
        self._saved_prizes = step.prizes
        self._saved_chips.update(step.chips)
        self._saved_bounties.update(step.bounties)
        self._saved_deals.update(step.deals)
        self._tickets_closed = self._tickets_closed or step.tickets_closed

    def hand_record(self, item: TableHandEnded | HandFinished, now: datetime) -> TournamentHand:
        cfg = self.director.config
        info = TournamentInfo(self.tid, cfg.name, cfg.buy_in, cfg.fee, self.director.level(now).number)
        if isinstance(item, TableHandEnded):
            hand, table = item.hand, item.table_id
            name, seats = f"{cfg.name} - table {item.number}", cfg.table_size
            started, players = item.started_at, item.players
        else:
            rec = item.record
            hand, table, name, seats = rec.hand, rec.table_id, rec.table_name, rec.seats
            started, players = rec.started_at, dict(rec.players)
        # (a hand that started and ended in this step is sealed here first: the step is stored before
        # its frames go out, and the table core publishes this same seal's commitment)
        seal = self.services.seals.of(hand)
        history = tournament_histories(
            hand,
            table=name,
            seats=seats,
            started_at=started,
            players=players,
            info=info,
            proof=seal.proof(),
            mix=get_mix(cfg.mix).name if cfg.mix else "",  # a mixed tournament (RULES.md §11.1)
        )
        game = f"{hand.variant.code}/{hand.structure.betting.value}"
        return TournamentHand(hand.hand_id, table, game, now, history)
