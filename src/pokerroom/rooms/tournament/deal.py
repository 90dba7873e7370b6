"""A deal at the final table (RULES.md §11.3, R256-R258; docs/tournaments.md, "Deals at the final
table"): any player at the final table proposes one between hands or during a hand; the tournament
pauses at the end of the hand in progress; the server offers the ICM or chip-chop amounts of the stacks
at that moment (``icm.deal_amounts``), with ``deal_keep`` left to play for; every player still in must
accept within ``deal_seconds``, else (a refusal, the time out) play resumes with the next hand. A mixin
of :class:`~.director.TournamentDirector`: the state is its own, the money goes out as effects."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import lru_cache

from pokerroom.rooms.errors import TableError
from pokerroom.rooms.notices import Notice
from pokerroom.rooms.tournament.config import TournamentConfig, TournamentDealPaid
from pokerroom.rooms.tournament.floor import Entrant
from pokerroom.rooms.tournament.icm import MAX_ICM_PLAYERS, DealMethod, deal_amounts
from pokerroom.rooms.tournament.table import TournamentTable

__all__ = ["Deal", "DealAccepted", "DealClosed", "DealOffered", "DealProposed", "FinalTableDeals"]

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
class DealAccepted(Notice):
    """``player`` accepted the deal offered (the others still to answer see who has)."""

    player: str


@dataclass(frozen=True, slots=True)
class DealClosed(Notice):
    """The deal is made (``made``) or not: ``reason`` accepted, refused (by ``player``), timeout, void."""

    made: bool
    reason: str
    player: str | None = None


@lru_cache(maxsize=64)
def _amounts(stacks: tuple[int, ...], prizes: tuple[int, ...], method: DealMethod, keep: int) -> list[int]:
    """``deal_amounts``, remembered: a page shows the same stacks' figures to every viewer, every few
    seconds (an exact ICM of 10 players is 10 x 2^10 fractions)."""
    return deal_amounts(stacks, prizes, method, keep=keep)


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
        if player in deal.accepted:
            return []
        deal.accepted.add(player)
        if deal.accepted == set(deal.players):
            return self._make_deal(now)
        return [DealAccepted(self.tid, player)]

    def set_deals(self, allowed: bool, now: datetime) -> Output:
        """The operator allows or forbids deals (``config.deals``); forbidding them ends a deal proposed
        and not yet made: play resumes with the next hand."""
        self.config = replace(self.config, deals=allowed)
        if not allowed and self.deal is not None:
            return self._close_deal(now, "void")
        return []

    # ----------------------------------------------------------------------------------- the view

    def deal_blocked(self) -> str | None:
        """Why no deal may be proposed now (``propose_deal``'s checks that do not depend on who asks), or
        None: deals are on, the tournament plays at its final table with a final pool, none proposed."""
        cfg = self.config
        if not cfg.deals:
            return "off"
        if self.status != "running" or getattr(self, "rush", None) is not None or len(self.tables) != 1:
            return "not_final_table"
        if cfg.is_satellite and self.seats_won:
            return "satellite"
        if not self.pool_final:
            return "pool_not_final"
        if self.deal is not None:
            return "proposed"
        return None

    def deal_figures(self, stacks: list[int]) -> tuple[int, dict[str, list[int] | None]]:
        """What ``stacks`` (biggest first) would be paid now by each method, and the money kept to play
        for: ``{"icm": [...] or None (more players than MAX_ICM_PLAYERS), "chip_chop": [...]}``."""
        n = len(stacks)
        prizes = [self.prizes[k] if k < len(self.prizes) else 0 for k in range(n)]
        keep = min(self.config.deal_keep, prizes[0] - min(prizes))
        at = (tuple(stacks), tuple(prizes))
        icm = list(_amounts(*at, "icm", keep)) if n <= MAX_ICM_PLAYERS else None
        return keep, {"icm": icm, "chip_chop": list(_amounts(*at, "chip_chop", keep))}

    def deal_view(self, now: datetime) -> dict[str, object]:
        """The deal as a tournament's page shows it: whether one may be proposed (``blocked``: why not),
        the figures of both methods for the stacks now (the players still in, biggest first), and the
        deal proposed or offered (its amounts, who accepted, the seconds left)."""
        blocked = self.deal_blocked()
        view: dict[str, object] = {"allowed": self.config.deals, "blocked": blocked, "made": self.deals_made}
        holding = sorted((e for e in self.remaining if e.stack > 0), key=lambda e: -e.stack)
        if blocked in (None, "proposed") and len(holding) >= 2:
            stacks = [e.stack for e in holding]
            keep, figures = self.deal_figures(stacks)
            view["preview"] = {
                "players": [e.name for e in holding],
                "stacks": stacks,
                "keep": keep,
                **figures,
            }
        deal = self.deal
        if deal is not None:
            names = self.entrants
            current: dict[str, object] = {
                "state": "offered" if deal.deadline is not None else "proposed",
                "method": deal.method,
                "player": names[deal.proposer].name,
            }
            if deal.deadline is not None:
                current.update(
                    keep=deal.keep,
                    players=[names[p].name for p in deal.players],
                    stacks=list(deal.stacks),
                    amounts=list(deal.amounts),
                    accepted=[names[p].name for p in deal.players if p in deal.accepted],
                    expires_in=max(0.0, (deal.deadline - now).total_seconds()),
                )
            view["current"] = current
        return view

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
