"""A deal at the final table (RULES.md §11.3, R256-R258; docs/tournaments.md, "Deals at the final
table"): any player at the final table proposes one between hands or during a hand; the tournament
pauses at the end of the hand in progress; the server offers the ICM or chip-chop amounts of the stacks
at that moment (``icm.deal_amounts``), with ``deal_keep`` left to play for; every player still in must
accept within ``deal_seconds``, else (a refusal, the time out) play resumes with the next hand. A mixin
of :class:`~.director.TournamentDirector`: the state is its own, the money goes out as effects."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pokerroom.rooms.errors import TableError
from pokerroom.rooms.notices import Notice
from pokerroom.rooms.tournament.config import TournamentConfig, TournamentDealPaid
from pokerroom.rooms.tournament.floor import Entrant
from pokerroom.rooms.tournament.icm import MAX_ICM_PLAYERS, DealMethod, deal_amounts
from pokerroom.rooms.tournament.table import TournamentTable

__all__ = ["Deal", "DealClosed", "DealOffered", "DealProposed", "FinalTableDeals"]

Output = list[object]


@dataclass(slots=True)
class Deal:
    proposer: str
    method: DealMethod
    proposed_at: datetime
    keep: int = 0
    players: tuple[str, ...] = ()  # those still in, biggest stack first (set when offered)
    stacks: tuple[int, ...] = ()
    amounts: tuple[int, ...] = ()
    deadline: datetime | None = None  # None: waiting for the hand in progress to end
    accepted: set[str] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class DealProposed(Notice):
    """``player`` proposed a deal: the tournament pauses at the end of the hand in progress."""

    player: str
    method: str


@dataclass(frozen=True, slots=True)
class DealOffered(Notice):
    """The amounts every player in the deal must accept before ``deadline`` (``keep`` stays in play)."""

    method: str
    keep: int
    players: tuple[str, ...]
    stacks: tuple[int, ...]
    amounts: tuple[int, ...]
    deadline: datetime


@dataclass(frozen=True, slots=True)
class DealClosed(Notice):
    """The deal is made (``made``) or not: ``reason`` accepted, refused (by ``player``), timeout, void."""

    made: bool
    reason: str
    player: str | None = None


class FinalTableDeals:
    """The deal of a :class:`~.director.TournamentDirector` (which holds the state declared here)."""

    config: TournamentConfig
    status: str
    entrants: dict[str, Entrant]
    tables: dict[int, TournamentTable]
    prizes: list[int]
    pool_final: bool
    seats_won: int
    deal: Deal | None
    deals_made: int
    _paid: set[str]
    _next_hand: dict[int, datetime]

    @property
    def tid(self) -> str:
        return self.config.tournament_id

    def _hand_out(self, amount: int) -> None:
        raise NotImplementedError

    def _finish(self, now: datetime) -> Output:
        raise NotImplementedError

    @property
    def remaining(self) -> list[Entrant]:
        raise NotImplementedError

    # ----------------------------------------------------------------------------------- requests

    def propose_deal(self, player: str, method: DealMethod, now: datetime) -> Output:
        """A player at the final table proposes a deal (ICM or chip chop)."""
        cfg = self.config
        if not cfg.deals:
            raise TableError("deals are off in this tournament")
        if self.status != "running" or getattr(self, "rush", None) is not None or len(self.tables) != 1:
            raise TableError("a deal is made at the final table")
        if cfg.is_satellite and self.seats_won:
            raise TableError("a satellite's seats are not dealt")
        e = self.entrants.get(player)
        if e is None or e.out:
            raise TableError("only a player still in may propose a deal")
        if self.deal is not None:
            raise TableError("a deal is proposed already")
        if not self.pool_final:
            raise TableError("no deal before the prize pool is final")
        if method not in ("icm", "chip_chop"):
            raise TableError("a deal is 'icm' or 'chip_chop'")
        if method == "icm" and len(self.remaining) > MAX_ICM_PLAYERS:
            raise TableError(f"an ICM deal is for {MAX_ICM_PLAYERS} players at most")
        self.deal = Deal(player, method, now)
        return [DealProposed(self.tid, player, method), *self._deal_step(now)]

    def answer_deal(self, player: str, accept: bool, now: datetime) -> Output:
        """A player in the offered deal accepts or refuses it (a refusal ends it: play resumes)."""
        deal = self.deal
        if deal is None or deal.deadline is None or player not in deal.players:
            raise TableError("there is no deal for you to answer")
        if now >= deal.deadline:
            return self._deal_step(now)
        if not accept:
            return self._close_deal(now, "refused", player)
        deal.accepted.add(player)
        if deal.accepted == set(deal.players):
            return self._make_deal(now)
        return []

    # ----------------------------------------------------------------------------------- the clock

    def _deal_step(self, now: datetime) -> Output:
        """Called after every step: offer the deal once no hand is in progress; close it at its deadline
        (R258), or when the tournament ended or a player went out meanwhile."""
        deal = self.deal
        if deal is None:
            return []
        holding = [e for e in self.remaining if e.stack > 0]  # (a player with no chips is going out)
        if self.status != "running" or len(holding) < 2:
            return self._close_deal(now, "void")
        if deal.deadline is not None:
            if now >= deal.deadline:
                return self._close_deal(now, "timeout")
            if set(deal.players) != {e.player for e in holding}:
                return self._close_deal(now, "void")
            return []
        if any(t.in_hand for t in self.tables.values()):
            return []  # the tournament pauses at the end of the hand in progress
        players = sorted(holding, key=lambda e: -e.stack)
        n = len(players)
        prizes = [self.prizes[k] if k < len(self.prizes) else 0 for k in range(n)]
        keep = min(self.config.deal_keep, prizes[0] - min(prizes))
        stacks = [e.stack for e in players]
        deal.players = tuple(e.player for e in players)
        deal.stacks = tuple(stacks)
        deal.keep = keep
        deal.amounts = tuple(deal_amounts(stacks, prizes, deal.method, keep=keep))
        deal.deadline = now + timedelta(seconds=self.config.deal_seconds)
        return [
            DealOffered(self.tid, deal.method, keep, deal.players, deal.stacks, deal.amounts, deal.deadline)
        ]

    def _deal_pauses(self) -> bool:
        """After a deal's step: still waiting for it (or the tournament ended): no new hand."""
        return self.deal is not None or self.status != "running"

    def _close_deal(self, now: datetime, reason: str, player: str | None = None) -> Output:
        self.deal = None
        for n in self.tables:  # play resumes with the next hand
            self._next_hand[n] = now
        return [DealClosed(self.tid, False, reason, player)]

    def _make_deal(self, now: datetime) -> Output:
        """Every player accepted: each is paid his amount now. With nothing kept the tournament ends (the
        places by stack, biggest first); else play goes on for the money kept (the first prize only)."""
        deal = self.deal
        assert deal is not None
        self.deal = None
        self.deals_made += 1
        out: Output = [DealClosed(self.tid, True, "accepted")]
        for player, amount in zip(deal.players, deal.amounts, strict=True):
            self.entrants[player].deal += amount
            if amount:
                self._hand_out(amount)
                out.append(TournamentDealPaid(self.tid, player, amount, deal.method))
        self.prizes = [deal.keep] if deal.keep else []
        if not deal.keep:
            for place, player in enumerate(deal.players, start=1):
                self.entrants[player].place = place
                self._paid.add(player)
            return out + self._finish(now)
        for n in self.tables:
            self._next_hand[n] = now
        return out
