"""A tournament as the lobby and its page show it (docs/protocol.md, "Tournaments")."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pokerroom.rooms.tournament import BlindLevel, TournamentConfig, TournamentDirector
from pokerroom.rooms.tournament.mixed import level_game, mix_of
from pokerroom.rooms.tournament.view import level_view

__all__ = ["director_summary", "tournament_details", "tournament_structure", "tournament_summary"]


def tournament_summary(
    cfg: TournamentConfig, tid: str, status: str, entrants: int, remaining: int, prize_pool: int
) -> dict[str, Any]:
    """A tournament's lobby row."""
    return {
        "tournament": tid,
        "name": cfg.name,
        "kind": cfg.kind,
        "status": status,
        "variant": cfg.variant,
        "betting": cfg.betting.value,
        "currency": cfg.currency,
        "buy_in": cfg.buy_in,
        "fee": cfg.fee,
        "starting_stack": cfg.starting_stack,
        "table_size": cfg.table_size,
        "level_minutes": cfg.level_minutes,
        "min_players": cfg.min_players,
        "max_players": cfg.max_players,
        "start_time": cfg.start_time.isoformat() if cfg.start_time else None,
        "entrants": entrants,
        "remaining": remaining,
        "prize_pool": prize_pool,
        "guarantee": cfg.guarantee,
        "freeroll": cfg.is_freeroll,
        "satellite_to": cfg.target or None,
        "rebuy_levels": cfg.rebuy_levels,
        "add_on": cfg.add_on,
        "late_registration_levels": cfg.late_registration_levels,
        "late_registration_minutes": cfg.late_registration_minutes,
        "max_entries": cfg.max_entries,  # a player's entries, his first included (R261); 1: no re-entry
        "featured": cfg.featured,
        "bounty": cfg.bounty,  # percent of the prize contribution (RULES.md §11.3), 0: none
        "progressive": cfg.progressive,
        "table_chat": cfg.table_chat,  # who may chat at its tables: off, players, everyone
        "lobby_chat": cfg.lobby_chat,  # who may write in its lobby chat: off, players, everyone
        "deals": cfg.deals,  # deals at the final table allowed (the operator may turn them off)
        "mix": _mix(cfg),  # a mixed tournament (RULES.md §11.1): one game of it per level
    }


def _mix(cfg: TournamentConfig) -> dict[str, Any] | None:
    mix = mix_of(cfg)
    if mix is None:
        return None
    return {"code": mix.code, "name": mix.name, "games": [g.label for g in mix.games]}


def tournament_structure(cfg: TournamentConfig) -> list[dict[str, Any]]:
    """The blind and ante levels, as the tournament page shows them."""
    return [
        {
            "level": n,
            "small_blind": lvl.small_blind,
            "big_blind": lvl.big_blind,
            "ante": lvl.ante,
            "minutes": cfg.level_minutes,
            **({"game": level_game(cfg, lvl).label} if cfg.mix else {}),  # a mixed tournament's (R251)
        }
        for n in range(1, 19)
        for lvl in (BlindLevel.default(n),)
    ]


def director_summary(d: TournamentDirector) -> dict[str, Any]:
    pool = d.pool if d.status != "registering" else d.config.buy_in * len(d.entrants)
    return tournament_summary(d.config, d.tid, d.status, len(d.entrants), len(d.remaining), pool)


def tournament_details(
    d: TournamentDirector,
    now: datetime,
    *,
    prizes: Mapping[str, int],
    tickets: Mapping[str, str],
) -> dict[str, Any]:
    """The tournament's page: structure, entrants, payouts, standings, tables, prizes, the level clock."""
    return {
        "summary": director_summary(d),
        "structure": tournament_structure(d.config),
        "entrants": [{"player": e.player, "name": e.name, "entry": e.entry} for e in d.entrants.values()],
        "registration_open": d.registration_open(now),  # (late registration, re-entry: R261)
        "payouts": [{"place": i, "amount": a} for i, a in enumerate(d.prizes, start=1)],
        "seats_won": d.seats_won,
        "standings": d.standings() if d.status != "registering" else [],
        "tables": [
            {
                "table": t.tid,
                "players": len(t.seats),
                "stacks": sorted((p.stack for p in t.seats.values()), reverse=True),
            }
            for _, t in sorted(d.tables.items())
        ],
        "hand_for_hand": d.hand_for_hand,
        "prizes": [{"player": p, "amount": a} for p, a in prizes.items()],
        "tickets": [{"player": p, "target": t} for p, t in tickets.items()],
        "level": level_view(d, now),
        "deal": d.deal_view(now),  # a deal at the final table: possible now, its figures, the one offered
    }
